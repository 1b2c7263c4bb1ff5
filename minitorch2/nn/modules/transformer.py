"""Attention and transformer layers (as torch.nn): MultiheadAttention, TransformerEncoderLayer,
TransformerDecoderLayer, TransformerEncoder, TransformerDecoder, Transformer.

Runtime library surface (coverage). Each follows torch's Python forwards:
MultiheadAttention calls `F.multi_head_attention_forward` (nn/_functional_apart.py,
torch's slow path; a compiled frame records it as one call, as Dynamo does), and
masks become additive float masks (-inf where a bool mask is True, as torch's
F._canonical_mask). In eval mode without gradients both layers take torch's
inference fast path where torch does, with its checks in its order: one
_native_multi_head_attention or _transformer_encoder_layer_fwd op (kernels in
_aten/nn_fused_transformer.py); under make_fx the slow path (torch's make_fx is a
torch-function mode), and a compiled MultiheadAttention the slow path made
contiguous (Dynamo answers torch's make_fx check with True), while a compiled
encoder layer keeps its one op.
Parameters are created and initialised in torch's order, so a seed gives the
same weights: out_proj (a Linear) first, then xavier_uniform_ on the packed
projection; a Transformer re-initialises every matrix with xavier_uniform_.
"""
import copy
import warnings

from ... import _factories, _functions
from ..._compile_markers import is_compiling
from ..._dispatch import current_modes
from ..._functions_fastpath import _native_multi_head_attention, _transformer_encoder_layer_fwd
from ...amp._state import is_autocast_enabled
from ...autograd.grad_mode import is_grad_enabled
from ...backends import mha
from .. import functional as F, init
from ..parameter import Parameter
from .container import ModuleList
from .linear import Linear, NonDynamicallyQuantizableLinear
from .module import Module
from .dropout import Dropout
from .normalization import LayerNorm


