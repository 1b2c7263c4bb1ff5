"""What the backend reads from disk and keeps in memory (backend/speed/: disk_cache.py, graph_cache.py, kernel_cache.py):
a cache directory or file the user does not own, or that others can write, is not read (a planted entry
does not run); entries are JSON data; the disk caches stay under their size cap, least recently used
going first; a compiled function's MCJIT engines are freed once it is gone (frontend.reset())."""
import gc
import json
import os
import warnings

import numpy as np
import pytest
import torch

import backend
import frontend
import minitorch2
from backend import config
from backend.codegen import llvm
from backend.speed import disk_cache, graph_cache, kernel_cache

pytestmark = pytest.mark.speed_wing


@pytest.fixture
def caches(tmp_path, monkeypatch):
    """Fresh graph and kernel caches under tmp_path, and fresh frontend caches."""
    monkeypatch.setattr(config, "graph_cache", True)
    monkeypatch.setattr(config, "graph_cache_dir", str(tmp_path / "graphs"))
    monkeypatch.setattr(config, "kernel_cache_dir", str(tmp_path / "kernels"))
    monkeypatch.setattr(disk_cache, "_warned", set())
    frontend.reset()
    backend.metrics.reset()
    yield tmp_path
    frontend.reset()


def fresh_function(module, scale):
    namespace = {"torch": module}
    exec(compile(f"def f(x):\n    return (x * {scale}).sin().exp().sum()\n", f"<cache_{scale}>", "exec"), namespace)
    return namespace["f"]


X = np.linspace(-2, 2, 50, dtype=np.float32)


def compile_and_run(scale=1.5):
    """f(x) compiled, its value and the graph compiled for it (forward only: x needs no grad)."""
    frontend.reset()
    backend.metrics.reset()
    y = minitorch2.compile(fresh_function(minitorch2, scale), backend="inductor")(minitorch2.from_numpy(X.copy()))
    expected = fresh_function(torch, scale)(torch.from_numpy(X.copy()))
    np.testing.assert_allclose(y.item(), expected.item(), rtol=1e-5)
    (graph,) = backend.metrics.graphs
    return graph


def plant(tmp_path, marker):
    """Rewrite the one stored graph entry so that loading it runs code that creates `marker`."""
    (path,) = (tmp_path / "graphs").rglob("*.json")
    entry = json.loads(path.read_text())
    entry["source"] = f"open({str(marker)!r}, 'w').close()\n" + entry["source"]
    path.write_text(json.dumps(entry))
    return path


def test_entries_are_json_data_and_a_second_compile_loads_them(caches):
    assert not compile_and_run().from_cache
    (path,) = (caches / "graphs").rglob("*.json")
    entry = json.loads(path.read_text())
    assert entry["format"] == graph_cache.FORMAT and entry["kernels"][0]["kernel"]["loop_ir"] == "Kernel"
    assert compile_and_run().from_cache


def test_planted_entry_runs_only_from_a_private_directory(caches):
    """The control: in a directory only the user can write, the stored wrapper source is what runs."""
    compile_and_run()
    plant(caches, caches / "ran")
    assert compile_and_run().from_cache and (caches / "ran").exists()


def test_world_writable_cache_directory_is_refused_and_its_entry_never_runs(caches):
    compile_and_run()
    plant(caches, caches / "ran")
    os.chmod(caches / "graphs", 0o777)
    with pytest.warns(RuntimeWarning, match="not using the cache .*writable by group or others"):
        graph = compile_and_run()
    assert not graph.from_cache and not (caches / "ran").exists()
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # warned once per cache, not at every compile
        compile_and_run(2.5)


def test_group_writable_entry_file_is_refused(caches):
    compile_and_run()
    path = plant(caches, caches / "ran")
    os.chmod(path, 0o664)
    with pytest.warns(RuntimeWarning, match="writable by group or others"):
        graph = compile_and_run()
    assert not graph.from_cache and not (caches / "ran").exists()


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() != 0, reason="chown to another user needs root")
def test_entry_owned_by_another_user_is_refused(caches):
    compile_and_run()
    path = plant(caches, caches / "ran")
    os.chown(path, 12345, -1)
    with pytest.warns(RuntimeWarning, match="owned by uid 12345"):
        graph = compile_and_run()
    assert not graph.from_cache and not (caches / "ran").exists()


