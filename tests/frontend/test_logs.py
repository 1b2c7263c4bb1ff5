"""MINITORCH2_LOGS artifacts (minitorch2/_logging.py): each appears, with PyTorch's TORCH_LOGS format."""
import os
import re
import subprocess
import sys
import textwrap

import pytest

import frontend
import minitorch2
from minitorch2 import _logging

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
PREFIX = re.compile(r"^([VI])\d{4} \d\d:\d\d:\d\d\.\d{6} \d+ (\S+):\d+\] (?:\[(\d+/\d+(?:_\d+)?)\] )?\[__(\w+)\] ")


@pytest.fixture(autouse=True)
def _reset():
    frontend.reset()
    yield
    _logging.reload("")
    frontend.reset()


def _logged(capsys, setting, run):
    """Run `run()` with the setting on; the stderr lines of each artifact, prefixes stripped."""
    _logging.reload(setting)
    capsys.readouterr()
    run()
    err = capsys.readouterr().err
    by_artifact = {}
    for line in err.splitlines():
        match = PREFIX.match(line)
        assert match, f"line without the glog prefix: {line!r}"
        by_artifact.setdefault(match.group(4), []).append((match.group(2), match.group(3), line[match.end():]))
    return by_artifact


def f(x):
    y = x.sin() * 2
    return y.relu()


def f_print(x):
    y = x.sin() * 2
    print("side effect")
    return y.relu()


F_PRINT_LINE = f_print.__code__.co_firstlineno + 2


def test_nothing_is_printed_when_no_artifact_is_on(capsys):
    logs = _logged(capsys, "", lambda: minitorch2.compile(f, backend="aot_eager")(minitorch2.randn(2, 2)))
    assert logs == {}


def test_graph_code_is_a_traced_graph_block(capsys):
    logs = _logged(capsys, "graph_code", lambda: minitorch2.compile(f, backend="eager")(minitorch2.randn(4, 3)))
    lines = logs["graph_code"]
    assert {(where, compile_id) for where, compile_id, _ in lines} == {("frontend/eval_frame.py", "0/0")}
    text = [t for _, _, t in lines]
    assert text[0] == "TRACED GRAPH"
    assert re.fullmatch(r" ===== __compiled_fn_\d+ =====", text[1])
    assert text[2].endswith("class GraphModule(torch.nn.Module):")
    assert '    def forward(self, L_x_: "f32[4, 3][3, 1]cpu"):' in text
    assert '        y: "f32[4, 3][3, 1]cpu" = sin * 2;  sin = None' in text


def test_graph_breaks_name_the_user_line_reason_and_hint(capsys):
    logs = _logged(capsys, "graph_breaks", lambda: minitorch2.compile(f_print, backend="eager")(minitorch2.randn(2)))
    text = "\n".join(t for _, _, t in logs["graph_breaks"])
    assert f"Graph break in user code at {__file__}:{F_PRINT_LINE}" in text
    assert "Graph Break Reason: print()" in text
    assert "  Explanation: print() has a side effect" in text and "  Hint: " in text


def test_guards_print_the_guard_function(capsys):
    logs = _logged(capsys, "guards", lambda: minitorch2.compile(f, backend="eager")(minitorch2.randn(4, 3)))
    text = [t for _, _, t in logs["guards"]]
    assert text[:2] == ["GUARDS:", "def guards(L, G):"]
    assert any("___check_tensor(L['x'], torch.float32, (4, 3), (3, 1), False, torch.Tensor)" in t for t in text)


def test_recompiles_name_each_failing_guard_with_expected_and_actual(capsys):
    def run():
        cf = minitorch2.compile(f, backend="eager")
        cf(minitorch2.randn(4, 3))
        cf(minitorch2.randn(8, 3))
        cf(minitorch2.randn(8, 3).double())
        cf(minitorch2.randn(8, 3, requires_grad=True))

    logs = _logged(capsys, "recompiles", run)
    text = [t for _, _, t in logs["recompiles"]]
    assert text == [
        f"Recompiling function f in {__file__}:{f.__code__.co_firstlineno}",
        "    triggered by the following guard failure(s):",
        "    - 0/0: tensor 'L['x']' size mismatch at index 0. expected 4, actual 8",
        f"Recompiling function f in {__file__}:{f.__code__.co_firstlineno}",
        "    triggered by the following guard failure(s):",
        "    - 0/1: tensor 'L['x']' dtype mismatch. expected Float, actual Double",
        "    - 0/0: tensor 'L['x']' dtype mismatch. expected Float, actual Double",
        f"Recompiling function f in {__file__}:{f.__code__.co_firstlineno}",
        "    triggered by the following guard failure(s):",
        "    - 0/2: tensor 'L['x']' dtype mismatch. expected Double, actual Float",
        "    - 0/1: tensor 'L['x']' requires_grad mismatch. expected requires_grad=0",
        "    - 0/0: tensor 'L['x']' requires_grad mismatch. expected requires_grad=0",
    ]
    assert [cid for _, cid, t in logs["recompiles"] if t.startswith("Recompiling")] == ["0/1", "0/2", "0/3"]


