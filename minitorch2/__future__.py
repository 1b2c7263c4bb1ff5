"""torch.__future__: the switches for how nn.Module.to / .double() / ._apply convert parameters.

Runtime library surface, read by nn.Module's conversion (nn/modules/module_more.py). By default, and with
`set_swap_module_params_on_conversion(True)` (torch swaps the converted tensor into the parameter object), a
parameter keeps its identity across a conversion; with `set_overwrite_module_params_on_conversion(True)` the module
gets new Parameter objects, as torch's.
"""
_overwrite_module_params_on_conversion = False
_swap_module_params_on_conversion = False


def set_overwrite_module_params_on_conversion(value):
    global _overwrite_module_params_on_conversion
    _overwrite_module_params_on_conversion = value


def get_overwrite_module_params_on_conversion():
    return _overwrite_module_params_on_conversion


def set_swap_module_params_on_conversion(value):
    global _swap_module_params_on_conversion
    _swap_module_params_on_conversion = value


def get_swap_module_params_on_conversion():
    return _swap_module_params_on_conversion
