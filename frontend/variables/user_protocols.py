"""The Python protocols of user classes inside compiled frames: special methods, properties' setters, super(),
classmethods and staticmethods, as Dynamo traces them.

Frontend layer, coverage surface beside user_defined.py (whose trackers take these mixins): `len(obj)`, `x in obj`,
`for v in obj`, `obj[i]`, `obj(...)`, `a + b` (with the reflected `__radd__`), `obj.missing` (__getattr__) run the
class's special method, inlined with the object as self; `super().f()` looks f up past the method's class in the
object's method resolution order; `Cls.make(...)` binds a classmethod to its class; `with obj:` inlines its
__enter__ and __exit__; a descriptor's __get__ and __set__ are inlined; delattr, and an attribute missing from an
object made in the frame raises AttributeError in the traced program.
"""
import builtins
import inspect
import operator
import types

import minitorch2

from .. import guards, pyversion
from ..exc import Unsupported
from ..source import AttrSource, GetItemSource, attr_source
from . import tensor_attributes
from .base import LazyVariableTracker, VariableTracker
from .constant import ConstantVariable
from .dicts import DictVariable
from .exceptions import ObservedException, raise_observed
from .functions import UserFunctionVariable, UserMethodVariable
from .lists import MAX_ITEMS, BaseListVariable, TupleVariable, iterate
from .tensor import TensorVariable
from .tensor_membership import list_contains


def _remade_object(cls, names, values):
    obj = object.__new__(cls)
    for name, value in zip(names, values):
        object.__setattr__(obj, name, value)
    return obj


