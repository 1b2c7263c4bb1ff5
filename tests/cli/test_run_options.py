"""`python -m minitorch2 run --backend / --show / --compare-torch / --report`, and the pure comparison
functions behind --compare-torch (minitorch2/cli/compare.py), tested without subprocesses."""
import html.parser
import logging
import os
import subprocess
import sys
import textwrap

import pytest

from frontend.exc import InvalidBackend
from minitorch2 import _logging
from minitorch2.cli import compare, main, subprocesses

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

# A compiled function with a backward: every layer (graph, aot, joint, partition, kernels, guards) logs.
COMPILED_STEP = """
    import sys
    import torch

    def f(x, w):
        return (x @ w).relu().sum()

    torch.manual_seed(0)
    x = torch.randn(2, 3)
    w = torch.randn(3, 4, requires_grad=True)
    loss = torch.compile(f)(x, w)
    loss.backward()
"""
SCRIPT = COMPILED_STEP + """
    print(sys.argv[1:])
    print(round(loss.item(), 4))
    print(w.grad)
    sys.exit(3)
"""
SCRIPT_STDOUT_START = "['a', 'b']\n8.2722\ntensor([[ 2.1094,"


def _write(tmp_path, script, name="script.py"):
    path = tmp_path / name
    path.write_text(textwrap.dedent(script))
    return str(path)


def _run(*args, env=None):
    return subprocess.run([sys.executable, "-m", "minitorch2", "run", *args], cwd=ROOT, capture_output=True,
                          text=True, timeout=300, env=env)


# ---- the script's own TORCH_LOGS and TORCH_COMPILE_DEBUG -----------------------------------------

def _environment(**variables):
    env = {k: v for k, v in os.environ.items() if not k.startswith(("TORCH_LOGS", "MINITORCH2_"))}
    return {**env, **variables}


def test_torch_logs_with_torchs_component_names_acts_as_minitorch2_logs(tmp_path):
    script = _write(tmp_path, SCRIPT)
    result = _run(script, "a", "b", env=_environment(TORCH_LOGS="guards,+dynamo,aot_graphs"))
    assert result.stdout.startswith(SCRIPT_STDOUT_START)
    assert "[__aot_graphs]" in result.stderr and "[__guards]" in result.stderr
    artifacts, levels = _logging._parse("+dynamo,aot,-inductor,recompiles")
    assert artifacts == {"recompiles"}
    assert levels == {"frontend": logging.DEBUG, "autograd": logging.INFO, "backend": logging.ERROR}


def test_an_unknown_torch_log_name_is_refused_at_startup_in_one_line(tmp_path):
    result = _run(_write(tmp_path, SCRIPT), env=_environment(TORCH_LOGS="graph_breaks,no_such_log"))
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr.count("\n") == 1 and "Invalid log settings: graph_breaks,no_such_log," in result.stderr


def test_torch_compile_debug_writes_the_debug_folder(tmp_path):
    script = _write(tmp_path, SCRIPT)
    subprocess.run([sys.executable, "-m", "minitorch2", "run", script, "a", "b"], cwd=tmp_path, capture_output=True,
                   text=True, timeout=300, env=_environment(TORCH_COMPILE_DEBUG="1"))
    assert any((tmp_path / "minitorch2_compile_debug").rglob("output_code.py"))


# ---- --backend and --show ------------------------------------------------------------------------

def test_backend_option_is_the_default_backend(tmp_path):
    script = _write(tmp_path, SCRIPT)
    eager = _run("--backend", "eager", "--show", "kernels,aot", script, "a", "b")
    inductor = _run("--backend", "inductor", "--show", "kernels,aot", script, "a", "b")
    assert eager.returncode == inductor.returncode == 3, eager.stderr + inductor.stderr
    assert eager.stdout.startswith(SCRIPT_STDOUT_START) and inductor.stdout == eager.stdout
    # only inductor generates code; eager does not even trace aot graphs
    assert "[__output_code]" in inductor.stderr and "[__aot_graphs]" in inductor.stderr
    assert "[__output_code]" not in eager.stderr and "[__aot_graphs]" not in eager.stderr


