"""The dynamic-shapes oracle corpus (issue 21): programs whose sizes change from call to call.

Each program is written once, in DYNAMIC_SRC, against the names `torch`, `nn`, `F` and `math`, in the style
of the code that meets dynamic shapes in real projects: seed 002's `if x.shape[0] > 2: return x.view(-1, 2).sum(1)`,
nanoGPT's `B, T, C = x.size()` and its causal mask sliced by T from a registered buffer, collate-style padding to
a multiple, image batches flattened before a classifier head, positions from `torch.arange(T)`, int arguments
used in arithmetic or driving `range()`, sizes compared with constants and tested with `%`, a size-1 batch
(0/1 specialization), an empty batch, broadcasting, cat/stack, reductions and matmuls over a dynamic dim,
nn modules (Linear, LayerNorm, Conv2d, BatchNorm, Embedding, a GPT block) called with varying batch or
sequence length, and the data-dependent cases (`.item()`, `nonzero`, boolean masks: graph breaks by default).

`build(lib)` execs the text with those names bound to torch or to minitorch2, so both libraries run the same
program. `CASES` says how to call each one: `args(n)` gives the argument specs of one call for the size n, and
`sizes` is the call sequence (by default 4, 4, 6, 8, 10, 6, 4, the sequence issue 21 quotes). dynamic_oracle.py
runs every case under each of MODES (dynamic=None, True, False, and mark_dynamic on the first input's batch dim)
on torch.compile and on minitorch2.compile, and test_dynamic_corpus.py compares the two.

Case names say what they cover; a case's `program` names the function or nn.Module class it calls (several
cases may share one program with different call sequences).
"""
from dataclasses import dataclass
from typing import Callable

