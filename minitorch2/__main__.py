"""`python -m minitorch2`: the command line.

    python -m minitorch2 run [SCRIPT.py [ARGS...]]
    python -m minitorch2 explain SCRIPT.py [ARGS...]

`run` runs SCRIPT as `__main__` on minitorch2, with the module alias table
installed so that `import torch` gives minitorch2. Nothing is added to the
script's stdout, and the exit status is the script's, so its output can be
diffed line by line against the same script on real PyTorch. Without SCRIPT
it runs the built-in demo.

`explain` runs SCRIPT the same way while recording every frame the frontend
compiles (the script's own `torch.compile` calls, `with optimize()` blocks,
and the resume functions of graph breaks), then prints, per frame, what
`torch._dynamo.explain` would: its graphs (as code), graph breaks with their
reasons, explanations and hints, and its guards.
"""
import argparse
import os
import runpy
import sys
import traceback


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m minitorch2", description="minitorch2: a readable PyTorch 2 stack")
    commands = parser.add_subparsers(dest="command", required=True)
    run = commands.add_parser("run", help="run a PyTorch script on minitorch2 (or the built-in demo)")
    run.add_argument("script", nargs="?", help="a PyTorch script; omitted: the built-in demo")
    run.add_argument("args", nargs=argparse.REMAINDER, help="arguments passed to the script")
    explain = commands.add_parser("explain", help="run a script and explain every frame it compiled")
    explain.add_argument("script", help="a PyTorch script")
    explain.add_argument("args", nargs=argparse.REMAINDER, help="arguments passed to the script")
    options = parser.parse_args(argv)
    if options.command == "run":
        return run_script(options.script, options.args)
    if options.command == "explain":
        return explain_script(options.script, options.args)
    return 2


def run_script(script, args):
    from . import _aliases

    _aliases.install()
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
        runpy.run_path(script, run_name="__main__")
    except SystemExit as e:
        return e.code if isinstance(e.code, int) else (0 if e.code is None else 1)
    except (_aliases.MissingFeature, _missing_errors()) as e:
        print(f"{script}:{_script_line(e, script)}: unsupported by minitorch2: {e}", file=sys.stderr)
        return 1
    return 0


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
