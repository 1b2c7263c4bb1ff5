"""`python -m minitorch2 run`: a PyTorch script (or the built-in demo) on minitorch2.

CLI layer, called by `cli.main`. Two ways to run, chosen by the options:

    in this process     run_script: the alias table installed (aliases.py), the default backend
                        and the --show log artifacts set, then the script as `__main__`; its
                        stdout is untouched and its exit status is ours
    observed            run_observed (--compare-torch, --report): the script runs as a child
                        (subprocesses.py), on PyTorch too with --compare-torch; its output is
                        echoed, then compared (compare.py) and/or written as HTML (report.py)
    recorded            run_recorded, in that child for --report: run_script with every compile
                        recorded (walkthrough.py), written as the page's walkthrough (report_stages.py)

A --report path that cannot be written ends the run before the script starts (exit status 2).

The one idea to hold: without options the run adds nothing to what the script
prints, so its output diffs line by line against `python script.py` on PyTorch;
a PyTorch name minitorch2 lacks ends it with one line naming the name and the
script's line, not a traceback.
"""
import html
import os
import runpy
import shutil
import sys
import tempfile
import traceback

from frontend import backends
from frontend.exc import InvalidBackend

from .. import _logging
from .._tensor import Tensor
from ..nn import Module
from ..optim import Optimizer
from .._unsupported import Unsupported
from . import aliases, compare, report, subprocesses
from .compare import LAYERS

# where minitorch2, frontend, autograd, partition and backend are imported from
_PACKAGES_ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def main(options):
    if options.report and not _can_write(options.report):
        return 2
    if not _adopt_torch_environment():
        return 2
    if options.compare_torch or options.report:
        return run_observed(options)
    walkthrough = os.environ.pop(subprocesses.WALKTHROUGH_ENV, None)  # (the script's own children do not record)
    if walkthrough is not None:
        return run_recorded(options, walkthrough)
    return run_script(options.script, options.args, backend=options.backend, show=options.show)


def _can_write(path):
    """Can the report be written at path? Asked before the script runs, answered in one line."""
    try:
        with open(path, "a", encoding="utf-8"):
            pass
    except OSError as e:
        print(f"python -m minitorch2 run: cannot write the report to '{path}': {e.strerror}", file=sys.stderr)
        return False
    return True


def run_recorded(options, walkthrough_path):
    """run_script with every compile recorded (walkthrough.py), then the walkthrough written for --report."""
    # here, not at the top: both load the compiler's layers, which a plain run does not always need
    from . import report_stages, walkthrough

    collector = walkthrough.Collector()
    collector.install()
    try:
        return run_script(options.script, options.args, backend=options.backend, show=options.show)
    finally:
        collector.uninstall()
        try:
            report_stages.write_walkthrough(walkthrough_path, collector, options.script)
        except Exception:  # the page says what went wrong; the script's own exit status stands
            with open(walkthrough_path, "w", encoding="utf-8") as f:
                f.write(f'<pre class="error">{html.escape(traceback.format_exc())}</pre>\n')
            print("python -m minitorch2 run: the report's walkthrough failed (its traceback is in the report)",
                  file=sys.stderr)


def run_script(script, args, backend=None, show=()):
    """Run script (None: the demo) in this process; backend: the default backend; show: layers to log."""
    aliases.install()
    if backend is not None and not _set_default_backend(backend):
        return 2
    if show:
        _switch_on_logs(artifact for layer in show for artifact in LAYERS[layer].ours)
    if script is None:
        # the demo imports autograd and backend (whose import starts a preload thread): only when it runs
        from . import demo

        demo.main()
        return 0
    if not os.path.exists(script):
        print(f"python -m minitorch2 run: can't open file '{script}'", file=sys.stderr)
        return 2
    sys.argv = [script, *args]
    # `python -m` put the working directory first, where `python script.py` has the script's own directory: a
    # script must not import what lies beside its caller (the entry stays when our own packages come from it)
    if sys.path and os.path.abspath(sys.path[0] or ".") != _PACKAGES_ROOT:
        del sys.path[0]
    sys.path.insert(0, os.path.dirname(os.path.abspath(script)))
    try:
        # an absolute path, as `python script.py` gives its code since 3.9 (so graphs' stack traces name it alike)
        runpy.run_path(os.path.abspath(script), run_name="__main__")
    except SystemExit as e:
        return e.code if isinstance(e.code, int) else (0 if e.code is None else 1)
    except (aliases.MissingFeature, Unsupported) as e:
        print(f"{script}:{_script_line(e, script)}: unsupported by minitorch2: {e}", file=sys.stderr)
        return 1
    except Exception as e:
        owner = _torch_owner_of_missing(getattr(e, "obj", None), e.name) if isinstance(e, AttributeError) else None
        if owner is None:  # the script's own error
            _print_script_traceback(e, script)
            return 1
        print(f"{script}:{_script_line(e, script)}: unsupported by minitorch2: {owner}.{e.name} is not supported "
              f"(a minitorch2 {owner.rsplit('.', 1)[1]} has no attribute '{e.name}')", file=sys.stderr)
        return 1
    return 0