DYNAMIC_SRC = r'''
import math

# ---- seed 002 and branches on sizes --------------------------------------------------------------
def seed002_view_sum(x):
    if x.shape[0] > 2:
        return x.view(-1, 2).sum(1)
    return x

def cheaper_path_for_big_batches(x):
    if x.size(0) >= 8:
        return torch.relu(x) * 0.5
    return torch.sigmoid(x)

def group_rows_when_divisible(x):
    if x.shape[0] % 4 == 0:
        return x.view(-1, 4, x.shape[1]).mean(1)
    return x * 2

def mean_over_len(x):
    n = len(x)
    return x.sum(0) / n

# ---- views and reshapes with -1 and computed sizes ----------------------------------------------
def flatten_batch(x):
    return x.view(x.size(0), -1)

def flatten_images(x):
    features = torch.flatten(x, 1)
    return features.relu()

def merge_batch_and_time(x):
    b, t, c = x.shape
    y = x.reshape(b * t, c)
    y = y * 2 + 1
    return y.reshape(b, t, c).sum(1)

def split_heads(x):
    B, T, C = x.size()
    n_head = 2
    return x.view(B, T, n_head, C // n_head).transpose(1, 2).contiguous()

def transpose_then_flatten(x):
    y = x.transpose(1, 2).contiguous()
    return y.view(x.size(0), -1)

def pairs_of_rows(x):
    return x.view(x.shape[0] // 2, 2, -1).sum(1)

# ---- attention-like code -------------------------------------------------------------------------
def attention_scores(q, k):
    B, T, C = q.size()
    att = (q @ k.transpose(-2, -1)) * (1.0 / math.sqrt(k.size(-1)))
    return F.softmax(att, dim=-1)

class CausalMask(nn.Module):
    def __init__(self, block_size=16):
        super().__init__()
        mask = torch.tril(torch.ones(block_size, block_size))
        self.register_buffer("bias", mask.view(1, 1, block_size, block_size))

    def forward(self, x):
        B, T, C = x.size()
        att = (x @ x.transpose(-2, -1)).unsqueeze(1)
        att = att.masked_fill(self.bias[:, :, :T, :T] == 0, float("-inf"))
        return F.softmax(att, dim=-1)

def masked_mean(x, mask):
    m = mask.unsqueeze(-1)
    return (x * m).sum(1) / m.sum(1).clamp(min=1.0)

# ---- padding -------------------------------------------------------------------------------------
def pad_to_multiple_of_4(x):
    n = x.shape[-1]
    pad = (4 - n % 4) % 4
    return F.pad(x, (0, pad))

def pad_pair_to_longest(x, y):
    n = max(x.shape[0], y.shape[0])
    x = F.pad(x, (0, 0, 0, n - x.shape[0]))
    y = F.pad(y, (0, 0, 0, n - y.shape[0]))
    return x + y

# ---- factories sized by the input ----------------------------------------------------------------
def add_positions(x):
    pos = torch.arange(x.shape[0])
    return x + pos.unsqueeze(1)

def append_zero_features(x):
    z = x.new_zeros(x.shape[0], 4)
    return torch.cat([x, z], dim=1)

def factories_from_sizes(x):
    return torch.zeros(x.shape) + torch.ones(x.size(0), 1) + x.new_full((x.size(0), x.size(1)), 0.5)

def sizes_of_another_tensor(x, y):
    return y * len(x) + torch.zeros(x.shape[1:]).sum()

def reverse_rows(x):
    idx = torch.arange(x.shape[0] - 1, -1, -1)
    return x[idx] - x.flip(0)

# ---- Python ints: loops over sizes, int arguments -------------------------------------------------
def weighted_row_sum(x):
    acc = x[0] * 0
    for i in range(x.shape[0]):
        acc = acc + x[i] * (i + 1)
    return acc

def scale_by_int(x, n):
    return x * n + n

def repeat_steps(x, steps):
    for i in range(steps):
        x = x * 0.5 + i
    return x

def groups_from_int(x, groups):
    return x.view(groups, -1).sum(1)

def scale_rows_by_batch(x, scale):
    return x.sum(1) * scale

def normalize_with_eps(x, eps):
    return x / (x.norm() + eps)

# ---- sizes compared with constants, 0/1 specialization, torch._check -----------------------------
def first_rows_capped(x):
    k = min(x.shape[0], 5)
    return x[:k].sum(0) + max(x.shape[0], 6)

def sum_times_batch(x):
    return x.sum(0) * x.shape[0]

def squeeze_single_example(x):
    if x.size(0) == 1:
        return x.squeeze(0) * 2
    return x.mean(0)

def checked_differences(x):
    torch._check(x.size(0) > 1)
    return x[1:] - x[:-1]

# ---- broadcasting, cat and stack along dynamic dims ----------------------------------------------
def add_bias_row(x, bias):
    return x + bias

def outer_broadcast(a, b):
    return a * b

def gate_by_column(x, y):
    return torch.sigmoid(x) * y

def append_fixed_rows(x, y):
    return torch.cat([x, y], 0)

def concat_two_batches(x, y):
    return torch.cat([x, y]).sum(0)

def stack_pair(x, y):
    return torch.stack([x, y], dim=1)

def broadcast_weights_to_batch(x, w):
    return w.expand(x.shape[0], -1) * x

# ---- reductions and sizes in arithmetic ----------------------------------------------------------
def reductions(x):
    return x.sum(0) + x.mean(0) - x.sum(1, keepdim=True).mean() + x.amax(1).sum()

def reduce_two_dynamic_dims(x):
    return x.sum((0, 1)) + x.mean() * x.numel()

def normalize_by_numel(x):
    return x / x.numel()

def sizes_in_arithmetic(x):
    return x * x.shape[0] + x.shape[1] / 2

def scale_by_sqrt_dim(x):
    return x / math.sqrt(x.shape[-1])

def split_in_halves(x):
    h = x.shape[0] // 2
    return x[:h] * 2, x[h:] + 1

def top_half(x):
    k = x.shape[1] // 2
    return torch.topk(x, k, dim=1).values

# ---- matmul and losses with a dynamic batch ------------------------------------------------------
def batched_projection(x, w):
    return x @ w

def gram_matrices(x):
    return torch.bmm(x, x.transpose(1, 2))

def classification_loss(logits, target):
    return F.cross_entropy(logits, target)

# ---- nn modules called with varying batch or length ----------------------------------------------
class LinearHead(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(4, 3)

    def forward(self, x):
        return self.fc(x)

class NormedMLP(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(8, 8), nn.LayerNorm(8), nn.GELU(), nn.Linear(8, 4))

    def forward(self, x):
        return self.net(x)

class SmallConvNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(2, 3, 3, padding=1)
        self.fc = nn.Linear(3 * 5 * 5, 4)

    def forward(self, x):
        x = F.relu(self.conv(x))
        x = x.view(x.size(0), -1)
        return self.fc(x)

class AnySizeConv(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(2, 3, 3, padding=1)
        self.fc = nn.Linear(3, 2)

    def forward(self, x):
        x = F.relu(self.conv(x))
        return self.fc(x.mean((2, 3)))

class EvalBatchNorm(nn.Module):
    def __init__(self):
        super().__init__()
        self.bn = nn.BatchNorm1d(4)
        self.eval()

    def forward(self, x):
        return self.bn(x)

class TokenAndPosition(nn.Module):
    def __init__(self, vocab_size=10, block_size=16, n_embd=8):
        super().__init__()
        self.wte = nn.Embedding(vocab_size, n_embd)
        self.wpe = nn.Embedding(block_size, n_embd)

    def forward(self, idx):
        b, t = idx.size()
        pos = torch.arange(0, t, dtype=torch.long)
        return self.wte(idx) + self.wpe(pos)

class GPTBlock(nn.Module):
    def __init__(self, n_embd=8, n_head=2, block_size=16):
        super().__init__()
        self.n_head = n_head
        self.ln_1 = nn.LayerNorm(n_embd)
        self.c_attn = nn.Linear(n_embd, 3 * n_embd)
        self.c_proj = nn.Linear(n_embd, n_embd)
        self.ln_2 = nn.LayerNorm(n_embd)
        self.c_fc = nn.Linear(n_embd, 4 * n_embd)
        self.mlp_proj = nn.Linear(4 * n_embd, n_embd)
        mask = torch.tril(torch.ones(block_size, block_size))
        self.register_buffer("bias", mask.view(1, 1, block_size, block_size))

    def attn(self, x):
        B, T, C = x.size()
        q, k, v = self.c_attn(x).split(C, dim=2)
        k = k.view(B, T, self.n_head, C // self.n_head).transpose(1, 2)
        q = q.view(B, T, self.n_head, C // self.n_head).transpose(1, 2)
        v = v.view(B, T, self.n_head, C // self.n_head).transpose(1, 2)
        att = (q @ k.transpose(-2, -1)) * (1.0 / math.sqrt(k.size(-1)))
        att = att.masked_fill(self.bias[:, :, :T, :T] == 0, float("-inf"))
        att = F.softmax(att, dim=-1)
        y = att @ v
        y = y.transpose(1, 2).contiguous().view(B, T, C)
        return self.c_proj(y)

    def forward(self, x):
        x = x + self.attn(self.ln_1(x))
        return x + self.mlp_proj(F.gelu(self.c_fc(self.ln_2(x))))

# ---- data-dependent: graph breaks by default -----------------------------------------------------
def scale_by_item(x):
    s = x.abs().max().item()
    return x / s

def count_positive_rows(x):
    idx = torch.nonzero(x[:, 0] > 0)
    return idx.shape[0], x * 2

def sum_of_positives(x):
    return x[x > 0].sum()
'''


