"""`python -m minitorch2`: the command line.

    python -m minitorch2 run [OPTIONS] [SCRIPT.py [ARGS...]]
    python -m minitorch2 explain SCRIPT.py [ARGS...]
    python -m minitorch2 fuzz [--examples N] [--seed S] [--layer eager|fx|frontend|aot|partition|backend]

`run` runs SCRIPT as `__main__` on minitorch2, with the module alias table
installed so that `import torch` gives minitorch2. Without options nothing is
added to the script's stdout, and the exit status is the script's, so its
output can be diffed line by line against the same script on real PyTorch.
Without SCRIPT it runs the built-in demo. The options of `run` come BEFORE
SCRIPT; everything after SCRIPT goes to the script (`run --show aot s.py a b`
runs s.py with sys.argv[1:] == ["a", "b"]):

    --backend B        the backend of every torch.compile / torch._dynamo.optimize call that
                       names none (eager, aot_eager, inductor or any registered name)
    --show LAYERS      print on stderr the graphs of the named layers, a comma list of dynamo,
                       aot, joint, partition, kernels, guards (each switches on MINITORCH2_LOGS
                       artifacts: see _cli_compare.LAYERS)
    --compare-torch    run the script twice in subprocesses, on minitorch2 and on real PyTorch
                       (TORCH_LOGS matching --show), print our run's output, then a report of
                       the differences in printed lines (numbers within float32 tolerance
                       match), graphs op by op, and exit status (_cli_compare.py); exit 0 when
                       everything matches, 1 otherwise, 2 when torch is not installed
    --report OUT.html  also write one self-contained HTML page: the command, stdout, stderr,
                       the graphs of every layer, and the comparison (_cli_report.py)

With --compare-torch or --report the script runs in a subprocess (_cli_runs.py:
its output is captured, then echoed); otherwise in this process.

`explain` runs SCRIPT the same way while recording every frame the frontend
compiles (the script's own `torch.compile` calls, `with optimize()` blocks,
and the resume functions of graph breaks), then prints, per frame, what
`torch._dynamo.explain` would: its graphs (as code), graph breaks with their
reasons, explanations and hints, and its guards.

`fuzz` runs the hypothesis differential properties of one layer (or all of
them) against PyTorch with N examples each, seeded by S (_cli_fuzz.py).
"""
import argparse
import os
import runpy
import sys
import traceback

from . import _cli_compare, _cli_fuzz, _cli_runs
from ._cli_compare import LAYERS

