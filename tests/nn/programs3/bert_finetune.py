"""HF-style BERT encoder fine-tuned with AdamW and a linear-warmup LambdaLR; eval under no_grad / inference_mode."""

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class BertSelfAttention(nn.Module):
    def __init__(self, hidden, heads, dropout):
        super().__init__()
        self.heads = heads
        self.head_dim = hidden // heads
        self.query = nn.Linear(hidden, hidden)
        self.key = nn.Linear(hidden, hidden)
        self.value = nn.Linear(hidden, hidden)
        self.dropout_p = dropout

    def split(self, x):
        b, s, _ = x.size()
        return x.view(b, s, self.heads, self.head_dim).permute(0, 2, 1, 3)

    def forward(self, hidden_states, attention_mask):
        q, k, v = self.split(self.query(hidden_states)), self.split(self.key(hidden_states)), \
            self.split(self.value(hidden_states))
        out = F.scaled_dot_product_attention(q, k, v, attn_mask=attention_mask,
                                             dropout_p=self.dropout_p if self.training else 0.0)
        b, h, s, d = out.shape
        return out.transpose(1, 2).contiguous().view(b, s, h * d)


class BertLayer(nn.Module):
    def __init__(self, hidden, heads, intermediate, dropout=0.1):
        super().__init__()
        self.attention = BertSelfAttention(hidden, heads, dropout)
        self.attn_out = nn.Linear(hidden, hidden)
        self.attn_norm = nn.LayerNorm(hidden, eps=1e-12)
        self.intermediate = nn.Linear(hidden, intermediate)
        self.output = nn.Linear(intermediate, hidden)
        self.out_norm = nn.LayerNorm(hidden, eps=1e-12)
        self.dropout = nn.Dropout(dropout)

    def forward(self, x, mask):
        a = self.attn_norm(x + self.dropout(self.attn_out(self.attention(x, mask))))
        h = F.gelu(self.intermediate(a), approximate="tanh")
        return self.out_norm(a + self.dropout(self.output(h)))


class BertForSequenceClassification(nn.Module):
    def __init__(self, vocab=50, hidden=32, heads=4, layers=2, max_pos=16, classes=3):
        super().__init__()
        self.word_embeddings = nn.Embedding(vocab, hidden, padding_idx=0)
        self.position_embeddings = nn.Embedding(max_pos, hidden)
        self.token_type_embeddings = nn.Embedding(2, hidden)
        self.emb_norm = nn.LayerNorm(hidden, eps=1e-12)
        self.emb_dropout = nn.Dropout(0.1)
        self.register_buffer("position_ids", torch.arange(max_pos).expand((1, -1)), persistent=False)
        self.layers = nn.ModuleList([BertLayer(hidden, heads, 4 * hidden) for _ in range(layers)])
        self.pooler = nn.Linear(hidden, hidden)
        self.classifier = nn.Linear(hidden, classes)
        self.apply(self._init_weights)

    def _init_weights(self, module):
        if isinstance(module, nn.Linear):
            module.weight.data.normal_(mean=0.0, std=0.02)
            if module.bias is not None:
                module.bias.data.zero_()
        elif isinstance(module, nn.Embedding):
            module.weight.data.normal_(mean=0.0, std=0.02)
            if module.padding_idx is not None:
                module.weight.data[module.padding_idx].zero_()
        elif isinstance(module, nn.LayerNorm):
            module.bias.data.zero_()
            module.weight.data.fill_(1.0)

    def get_extended_attention_mask(self, attention_mask, dtype):
        extended = attention_mask[:, None, None, :].to(dtype=dtype)
        return (1.0 - extended) * torch.finfo(dtype).min

    def forward(self, input_ids, attention_mask, token_type_ids=None):
        seq = input_ids.shape[1]
        if token_type_ids is None:
            token_type_ids = torch.zeros_like(input_ids)
        x = self.word_embeddings(input_ids) + self.position_embeddings(self.position_ids[:, :seq]) \
            + self.token_type_embeddings(token_type_ids)
        x = self.emb_dropout(self.emb_norm(x))
        mask = self.get_extended_attention_mask(attention_mask, x.dtype)
        for layer in self.layers:
            x = layer(x, mask)
        pooled = torch.tanh(self.pooler(x[:, 0]))
        return self.classifier(pooled)


def linear_warmup(warmup, total):
    def lr_lambda(step):
        if step < warmup:
            return float(step) / float(max(1, warmup))
        return max(0.0, float(total - step) / float(max(1, total - warmup)))
    return lr_lambda


model = BertForSequenceClassification()
lengths = torch.tensor([8, 5, 6, 3])
input_ids = torch.randint(1, 50, (4, 8))
attention_mask = (torch.arange(8)[None, :] < lengths[:, None]).long()
input_ids = input_ids.masked_fill(attention_mask == 0, 0)
labels = torch.tensor([0, 2, 1, 2])
print("mask", attention_mask.tolist())
print("extended min", model.get_extended_attention_mask(attention_mask, torch.float32)[1, 0, 0].tolist())

no_decay = ["bias", "norm.weight"]
groups = [
    {"params": [p for n, p in model.named_parameters() if not any(nd in n for nd in no_decay)], "weight_decay": 0.01},
    {"params": [p for n, p in model.named_parameters() if any(nd in n for nd in no_decay)], "weight_decay": 0.0},
]
optimizer = torch.optim.AdamW(groups, lr=5e-3, eps=1e-8)
scheduler = torch.optim.lr_scheduler.LambdaLR(optimizer, linear_warmup(2, 5))
for step in range(5):
    model.train()
    logits = model(input_ids, attention_mask)
    loss = F.cross_entropy(logits, labels)
    loss.backward()
    torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
    optimizer.step()
    scheduler.step()
    optimizer.zero_grad(set_to_none=True)
    print(f"step {step} loss {loss.item():.4f} lr {scheduler.get_last_lr()[0]:.6f}")

model.eval()
with torch.no_grad():
    logits = model(input_ids, attention_mask)
    print("eval logits", logits.round(decimals=4))
    print("preds", logits.argmax(-1).tolist(), "acc", (logits.argmax(-1) == labels).float().mean().item())
with torch.inference_mode():
    probs = model(input_ids, attention_mask).softmax(-1)
    print("inference probs", probs.round(decimals=4), probs.is_inference(), probs.requires_grad)

compiled = torch.compile(model, backend="aot_eager")
with torch.no_grad():
    out = compiled(input_ids, attention_mask)
print("compiled eval close", torch.allclose(out, logits, atol=1e-5), out.shape)
