"""A training script in the manner of third-party ones, written with the names issue 20 found missing: it probes
every device module in its first lines (cuda, then xpu, then mps, falling back to torch.cpu), builds a small
spectrogram classifier (stft with a Hann window, RReLU, ChannelShuffle, lazy batch norm and transposed convolution,
SyncBatchNorm converted for a one-process run) with an adaptive-softmax head, trains it with Adafactor, then
resynthesises a signal with istft and prints gradients of a field with torch.gradient."""
import torch
import torch.nn as nn

if torch.cuda.is_available():
    device_type = "cuda"
elif hasattr(torch, "xpu") and torch.xpu.is_available():
    device_type = "xpu"
elif torch.backends.mps.is_available() or torch.mps.is_available():
    device_type = "mps"
else:
    device_type = "cpu"
device_module = getattr(torch, device_type)
print("device:", device_type, device_module.is_available(), device_module.device_count())
device_module.synchronize()
torch.xpu.manual_seed_all(0), torch.mps.manual_seed(0)
torch.manual_seed(0)

N_FFT, HOP, CLASSES = 32, 8, 12
signals = torch.randn(6, 256)
labels = torch.tensor([0, 3, 5, 7, 9, 11])
window = torch.hann_window(N_FFT)


class SpectrogramNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(1, 8, 3, padding=1)
        self.norm = nn.BatchNorm2d(8)
        self.shuffle = nn.ChannelShuffle(4)
        self.act = nn.RReLU()
        self.up = nn.LazyConvTranspose2d(4, 2, stride=2)
        self.norm2 = nn.LazyBatchNorm2d()
        self.pool = nn.AdaptiveAvgPool2d(1)
        self.head = nn.AdaptiveLogSoftmaxWithLoss(4, CLASSES, [4, 8], div_value=2.0)

    def features(self, x):
        spec = torch.stft(x, N_FFT, HOP, window=window, return_complex=True).abs().unsqueeze(1)
        h = self.act(self.shuffle(self.norm(self.conv(spec.log1p()))))
        return self.pool(self.norm2(self.up(h))).flatten(1)

    def forward(self, x, y):
        return self.head(self.features(x), y)


model = SpectrogramNet()
model.features(signals[:2])  # materialises the lazy layers
model = nn.SyncBatchNorm.convert_sync_batchnorm(model)
print(model)
optimizer = torch.optim.Adafactor(model.parameters(), lr=0.05)
for step in range(4):
    optimizer.zero_grad()
    out = model(signals, labels)
    out.loss.backward()
    optimizer.step()
    print(f"step {step} loss {out.loss.item():.5f}")
model.eval()
print("predict:", model.head.predict(model.features(signals)).tolist())
print("log_prob row sums:", model.head.log_prob(model.features(signals)).exp().sum(1))

spectrum = torch.stft(signals[0], N_FFT, HOP, window=window, return_complex=True)
rebuilt = torch.istft(spectrum, N_FFT, HOP, window=window, length=256)
print("istft round trip max error below 1e-5:", bool((rebuilt - signals[0]).abs().max() < 1e-5))
field = torch.outer(torch.linspace(0, 1, 5), torch.linspace(0, 1.5, 4)) ** 2
dy, dx = torch.gradient(field, spacing=(0.25, 0.5), edge_order=2)
print(dy)
print(dx)
print(torch.frexp(torch.tensor([0.75, 10.0, -3.0])))
