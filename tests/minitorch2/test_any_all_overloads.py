"""torch.any / torch.all as torch 2.13 calls and decomposes them (issue 20): one int dim picks the `.dim`
overload (a tuple `.dims`, none `.default`), all() of uint8 gives uint8, and the decomposition tables (inductor's,
export's) write all as not (any (not x)), so traced and compiled graphs record torch's ops."""
import re

import numpy as np
import pytest
import torch
from torch._decomp import core_aten_decompositions as torch_table
from torch.fx.experimental.proxy_tensor import make_fx as torch_make_fx

import minitorch2
from autograd import core_aten_decompositions, make_fx
from backend.compile_fx import select_decomp_table

CALLS = {
    "int dim": lambda lib, x: (lib.all(x, 1), x.any(1), lib.any(x, dim=0)),
    "int dim, keepdim": lambda lib, x: (x.all(-1, True), lib.any(x, 0, keepdim=True)),
    "tuple of dims": lambda lib, x: (x.all((0, 1)), lib.all(x, dim=(0,)), x.any([1], True)),
    "no dim": lambda lib, x: (x.all(), lib.any(x)),
}
VALUES = np.array([[1, 0, 2], [3, 4, 5]])


@pytest.mark.parametrize("call", CALLS.values(), ids=CALLS)
@pytest.mark.parametrize("dtype", ["bool", "uint8", "float32"])
def test_values_and_dtypes_match_torch(call, dtype):
    def run(lib):
        return [(str(t.dtype), t.tolist()) for t in call(lib, lib.tensor(VALUES.astype(dtype)))]

    assert [(d.replace("minitorch2", "torch"), v) for d, v in run(minitorch2)] == run(torch)


@pytest.mark.parametrize("call", CALLS.values(), ids=CALLS)
@pytest.mark.parametrize("decompose", [False, True], ids=["as called", "core decompositions"])
def test_traced_graphs_record_torchs_overloads(call, decompose):
    f = lambda lib: lambda x: call(lib, x > 1)  # noqa: E731
    theirs = torch_make_fx(f(torch), torch_table() if decompose else None)(torch.tensor(VALUES))
    ours = make_fx(f(minitorch2), core_aten_decompositions() if decompose else None)(minitorch2.tensor(VALUES))
    assert ours.code == theirs.code


def test_inductor_table_decomposes_all_and_keeps_any():
    from torch._inductor.decomposition import select_decomp_table as torch_select

    def names(table):
        return sorted(str(op) for op in table if re.fullmatch(r"aten\.(all|any)\.(default|dim|dims)", str(op)))

    assert names(select_decomp_table()) == names(torch_select())
    assert names(select_decomp_table()) == ["aten.all.default", "aten.all.dim", "aten.all.dims"]
