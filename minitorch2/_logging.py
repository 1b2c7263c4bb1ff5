"""MINITORCH2_LOGS: named debug artifacts on stderr, printed as PyTorch's TORCH_LOGS prints them.

Runtime layer, used by every layer of the compiler (frontend, autograd, partition, backend) and imported by none of
them at the top: each call site asks `enabled(artifact)` and, if so, hands over the text. The variable is a
comma-separated list, as TORCH_LOGS is:

    MINITORCH2_LOGS="graph_code,recompiles"     two artifacts
    MINITORCH2_LOGS="+frontend"                 the `frontend` Python logger at DEBUG
    MINITORCH2_LOGS="frontend"                  ... at INFO ("-frontend": only errors)

Every line of an artifact gets PyTorch's glog-style prefix, so the output reads (and greps) like torch's:

    V1129 16:50:58.914000 18302 frontend/eval_frame.py:140] [0/1] [__graph_code] TRACED GRAPH

(level letter, date, time, process id, the call site, the compile id "frame/attempt" while a frame is being
compiled, the artifact). The one idea to hold: nothing is formatted unless the artifact is on, so logging costs one
set lookup per call site when it is off.

MINITORCH2_COMPILE_DEBUG=1 writes every artifact to the debug folder too, in TORCH_COMPILE_DEBUG's layout: all in
`run_<time>-pid_<pid>/torchdynamo/debug.log`, an aot compile's in `torchinductor/aot_model___<aot id>_debug.log`.
"""
import contextlib
import datetime
import dis
import inspect
import io
import itertools
import logging
import os
import sys
import threading
import warnings

ENV_VAR = "MINITORCH2_LOGS"

# artifact -> (level letter as torch prints it, what it shows, who logs it)
ARTIFACTS = {
    "graph_code": ("V", "the frontend graph of each compiled frame, as readable Python", "frontend/eval_frame.py"),
    "graph_breaks": ("V", "each graph break: where, why, and a hint", "frontend/eval_frame.py"),
    "guards": ("V", "the guard function of each new cache entry", "frontend/eval_frame.py"),
    "recompiles": ("V", "why a frame recompiles: each cache entry's failing guard", "frontend/eval_frame.py"),
    "bytecode": ("V", "original and transformed bytecode (dis), resume functions", "frontend/"),
    "aot_graphs": ("I", "the forward and backward graphs of aot_autograd", "autograd/aot.py"),
    "aot_joint_graph": ("I", "the joint forward+backward graph of aot_autograd", "autograd/aot.py"),
    "partition": ("I", "what a partitioner saves for the backward", "partition/"),
    "output_code": ("I", "the code the backend generates", "backend/"),
    "fusion": ("I", "the backend's fused kernels and the reason for every fusion it refused", "backend/"),
}

# component -> the Python logger it configures ("frontend" / "+frontend" / "-frontend")
COMPONENTS = ("frontend", "autograd", "partition", "backend")
TORCH_COMPONENT_NAMES = {"dynamo": "frontend", "aot": "autograd", "inductor": "backend"}  # TORCH_LOGS's spellings

_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
_THIS_FILE = os.path.abspath(__file__)

_enabled = None  # set of artifact names, parsed on first use
_compile_debug = False  # MINITORCH2_COMPILE_DEBUG=1: every artifact also goes to the debug folder
debug_dir_root = None  # where the debug folder goes; None: ./minitorch2_compile_debug
_run_dir = None
_handlers = {}  # component -> the stderr handler we installed
_frame_ids = {}  # code object -> frame id, in order of first compile
_counters = {}  # kind -> how many ids were handed out
_context = threading.local()
_ids_lock = threading.Lock()  # frame ids and counters are handed out to compiles on several threads


def _new_ids_lock():
    global _ids_lock
    _ids_lock = threading.Lock()  # a forked child: another thread may have held it at the fork


os.register_at_fork(after_in_child=_new_ids_lock)


def reload(setting=None):
    """(Re)read the setting: `setting`, else the MINITORCH2_LOGS environment variable."""
    global _enabled, _compile_debug
    if setting is None:
        setting = os.environ.get(ENV_VAR, "")
    artifacts, levels = _parse(setting)
    _enabled, _compile_debug = artifacts, os.environ.get("MINITORCH2_COMPILE_DEBUG", "") == "1"
    for component in COMPONENTS:
        _configure_component(component, levels.get(component))