@dataclass(frozen=True)
class Arg:
    """A tensor argument: its shape and dtype; int64 tensors draw from [0, high)."""

    shape: tuple
    dtype: str = "float32"
    high: int = 10


def T(*shape, dtype="float32", high=10):
    return Arg(tuple(shape), dtype, high)


SIZES = (4, 4, 6, 8, 10, 6, 4)  # issue 21's sequence: automatic dynamic gives Dynamo frames [1, 1, 2, 2, 2, 2, 2]


@dataclass(frozen=True)
class Case:
    name: str
    args: Callable  # size n -> the argument specs of one call (Arg, or a plain Python value)
    sizes: tuple = SIZES
    program: str = None  # the function or class in DYNAMIC_SRC; default: the case name

    @property
    def target(self):
        return self.program or self.name

    def calls(self):
        return [tuple(self.args(n)) for n in self.sizes]

    @property
    def mark_dim(self):
        """The dim "mark" mode marks dynamic on the first tensor argument: the first whose size changes along
        the call sequence (dim 0, the batch, in most programs), else 0."""
        shapes = [next(a.shape for a in call if isinstance(a, Arg)) for call in self.calls()]
        changing = [d for d in range(len(shapes[0])) if len({s[d] for s in shapes}) > 1]
        return changing[0] if changing else 0


# The four ways issue 21 asks every program to be compiled: torch.compile(dynamic=...) and, for "mark",
# dynamic=None with torch._dynamo.mark_dynamic(first tensor argument, Case.mark_dim) before the first call.
MODES = ("none", "true", "false", "mark")