class MultiheadAttention(Module):
    def __init__(self, embed_dim, num_heads, dropout=0.0, bias=True, add_bias_kv=False, add_zero_attn=False,
                 kdim=None, vdim=None, batch_first=False, device=None, dtype=None):
        if embed_dim <= 0 or num_heads <= 0:
            raise ValueError(f"embed_dim and num_heads must be greater than 0, got embed_dim={embed_dim} and "
                             f"num_heads={num_heads} instead")
        super().__init__()
        self.embed_dim = embed_dim
        self.kdim, self.vdim = kdim if kdim is not None else embed_dim, vdim if vdim is not None else embed_dim
        self._qkv_same_embed_dim = self.kdim == embed_dim and self.vdim == embed_dim
        self.num_heads, self.dropout, self.batch_first = num_heads, dropout, batch_first
        self.head_dim = embed_dim // num_heads
        if self.head_dim * num_heads != embed_dim:
            raise AssertionError("embed_dim must be divisible by num_heads")
        if self._qkv_same_embed_dim:
            self.in_proj_weight = Parameter(_factories.empty(3 * embed_dim, embed_dim, dtype=dtype))
            for name in ("q_proj_weight", "k_proj_weight", "v_proj_weight"):
                self.register_parameter(name, None)
        else:  # keys and values of other sizes: a projection each
            self.q_proj_weight = Parameter(_factories.empty(embed_dim, embed_dim, dtype=dtype))
            self.k_proj_weight = Parameter(_factories.empty(embed_dim, self.kdim, dtype=dtype))
            self.v_proj_weight = Parameter(_factories.empty(embed_dim, self.vdim, dtype=dtype))
            self.register_parameter("in_proj_weight", None)
        if bias:
            self.in_proj_bias = Parameter(_factories.empty(3 * embed_dim, dtype=dtype))
        else:
            self.register_parameter("in_proj_bias", None)
        self.out_proj = NonDynamicallyQuantizableLinear(embed_dim, embed_dim, bias=bias, dtype=dtype)
        if add_bias_kv:
            self.bias_k = Parameter(_factories.empty(1, 1, embed_dim, dtype=dtype))
            self.bias_v = Parameter(_factories.empty(1, 1, embed_dim, dtype=dtype))
        else:
            self.bias_k = self.bias_v = None
        self.add_zero_attn = add_zero_attn
        self._reset_parameters()

    def _reset_parameters(self):
        for weight in ((self.in_proj_weight,) if self._qkv_same_embed_dim else
                       (self.q_proj_weight, self.k_proj_weight, self.v_proj_weight)):
            init.xavier_uniform_(weight)
        if self.in_proj_bias is not None:
            init.constant_(self.in_proj_bias, 0.0)
            init.constant_(self.out_proj.bias, 0.0)
        if self.bias_k is not None:
            init.xavier_normal_(self.bias_k)
            init.xavier_normal_(self.bias_v)

    def forward(self, query, key, value, key_padding_mask=None, need_weights=True, attn_mask=None,
                average_attn_weights=True, is_causal=False):
        # torch's order of checks, which is also the order a compiled graph first reads (and lists) the tensors
        why_not_fast_path = _is_float(attn_mask) or _is_float(key_padding_mask)
        is_batched = query.dim() == 3
        key_padding_mask = F._canonical_mask(key_padding_mask, "key_padding_mask", F._none_or_dtype(attn_mask),
                                             "attn_mask", query.dtype)
        attn_mask = F._canonical_mask(attn_mask, "attn_mask", None, "", query.dtype, check_other=False)
        why_not_fast_path = why_not_fast_path or self._why_no_fast_path(query, key, value, is_batched)
        blocked_by_tracing = False
        if not why_not_fast_path:
            tensors = (query, key, value, self.in_proj_weight, self.in_proj_bias, self.out_proj.weight,
                       self.out_proj.bias)
            if _is_make_fx_tracing():  # (torch's make_fx is a torch-function mode: has_torch_function stops it)
                why_not_fast_path = True
            elif is_grad_enabled() and any(t is not None and t.requires_grad for t in tensors):
                why_not_fast_path = True
            elif is_compiling():  # Dynamo answers torch's _is_make_fx_tracing() with True
                why_not_fast_path = blocked_by_tracing = True
            if not why_not_fast_path:
                merged_mask, mask_type = self.merge_masks(attn_mask, key_padding_mask, query)
                if self.in_proj_bias is not None and self.in_proj_weight is not None:
                    return _native_multi_head_attention(
                        query, key, value, self.embed_dim, self.num_heads, self.in_proj_weight, self.in_proj_bias,
                        self.out_proj.weight, self.out_proj.bias, merged_mask, need_weights, average_attn_weights,
                        mask_type)
        if self.batch_first and is_batched:  # (one tensor is transposed once: the packed projection tells
            if key is value:  # self-attention and encoder-decoder attention apart by identity)
                if query is key:
                    query = key = value = query.transpose(1, 0)
                else:
                    query, key = (x.transpose(1, 0) for x in (query, key))
                    value = key
            else:
                query, key, value = (x.transpose(1, 0) for x in (query, key, value))
        separate = {} if self._qkv_same_embed_dim else dict(
            use_separate_proj_weight=True, q_proj_weight=self.q_proj_weight, k_proj_weight=self.k_proj_weight,
            v_proj_weight=self.v_proj_weight)
        attn_output, attn_output_weights = F.multi_head_attention_forward(
            query, key, value, self.embed_dim, self.num_heads, self.in_proj_weight, self.in_proj_bias, self.bias_k,
            self.bias_v, self.add_zero_attn, self.dropout, self.out_proj.weight, self.out_proj.bias,
            training=self.training, key_padding_mask=key_padding_mask, need_weights=need_weights,
            attn_mask=attn_mask, average_attn_weights=average_attn_weights, is_causal=is_causal, **separate)
        if self.batch_first and is_batched:
            attn_output = attn_output.transpose(1, 0)
            if blocked_by_tracing:  # torch keeps the traced slow path's layout the fast path's
                attn_output = attn_output.contiguous()
        return attn_output, attn_output_weights

    def _why_no_fast_path(self, query, key, value, is_batched):
        """Whether torch's checks (before those on the tensors themselves) keep this call off the fast path."""
        return (not mha.get_fastpath_enabled() or not is_batched or query is not key or key is not value
                or (self.in_proj_bias is not None and query.dtype != self.in_proj_bias.dtype)
                or self.in_proj_weight is None or query.dtype != self.in_proj_weight.dtype or self.training
                or self.num_heads % 2 != 0 or not self.batch_first or self.bias_k is not None
                or self.bias_v is not None or self.add_zero_attn or not self._qkv_same_embed_dim
                or is_autocast_enabled())

    def merge_masks(self, attn_mask, key_padding_mask, query):
        """The fast path's one mask and its type: 1 a key padding mask alone; 2 an attention mask, expanded to
        (batch, heads, length, length), the padding mask added if there is one; (None, None) without masks."""
        if attn_mask is None:
            return key_padding_mask, None if key_padding_mask is None else 1
        batch_size, seq_len, _ = query.shape  # (the locals' names are the compiled graph's node names)
        if attn_mask.dim() == 3:
            attn_mask_expanded = attn_mask.view(batch_size, -1, seq_len, seq_len)
        else:
            attn_mask_expanded = attn_mask.view(1, 1, seq_len, seq_len).expand(batch_size, self.num_heads, -1, -1)
        if key_padding_mask is None:
            return attn_mask_expanded, 2
        key_padding_mask_expanded = key_padding_mask.view(batch_size, 1, 1, seq_len).expand(-1, self.num_heads, -1, -1)
        merged_mask = attn_mask_expanded + key_padding_mask_expanded
        return merged_mask, 2