def test_unknown_backend_is_the_frontends_error(tmp_path):
    result = _run("--backend", "no_such_backend", _write(tmp_path, SCRIPT))
    assert result.returncode == 2
    assert result.stdout == ""
    assert result.stderr == f"python -m minitorch2 run: InvalidBackend: {InvalidBackend('no_such_backend')}\n"


def test_each_show_layer_prints_its_graphs_on_stderr_and_the_report_holds_them(tmp_path):
    script, out = _write(tmp_path, SCRIPT), tmp_path / "out.html"
    result = _run("--show", ",".join(compare.LAYERS), "--report", str(out), script, "a", "b")
    assert result.returncode == 3, result.stderr
    assert result.stdout.startswith(SCRIPT_STDOUT_START)  # stdout stays the script's alone
    texts = {}
    for record in compare.log_records(result.stderr):
        texts.setdefault(record.artifact, []).append("\n".join(record.lines))
    assert "===== __compiled_fn_1 =====" in texts["graph_code"][0]
    assert "===== Joint graph 0 =====" in texts["aot_joint_graph"][0]
    assert [t.split("\n")[1] for t in texts["aot_graphs"]] == [" ===== Forward graph 0 =====",
                                                               " ===== Backward graph 0 ====="]
    assert "saves 2 tensors" in texts["partition"][0]
    assert "kernel kernel0(" in texts["fusion"][0]
    assert "extern_mm" in "\n".join(texts["output_code"])
    assert texts["guards"][0].startswith("GUARDS:\ndef guards(L, G):")
    page = out.read_text()
    _assert_valid_html(page)
    assert "run --show dynamo,aot,joint,partition,kernels,guards --report" in page
    assert "[&#x27;a&#x27;, &#x27;b&#x27;]\n8.2722\n" in page
    for label in ("dynamo: graph_code", "aot: aot_graphs", "joint: aot_joint_graph", "partition: partition",
                  "kernels: output_code", "kernels: fusion", "guards: guards"):
        assert f"<details><summary>{label} (" in page
    assert "TRACED GRAPH\n ===== __compiled_fn_1 =====" in page


def test_show_one_layer_prints_only_it_and_args_after_the_script_go_to_it(tmp_path):
    result = _run("--backend", "aot_eager", "--show", "joint", _write(tmp_path, SCRIPT), "--show", "aot")
    assert result.returncode == 3, result.stderr
    assert result.stdout.startswith("['--show', 'aot']\n")
    assert {r.artifact for r in compare.log_records(result.stderr)} == {"aot_joint_graph"}


def test_unknown_layer_is_an_argparse_error_listing_the_layers(capsys):
    with pytest.raises(SystemExit) as exit_info:
        main(["run", "--show", "dynamo,bogus", "script.py"])
    assert exit_info.value.code == 2
    assert "unknown layer(s) 'bogus'; choose from dynamo, aot, joint, partition, kernels, guards" in \
        capsys.readouterr().err


# ---- --compare-torch and --report ----------------------------------------------------------------

MATCHING = COMPILED_STEP + """
    print(sys.argv[1:], loss.item())
    print(w.grad)
"""


def test_compare_torch_on_a_matching_script_reports_no_difference(tmp_path):
    # aot_eager on both sides (the torch child gets the default backend through its bootstrap): the
    # aot graphs only match op by op when torch's default is really aot_eager too
    result = _run("--backend", "aot_eager", "--compare-torch", "--show", "dynamo,aot,joint",
                  _write(tmp_path, MATCHING), "x")
    assert result.returncode == 0, result.stdout + result.stderr
    script_output, report = result.stdout.split("==== minitorch2 run --compare-torch: minitorch2 vs torch ====\n")
    assert script_output.startswith("['x'] 8.272")
    assert "--- printed output (stdout): same\n" in report
    assert "  dynamo __compiled_fn_1: same (3 ops)\n" in report
    assert "  aot Forward graph 0: same (" in report and "  joint Joint graph 0: same (" in report
    assert "--- exit status: same (minitorch2 0, torch 0)\n" in report
    assert report.rstrip("\n").split("\n")[-1] == "==== summary: same: stdout same; graphs same (4); exit status same"
    assert "[__graph_code]" in result.stderr  # --show still prints our graphs


