"""torch.nn.utils.memory_format: a model's 2-d (or 3-d) convolution weights moved to another memory format.

Runtime layer, coverage surface. Each Conv2d/ConvTranspose2d (Conv3d/ConvTranspose3d) below the module, itself
included, gets its weight's values in memory laid out in the given format (channels_last: channels innermost),
the Parameter kept.
"""
from ..modules.conv import Conv2d
from ..modules.conv_more import Conv3d, ConvTranspose2d, ConvTranspose3d


def _convert(module, memory_format, classes):
    if isinstance(module, classes):
        module.weight.data = module.weight.detach().clone(memory_format=memory_format)
    for child in module.children():
        _convert(child, memory_format, classes)
    return module


def convert_conv2d_weight_memory_format(module, memory_format):
    return _convert(module, memory_format, (Conv2d, ConvTranspose2d))


def convert_conv3d_weight_memory_format(module, memory_format):
    return _convert(module, memory_format, (Conv3d, ConvTranspose3d))
