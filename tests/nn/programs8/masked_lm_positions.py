"""A masked language model's loss in the manner of the BERT tutorials: logits (batch, positions, vocab) turned to
(batch, vocab, positions) for cross_entropy, with padding positions ignored and class weights; a per-pixel loss over
(batch, classes, height, width) as segmentation scripts write it; both trained eagerly a few steps. cross_entropy and
nll_loss over more than two dimensions were not implemented. Then a compiled Seq2Seq attention score written with
torch.dot, which torch's inductor tables decompose into a multiply and a sum."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(1)
VOCAB, PAD = 12, 0
tokens = torch.randint(1, VOCAB, (3, 7))
masked = torch.zeros_like(tokens)  # the tokens to recover where masked, PAD (ignored) elsewhere
masked[:, 2], masked[0, 5], masked[2, 4] = tokens[:, 2], tokens[0, 5], tokens[2, 4]
inputs = torch.where(masked != PAD, torch.full_like(tokens, VOCAB - 1), tokens)


class TinyEncoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.embed = nn.Embedding(VOCAB, 16)
        self.layer = nn.TransformerEncoderLayer(16, 2, 32, dropout=0.0, batch_first=True)
        self.lm = nn.Linear(16, VOCAB)

    def forward(self, x):
        return self.lm(self.layer(self.embed(x)))


model = TinyEncoder()
criterion = nn.CrossEntropyLoss(ignore_index=PAD)
opt = torch.optim.Adam(model.parameters(), lr=0.01)
for step in range(4):
    opt.zero_grad()
    logits = model(inputs)
    loss = criterion(logits.transpose(1, 2), masked)
    loss.backward()
    opt.step()
    print(step, f"{loss.item():.5f}")
with torch.no_grad():
    logits = model(inputs)
    print(logits.argmax(-1)[masked != PAD].tolist(), tokens[masked != PAD].tolist())
    per_position = F.cross_entropy(logits.transpose(1, 2), masked, ignore_index=PAD, reduction="none")
    print(per_position.shape, per_position[masked == PAD].abs().sum().item(), f"{per_position.sum().item():.5f}")
    weights = torch.linspace(0.5, 2.0, VOCAB)
    print(f"{F.cross_entropy(logits.transpose(1, 2), masked, weight=weights, ignore_index=PAD).item():.5f}",
          f"{F.cross_entropy(logits.transpose(1, 2), masked, label_smoothing=0.1).item():.5f}")

seg = nn.Conv2d(3, 4, 3, padding=1)
images, labels = torch.randn(2, 3, 5, 5), torch.randint(0, 4, (2, 5, 5))
seg_opt = torch.optim.SGD(seg.parameters(), lr=0.1)
for step in range(3):
    seg_opt.zero_grad()
    loss = F.nll_loss(F.log_softmax(seg(images), dim=1), labels, reduction="sum")
    loss.backward()
    seg_opt.step()
    print(step, f"{loss.item():.4f}", f"{seg.bias.grad.abs().sum().item():.4f}")
try:
    F.nll_loss(torch.randn(2, 4, 5), torch.zeros(2, 4, dtype=torch.long))
except RuntimeError as error:
    print(type(error).__name__, error)


@torch.compile
def attention(hidden, encoder_outputs, weight):  # one score a step: dot(hidden, W e_t), then their softmax
    scores = torch.stack([torch.dot(hidden, weight @ e) for e in encoder_outputs]).softmax(0)
    return scores @ encoder_outputs


weight = torch.randn(6, 6, requires_grad=True)
context = attention(torch.randn(6), torch.randn(4, 6), weight)
context.sum().backward()
print(context, weight.grad.abs().sum())
