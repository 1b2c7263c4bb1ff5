"""Attention and transformer layers against torch: same parameters after the same seed, same outputs,
attention weights and gradients, with masks and padding; the encoder compiled; errors as torch's."""
import warnings

import numpy as np
import pytest
import torch
import torch._dynamo.testing
from torch._dynamo.backends.common import aot_autograd as torch_aot_autograd

import frontend
import frontend.testing
from frontend.backends.common import aot_autograd as frontend_aot_autograd
import minitorch2

LIBS = (torch, minitorch2)


def close(ours, expected, tol=1e-5):
    np.testing.assert_allclose(ours.detach().numpy(), expected.detach().numpy(), rtol=tol, atol=tol)


def masks(lib, kind, length=5, batch=3):
    if kind == "causal float":
        return dict(attn_mask=lib.nn.Transformer.generate_square_subsequent_mask(length))
    if kind == "bool":
        return dict(attn_mask=lib.tensor(np.triu(np.ones((length, length), bool), 1)))
    if kind == "padding":
        padding = np.zeros((batch, length), bool)
        padding[1, 3:] = True
        return dict(key_padding_mask=lib.tensor(padding))
    return {}


@pytest.mark.parametrize("mask", ["none", "causal float", "bool", "padding"])
@pytest.mark.parametrize("need_weights", [True, False])
@pytest.mark.parametrize("batch_first", [False, True])
def test_self_attention_matches_torch(mask, need_weights, batch_first):
    results = []
    for lib in LIBS:
        lib.manual_seed(0)
        attention = lib.nn.MultiheadAttention(8, 2, batch_first=batch_first)
        x = lib.randn(*((3, 5, 8) if batch_first else (5, 3, 8)), requires_grad=True)
        output, weights = attention(x, x, x, need_weights=need_weights, **masks(lib, mask))
        output.sum().backward()
        results.append((output, weights, x.grad, attention.in_proj_weight.grad, attention.out_proj.weight))
    for ours, expected in zip(results[1], results[0]):
        if expected is None:
            assert ours is None
        else:
            close(ours, expected)


def test_cross_attention_unbatched_and_per_head_weights():
    results = []
    for lib in LIBS:
        lib.manual_seed(1)
        attention = lib.nn.MultiheadAttention(6, 3, bias=False)
        query, memory = lib.randn(4, 2, 6), lib.randn(7, 2, 6)
        out, weights = attention(query, memory, memory, average_attn_weights=False)
        single, single_weights = attention(query[:, 0], memory[:, 0], memory[:, 0])
        results.append((out, weights, single, single_weights))
    for ours, expected in zip(results[1], results[0]):
        close(ours, expected)


VARIANTS = {  # MultiheadAttention's keyword arguments beyond the packed projection
    "kdim and vdim": dict(kdim=4, vdim=3),
    "bias_k and bias_v": dict(add_bias_kv=True),
    "zero attention": dict(add_zero_attn=True),
    "all of them": dict(kdim=4, vdim=3, add_bias_kv=True, add_zero_attn=True, bias=False),
}


@pytest.mark.parametrize("mask", ["none", "bool", "padding"])
@pytest.mark.parametrize("need_weights", [True, False])
@pytest.mark.parametrize("variant", list(VARIANTS))
def test_attention_variants_match_torch(variant, need_weights, mask):
    results = []
    config = VARIANTS[variant]
    for lib in LIBS:
        lib.manual_seed(0)
        attention = lib.nn.MultiheadAttention(8, 2, batch_first=True, **config)
        query = lib.randn(3, 5, 8, requires_grad=True)
        key, value = lib.randn(3, 5, config.get("kdim", 8)), lib.randn(3, 5, config.get("vdim", 8))
        output, weights = attention(query, key, value, need_weights=need_weights, **masks(lib, mask))
        (output * output).sum().backward()
        grads = [p.grad for _, p in attention.named_parameters()]
        results.append(([n for n, _ in attention.named_parameters()], (output, weights, query.grad, *grads)))
    assert results[1][0] == results[0][0]
    for ours, expected in zip(results[1][1], results[0][1]):
        assert (ours is None) == (expected is None)
        if expected is not None:
            close(ours, expected)


@pytest.mark.parametrize("inputs", ["self", "encoder-decoder", "three"])
@pytest.mark.parametrize("batch_first", [False, True])
def test_attentions_compiled_graph_is_dynamos(inputs, batch_first):
    # one packed linear for self-attention, two for encoder-decoder (k is v), three otherwise; batch_first
    # transposes a shared tensor once, as torch's module does
    graphs = []
    for lib, dynamo, aot_autograd in ((torch, torch._dynamo, torch_aot_autograd),
                                      (minitorch2, frontend, frontend_aot_autograd)):
        lib.manual_seed(0)
        dynamo.reset()
        attention = lib.nn.MultiheadAttention(8, 2, batch_first=batch_first)
        x, memory, other = lib.randn(3, 5, 8), lib.randn(3, 5, 8), lib.randn(3, 5, 8)
        key, value = {"self": (x, x), "encoder-decoder": (memory, memory), "three": (memory, other)}[inputs]
        captured = []

        def forward_compiler(gm, example_inputs, captured=captured):
            captured.append([str(n.target) for n in gm.graph.nodes if n.op == "call_function"])
            return gm

        with lib.no_grad():
            lib.compile(attention, backend=aot_autograd(fw_compiler=forward_compiler))(x, key, value,
                                                                                        need_weights=False)
        graphs.append(captured)
    assert graphs[1] == graphs[0]


