"""The subprocess runs behind `python -m minitorch2 run --compare-torch / --report`.

CLI layer, used by run.py. With either option the script does not run in
the CLI's own process: it runs as a child,

    python -m minitorch2 run [--backend B] SCRIPT ARGS     MINITORCH2_LOGS=<artifacts>
    python SCRIPT ARGS                                      TORCH_LOGS=<artifacts>  (--compare-torch)

so that its stdout, stderr and exit status can be captured whole and handed
to compare.py / report.py. The two children run one after the other, ours
first: real scripts write checkpoints and read them back from the same
paths (`model.pt`, `out_dir/ckpt.pt`), and two children at once would read
each other's half-written files. Both children get the same PYTHONHASHSEED
(the caller's, or one drawn for this comparison): a program that numbers its
words by iterating a set of strings (`list(set(text.split()))`, common in
tutorials) numbers them the same way in both, as two runs of it would not. For --report
our child also records its compiles (walkthrough.py) and writes them as the
page's walkthrough to the file WALKTHROUGH_ENV names.
minitorch2 never imports torch: PyTorch only ever runs in the second child.
With `--backend B` that child starts from a few lines of bootstrap (below)
that make B the default of torch.compile and torch._dynamo.optimize, as
`frontend.backends.DEFAULT_BACKEND` does for us, then run the script.
"""
import importlib.util
import os
import random
import subprocess
import sys

from .compare import RunResult

# Set in our child's environment by a --report run: the file its walkthrough (report_stages.py) goes to.
WALKTHROUGH_ENV = "MINITORCH2_WALKTHROUGH"

# Run as `python -c TORCH_BOOTSTRAP BACKEND SCRIPT ARGS...` in the torch child only.
TORCH_BOOTSTRAP = """\
import os, runpy, sys
import torch, torch._dynamo
backend, script = sys.argv[1], sys.argv[2]
compile_, optimize_ = torch.compile, torch._dynamo.optimize
def compile(model=None, **kwargs):
    kwargs.setdefault("backend", backend)
    return compile_(model, **kwargs)
def optimize(*args, **kwargs):
    if not args and "backend" not in kwargs:
        kwargs["backend"] = backend
    return optimize_(*args, **kwargs)
torch.compile, torch._dynamo.optimize = compile, optimize
sys.argv = sys.argv[2:]
sys.path[0] = os.path.dirname(os.path.abspath(script))
runpy.run_path(os.path.abspath(script), run_name="__main__")
"""


def torch_available():
    """Is PyTorch installed for this interpreter? (Found, not imported.)"""
    return importlib.util.find_spec("torch") is not None


def minitorch2_command(script, args, backend=None):
    backend_option = ["--backend", backend] if backend else []
    return [sys.executable, "-m", "minitorch2", "run", *backend_option, *([script, *args] if script else [])]


def torch_command(script, args, backend=None):
    if backend:
        return [sys.executable, "-c", TORCH_BOOTSTRAP, backend, script, *args]
    return [sys.executable, script, *args]


def run_both(ours_command, ours_artifacts, torch_command=None, torch_artifacts=(), walkthrough=None):
    """Run our child, then the torch child if given -> (RunResult, RunResult or None).
    walkthrough: a file path, where our child writes the walkthrough of its compiles (--report)."""
    ours_env = dict(os.environ)
    ours_env.setdefault("PYTHONHASHSEED", str(random.randrange(1, 2**32)))
    if walkthrough is not None:
        ours_env[WALKTHROUGH_ENV] = walkthrough
    ours_env["MINITORCH2_LOGS"] = ",".join(item for item in (os.environ.get("MINITORCH2_LOGS", ""),
                                                             *ours_artifacts) if item)
    ours = _finish(ours_command, _start(ours_command, ours_env))
    theirs = None
    if torch_command is not None:
        torch_env = dict(os.environ, PYTHONHASHSEED=ours_env["PYTHONHASHSEED"])
        torch_env.pop("MINITORCH2_LOGS", None)
        # torch logs a graph it loads from its on-disk caches in another form ("Forward graph (from cache)"),
        # so its child traces afresh
        torch_env.update(TORCHINDUCTOR_FX_GRAPH_CACHE="0", TORCHINDUCTOR_AUTOGRAD_CACHE="0")
        torch_env["TORCH_LOGS"] = ",".join(torch_artifacts)
        if not torch_artifacts:
            torch_env.pop("TORCH_LOGS")
        theirs = _finish(torch_command, _start(torch_command, torch_env))
    return ours, theirs


def _start(command, env):
    return subprocess.Popen(command, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def _finish(command, process):
    stdout, stderr = process.communicate()
    return RunResult(command, stdout, stderr, process.returncode)
