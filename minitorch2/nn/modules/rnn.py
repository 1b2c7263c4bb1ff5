"""Recurrent layers (as torch.nn): RNN, LSTM, GRU and their one-step cells RNNCell, LSTMCell, GRUCell.

Runtime library surface (coverage: no stage of the compiler needs them). Each
layer runs ATen's CPU recurrence as Python over time steps: the input
projection of a whole layer first (`linear(input, w_ih, b_ih)` for every
step at once), then per step the hidden projection added to it and the
gates, in ATen's order: LSTM `i, f, g, o = chunk(4)`, c' = f*c + i*g,
h' = o*tanh(c') (times weight_hr.T with proj_size); GRU `r, z, n`, n = tanh(ih_n + r*hh_n), h' = (h - n)*z + n.
Layers stack (dropout between them while training), a bidirectional layer
also runs the sequence backwards and concatenates both outputs. A packed batch (nn.utils.rnn.PackedSequence)
runs step t over the batch_sizes[t] sequences still going, the others keeping their last state. Parameters
are registered and initialised in torch's order, so the same seed gives the
same weights. Under compile, as Dynamo's, RNN, LSTM and GRU run eagerly (a graph break) unless
frontend.config.allow_rnn, which unrolls the time loop into the graph; the cells are traced.
"""
import math
import numbers
import warnings

from ... import _factories, _functions
from .. import functional as F, init
from ..parameter import Parameter
from ..utils.rnn import PackedSequence
from .module import Module

_GATES = {"LSTM": 4, "GRU": 3, "RNN_TANH": 1, "RNN_RELU": 1}


def _lstm_cell(x_gates, state, w_hh, b_hh):
    h, c = state
    i, f, g, o = (F.linear(h, w_hh, b_hh) + x_gates).chunk(4, 1)
    c = f.sigmoid() * c + i.sigmoid() * g.tanh()
    return o.sigmoid() * c.tanh(), c


def _gru_cell(x_gates, h, w_hh, b_hh):
    x_r, x_z, x_n = x_gates.chunk(3, 1)
    h_r, h_z, h_n = F.linear(h, w_hh, b_hh).chunk(3, 1)
    reset, update = (h_r + x_r).sigmoid(), (h_z + x_z).sigmoid()
    new = (x_n + h_n * reset).tanh()
    return (h - new) * update + new


def _rnn_tanh_cell(x_gates, h, w_hh, b_hh):  # (module-level, as each cell: a compiled graph names it)
    return (F.linear(h, w_hh, b_hh) + x_gates).tanh()


def _rnn_relu_cell(x_gates, h, w_hh, b_hh):
    return (F.linear(h, w_hh, b_hh) + x_gates).relu()


_CELLS = {"LSTM": _lstm_cell, "GRU": _gru_cell, "RNN_TANH": _rnn_tanh_cell, "RNN_RELU": _rnn_relu_cell}


def _check_positive_int(name, value):
    if not isinstance(value, int):
        raise TypeError(f"{name} should be of type int, got: {type(value).__name__}")
    if value <= 0:
        raise ValueError(f"{name} must be greater than zero")


