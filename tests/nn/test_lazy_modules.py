"""Lazy layers against torch: printed before and after the first call (LazyLinear becomes Linear), the state dict's
keys while uninitialised, the parameters the first call draws (torch's random stream: a seed gives the same
weights), training after it, unbatched convolution input, and the error for a bad input rank."""
import numpy as np
import pytest
import torch

import minitorch2

LIBS = (torch, minitorch2)


def _net(lib, conv):
    class Net(lib.nn.Module):
        def __init__(self):
            super().__init__()
            self.conv = conv(lib)
            self.fc1 = lib.nn.LazyLinear(10)
            self.fc2 = lib.nn.Linear(10, 2)

        def forward(self, x):
            return self.fc2(lib.relu(self.fc1(lib.relu(self.conv(x)).flatten(1))))
    return Net()


CONVS = {
    "conv1d": (lambda lib: lib.nn.LazyConv1d(4, 3, padding=1), (2, 3, 7)),
    "conv2d": (lambda lib: lib.nn.LazyConv2d(4, 3, padding=1, groups=1), (2, 3, 5, 5)),
    "conv2d groups, no bias": (lambda lib: lib.nn.LazyConv2d(6, 2, groups=3, bias=False), (2, 3, 4, 4)),
    "conv3d": (lambda lib: lib.nn.LazyConv3d(2, 2, stride=2), (1, 2, 4, 4, 4)),
}


@pytest.mark.parametrize("conv", list(CONVS))
def test_a_lazy_network_initialises_and_trains_as_torchs(conv):
    seen = []
    for lib in LIBS:
        lib.manual_seed(0)
        make, shape = CONVS[conv]
        net = _net(lib, make)
        before = (repr(net), list(net.state_dict()), net.fc1.has_uninitialized_params())
        x = lib.randn(*shape)
        first = net(x).detach().numpy()
        optimizer = lib.optim.SGD(net.parameters(), lr=0.1)
        losses = []
        for _ in range(3):
            loss = net(x).square().mean()
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            losses.append(loss.item())
        shapes = [(name, tuple(p.shape), type(p).__name__) for name, p in net.named_parameters()]
        seen.append((before, repr(net), type(net.fc1).__name__, shapes, first, losses))
    for ours, theirs in zip(seen[1], seen[0]):
        if isinstance(theirs, np.ndarray) or (isinstance(theirs, list) and theirs and isinstance(theirs[0], float)):
            np.testing.assert_allclose(ours, theirs, rtol=1e-5, atol=1e-6)
        else:
            assert ours == theirs


def test_unbatched_input_and_a_bad_rank():
    outcomes = []
    for lib in LIBS:
        lib.manual_seed(0)
        conv = lib.nn.LazyConv2d(2, 3)
        out = conv(lib.randn(3, 5, 5))
        with pytest.raises(RuntimeError) as bad:
            lib.nn.LazyConv2d(2, 3)(lib.randn(5, 5))
        outcomes.append((tuple(conv.weight.shape), out.detach().numpy().round(5).tolist(), str(bad.value)))
    assert outcomes[1] == outcomes[0]