def _print_script_traceback(error, script):
    """error's traceback as `python script.py` prints it: from the script's first frame on, without runpy's and
    the command line's frames above it."""
    tb = error.__traceback__
    while tb is not None and os.path.abspath(tb.tb_frame.f_code.co_filename) != os.path.abspath(script):
        tb = tb.tb_next
    traceback.print_exception(type(error), error, tb or error.__traceback__)


# Public methods torch's nn.Module and optim.Optimizer have (torch 2.13): a script calling one minitorch2 lacks
# stops in one line, while any other missing attribute of a module (a typo in the script's own model) keeps torch's
# traceback
TORCH_MODULE_METHODS = frozenset("""add_module apply bfloat16 buffers children compile cpu cuda double eval
    extra_repr float forward get_buffer get_extra_state get_parameter get_submodule half ipu load_state_dict modules
    mtia named_buffers named_children named_modules named_parameters parameters register_backward_hook
    register_buffer register_forward_hook register_forward_pre_hook register_full_backward_hook
    register_full_backward_pre_hook register_load_state_dict_post_hook register_load_state_dict_pre_hook
    register_module register_parameter register_state_dict_post_hook register_state_dict_pre_hook requires_grad_
    set_extra_state set_submodule share_memory state_dict to to_empty train type xpu zero_grad""".split())
TORCH_OPTIMIZER_METHODS = frozenset("""add_param_group load_state_dict profile_hook_step
    register_load_state_dict_post_hook register_load_state_dict_pre_hook register_state_dict_post_hook
    register_state_dict_pre_hook register_step_post_hook register_step_pre_hook state_dict step zero_grad""".split())


def _torch_owner_of_missing(obj, name):
    """The torch class whose attribute `name` minitorch2's `obj` lacks (a name for the one-line report), or None."""
    if isinstance(obj, Tensor):
        return "torch.Tensor"
    if isinstance(obj, Module) and name in TORCH_MODULE_METHODS:
        return "torch.nn.Module"
    if isinstance(obj, Optimizer) and name in TORCH_OPTIMIZER_METHODS:
        return "torch.optim.Optimizer"
    return None


# TORCH_LOGS names torch 2.13 registers that minitorch2 does not log (a PyTorch script may set them: ignored, said
# in one line); its components' module names, as ours
TORCH_ONLY_LOGS = frozenset("""annotation aot_graphs_effects async_compile auto_chunker autotuning benchmarking c10d
    cache caching compiled_autograd compiled_autograd_verbose compute_dependencies cudagraph_static_inputs cudagraphs
    custom_format_test_artifact ddp ddp_graphs distributed dtensor dynamic export fake_tensor fsdp graph
    graph_code_verbose graph_region_expansion graph_sizes hierarchical_compile incremental inductor_metrics
    ir_post_fusion ir_pre_fusion kernel_code loop_ordering loop_tiling native_dsl node_runtime_estimation
    not_implemented onnx onnx_diagnostics overlap overlap_scheduling perf_hints post_grad_graphs pp pre_grad_graphs
    recompiles_verbose schedule side_effects sym_node torch trace_bytecode trace_call trace_shape_events trace_source
    verbose_guards""".split())
TORCH_MODULE_LOGS = {"torch._dynamo": "dynamo", "torch._functorch": "aot", "torch._inductor": "inductor"}


def _adopt_torch_environment():
    """TORCH_LOGS and TORCH_COMPILE_DEBUG, set for a PyTorch script, act as MINITORCH2_LOGS and
    MINITORCH2_COMPILE_DEBUG (which win when both are set); a log name torch has and we lack is dropped with a
    one-line warning; a log name neither knows ends the run at once, in one line (False)."""
    if "TORCH_LOGS" in os.environ and _logging.ENV_VAR not in os.environ:
        os.environ[_logging.ENV_VAR] = _from_torch_logs(os.environ["TORCH_LOGS"])
    if "TORCH_COMPILE_DEBUG" in os.environ and "MINITORCH2_COMPILE_DEBUG" not in os.environ:
        os.environ["MINITORCH2_COMPILE_DEBUG"] = os.environ["TORCH_COMPILE_DEBUG"]
    try:
        _logging.reload()
    except ValueError as e:
        print(f"python -m minitorch2 run: {e}", file=sys.stderr)
        return False
    return True