class RNNBase(Module):
    def __init__(self, mode, input_size, hidden_size, num_layers=1, bias=True, batch_first=False, dropout=0.0,
                 bidirectional=False, proj_size=0, device=None, dtype=None):
        super().__init__()
        if not isinstance(dropout, numbers.Number) or isinstance(dropout, bool) or not 0 <= dropout <= 1:
            raise ValueError("dropout should be a number in range [0, 1] representing the probability of an element "
                             "being zeroed")
        if dropout > 0 and num_layers == 1:
            warnings.warn("dropout option adds dropout after all but last recurrent layer, so non-zero dropout "
                          f"expects num_layers greater than 1, but got dropout={dropout} and num_layers={num_layers}",
                          stacklevel=2)
        if not isinstance(bias, bool):
            raise TypeError(f"bias should be of type bool, got: {type(bias).__name__}")
        if not isinstance(batch_first, bool):
            raise TypeError(f"batch_first should be of type bool, got: {type(batch_first).__name__}")
        _check_positive_int("input_size", input_size)
        _check_positive_int("hidden_size", hidden_size)
        if num_layers <= 0:
            raise ValueError("num_layers must be greater than zero")
        if proj_size < 0:
            raise ValueError("proj_size should be a positive integer or zero to disable projections")
        if proj_size >= hidden_size:
            raise ValueError("proj_size has to be smaller than hidden_size")
        if mode not in _GATES:
            raise ValueError("Unrecognized RNN mode: " + mode)
        self.mode, self.input_size, self.hidden_size, self.num_layers = mode, input_size, hidden_size, num_layers
        self.bias, self.batch_first, self.dropout, self.bidirectional = bias, batch_first, float(dropout), bidirectional
        self.proj_size = proj_size
        self._flat_weights_names = []
        for layer in range(num_layers):
            for suffix in self._directions():
                layer_input = input_size if layer == 0 else self._output_size() * len(self._directions())
                shapes = {"weight_ih": (_GATES[mode] * hidden_size, layer_input),
                          "weight_hh": (_GATES[mode] * hidden_size, self._output_size())}
                if bias:
                    shapes.update(bias_ih=(_GATES[mode] * hidden_size,), bias_hh=(_GATES[mode] * hidden_size,))
                if proj_size:  # an LSTM with projections: h = (o * tanh(c)) @ weight_hr.T, of proj_size
                    shapes.update(weight_hr=(proj_size, hidden_size))
                for kind, shape in shapes.items():
                    name = f"{kind}_l{layer}{suffix}"
                    setattr(self, name, Parameter(_factories.empty(*shape, dtype=dtype)))
                    self._flat_weights_names.append(name)
        self.reset_parameters()

    def _output_size(self):
        return self.proj_size or self.hidden_size

    def _directions(self):
        return ("", "_reverse") if self.bidirectional else ("",)

    def reset_parameters(self):
        stdv = 1.0 / math.sqrt(self.hidden_size) if self.hidden_size > 0 else 0
        for weight in self.parameters():
            init.uniform_(weight, -stdv, stdv)

    def flatten_parameters(self):
        """cuDNN packs the weights into one buffer; on the CPU there is nothing to do."""

    @property
    def _flat_weights(self):
        return [getattr(self, name) for name in self._flat_weights_names]

    @property
    def all_weights(self):
        per_layer = (4 if self.bias else 2) + (1 if self.proj_size else 0)
        weights = self._flat_weights
        return [weights[i:i + per_layer] for i in range(0, len(weights), per_layer)]

    def _name(self):
        return "LSTM" if self.mode == "LSTM" else "RNN"

    def forward(self, input, hx=None):
        if isinstance(input, PackedSequence):
            return self._forward_packed(input, hx)
        if input.dim() not in (2, 3):
            kind = " tensor" if self._name() == "RNN" else ""
            raise ValueError(f"{self._name()}: Expected input to be 2D or 3D, got {input.dim()}D{kind} instead")
        batched = input.dim() == 3
        if not batched:
            input = input.unsqueeze(0 if self.batch_first else 1)
        if self.batch_first:
            input = input.transpose(0, 1)
        if input.dtype != self._flat_weights[0].dtype:
            raise ValueError(f"RNN input dtype ({input.dtype}) does not match weight dtype "
                             f"({self._flat_weights[0].dtype}). Convert input: input.to({self._flat_weights[0].dtype}),"
                             f" or convert model: model.to({input.dtype})")
        if self.input_size != input.size(-1):
            raise RuntimeError(f"input.size(-1) must be equal to input_size. Expected {self.input_size}, "
                               f"got {input.size(-1)}")
        states = self._initial_states(input.size(1), input.dtype, hx, batched)
        output, finals = input, []
        for layer in range(self.num_layers):
            outputs = []
            for d, suffix in enumerate(self._directions()):
                state = states[layer * len(self._directions()) + d]
                out, state = self._run_layer(output, state, f"_l{layer}{suffix}", reverse=d == 1)
                outputs.append(out)
                finals.append(state)
            output = outputs[0] if len(outputs) == 1 else _functions.cat(outputs, -1)
            if self.dropout and self.training and layer < self.num_layers - 1:
                output = F.dropout(output, self.dropout, True)
        if self.batch_first:
            output = output.transpose(0, 1)
        return self._finish(output, finals, batched)

    def _forward_packed(self, packed, hx):
        """A PackedSequence in, a PackedSequence out; hx and the final states in the caller's batch order."""
        sizes = packed.batch_sizes.tolist()
        if hx is not None and packed.sorted_indices is not None:
            hx = self._permuted(hx, packed.sorted_indices)
        states = self._initial_states(sizes[0], packed.data.dtype, hx, True)
        output, finals, directions = packed.data, [], len(self._directions())
        for layer in range(self.num_layers):
            outputs = []
            for d, suffix in enumerate(self._directions()):
                out, state = self._run_packed_layer(output, sizes, states[layer * directions + d], f"_l{layer}{suffix}",
                                                    reverse=d == 1)
                outputs.append(out)
                finals.append(state)
            output = outputs[0] if len(outputs) == 1 else _functions.cat(outputs, -1)
            if self.dropout and self.training and layer < self.num_layers - 1:
                output = F.dropout(output, self.dropout, True)
        _, hidden = self._finish(output, finals, True)
        if packed.unsorted_indices is not None:
            hidden = self._permuted(hidden, packed.unsorted_indices)
        return PackedSequence(output, packed.batch_sizes, packed.sorted_indices, packed.unsorted_indices), hidden

    def _permuted(self, hx, order):
        if self.mode == "LSTM":
            return hx[0].index_select(1, order), hx[1].index_select(1, order)
        return hx.index_select(1, order)

    def _run_packed_layer(self, data, sizes, state, suffix, reverse):
        """One direction of one layer over a packed batch: step t updates the first sizes[t] states."""
        bias_ih = getattr(self, "bias_ih" + suffix) if self.bias else None
        x_gates = F.linear(data, getattr(self, "weight_ih" + suffix), bias_ih)
        cell, lstm = self._step(suffix), self.mode == "LSTM"
        starts = [sum(sizes[:t]) for t in range(len(sizes))]
        outputs = [None] * len(sizes)
        for t in (range(len(sizes) - 1, -1, -1) if reverse else range(len(sizes))):
            n = sizes[t]
            new = cell(x_gates[starts[t]:starts[t] + n], tuple(s[:n] for s in state) if lstm else state[:n])
            outputs[t] = new[0] if lstm else new
            if lstm:
                state = tuple(_functions.cat([a, s[n:]], 0) for a, s in zip(new, state))
            else:
                state = _functions.cat([new, state[n:]], 0)
        return _functions.cat(outputs, 0), state

    def _initial_states(self, batch, dtype, hx, batched):
        """One state per layer and direction: h, or (h, c) for an LSTM."""
        expected = (self.num_layers * len(self._directions()), batch, self._output_size())
        lstm = self.mode == "LSTM"
        if hx is None:
            zeros = _factories.zeros(*expected, dtype=dtype)
            hx = (zeros, _factories.zeros(*expected[:2], self.hidden_size, dtype=dtype)) if lstm else zeros
        else:
            hx = self._checked_hidden(hx, batched, expected)
        if lstm:
            return list(zip(hx[0].unbind(0), hx[1].unbind(0)))
        return list(hx.unbind(0))

    def _checked_hidden(self, hx, batched, expected):
        want = 3 if batched else 2
        shape = "batched 3-D" if batched else "unbatched 2-D"
        if self.mode == "LSTM":
            if hx[0].dim() != want or hx[1].dim() != want:
                raise RuntimeError(f"For {shape} input, hx and cx should also be {want}-D but got "
                                   f"({hx[0].dim()}-D, {hx[1].dim()}-D) tensors")
            hx = hx if batched else (hx[0].unsqueeze(1), hx[1].unsqueeze(1))
            for i, (t, size) in enumerate(zip(hx, (expected, (*expected[:2], self.hidden_size)))):
                if tuple(t.size()) != size:
                    raise RuntimeError(f"Expected hidden[{i}] size {size}, got {list(t.size())}")
            return hx
        if hx.dim() != want:
            raise RuntimeError(f"For {shape} input, hx should also be {want}-D but got {hx.dim()}-D tensor")
        hx = hx if batched else hx.unsqueeze(1)
        if tuple(hx.size()) != expected:
            raise RuntimeError(f"Expected hidden size {expected}, got {list(hx.size())}")
        return hx

    def _run_layer(self, input, state, suffix, reverse):
        """One direction of one layer over the whole sequence: (outputs stacked over time, final state)."""
        bias_ih = getattr(self, "bias_ih" + suffix) if self.bias else None
        x_gates = F.linear(input, getattr(self, "weight_ih" + suffix), bias_ih)
        cell = self._step(suffix)
        steps = range(input.size(0) - 1, -1, -1) if reverse else range(input.size(0))
        outputs = [None] * input.size(0)
        for t in steps:
            state = cell(x_gates[t], state)
            outputs[t] = state[0] if self.mode == "LSTM" else state
        return _functions.stack(outputs, 0), state

    def _step(self, suffix):
        """One time step of one layer and direction, its weights bound: (input's gates, state) -> new state."""
        cell, w_hh = _CELLS[self.mode], getattr(self, "weight_hh" + suffix)
        b_hh = getattr(self, "bias_hh" + suffix) if self.bias else None
        if not self.proj_size:
            return lambda x_gates, state: cell(x_gates, state, w_hh, b_hh)
        w_hr = getattr(self, "weight_hr" + suffix)

        def projected(x_gates, state):
            h, c = cell(x_gates, state, w_hh, b_hh)
            return _functions.matmul(h, w_hr.t()), c  # (ATen's LSTM projects with matmul)
        return projected

    def _finish(self, output, finals, batched):
        if self.mode == "LSTM":
            h_n = _functions.stack([h for h, _ in finals], 0)
            c_n = _functions.stack([c for _, c in finals], 0)
            if not batched:
                return output.squeeze(1), (h_n.squeeze(1), c_n.squeeze(1))
            return output, (h_n, c_n)
        h_n = _functions.stack(finals, 0)
        return (output, h_n) if batched else (output.squeeze(1), h_n.squeeze(1))

    def extra_repr(self):
        s = f"{self.input_size}, {self.hidden_size}"
        if self.proj_size != 0:
            s += f", proj_size={self.proj_size}"
        if self.num_layers != 1:
            s += f", num_layers={self.num_layers}"
        if self.bias is not True:
            s += f", bias={self.bias}"
        if self.batch_first is not False:
            s += f", batch_first={self.batch_first}"
        if self.dropout != 0:
            s += f", dropout={self.dropout}"
        if self.bidirectional is not False:
            s += f", bidirectional={self.bidirectional}"
        return s


