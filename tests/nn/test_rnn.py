"""Recurrent layers against torch: after the same seed, the same parameters (names, order, values), the
same outputs and final states, the same gradients; eager and compiled; torch's errors for bad shapes."""
import numpy as np
import pytest
import torch

import frontend
import minitorch2

LIBS = (torch, minitorch2)
CONFIGS = [
    dict(num_layers=1),
    dict(num_layers=2, batch_first=True),
    dict(num_layers=2, bidirectional=True),
    dict(num_layers=1, bias=False, bidirectional=True, batch_first=True),
]


def run_layer(lib, kind, config, compile_backend=None, unbatched=False, with_state=False):
    lib.manual_seed(0)
    layer = getattr(lib.nn, kind)(3, 5, **config)
    x = lib.randn(*((4, 3) if unbatched else (2, 4, 3)), requires_grad=True)
    directions = 2 if config.get("bidirectional") else 1
    batch = () if unbatched else ((2,) if config.get("batch_first") else (4,))
    state_shape = (config.get("num_layers", 1) * directions, *batch, 5)
    args = [x]
    if with_state:
        h = lib.randn(*state_shape[:-1], config.get("proj_size") or 5)  # (an LSTM with projections: h is smaller)
        args.append((h, lib.randn(*state_shape)) if kind == "LSTM" else h)
    forward = layer if compile_backend is None else (
        minitorch2.compile(layer, backend=compile_backend) if lib is minitorch2 else layer)
    out, state = forward(*args)
    finals = list(state) if kind == "LSTM" else [state]
    (out.sum() * 2 + sum(s.square().sum() for s in finals)).backward()
    named = {n: p.grad.numpy() for n, p in layer.named_parameters()}
    return [out.detach().numpy(), *(s.detach().numpy() for s in finals), x.grad.numpy()], named


@pytest.mark.parametrize("kind", ["RNN", "LSTM", "GRU"])
@pytest.mark.parametrize("config", CONFIGS, ids=lambda c: ",".join(f"{k}={v}" for k, v in c.items()))
def test_layer_matches_torch(kind, config):
    (expected, expected_grads), (ours, our_grads) = (run_layer(lib, kind, config, with_state=True) for lib in LIBS)
    for a, b in zip(ours, expected):
        np.testing.assert_allclose(a, b, rtol=1e-5, atol=1e-6)
    assert list(our_grads) == list(expected_grads)
    for name in expected_grads:
        np.testing.assert_allclose(our_grads[name], expected_grads[name], rtol=1e-5, atol=1e-5, err_msg=name)


@pytest.mark.parametrize("config", [dict(proj_size=2), dict(num_layers=2, bidirectional=True, proj_size=3),
                                    dict(proj_size=1, bias=False, batch_first=True)], ids=str)
@pytest.mark.parametrize("with_state", [True, False])
def test_lstm_with_projections_matches_torch(config, with_state):
    (expected, expected_grads), (ours, our_grads) = (run_layer(lib, "LSTM", config, with_state=with_state)
                                                     for lib in LIBS)
    for a, b in zip(ours, expected):
        assert a.shape == b.shape
        np.testing.assert_allclose(a, b, rtol=1e-5, atol=1e-6)
    assert list(our_grads) == list(expected_grads)  # weight_hr_l{k} after each direction's biases, as torch's
    for name in expected_grads:
        np.testing.assert_allclose(our_grads[name], expected_grads[name], rtol=1e-5, atol=1e-5, err_msg=name)


