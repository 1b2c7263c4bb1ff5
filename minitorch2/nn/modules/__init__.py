"""The nn layer classes, one module per family (as torch.nn.modules)."""
from .activation import (ELU, GELU, LeakyReLU, LogSigmoid, LogSoftmax, ReLU, ReLU6, Sigmoid, SiLU, Softmax,
                         Tanh)
from .batchnorm import BatchNorm1d, BatchNorm2d
from .dropout import Dropout
from .container import ModuleDict, ModuleList, Sequential
from .conv import Conv1d, Conv2d
from .linear import Identity, Linear
from .loss import *  # noqa: F401,F403
from .module import Module
from .normalization import LayerNorm
from .pooling import *  # noqa: F401,F403
from .rnn import GRU, LSTM, RNN, GRUCell, LSTMCell, RNNBase, RNNCell, RNNCellBase
from .transformer import (MultiheadAttention, Transformer, TransformerDecoder, TransformerDecoderLayer,
                          TransformerEncoder, TransformerEncoderLayer)
from .sparse import Embedding
from .distance import CosineSimilarity
from .upsampling import Upsample, UpsamplingBilinear2d, UpsamplingNearest2d
from .layers_more import *  # noqa: F401,F403  (the layers beyond the core set, one module per family)

__all__ = [name for name, value in globals().items() if isinstance(value, type) and issubclass(value, Module)]
