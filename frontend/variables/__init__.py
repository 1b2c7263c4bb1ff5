"""Variable trackers: the translator's values. See base.py for the idea; builder.py decides which one a value gets."""
from .base import LazyVariableTracker, NullVariable
from .builder import wrap
from .builtin import BuiltinVariable, binary_op, unary_op
from .constant import ConstantVariable
from .ctx_manager import GradModeExitVariable, GradModeVariable
from .dicts import DictVariable, dict_items
from .functions import CellVariable, NestedUserFunctionVariable, UserFunctionVariable, UserMethodVariable
from .lists import BaseListVariable, ListIteratorVariable, ListVariable, TupleVariable
from .nn_module import NNModuleVariable
from .tensor import TensorVariable
