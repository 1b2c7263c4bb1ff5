"""LBFGS under torch.compile against torch 2.13: closure-based training as pytorch/examples' time_sequence_prediction.

A small float64 model (LSTMCells stepped through time, as the example's Sequence, or a tanh MLP fitting a curve) is
trained for a few `optimizer.step(closure)` calls, with the model's forward compiled (`torch.compile(model)`), or with
the `step(closure)` call inside a compiled function, or both. Dynamo disables LBFGS.step (torch.optim's steps it does
not trace), so a compiled frame breaks at the call and the step, with the closure it calls, runs eagerly; a compiled
model called by the closure still compiles. Compared with torch: the loss each step returns, the parameters after the
steps, and the CompileCounter's frame_count (and op_count for the MLP: torch's LSTMCell is one fused _VF op in its
graph, ours its decomposition, see tests/frontend/test_rnn_modules.py).
"""
import numpy as np
import pytest
import torch
import torch._dynamo
import torch._dynamo.testing

import frontend
import minitorch2
from frontend.testing import CompileCounter

HIDDEN = 6


def _model(lib, kind):
    class Sequence(lib.nn.Module):
        def __init__(self):
            super().__init__()
            self.lstm1 = lib.nn.LSTMCell(1, HIDDEN)
            self.lstm2 = lib.nn.LSTMCell(HIDDEN, HIDDEN)
            self.linear = lib.nn.Linear(HIDDEN, 1)

        def forward(self, input):
            h_t = c_t = h_t2 = c_t2 = lib.zeros(input.size(0), HIDDEN, dtype=lib.double)
            outputs = []
            for input_t in input.split(1, dim=1):
                h_t, c_t = self.lstm1(input_t, (h_t, c_t))
                h_t2, c_t2 = self.lstm2(h_t, (h_t2, c_t2))
                outputs += [self.linear(h_t2)]
            return lib.cat(outputs, dim=1)

    if kind == "lstm":
        return Sequence().double()
    return lib.nn.Sequential(lib.nn.Linear(6, 16), lib.nn.Tanh(), lib.nn.Linear(16, 6)).double()


def _data(lib):
    """Shifted sine waves: each row's next values are its target (the example's training set, in small)."""
    t = np.arange(7)[None, :] + np.arange(4)[:, None] * 3
    data = np.sin(t / 5.0)
    return lib.from_numpy(data[:, :-1].copy()), lib.from_numpy(data[:, 1:].copy())


def _train(lib, kind, compile_model, compile_step, line_search_fn=None, predict=False, steps=3):
    (torch._dynamo if lib is torch else frontend).reset()
    counter = torch._dynamo.testing.CompileCounter() if lib is torch else CompileCounter()
    lib.manual_seed(0)
    model = _model(lib, kind)
    input, target = _data(lib)
    optimizer = lib.optim.LBFGS(model.parameters(), lr=0.8, max_iter=4, line_search_fn=line_search_fn)
    criterion = lib.nn.MSELoss()
    forward = lib.compile(model, backend=counter) if compile_model else model
    predictions = []

    def closure():
        optimizer.zero_grad()
        loss = criterion(forward(input), target)
        loss.backward()
        return loss

    def train_step():
        loss = optimizer.step(closure)
        if predict:  # the example's test loss, under no_grad after the step
            with lib.no_grad():
                predictions.append(float(criterion(model(input[:2]), target[:2])))
                if predict == "print":  # (as the example prints it: a second break inside the block)
                    print("test loss:", predictions[-1])
        return loss

    step = lib.compile(train_step, backend=counter) if compile_step else train_step
    losses = [step().item() for _ in range(steps)]
    params = [p.detach().numpy().copy() for p in model.parameters()]
    return losses, predictions, params, counter.frame_count, counter.op_count


def _assert_as_torch(*args, ops=True, **kwargs):
    ours, theirs = _train(minitorch2, *args, **kwargs), _train(torch, *args, **kwargs)
    np.testing.assert_allclose(ours[0], theirs[0], rtol=1e-10)
    np.testing.assert_allclose(ours[1], theirs[1], rtol=1e-10)
    for a, b in zip(ours[2], theirs[2], strict=True):
        np.testing.assert_allclose(a, b, rtol=1e-8, atol=1e-10)
    assert ours[0][-1] < ours[0][0]  # (it trains)
    assert ours[3] == theirs[3]
    if ops:
        assert ours[4] == theirs[4]
    return ours


@pytest.mark.parametrize("line_search_fn", [None, "strong_wolfe"])
@pytest.mark.parametrize("kind", ["lstm", "mlp"])
def test_compiled_forward_lbfgs_as_torch(kind, line_search_fn):
    ours = _assert_as_torch(kind, True, False, line_search_fn, ops=kind == "mlp")
    assert ours[3] == 1  # one graph, reused by every closure evaluation


@pytest.mark.parametrize("compile_model", [False, True], ids=["eager_model", "compiled_model"])
def test_step_in_compiled_function_as_torch(compile_model):
    """The frame breaks at the disabled LBFGS.step; the closure it calls is not compiled unless its model is."""
    ours = _assert_as_torch("mlp", compile_model, True, "strong_wolfe")
    assert ours[3] == int(compile_model)


def test_step_in_compiled_function_lstm_as_torch():
    _assert_as_torch("lstm", True, True, ops=False)


def test_step_then_no_grad_prediction_as_torch():
    """The example's test loss after the step: the frame resumes inside `with no_grad()` after float() breaks; that
    resume function traces only the block's re-entry and exit, a switch Dynamo's cleanup_graph erases (op_count)."""
    _assert_as_torch("mlp", False, True, predict=True)


def test_step_then_printed_no_grad_prediction_as_torch():
    _assert_as_torch("mlp", False, True, predict="print")
