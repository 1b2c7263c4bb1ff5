"""What the backend does around os.fork(), so a forked child (a DataLoader worker, a multiprocessing
"fork" process) compiles and runs as its parent does.

Speed wing, around the pipeline: compile_fx's entry points run inside
`compiling()` (through `speed.compiling`). It is armed in both configurations:
a plain compile takes LLVM's lock too (codegen/llvm_jit.py), and compiles may
run on the caller's threads. fork() copies the memory of the whole process
but only the thread that called it. Whatever another thread
held at that moment stays held in the child, by nobody: a lock of ours, a lock
inside LLVM (which this backend drives from several threads), or one of
Python's per-module import locks, taken while a module is first imported.
The child then hangs on its first compile. So before a fork the backend
waits until it is quiet, and the child starts its own:

    before fork       join the preload thread (it loads llvmlite at `import backend`),
                      wait until no module of this project (or of what it imports lazily) is half imported,
                      wait for compiles running on other threads to finish and hold new ones back,
                      take codegen/llvm_jit.py's locks (no thread is inside LLVM)
    after, parent     release all that
    after, child      fresh locks and an empty gate; the kernel worker threads (speed/workers.py),
                      which did not survive, are started again on first use

A compile is what runs inside `compiling()` (the backend entry points use it).
A compile that does not finish within FORK_WAIT_SECONDS is not waited for
(the fork goes ahead, with a warning): a fork must not hang on it either.
"""
import contextlib
import os
import sys
import threading
import time
import warnings

from ..codegen import llvm_jit

FORK_WAIT_SECONDS = 30.0
# Packages whose first import may be running on another thread when a process forks: ours (imported lazily
# along the compile path, e.g. the backend by the frontend's first compile) and those we import lazily.
PACKAGES = ("minitorch2", "frontend", "autograd", "partition", "backend", "llvmlite", "networkx", "scipy_openblas32")


class CompileGate:
    """Counts the compiles running on each thread; `quiesce` waits until no other thread has one."""

    def __init__(self):
        self.condition = threading.Condition()
        self.depth = {}  # thread id -> nesting depth of its running compiles

    @contextlib.contextmanager
    def compiling(self):
        me = threading.get_ident()
        with self.condition:
            self.depth[me] = self.depth.get(me, 0) + 1
        try:
            yield
        finally:
            with self.condition:
                self.depth[me] -= 1
                if not self.depth[me]:
                    del self.depth[me]
                    self.condition.notify_all()

    def quiesce(self, timeout):
        """Hold the gate (no compile starts or ends) once no other thread compiles; False on timeout."""
        me = threading.get_ident()
        deadline = time.monotonic() + timeout
        self.condition.acquire()
        while any(thread != me for thread in self.depth):
            left = deadline - time.monotonic()
            if left <= 0:
                return False
            self.condition.wait(left)
        return True

    def release(self):
        self.condition.release()

    def reset_in_child(self):
        """Only the forking thread lives on: its own compiles still count, no other thread's can."""
        me = threading.get_ident()
        self.condition = threading.Condition()
        self.depth = {me: self.depth[me]} if me in self.depth else {}


GATE = CompileGate()
compiling = GATE.compiling
_preload = None  # the thread started by start_preload


def start_preload(target):
    """Run target on a daemon thread now (imports the first compile needs, overlapping the caller's work)."""
    global _preload
    _preload = threading.Thread(target=target, name="minitorch2-codegen-preload", daemon=True)
    _preload.start()


def _half_imported():
    """Modules of PACKAGES that some thread is importing now (importlib marks their spec `_initializing`
    until the module's code has run; a child forked meanwhile would wait for that import forever)."""
    return [name for name, module in list(sys.modules.items())
            if name.partition(".")[0] in PACKAGES and getattr(getattr(module, "__spec__", None), "_initializing", False)]


def _wait_for_imports(deadline):
    while _half_imported() and time.monotonic() < deadline:
        time.sleep(0.002)


def _before_fork():
    deadline = time.monotonic() + FORK_WAIT_SECONDS
    if _preload is not None and _preload is not threading.current_thread():
        _preload.join(FORK_WAIT_SECONDS)
    _wait_for_imports(deadline)
    if not GATE.quiesce(max(0.0, deadline - time.monotonic())):
        warnings.warn(f"backend: forking while another thread has compiled for over {FORK_WAIT_SECONDS:.0f} s; "
                      "the child may hang on its first compile")
    llvm_jit.llvm_lock.acquire()  # no thread inside LLVM at the fork, and none enters it until after
    llvm_jit.host_lock.acquire()


def _after_fork_in_parent():
    llvm_jit.host_lock.release()
    llvm_jit.llvm_lock.release()
    GATE.release()


def _after_fork_in_child():
    global _preload
    _preload = None
    llvm_jit.llvm_lock, llvm_jit.host_lock = threading.Lock(), threading.Lock()  # as before the fork, owned by nobody
    GATE.reset_in_child()


os.register_at_fork(before=_before_fork, after_in_parent=_after_fork_in_parent, after_in_child=_after_fork_in_child)