def test_compare_torch_reports_a_real_difference_and_writes_the_report(tmp_path):
    script = _write(tmp_path, """
        import torch
        print(torch.__name__)  # the module the script really got
        print(torch.ones(2).sum().item())
    """)
    out = tmp_path / "report.html"
    result = _run("--compare-torch", "--report", str(out), script)
    assert result.returncode == 1, result.stderr
    assert result.stdout.startswith("minitorch2\n2.0\n")
    assert "[__" not in result.stderr  # the runs log graphs for the comparison; without --show none is echoed
    assert "--- printed output (stdout): differs\n" in result.stdout
    assert "  line 1: differs\n    minitorch2: minitorch2\n    torch     : torch\n" in result.stdout
    assert result.stdout.rstrip("\n").endswith("==== summary: differs: stdout 1 line(s) differ; exit status same")
    page = out.read_text()
    _assert_valid_html(page)
    assert "Comparison with PyTorch: <span class=\"differs\">differs</span>" in page
    assert "<pre>minitorch2\n2.0\n</pre>" in page and "<pre>torch\n2.0\n</pre>" in page


def _assert_valid_html(page):
    class Checker(html.parser.HTMLParser):
        def __init__(self):
            super().__init__()
            self.open = []

        def handle_starttag(self, tag, attrs):
            # nothing from elsewhere: links only within the page or to the library's own modules on disk
            assert not any(name == "src" or (name == "href" and not value.startswith(("#", "file://")))
                           for name, value in attrs)
            if tag not in ("meta", "br"):
                self.open.append(tag)

        def handle_endtag(self, tag):
            assert self.open.pop() == tag

    checker = Checker()
    checker.feed(page)
    assert page.startswith("<!DOCTYPE html>") and checker.open == []


def test_the_two_children_run_one_after_the_other_so_checkpoints_are_not_shared(tmp_path):
    # a real script saves a checkpoint and reads it back from the same path (word_language_model's model.pt):
    # two children at once would read each other's half-written files
    log = tmp_path / "log.txt"
    child = ("import sys, time; log = open(sys.argv[1], 'a'); log.write(sys.argv[2] + ' start\\n'); log.flush(); "
             "time.sleep(0.5); log.write(sys.argv[2] + ' end\\n')")
    ours, theirs = subprocesses.run_both([sys.executable, "-c", child, str(log), "ours"], [],
                                         [sys.executable, "-c", child, str(log), "torch"], [])
    assert ours.returncode == theirs.returncode == 0
    assert log.read_text().split("\n") == ["ours start", "ours end", "torch start", "torch end", ""]


def test_a_script_imports_from_its_own_directory_not_its_callers(tmp_path):
    # `python script.py` puts the script's directory first on sys.path, not the working directory
    (tmp_path / "caller").mkdir()
    (tmp_path / "caller" / "helper.py").write_text("")
    script = _write(tmp_path, """
        try:
            import helper
            print("imported the caller's helper")
        except ImportError:
            print("no helper")
    """)
    env = {**os.environ, "PYTHONPATH": ROOT}
    theirs = subprocess.run([sys.executable, script], cwd=tmp_path / "caller", capture_output=True, text=True,
                            env=env, check=True)
    ours = subprocess.run([sys.executable, "-m", "minitorch2", "run", script], cwd=tmp_path / "caller",
                          capture_output=True, text=True, env=env, check=True)
    assert ours.stdout == theirs.stdout == "no helper\n"


