"""Recurrent modules under compile, against Dynamo 2.13 live: config.allow_rnn is False, so wrapping an nn.RNN, GRU
or LSTM is a graph break. At `self.lstm` (no call, so no resume) the graph ends at the last point with an empty
stack and two ops and the rest of forward runs eagerly; with no such point the whole frame runs eagerly. The cells
are traced. Each program runs through torch.compile and minitorch2.compile with CompileCounter backends."""
import numpy as np
import pytest
import torch
import torch._dynamo
import torch._dynamo.testing

import frontend
import minitorch2
from frontend.testing import CompileCounter

SRC = r'''
class EmbedLSTM(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb, self.lstm, self.lin = nn.Embedding(10, 4), nn.LSTM(4, 5), nn.Linear(5, 10)
    def forward(self, x):
        e = self.emb(x)
        o, h = self.lstm(e)
        return torch.log_softmax(self.lin(o), -1)
class ScaledEmbedLSTM(EmbedLSTM):
    def forward(self, x):
        e = self.emb(x) * 2
        o, h = self.lstm(e)
        return torch.log_softmax(self.lin(o), -1)
class CallsGRUInHelper(nn.Module):
    def __init__(self):
        super().__init__()
        self.gru = nn.GRU(3, 4, batch_first=True)
    def run_gru(self, x):
        return self.gru(x)[0]
    def forward(self, x):
        return self.run_gru(x.sin()).cos()
class PassesLSTMToAFunction(nn.Module):
    def __init__(self):
        super().__init__()
        self.lstm, self.lin = nn.LSTM(4, 5), nn.Linear(5, 3)
    def forward(self, x):
        return lstm_then_linear(x.sin().exp(), self.lstm, self.lin)
def lstm_then_linear(x, lstm, lin):
    x = x.sin() * 2
    o, h = lstm(x)
    return lin(o).cos()
'''
CASES = [("EmbedLSTM", lambda lib: lib.tensor([[1, 2], [3, 4]])),
         ("ScaledEmbedLSTM", lambda lib: lib.tensor([[1, 2], [3, 4]])),
         ("CallsGRUInHelper", lambda lib: lib.ones(2, 3, 3)),
         ("PassesLSTMToAFunction", lambda lib: lib.ones(2, 4)),  # (Dynamo's checkpoint there: a PUSH_NULL)
         ("GRU", lambda lib: lib.ones(2, 3)), ("RNNCell", lambda lib: lib.ones(2, 3)),
         ("LSTMCell", lambda lib: lib.ones(2, 3))]


def _module(lib, name):
    lib.manual_seed(0)
    namespace = {"torch": lib, "nn": lib.nn}
    exec(compile(SRC, "<rnn modules>", "exec"), namespace)
    return namespace[name]() if name in namespace else getattr(lib.nn, name)(3, 4)


def _run(lib, counter_cls, reset, name, make_input, backend_counter=True):
    reset()
    module = _module(lib, name)
    if lib is minitorch2:  # the same weights as torch's
        with minitorch2.no_grad():
            for (_, p), (_, q) in zip(module.named_parameters(), _module(torch, name).named_parameters()):
                p.copy_(minitorch2.tensor(q.detach().numpy()))
    counter = counter_cls()
    out = lib.compile(module, backend=counter if backend_counter else "aot_eager")(make_input(lib))
    outs = out if isinstance(out, tuple) else (out,)
    return (counter.frame_count, [type(o.grad_fn).__name__ for o in outs],
            [np.asarray(o.detach().numpy()) for o in outs], counter.op_count)


@pytest.mark.parametrize("name,make_input", CASES)
def test_counts_grad_fns_and_values_match_dynamo(name, make_input):
    ours = _run(minitorch2, CompileCounter, frontend.reset, name, make_input)
    theirs = _run(torch, torch._dynamo.testing.CompileCounter, torch._dynamo.reset, name, make_input)
    assert ours[:2] == theirs[:2]
    for a, b in zip(ours[2], theirs[2]):
        np.testing.assert_allclose(a, b, rtol=1e-5, atol=1e-6)
    if "Cell" not in name:  # (torch's cells are one fused _VF op each; ours are their decomposition)
        assert ours[3] == theirs[3]
    # through AOT: an eagerly run LSTM leaves log_softmax's own grad_fn, as torch's
    assert _run(minitorch2, CompileCounter, frontend.reset, name, make_input, False)[1] == \
        _run(torch, torch._dynamo.testing.CompileCounter, torch._dynamo.reset, name, make_input, False)[1]


def test_allow_rnn_traces_the_lstm():
    frontend.reset()
    counter = CompileCounter()
    frontend.config.allow_rnn = True
    try:
        out = minitorch2.compile(_module(minitorch2, "EmbedLSTM"), backend=counter)(minitorch2.tensor([[1, 2]]))
    finally:
        frontend.config.allow_rnn = False
    assert counter.frame_count >= 1 and out.shape == (1, 2, 10)
