"""makemore part 4 ("becoming a backprop ninja"): a character MLP with an embedding table, a batch-norm layer
written by hand and tanh, its backward pass derived by hand tensor by tensor and checked against autograd with
torch.allclose (exact / approximate / max diff), then a training step with the manual gradients; the forward also
compiled."""
import torch
import torch.nn.functional as F

g = torch.Generator().manual_seed(2147483647)
words = ["emma", "olivia", "ava", "isabella", "sophia", "mia", "amelia", "harper", "evelyn", "abigail"]
chars = sorted(set("".join(words)))
stoi = {s: i + 1 for i, s in enumerate(chars)}
stoi["."] = 0
vocab_size = len(stoi)
block_size = 3
X, Y = [], []
for w in words:
    context = [0] * block_size
    for ch in w + ".":
        ix = stoi[ch]
        X.append(context)
        Y.append(ix)
        context = context[1:] + [ix]
Xb, Yb = torch.tensor(X), torch.tensor(Y)
n = Xb.shape[0]
print("dataset", Xb.shape, vocab_size)

n_embd, n_hidden = 4, 16
C = torch.randn((vocab_size, n_embd), generator=g)
W1 = torch.randn((n_embd * block_size, n_hidden), generator=g) * (5 / 3) / ((n_embd * block_size) ** 0.5)
b1 = torch.randn(n_hidden, generator=g) * 0.1
W2 = torch.randn((n_hidden, vocab_size), generator=g) * 0.1
b2 = torch.randn(vocab_size, generator=g) * 0.1
bngain = torch.randn((1, n_hidden), generator=g) * 0.1 + 1.0
bnbias = torch.randn((1, n_hidden), generator=g) * 0.1
parameters = [C, W1, b1, W2, b2, bngain, bnbias]
for p in parameters:
    p.requires_grad = True


def forward():
    emb = C[Xb]
    embcat = emb.view(emb.shape[0], -1)
    hprebn = embcat @ W1 + b1
    bnmeani = 1 / n * hprebn.sum(0, keepdim=True)
    bndiff = hprebn - bnmeani
    bndiff2 = bndiff ** 2
    bnvar = 1 / (n - 1) * (bndiff2).sum(0, keepdim=True)
    bnvar_inv = (bnvar + 1e-5) ** -0.5
    bnraw = bndiff * bnvar_inv
    hpreact = bngain * bnraw + bnbias
    h = torch.tanh(hpreact)
    logits = h @ W2 + b2
    logit_maxes = logits.max(1, keepdim=True).values
    norm_logits = logits - logit_maxes
    counts = norm_logits.exp()
    counts_sum = counts.sum(1, keepdims=True)
    counts_sum_inv = counts_sum ** -1
    probs = counts * counts_sum_inv
    logprobs = probs.log()
    loss = -logprobs[range(n), Yb].mean()
    return loss, locals()


def cmp(s, dt, t):
    ex = torch.all(dt == t.grad).item()
    app = torch.allclose(dt, t.grad)
    maxdiff = (dt - t.grad).abs().max().item()
    print(f"{s:15s} | exact: {str(ex):5s} | approximate: {str(app):5s} | maxdiff: {maxdiff:.1e}" if not app
          else f"{s:15s} | approximate: {str(app):5s}")


loss, v = forward()
for t in [v[k] for k in ("logprobs", "probs", "counts", "counts_sum", "counts_sum_inv", "norm_logits",
                         "logit_maxes", "logits", "h", "hpreact", "bnraw", "bnvar_inv", "bnvar", "bndiff2", "bndiff",
                         "hprebn", "bnmeani", "embcat", "emb")]:
    t.retain_grad()
loss.backward()
print("loss", round(loss.item(), 4))

