"""`python -m minitorch2 fuzz`: hypothesis-driven differential testing against PyTorch.

    python -m minitorch2 fuzz [--examples N] [--seed S] [--layer eager|fx|frontend|aot|partition|backend|classes|half]

Each layer of the stack has a differential property test in the repository's
tests/ folder: hypothesis draws a random program, minitorch2 and real PyTorch
(the oracle) both run it, and the property says they agree (values, graphs,
saved tensors). This command runs those properties, for one layer or all of
them, through pytest in a subprocess, with a hypothesis profile made from the
options: N examples per property; with --seed, a reproducible run seeded by S
(pytest's `--hypothesis-seed`), without it, a fresh random one.

The module is two things at once:

  the command   `add_parser(subparsers)` adds `fuzz` to the CLI's parser and
                `main(options)` runs it;
  the plugin    the subprocess loads this module with `pytest -p`: its
                `pytest_*` hooks register and load the profile (before
                tests/conftest.py loads profiles by HYPOTHESIS_PROFILE), keep
                only the hypothesis properties, count the examples each runs,
                and write the outcome of each to a JSON file for the summary.

The tests live in the source checkout (`pip install -e .`), not in the
package: without them, or without torch, hypothesis or pytest, the command
exits 2 saying what is missing. Nothing here imports torch or hypothesis
until a run has checked that they are installed.
"""
import argparse
import functools
import importlib.util
import json
import os
import subprocess
import sys
import tempfile
import textwrap
from pathlib import Path

# layer -> its differential property tests, relative to the repository root
LAYER_FILES = {
    "eager": "tests/minitorch2/test_differential.py",
    "fx": "tests/fx/test_fx_fuzz.py",
    "frontend": "tests/frontend/test_program_fuzz.py",
    "aot": "tests/autograd/test_aot_fuzz.py",
    "partition": "tests/partition/test_partition_fuzz.py",
    "backend": "tests/backend/test_differential_inductor.py",
    # session 25's classes: torch.jit objects, strided outputs under autograd, refused modules; half precision
    # under the inductor against torch's inductor
    "classes": "tests/frontend/test_fuzz_s26_classes.py",
    "half": "tests/backend/test_fuzz_s26_fp16.py",
}
REQUIRED_MODULES = ("torch", "hypothesis", "pytest")
DEFAULT_EXAMPLES = 200  # as tests/conftest.py's default profile

PROFILE = "minitorch2-fuzz"
# how the command hands its options to the plugin in the subprocess
EXAMPLES_VARIABLE, SEED_VARIABLE, REPORT_VARIABLE = "MINITORCH2_FUZZ_EXAMPLES", "MINITORCH2_FUZZ_SEED", "MINITORCH2_FUZZ_REPORT"


# ---------------------------------------------------------------- the command
def add_parser(subparsers):
    parser = subparsers.add_parser(
        "fuzz", help="hypothesis-driven differential testing against PyTorch",
        description="Run each layer's differential property tests (random programs, minitorch2 against PyTorch).")
    parser.add_argument("--examples", type=_positive, default=DEFAULT_EXAMPLES, metavar="N",
                        help=f"examples per property (default {DEFAULT_EXAMPLES})")
    parser.add_argument("--seed", type=int, default=None, metavar="S",
                        help="seed a reproducible run (default: a random one)")
    parser.add_argument("--layer", choices=list(LAYER_FILES), default=None,
                        help="the layer to fuzz (default: all of them)")
    return parser


def _positive(text):
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, not {value}")
    return value


def main(options):
    """Run the properties of options.layer (all layers when None); 0 if all passed, 1 if any failed, 2 if the
    run is impossible here."""
    layers = [options.layer] if options.layer else list(LAYER_FILES)
    missing = [name for name in REQUIRED_MODULES if importlib.util.find_spec(name) is None]
    if missing:
        return _cannot_run(f"needs {', '.join(missing)} (pip install -e '.[test]')")
    root = repository_root()
    files = {layer: root / LAYER_FILES[layer] for layer in layers}
    absent = [str(path) for path in files.values() if not path.is_file()]
    if absent:
        return _cannot_run(f"the differential tests are not installed ({', '.join(absent)} missing): "
                           "run it from a source checkout installed with pip install -e .")
    examples = getattr(options, "examples", None) or DEFAULT_EXAMPLES
    seed = getattr(options, "seed", None)
    results, status = _run_pytest(root, files, examples, seed)
    print(summary(layers, files, results, examples, seed, status))
    sys.stdout.flush()
    failed = status != 0 or not results or any(r["outcome"] != "passed" for r in results.values())
    return 1 if failed else 0


def repository_root():
    """The source checkout this package was imported from (its tests/ sit beside the minitorch2 folder)."""
    return Path(__file__).resolve().parents[2]


def _cannot_run(reason):
    print(f"python -m minitorch2 fuzz: {reason}", file=sys.stderr)
    return 2


def _run_pytest(root, files, examples, seed):
    """Run pytest on the files with this module as a plugin; ({nodeid: result}, pytest's exit status)."""
    with tempfile.TemporaryDirectory(prefix="minitorch2-fuzz-") as scratch:
        report = Path(scratch) / "report.json"
        env = dict(os.environ, HYPOTHESIS_PROFILE=PROFILE, **{EXAMPLES_VARIABLE: str(examples),
                                                              REPORT_VARIABLE: str(report)})
        if seed is not None:
            env[SEED_VARIABLE] = str(seed)
        command = [sys.executable, "-m", "pytest", *(str(f) for f in files.values()), "-p", __name__,
                   "-q", "--no-header", "-p", "no:cacheprovider", "--rootdir", str(root), "-W", "ignore::DeprecationWarning",
                   "-o", "addopts="]  # (in this one process, and every property: the slow ones too)
        if seed is not None:
            command.append(f"--hypothesis-seed={seed}")
        sys.stdout.flush()
        status = subprocess.call(command, cwd=root, env=env)
        results = json.loads(report.read_text()) if report.exists() else {}
    return results, status


