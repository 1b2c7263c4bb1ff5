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
