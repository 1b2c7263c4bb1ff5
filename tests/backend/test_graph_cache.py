"""The compiled-graph cache (backend/speed/graph_cache.py): a second process loads what the first compiled."""
import os
import subprocess
import sys
import textwrap

import pytest

pytestmark = pytest.mark.speed_wing

GRAPH_CACHE_SCRIPT = textwrap.dedent("""
    import sys
    import zlib
    import numpy as np
    import minitorch2
    from backend import config, metrics
    config.graph_cache_dir, config.kernel_cache_dir = sys.argv[1], sys.argv[2]
    x = minitorch2.from_numpy(np.linspace(-3, 3, 1000, dtype=np.float32)).requires_grad_()
    f = minitorch2.compile(lambda x: (minitorch2.tanh(x * 2.0) * x).sum(), backend="inductor")
    y = f(x)
    y.backward()
    g = metrics.graphs
    print(",".join(str(graph.from_cache) for graph in g), float(y), float(x.grad.sum()),
          zlib.crc32(g[0].source.encode()), zlib.crc32(g[1].source.encode()), len(g[0].scheduler.steps))
""")


def run_twice(tmp_path, extra_env=None):
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    env = dict(os.environ, PYTHONPATH=root + os.pathsep + os.environ.get("PYTHONPATH", ""), **(extra_env or {}))
    args = [sys.executable, "-c", GRAPH_CACHE_SCRIPT, str(tmp_path / "graphs"), str(tmp_path / "kernels")]
    return [subprocess.run(args, env=env, cwd=root, capture_output=True, text=True, check=True).stdout.split()
            for _ in range(2)]


def test_second_process_loads_forward_and_backward_from_the_graph_cache(tmp_path):
    first, second = run_twice(tmp_path)
    assert first[0] == "False,False" and second[0] == "True,True"
    assert first[1:] == second[1:]  # same results and wrapper code; a hit's scheduler is rebuilt on demand
    assert len(list((tmp_path / "graphs").rglob("*.json"))) == 2


def test_graph_cache_can_be_turned_off(tmp_path):
    first, second = run_twice(tmp_path, {"MINITORCH2_GRAPH_CACHE": "0"})
    assert first[0] == second[0] == "False,False"
    assert not (tmp_path / "graphs").exists()


# ---- graphs over symbolic sizes (dynamic=True): one entry serves every size its guards admit ----------------------

DYNAMIC_SCRIPT = textwrap.dedent("""
    import sys
    import zlib
    import numpy as np
    import minitorch2
    from backend import config, metrics
    config.graph_cache_dir, config.kernel_cache_dir = sys.argv[1], sys.argv[2]

    def f(x, w):
        if x.shape[0] > 2:
            x = x.view(-1, 2).sum(1).view(-1, w.shape[0])
        return (minitorch2.tanh(x @ w) * x.sum(1, keepdim=True)).softmax(-1).sum()

    compiled = minitorch2.compile(f, backend="inductor", dynamic=True)
    values = []
    for n in (4, 8, 10):
        x = minitorch2.from_numpy(np.linspace(-3, 3, n * 12, dtype=np.float32).reshape(n, 12)).requires_grad_()
        w = minitorch2.from_numpy(np.linspace(-1, 1, 36, dtype=np.float32).reshape(6, 6))
        y = compiled(x, w)
        y.backward()
        values += [float(y), float((x.grad * x.grad).sum())]
    g = metrics.graphs
    print(",".join(str(graph.from_cache) for graph in g), *values,
          *(zlib.crc32(graph.source.encode()) for graph in g), *(zlib.crc32(repr(graph.kernels).encode()) for graph in g))
""")


def test_second_process_loads_a_graph_over_symbolic_sizes(tmp_path):
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    env = dict(os.environ, PYTHONPATH=root + os.pathsep + os.environ.get("PYTHONPATH", ""))
    args = [sys.executable, "-c", DYNAMIC_SCRIPT, str(tmp_path / "graphs"), str(tmp_path / "kernels")]
    first, second = (subprocess.run(args, env=env, cwd=root, capture_output=True, text=True, check=True).stdout.split()
                     for _ in range(2))
    assert first[0] == "False,False" and second[0] == "True,True"  # a forward and a backward for all three sizes
    assert first[1:] == second[1:]  # the same values, wrapper code and kernels (their sizes over s-symbols)
    assert len(list((tmp_path / "graphs").rglob("*.json"))) == 2


def test_the_same_graph_under_other_size_facts_is_another_entry(tmp_path, monkeypatch):
    """Both branches trace `x * 2` over s77, one with s77 >= 5 and one with s77 <= 4: the compile may decide on those
    ranges, so each range has its own entry, and each is found again after a reset."""
    import numpy as np  # (the module's other tests run in subprocesses)

    import backend
    import frontend
    import minitorch2
    from backend import config
    monkeypatch.setattr(config, "graph_cache", True)
    monkeypatch.setattr(config, "graph_cache_dir", str(tmp_path / "graphs"))
    monkeypatch.setattr(config, "kernel_cache_dir", str(tmp_path / "kernels"))

    def f(x):
        return x * 2 if x.shape[0] > 4 else x * 2  # noqa: RUF034 (one graph, two ranges of s77)

    def run(*sizes):
        frontend.reset()
        backend.metrics.reset()
        compiled = minitorch2.compile(f, backend="inductor", dynamic=True)
        for n in sizes:
            x = np.arange(n, dtype=np.float32)
            np.testing.assert_array_equal(compiled(minitorch2.from_numpy(x)).numpy(), x * 2)
        return [graph.from_cache for graph in backend.metrics.graphs]

    assert run(8, 3) == [False, False]
    assert len(list((tmp_path / "graphs").rglob("*.json"))) == 2
    assert run(3, 9) == [True, True]
    frontend.reset()
