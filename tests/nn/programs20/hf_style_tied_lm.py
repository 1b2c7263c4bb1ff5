"""A Hugging Face style language model with tied embeddings, trained 5 steps eager and 5 compiled: its forward asks
torch.jit.is_tracing(), torch._C._get_tracing_state(), torch.onnx.is_in_onnx_export(), torch.cuda.is_available()
and hasattr(F, "scaled_dot_product_attention"), returns an OrderedDict subclass, and its activation goes through
has_torch_function_variadic. Before session 42, _get_tracing_state and the hasattr on a torch module broke the
graph (four graphs where Dynamo has one), and torch._C did not exist."""
import collections
import math
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.overrides import has_torch_function_variadic, handle_torch_function


def gelu_new(input):
    if has_torch_function_variadic(input):
        return handle_torch_function(gelu_new, (input,), input)
    return 0.5 * input * (1.0 + torch.tanh(math.sqrt(2.0 / math.pi) * (input + 0.044715 * torch.pow(input, 3.0))))


class ModelOutput(collections.OrderedDict):
    pass


class Attention(nn.Module):
    def __init__(self, dim, heads):
        super().__init__()
        self.heads = heads
        self.qkv = nn.Linear(dim, 3 * dim)
        self.proj = nn.Linear(dim, dim)

    def forward(self, x, mask=None):
        if torch.jit.is_tracing() or torch._C._get_tracing_state():
            raise RuntimeError("no tracing")
        b, t, d = x.shape
        q, k, v = self.qkv(x).split(d, dim=-1)
        q, k, v = (z.view(b, t, self.heads, d // self.heads).transpose(1, 2) for z in (q, k, v))
        use_sdpa = not torch.onnx.is_in_onnx_export() and hasattr(F, "scaled_dot_product_attention")
        if use_sdpa:
            y = F.scaled_dot_product_attention(q, k, v, attn_mask=mask, is_causal=mask is None)
        else:
            y = (q @ k.transpose(-2, -1) / math.sqrt(d // self.heads)).softmax(-1) @ v
        return self.proj(y.transpose(1, 2).reshape(b, t, d))


class Block(nn.Module):
    def __init__(self, dim, heads):
        super().__init__()
        self.ln1 = nn.LayerNorm(dim)
        self.attn = Attention(dim, heads)
        self.ln2 = nn.LayerNorm(dim)
        self.fc = nn.Linear(dim, 4 * dim)
        self.out = nn.Linear(4 * dim, dim)

    def forward(self, x):
        x = x + self.attn(self.ln1(x))
        return x + self.out(gelu_new(self.fc(self.ln2(x))))


class TinyLM(nn.Module):
    def __init__(self, vocab=50, dim=32, heads=4, layers=2):
        super().__init__()
        self.wte = nn.Embedding(vocab, dim)
        self.blocks = nn.ModuleList([Block(dim, heads) for _ in range(layers)])
        self.ln_f = nn.LayerNorm(dim)
        self.head = nn.Linear(dim, vocab, bias=False)
        self.head.weight = self.wte.weight

    def forward(self, idx, labels=None):
        device = "cuda" if torch.cuda.is_available() else "cpu"
        x = self.wte(idx.to(device))
        for block in self.blocks:
            x = block(x)
        logits = self.head(self.ln_f(x))
        out = ModelOutput(logits=logits)
        if labels is not None:
            reduction = F._Reduction.get_enum("mean")
            out["loss"] = F.cross_entropy(logits.view(-1, logits.size(-1)), labels.reshape(-1),
                                          reduction="mean" if reduction == 1 else "sum")
        return out


def train(compiled):
    torch.manual_seed(0)
    model = TinyLM()
    step_model = torch.compile(model) if compiled else model
    opt = torch.optim.AdamW(model.parameters(), lr=3e-3)
    data = torch.randint(0, 50, (4, 17))
    for step in range(5):
        out = step_model(data[:, :-1], labels=data[:, 1:])
        out["loss"].backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        opt.step()
        opt.zero_grad(set_to_none=True)
        print(step, f"{out['loss'].item():.5f}", type(out).__name__, list(out.keys()))
    print(torch.backends.cuda.matmul.allow_tf32, torch.hub.get_dir().endswith("hub"))


train(False)
train(True)
