"""Hand-derived gradients checked against autograd, in the manner of the nn-zero-to-hero backprop exercise (written
afresh): a tanh MLP with a batch-normalized hidden layer, each gradient derived by hand and compared with autograd's
for exact equality, then a float64 copy of the same. ATen's tanh backward computes grad * (1 - y * y) with the
inner `1 - y * y` as one fused multiply-add, so the hand-written `(1.0 - h**2) * dh` is not exactly autograd's there
and upstream of it; our kernel rounded twice and printed "exact: True" where torch prints False. Likewise sigmoid's
backward, which ATen computes as (grad * (1 - s)) * s, and ours as grad * ((1 - s) * s), the hand-written order."""
import torch
import torch.nn.functional as F

g = torch.Generator().manual_seed(2147483647)
n, d_in, d_hidden, vocab = 32, 12, 64, 27
X = torch.randn(n, d_in, generator=g)
Y = torch.randint(0, vocab, (n,), generator=g)


def check(label, manual, auto):
    exact = torch.all(manual == auto).item()
    close = torch.allclose(manual, auto)
    print(f"{label:10s} | exact: {str(exact):5s} | approximate: {str(close):5s} | maxdiff: {(manual - auto).abs().max().item():.3e}")


def run(dtype):
    W1 = (torch.randn(d_in, d_hidden, generator=g) * 0.3).to(dtype).requires_grad_()
    b1 = (torch.randn(d_hidden, generator=g) * 0.1).to(dtype).requires_grad_()
    bngain = (torch.randn(1, d_hidden, generator=g) * 0.1 + 1.0).to(dtype).requires_grad_()
    bnbias = (torch.randn(1, d_hidden, generator=g) * 0.1).to(dtype).requires_grad_()
    W2 = (torch.randn(d_hidden, vocab, generator=g) * 0.1).to(dtype).requires_grad_()
    x = X.to(dtype)

    hprebn = x @ W1 + b1
    bnmean = hprebn.mean(0, keepdim=True)
    bndiff = hprebn - bnmean
    bnvar = (bndiff ** 2).sum(0, keepdim=True) / (n - 1)
    bnvar_inv = (bnvar + 1e-5) ** -0.5
    bnraw = bndiff * bnvar_inv
    hpreact = bngain * bnraw + bnbias
    h = torch.tanh(hpreact)
    logits = h @ W2
    loss = F.cross_entropy(logits, Y)
    for t in (hprebn, bndiff, bnvar, bnvar_inv, bnraw, hpreact, h, logits):
        t.retain_grad()
    loss.backward()
    print(dtype, "loss", f"{loss.item():.6f}")

    dlogits = F.softmax(logits, 1)
    dlogits[range(n), Y] -= 1
    dlogits = dlogits / n
    dh = dlogits @ W2.T
    dhpreact = (1.0 - h ** 2) * dh
    dbngain = (bnraw * dhpreact).sum(0, keepdim=True)
    dbnraw = bngain * dhpreact
    check("logits", dlogits, logits.grad)
    check("h", dh, h.grad)
    check("hpreact", dhpreact, hpreact.grad)
    check("bngain", dbngain, bngain.grad)
    check("bnraw", dbnraw, bnraw.grad)
    z = hpreact.detach().requires_grad_()  # tanh alone: its gradient against the two-rounding formula
    y = torch.tanh(z)
    y.backward(dh)
    check("tanh only", (1.0 - y.detach() * y.detach()) * dh, z.grad)
    z.grad = None  # a sigmoid gate, derived as the lecture writes it: s * (1 - s) * upstream
    s = torch.sigmoid(z)
    s.backward(dh)
    check("sigmoid", s.detach() * (1 - s.detach()) * dh, z.grad)


run(torch.float32)
run(torch.float64)