class RNN(RNNBase):
    def __init__(self, *args, **kwargs):
        if "proj_size" in kwargs:
            raise ValueError("proj_size argument is only supported for LSTM, not RNN or GRU")
        if len(args) > 3:
            self.nonlinearity, args = args[3], args[:3] + args[4:]
        else:
            self.nonlinearity = kwargs.pop("nonlinearity", "tanh")
        if self.nonlinearity not in ("tanh", "relu"):
            raise ValueError(f"Unknown nonlinearity '{self.nonlinearity}'. Select from 'tanh' or 'relu'.")
        # torch's RNN leaves the nonlinearity out of its repr (RNNCell prints it).
        super().__init__("RNN_TANH" if self.nonlinearity == "tanh" else "RNN_RELU", *args, **kwargs)


class LSTM(RNNBase):
    def __init__(self, *args, **kwargs):
        super().__init__("LSTM", *args, **kwargs)


class GRU(RNNBase):
    def __init__(self, *args, **kwargs):
        if "proj_size" in kwargs:
            raise ValueError("proj_size argument is only supported for LSTM, not RNN or GRU")
        super().__init__("GRU", *args, **kwargs)

    def _name(self):
        return "GRU"


class RNNCellBase(Module):
    def __init__(self, input_size, hidden_size, bias, num_chunks, device=None, dtype=None):
        super().__init__()
        self.input_size, self.hidden_size, self.bias = input_size, hidden_size, bias
        self.weight_ih = Parameter(_factories.empty(num_chunks * hidden_size, input_size, dtype=dtype))
        self.weight_hh = Parameter(_factories.empty(num_chunks * hidden_size, hidden_size, dtype=dtype))
        if bias:
            self.bias_ih = Parameter(_factories.empty(num_chunks * hidden_size, dtype=dtype))
            self.bias_hh = Parameter(_factories.empty(num_chunks * hidden_size, dtype=dtype))
        else:
            self.register_parameter("bias_ih", None)
            self.register_parameter("bias_hh", None)
        self.reset_parameters()

    reset_parameters = RNNBase.reset_parameters

    def _step(self, input, hx, cell, name):
        if input.dim() not in (1, 2):
            raise ValueError(f"{name}: Expected input to be 1D or 2D, got {input.dim()}D instead")
        batched = input.dim() == 2
        input = input if batched else input.unsqueeze(0)
        if hx is None:
            zeros = _factories.zeros(input.size(0), self.hidden_size, dtype=input.dtype)
            hx = (zeros, zeros) if name == "LSTMCell" else zeros
        elif not batched:
            hx = tuple(h.unsqueeze(0) for h in hx) if name == "LSTMCell" else hx.unsqueeze(0)
        out = cell(F.linear(input, self.weight_ih, self.bias_ih), hx, self.weight_hh, self.bias_hh)
        if batched:
            return out
        return tuple(o.squeeze(0) for o in out) if name == "LSTMCell" else out.squeeze(0)

    def extra_repr(self):
        s = f"{self.input_size}, {self.hidden_size}"
        if self.bias is not True:
            s += f", bias={self.bias}"
        if getattr(self, "nonlinearity", "tanh") != "tanh":
            s += f", nonlinearity={self.nonlinearity}"
        return s


