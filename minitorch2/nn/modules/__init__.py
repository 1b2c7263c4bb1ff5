"""The nn layer classes, one module per family (as torch.nn.modules)."""
from .activation import (ELU, GELU, CosineSimilarity, LeakyReLU, LogSigmoid, LogSoftmax, ReLU, ReLU6, Sigmoid,
                         SiLU, Softmax, Tanh, Upsample)
from .batchnorm import BatchNorm1d, BatchNorm2d
from .dropout import Dropout
from .container import ModuleDict, ModuleList, Sequential
from .conv import Conv1d, Conv2d
from .linear import Identity, Linear
from .loss import BCELoss, CrossEntropyLoss, L1Loss, MSELoss, NLLLoss
from .module import Module
from .normalization import LayerNorm
from .pooling import AdaptiveAvgPool2d, AvgPool2d, Flatten, MaxPool2d
from .rnn import GRU, LSTM, RNN, GRUCell, LSTMCell, RNNBase, RNNCell, RNNCellBase
from .transformer import (MultiheadAttention, Transformer, TransformerDecoder, TransformerDecoderLayer,
                          TransformerEncoder, TransformerEncoderLayer)
from .sparse import Embedding

__all__ = [
    "Module", "Linear", "Identity", "Conv1d", "Conv2d", "BatchNorm1d", "BatchNorm2d", "LayerNorm", "Embedding",
    "Dropout", "ReLU", "ReLU6", "ELU", "GELU", "SiLU", "Sigmoid", "Tanh", "LeakyReLU", "Softmax", "LogSoftmax", "Flatten",
    "MaxPool2d", "AvgPool2d", "AdaptiveAvgPool2d", "Sequential", "ModuleList", "ModuleDict", "CrossEntropyLoss",
    "NLLLoss", "MSELoss", "L1Loss", "BCELoss", "LogSigmoid", "Upsample", "CosineSimilarity", "RNNBase", "RNN", "LSTM",
    "GRU", "RNNCellBase", "RNNCell", "LSTMCell", "GRUCell", "MultiheadAttention", "Transformer", "TransformerEncoder",
    "TransformerDecoder", "TransformerEncoderLayer", "TransformerDecoderLayer",
]