def _has_hooks(module):
    """Whether module or a module under it has forward (pre-)hooks (named_modules' memo set would stop a compile)."""
    return len(module._forward_hooks) + len(module._forward_pre_hooks) > 0 or any(
        _has_hooks(child) for child in module._modules.values() if child is not None)


def _is_float(mask):
    return mask is not None and mask.is_floating_point()


def _is_make_fx_tracing():
    """Whether make_fx records the ops now (its mode on the dispatcher's stack; torch checks the mode's type).
    A compiled frame does not look (its graph is traced by AOT later)."""
    return not is_compiling() and any(type(mode).__name__ == "ProxyTorchDispatchMode" for mode in current_modes())


def _activation(activation):
    if activation == "relu":
        return F.relu
    if activation == "gelu":
        return F.gelu
    if isinstance(activation, str):
        raise RuntimeError(f"activation should be relu/gelu, not {activation}")
    return activation


class TransformerEncoderLayer(Module):
    def __init__(self, d_model, nhead, dim_feedforward=2048, dropout=0.1, activation="relu", layer_norm_eps=1e-5,
                 batch_first=False, norm_first=False, bias=True, device=None, dtype=None):
        super().__init__()
        self.self_attn = MultiheadAttention(d_model, nhead, dropout=dropout, bias=bias, batch_first=batch_first,
                                            dtype=dtype)
        self.linear1 = Linear(d_model, dim_feedforward, bias=bias, dtype=dtype)
        self.dropout = Dropout(dropout)
        self.linear2 = Linear(dim_feedforward, d_model, bias=bias, dtype=dtype)
        self.norm_first = norm_first
        self.norm1 = LayerNorm(d_model, eps=layer_norm_eps, bias=bias, dtype=dtype)
        self.norm2 = LayerNorm(d_model, eps=layer_norm_eps, bias=bias, dtype=dtype)
        self.dropout1, self.dropout2 = Dropout(dropout), Dropout(dropout)
        self.activation = _activation(activation)
        from .activation import GELU, ReLU  # deferred: activation.py imports this module (MultiheadAttention)
        kinds = {F.relu: 1, F.gelu: 2}  # (torch's flag for its fused inference path: 1 relu, 2 gelu, 0 other)
        self.activation_relu_or_gelu = 1 if isinstance(self.activation, ReLU) else 2 if isinstance(
            self.activation, GELU) else kinds.get(self.activation, 0)

    def forward(self, src, src_mask=None, src_key_padding_mask=None, is_causal=False):
        src_key_padding_mask = F._canonical_mask(src_key_padding_mask, "src_key_padding_mask",
                                                 F._none_or_dtype(src_mask), "src_mask", src.dtype)
        src_mask = F._canonical_mask(src_mask, "src_mask", None, "", src.dtype, check_other=False)
        if self._takes_fast_path(src):
            attention = self.self_attn
            merged_mask, mask_type = attention.merge_masks(src_mask, src_key_padding_mask, src)
            return _transformer_encoder_layer_fwd(
                src, attention.embed_dim, attention.num_heads, attention.in_proj_weight, attention.in_proj_bias,
                attention.out_proj.weight, attention.out_proj.bias, self.activation_relu_or_gelu == 2,
                self.norm_first, self.norm1.eps, self.norm1.weight, self.norm1.bias, self.norm2.weight,
                self.norm2.bias, self.linear1.weight, self.linear1.bias, self.linear2.weight, self.linear2.bias,
                merged_mask, mask_type)
        x = src  # (the locals' names, x each time, are the compiled graph's node names)
        if self.norm_first:
            x = x + self._sa_block(self.norm1(x), src_mask, src_key_padding_mask, is_causal)
            x = x + self._ff_block(self.norm2(x))
        else:
            x = self.norm1(x + self._sa_block(x, src_mask, src_key_padding_mask, is_causal))
            x = self.norm2(x + self._ff_block(x))
        return x

    def _takes_fast_path(self, src):
        """torch's checks, in its order (a compiled frame reads the parameters in it), for the one fused op; unlike
        MultiheadAttention's, a compiled frame keeps it (only make_fx, a torch-function mode there, does not)."""
        attention = self.self_attn
        if (not mha.get_fastpath_enabled() or src.dim() != 3 or self.training or not attention.batch_first
                or attention.in_proj_bias is None or not attention._qkv_same_embed_dim
                or not self.activation_relu_or_gelu or self.norm1.eps != self.norm2.eps
                or attention.num_heads % 2 == 1 or is_autocast_enabled()
                or _has_hooks(self)):
            return False
        tensors = (src, attention.in_proj_weight, attention.in_proj_bias, attention.out_proj.weight,
                   attention.out_proj.bias, self.norm1.weight, self.norm1.bias, self.norm2.weight, self.norm2.bias,
                   self.linear1.weight, self.linear1.bias, self.linear2.weight, self.linear2.bias)
        return not (_is_make_fx_tracing() or is_grad_enabled() and any(t.requires_grad for t in tensors))

    def _sa_block(self, x, attn_mask, key_padding_mask, is_causal=False):
        x = self.self_attn(x, x, x, attn_mask=attn_mask, key_padding_mask=key_padding_mask, need_weights=False,
                           is_causal=is_causal)[0]
        return self.dropout1(x)

    def _ff_block(self, x):
        x = self.linear2(self.dropout(self.activation(self.linear1(x))))
        return self.dropout2(x)


