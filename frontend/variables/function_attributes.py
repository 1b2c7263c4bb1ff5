"""Attributes set on a function made in the compiled frame (`f.scale = 4`, functools.wraps' setattr and __dict__
update), as Dynamo records them. Frontend layer, a mixin of the function trackers (and BoundMethodPartsMixin, one of
UserMethodVariable: a bound method's __self__ and __func__ as the trackers it binds): writes land in a dict tracker
that reads see and a function rebuilt at a graph break gets set again; a function from outside is read through its
source."""
import types

from ..source import AttrSource
from .constant import ConstantVariable
from .dicts import DictVariable

# (a code object is a constant, as Dynamo's)
_READ_THROUGH_SOURCE = ("__defaults__", "__kwdefaults__", "__code__", "__annotations__", "__dict__")


class FunctionAttributesMixin:
    def attributes(self):  # the function's __dict__, a dict tracker (functools.wraps updates it in place)
        return self.__dict__.setdefault("fn_attrs", DictVariable({}))

    def store_attr(self, tx, name, value, as_object=False):
        self.attributes().items[name] = value

    def var_getattr(self, tx, name):
        attrs, fn = self.attributes().items, getattr(self, "fn", None)
        if name in attrs or (name == "__dict__" and self.source is None):
            return attrs.get(name, self.attributes())
        if fn is not None and self.source is not None and (name in fn.__dict__ or name in _READ_THROUGH_SOURCE):
            return tx.output.wrap(getattr(fn, name), AttrSource(self.source, name))  # (a function from outside)
        if fn is None and name in ("__name__", "__qualname__", "__code__"):  # a function made in the frame
            return ConstantVariable(self.code if name == "__code__" else getattr(self.code, f"co_{name.strip('_')}"))
        if fn is None and name in ("__module__", "__doc__", "__type_params__"):  # (read by functools.wraps)
            cells = tuple(types.CellType() for _ in self.code.co_freevars) or None
            shell = types.FunctionType(self.code, self.f_globals, None, None, cells)
            if hasattr(shell, name):  # (no __type_params__ before 3.12)
                return ConstantVariable(getattr(shell, name))
        if fn is None and name == "__annotations__":  # (MAKE_FUNCTION's pairs, made a dict at the first read)
            if "annotations_dict" not in self.__dict__:
                pairs = self.__dict__.get("annotations")
                self.annotations_dict = annotations_dict(pairs.realize().unpack_var_sequence(tx) if pairs else [])
            return self.annotations_dict
        return super().var_getattr(tx, name)

    def reconstruct_attributes(self, cg):
        for name, value in self.attributes().items.items():  # fn.name = value, fn left on the stack
            cg.append("COPY", 1)
            cg.reconstruct(value)
            cg.append("SWAP", 2)
            cg.append("STORE_ATTR", name)


class BoundMethodPartsMixin:
    def var_getattr(self, tx, name):  # (`m.__self__ is C` of a bound method or classmethod)
        parts = {"__self__": self.self_var, "__func__": self.fn_var}
        return parts[name] if name in parts else super().var_getattr(tx, name)


def annotations_dict(pairs):
    """A function's __annotations__ from MAKE_FUNCTION's (name, annotation, ...) trackers."""
    return DictVariable({name.as_python_constant(): value for name, value in zip(pairs[::2], pairs[1::2])})