class SpecialMethodsMixin:
    """On UserObjectVariable: its class's special methods in Python, inlined."""
    mutable_identity = True  # one object made in the frame is rebuilt once at a break, however many places hold it

    def has_dunder(self, name):
        return isinstance(inspect.getattr_static(type(self.value), name, None), types.FunctionType)

    def call_dunder(self, tx, name, args, kwargs=None):
        if not self.has_dunder(name):
            raise Unsupported(f"{name} of a {type(self.value).__name__} object", "unsupported_call")
        method = inspect.getattr_static(type(self.value), name)
        return UserFunctionVariable(method).call_function(tx, args, kwargs or {}, self_var=self)

    def call_function(self, tx, args, kwargs):
        return self.call_dunder(tx, "__call__", args, kwargs)

    def contains(self, tx, item, invert=False):
        """`item in obj` (`not in` when invert): its __contains__; else, as Python, a search of the items its __iter__
        or its __getitem__ gives."""
        if self.has_dunder("__contains__") or not (self.has_dunder("__iter__") or self.has_dunder("__getitem__")):
            return ConstantVariable(self.call_dunder(tx, "__contains__", [item]).realize().truth(tx) != invert)
        return list_contains(tx, self.unpack_var_sequence(tx), item, invert)

    def enter(self, tx):
        """`with obj as v:` of the user's context manager: __enter__ inlined now (v is what it returns), __exit__
        when the block is left (UserContextExitVariable), as Dynamo inlines them."""
        if not (self.has_dunder("__enter__") and self.has_dunder("__exit__")) or self.source is not None:
            # (as Dynamo: a context manager made outside the frame is not entered; the frame runs eagerly)
            raise Unsupported(f"`with` on a {type(self.value).__name__} object", "graph_break_in_with")
        return UserContextExitVariable(self, self.call_dunder(tx, "__enter__", []))

    def output_plan(self, og):
        """An object made in the frame and returned (an output dataclass): made anew after the graph, its class's
        __new__ with no __init__ and its attributes set as object's (a frozen dataclass too), as Dynamo rebuilds it."""
        if self.source is not None:
            return super().output_plan(og)
        cls, plans = type(self.value), {k: v.realize().output_plan(og) for k, v in self.attrs.items()}

        def make(outs, L, G):
            obj = object.__new__(cls)
            for name, plan in plans.items():
                object.__setattr__(obj, name, plan(outs, L, G))
            return obj
        return og.once(self, make)

    def can_store_attr(self, name, value):
        """`obj.k = v` on an object from outside the frame (a global, a method's self; object's __setattr__, no
        descriptor named k): replayed after the graph (output_graph's stored_attrs), read back from this tracker."""
        cls = type(self.value)
        if cls.__setattr__ is not object.__setattr__ or hasattr(type(inspect.getattr_static(cls, name, None)), "__set__"):
            return False
        self.attrs[name] = value
        return True

    def is_python_constant(self):
        """A frozen dataclass made in the frame of constant fields is a constant (a set member, a dict key), as
        Dynamo's FrozenDataClassVariable is."""
        params = getattr(type(self.value), "__dataclass_params__", None)
        return (self.source is None and params is not None and params.frozen
                and all(v.realize().is_python_constant() for v in self.attrs.values()))

    def as_python_constant(self):
        return _remade_object(type(self.value), list(self.attrs), [v.as_python_constant() for v in self.attrs.values()])

    def build(self, cg):
        """An object made in the frame, live at a graph break: made anew in the resumed code the way output_plan
        makes a returned one (its class's __new__, then its attributes set as object's)."""
        if self.source is not None:
            return super().build(cg)
        names = [ConstantVariable(name) for name in self.attrs]
        cg.call_const(_remade_object, [ConstantVariable(type(self.value)), TupleVariable(names),
                                       TupleVariable([v.realize() for v in self.attrs.values()])])

    def truth(self, tx):
        """`if obj:` and bool(obj) as Python: its class's __bool__, else its __len__, else true (a C-level __bool__ or
        __len__ is not inlined)."""
        name = next((n for n in ("__bool__", "__len__") if self.has_dunder(n)), None)
        if name is None and any(hasattr(type(self.value), n) for n in ("__bool__", "__len__")):
            raise Unsupported(f"truth value of a {type(self.value).__name__} object", "unsupported")
        return True if name is None else self.call_dunder(tx, name, []).realize().truth(tx)

    def getitem(self, tx, index):
        return self.call_dunder(tx, "__getitem__", [index])

    def unpack_var_sequence(self, tx):
        if self.has_dunder("__iter__") or not self.has_dunder("__getitem__"):
            return iterate(tx, self.call_dunder(tx, "__iter__", [])).unpack_var_sequence(tx)
        items = []  # Python's older protocol: __getitem__(0), (1), ... up to the IndexError
        while len(items) < MAX_ITEMS:
            try:
                items.append(self.call_dunder(tx, "__getitem__", [ConstantVariable(len(items))]))
            except ObservedException as e:
                if not issubclass(e.value.python_type(), IndexError):
                    raise
                return items
        raise Unsupported(f"a {type(self.value).__name__} whose __getitem__ has no end (over {MAX_ITEMS} items)",
                          "unsupported")

    def call_descriptor(self, tx, method, descriptor, argument):
        """A user descriptor's __get__(self, obj, owner) or __set__(self, obj, value), inlined. The descriptor is the
        class's own state (read unguarded, as the class's other attributes): one that writes to itself breaks."""
        descriptor_var = type(self)(descriptor)
        result = UserFunctionVariable(method).call_function(tx, [self, argument], {}, self_var=descriptor_var)
        if descriptor_var.attrs:
            raise Unsupported(f"a {type(descriptor).__name__} descriptor that sets its own attributes", "side_effect")
        return result

    def special_getattr(self, tx, name, class_attr):
        """An attribute the plain lookups did not find: a class attribute (written in this frame: the pending value),
        a classmethod or staticmethod, else __getattr__'s answer."""
        pending = pending_class_write(tx, type(self.value), name)
        if pending is not None:
            return pending
        getter = inspect.getattr_static(type(class_attr), "__get__", None)
        if isinstance(getter, types.FunctionType) and self.source is None:  # a descriptor of the user's: its __get__
            return self.call_descriptor(tx, getter, class_attr, tx.output.wrap(type(self.value), None))
        if isinstance(class_attr, types.MemberDescriptorType) and self.source is not None and hasattr(self.value, name):
            return tx.output.wrap(getattr(self.value, name), attr_source(self.source, name))  # a __slots__ member
        if class_attr is not None and not hasattr(type(class_attr), "__get__"):  # a class-level constant, read
            return tx.output.wrap(class_attr, attr_source(self.source or getattr(self, "cls_source", None), name))
        if name == "__class__":  # (an object read from the frame has its type guarded; one made here keeps it)
            return tx.output.wrap(type(self.value), None)
        if name == "__dict__":
            return instance_dict(tx, self, self.attrs if self.source is None else vars(self.value))
        if isinstance(class_attr, (classmethod, staticmethod)):
            return class_member(tx, type(self.value), class_attr, source=self.source and AttrSource(self.source, name))
        if name not in ("__iter__", "__getitem__", "__contains__", "__len__") and self.has_dunder("__getattr__"):
            return self.call_dunder(tx, "__getattr__", [ConstantVariable(name)])
        if self.source is None and class_attr is None:  # made in the frame, it has no such attribute for sure
            raise_observed(AttributeError, [name], f"attribute {name!r} of a {type(self.value).__name__} object")
        raise Unsupported(f"attribute {name!r} of a {type(self.value).__name__} object", "unsupported_attr")

    def store_attr(self, tx, name, value, as_object=False):
        """`obj.x = v` on an object made in the frame: the class's own __setattr__ (a frozen dataclass's, which
        raises FrozenInstanceError; not when `as_object`, object.__setattr__'s store) or a property's setter inlined,
        else kept in attrs."""
        own_setattr = inspect.getattr_static(type(self.value), "__setattr__")
        if isinstance(own_setattr, types.FunctionType) and not as_object:
            return UserFunctionVariable(own_setattr).call_function(tx, [ConstantVariable(name), value], {},
                                                                   self_var=self)
        class_attr = inspect.getattr_static(type(self.value), name, None)
        setter = getattr(class_attr, "fset", None)
        if isinstance(setter, types.FunctionType):
            return UserFunctionVariable(setter).call_function(tx, [value], {}, self_var=self)
        descriptor_set = inspect.getattr_static(type(class_attr), "__set__", None)
        if isinstance(descriptor_set, types.FunctionType):  # a data descriptor of the user's: its __set__ inlined
            return self.call_descriptor(tx, descriptor_set, class_attr, value)
        if hasattr(type(class_attr), "__set__") and not isinstance(class_attr, types.MemberDescriptorType):
            # a data descriptor of the user's (its __set__ decides what is stored), a property with no setter
            raise Unsupported(f"setting {name!r}, a data descriptor of {type(self.value).__name__}", "unsupported_attr")
        self.attrs[name] = value


