"""`python -m minitorch2 run`: the alias table, the script's own stdout and exit status, clear errors."""
import os
import subprocess
import sys
import textwrap

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def _run(*args, script=None, tmp_path=None):
    cmd = [sys.executable, "-m", "minitorch2", "run"]
    if script is not None:
        path = tmp_path / "script.py"
        path.write_text(textwrap.dedent(script))
        cmd.append(str(path))
    cmd.extend(args)
    return subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=120)


def _torch(script, tmp_path, *args):
    path = tmp_path / "script_torch.py"
    path.write_text(textwrap.dedent(script))
    return subprocess.run([sys.executable, str(path), *args], capture_output=True, text=True, timeout=120)


SCRIPT = """
    import sys
    import torch
    import torch.nn as nn
    import torch.nn.functional as F
    from torch.utils._python_dispatch import TorchDispatchMode

    torch.manual_seed(0)
    x = torch.randn(3, 4, requires_grad=True)
    y = (x.sin() * 2 + 1).relu().sum()
    y.backward()
    print(sys.argv[1:])
    print(y)
    print(x.grad)
    print(torch.tensor([[1, 2], [3, 4]]).t().stride(), torch.float64, torch.Size([2, 3]))
    print(F.softmax(torch.arange(4.0), 0) if hasattr(torch, "_softmax_ok") else "skip")
    sys.exit(3)
"""


def test_script_prints_exactly_what_torch_prints(tmp_path):
    ours = _run("a", "--flag", script=SCRIPT, tmp_path=tmp_path)
    theirs = _torch(SCRIPT, tmp_path, "a", "--flag")
    assert ours.stderr == ""
    assert ours.stdout == theirs.stdout
    assert ours.returncode == theirs.returncode == 3


def test_the_demo_narrates_one_compile_in_a_page():
    result = _run()
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert len(lines) < 35
    assert "SumBackward0 <- ReluBackward0 <- AddmmBackward0" in result.stdout
    assert "threshold_backward" in result.stdout
    assert "primals (3): the forward's inputs" in result.stdout and "tangents (1): the gradient" in result.stdout
    # the contrast, with the numbers: the default keeps relu's output, the min-cut a one-byte-per-element mask
    assert "default_partition: primals_3 (float32[2, 3], 24 B), relu (float32[2, 4], 32 B); 56 bytes" in lines
    assert "min_cut_rematerialization_partition: primals_3 (float32[2, 3], 24 B), le (bool[2, 4], 8 B); 32 bytes" \
        in lines
    assert "the min-cut saves the 8-byte mask le instead of the 32-byte relu" in result.stdout
    assert "extern call (the matmul runs in BLAS, not in a generated loop): ExternKernel buf0 = mm(" in result.stdout
    assert "kernel kernel0(" in result.stdout
    assert lines[-1] == "    python -m minitorch2 run --report out.html script.py"


def test_missing_attribute_is_one_line_naming_it(tmp_path):
    result = _run(script="import torch\nx = torch.ones(2)\ntorch.fft_magic(x)\n", tmp_path=tmp_path)
    assert result.returncode == 1
    assert result.stderr.count("\n") == 1
    assert "torch.fft_magic" in result.stderr and "script.py:3" in result.stderr


@pytest.mark.parametrize("line,name", [("torch.nn.CrossMapLRN2d(3)", "torch.nn.CrossMapLRN2d"),
                                       ("torch.optim.Muon([])", "torch.optim.Muon"),
                                       ("torch.nn.functional.no_such_fn(x)", "torch.nn.functional.no_such_fn"),
                                       ("x.no_such_method()", "torch.Tensor.no_such_method")])
def test_a_missing_name_in_nn_optim_or_tensor_is_one_line_naming_it(tmp_path, line, name):
    result = _run(script=f"import torch\nx = torch.ones(2)\n{line}\n", tmp_path=tmp_path)
    assert result.returncode == 1
    assert result.stderr.count("\n") == 1 and name in result.stderr and "script.py:3" in result.stderr


def test_missing_module_is_one_line_naming_it(tmp_path):
    result = _run(script="import torch\nimport torch._inductor.nothing_here\n", tmp_path=tmp_path)
    assert result.returncode == 1
    assert "torch._inductor.nothing_here" in result.stderr
    assert "Traceback" not in result.stderr


def test_user_errors_keep_their_traceback(tmp_path):
    result = _run(script="import torch\ntorch.ones(2, 3) @ torch.ones(2, 3)\n", tmp_path=tmp_path)
    assert result.returncode == 1
    assert "RuntimeError: mat1 and mat2 shapes cannot be multiplied (2x3 and 2x3)" in result.stderr


SPAWNING_SCRIPT = """
    import torch
    import torch.multiprocessing as mp

    def child(model, queue):
        queue.put((type(torch.ones(1)).__module__.split(".")[0], sum(p.sum().item() for p in model.parameters())))
        with torch.no_grad():
            model.weight.add_(1)  # shared memory: the parent sees it

    if __name__ == "__main__":
        torch.manual_seed(0)
        mp.set_start_method("spawn", force=True)
        model = torch.nn.Linear(3, 2)
        model.share_memory()
        queue = mp.Queue()
        process = mp.Process(target=child, args=(model, queue))
        process.start()
        package, total = queue.get()
        process.join()
        print(package == type(torch.ones(1)).__module__.split(".")[0], round(total, 5), process.exitcode)
        print(round(model.weight.sum().item(), 5))
"""


@pytest.mark.slow  # four interpreters (a parent and a spawned child, ours and torch's): about 15 s
def test_spawned_processes_import_what_the_parent_imports(tmp_path):
    # mnist_hogwild trains in spawned processes: a child re-runs the script, whose `import torch` must be ours too
    # (before, the child imported real torch, whose optimizer refused our parameters)
    ours = _run(script=SPAWNING_SCRIPT, tmp_path=tmp_path)
    theirs = _torch(SPAWNING_SCRIPT, tmp_path)
    assert ours.returncode == theirs.returncode == 0, ours.stderr
    assert ours.stdout == theirs.stdout
