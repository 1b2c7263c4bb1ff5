"""The inference fast path of nn.MultiheadAttention and nn.TransformerEncoderLayer against torch: taken exactly
where torch takes it (eval mode, batch_first, no gradient needed, even heads, no hooks, ...), the fused ops'
values and layouts eagerly, and the graphs torch's tracers print: make_fx (which torch keeps on the slow path),
Dynamo's graph (MultiheadAttention's slow path plus a .contiguous(); the encoder layer's one
_transformer_encoder_layer_fwd call) and the AOT forward graph; compiled values with the inductor."""
import contextlib

import numpy as np
import pytest
import torch
from torch._dynamo.backends.common import aot_autograd as torch_aot_autograd
from torch.fx.experimental.proxy_tensor import make_fx as torch_make_fx

import frontend
from autograd.proxy_tensor import make_fx as our_make_fx
from frontend.backends.common import aot_autograd as our_aot_autograd
import minitorch2

LIBS = (torch, minitorch2)


def tools(lib):
    if lib is torch:
        return torch._dynamo, torch_aot_autograd, torch_make_fx
    return frontend, our_aot_autograd, our_make_fx


def padding_mask(lib, batch=2, length=5):
    mask = np.zeros((batch, length), bool)
    mask[1, 3:] = True
    return lib.tensor(mask)


def attention_mask(lib, length=5):
    return lib.tensor(np.triu(np.ones((length, length), bool), 1))


MASKS = {
    "none": lambda lib: {},
    "padding": lambda lib: dict(key_padding_mask=padding_mask(lib)),
    "causal bool": lambda lib: dict(attn_mask=attention_mask(lib)),
    "both": lambda lib: dict(attn_mask=attention_mask(lib), key_padding_mask=padding_mask(lib)),
    "float padding": lambda lib: dict(key_padding_mask=padding_mask(lib).float() * -1e9),
}

SETUPS = {  # what decides the path: torch's checks, one at a time
    "fast": dict(),
    "training": dict(train=True),
    "grad needed": dict(grad=True),
    "fast path disabled": dict(disabled=True),
    "odd heads": dict(heads=1),
    "not batch_first": dict(batch_first=False),
}


@contextlib.contextmanager
def setup_state(lib, grad=False, disabled=False):
    before = lib.backends.mha.get_fastpath_enabled()
    lib.backends.mha.set_fastpath_enabled(not disabled)
    try:
        with contextlib.nullcontext() if grad else lib.no_grad():
            yield
    finally:
        lib.backends.mha.set_fastpath_enabled(before)


def attention_module(lib, heads=2, batch_first=True, train=False, **_):
    lib.manual_seed(0)
    module = lib.nn.MultiheadAttention(8, heads, batch_first=batch_first)
    return module.train(train)


def inputs(lib, batch_first=True, **_):
    lib.manual_seed(1)
    return lib.randn(*((2, 5, 8) if batch_first else (5, 2, 8)))


def close(ours, expected, tol=1e-5):
    np.testing.assert_allclose(ours.detach().numpy(), expected.detach().numpy(), rtol=tol, atol=tol)


@pytest.mark.parametrize("mask", list(MASKS))
@pytest.mark.parametrize("need_weights, average", [(True, True), (True, False), (False, True)])
@pytest.mark.parametrize("setup", list(SETUPS))
def test_attention_values_layout_and_weights_match_torchs(setup, need_weights, average, mask):
    config = SETUPS[setup]
    results = []
    for lib in LIBS:
        module, x = attention_module(lib, **config), inputs(lib, **config)
        with setup_state(lib, config.get("grad", False), config.get("disabled", False)):
            out, weights = module(x, x, x, need_weights=need_weights, average_attn_weights=average,
                                  **MASKS[mask](lib))
        results.append((out, weights))
    (ours, our_weights), (theirs, their_weights) = results[1], results[0]
    close(ours, theirs)
    assert ours.stride() == theirs.stride()  # the fused op's (B, L, E) output, or the slow path's transpose
    assert (our_weights is None) == (their_weights is None)
    if their_weights is not None:
        close(our_weights, their_weights)


def dynamo_and_aot_graphs(lib, fn, *args):
    dynamo, aot_autograd, _ = tools(lib)
    dynamo.reset()
    graphs = []

    def backend(gm, example_inputs):
        graphs.append(gm.code)

        def forward_compiler(graph, example_inputs):
            graphs.append(graph.code)
            return graph

        return aot_autograd(fw_compiler=forward_compiler)(gm, example_inputs)

    out = lib.compile(fn, backend=backend)(*args)
    return graphs, out


@pytest.mark.parametrize("mask", ["none", "padding", "both"])
@pytest.mark.parametrize("setup", ["fast", "grad needed", "not batch_first", "odd heads"])
def test_compiled_attention_graphs_are_torchs(setup, mask):
    """Dynamo folds torch's make_fx check to True: a compiled eval attention is the slow path, made contiguous."""
    config = SETUPS[setup]
    results = []
    for lib in LIBS:
        module, x = attention_module(lib, **config), inputs(lib, **config)
        masks = MASKS[mask](lib)

        def attend(x, masks):
            return module(x, x, x, need_weights=False, **masks)[0]

        with setup_state(lib, config.get("grad", False)):
            results.append(dynamo_and_aot_graphs(lib, attend, x, masks))
    (our_graphs, ours), (their_graphs, theirs) = results[1], results[0]
    assert our_graphs == their_graphs
    close(ours, theirs)
    assert ours.stride() == theirs.stride()