class UserContextExitVariable(VariableTracker):
    """The bound `__exit__` a `with` block over a user's context manager keeps: calling it inlines the class's."""

    def __init__(self, manager, yielded):
        super().__init__()
        self.manager, self.yielded = manager, yielded

    def call_function(self, tx, args, kwargs):
        return self.manager.call_dunder(tx, "__exit__", args, kwargs)

    def reconstruct(self, cg):  # (as Dynamo's: a break inside the block runs the frame eagerly)
        raise Unsupported("a graph break inside a `with` block of a user's context manager", "graph_break_in_with")


def instance_dict(tx, var, attributes):
    """`obj.__dict__` or `vars(obj)`. Of an object made in the frame: a dict that IS its attributes (writing an item
    sets one). Of one read from the frame (a module too): its __dict__ read through its source, keys guarded, each
    value looked at when used (a write is written back after the graph, as into any dict from outside)."""
    if var.source is None:
        made = DictVariable({})
        made.items = attributes
        return made
    source = AttrSource(var.source, "__dict__")
    tx.output.guards.add(guards.dict_keys_guard(source, list(attributes)))
    return DictVariable({k: LazyVariableTracker(tx.output, v, GetItemSource(source, k)) for k, v in attributes.items()},
                        source)


# builtin -> the special method it calls on a user's object (`float(r)`: r's __float__, inlined; complex(r), as
# Dynamo's, is a break)
DUNDER_OF = {abs: "__abs__", float: "__float__", int: "__int__", round: "__round__"}