CASES = [
    # seed 002 and branches on sizes
    Case("seed002_view_sum", lambda n: (T(n),)),
    Case("seed002_sizes_8_10_12_4_2", lambda n: (T(n),), (8, 10, 12, 4, 2), "seed002_view_sum"),
    Case("cheaper_path_for_big_batches", lambda n: (T(n, 3),)),
    Case("group_rows_when_divisible", lambda n: (T(n, 3),)),
    Case("mean_over_len", lambda n: (T(n, 3),)),
    # views and reshapes
    Case("flatten_batch", lambda n: (T(n, 3, 4),)),
    Case("flatten_images", lambda n: (T(n, 2, 3, 3),)),
    Case("merge_batch_and_time", lambda n: (T(2, n, 4),)),
    Case("split_heads", lambda n: (T(2, n, 8),)),
    Case("transpose_then_flatten", lambda n: (T(n, 3, 4),)),
    Case("pairs_of_rows", lambda n: (T(n, 3),)),
    # attention-like
    Case("attention_scores", lambda n: (T(2, n, 8), T(2, n, 8))),
    Case("causal_mask_buffer", lambda n: (T(2, n, 4),), program="CausalMask"),
    Case("masked_mean", lambda n: (T(2, n, 4), T(2, n))),
    # padding
    Case("pad_to_multiple_of_4", lambda n: (T(2, n),)),
    Case("pad_pair_to_longest", lambda n: (T(n, 3), T(n + 2, 3))),
    # factories
    Case("add_positions", lambda n: (T(n, 3),)),
    Case("append_zero_features", lambda n: (T(n, 3),)),
    Case("factories_from_sizes", lambda n: (T(n, 3),)),
    Case("sizes_of_another_tensor", lambda n: (T(n, 3), T(2))),
    Case("reverse_rows", lambda n: (T(n, 3),)),
    # Python ints
    Case("weighted_row_sum", lambda n: (T(n, 3),)),
    Case("scale_by_int", lambda n: (T(3), n)),
    Case("repeat_steps", lambda n: (T(3), n)),
    Case("groups_from_int", lambda n: (T(12), n), (2, 2, 3, 4, 6, 3, 2)),
    Case("scale_rows_by_batch", lambda n: (T(n, 3), n)),
    Case("normalize_with_eps", lambda n: (T(3), n / 1000)),
    # guards, 0/1 specialization, torch._check
    Case("first_rows_capped", lambda n: (T(n, 3),)),
    Case("size_one_batch", lambda n: (T(n, 4),), (1, 4, 1, 6, 8), "sum_times_batch"),
    Case("squeeze_single_example", lambda n: (T(n, 4),), (1, 4, 1, 6, 8)),
    Case("empty_batch", lambda n: (T(n, 3),), (0, 4, 0, 6, 8), "sum_times_batch"),
    Case("checked_differences", lambda n: (T(n, 3),)),
    # broadcasting, cat, stack
    Case("add_bias_row", lambda n: (T(n, 4), T(4))),
    Case("outer_broadcast", lambda n: (T(n, 1), T(1, 5))),
    Case("gate_by_column", lambda n: (T(n, 1), T(n, 4))),
    Case("append_fixed_rows", lambda n: (T(n, 4), T(3, 4))),
    Case("concat_two_batches", lambda n: (T(n, 4), T(n + 2, 4))),
    Case("stack_pair", lambda n: (T(n, 4), T(n, 4))),
    Case("broadcast_weights_to_batch", lambda n: (T(n, 3), T(3))),
    # reductions, sizes in arithmetic
    Case("reductions", lambda n: (T(n, 5),)),
    Case("reduce_two_dynamic_dims", lambda n: (T(n, n + 1),)),
    Case("normalize_by_numel", lambda n: (T(n, 3),)),
    Case("sizes_in_arithmetic", lambda n: (T(n, 3),)),
    Case("scale_by_sqrt_dim", lambda n: (T(2, n),)),
    Case("split_in_halves", lambda n: (T(n, 3),)),
    Case("top_half", lambda n: (T(3, n),)),
    # matmul and losses
    Case("batched_projection", lambda n: (T(n, 3, 4), T(4, 5))),
    Case("gram_matrices", lambda n: (T(n, 3, 4),)),
    Case("classification_loss", lambda n: (T(n, 5), T(n, dtype="int64", high=5))),
    # nn modules
    Case("linear_head", lambda n: (T(n, 4),), program="LinearHead"),
    Case("normed_mlp", lambda n: (T(n, 8),), program="NormedMLP"),
    Case("small_conv_net", lambda n: (T(n, 2, 5, 5),), program="SmallConvNet"),
    Case("conv_any_image_size", lambda n: (T(1, 2, n, n),), program="AnySizeConv"),
    Case("eval_batch_norm", lambda n: (T(n, 4),), program="EvalBatchNorm"),
    Case("token_and_position", lambda n: (T(2, n, dtype="int64"),), program="TokenAndPosition"),
    Case("gpt_block", lambda n: (T(2, n, 8),), program="GPTBlock"),
    # data-dependent
    Case("scale_by_item", lambda n: (T(n, 3),)),
    Case("count_positive_rows", lambda n: (T(n, 3),)),
    Case("sum_of_positives", lambda n: (T(n, 3),)),
]

CASES_BY_NAME = {case.name: case for case in CASES}


def build(lib):
    """Exec DYNAMIC_SRC with torch-like names bound to `lib` (torch or minitorch2)."""
    namespace = {"torch": lib, "nn": lib.nn, "F": lib.nn.functional}
    exec(compile(DYNAMIC_SRC, "<dynamic corpus>", "exec"), namespace)
    return namespace
