"""OptimizerVariable: a torch.optim optimizer read by a compiled frame, as Dynamo's variables/optimizer.py treats it.

Frontend layer, beside UserObjectVariable (which it is, plus four rules). Dynamo inlines torch.optim, with these
differences, which decide where a compiled training step breaks and what its optimizer graph holds:

    opt.zero_grad()        a graph break: torch's zero_grad is @torch._disable_dynamo (it runs natively)
    opt.step()             inlined until the graph_break() of its grad-mode wrapper; the updates are a graph of their
                           own, captured under no_grad in the step's frame (eager_frame routes it there)
    self._init_group(g)    run now, for real, outside the graph: the state it makes is read as graph inputs
    self.state[p]          the parameter's state dict, read through its source (`L['self'].state[<p's source>]`) and
                           guarded on its keys, so a step that adds state (SGD's momentum buffer) recompiles once
    group["capturable"]    read as True in a traced group that has the key (Dynamo's _set_capturable; the optimizers
                           ask optim/optimizer.py's capturable()): the updates take their capturable branch

Only the optimizers whose compiled step is modelled (TRACED_OPTIMIZERS: their update as torch's, op for op) are
traced; a compiled frame breaks at any other (SparseAdam, LBFGS), whose step then runs eagerly.

An lr scheduler's methods live in torch's lr_scheduler.py, a file Dynamo skips: each call is a graph break, and so
is a call of the step wrapper a scheduler installs on its optimizer (whose step then compiles as its own frame).
"""
import types

import minitorch2

from ..exc import Unsupported
from ..source import AttrSource, GetItemSource, Source, attr_source
from .base import VariableTracker
from .constant import ConstantVariable
from .functions import DisabledFunctionVariable, UserMethodVariable
from .user_defined import UserObjectVariable


# the optimizers whose compiled step is modelled as torch's (its ops and its state read outside the graph)
TRACED_OPTIMIZERS = ("SGD", "Adam", "AdamW", "Adamax", "NAdam", "RAdam", "Adagrad", "Adadelta", "RMSprop", "Rprop",
                     "ASGD")


def optim_tracker(value):
    """The tracker class for an optimizer or an lr scheduler; None for anything else."""
    if isinstance(value, minitorch2.optim.Optimizer):
        return OptimizerVariable if type(value).__name__ in TRACED_OPTIMIZERS else None
    if isinstance(value, minitorch2.optim.lr_scheduler.LRScheduler):
        return LRSchedulerVariable
    return None


class OptimizerVariable(UserObjectVariable):
    def var_getattr(self, tx, name):
        if name == "state":
            return OptimizerStateVariable(self, attr_source(self.source, "state"))
        if name == "_init_group":
            return InitGroupVariable(self)
        method = getattr(type(self.value), name, None)
        if getattr(method, "_torchdynamo_disable", False):
            return UserMethodVariable(DisabledFunctionVariable(method), self)
        return super().var_getattr(tx, name)

    def param_groups_by_source(self):
        """Each param group's source name -> the group, and each parameter's source name -> the parameter."""
        groups, params = {}, {}
        for i, group in enumerate(self.value.param_groups):
            group_source = GetItemSource(AttrSource(self.source, "param_groups"), i)
            groups[group_source.name()] = group
            for j, param in enumerate(group["params"]):
                params[f"{group_source.name()}['params'][{j}]"] = param
        return groups, params

    def __repr__(self):
        return f"OptimizerVariable({type(self.value).__name__})"


class LRSchedulerVariable(UserObjectVariable):
    """An lr scheduler: torch's lr_scheduler.py is a file Dynamo skips, so a call of any of its methods is a graph
    break (the method runs natively); its attributes read as any object's."""

    def var_getattr(self, tx, name):
        method = getattr(type(self.value), name, None)
        if isinstance(method, types.FunctionType):
            return UserMethodVariable(DisabledFunctionVariable(method), self)
        return super().var_getattr(tx, name)


class ParamStateSource(Source):
    """`L['self'].state[L['self'].param_groups[0]['params'][1]]`: one parameter's state, keyed by the tensor."""

    def __init__(self, state_source, param_source):
        self.state_source, self.param_source = state_source, param_source

    def name(self):
        return f"{self.state_source.name()}[{self.param_source.name()}]"


def _real_value(by_source, var, what):
    var = var.realize()
    value = by_source.get(var.source.name()) if var.source is not None else None
    if value is None:
        raise Unsupported(f"an optimizer's {what} not read from its param_groups", "unsupported")
    return value


class OptimizerStateVariable(VariableTracker):
    """`self.state`: indexed by a parameter read from `self.param_groups`."""

    def __init__(self, optimizer_var, source):
        super().__init__(source)
        self.optimizer_var = optimizer_var

    def getitem(self, tx, key):
        param = _real_value(self.optimizer_var.param_groups_by_source()[1], key, "state key")
        state = self.optimizer_var.value.state[param]  # (a defaultdict: the missing entry is made, as eagerly)
        return tx.output.wrap(state, ParamStateSource(self.source, key.realize().source))

    def call_method(self, tx, name, args, kwargs):
        if name == "__getitem__":
            return self.getitem(tx, args[0])
        raise Unsupported(f"optimizer.state.{name}", "unsupported_call")


class InitGroupVariable(VariableTracker):
    def __init__(self, optimizer_var):
        super().__init__()
        self.optimizer_var = optimizer_var

    def call_function(self, tx, args, kwargs):
        group = _real_value(self.optimizer_var.param_groups_by_source()[0], args[0], "param group")
        self.optimizer_var.value._init_group(group)
        return ConstantVariable(None)