_REFLECTED_COMPARISONS = {"lt": "gt", "gt": "lt", "le": "ge", "ge": "le"}


def user_operator(tx, fn, a, b):
    """`a + b` with a user's object: a's __add__ (`+=`: __iadd__ first), else b's __radd__, inlined; NotImplemented
    from one passes to the next, as Python's. `a == b`, `a != b`: _objects_equal."""
    if fn in (operator.eq, operator.ne):
        equal = _objects_equal(tx, a, b)
        return equal if fn is operator.eq else ConstantVariable(not equal.truth(tx))
    name = fn.__name__
    base = name[1:] if name.startswith("i") and hasattr(operator, name[1:]) else name
    reflected = _REFLECTED_COMPARISONS.get(base, f"r{base}")  # (`3 < n` asks n.__gt__(3))
    tries = [(a, f"__{name}__", b)] * (base != name) + [(a, f"__{base}__", b), (b, f"__{reflected}__", a)]
    for left, dunder, right in tries:
        if isinstance(left, SpecialMethodsMixin) and left.has_dunder(dunder):
            result = left.call_dunder(tx, dunder, [right])
            if not (result.is_python_constant() and result.as_python_constant() is NotImplemented):
                return result
    symbol = next((s for s, op in {**pyversion.BINARY_OPS, **pyversion.COMPARE_OPS}.items() if op is fn), None)
    if symbol and all(isinstance(v, SpecialMethodsMixin) or type(getattr(v, "value", None)) in (int, float, bool, str)
                      for v in (a, b)):  # each side declined the other (a builtin's reflected dunder would too)
        names = " and ".join(f"'{v.python_type().__name__}'" for v in (a, b))
        message = f"'{symbol}' not supported between instances of {names}" if base in _REFLECTED_COMPARISONS else \
            f"unsupported operand type(s) for {symbol}: {names}"
        raise_observed(TypeError, [message], f"{name} of {a} and {b}")
    raise Unsupported(f"{name} of {a} and {b}", "unsupported")


def _objects_equal(tx, a, b):
    """`a == b` with a user's object: its class's __eq__ inlined (the left operand's first), else identity."""
    for left, right in ((a, b), (b, a)):
        eq = inspect.getattr_static(left.python_type(), "__eq__", None)
        if isinstance(left, SpecialMethodsMixin) and isinstance(eq, types.FunctionType):  # (a UserObjectVariable)
            result = UserFunctionVariable(eq).call_function(tx, [left, right], {})
            if not (result.is_python_constant() and result.as_python_constant() is NotImplemented):
                return result
        elif isinstance(left, SpecialMethodsMixin) and eq not in (object.__eq__, None):  # (SimpleNamespace's: in C)
            raise Unsupported(f"{left.python_type().__name__}'s __eq__ in C", "unsupported")
    return ConstantVariable(getattr(a, "value", a) is getattr(b, "value", b))


class SuperVariable(VariableTracker):
    """super() in a method inlined: attributes looked up past `cls` in the object's class's method resolution order."""

    def __init__(self, cls, obj):
        super().__init__()
        self.cls, self.obj = cls, obj

    def var_getattr(self, tx, name):
        in_classmethod = isinstance(getattr(self.obj, "value", None), type)  # (there obj is the class itself)
        mro = (self.obj.value if in_classmethod else self.obj.python_type()).__mro__
        owner = next((k for k in mro[mro.index(self.cls) + 1:] if name in vars(k)), object)
        member = vars(owner).get(name)
        if isinstance(member, types.FunctionType):  # (nn.LayerNorm.forward inlined, as Dynamo inlines torch.nn's;
            library = owner.__module__.startswith("minitorch2.nn.modules.")  # other functions marked disable break)
            fn = UserFunctionVariable(member) if library else tx.output.wrap(member, None)
            if not isinstance(fn, UserFunctionVariable):
                raise Unsupported(f"super().{name} is {fn}", "unsupported_call")
            return UserMethodVariable(fn, self.obj)
        if isinstance(member, (classmethod, staticmethod)):
            return class_member(tx, mro[0], member, self.obj if in_classmethod else None)
        if member is object.__init__:
            return tx.output.wrap(_no_init, None)
        raise Unsupported(f"super().{name}", "unsupported_attr")

    def build(self, cg):  # (on the stack at a graph break: super(cls, obj) again)
        cg.call_const(super, [ConstantVariable(self.cls), self.obj])