def test_compare_torch_without_torch_says_so_in_one_line(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(subprocesses, "torch_available", lambda: False)
    assert main(["run", "--compare-torch", _write(tmp_path, MATCHING)]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err == "python -m minitorch2 run: --compare-torch needs PyTorch, which is not installed\n"


def test_compare_torch_needs_a_script(capsys):
    assert main(["run", "--compare-torch"]) == 2
    assert "--compare-torch needs a SCRIPT" in capsys.readouterr().err


def test_torch_command_sets_the_default_backend_only_when_asked():
    assert subprocesses.torch_command("s.py", ["a"]) == [sys.executable, "s.py", "a"]
    command = subprocesses.torch_command("s.py", ["a"], "eager")
    assert command[1] == "-c" and command[3:] == ["eager", "s.py", "a"]
    assert subprocesses.minitorch2_command("s.py", ["a"], "eager")[-4:] == ["--backend", "eager", "s.py", "a"]


# ---- the comparison functions, directly ----------------------------------------------------------

def test_numbers_within_float32_tolerance_count_as_matching():
    ours = "step 1\ntensor([1.0000, 2.5000, -0.0000])\nloss 0.30000001\nnan inf\n"
    theirs = "step 1\ntensor([1.0000,  2.5000,  0.0000])\nloss 0.3\nnan inf\n"
    result = compare.compare_outputs(ours, theirs)
    assert result.matches and result.same == 2
    assert [(d.ours_line, d.kind) for d in result.within_tolerance] == [(2, "within tolerance"),
                                                                        (3, "within tolerance")]
    assert compare.numbers_close("x 1.0", "x 1.0000013")  # rtol 1.3e-6 of 1 (+ atol)
    assert not compare.numbers_close("x 1.0", "x 1.0001")
    assert not compare.numbers_close("step 100000000", "step 100000001")  # integers: exactly
    assert not compare.numbers_close("nan", "1.0")
    assert not compare.numbers_close("loss 0.3", "gain 0.3")  # the text around must match


def test_output_differences_are_aligned_line_by_line():
    result = compare.compare_outputs("a\nb 1.0\nc\nextra\nd\n", "a\nb 2.0\nc\nd\ntorch only\n")
    assert not result.matches
    kinds = [(d.kind, d.ours_line, d.torch_line) for d in result.differences]
    assert kinds == [("differs", 2, 2), ("only in minitorch2", 4, None), ("only in torch", None, 5)]


def _logged(artifact, title, body):
    prefix = f"I1129 16:50:58.914000 18302 some/file.py:12] [0/0] [__{artifact}] "
    lines = ["TRACED GRAPH", f" ===== {title} =====", " <eval_with_key>.1 class GraphModule(torch.nn.Module):",
             "    def forward(self, primals_1: \"f32[2][1]cpu\"):", *textwrap.dedent(body).strip().split("\n"), ""]
    return "".join(f"{prefix}{'        ' + line if i > 3 and line else line}\n" for i, line in enumerate(lines))


def test_graph_op_sequences_find_the_first_differing_op():
    ours = _logged("aot_graphs", "Forward graph 0", """
        mm: "f32[2, 4]" = torch.ops.aten.mm.default(primals_1, primals_2);  primals_2 = None
        relu: "f32[2, 4]" = torch.ops.aten.relu.default(mm);  mm = None
        t: "f32[3, 2]" = torch.ops.aten.t.default(primals_1);  primals_1 = None
        return (relu, t)
    """) + "plain stderr line between records\n" + _logged("graph_code", "__compiled_fn_1", """
        l_x_ = L_x_
        matmul: "f32[2, 4]" = l_x_ @ l_w_;  l_x_ = None
        relu: "f32[2, 4]" = matmul.relu();  matmul = None
        getitem = relu[0]
        return (getitem,)
    """)
    theirs = (_logged("aot_graphs", "Forward graph 0", """
        mm: "f32[2, 4]" = torch.ops.aten.mm.default(primals_1, primals_2);  primals_2 = None
        relu: "f32[2, 4]" = torch.ops.aten.relu.default(mm);  mm = None
        permute: "f32[3, 2]" = torch.ops.aten.permute.default(primals_1, [1, 0]);  primals_1 = None
        return (relu, permute)
    """) + _logged("graph_code", "__compiled_fn_1_6ef055e3_a951_417b_b299_69d69d88bfd4", """
        l_x_ = L_x_
        matmul: "f32[2, 4]" = l_x_ @ l_w_;  l_x_ = None
        relu: "f32[2, 4]" = matmul.relu();  matmul = None
        getitem = relu[0]
        return (getitem,)
    """) + _logged("aot_graphs", "Backward graph 0", "return (None,)"))
    forward, dynamo, backward = compare.compare_graphs(ours, theirs)
    assert (forward.layer, forward.title, forward.verdict) == ("aot", "Forward graph 0", "differs")
    assert forward.first_difference == (3, "torch.ops.aten.t.default", "torch.ops.aten.permute.default")
    assert (dynamo.title, dynamo.verdict) == ("__compiled_fn_1", "same")  # torch's uuid suffix dropped
    assert dynamo.ours_ops == ["operator.matmul", "Tensor.relu", "operator.getitem"]
    assert (backward.verdict, backward.torch_ops) == ("only in torch", [])
    comparison = compare.compare_runs(compare.RunResult([], "1\n", ours, 0),
                                           compare.RunResult([], "1\n", theirs, 0), ("dynamo", "aot"))
    report = compare.format_report(comparison)
    assert ("  aot Forward graph 0: differs at op 3 (minitorch2 3 ops, torch 3): minitorch2 "
            "torch.ops.aten.t.default, torch torch.ops.aten.permute.default\n") in report
    assert "  aot Backward graph 0: only in torch (0 ops)\n" in report
    assert not comparison.matches
    assert report.endswith("==== summary: differs: stdout same; graphs 2 of 3 differ; exit status same")


def test_statement_op_reads_each_kind_of_graph_line():
    op = compare.statement_op
    assert op('add: "f32[]" = l_stack0_ + mean;  l_stack0_ = mean = None') == "operator.add"
    assert op("linear = torch._C._nn.linear(l_x_, w, b)") == "torch._C._nn.linear"
    assert op("sum_1 = relu.sum(dim = 1)") == "Tensor.sum"
    assert op("neg = -x") == "operator.neg"
    assert op("l_x_ = L_x_") is None and op("return (x,)") is None and op("# File: a.py:3") is None
    assert op("primals_1, tangents_1, = fx_pytree.tree_flatten_spec([primals, tangents], self._in_spec)") is None
    assert op("def forward(self, x):") is None


def test_without_artifacts_keeps_other_lines():
    stderr = ("V1129 16:50:58.914000 1 a.py:1] [0/0] [__guards] GUARDS:\n"
              "Traceback (most recent call last):\n"
              "I1129 16:50:58.914000 1 b.py:2] [__output_code] code\n")
    assert compare.without_artifacts(stderr, {"output_code"}) == stderr.split("\n", 1)[1]


def test_graphs_pair_by_kind_and_order_not_by_their_numbers():
    # torch keeps numbering graphs across torch._dynamo.reset(); our frontend counts from 1 again
    body = 'sin: "f32[2]" = torch.sin(l_x_);  l_x_ = None\nreturn (sin,)'
    cos = 'cos: "f32[2]" = torch.cos(l_x_);  l_x_ = None\nreturn (cos,)'
    ours = _logged("graph_code", "__compiled_fn_1", body) + _logged("graph_code", "__compiled_fn_1", cos)
    theirs = _logged("graph_code", "__compiled_fn_1", body) + _logged("graph_code", "__compiled_fn_3", body)
    first, second = compare.compare_graphs(ours, theirs)
    assert (first.title, first.verdict) == ("__compiled_fn_1", "same")
    assert (second.title, second.verdict) == ("__compiled_fn_1 (torch: __compiled_fn_3)", "differs")
    assert second.first_difference == (1, "torch.cos", "torch.sin")


def test_a_differing_exit_status_shows_how_the_failing_run_ended():
    ours = compare.RunResult([], "", "", 0)
    theirs = compare.RunResult([], "", "Traceback (most recent call last):\nRuntimeError: boom\n", 1)
    comparison = compare.compare_runs(ours, theirs, ("guards",))
    report = compare.format_report(comparison)
    assert "--- graphs (op by op): not compared (no graph layer among --show)\n" in report
    assert "--- exit status: differs (minitorch2 0, torch 1)\n  torch stderr ends: RuntimeError: boom\n" in report
    assert report.endswith("==== summary: differs: stdout same; exit status differs")