def set_logs(**switches):
    """torch._logging.set_logs: artifacts as flags (`graph_code=True`), components as levels
    (`dynamo=logging.DEBUG`), replacing the previous setting. A name torch has and we do not log is ignored, with a
    warning saying so."""
    items = []
    for name, value in switches.items():
        component = TORCH_COMPONENT_NAMES.get(name, name)
        if name in ARTIFACTS and value:
            items.append(name)
        elif (component in COMPONENTS or name == "all") and value is not None:
            prefix = "+" if value <= logging.DEBUG else "-" if value >= logging.ERROR else ""
            items += ["all"] if name == "all" and value <= logging.DEBUG else []
            items += [prefix + c for c in (COMPONENTS if name == "all" else (component,))]
        elif name not in ARTIFACTS and component not in COMPONENTS and name != "all":
            warnings.warn(f"set_logs: minitorch2 does not log {name!r}; ignored")
    reload(",".join(items))


def _parse(setting):
    artifacts, levels, invalid = set(), {}, []
    for item in (s.strip() for s in setting.split(",")):
        if not item:
            continue
        name = item.lstrip("+-")
        name = TORCH_COMPONENT_NAMES.get(name, name)
        if item in ARTIFACTS:
            artifacts.add(item)
        elif name in COMPONENTS:
            levels[name] = {"+": logging.DEBUG, "-": logging.ERROR}.get(item[0], logging.INFO)
        elif item == "all":
            artifacts.update(ARTIFACTS)
        else:
            invalid.append(item)
    if invalid:
        valid = ", ".join(dict.fromkeys([*ARTIFACTS, *COMPONENTS, *TORCH_COMPONENT_NAMES, "all"]))
        raise ValueError(f"Invalid log settings: {setting}, must be a comma separated list of registered "
                         f"log names (optionally prefixed with + or -) or artifact names. Valid settings: {valid}")
    return artifacts, levels


def _configure_component(component, level):
    logger = logging.getLogger(component)
    logger.removeHandler(_handlers.pop(component, None))  # (a no-op for None)
    if level is None:
        return
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(_GlogFormatter())
    logger.addHandler(handler)
    logger.setLevel(level)
    _handlers[component] = handler


class _GlogFormatter(logging.Formatter):
    def format(self, record):
        where = f"{_short_path(record.pathname)}:{record.lineno}"
        return _prefix(record.levelname[0], where, None) + record.getMessage()


def enabled(artifact):
    """Is this artifact switched on (or the debug folder being written)? (Unknown names are a programming error.)"""
    if artifact not in ARTIFACTS:
        raise KeyError(f"unknown log artifact {artifact!r}")
    if _enabled is None:
        reload()
    return artifact in _enabled or _compile_debug


def log_artifact(artifact, text):
    """Print text to stderr, each line with the glog prefix, if the artifact is on; and to the debug folder."""
    if not enabled(artifact):
        return
    prefix = _prefix(ARTIFACTS[artifact][0], _call_site(), artifact)
    record = "".join(f"{prefix}{line}\n" for line in str(text).split("\n"))
    if artifact in _enabled:
        print(record, end="", file=sys.stderr, flush=True)
    if _compile_debug:
        aot_log = f"torchinductor/aot_model___{getattr(_context, 'aot_id', None)}_debug.log"  # one aot compile's
        for name in ["torchdynamo/debug.log"] + [aot_log] * artifact.startswith(("aot", "partition")):
            with open(debug_file(name), "a") as f:
                f.write(record)


def debug_file(name):
    """The path of `name` inside this process's debug folder (its directory made)."""
    global _run_dir
    root = debug_dir_root or os.path.join(os.getcwd(), "minitorch2_compile_debug")
    _run_dir = _run_dir or os.path.join(root, f"run_{datetime.datetime.now():%Y_%m_%d_%H_%M_%S_%f}-pid_{os.getpid()}")
    path = os.path.join(_run_dir, name)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    return path


def _prefix(level, where, artifact):
    """`V1129 16:50:58.914000 18302 where] [compile id] [__artifact] `, the tags when there are some."""
    compile_id = current_compile_id()
    tags = [f"[{compile_id}]"] * (compile_id is not None) + [f"[__{artifact}]"] * (artifact is not None)
    return " ".join([f"{level}{datetime.datetime.now():%m%d %H:%M:%S.%f} {os.getpid()} {where}]", *tags, ""])


def _call_site():
    frame = inspect.currentframe().f_back
    while frame is not None and os.path.abspath(frame.f_code.co_filename) == _THIS_FILE:
        frame = frame.f_back
    if frame is None:
        return "?:0"
    return f"{_short_path(frame.f_code.co_filename)}:{frame.f_lineno}"


def _short_path(filename):
    filename = os.path.abspath(filename)
    return os.path.relpath(filename, _ROOT) if filename.startswith(_ROOT + os.sep) else filename