def encoder_layer(lib, train=False, heads=2, batch_first=True, norm_first=False, activation="relu", **_):
    lib.manual_seed(0)
    layer = lib.nn.TransformerEncoderLayer(8, heads, dim_feedforward=16, dropout=0.1, activation=activation,
                                           batch_first=batch_first, norm_first=norm_first)
    return layer.train(train)


LAYERS = {
    "relu": dict(),
    "gelu, norm first": dict(activation="gelu", norm_first=True),
    "training": dict(train=True),
    "odd heads": dict(heads=1),
    "not batch_first": dict(batch_first=False),
}


def layer_and_input(lib, config):
    return encoder_layer(lib, **config), inputs(lib, **config)


def test_a_hook_under_the_encoder_layer_keeps_it_on_the_slow_path_as_torchs():
    calls, outputs = [], []
    for lib in LIBS:
        layer, x = layer_and_input(lib, {})
        layer.linear1.register_forward_hook(lambda module, args, out, lib=lib: calls.append(lib))
        with lib.no_grad():
            outputs.append(layer(x, src_key_padding_mask=padding_mask(lib)))
    assert calls == [torch, minitorch2]
    close(outputs[1], outputs[0])


@pytest.mark.parametrize("mask", ["none", "padding", "causal bool", "both"])
@pytest.mark.parametrize("variant", list(LAYERS))
def test_compiled_encoder_layer_graphs_and_values_are_torchs(variant, mask):
    config = LAYERS[variant]
    if config.get("train") or not config.get("batch_first", True):
        mask = "none"  # (dropout's random values; the masks' shapes are batch_first's)
    results = []
    for lib in LIBS:
        layer, x = layer_and_input(lib, config)
        masks = MASKS[mask](lib)
        padding, attn_mask = masks.get("key_padding_mask"), masks.get("attn_mask")

        def encode(x, padding, attn_mask):
            return layer(x, src_key_padding_mask=padding, src_mask=attn_mask)

        with lib.no_grad():
            eager = encode(x, padding, attn_mask)
            graphs, compiled = dynamo_and_aot_graphs(lib, encode, x, padding, attn_mask)
        results.append((graphs, compiled, eager))
    (our_graphs, ours, our_eager), (their_graphs, theirs, their_eager) = results[1], results[0]
    assert our_graphs == their_graphs
    if not config.get("train"):
        close(our_eager, their_eager)
        close(ours, theirs)


@pytest.mark.parametrize("module", ["attention", "encoder layer"])
def test_make_fx_keeps_the_slow_path_as_torchs(module):
    """torch's make_fx is a torch-function mode, which the fast paths refuse: the graph is the slow path's."""
    codes = []
    for lib in LIBS:
        make_fx = tools(lib)[2]
        mask = padding_mask(lib)
        if module == "attention":
            attention = attention_module(lib)
            fn = lambda x, mask: attention(x, x, x, key_padding_mask=mask, need_weights=False)[0]  # noqa: E731
        else:
            layer = encoder_layer(lib)
            fn = lambda x, mask: layer(x, src_key_padding_mask=mask)  # noqa: E731
        with lib.no_grad():
            codes.append(make_fx(fn)(inputs(lib), mask).code)
    assert codes[1] == codes[0]


@pytest.mark.parametrize("layers_kind", ["encoder layers", "a bare attention"])
def test_inference_compiled_by_the_inductor_matches_torch(layers_kind):
    outputs = []
    for lib in LIBS:
        (torch._dynamo if lib is torch else frontend).reset()
        if layers_kind == "encoder layers":
            model = lib.nn.TransformerEncoder(encoder_layer(lib), 2, enable_nested_tensor=False).eval()
            fn = lambda x, mask: model(x, src_key_padding_mask=mask)  # noqa: E731
        else:
            attention = attention_module(lib)
            fn = lambda x, mask: attention(x, x, x, key_padding_mask=mask)  # noqa: E731
        with lib.no_grad():
            outputs.append(lib.compile(fn, backend="inductor")(inputs(lib), padding_mask(lib)))
    for ours, theirs in zip(*(o if isinstance(o, tuple) else (o,) for o in outputs[::-1])):
        close(ours, theirs)


@pytest.mark.parametrize("mask_kind", ["float ones", "every key of a row hidden"])
def test_the_fused_ops_called_directly_match_torchs(mask_kind):
    """A float mask is read as a bool one (nonzero hides); a row with nothing to attend to gives NaN."""
    results = []
    for lib in LIBS:
        mask = padding_mask(lib).float() if mask_kind == "float ones" else lib.ones(2, 5, dtype=lib.bool)
        attention, layer, x = attention_module(lib), encoder_layer(lib, activation="gelu"), inputs(lib)
        with lib.no_grad():
            weights = (attention.in_proj_weight, attention.in_proj_bias, attention.out_proj.weight,
                       attention.out_proj.bias)
            out, probs = lib._native_multi_head_attention(x, x, x, 8, 2, *weights, mask, True, False, 1)
            encoded = lib._transformer_encoder_layer_fwd(
                x, 8, 2, *weights, True, False, 1e-5, layer.norm1.weight, layer.norm1.bias, layer.norm2.weight,
                layer.norm2.bias, layer.linear1.weight, layer.linear1.bias, layer.linear2.weight, layer.linear2.bias,
                mask, 1)
        results.append((out, probs, encoded))
    for ours, theirs in zip(results[1], results[0]):
        assert ours.shape == theirs.shape and ours.stride() == theirs.stride()
        np.testing.assert_allclose(ours.numpy(), theirs.numpy(), rtol=1e-5, atol=1e-5)  # (NaN where torch's is)
