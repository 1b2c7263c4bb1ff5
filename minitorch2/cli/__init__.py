"""`python -m minitorch2`: the command line, the product shell around the stack.

    python -m minitorch2 run [OPTIONS] [SCRIPT.py [ARGS...]]
    python -m minitorch2 explain SCRIPT.py [ARGS...]
    python -m minitorch2 fuzz [--examples N] [--seed S] [--layer eager|fx|frontend|aot|partition|backend|classes|half]

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
                       artifacts: see compare.LAYERS)
    --compare-torch    run the script twice in subprocesses, on minitorch2 and on real PyTorch
                       (TORCH_LOGS matching --show), print our run's output, then a report of
                       the differences in printed lines (numbers compared as numbers:
                       integers exactly, floats within float32 tolerance or their printed
                       precision), graphs op by op (a differing one's ops side by side), and
                       exit status (compare.py); exit 0 when everything matches, 1 otherwise,
                       2 when torch is not installed
    --report OUT.html  also write one self-contained HTML page that walks through every compile
                       of the run in pipeline order: the user's lines that made nodes, capture
                       (breaks, guards, recompiles), the captured graph, the joint graph, the
                       default and min-cut partitions drawn side by side, forward and backward,
                       loop IR before and after fusion, the kernels, each stage's time, each
                       narrated; pictures are inline SVG (report.py, report_stages.py); a path
                       that cannot be written ends the run before the script starts

With --compare-torch or --report the script runs in a subprocess
(subprocesses.py: its output is captured, then echoed); otherwise in this process.

`explain` runs SCRIPT the same way while recording every frame the frontend
compiles (the script's own `torch.compile` calls, `with optimize()` blocks,
and the resume functions of graph breaks), then prints, per frame, what
`torch._dynamo.explain` would: its graphs (as code), graph breaks with their
reasons, explanations, hints and the user's call stack, the ops in torch's
spelling, and its guards; what several cache entries share, once. The report
prints even when the script raises (after its traceback).

Under `run` (and `explain`), a script's TORCH_LOGS and TORCH_COMPILE_DEBUG act
as MINITORCH2_LOGS and MINITORCH2_COMPILE_DEBUG: torch's component names
(dynamo, aot, inductor, torch._dynamo, ...) are ours, names only torch logs are
dropped with a one-line warning, and an unknown name ends the run at startup
in one line.

`fuzz` runs the hypothesis differential properties of one layer (or all of
them) against PyTorch with N examples each, seeded by S (fuzz.py).

The package, one module per command or concern:

    __init__.py      the parser and main(): which command runs
    run.py           `run`: a script (or the demo) in this process, or observed from subprocesses
    aliases.py       the module alias table: `import torch` gets minitorch2
    demo.py          the built-in demo
    subprocesses.py  the two child runs behind --compare-torch / --report
    compare.py       what differs between the two runs (printed lines, graphs op by op)
    report.py        the --report HTML page
    walkthrough.py   what a --report run records of each compile (at minitorch2._logging's seam)
    report_facts.py  what the walkthrough states: partitions compared, aten nodes -> kernels, timings
    report_stages.py the walkthrough as HTML, stage by stage, narrated
    svg.py           graphs drawn as SVG by our own layered layout (no Graphviz)
    explain.py       `explain`: per compiled frame, graphs, breaks and guards
    standalone.py    what the MINITORCH2_COMPILE_DEBUG folder's output_code.py and fx_graph_runnable.py
                     import to run on their own (kernels from their IR text, timing, the compile again)
    fuzz.py          `fuzz`: the differential properties through pytest (also its pytest plugin)

The one idea to hold: this is the only package that imports every layer
(runtime, frontend, autograd, partition, backend); nothing in the runtime
imports it.
"""
import argparse

from . import fuzz
from .compare import LAYERS

_RUN_EPILOG = """options come before SCRIPT; everything after SCRIPT is passed to it:
  python -m minitorch2 run --backend eager --show dynamo,aot script.py a b   (script's argv: a b)"""


def main(argv=None):
    options = build_parser().parse_args(argv)
    if options.command == "fuzz":
        return fuzz.main(options)
    # run.py and explain.py import the compiler's layers: loaded only for these commands, so `--help` stays
    # fast and pytest's `-p minitorch2.cli.fuzz` (which imports this package) loads none of them
    from . import explain, run

    if options.command == "run":
        return run.main(options)
    if options.command == "explain":
        return explain.main(options)
    return 2


def build_parser():
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
    run.add_argument("--report", metavar="OUT.html", help="write an HTML page walking through every compile, "
                     "stage by stage, with pictures and timings (and, with --compare-torch, the comparison)")
    run.add_argument("script", nargs="?", help="a PyTorch script; omitted: the built-in demo")
    run.add_argument("args", nargs=argparse.REMAINDER, help="arguments passed to the script")
    explain = commands.add_parser("explain", help="run a script and explain every frame it compiled")
    explain.add_argument("script", help="a PyTorch script")
    explain.add_argument("args", nargs=argparse.REMAINDER, help="arguments passed to the script")
    fuzz.add_parser(commands)
    return parser


def _layer_list(text):
    layers = tuple(name.strip() for name in text.split(",") if name.strip())
    unknown = [name for name in layers if name not in LAYERS]
    if unknown or not layers:
        raise argparse.ArgumentTypeError(f"unknown layer(s) {', '.join(map(repr, unknown)) or repr(text)}; "
                                         f"choose from {', '.join(LAYERS)}")
    return layers