dlogprobs = torch.zeros_like(v["logprobs"])
dlogprobs[range(n), Yb] = -1.0 / n
dprobs = (1.0 / v["probs"]) * dlogprobs
dcounts_sum_inv = (v["counts"] * dprobs).sum(1, keepdim=True)
dcounts = v["counts_sum_inv"] * dprobs
dcounts_sum = (-v["counts_sum"] ** -2) * dcounts_sum_inv
dcounts += torch.ones_like(v["counts"]) * dcounts_sum
dnorm_logits = v["counts"] * dcounts
dlogits = dnorm_logits.clone()
dlogit_maxes = (-dnorm_logits).sum(1, keepdim=True)
dlogits += F.one_hot(v["logits"].max(1).indices, num_classes=v["logits"].shape[1]) * dlogit_maxes
dh = dlogits @ W2.T
dW2 = v["h"].T @ dlogits
db2 = dlogits.sum(0)
dhpreact = (1.0 - v["h"] ** 2) * dh
dbngain = (v["bnraw"] * dhpreact).sum(0, keepdim=True)
dbnraw = bngain * dhpreact
dbnbias = dhpreact.sum(0, keepdim=True)
dbndiff = v["bnvar_inv"] * dbnraw
dbnvar_inv = (v["bndiff"] * dbnraw).sum(0, keepdim=True)
dbnvar = (-0.5 * (v["bnvar"] + 1e-5) ** -1.5) * dbnvar_inv
dbndiff2 = (1.0 / (n - 1)) * torch.ones_like(v["bndiff2"]) * dbnvar
dbndiff += (2 * v["bndiff"]) * dbndiff2
dhprebn = dbndiff.clone()
dbnmeani = (-dbndiff).sum(0)
dhprebn += 1.0 / n * (torch.ones_like(v["hprebn"]) * dbnmeani)
dembcat = dhprebn @ W1.T
dW1 = v["embcat"].T @ dhprebn
db1 = dhprebn.sum(0)
demb = dembcat.view(v["emb"].shape)
dC = torch.zeros_like(C)
for k in range(Xb.shape[0]):
    for j in range(Xb.shape[1]):
        dC[Xb[k, j]] += demb[k, j]
for name, d, t in [("logprobs", dlogprobs, v["logprobs"]), ("probs", dprobs, v["probs"]),
                   ("counts_sum_inv", dcounts_sum_inv, v["counts_sum_inv"]), ("logits", dlogits, v["logits"]),
                   ("h", dh, v["h"]), ("W2", dW2, W2), ("b2", db2, b2), ("hpreact", dhpreact, v["hpreact"]),
                   ("bngain", dbngain, bngain), ("bnvar", dbnvar, v["bnvar"]), ("hprebn", dhprebn, v["hprebn"]),
                   ("W1", dW1, W1), ("b1", db1, b1), ("emb", demb, v["emb"]), ("C", dC, C)]:
    cmp(name, d, t)

# the fused cross-entropy and batch-norm backward, as the lecture derives them
dlogits_fast = F.softmax(v["logits"], 1)
dlogits_fast[range(n), Yb] -= 1
dlogits_fast /= n
print("dlogits fused close", torch.allclose(dlogits_fast, v["logits"].grad, atol=1e-7))
loss_fast = F.cross_entropy(v["logits"], Yb)
print("loss fast diff", (loss_fast - loss).abs().item() < 1e-6)

with torch.no_grad():
    grads = [dC, dW1, db1, dW2, db2, dbngain, dbnbias]
    for p, grad in zip(parameters, grads):
        p.data += -0.1 * grad
loss2, _ = forward()
print("loss after manual step", round(loss2.item(), 4))


@torch.compile(backend="aot_eager")
def mlp_loss(C, W1, b1, W2, b2, bngain, bnbias):
    embcat = C[Xb].view(Xb.shape[0], -1)
    hpreact = embcat @ W1 + b1
    mean = hpreact.mean(0, keepdim=True)
    var = hpreact.var(0, keepdim=True, unbiased=True)
    h = torch.tanh(bngain * (hpreact - mean) * (var + 1e-5).rsqrt() + bnbias)
    return F.cross_entropy(h @ W2 + b2, Yb)


for p in parameters:
    p.grad = None
compiled = mlp_loss(*parameters)
compiled.backward()
print("compiled loss", round(compiled.item(), 4), "matches", torch.allclose(compiled, loss2, atol=1e-6))
print("compiled dW1 norm", round(W1.grad.norm().item(), 4))