def load_super_attr(tx, inst):
    """3.12's LOAD_SUPER_ATTR: [super, cls, obj] -> super(cls, obj).name, pushed as LOAD_ATTR pushes it (for the
    zero-argument form too the compiler puts the __class__ cell and the method's first argument on the stack)."""
    obj, cls, _ = tx.pop(), tx.pop(), tx.pop()
    attr = SuperVariable(cls.realize().as_python_constant(), obj.realize()).var_getattr(tx, inst.argval)
    (tx.push_callable if pyversion.is_method_load(inst) else tx.push)(attr)


def _no_init(*args):
    return None


def pending_class_write(tx, cls, name):
    """The value `Cls.name = v` stored earlier in this frame for an instance of cls to read, if any (a class nearer in
    the method resolution order that defines name itself hides it)."""
    for klass in cls.__mro__:
        pending = next((value for (_, n), (var, value) in tx.output.stored_attrs.items()
                        if n == name and getattr(var, "value", None) is klass), None)
        if pending is not None or name in vars(klass):
            return pending
    return None


def class_member(tx, cls, member, cls_var=None, source=None):
    """A classmethod bound to its class, a staticmethod's function; read through `source` (the attribute of the
    class or object read from the frame), so rebinding it later is seen (an identity guard)."""
    if isinstance(member, staticmethod):
        return tx.output.wrap(member.__func__, source)
    fn = tx.output.wrap(member.__func__, source and AttrSource(source, "__func__"))
    return UserMethodVariable(fn, cls_var or tx.output.wrap(cls, None))


class ClassMembersMixin:
    """On UserClassVariable: `Cls.make` of a classmethod or staticmethod; `Cls.calls += 1` on a class read from the
    frame, a side effect replayed after the graph (as Dynamo's), which later reads see."""

    def can_store_attr(self, name, value):
        return self.source is not None

    def var_getattr(self, tx, name):
        pending = pending_class_write(tx, self.value, name)
        if pending is not None:
            return pending
        member = next((vars(k)[name] for k in self.value.__mro__ if name in vars(k)), None)
        if isinstance(member, (classmethod, staticmethod)) and isinstance(member.__func__, types.FunctionType):
            return class_member(tx, self.value, member, self, self.source and AttrSource(self.source, name))
        return super().var_getattr(tx, name)


def runs_a_setter(obj, name):
    """`obj.name = v` on a user object from outside the frame runs a property's Python setter: inlined, as Dynamo
    inlines it, its body's own stores replayed after the graph as any attribute write of such an object is."""
    if not isinstance(obj, SpecialMethodsMixin):
        return False
    return isinstance(getattr(inspect.getattr_static(type(obj.value), name, None), "fset", None), types.FunctionType)


