"""run_decompositions() against torch's: the ops torch leaves out of its core ATen set (silu, addcmul, clamp_min,
std, rsub, sum, t, ...) are decomposed as torch's export decomposes them, and the ones whose decomposition only
torch's inductor has (round(decimals=)) stay whole. The printed code of the decomposed graph is compared."""
import pytest
import torch

import minitorch2
from minitorch2.export import export
from minitorch2.fx._spelling import forget_spellings


def build(lib, name):
    """(module, inputs) over `lib` (torch or minitorch2)."""
    F = lib.nn.functional

    class OutsideCore(lib.nn.Module):
        def forward(self, x, y):
            return F.silu(x).addcmul(x, y).clamp_min(0).std() + lib.rsub(x, 1).sum()

    class MoreOutsideCore(lib.nn.Module):
        def forward(self, x, y):
            scaled = lib.addcdiv(x, x, y.abs() + 1, value=0.5).clamp_max(2.0)
            return scaled.t() + lib.transpose(y, 0, 1), lib.exp2(y).sum(), lib.round(x, decimals=1)

    modules = {"silu_addcmul_clamp_min_std_rsub_sum": OutsideCore,
               "addcdiv_clamp_max_t_transpose_exp2_round": MoreOutsideCore}
    return modules[name](), (lib.randn(3, 3), lib.randn(3, 3))


@pytest.mark.parametrize("name", ["silu_addcmul_clamp_min_std_rsub_sum", "addcdiv_clamp_max_t_transpose_exp2_round"])
def test_run_decompositions_decomposes_what_torchs_export_does(name):
    module, inputs = build(torch, name)
    theirs = torch.export.export(module, inputs).run_decompositions()
    module, inputs = build(minitorch2, name)
    ours = export(module, inputs).run_decompositions()
    assert ours.graph_module.code == theirs.graph_module.code



def test_after_export_graphs_spell_torch_functions_as_before():
    """export swaps some torch functions for recording callers while it traces (matmul among them); once it is
    done, a traced graph names them as torch does, even where the spellings were first looked up during the
    export (they named the caller, and a graph traced afterwards printed torch.Tensor.matmul)."""
    def scores(q, k):
        return minitorch2.matmul(q, k).softmax(-1)

    class Attention(minitorch2.nn.Module):
        def forward(self, q, k):
            return scores(q, k)

    forget_spellings()
    export(Attention(), (minitorch2.randn(2, 3), minitorch2.randn(3, 2)))
    assert "torch.matmul(q, k)" in minitorch2.fx.symbolic_trace(scores).code