@pytest.mark.parametrize("norm_first", [False, True])
@pytest.mark.parametrize("activation", ["relu", "gelu"])
def test_encoder_and_decoder_stacks_match_torch(norm_first, activation):
    results = []
    for lib in LIBS:
        lib.manual_seed(2)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            model = lib.nn.Transformer(d_model=8, nhead=2, num_encoder_layers=2, num_decoder_layers=2,
                                       dim_feedforward=16, dropout=0.0, activation=activation, norm_first=norm_first)
        src, tgt = lib.randn(5, 3, 8), lib.randn(4, 3, 8)
        out = model(src, tgt, tgt_mask=lib.nn.Transformer.generate_square_subsequent_mask(4))
        out.square().sum().backward()
        grads = [p.grad for p in model.parameters()]
        results.append((out, *grads))
    assert len(results[0]) == len(results[1])
    for ours, expected in zip(results[1], results[0]):
        close(ours, expected, tol=2e-5)


@pytest.mark.parametrize("backend", ["aot_eager", "inductor"])
def test_compiled_encoder_matches_torch_eager(backend):
    results = []
    for lib in LIBS:
        lib.manual_seed(3)
        layer = lib.nn.TransformerEncoderLayer(8, 2, dim_feedforward=16, dropout=0.0, batch_first=True)
        encoder = lib.nn.TransformerEncoder(layer, 2)
        x = lib.randn(3, 5, 8, requires_grad=True)
        run = minitorch2.compile(encoder, backend=backend) if lib is minitorch2 else encoder
        out = run(x, mask=lib.nn.Transformer.generate_square_subsequent_mask(5))
        out.sum().backward()
        results.append((out, x.grad, encoder.layers[0].self_attn.in_proj_weight.grad))
    for ours, expected in zip(results[1], results[0]):
        close(ours, expected, tol=1e-4)


@pytest.mark.parametrize("backend", ["counter", "inductor"])
def test_a_padded_encoder_compiles_in_one_graph_as_dynamos(backend):
    """A padding mask through TransformerEncoder: F._canonical_mask (a private helper of nn's Python) is inlined,
    MultiheadAttention's F.multi_head_attention_forward (returning (output, None)) is one call, so the whole
    encoder is one graph with Dynamo's ops; with the inductor, the -inf of the mask reaches the wrapper as Python."""
    counts, outputs = [], []
    for lib in LIBS:
        dynamo = torch._dynamo if lib is torch else frontend
        dynamo.reset()
        lib.manual_seed(0)
        layer = lib.nn.TransformerEncoderLayer(8, 2, dim_feedforward=16, dropout=0.0)
        encoder = lib.nn.TransformerEncoder(layer, 2, enable_nested_tensor=False)
        x = lib.randn(5, 3, 8)
        padding = lib.zeros(3, 5, dtype=lib.bool)
        padding[1, 3:] = True
        counter = (torch._dynamo.testing if lib is torch else frontend.testing).CompileCounter()
        chosen = counter if backend == "counter" or lib is torch else backend
        outputs.append(lib.compile(encoder, backend=chosen)(x, src_key_padding_mask=padding))
        counts.append((counter.frame_count, counter.op_count))
    if backend == "counter":
        assert counts[1] == counts[0] == (1, 26)
    close(outputs[1], outputs[0], tol=1e-5)


def test_a_word_language_model_transformer_trains_like_torchs():
    """The shape of pytorch/examples' TransformerModel: embedding, positional encoding buffer, encoder with a
    causal mask made by log(tril(ones)), a linear decoder, log_softmax, nll_loss; SGD for three steps."""
    losses = []
    for lib in LIBS:
        lib.manual_seed(0)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            encoder = lib.nn.TransformerEncoder(lib.nn.TransformerEncoderLayer(16, 2, 32, dropout=0.0), 2)
        embed, decoder = lib.nn.Embedding(30, 16), lib.nn.Linear(16, 30)
        params = [*encoder.parameters(), *embed.parameters(), *decoder.parameters()]
        tokens = lib.randint(0, 30, (9, 4))
        mask = lib.log(lib.tril(lib.ones(8, 8)))
        steps = []
        for _ in range(3):
            out = lib.nn.functional.log_softmax(decoder(encoder(embed(tokens[:-1]) * 4.0, mask=mask)), dim=-1)
            loss = lib.nn.functional.nll_loss(out.view(-1, 30), tokens[1:].reshape(-1))
            for p in params:
                p.grad = None
            loss.backward()
            with lib.no_grad():
                for p in params:
                    p.add_(p.grad, alpha=-0.5)
            steps.append(loss.item())
        losses.append(steps)
    np.testing.assert_allclose(losses[1], losses[0], rtol=1e-5)