class TransformerDecoderLayer(Module):
    def __init__(self, d_model, nhead, dim_feedforward=2048, dropout=0.1, activation="relu", layer_norm_eps=1e-5,
                 batch_first=False, norm_first=False, bias=True, device=None, dtype=None):
        super().__init__()
        self.self_attn = MultiheadAttention(d_model, nhead, dropout=dropout, bias=bias, batch_first=batch_first,
                                            dtype=dtype)
        self.multihead_attn = MultiheadAttention(d_model, nhead, dropout=dropout, bias=bias, batch_first=batch_first,
                                                 dtype=dtype)
        self.linear1 = Linear(d_model, dim_feedforward, bias=bias, dtype=dtype)
        self.dropout = Dropout(dropout)
        self.linear2 = Linear(dim_feedforward, d_model, bias=bias, dtype=dtype)
        self.norm_first = norm_first
        self.norm1 = LayerNorm(d_model, eps=layer_norm_eps, bias=bias, dtype=dtype)
        self.norm2 = LayerNorm(d_model, eps=layer_norm_eps, bias=bias, dtype=dtype)
        self.norm3 = LayerNorm(d_model, eps=layer_norm_eps, bias=bias, dtype=dtype)
        self.dropout1, self.dropout2, self.dropout3 = Dropout(dropout), Dropout(dropout), Dropout(dropout)
        self.activation = _activation(activation)

    def forward(self, tgt, memory, tgt_mask=None, memory_mask=None, tgt_key_padding_mask=None,
                memory_key_padding_mask=None, tgt_is_causal=False, memory_is_causal=False):
        x = tgt
        if self.norm_first:
            x = x + self._sa_block(self.norm1(x), tgt_mask, tgt_key_padding_mask, tgt_is_causal)
            x = x + self._mha_block(self.norm2(x), memory, memory_mask, memory_key_padding_mask, memory_is_causal)
            return x + self._ff_block(self.norm3(x))
        x = self.norm1(x + self._sa_block(x, tgt_mask, tgt_key_padding_mask, tgt_is_causal))
        x = self.norm2(x + self._mha_block(x, memory, memory_mask, memory_key_padding_mask, memory_is_causal))
        return self.norm3(x + self._ff_block(x))

    def _sa_block(self, x, attn_mask, key_padding_mask, is_causal=False):
        x = self.self_attn(x, x, x, attn_mask=attn_mask, key_padding_mask=key_padding_mask, is_causal=is_causal,
                           need_weights=False)[0]
        return self.dropout1(x)

    def _mha_block(self, x, mem, attn_mask, key_padding_mask, is_causal=False):
        x = self.multihead_attn(x, mem, mem, attn_mask=attn_mask, key_padding_mask=key_padding_mask,
                                is_causal=is_causal, need_weights=False)[0]
        return self.dropout2(x)

    def _ff_block(self, x):
        return self.dropout3(self.linear2(self.dropout(self.activation(self.linear1(x)))))