_RUN_EPILOG = """options come before SCRIPT; everything after SCRIPT is passed to it:
  python -m minitorch2 run --backend eager --show dynamo,aot script.py a b   (script's argv: a b)"""


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m minitorch2", description="minitorch2: a readable PyTorch 2 stack")
    commands = parser.add_subparsers(dest="command", required=True)
    run = commands.add_parser("run", help="run a PyTorch script on minitorch2 (or the built-in demo)",
                              epilog=_RUN_EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    run.add_argument("--backend", metavar="B", help="default backend of torch.compile / torch._dynamo.optimize "
                     "calls that name none (eager, aot_eager, inductor, or any registered name)")
    run.add_argument("--show", metavar="LAYERS", type=_layer_list, default=(),
                     help=f"print on stderr the graphs of these layers, a comma list of {', '.join(LAYERS)}")
    run.add_argument("--compare-torch", action="store_true", help="run the script on real PyTorch as well and "
                     "report differences in printed output, graphs (op by op) and exit status")
    run.add_argument("--report", metavar="OUT.html", help="write an HTML page with the command, output, the "
                     "graphs of every layer and (with --compare-torch) the comparison")
    run.add_argument("script", nargs="?", help="a PyTorch script; omitted: the built-in demo")
    run.add_argument("args", nargs=argparse.REMAINDER, help="arguments passed to the script")
    explain = commands.add_parser("explain", help="run a script and explain every frame it compiled")
    explain.add_argument("script", help="a PyTorch script")
    explain.add_argument("args", nargs=argparse.REMAINDER, help="arguments passed to the script")
    _cli_fuzz.add_parser(commands)
    options = parser.parse_args(argv)
    if options.command == "run":
        if options.compare_torch or options.report:
            return run_observed(options)
        return run_script(options.script, options.args, backend=options.backend, show=options.show)
    if options.command == "explain":
        return explain_script(options.script, options.args)
    if options.command == "fuzz":
        return _cli_fuzz.main(options)
    return 2


def _layer_list(text):
    layers = tuple(name.strip() for name in text.split(",") if name.strip())
    unknown = [name for name in layers if name not in LAYERS]
    if unknown or not layers:
        raise argparse.ArgumentTypeError(f"unknown layer(s) {', '.join(map(repr, unknown)) or repr(text)}; "
                                         f"choose from {', '.join(LAYERS)}")
    return layers


def run_script(script, args, backend=None, show=()):
    """Run script (None: the demo) in this process; backend: the default backend; show: layers to log."""
    from . import _aliases

    _aliases.install()
    if backend is not None and not _set_default_backend(backend):
        return 2
    if show:
        _switch_on_logs(artifact for layer in show for artifact in LAYERS[layer].ours)
    if script is None:
        from . import _demo

        _demo.main()
        return 0
    if not os.path.exists(script):
        print(f"python -m minitorch2 run: can't open file '{script}'", file=sys.stderr)
        return 2
    sys.argv = [script, *args]
    sys.path.insert(0, os.path.dirname(os.path.abspath(script)))
    try:
        # an absolute path, as `python script.py` gives its code since 3.9 (so graphs' stack traces name it alike)
        runpy.run_path(os.path.abspath(script), run_name="__main__")
    except SystemExit as e:
        return e.code if isinstance(e.code, int) else (0 if e.code is None else 1)
    except (_aliases.MissingFeature, _missing_errors()) as e:
        print(f"{script}:{_script_line(e, script)}: unsupported by minitorch2: {e}", file=sys.stderr)
        return 1
    return 0


def _set_default_backend(name):
    """The frontend's default backend becomes name (False, with the frontend's error, when unknown)."""
    if not _backend_is_known(name):
        return False
    from frontend import backends

    backends.DEFAULT_BACKEND = name
    return True


def _backend_is_known(name):
    """Is name a registered backend? If not, print the frontend's InvalidBackend error for it."""
    from frontend import backends
    from frontend.exc import InvalidBackend

    try:
        backends.lookup_backend(name)
    except InvalidBackend as e:
        print(f"python -m minitorch2 run: {type(e).__name__}: {e}", file=sys.stderr)
        return False
    return True


def _switch_on_logs(artifacts):
    from . import _logging

    current = os.environ.get(_logging.ENV_VAR, "")
    os.environ[_logging.ENV_VAR] = ",".join(item for item in (current, *artifacts) if item)
    _logging.reload()


# ---- --compare-torch and --report: the script in subprocesses -----------------------------------------

def run_observed(options):
    """Run the script in a subprocess (and on torch too with --compare-torch), echo our run's output,
    then print the comparison and/or write the HTML report."""
    if options.compare_torch and options.script is None:
        print("python -m minitorch2 run: --compare-torch needs a SCRIPT (the demo is not a PyTorch script)",
              file=sys.stderr)
        return 2
    if options.script is not None and not os.path.exists(options.script):
        print(f"python -m minitorch2 run: can't open file '{options.script}'", file=sys.stderr)
        return 2
    if options.backend is not None and not _backend_is_known(options.backend):
        return 2
    if options.compare_torch and not _cli_runs.torch_available():
        print("python -m minitorch2 run: --compare-torch needs PyTorch, which is not installed", file=sys.stderr)
        return 2
    compared = options.show or _cli_compare.DEFAULT_COMPARED_LAYERS
    logged = list(LAYERS) if options.report else (compared if options.compare_torch else options.show)
    ours_artifacts = [a for layer in logged for a in LAYERS[layer].ours]
    ours_command = _cli_runs.minitorch2_command(options.script, options.args, options.backend)
    torch_command, torch_artifacts = None, ()
    if options.compare_torch:
        torch_artifacts = [a for layer in compared for a in LAYERS[layer].torch]
        torch_command = _cli_runs.torch_command(options.script, options.args, options.backend)
    ours, theirs = _cli_runs.run_both(ours_command, ours_artifacts, torch_command, torch_artifacts)
    shown = {a for layer in options.show for a in LAYERS[layer].ours} | _user_artifacts()
    sys.stdout.write(ours.stdout)
    sys.stdout.flush()
    sys.stderr.write(_cli_compare.without_artifacts(ours.stderr, shown))
    sys.stderr.flush()
    status = ours.returncode
    comparison = None
    if theirs is not None:
        comparison = _cli_compare.compare_runs(ours, theirs, compared)
        print(_cli_compare.format_report(comparison))
        status = 0 if comparison.matches else 1
    if options.report:
        from . import _cli_report

        _cli_report.write_report(options.report, ["python", "-m", "minitorch2", "run", *_argv_of(options)],
                                 ours, theirs, comparison)
        print(f"python -m minitorch2 run: report written to {options.report}", file=sys.stderr)
    return status


def _user_artifacts():
    """The artifacts MINITORCH2_LOGS itself names (their lines are echoed, as without --report)."""
    from . import _logging

    names = {item.strip() for item in os.environ.get(_logging.ENV_VAR, "").split(",")}
    return set(_logging.ARTIFACTS) if "all" in names else names & set(_logging.ARTIFACTS)


def _argv_of(options):
    argv = []
    if options.backend:
        argv += ["--backend", options.backend]
    if options.show:
        argv += ["--show", ",".join(options.show)]
    if options.compare_torch:
        argv.append("--compare-torch")
    argv += ["--report", options.report]
    return argv + ([options.script, *options.args] if options.script else [])


def explain_script(script, args):
    """Run script (as `run` does) and print, per compiled frame, graphs, breaks with reasons, and guards."""
    if not os.path.exists(script):
        print(f"python -m minitorch2 explain: can't open file '{script}'", file=sys.stderr)
        return 2
    from frontend import eval_frame

    compiled = []  # (code, CacheEntry) in the order the frames were compiled

    def record(entry):
        compiled.append(entry)

    eval_frame._observers.append(record)
    try:
        status = run_script(script, args)
    finally:
        eval_frame._observers.remove(record)
    sys.stdout.flush()
    print(explain_report(compiled, eval_frame.CACHE))
    return status


def explain_report(entries, cache):
    """The text `explain` prints: one ExplainOutput per compiled frame (code object), in compile order."""
    from frontend.explain import ExplainOutput, _reason

    code_of = {id(e): code for code, code_entries in cache.items() for e in code_entries}
    frames = {}
    for entry in entries:
        frames.setdefault(code_of.get(id(entry)), []).append(entry)
    graph_total = sum(1 for e in entries if e.graph is not None)
    lines = [f"==== minitorch2 explain: {len(frames)} frame(s) compiled, {graph_total} graph(s) ===="]
    for code, frame_entries in frames.items():
        where = f"{code.co_name} ({code.co_filename}:{code.co_firstlineno})" if code else "(a frame forgotten by reset())"
        graphs = [e.graph for e in frame_entries if e.graph is not None]
        breaks = [_reason(e) for e in frame_entries if e.break_reason and e.graph is not None]
        eager = [_reason(e) for e in frame_entries if e.break_reason and e.graph is None]
        guards = [g for e in frame_entries for g in e.guard_fn.guard_list]
        output = ExplainOutput(graphs, breaks, guards, eager)
        output.graph_break_count = len(breaks) + len(eager)  # per frame: its breaks (not graphs - 1)
        lines += ["", f"--- frame {where}: {len(frame_entries)} cache entr{'y' if len(frame_entries) == 1 else 'ies'}",
                  str(output).rstrip("\n"), "Graphs:"]
        for i, gm in enumerate(graphs, 1):
            lines.append(f"  Graph {i}:")
            code_text = gm.print_readable(print_output=False, include_stride=True, include_device=True)
            lines += [f"    {line}" if line else "" for line in code_text.rstrip("\n").split("\n")]
    return "\n".join(lines)


def _missing_errors():
    from ._unsupported import Unsupported

    return Unsupported


def _script_line(error, script):
    frames = [f for f in traceback.extract_tb(error.__traceback__) if os.path.abspath(f.filename) == os.path.abspath(script)]
    return frames[-1].lineno if frames else "?"


if __name__ == "__main__":
    sys.exit(main())