def summary(layers, files, results, examples, seed, status):
    """The closing table: per layer, each property with its example count and outcome."""
    lines = ["", f"==== minitorch2 fuzz: {examples} examples per property, "
                 f"{'seed ' + str(seed) if seed is not None else 'random seed'} ===="]
    failures = []
    for layer in layers:
        path = files[layer].resolve()
        mine = {nodeid: r for nodeid, r in results.items() if Path(r["path"]).resolve() == path}
        if not mine:
            lines.append(f"{layer:<10} no property ran ({LAYER_FILES[layer]}: see pytest's output above)")
        for nodeid, r in mine.items():
            counted = f"{r['examples']} example{'' if r['examples'] == 1 else 's'}"
            if r["rejected"]:
                counted += f" ({r['rejected']} rejected by filters)"
            lines.append(f"{layer:<10} {r['name']:<58} {counted:<36} {r['outcome']}")
            if r["outcome"] != "passed":
                failures.append((layer, r))
    passed = sum(1 for r in results.values() if r["outcome"] == "passed")
    lines.append(f"{passed} {'property' if passed == 1 else 'properties'} passed, {len(results) - passed} failed" +
                 ("" if status in (0, 1) else f" (pytest exit status {status})"))
    for layer, r in failures:
        lines += ["", f"---- {layer}: {r['name']} {r['outcome']}; minimal example:", r["example"] or "(see above)"]
    return "\n".join(lines)


# ---------------------------------------------------------------- the pytest plugin (in the subprocess)
_results = {}


def pytest_load_initial_conftests(early_config, parser, args):
    # before tests/conftest.py, which loads the profile HYPOTHESIS_PROFILE names
    _register_profile()


def pytest_configure(config):
    # deferred: the command imports this module too, before checking that hypothesis is installed
    from hypothesis import settings

    _register_profile()
    settings.load_profile(PROFILE)  # also where no conftest.py loads it (a property file outside tests/)


def _register_profile():
    from hypothesis import HealthCheck, settings  # deferred, as in pytest_configure

    options = dict(max_examples=int(os.environ.get(EXAMPLES_VARIABLE, DEFAULT_EXAMPLES)), deadline=None,
                   print_blob=True, derandomize=False,
                   suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much])
    if SEED_VARIABLE in os.environ:
        options["database"] = None  # a seeded run replays no failure saved by an earlier run: it is reproducible
    settings.register_profile(PROFILE, **options)


def pytest_collection_modifyitems(session, config, items):
    """Keep the hypothesis properties only, each wrapped to count the examples it runs."""
    properties = [item for item in items if _hypothesis_handle(item) is not None]
    config.hook.pytest_deselected(items=[item for item in items if _hypothesis_handle(item) is None])
    items[:] = properties
    for item in properties:
        _results[item.nodeid] = {"name": item.name, "path": str(item.path), "examples": 0, "rejected": 0,
                                 "outcome": "not run", "example": ""}
        _count_examples(_hypothesis_handle(item), _results[item.nodeid])


def _hypothesis_handle(item):
    return getattr(getattr(item, "obj", None), "hypothesis", None)


def _count_examples(handle, result):
    inner = handle.inner_test  # hypothesis calls `.hypothesis.inner_test` once per example (a documented hook)

    @functools.wraps(inner)  # hypothesis prints the falsifying example under this function's name
    def counted(*args, **kwargs):
        try:
            return inner(*args, **kwargs)
        except BaseException as e:
            if type(e).__name__ == "UnsatisfiedAssumption":  # assume()/reject(): a filtered-out draw
                result["rejected"] += 1
                result["examples"] -= 1
            raise
        finally:
            result["examples"] += 1

    handle.inner_test = counted


def pytest_runtest_logreport(report):
    result = _results.get(report.nodeid)
    if result is None or (report.when != "call" and report.passed):
        return
    result["outcome"] = report.outcome if report.when == "call" else f"{report.outcome} in {report.when}"
    if report.failed:
        result["example"] = _minimal_example(report.longreprtext)


# How hypothesis introduces the shrunk example: "Falsifying example" until 6.16x, "Failing test case" since.
EXAMPLE_HEADINGS = ("Falsifying example", "Failing test case")


def _minimal_example(text):
    """Hypothesis's falsifying example (and its notes) from a failure report."""
    lines = text.splitlines()
    start = next((i for i, line in enumerate(lines) if any(heading in line for heading in EXAMPLE_HEADINGS)), None)
    if start is None:
        return "\n".join(lines[-15:])
    block = []
    for line in lines[start:]:
        if "Explanation:" in line or "You can reproduce this" in line:
            break
        block.append(line[1:] if line == "E" or line.startswith("E ") else line)  # pytest's error-line marker
    return textwrap.indent(textwrap.dedent("\n".join(block)).rstrip(), "  ")


def pytest_sessionfinish(session, exitstatus):
    target = os.environ.get(REPORT_VARIABLE)
    if target:
        Path(target).write_text(json.dumps(_results))