def _clones(module, n):
    return ModuleList([copy.deepcopy(module) for _ in range(n)])


class TransformerEncoder(Module):
    def __init__(self, encoder_layer, num_layers, norm=None, enable_nested_tensor=True, mask_check=True):
        super().__init__()
        self.layers = _clones(encoder_layer, num_layers)
        self.num_layers, self.norm = num_layers, norm
        self.enable_nested_tensor = self.use_nested_tensor = enable_nested_tensor
        self.mask_check = mask_check
        why_not = _why_no_nested_tensor(encoder_layer)
        if enable_nested_tensor and why_not:
            warnings.warn(f"enable_nested_tensor is True, but self.use_nested_tensor is False because {why_not}",
                          stacklevel=2)
            self.use_nested_tensor = False

    def forward(self, src, mask=None, src_key_padding_mask=None, is_causal=None):
        src_key_padding_mask = F._canonical_mask(src_key_padding_mask, "src_key_padding_mask", F._none_or_dtype(mask),
                                                 "mask", src.dtype)
        mask = F._canonical_mask(mask, "mask", None, "", src.dtype, check_other=False)
        nested = self._takes_nested_path(src, mask, src_key_padding_mask)
        is_causal = _detect_is_causal_mask(mask, is_causal, src.size(1 if self.layers[0].self_attn.batch_first else 0)
                                           if src.dim() == 3 else src.size(0))
        output = src
        for layer in self.layers:
            output = layer(output, src_mask=mask, is_causal=is_causal, src_key_padding_mask=src_key_padding_mask)
        if nested:  # torch runs the layers over the unpadded tokens only, then pads the result with zeros
            output = output.masked_fill(src_key_padding_mask.bool().unsqueeze(-1), 0.0)
        return self.norm(output) if self.norm is not None else output

    def _takes_nested_path(self, src, mask, src_key_padding_mask):
        """Whether torch's inference fast path turns src into a nested tensor of its unpadded tokens: in eval
        mode, with a padding mask (left aligned, checked only when not compiling) and no attention mask, and no
        parameter needing a gradient."""
        first = self.layers[0]
        if not (mha.get_fastpath_enabled() and self.use_nested_tensor and not first.training and src.dim() == 3
                and src_key_padding_mask is not None):
            return False
        if self.mask_check and (is_compiling() or not _left_aligned(src_key_padding_mask.logical_not())):
            return False
        if mask is not None or is_autocast_enabled():
            return False
        return not (is_grad_enabled() and (src.requires_grad or any(p.requires_grad for p in first.parameters())))


def _why_no_nested_tensor(layer):
    """torch's reasons, in its order, why a TransformerEncoder of these layers cannot use nested tensors."""
    name = "encoder_layer"
    if not isinstance(layer, TransformerEncoderLayer):
        return f"{name} was not TransformerEncoderLayer"
    reasons = [(layer.norm_first, f"{name}.norm_first was True"),
               (not layer.self_attn.batch_first,
                f"{name}.self_attn.batch_first was not True(use batch_first for better inference performance)"),
               (not layer.self_attn._qkv_same_embed_dim, f"{name}.self_attn._qkv_same_embed_dim was not True"),
               (layer.self_attn.in_proj_bias is None, f"{name}.self_attn was passed bias=False"),
               (not layer.activation_relu_or_gelu, f"{name}.activation_relu_or_gelu was not True"),
               (layer.norm1.eps != layer.norm2.eps, f"{name}.norm1.eps was not equal to {name}.norm2.eps"),
               (layer.self_attn.num_heads % 2 == 1, f"{name}.self_attn.num_heads is odd")]
    return next((reason for failed, reason in reasons if failed), "")


