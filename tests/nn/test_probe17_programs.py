"""Programs in the style of third-party projects run in session 37 (lucidrains/vector-quantize-pytorch's FSQ
autoencoder, VectorQuantize, ResidualVQ and LFQ, eager and compiled), tests/nn/programs17/, each run by
`python -m minitorch2 run --compare-torch`: what it prints must be torch's, its graphs op by op torch's, both runs
exit 0.
scalar_quantizer_autoencoder_compiled.py: importing the library failed on `from torch.distributed import nn`
(torch.distributed.nn, the differentiable collectives, was missing: now over the group of one); compiled, its
forward broke the graph five ways where Dynamo's makes one graph: `functools.wraps` applied inside the frame to a
function made there (setattr, hasattr and `__dict__.update` on that function), `dist.is_initialized()` (Dynamo
answers torch.distributed's is_available / is_initialized / get_rank / get_world_size while tracing), einops'
backend lookup instantiating a class from a folded `AbstractBackend.__subclasses__()` list, and then recompiling at
every call on the identity guard of `AbstractBackend.__subclasses__` (a bound builtin method, new at each read: its
object is guarded now). `x // 2` traced as div.Tensor_mode where torch's graphs record aten.floor_divide (its own
op: no derivative, backward raising torch's error; not tagged pointwise, so the min-cut saves it, where ours
recomputed it in the backward). Under the inductor, a cat of one tensor (einops' pack) is a clone as in torch's
table (tests/backend/test_inductor_aot_graphs.py's cat_of_one_tensor).
lazy_codebook_init_compiled.py (xfail): VectorQuantize's `if self.initted: return` two calls deep breaks the graph
in another place here than in Dynamo, so the graphs after the break differ (values agree).
Found and not fixed: a keys guard on all of sys.modules where a compiled frame reads `name in sys.modules` or
`sys.modules[name]` (einops' backend lookup), so the next import anywhere recompiles the frame (the program asks a
tuple of loaded frameworks instead; the strict xfail below shows the class on a plain dict); LFQ trained eager (entropy aux loss at inverse temperature 100) matches torch's
first step's loss and gradients but its second step's loss differs in the fourth digit (cause not isolated); and
LFQ compiled breaks the graph with "returning TorchVariable(minitorch2) from a compiled frame" where Dynamo makes one
graph. The eager README models (SimVQ, ResidualFSQ, LatentQuantize, RandomProjectionQuantizer, GroupedResidualVQ,
a cosine-similarity VectorQuantize with k-means init and dead-code expiry) print as torch's."""
import pytest

import minitorch2
from minitorch2.distributed import nn as dist_nn

from .program_reports import all_same, compare_report

FOLDER = "programs17"


def test_scalar_quantizer_program_prints_and_traces_what_torch_does():
    report = compare_report(FOLDER, "scalar_quantizer_autoencoder_compiled")
    assert all_same(report), report


@pytest.mark.xfail(strict=True, reason="a data-dependent branch inside a method two calls below the compiled frame "
                   "(the codebook's init_embed_ from its forward from the model's) breaks the graph where Dynamo "
                   "breaks it differently: Dynamo's third graph is empty and its later graphs start with the "
                   "init's copy_ nodes, ours put the copies in a graph of their own, so the graphs after the break "
                   "differ op by op (the values agree)")
def test_lazy_codebook_init_breaks_as_dynamo_does():
    report = compare_report(FOLDER, "lazy_codebook_init_compiled")
    assert all_same(report), report


def test_distributed_nn_collectives_need_a_group_and_pass_gradients_through():
    import torch
    import torch.distributed.nn
    for lib, collectives in ((torch, torch.distributed.nn), (minitorch2, dist_nn)):
        x = lib.ones(2, requires_grad=True)
        with pytest.warns(FutureWarning, match="deprecated, use torch.distributed._functional_collectives.all_reduce"), \
                pytest.raises(ValueError, match="Default process group has not been initialized"):
            collectives.all_reduce(x)
    minitorch2.distributed.init_process_group("gloo", init_method="tcp://127.0.0.1:1", world_size=1, rank=0)
    try:
        x = minitorch2.arange(4.0, requires_grad=True).view(2, 2).t()
        with pytest.warns(FutureWarning):
            reduced, (gathered,) = dist_nn.all_reduce(x), dist_nn.all_gather(x)
        assert reduced.is_contiguous() and reduced.tolist() == x.tolist() and gathered.tolist() == x.tolist()
        (reduced * 2 + gathered).sum().backward()
        assert x.grad_fn is not None and reduced.grad_fn is not None
    finally:
        minitorch2.distributed.destroy_process_group()


_SETTINGS = {"a": 1, "b": 2}


def test_a_new_key_in_a_read_dict_does_not_recompile():
    import torch
    import torch._dynamo.testing

    from frontend.testing import CompileCounter

    def lookup(x):
        return x + (1 if "a" in _SETTINGS else 0) + _SETTINGS["b"]

    counts = []
    for lib, counter in ((torch, torch._dynamo.testing.CompileCounter()), (minitorch2, CompileCounter())):
        compiled = lib.compile(lookup, backend=counter)
        compiled(lib.ones(1))
        _SETTINGS["c"] = 3
        compiled(lib.ones(1))
        del _SETTINGS["c"]
        counts.append(counter.frame_count)
    assert counts[0] == 1 and counts[1] == counts[0], counts