def _check_cell_hidden(hx, name):
    for h in (hx if isinstance(hx, tuple) else (hx,)):
        if h is not None and h.dim() not in (1, 2):
            raise ValueError(f"{name}: Expected hidden to be 1D or 2D, got {h.dim()}D instead")


class RNNCell(RNNCellBase):
    def __init__(self, input_size, hidden_size, bias=True, nonlinearity="tanh", device=None, dtype=None):
        super().__init__(input_size, hidden_size, bias, num_chunks=1, dtype=dtype)
        self.nonlinearity = nonlinearity

    def forward(self, input, hx=None):
        _check_cell_hidden(hx, "RNNCell")
        if self.nonlinearity not in ("tanh", "relu"):
            raise RuntimeError(f"Unknown nonlinearity: {self.nonlinearity}")
        return self._step(input, hx, _CELLS["RNN_TANH" if self.nonlinearity == "tanh" else "RNN_RELU"], "RNNCell")


class LSTMCell(RNNCellBase):
    def __init__(self, input_size, hidden_size, bias=True, device=None, dtype=None):
        super().__init__(input_size, hidden_size, bias, num_chunks=4, dtype=dtype)

    def forward(self, input, hx=None):
        _check_cell_hidden(hx, "LSTMCell")
        return self._step(input, hx, _lstm_cell, "LSTMCell")


class GRUCell(RNNCellBase):
    def __init__(self, input_size, hidden_size, bias=True, device=None, dtype=None):
        super().__init__(input_size, hidden_size, bias, num_chunks=3, dtype=dtype)

    def forward(self, input, hx=None):
        _check_cell_hidden(hx, "GRUCell")
        return self._step(input, hx, _gru_cell, "GRUCell")