def _left_aligned(valid):
    """Whether each row of a (batch, length) mask of valid tokens is True then False (no gap, no leading pad)."""
    lengths = valid.sum(1, keepdim=True)
    return bool((valid == (_factories.arange(valid.size(1)) < lengths)).all())


def _detect_is_causal_mask(mask, is_causal, size):
    """torch's rule: a given hint stands; without one, a mask equal to the square subsequent mask is causal."""
    if is_causal is not None or mask is None:
        return is_causal is True
    causal = Transformer.generate_square_subsequent_mask(size, dtype=mask.dtype)
    return mask.size() == causal.size() and bool((mask == causal).all())


class TransformerDecoder(Module):
    def __init__(self, decoder_layer, num_layers, norm=None):
        super().__init__()
        self.layers = _clones(decoder_layer, num_layers)
        self.num_layers, self.norm = num_layers, norm

    def forward(self, tgt, memory, tgt_mask=None, memory_mask=None, tgt_key_padding_mask=None,
                memory_key_padding_mask=None, tgt_is_causal=None, memory_is_causal=False):
        output = tgt
        for layer in self.layers:
            output = layer(output, memory, tgt_mask=tgt_mask, memory_mask=memory_mask,
                           tgt_key_padding_mask=tgt_key_padding_mask, memory_key_padding_mask=memory_key_padding_mask,
                           tgt_is_causal=bool(tgt_is_causal), memory_is_causal=memory_is_causal)
        return self.norm(output) if self.norm is not None else output


class Transformer(Module):
    def __init__(self, d_model=512, nhead=8, num_encoder_layers=6, num_decoder_layers=6, dim_feedforward=2048,
                 dropout=0.1, activation="relu", custom_encoder=None, custom_decoder=None, layer_norm_eps=1e-5,
                 batch_first=False, norm_first=False, bias=True, device=None, dtype=None):
        super().__init__()
        options = dict(dim_feedforward=dim_feedforward, dropout=dropout, activation=activation,
                       layer_norm_eps=layer_norm_eps, batch_first=batch_first, norm_first=norm_first, bias=bias,
                       dtype=dtype)
        self.encoder = custom_encoder if custom_encoder is not None else TransformerEncoder(
            TransformerEncoderLayer(d_model, nhead, **options), num_encoder_layers,
            LayerNorm(d_model, eps=layer_norm_eps, bias=bias, dtype=dtype))
        self.decoder = custom_decoder if custom_decoder is not None else TransformerDecoder(
            TransformerDecoderLayer(d_model, nhead, **options), num_decoder_layers,
            LayerNorm(d_model, eps=layer_norm_eps, bias=bias, dtype=dtype))
        for p in self.parameters():
            if p.dim() > 1:
                init.xavier_uniform_(p)
        self.d_model, self.nhead, self.batch_first = d_model, nhead, batch_first

    def forward(self, src, tgt, src_mask=None, tgt_mask=None, memory_mask=None, src_key_padding_mask=None,
                tgt_key_padding_mask=None, memory_key_padding_mask=None, src_is_causal=None, tgt_is_causal=None,
                memory_is_causal=False):
        batched = src.dim() == 3
        if not self.batch_first and src.size(1) != tgt.size(1) and batched:
            raise RuntimeError("the batch number of src and tgt must be equal")
        if self.batch_first and src.size(0) != tgt.size(0) and batched:
            raise RuntimeError("the batch number of src and tgt must be equal")
        if src.size(-1) != self.d_model or tgt.size(-1) != self.d_model:
            raise RuntimeError("the feature number of src and tgt must be equal to d_model")
        memory = self.encoder(src, mask=src_mask, src_key_padding_mask=src_key_padding_mask, is_causal=src_is_causal)
        return self.decoder(tgt, memory, tgt_mask=tgt_mask, memory_mask=memory_mask,
                            tgt_key_padding_mask=tgt_key_padding_mask,
                            memory_key_padding_mask=memory_key_padding_mask, tgt_is_causal=tgt_is_causal,
                            memory_is_causal=memory_is_causal)

    @staticmethod
    def generate_square_subsequent_mask(sz, device=None, dtype=None):
        return _functions.triu(_factories.full((sz, sz), float("-inf"), dtype=dtype), diagonal=1)