def test_kernel_object_files_in_a_foreign_directory_are_not_loaded(caches):
    kernel = compile_and_run().kernels[0]
    frontend.reset()
    backend.metrics.reset()  # no engine of it left in memory: it comes from disk or from the compiler
    assert llvm.compile_kernel(kernel).source == "disk"  # the control
    os.chmod(caches / "kernels", 0o777)
    with pytest.warns(RuntimeWarning, match="not using the cache"):
        assert llvm.compile_kernel(kernel).source == "compiled"


def test_entry_naming_a_class_outside_loop_ir_is_not_loaded(caches):
    compile_and_run()
    (path,) = (caches / "graphs").rglob("*.json")
    entry = json.loads(path.read_text())
    entry["kernels"][0]["kernel"]["loop_ir"] = "Popen"  # not a loop_ir class: decode builds nothing
    path.write_text(json.dumps(entry))
    assert not compile_and_run().from_cache


def test_directories_the_cache_creates_are_private(caches, monkeypatch):
    monkeypatch.setattr(config, "graph_cache_dir", str(caches / "a" / "b" / "graphs"))
    old = os.umask(0o002)  # a umask that would leave group write on
    try:
        compile_and_run()
    finally:
        os.umask(old)
    for folder in (caches / "a", caches / "a" / "b" / "graphs"):
        assert folder.stat().st_mode & 0o077 == 0, oct(folder.stat().st_mode)
    assert compile_and_run().from_cache


def test_disk_cache_is_bounded_and_evicts_the_least_recently_used(tmp_path):
    root = str(tmp_path / "c")
    paths = [os.path.join(root, f"{i:02d}", f"{i}.bin") for i in range(10)]
    for i, path in enumerate(paths[:6]):
        assert disk_cache.write(root, path, bytes(1000), max_bytes=8000)
        os.utime(path, (1000 + i, 1000 + i))  # written in order, one second apart
    assert disk_cache.read(root, paths[0]) is not None  # used now: the most recent
    for path in paths[6:]:
        disk_cache.write(root, path, bytes(1000), max_bytes=8000)
    kept = {p for p in paths if os.path.exists(p)}
    assert disk_cache.cache_bytes(root) <= 8000
    assert paths[0] in kept and paths[9] in kept  # the one just read and the newest stay
    assert paths[1] not in kept and paths[2] not in kept  # the least recently used went first


def test_graph_cache_stays_under_its_cap(caches, monkeypatch):
    compile_and_run()
    cap = disk_cache.cache_bytes(config.graph_cache_dir) * 7 // 2  # room for three entries and a half
    monkeypatch.setattr(config, "graph_cache_max_bytes", cap)
    monkeypatch.setattr(disk_cache, "_estimated_bytes", {})
    for k in range(8):
        compile_and_run(2.5 + k)
    assert 0 < disk_cache.cache_bytes(config.graph_cache_dir) <= cap
    assert 2 <= len(list((caches / "graphs").rglob("*.json"))) <= 3


def test_engines_are_freed_when_the_compiled_functions_are_gone(caches):
    config.graph_cache = False
    frontend.reset()
    backend.metrics.reset()
    gc.collect()
    before = kernel_cache.live_engines()
    x = minitorch2.from_numpy(X.copy())
    for k in range(12):
        minitorch2.compile(fresh_function(minitorch2, 3.25 + k), backend="inductor")(x)
    assert kernel_cache.live_engines() >= before + 12
    assert len(backend.metrics.graphs) == 12  # metrics keep a record of each graph, not its machine code
    frontend.reset()
    assert kernel_cache.live_engines() == before
    assert len(backend.metrics.graphs) == 12 and all(g.source for g in backend.metrics.graphs)