def _has_attribute(tx, obj, name):
    """hasattr(obj, name) now, guarded where it can change (Dynamo's HASATTR: a module's attributes can be deleted)."""
    if obj.is_python_constant():
        return hasattr(obj.as_python_constant(), name)
    if isinstance(obj, TensorVariable):
        return hasattr(obj.example_value, name) or tensor_attributes.has_python_attr(tx, obj, name)
    if isinstance(obj, (BaseListVariable, DictVariable)):  # (a namedtuple's _fields: its class's attributes)
        return hasattr(obj.python_type(), name)
    if isinstance(obj, SpecialMethodsMixin):  # (a UserObjectVariable, made in the frame or from outside: guarded)
        member = inspect.getattr_static(obj.python_type(), name, None)  # (a slot's: present only once it is set)
        slot_unset = isinstance(member, types.MemberDescriptorType) and not hasattr(obj.value, name)
        present = name in obj.attrs or name in getattr(obj.value, "__dict__", {}) or (
            hasattr(obj.python_type(), name) and not slot_unset)
        if not present and hasattr(obj.python_type(), "__getattr__"):
            try:  # its class's __getattr__ answers, as Python's hasattr asks it
                obj.var_getattr(tx, name)
                return True
            except ObservedException as e:
                if not issubclass(e.value.python_type(), AttributeError):
                    raise
                return False
    elif hasattr(obj, "module"):
        present = hasattr(obj.module, name)
    elif isinstance(getattr(obj, "value", None), types.ModuleType):  # (torch.nn.functional, read through `torch`)
        present = hasattr(obj.value, name)
    elif hasattr(obj, "attributes"):  # a function (FunctionAttributesMixin): its __dict__, what every function has
        present = name in obj.attributes().items or hasattr(getattr(obj, "fn", types.FunctionType), name)
    else:
        raise Unsupported(f"hasattr on {obj}", "unsupported_call")
    if obj.source is not None:
        tx.output.guards.add(guards.hasattr_guard(obj.source, name, present))
    return present