# ---- compile ids ------------------------------------------------------------------------------------

def frame_id(code):
    """A small number per code object, in order of first compile, as Dynamo numbers frames."""
    with _ids_lock:
        return _frame_ids.setdefault(code, len(_frame_ids))


def current_compile_id():
    """The "frame_id/attempt" being compiled now, or None outside a compile."""
    return getattr(_context, "compile_id", None)


@contextlib.contextmanager
def _compile_id_as(compile_id):
    saved = current_compile_id()
    _context.compile_id = compile_id
    try:
        yield
    finally:
        _context.compile_id = saved


def compile_context(code, attempt):
    """While compiling `code` for the attempt-th time, every line is tagged [frame_id/attempt]."""
    return _compile_id_as(f"{frame_id(code)}/{attempt}")


def reset_ids():
    """Frame ids start again (frontend.reset(), as torch._dynamo.reset() does); graph names and aot ids
    keep counting, as torch's unique_id and AOT_COUNTER do."""
    with _ids_lock:
        _frame_ids.clear()


def next_id(kind):
    """0, 1, 2, ... per kind ("aot": aot_autograd's aot_config ids, also the thread's current aot compile)."""
    with _ids_lock:
        _counters[kind] = _counters.get(kind, -1) + 1
        if kind == "aot":
            _context.aot_id = _counters[kind]
        return _counters[kind]


_unique_ids = itertools.count()


def unique_id(prefix):
    """`prefix_N` with N from one counter for the whole process, as Dynamo's unique_id: besides each graph's
    name it counts every translation attempt (each installs its builtins dict under such a name) and every
    resume function, so graph names skip numbers exactly where torch's do."""
    if prefix == "__builtins_dict__" and getattr(_context, "replaying_attempt", False):  # (restarted_compile's)
        _context.replaying_attempt = False
        return None
    return f"{prefix}_{next(_unique_ids)}"


def next_graph_name():
    """`__compiled_fn_N`: the name the graph_code log gives a frontend graph."""
    return unique_id("__compiled_fn")


def restarted_compile(same_attempt=False):
    """Within compile_context: the translation restarted (a graph break replays the frame up to the
    break), which torch's compile ids count as a suffix, [1/0] then [1/0_1]. A branch on a tensor's value is split
    within the attempt that met it by Dynamo 2.13 (generic_jump): `same_attempt` replays it with no suffix and no
    builtins dict numbered for the replay, so graph names keep torch's numbers."""
    saved = current_compile_id()
    if same_attempt:
        _context.replaying_attempt = True
        return _compile_id_as(saved)
    return _compile_id_as(f"{saved}_1" if saved is not None else None)


# ---- the artifacts' formats -------------------------------------------------------------------------

def log_graph(artifact, title, gm):
    """PyTorch's TRACED GRAPH block: a title line, the file of the generated code, print_readable."""
    gm.meta["logged_in"] = (getattr(_context, "aot_id", None), current_compile_id())  # backend/debug.py's names
    if enabled(artifact):
        readable = gm.print_readable(print_output=False, include_stride=True, include_device=True)
        log_artifact(artifact, f"TRACED GRAPH\n ===== {title} =====\n {gm.forward.__code__.co_filename} {readable}\n")


def log_bytecode(prefix, name, filename, line, code):
    """`ORIGINAL BYTECODE f file.py line 2` (or MODIFIED ..., or a resume function's) and its dis listing."""
    if not enabled("bytecode"):
        return
    listing = io.StringIO()
    dis.dis(code, file=listing, depth=0)
    log_artifact("bytecode", f"{prefix} {name} {filename} line {line} \n{listing.getvalue()}\n")


def log_graph_break(location, reason, explanation, hint):
    """location: "file.py:LINE" of the user code that broke the graph."""
    if enabled("graph_breaks"):
        log_artifact("graph_breaks", f"Graph break in user code at {location}\nGraph Break Reason: {reason}\n"
                                     f"  Explanation: {explanation}\n  Hint: {hint}\n")


def log_recompile(name, filename, line, failures):
    """failures: [(compile id of the entry, its failing guard's text)], most recent entry first."""
    if enabled("recompiles"):
        lines = [f"Recompiling function {name} in {filename}:{line}",
                 "    triggered by the following guard failure(s):"]
        lines += [f"    - {entry_id}: {text}" for entry_id, text in failures]
        log_artifact("recompiles", "\n".join(lines))


def log_guards(guard_source):
    if enabled("guards"):
        log_artifact("guards", f"GUARDS:\n{guard_source}\n")