def test_bytecode_shows_original_and_modified_code(capsys):
    logs = _logged(capsys, "bytecode", lambda: minitorch2.compile(f_print, backend="eager")(minitorch2.randn(2)))
    text = [t for _, _, t in logs["bytecode"]]
    first = f_print.__code__.co_firstlineno
    assert f"ORIGINAL BYTECODE f_print {__file__} line {first} " in text
    assert any(re.search(r"LOAD_GLOBAL\s+\d+ \((NULL \+ print|print \+ NULL)\)", t) for t in text)  # 3.13: NULL after
    assert f"MODIFIED BYTECODE f_print {__file__} line {first} " in text


def test_log_bytecode_hook_for_resume_functions(capsys):
    code = compile("def g(a):\n    return a + 1\n", "made.py", "exec").co_consts[0]
    logs = _logged(capsys, "bytecode", lambda: _logging.log_bytecode("ORIGINAL BYTECODE", "g", "made.py", 1, code))
    text = [t for _, _, t in logs["bytecode"]]
    assert text[0] == "ORIGINAL BYTECODE g made.py line 1 "
    assert any("BINARY_OP" in t for t in text)


def test_aot_graphs_joint_graph_and_partition(capsys):
    def run():
        x = minitorch2.randn(4, 3, requires_grad=True)
        minitorch2.compile(f, backend="aot_eager")(x).sum().backward()

    logs = _logged(capsys, "aot_graphs,aot_joint_graph,partition", run)
    joint = [t for _, _, t in logs["aot_joint_graph"]]
    graphs = [t for _, _, t in logs["aot_graphs"]]
    assert joint[0] == "TRACED GRAPH" and re.fullmatch(r" ===== Joint graph \d+ =====", joint[1])
    assert any("torch.ops.aten.threshold_backward.default(tangents_1" in t for t in joint)
    titles = [t for t in graphs if "=====" in t]
    assert [re.sub(r"\d+", "N", t) for t in titles] == [" ===== Forward graph N =====", " ===== Backward graph N ====="]
    # aot_eager compiles at the frame's first run: still tagged with the frame's compile id
    assert all(where == "autograd/aot.py" and cid == "0/0" for where, cid, _ in logs["aot_graphs"])
    partition = "\n".join(t for _, _, t in logs["partition"])
    assert "min_cut_rematerialization_partition: saves 2 tensors (96 B)" in partition
    assert "detach_1" in partition and "primals_1" in partition


def test_components_and_invalid_settings(capsys):
    _logging.reload("+frontend")
    import logging

    assert logging.getLogger("frontend").getEffectiveLevel() == logging.DEBUG
    _logging.reload("")
    with pytest.raises(ValueError, match="Invalid log settings: graph_cod"):
        _logging.reload("graph_cod")


SCRIPT = """
import torch
def f(x):
    y = x.sin() * 2
    return y.relu()
cf = torch.compile(f, backend="eager", dynamic=False)
cf(torch.randn(4, 3))
cf(torch.randn(8, 3))
"""


def _artifact_texts(stderr, artifact):
    out = []
    for line in stderr.splitlines():
        match = PREFIX.match(line)
        if match and match.group(4) == artifact:
            out.append(line[match.end():])
    return out


def _torch_logs(capfd, script_path, artifacts=("graph_code", "recompiles")):
    """TORCH_LOGS=graph_code,recompiles (or other artifacts) on the same script, in this process (torch is
    imported already)."""
    torch = pytest.importorskip("torch")
    import torch._dynamo

    torch._dynamo.reset()
    capfd.readouterr()
    torch._logging.set_logs(**dict.fromkeys(artifacts, True))
    try:
        exec(compile(script_path.read_text(), str(script_path), "exec"), {"__name__": "torch_logs_script"})
    finally:
        torch._logging.set_logs()
        torch._dynamo.reset()
    return capfd.readouterr().err


