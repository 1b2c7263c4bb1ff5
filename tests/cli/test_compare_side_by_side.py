"""`run --compare-torch`: a differing graph's whole op sequence side by side, and printed numbers compared as
numbers (integers exactly, floats within float32 tolerance or, printed to a fixed precision, its last digit)."""
import textwrap

from minitorch2.cli import compare


def _logged(artifact, title, body):
    prefix = f"V1129 16:50:58.914000 1 a.py:1] [0/0] [__{artifact}] "
    lines = ["TRACED GRAPH", f" ===== {title} =====", *textwrap.dedent(body).strip().split("\n"), ""]
    return "".join(prefix + line + "\n" for line in lines)


def test_a_differing_graph_prints_all_its_ops_side_by_side():
    ours = _logged("aot_graphs", "Forward graph 0", """
        t: "f32[3, 2]" = torch.ops.aten.t.default(primals_1)
        mm: "f32[2, 2]" = torch.ops.aten.mm.default(primals_2, t)
        relu: "f32[2, 2]" = torch.ops.aten.relu.default(mm)
        sum_1: "f32[]" = torch.ops.aten.sum.default(relu)
        return (sum_1,)
    """)
    theirs = _logged("aot_graphs", "Forward graph 0", """
        permute: "f32[3, 2]" = torch.ops.aten.permute.default(primals_1, [1, 0])
        mm: "f32[2, 2]" = torch.ops.aten.mm.default(primals_2, permute)
        relu: "f32[2, 2]" = torch.ops.aten.relu.default(mm)
        le: "b8[2, 2]" = torch.ops.aten.le.Scalar(relu, 0)
        sum_1: "f32[]" = torch.ops.aten.sum.default(relu)
        return (sum_1, le)
    """)
    comparison = compare.compare_runs(compare.RunResult([], "", ours, 0), compare.RunResult([], "", theirs, 0),
                                      ("aot",))
    report = compare.format_report(comparison)
    assert ("  aot Forward graph 0: differs at op 1 (minitorch2 4 ops, torch 5): minitorch2 "
            "torch.ops.aten.t.default, torch torch.ops.aten.permute.default\n") in report
    rows = report.split("\n")
    start = rows.index("      " + "minitorch2".ljust(len("torch.ops.aten.relu.default")) + "   torch")
    assert rows[start + 1:start + 6] == [
        "      torch.ops.aten.t.default    | torch.ops.aten.permute.default",
        "      torch.ops.aten.mm.default   = torch.ops.aten.mm.default",
        "      torch.ops.aten.relu.default = torch.ops.aten.relu.default",
        "                                  > torch.ops.aten.le.Scalar",
        "      torch.ops.aten.sum.default  = torch.ops.aten.sum.default"]


def test_only_ours_is_marked_on_the_left():
    rows = compare.side_by_side(["a", "b"], ["a"], indent="")
    assert rows == ["minitorch2   torch", "a          = a", "b          <"]


def test_numbers_compare_as_numbers():
    close = compare.numbers_close
    assert close("step 3 of 10", "step 3 of 10.0")  # an int and a float: the same number
    assert not close("step 100000000", "step 100000001")  # integers: exactly
    # a tensor's four decimals round the last one: values a float32 ulp apart may print one unit apart
    assert close("tensor([2.1094, -0.5000])", "tensor([2.1095, -0.5000])")
    assert close("1.2346e-05", "1.2347e-05")
    assert not close("tensor([2.1094])", "tensor([2.1096])")  # two units: a real difference
    # floats printed shortest are exact: 0.5 and 0.6 differ, and 1.0 against 1.0001 is a 1e-4 difference
    assert not close("loss 0.5", "loss 0.6")
    assert not close("x 1.0", "x 1.0001")
    assert close("x 1.0", "x 1.0000013")  # float32 tolerance