ERRORS = {
    "heads do not divide": lambda lib: lib.nn.MultiheadAttention(10, 3),
    "no heads": lambda lib: lib.nn.MultiheadAttention(8, 0),
    "bad activation": lambda lib: lib.nn.TransformerEncoderLayer(8, 2, activation="tanh"),
    "causal hint without mask": lambda lib: lib.nn.MultiheadAttention(8, 2)(
        lib.zeros(2, 1, 8), lib.zeros(2, 1, 8), lib.zeros(2, 1, 8), is_causal=True),
    "separate projections, key and value lengths differ": lambda lib: lib.nn.MultiheadAttention(8, 2, kdim=4)(
        lib.zeros(2, 1, 8), lib.zeros(3, 1, 4), lib.zeros(2, 1, 8)),
    "packed projection, key and value shapes differ": lambda lib: lib.nn.MultiheadAttention(8, 2)(
        lib.zeros(2, 1, 8), lib.zeros(3, 1, 8), lib.zeros(2, 1, 8)),
    "wrong 2-D mask": lambda lib: lib.nn.MultiheadAttention(8, 2)(
        lib.zeros(2, 1, 8), lib.zeros(3, 1, 8), lib.zeros(3, 1, 8), attn_mask=lib.zeros(2, 2)),
    "batch mismatch": lambda lib: lib.nn.Transformer(8, 2, 1, 1, 16)(lib.zeros(3, 2, 8), lib.zeros(3, 4, 8)),
}


@pytest.mark.parametrize("name", list(ERRORS))
def test_errors_match_torch(name):
    errors = []
    for lib in LIBS:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            with pytest.raises(Exception) as info:
                ERRORS[name](lib)
        errors.append(info.value)
    assert type(errors[1]) is type(errors[0])
    assert str(errors[1]) == str(errors[0])


def test_parameter_names_and_encoder_warning_match_torch():
    seen = []
    for lib in LIBS:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            model = lib.nn.Transformer(8, 2, 1, 1, 16)
        seen.append(([n for n, _ in model.named_parameters()], [str(w.message) for w in caught]))
    assert seen[1] == seen[0]


def _padded_encoder(lib, norm=False, **layer_options):
    lib.manual_seed(0)
    layer = lib.nn.TransformerEncoderLayer(16, 4, 32, dropout=0.0, batch_first=True, **layer_options)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return lib.nn.TransformerEncoder(layer, 2, norm=lib.nn.LayerNorm(16) if norm else None).eval()


PADDINGS = {"left aligned": [[0, 0, 0, 0, 0], [0, 0, 0, 1, 1], [0, 0, 0, 0, 1]],
            "with a gap": [[0, 0, 0, 0, 0], [0, 1, 0, 1, 1], [0, 0, 0, 0, 1]]}


@pytest.mark.parametrize("padding", list(PADDINGS))
@pytest.mark.parametrize("how", ["no_grad", "grad", "compiled"])
@pytest.mark.parametrize("norm", [False, True])
def test_an_inference_encoder_pads_its_output_as_torchs(how, padding, norm):
    # in eval mode without gradients torch runs the layers over the unpadded tokens (a nested tensor) and pads
    # the result with zeros (before the final norm); with gradients, an irregular mask or under compile it does not
    outputs = []
    for lib, dynamo in ((torch, torch._dynamo), (minitorch2, frontend)):
        dynamo.reset()
        encoder = _padded_encoder(lib, norm)
        lib.manual_seed(1)
        x, pad = lib.randn(3, 5, 16), lib.tensor(np.array(PADDINGS[padding], bool))
        run = lib.compile(encoder, backend="aot_eager") if how == "compiled" else encoder
        with lib.set_grad_enabled(how == "grad"):
            outputs.append(run(x, src_key_padding_mask=pad))
    close(outputs[1], outputs[0], 1e-4)


def test_nested_tensor_flags_and_warnings_match_torchs():
    seen = []
    for lib in LIBS:
        flags = []
        for options in (dict(batch_first=True), dict(batch_first=True, norm_first=True), dict(batch_first=False),
                        dict(batch_first=True, activation=lib.nn.functional.silu), dict(batch_first=True,
                                                                                      activation="gelu")):
            with warnings.catch_warnings(record=True) as caught:
                warnings.simplefilter("always")
                layer = lib.nn.TransformerEncoderLayer(8, 2, 16, **options)
                encoder = lib.nn.TransformerEncoder(layer, 1)
            flags.append((layer.activation_relu_or_gelu, encoder.use_nested_tensor, [str(w.message) for w in caught]))
        seen.append(flags)
    assert seen[1] == seen[0]


def test_a_causal_mask_is_detected_as_torchs():
    outputs = []
    for lib in LIBS:
        encoder = _padded_encoder(lib).train()
        lib.manual_seed(1)
        x = lib.randn(3, 5, 16)
        mask = lib.nn.Transformer.generate_square_subsequent_mask(5)
        outputs += [encoder(x, mask=mask), encoder(x, mask=mask, is_causal=True)]
    close(outputs[2], outputs[0])
    close(outputs[3], outputs[1])