def _from_torch_logs(setting):
    """TORCH_LOGS as a MINITORCH2_LOGS setting: module names as components, the names only torch logs dropped."""
    kept, dropped = [], []
    for item in (s.strip() for s in setting.split(",") if s.strip()):
        sign, name = item[:len(item) - len(item.lstrip("+-"))], item.lstrip("+-")
        if name in TORCH_ONLY_LOGS or (name.startswith("torch.") and name not in TORCH_MODULE_LOGS):
            dropped.append(item)
        else:
            kept.append(sign + TORCH_MODULE_LOGS.get(name, name))
    if dropped:
        print(f"python -m minitorch2 run: TORCH_LOGS: minitorch2 does not log {', '.join(dropped)}; ignored",
              file=sys.stderr)
    return ",".join(kept)


def _set_default_backend(name):
    """The frontend's default backend becomes name (False, with the frontend's error, when unknown)."""
    if not _backend_is_known(name):
        return False
    backends.DEFAULT_BACKEND = name
    return True


def _backend_is_known(name):
    """Is name a registered backend? If not, print the frontend's InvalidBackend error for it."""
    try:
        backends.lookup_backend(name)
    except InvalidBackend as e:
        print(f"python -m minitorch2 run: {type(e).__name__}: {e}", file=sys.stderr)
        return False
    return True


def _switch_on_logs(artifacts):
    current = os.environ.get(_logging.ENV_VAR, "")
    os.environ[_logging.ENV_VAR] = ",".join(item for item in (current, *artifacts) if item)
    _logging.reload()


def _script_line(error, script):
    frames = [f for f in traceback.extract_tb(error.__traceback__)
              if os.path.abspath(f.filename) == os.path.abspath(script)]
    return frames[-1].lineno if frames else "?"


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
    if options.compare_torch and not subprocesses.torch_available():
        print("python -m minitorch2 run: --compare-torch needs PyTorch, which is not installed", file=sys.stderr)
        return 2
    compared = options.show or compare.DEFAULT_COMPARED_LAYERS
    logged = compared if options.compare_torch else options.show
    ours_artifacts = [a for layer in logged for a in LAYERS[layer].ours]
    ours_command = subprocesses.minitorch2_command(options.script, options.args, options.backend)
    torch_command, torch_artifacts = None, ()
    if options.compare_torch:
        torch_artifacts = [a for layer in compared for a in LAYERS[layer].torch]
        torch_command = subprocesses.torch_command(options.script, options.args, options.backend)
    scratch = tempfile.mkdtemp(prefix="minitorch2_report_") if options.report else None
    walkthrough_path = os.path.join(scratch, "walkthrough.html") if scratch else None
    try:
        ours, theirs = subprocesses.run_both(ours_command, ours_artifacts, torch_command, torch_artifacts,
                                             walkthrough_path)
        walkthrough = _read(walkthrough_path) if walkthrough_path else None
    finally:
        if scratch:
            shutil.rmtree(scratch, ignore_errors=True)
    shown = {a for layer in options.show for a in LAYERS[layer].ours} | _user_artifacts()
    sys.stdout.write(ours.stdout)
    sys.stdout.flush()
    sys.stderr.write(compare.without_artifacts(ours.stderr, shown))
    sys.stderr.flush()
    status = ours.returncode
    comparison = None
    if theirs is not None:
        comparison = compare.compare_runs(ours, theirs, compared)
        print(compare.format_report(comparison))
        status = 0 if comparison.matches else 1
    if options.report:
        report.write_report(options.report, ["python", "-m", "minitorch2", "run", *_argv_of(options)],
                            ours, theirs, comparison, walkthrough)
        print(f"python -m minitorch2 run: report written to {options.report}", file=sys.stderr)
    return status


def _read(path):
    try:
        with open(path, encoding="utf-8") as f:
            return f.read()
    except FileNotFoundError:
        return None


def _user_artifacts():
    """The artifacts MINITORCH2_LOGS itself names (their lines are echoed, as without --report)."""
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