@pytest.mark.parametrize("kind", ["RNN", "LSTM", "GRU"])
def test_unbatched_input_and_default_state(kind):
    (expected, _), (ours, _) = (run_layer(lib, kind, dict(num_layers=2), unbatched=True) for lib in LIBS)
    for a, b in zip(ours, expected):
        assert a.shape == b.shape
        np.testing.assert_allclose(a, b, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("backend", ["aot_eager", "inductor"])
@pytest.mark.parametrize("kind", ["LSTM", "GRU"])
def test_compiled_layer_matches_torch_eager(kind, backend, monkeypatch):
    monkeypatch.setattr(frontend.config, "allow_rnn", True)  # traced (by default they run eagerly, as Dynamo's)
    frontend.reset()
    config = dict(num_layers=2, bidirectional=True, batch_first=True)
    (expected, expected_grads), (ours, our_grads) = (run_layer(lib, kind, config, compile_backend=backend)
                                                     for lib in LIBS)
    for a, b in zip(ours, expected):
        np.testing.assert_allclose(a, b, rtol=1e-4, atol=1e-5)
    for name in expected_grads:
        np.testing.assert_allclose(our_grads[name], expected_grads[name], rtol=1e-4, atol=1e-5, err_msg=name)


def test_dropout_between_layers_draws_torchs_random_stream():
    outs = []
    for lib in LIBS:
        lib.manual_seed(3)
        layer = lib.nn.GRU(3, 4, num_layers=3, dropout=0.5)
        outs.append([layer(lib.randn(5, 2, 3))[0].detach().numpy(), lib.rand(3).numpy()])
    for a, b in zip(*outs):
        np.testing.assert_allclose(a, b, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("kind", ["RNNCell", "LSTMCell", "GRUCell"])
@pytest.mark.parametrize("batched", [True, False])
def test_cells_match_torch(kind, batched):
    results = []
    for lib in LIBS:
        lib.manual_seed(1)
        cell = getattr(lib.nn, kind)(3, 4)
        xs = lib.randn(5, *((2,) if batched else ()), 3)
        state = None
        outs = []
        for x in xs:
            state = cell(x, state)
            outs.append(state[0] if kind == "LSTMCell" else state)
        lib.stack(outs).sum().backward()
        results.append([lib.stack(outs).detach().numpy(), cell.weight_hh.grad.numpy()])
    for a, b in zip(*results):
        np.testing.assert_allclose(a, b, rtol=1e-5, atol=1e-6)


def test_an_lstm_language_model_trains_like_torchs():
    """The word-language-model shape: embedding, LSTM, linear decoder, cross entropy, SGD with clipping."""
    losses = []
    for lib in LIBS:
        lib.manual_seed(0)

        class Model(lib.nn.Module):
            def __init__(self):
                super().__init__()
                self.encoder = lib.nn.Embedding(20, 8)
                self.rnn = lib.nn.LSTM(8, 16, 2, dropout=0.2)
                self.decoder = lib.nn.Linear(16, 20)

            def forward(self, tokens, hidden):
                output, hidden = self.rnn(self.encoder(tokens), hidden)
                return self.decoder(output).view(-1, 20), hidden

        model = Model()
        tokens = lib.randint(0, 20, (7, 3))
        hidden = (lib.zeros(2, 3, 16), lib.zeros(2, 3, 16))
        steps = []
        for _ in range(3):
            hidden = tuple(h.detach() for h in hidden)
            model.zero_grad()
            output, hidden = model(tokens[:-1], hidden)
            loss = lib.nn.functional.cross_entropy(output, tokens[1:].reshape(-1))
            loss.backward()
            lib.nn.utils.clip_grad_norm_(model.parameters(), 0.25)
            for p in model.parameters():
                p.data.add_(p.grad, alpha=-1.0)
            steps.append(loss.item())
        losses.append(steps)
    np.testing.assert_allclose(losses[1], losses[0], rtol=1e-5)


ERRORS = {
    "4-D input": lambda lib: lib.nn.LSTM(3, 4)(lib.zeros(1, 2, 3, 3)),
    "4-D input to GRU": lambda lib: lib.nn.GRU(3, 4)(lib.zeros(1, 2, 3, 3)),
    "wrong feature size": lambda lib: lib.nn.RNN(3, 4)(lib.zeros(5, 2, 2)),
    "wrong hidden size": lambda lib: lib.nn.GRU(3, 4)(lib.zeros(5, 2, 3), lib.zeros(1, 3, 4)),
    "wrong hidden dims": lambda lib: lib.nn.RNN(3, 4)(lib.zeros(5, 2, 3), lib.zeros(2, 4)),
    "lstm hidden dims": lambda lib: lib.nn.LSTM(3, 4)(lib.zeros(5, 2, 3), (lib.zeros(2, 4), lib.zeros(2, 4))),
    "bad dropout": lambda lib: lib.nn.LSTM(3, 4, dropout=2),
    "bad nonlinearity": lambda lib: lib.nn.RNN(3, 4, nonlinearity="gelu"),
    "zero hidden": lambda lib: lib.nn.GRU(3, 0),
    "proj_size on GRU": lambda lib: lib.nn.GRU(3, 4, proj_size=2),
    "proj_size too big": lambda lib: lib.nn.LSTM(3, 4, proj_size=4),
    "negative proj_size": lambda lib: lib.nn.LSTM(3, 4, proj_size=-1),
    "lstm hidden size": lambda lib: lib.nn.LSTM(3, 4)(lib.zeros(5, 2, 3), (lib.zeros(1, 2, 4), lib.zeros(1, 2, 3))),
    "projected hidden size": lambda lib: lib.nn.LSTM(3, 4, proj_size=2)(lib.zeros(5, 2, 3),
                                                                       (lib.zeros(1, 2, 4), lib.zeros(1, 2, 4))),
    "3-D cell input": lambda lib: lib.nn.GRUCell(3, 4)(lib.zeros(1, 2, 3)),
}


@pytest.mark.parametrize("name", list(ERRORS))
def test_errors_match_torch(name):
    errors = []
    for lib in LIBS:
        with pytest.raises(Exception) as info:
            ERRORS[name](lib)
        errors.append(info.value)
    assert type(errors[1]) is type(errors[0])
    assert str(errors[1]) == str(errors[0])


def test_repr_and_parameter_names_match_torch():
    reprs = []
    for lib in LIBS:
        layer = lib.nn.LSTM(3, 4, num_layers=2, batch_first=True, dropout=0.1, bidirectional=True)
        cell = lib.nn.RNNCell(3, 4, nonlinearity="relu", bias=False)
        projected = lib.nn.LSTM(3, 4, num_layers=2, proj_size=2)
        reprs.append((repr(layer), repr(cell), [n for n, _ in layer.named_parameters()], len(layer.all_weights),
                      repr(projected), [(n, tuple(p.shape)) for n, p in projected.named_parameters()],
                      [len(w) for w in projected.all_weights]))
    assert reprs[1] == reprs[0]
