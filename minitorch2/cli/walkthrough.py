"""What `run --report` records while the script runs: every compile, stage by stage, as objects.

CLI layer, inside the child run.py starts for `--report` (subprocesses.WALKTHROUGH_ENV names the file the
walkthrough goes to). Every stage of the pipeline already reports its work through one seam,
`minitorch2._logging`, whose functions the stages look up on the module at each call:

    frontend   compile_context (a compile starts), log_recompile, log_graph_break, log_guards,
               log_graph("graph_code", ...) (the captured graph), and eval_frame._observers (the cache entry)
    autograd   log_graph("aot_joint_graph" / "aot_graphs", ...) (the joint graph, forward, backward)
    backend    compile_fx_inner (one aten graph compiled: kernels, wrapper), looked up by compile_fx per call

`Collector.install` puts a recording wrapper in front of each, so the report holds the live objects (graph
modules, cache entries, compiled graphs) with the time each arrived, instead of parsing log text. The artifacts
it needs are switched on for the wrappers only: what reaches stderr (and the debug folder) is what the user's
own MINITORCH2_LOGS / MINITORCH2_COMPILE_DEBUG asked for.

The one idea to hold: a compile id (`frame/attempt`, as the logs tag lines) groups everything; an aot id and
the graph modules themselves (the backend receives the very forward and backward the partition logged) link
the later stages to it.
"""
import contextlib
import time
from dataclasses import dataclass, field

import backend.compile_fx
from frontend import eval_frame

from .. import _logging
from .explain import user_stack

COLLECTED = frozenset({"graph_code", "graph_breaks", "guards", "recompiles", "aot_graphs", "aot_joint_graph"})


@dataclass
class BackendGraph:
    """One aten graph through compile_fx_inner: `result` is backend.compile_fx.CompiledGraph."""
    name: str
    result: object
    started: float
    finished: float


@dataclass
class AotCompile:
    """One aot_autograd trace: the joint graph, and the forward and backward its partition made (inference:
    a forward only)."""
    aot_id: int
    joint: object = None
    joint_at: float = None
    forward: object = None
    forward_at: float = None
    backward: object = None
    backward_at: float = None
    compiled: list = field(default_factory=list)  # BackendGraph, forward first (a backward at its first use)


@dataclass
class Compile:
    """One compile of one frame (compile id `frame/attempt`), in the order the compiles started."""
    compile_id: str
    code: object
    started: float
    finished: float = None
    entry: object = None  # the frontend.eval_frame.CacheEntry it made
    stack: list = field(default_factory=list)  # the user's frames that called it
    graph: object = None  # the captured graph (torch-level FX), None when no ops were traced
    graph_name: str = None
    captured_at: float = None
    graph_break: tuple = None  # (where, reason, explanation, hint)
    recompile_failures: list = field(default_factory=list)  # (compile id of the entry, its failing guard)
    guards_source: str = None
    aots: list = field(default_factory=list)


class Collector:
    def __init__(self):
        self.compiles = {}  # compile id -> Compile, in start order
        self.aots = {}  # aot id -> AotCompile
        self.unclaimed = []  # BackendGraph whose aten graph no aot compile logged (compile_fx_inner called directly)
        self._saved = {}

    # ---- installing the wrappers -------------------------------------------------------------------

    def install(self):
        wrappers = {"enabled": self._enabled, "log_artifact": self._log_artifact, "log_graph": self._log_graph,
                    "log_graph_break": self._log_graph_break, "log_recompile": self._log_recompile,
                    "log_guards": self._log_guards, "compile_context": self._compile_context}
        for name, wrapper in wrappers.items():
            self._saved[(_logging, name)] = getattr(_logging, name)
            setattr(_logging, name, wrapper)
        self._saved[(backend.compile_fx, "compile_fx_inner")] = backend.compile_fx.compile_fx_inner
        backend.compile_fx.compile_fx_inner = self._compile_fx_inner
        eval_frame._observers.append(self._entry_made)

    def uninstall(self):
        for (module, name), original in self._saved.items():
            setattr(module, name, original)
        self._saved.clear()
        if self._entry_made in eval_frame._observers:
            eval_frame._observers.remove(self._entry_made)

    def _original(self, module, name):
        return self._saved[(module, name)]

    # ---- the wrappers ------------------------------------------------------------------------------

    def _enabled(self, artifact):
        return artifact in COLLECTED or self._original(_logging, "enabled")(artifact)

    def _log_artifact(self, artifact, text):
        """What the user asked for still reaches stderr and the debug folder; the rest is ours alone."""
        if artifact in (_logging._enabled or ()) or _logging._compile_debug:
            self._original(_logging, "log_artifact")(artifact, text)

    def _log_graph(self, artifact, title, gm):
        self._original(_logging, "log_graph")(artifact, title, gm)
        now = time.perf_counter()
        aot_id, compile_id = gm.meta.get("logged_in", (None, None))
        if artifact == "graph_code":
            record = self._current()
            if record is not None:
                record.graph, record.graph_name, record.captured_at = gm, title, now
            return
        aot = self.aots.get(aot_id)
        if aot is None:
            aot = self.aots[aot_id] = AotCompile(aot_id)
            record = self.compiles.get(_frame_attempt(compile_id))
            if record is not None:
                record.aots.append(aot)
        if artifact == "aot_joint_graph":
            aot.joint, aot.joint_at = gm, now
        elif title.startswith("Backward"):
            aot.backward, aot.backward_at = gm, now
        else:
            aot.forward, aot.forward_at = gm, now

    def _log_graph_break(self, where, reason, explanation, hint):
        record = self._current()
        if record is not None and record.graph_break is None:
            record.graph_break = (where, reason, explanation, hint)
        self._original(_logging, "log_graph_break")(where, reason, explanation, hint)

    def _log_recompile(self, name, filename, line, failures):
        record = self._current()
        if record is not None:
            record.recompile_failures = list(failures)
        self._original(_logging, "log_recompile")(name, filename, line, failures)

    def _log_guards(self, guard_source):
        record = self._current()
        if record is not None:
            record.guards_source = guard_source
        self._original(_logging, "log_guards")(guard_source)

    @contextlib.contextmanager
    def _compile_context(self, code, attempt):
        with self._original(_logging, "compile_context")(code, attempt):
            compile_id = _logging.current_compile_id()
            if compile_id not in self.compiles:  # (entered again when the compiled frame first runs)
                self.compiles[compile_id] = Compile(compile_id, code, time.perf_counter())
            yield

    def _entry_made(self, entry):
        record = next((c for c in reversed(self.compiles.values()) if c.entry is None and c.finished is None), None)
        if record is not None:
            record.entry, record.finished, record.stack = entry, time.perf_counter(), user_stack()

    def _compile_fx_inner(self, gm, example_inputs, graph_kind="forward"):
        started = time.perf_counter()
        result = self._original(backend.compile_fx, "compile_fx_inner")(gm, example_inputs, graph_kind)
        compiled = BackendGraph(result.name, result, started, time.perf_counter())
        aot = next((a for a in self.aots.values() if gm is a.forward or gm is a.backward), None)
        (aot.compiled if aot is not None else self.unclaimed).append(compiled)
        return result

    def _current(self):
        return self.compiles.get(_frame_attempt(_logging.current_compile_id()))


def _frame_attempt(compile_id):
    """`0/0_1` (the replay after a graph break) belongs to compile `0/0`."""
    return compile_id.split("_")[0] if compile_id else compile_id