def test_env_var_in_a_fresh_process_matches_torch_logs(tmp_path, capfd):
    pytest.importorskip("torch")  # the oracle; skip before the subprocess run
    script = tmp_path / "script.py"
    script.write_text(textwrap.dedent(SCRIPT))
    env = dict(os.environ, MINITORCH2_LOGS="graph_code,recompiles", PYTHONPATH=ROOT)
    ours = subprocess.run([sys.executable, "-m", "minitorch2", "run", str(script)], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=120)
    assert ours.returncode == 0, ours.stderr
    theirs = _torch_logs(capfd, script)

    def code_lines(stderr):  # the graph's code: drop the file-path line and "# File" comments
        return [t for t in _artifact_texts(stderr, "graph_code") if t.strip() and "=====" not in t
                and "class GraphModule" not in t and not t.strip().startswith("#")]

    assert code_lines(ours.stderr) and code_lines(ours.stderr) == code_lines(theirs)
    ours_recompiles = [t.replace("L['x']", "x") for t in _artifact_texts(ours.stderr, "recompiles")]
    theirs_recompiles = _artifact_texts(theirs, "recompiles")
    assert ours_recompiles and ours_recompiles == theirs_recompiles


NAMES_SCRIPT = """
import torch
def f(x):
    return x.sin() + 1
def g(x):
    y = x.cos()
    print("graph break")
    return y * 2
def h(x):
    return x.exp()
cf, cg, ch = (torch.compile(fn, backend="eager", dynamic=False) for fn in (f, g, h))
cf(torch.randn(3)); cg(torch.randn(3)); ch(torch.randn(3)); cf(torch.randn(4, 2))
"""


def test_graph_names_and_compile_ids_count_as_dynamos(tmp_path, capfd):
    """__compiled_fn_N skips the numbers Dynamo's unique ids spend on translation attempts and resume functions,
    and a graph compiled after a graph break's restart has the compile id [1/0_1]."""
    pytest.importorskip("torch")
    script = tmp_path / "names.py"
    script.write_text(NAMES_SCRIPT)
    env = dict(os.environ, MINITORCH2_LOGS="graph_code", PYTHONPATH=ROOT)
    ours = subprocess.run([sys.executable, "-m", "minitorch2", "run", str(script)], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=120)
    assert ours.returncode == 0, ours.stderr
    theirs = _torch_logs(capfd, script, ("graph_code",))

    def names(stderr):  # (compile id, N of __compiled_fn_N less the first graph's N)
        found = []
        for line in stderr.splitlines():
            match = PREFIX.match(line)
            number = re.search(r"===== __compiled_fn_(\d+)", line)
            if match and number:
                found.append((match.group(3), int(number.group(1))))
        return [(compile_id, n - found[0][1]) for compile_id, n in found]

    assert names(ours.stderr) == names(theirs) == [("0/0", 0), ("1/0_1", 3), ("2/0", 6), ("3/0", 8), ("0/1", 10)]


SYMBOLIC_AOT_SCRIPT = """
import torch
def f(x):
    return (x.view(-1, 2).sum(1) * x.shape[0]).sin()
def g(x):
    return x.view(-1, 2).sum(1).view(-1, 3).cos() * (x.shape[0] * x.shape[1] // 2)
x = torch.randn(8, requires_grad=True)
torch.compile(f, backend="aot_eager", dynamic=True)(x).sum().backward()
with torch.no_grad():
    torch.compile(g, backend="aot_eager", dynamic=True)(torch.randn(4, 12))
"""


def test_aot_graphs_over_symbolic_sizes_print_as_torchs(tmp_path, capfd):
    """Size inputs and size nodes annotate as `primals_1: "Sym(s77)"`, `sym_size_int: "Sym((s77//2))"` (the joint
    graph's flattened inputs too, `primals_1: "Sym(s77)"; primals_2: ...;`); the joint graph's class is inner_f,
    an inference graph's <lambda>, the partitioned ones' GraphModule, as torch's."""
    pytest.importorskip("torch")
    script = tmp_path / "symbolic_aot.py"
    script.write_text(SYMBOLIC_AOT_SCRIPT)
    env = dict(os.environ, MINITORCH2_LOGS="aot_graphs,aot_joint_graph", PYTHONPATH=ROOT)
    ours = subprocess.run([sys.executable, "-m", "minitorch2", "run", str(script)], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=120, check=False)
    assert ours.returncode == 0, ours.stderr
    theirs = _torch_logs(capfd, script, ("aot_graphs", "aot_joint_graph"))

    def shown(stderr):  # the graphs' text (class lines less their file, titles less their AOT id), Sym lines
        text = [t[t.index("class "):] if "(torch.nn.Module):" in t else re.sub(r" \d+ =====$", " N =====", t)
                for artifact in ("aot_joint_graph", "aot_graphs") for t in _artifact_texts(stderr, artifact)
                if not t.startswith("aot_config id:")]  # (torch's AOT metadata dump: not ours to print)
        return text, [t for t in text if '"Sym(' in t]

    # (the joint's flattened inputs are annotated on a line of their own; floordiv: "Sym(((s27*s77)//2))"; the
    # backward's nodes are numbered as torch's: its trace records none of functionalization's size arithmetic)
    assert shown(ours.stderr) == shown(theirs) and len(shown(theirs)[1]) == 8
