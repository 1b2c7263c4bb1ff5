"""Compiling and calling from several threads at once, and os.fork (backend/speed/forking.py), against torch.

Each compile here is of a fresh function (a new code object), so every thread lowers, schedules and
generates its own graphs at the same time as the others; sys.setswitchinterval makes the threads
interleave every few bytecodes. The fork tests run in a subprocess with a deadline: a child that hangs
fails the test instead of hanging the suite.
"""
import os
import subprocess
import sys
import textwrap
import threading

import numpy as np
import pytest
import torch

import backend
import minitorch2
from backend.speed.buffers import BufferPool
from minitorch2 import _dtype as dt

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


@pytest.fixture
def fast_switching(monkeypatch):
    monkeypatch.setattr(backend.config, "graph_cache", False)  # every compile lowers and schedules
    saved = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    yield
    sys.setswitchinterval(saved)


def run_threads(count, target):
    errors = []

    def guarded(index):
        try:
            target(index)
        except BaseException as error:  # noqa: B036 (reported below, with the thread it came from)
            errors.append((index, repr(error)))

    threads = [threading.Thread(target=guarded, args=(i,)) for i in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not errors, errors


def fresh_function(namespace_module, body, name):
    """A new function (its own code object, so the frontend compiles it afresh) returning `body`."""
    namespace = {"torch": namespace_module}
    exec(compile(f"def f(x, w):\n    return {body}\n", name, "exec"), namespace)
    return namespace["f"]


def test_threads_compiling_fresh_forward_and_backward_graphs_get_torchs_values(fast_switching):
    def work(thread):
        rng = np.random.default_rng(thread)
        for i in range(5):
            scale = 0.5 + thread + i / 8
            body = f"((x * {scale}).sin() * x + (x @ w).exp().sum(1, keepdim=True)).relu().sum()"
            name = f"<trust_thread{thread}_{i}>"
            xs = rng.standard_normal((6 + thread, 5 + i)).astype(np.float32)
            ws = rng.standard_normal((5 + i, 3)).astype(np.float32) / 4
            x, w = (minitorch2.from_numpy(a.copy()).requires_grad_() for a in (xs, ws))
            tx, tw = (torch.from_numpy(a.copy()).requires_grad_() for a in (xs, ws))
            y = minitorch2.compile(fresh_function(minitorch2, body, name), backend="inductor")(x, w)
            y.backward()
            ty = fresh_function(torch, body, name)(tx, tw)
            ty.backward()
            np.testing.assert_allclose(y.item(), ty.item(), rtol=1e-4, err_msg=name)
            np.testing.assert_allclose(x.grad.numpy(), tx.grad.numpy(), rtol=1e-4, atol=1e-5, err_msg=name)
            np.testing.assert_allclose(w.grad.numpy(), tw.grad.numpy(), rtol=1e-4, atol=1e-5, err_msg=name)

    run_threads(4, work)


def test_buffer_pool_never_hands_out_a_buffer_someone_still_holds(fast_switching):
    """alloc / lend / free from 8 threads: each fills what it got with its own mark and checks, after the
    others had their turns, that the buffers it still holds kept it (a shared buffer gets another mark).
    Unlocked, two threads took the same free or lent buffer: IndexError, or a held output overwritten."""
    pool = BufferPool()

    def work(thread):
        held = []
        for i in range(8000):
            mark = thread * 100_000 + i
            array = pool.alloc(64, dt.int64)
            array[:] = mark
            if i % 4 == 0:
                pool.free(array)
                continue
            pool.lend(array)
            if i % 2:
                held.append((mark, array[2:]))  # a view keeps the buffer: the pool must not reuse it
            del array  # the others: reusable once lent
            if len(held) > 2:
                old_mark, view = held.pop(0)
                assert (view == old_mark).all(), f"thread {thread}: a buffer it held was handed out and overwritten"

    run_threads(8, work)
    assert pool.reused > 8000  # buffers did go round


def test_one_compiled_function_called_from_threads_keeps_each_callers_outputs(fast_switching):
    f = minitorch2.compile(lambda x: (x * 2).sin() + 1, backend="inductor")
    f(minitorch2.zeros(128))  # compiled once, before the threads

    def work(thread):
        kept = []
        for i in range(60):
            value = np.full(128, thread + i / 100, np.float32)
            kept.append((value, f(minitorch2.from_numpy(value))))
            if len(kept) > 3:
                value, out = kept.pop(0)
                expected = torch.sin(torch.from_numpy(value) * 2) + 1
                np.testing.assert_allclose(out.numpy(), expected.numpy(), rtol=1e-6, atol=1e-6)

    run_threads(8, work)


# ---- fork ----------------------------------------------------------------------------------------

CHILD_COMPILES = """
def child():
    import faulthandler
    faulthandler.dump_traceback_later(CHILD_SECONDS, exit=True)  # a hung child reports where, and exits
    x = minitorch2.from_numpy(np.linspace(-1, 2, 40, dtype=np.float32)).requires_grad_()
    y = minitorch2.compile(lambda x: (x.sin() * x).sum(), backend="inductor")(x)
    y.backward()
    a = minitorch2.from_numpy(np.linspace(-1, 1, 512 * 512, dtype=np.float32).reshape(512, 512))
    m = minitorch2.compile(lambda a: (a @ a).relu() + 1, backend="inductor")(a)  # kernel worker threads
    print(float(y), float(x.grad.sum()), float(m.sum()), flush=True)
    os._exit(0)


def fork_and_wait():
    pid = os.fork()
    if pid == 0:
        child()
    return os.waitpid(pid, 0)[1]
"""

FORK_AFTER_IMPORT = """
import os, sys
import numpy as np
import backend, minitorch2
backend.config.graph_cache = False
CHILD_SECONDS = 30
""" + CHILD_COMPILES + """
print("status", fork_and_wait())  # at once: the preload thread started by `import backend` is running
"""

FORK_WHILE_COMPILING = """
import os, sys, threading, time
import numpy as np
import backend, minitorch2
backend.config.graph_cache = False
CHILD_SECONDS = 30
""" + CHILD_COMPILES + """
stop = threading.Event()
compiled = []

def keep_compiling():
    i = 0
    while not stop.is_set():
        namespace = {"minitorch2": minitorch2}
        exec(compile(f"def g(x):\\n    return (x * {i}.5).exp().sum()\\n", f"<busy{i}>", "exec"), namespace)
        minitorch2.compile(namespace["g"], backend="inductor")(minitorch2.randn(33, 17, requires_grad=True)).backward()
        compiled.append(i)
        i += 1

# (the first compile's deferred imports done first: a fork while another thread is inside an import leaves the
# child waiting on CPython's lock for that module, which no code of ours holds)
minitorch2.compile(lambda x: (x * 0.5).exp().sum(), backend="inductor")(minitorch2.randn(3, requires_grad=True)).backward()
thread = threading.Thread(target=keep_compiling, daemon=True)
thread.start()
for k in range(3):
    time.sleep(0.05 + 0.1 * k)
    print("status", fork_and_wait())
stop.set()
thread.join()
print("busy compiles", len(compiled))
"""


def run_forking_script(script):
    env = dict(os.environ, PYTHONPATH=ROOT + os.pathsep + os.environ.get("PYTHONPATH", ""))
    done = subprocess.run([sys.executable, "-c", textwrap.dedent(script)], env=env, cwd=ROOT, capture_output=True,
                          text=True, timeout=240)
    assert done.returncode == 0, done.stderr[-3000:]
    return done.stdout.splitlines()


def expected_child_line():
    x = torch.linspace(-1, 2, 40).requires_grad_()
    y = (x.sin() * x).sum()
    y.backward()
    a = torch.linspace(-1, 1, 512 * 512).reshape(512, 512)
    return y.item(), x.grad.sum().item(), ((a @ a).relu() + 1).sum().item()


def check_children(lines, forks):
    statuses = [line for line in lines if line.startswith("status")]
    assert statuses == ["status 0"] * forks, lines  # a hung child exits by faulthandler, status 1
    results = [[float(v) for v in line.split()] for line in lines if not line.startswith(("status", "busy"))]
    assert len(results) == forks
    for result in results:
        np.testing.assert_allclose(result, expected_child_line(), rtol=1e-4)


def test_child_forked_right_after_import_compiles_and_runs():
    check_children(run_forking_script(FORK_AFTER_IMPORT), 1)


def test_children_forked_while_another_thread_compiles_compile_and_run():
    lines = run_forking_script(FORK_WHILE_COMPILING)
    check_children(lines, 3)
    assert int(lines[-1].split()[-1]) > 0  # the other thread was compiling all along
