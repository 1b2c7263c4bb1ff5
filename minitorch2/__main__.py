"""`python -m minitorch2`: the command line.

    python -m minitorch2 run [SCRIPT.py [ARGS...]]

runs SCRIPT as `__main__` on minitorch2, with the module alias table
installed so that `import torch` gives minitorch2. Nothing is added to the
script's stdout, and the exit status is the script's, so its output can be
diffed line by line against the same script on real PyTorch. Without SCRIPT
it runs the built-in demo.
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
    options = parser.parse_args(argv)
    if options.command == "run":
        return run_script(options.script, options.args)
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


def _missing_errors():
    from ._unsupported import Unsupported

    return Unsupported


def _script_line(error, script):
    frames = [f for f in traceback.extract_tb(error.__traceback__) if os.path.abspath(f.filename) == os.path.abspath(script)]
    return frames[-1].lineno if frames else "?"


if __name__ == "__main__":
    sys.exit(main())
