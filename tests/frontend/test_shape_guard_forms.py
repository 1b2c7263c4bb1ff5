"""Shape guards in torch's forms, live against torch 2.13 (issue 21).

Each small program aims at one rule of where a guard comes from or how torch's ShapeEnv keeps it: compiled with
dynamic=True by torch and by the frontend (a counting backend, then aot_eager's AOT settings), the SHAPE_ENV
guards of every frame must be the same set. The rules, by program:

  buffer_window     slicing a static buffer by a size records `s <= 16` (index <= size first); the contiguity
                    check of the window then `s != 16`, which keeps the range at 16 (a != never narrows it)
  capped_rows       `x[:min(n, 5)]` records `min(5, n) <= n`, and a Min/Max the ranges bound records no `!= 1`
  second_half       a binary op's contiguity check of its operand (torch's fake fast path) records `numel >= 2`,
                    printed expanded (sums of products); under AOT the FunctionalTensor wrapping x[h:] asks
                    whether its size is 0 (c10's computeStorageNbytes): `(s - s//2) != 0`
  split_last_dim    a 3-d -> 4-d view runs torch's reshape algorithm: `s != 2`, `(s % 2) == 0`
  flatten_rest      x.view(n, -1) of a 3-d tensor: `Mod(s1, s1*s2) != 0` is decided (s1 < s1*s2), no guard
  conv_batch        the fake convolution's backend heuristic: `batch < 16` narrows the batch's range to <= 15
  scaled_bound      `8*n <= 20480` narrows n's range to <= 2560 (a bound on k*n is one on n)
  common_factor     `3*n*n == 75` is guarded as `(3*n*n) == 75`: an equality keeps its sides' common factor
  nested_division   `n // 2 // 3` is one division, `n // 6`, in the guard on it
  divided_terms     `(2*n + 5) // 2` is `n + 2` (the terms 2 divides leave the division): the guard is on n alone
  view_pairs_split  view(-1, 2).sum(1).view(-1, 3) of a 2-d tensor: the reshape algorithm's guards on
                    `(a*b)//2`, and the second view's on `(a*b)//6`
"""
import pytest
import torch

from . import dynamic_oracle as oracle

PROGRAMS = {
    "buffer_window": ("BUF = torch.ones(16, 16)\n"
                      "def f(x):\n    n = x.size(0)\n    return BUF[:n, :n] * 2 + x",
                      lambda lib: (lib.randn(8, 8),)),
    "capped_rows": ("def f(x):\n    return x[:min(x.shape[0], 5)].sum(0) + max(x.shape[0], 6)",
                    lambda lib: (lib.randn(8, 3),)),
    "second_half": ("def f(x):\n    h = x.shape[0] // 2\n    return x[h:] + 1",
                    lambda lib: (lib.randn(8, 3),)),
    "split_last_dim": ("def f(x):\n    B, T, C = x.size()\n    return x.view(B, T, 2, C // 2).transpose(1, 2).contiguous()",
                       lambda lib: (lib.randn(2, 6, 8),)),
    "flatten_rest": ("def f(x):\n    return x.view(x.size(0), -1) * 2",
                     lambda lib: (lib.randn(3, 4, 5),)),
    "conv_batch": ("CONV = torch.nn.Conv2d(2, 3, 3, padding=1)\n"
                   "def f(x):\n    return CONV(x)",
                   lambda lib: (lib.randn(4, 2, 5, 5),)),
    "scaled_bound": ("def f(x):\n    if 8 * x.shape[0] <= 20480:\n        return x + 1\n    return x - 1",
                     lambda lib: (lib.randn(6),)),
    "common_factor": ("def f(x):\n    if 3 * x.shape[0] * x.shape[0] == 75:\n        return x + 1\n    return x - 1",
                      lambda lib: (lib.randn(5),)),
    "nested_division": ("def f(x):\n    n = x.shape[0] // 2 // 3\n    return x[:n] * 2 if n > 2 else x",
                        lambda lib: (lib.randn(24),)),
    "divided_terms": ("def f(x):\n    if (2 * x.shape[0] + 5) // 2 > 9:\n        return x + 1\n    return x - 1",
                      lambda lib: (lib.randn(8),)),
    "view_pairs_split": ("def f(x):\n    return x.view(-1, 2).sum(1).view(-1, 3) * 2",
                         lambda lib: (lib.randn(4, 12),)),
}

# (program, backend) -> why ours differs today (strict xfail)
KNOWN_DIFFERENT = {}


def _guards(side, name, backend):
    """Each compiled frame's SHAPE_ENV guards (sorted) for one program on one library."""
    source, make_args = PROGRAMS[name]
    side.dynamo.reset()
    side.lib.manual_seed(0)
    namespace = {"torch": side.lib}
    exec(compile(source, f"<{name}>", "exec"), namespace)
    recorder = oracle.RecordingBackend(side, backend)
    try:
        side.dynamo.optimize(recorder, dynamic=True, guard_export_fn=recorder.export_guards)(namespace["f"])(
            *make_args(side.lib))
    finally:
        side.dynamo.reset()
    return [sorted(frame) for frame in recorder.guards]


@pytest.mark.parametrize("backend", oracle.BACKENDS)
@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_shape_guards_match_torch(name, backend, request):
    if (name, backend) in KNOWN_DIFFERENT:
        request.applymarker(pytest.mark.xfail(reason=KNOWN_DIFFERENT[name, backend], strict=True))
    assert _guards(oracle.OURS, name, backend) == _guards(oracle.TORCH, name, backend)