class ProtocolCallsMixin:
    """On BuiltinVariable: the builtins that look into objects (type, isinstance, getattr, hasattr, callable, id,
    super)."""

    def call_type(self, tx, obj, *class_parts):
        """type(x), or type(name, bases, namespace) making a class now from constants."""
        if class_parts:
            parts = [obj, *class_parts]
            return tx.output.wrap(type(*[p.realize().as_python_constant() for p in parts]), None)
        obj = obj.realize()
        if not isinstance(obj, SpecialMethodsMixin):  # (a builtin class as the builtin: type(xs)(items) makes one)
            cls = obj.python_type()
            return tx.output.wrap(cls, None) if getattr(builtins, cls.__name__, None) is cls else ConstantVariable(cls)
        # a user's class as a class tracker (it sees pending writes), with the source of the class it was made from
        return tx.output.wrap(obj.python_type(), None if obj.source else getattr(obj, "cls_source", None))

    def call_setattr(self, tx, obj, name, value, as_object=False):
        obj, name = obj.realize(), name.realize().as_python_constant()
        if obj.source is not None and hasattr(obj, "can_store_attr") and obj.can_store_attr(name, value):
            tx.output.stored_attrs[(obj.source, name)] = (obj, value)  # (replayed after the graph, as STORE_ATTR's)
            return ConstantVariable(None)
        if not (isinstance(obj, SpecialMethodsMixin) or hasattr(obj, "attributes")) or obj.source is not None:
            raise Unsupported(f"setattr on {obj}", "side_effect")  # (a function made in the frame: functools.wraps)
        obj.store_attr(tx, name, value, as_object)
        return ConstantVariable(None)

    def call___setattr__(self, tx, obj, name, value):
        """object.__setattr__(self, name, value), as a frozen dataclass's __init__ calls: no class __setattr__ runs."""
        return self.call_setattr(tx, obj, name, value, as_object=True)

    def call___new__(self, tx, cls, *args, **kwargs):
        """object.__new__(Cls), which `Cls.__new__(Cls)` reads too: an object of a user's class made in the frame,
        its __init__ not run (as Dynamo's)."""
        from .user_defined import UserObjectVariable, is_user_class  # (user_defined.py builds on this module's mixins)
        cls = cls.realize()
        value = cls.as_python_constant() if cls.is_python_constant() else None
        if args or kwargs or not (isinstance(value, type) and is_user_class(value)) or issubclass(
                value, minitorch2.nn.Module):
            raise Unsupported(f"object.__new__ of {cls}", "unsupported_call")
        made = UserObjectVariable(object.__new__(value))
        made.cls_source = cls.source  # (type(made) is the class as read here, as a call of the class makes it)
        return made

    def call_delattr(self, tx, obj, name):
        """delattr(obj, name) of an object made in the frame: its class's __delattr__ or a property's deleter runs, else
        the attribute is gone (none: AttributeError)."""
        obj, name = obj.realize(), name.realize().as_python_constant()
        if not isinstance(obj, SpecialMethodsMixin) or obj.source is not None:
            raise Unsupported(f"delattr on {obj}", "side_effect")
        own_delattr = inspect.getattr_static(type(obj.value), "__delattr__")
        if isinstance(own_delattr, types.FunctionType):  # the class's own __delattr__ decides, inlined
            return UserFunctionVariable(own_delattr).call_function(tx, [ConstantVariable(name)], {}, self_var=obj)
        deleter = getattr(inspect.getattr_static(type(obj.value), name, None), "fdel", None)
        if isinstance(deleter, types.FunctionType):  # a property's deleter, inlined
            return UserFunctionVariable(deleter).call_function(tx, [], {}, self_var=obj)
        if name not in obj.attrs:
            raise_observed(AttributeError, [name], f"delattr of {name!r}, which the object does not have")
        del obj.attrs[name]
        return ConstantVariable(None)

    def call_repr(self, tx, obj):
        """repr(x) of a constant folds; of a user object (a frozen dataclass of constants too: its generated __repr__
        runs reprlib's thread-bound guard, where Dynamo breaks) or any other value, it is a graph break."""
        obj = obj.realize()
        if isinstance(obj, SpecialMethodsMixin) or not obj.is_python_constant():
            raise Unsupported(f"builtin repr of {obj}", "unsupported_call")
        return ConstantVariable(repr(obj.as_python_constant()))

    def call_isinstance(self, tx, obj, classes):
        return ConstantVariable(issubclass(obj.realize().python_type(), classes.realize().as_python_constant()))

    def call_getattr(self, tx, obj, name, default=None):
        """The default only where obj has no such attribute (guarded); one that cannot be traced is a graph break."""
        obj, name = obj.realize(), name.realize().as_python_constant()
        if default is not None and not _has_attribute(tx, obj, name):
            return default
        return obj.var_getattr(tx, name)

    def call_bool(self, tx, obj=None):
        return ConstantVariable(False if obj is None else obj.realize().truth(tx))

    def call_hasattr(self, tx, obj, name):
        return ConstantVariable(_has_attribute(tx, obj.realize(), name.realize().as_python_constant()))

    def call_callable(self, tx, obj):
        """callable(3) asks the value (hasattr(int, "__call__") holds: the class is callable, its instances not)."""
        obj = obj.realize()
        return ConstantVariable(callable(obj.as_python_constant()) if obj.is_python_constant() else
                                any("__call__" in vars(k) for k in obj.python_type().__mro__))

    def call_super(self, tx, *args):
        """super() as its zero-argument form reads it: the __class__ cell and the method's first argument."""
        cls, obj = args if args else (tx.cells["__class__"].contents, tx.symbolic_locals[tx.code.co_varnames[0]])
        return SuperVariable(cls.realize().as_python_constant(), obj.realize())

    def call_vars(self, tx, obj):
        return obj.realize().var_getattr(tx, "__dict__")

    def call_id(self, tx, obj):  # an object made in the frame: its tracker's, the same for the whole translation
        obj = obj.realize()
        graph_input = next((i for i in tx.output.inputs if isinstance(obj, TensorVariable) and i.node is getattr(
            obj.proxy, "node", None)), None)
        if graph_input is not None:  # an input tensor: its own id, guarded by identity (Dynamo's ID_MATCH)
            tx.output.guards.add(guards.id_guard(graph_input.source, graph_input.value), graph_input.value)
            return ConstantVariable(id(graph_input.value))
        return ConstantVariable(id(getattr(obj, "value", obj)))
