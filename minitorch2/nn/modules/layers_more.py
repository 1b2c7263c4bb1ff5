"""The nn layers beyond the core set, gathered in one place: nn/modules/__init__.py imports this module once.

Runtime layer, coverage surface. One module per family, as torch.nn.modules has them, each listing its own names:
more activations, parameter containers, transposed and 3-d convolutions, group/instance/RMS/local-response norms,
padding layers, 3-d pooling and unpooling, pixel shuffle, EmbeddingBag, CTCLoss, the lazy layers and the layers
issue 20 found missing (RReLU, ChannelShuffle, SyncBatchNorm, ...).
"""
from . import activation_more, container_more, conv_more, loss_more, normalization_more, padding, pixelshuffle
from . import lazy, layers_missing, pooling_more, sparse_more, utils  # (utils: torch.nn.modules.utils, an attribute)
from .activation_more import *  # noqa: F401,F403
from .container_more import *  # noqa: F401,F403
from .conv_more import *  # noqa: F401,F403
from .lazy import *  # noqa: F401,F403
from .layers_missing import *  # noqa: F401,F403
from .loss_more import *  # noqa: F401,F403
from .normalization_more import *  # noqa: F401,F403
from .padding import *  # noqa: F401,F403
from .pooling_more import *  # noqa: F401,F403
from .pixelshuffle import *  # noqa: F401,F403
from .sparse_more import *  # noqa: F401,F403

__all__ = [name for family in (activation_more, container_more, conv_more, lazy, layers_missing, loss_more,
                               normalization_more, padding, pixelshuffle, pooling_more, sparse_more)
           for name in family.__all__]
