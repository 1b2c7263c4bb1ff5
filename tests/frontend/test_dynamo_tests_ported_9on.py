"""The programs of batches 9 on (corpus_dynamo_tests_ported_<n>.py and _<n>b.py) against Dynamo 2.13.

The same checks as the earlier runners (whose helpers this reuses), one test per (batch, program): each PORTED
program runs compiled twice (the second call a cache hit) on two (3,) float inputs under torch.compile and
minitorch2.compile with a CompileCounter; values and (frames, ops, breaks) must be Dynamo's, and the compiled value
minitorch2's own eager one. Each DYNAMIC program runs compiled with dynamic=True on inputs of lengths 3, 5, 3 and 8
(test_dynamic_shapes' way of running test_misc): the counts after them (how often a length still recompiles) and
every value must be Dynamo's. Each RECOMPILE program runs its sequence of calls from RECOMPILE_CALLS (Python values,
containers, attributes, globals and tensor layouts that change between calls). KNOWN_DIFFS names each program that
still differs, with the difference (strict xfail).
"""
import collections
import dataclasses
import enum
import importlib
import types
import typing

import numpy as np
import pytest
import torch

import minitorch2
from frontend.testing import CompileCounter

from .test_dynamo_counts import ARRAYS, _assert_close
from .test_dynamo_tests_ported import (_clear_counters, _breaks, build_batch, check_against_dynamo,
                                       check_batch_is_whole, check_recompiles_against_dynamo)

_X3 = ARRAYS[0]
_X2x3 = np.arange(6, dtype="float32").reshape(2, 3) - 2
_X3x3 = np.arange(9, dtype="float32").reshape(3, 3) - 4
_X6 = np.arange(6, dtype="float32") - 2
_NS = types.SimpleNamespace
_Pair = collections.namedtuple("_Pair", "x y")
_Mode = enum.Enum("_Mode", "TRAIN EVAL")


class _Valued:
    """An object whose value is a property over a plain attribute (a guard reaches through the property)."""

    def __init__(self, v):
        self._v = v

    @property
    def value(self):
        return self._v

class _DoublesOnWrite:
    """An object whose __setattr__ stores twice the value written (a guard reads the stored attribute)."""

    def __init__(self, k):
        self.k = k

    def __setattr__(self, name, value):
        object.__setattr__(self, name, value * 2)


@dataclasses.dataclass
class _Config:
    k: int


class _Row(typing.NamedTuple):
    x: int
    y: float

# batch -> program name -> its calls (each a tuple of the program's arguments).
RECOMPILE_CALLS = {
    9: {
        "rc9_bool_from_kwargs": [(_X3, True), (_X3, False), (_X3, True)],
        "rc9_list_length_changes": [(_X3, [1]), (_X3, [1, 2]), (_X3, [3, 4]), (_X3, [1, 2, 3])],
        "rc9_attribute_value_changes": [(_X3, _NS(k=2)), (_X3, _NS(k=3)), (_X3, _NS(k=2))],
        "rc9_dtype_changes": [(_X3, "float32"), (_X3, "float64"), (_X3, "float32")],
        "rc9_nested_tuple_structure": [(_X3, (1, (2,))), (_X3, (1, (3,))), (_X3, (2, (3,)))],
        "rc9_global_int_changes": [(_X3, 1), (_X3, 2), (_X3, 2)],
    },
    10: {
        "rc10_float_arg_changes": [(_X3, 0.5), (_X3, 1.5), (_X3, 0.5), (_X3, 2.5)],
        "rc10_string_key_selects": [(_X3, "sin"), (_X3, "cos"), (_X3, "sin")],
        "rc10_tuple_length_changes": [(_X3, (1,)), (_X3, (1, 2)), (_X3, (3, 4)), (_X3, ())],
        "rc10_dict_value_changes": [(_X3, {"k": 1}), (_X3, {"k": 2}), (_X3, {"k": 1})],
        "rc10_none_or_int": [(_X3, None), (_X3, 2), (_X3, 3), (_X3, None)],
        "rc10_object_attribute_mutated": [(_X3, _NS(k=1)), (_X3, _NS(k=1)), (_X3, _NS(k=4))],
        "rc10_global_dict_read": [(_X3, 1), (_X3, 2), (_X3, 1)],
        "rc10_shape_rank_changes": [(_X3, 2), (_X2x3, 2), (_X2x3[0], 2), (_X2x3[:, :2], 2)],
    },
    11: {
        "rc11_int_changes_each_call": [(_X3, 1), (_X3, 2), (_X3, 3), (_X3, 2)],
        "rc11_list_contents_change": [(_X3, [1, 2]), (_X3, [1, 3]), (_X3, [1, 2]), (_X3, [1, 2, 3])],
        "rc11_set_size_changes": [(_X3, {1}), (_X3, {2}), (_X3, {1, 2})],
        "rc11_dict_keys_change": [(_X3, {"p": 1}), (_X3, {"q": 1}), (_X3, {"p": 1, "q": 2})],
        "rc11_object_attr_type_changes": [(_X3, _NS(k=2)), (_X3, _NS(k=2.5)), (_X3, _NS(k=2))],
        "rc11_bool_then_none": [(_X3, True), (_X3, False), (_X3, None), (_X3, True)],
        "rc11_global_table_written": [(_X3, 1), (_X3, 1), (_X3, 2)],
        "rc11_contiguous_vs_transposed": [(_X3x3, 2), (_X3x3.T.copy(), 2), (_X3x3, 3)],
        "rc11_float_then_int": [(_X3, 0.5), (_X3, 1.5), (_X3, 2), (_X3, 2.5), (_X3, 3)],
        "rc11_string_in_tuple": [(_X3, ("a", 1)), (_X3, ("b", 1)), (_X3, ("a", 2)), (_X3, ("a", 3))],
        "rc11_int_used_as_slice_end": [(_X3, 1), (_X3, 2), (_X3, 3), (_X3, 2)],
        "rc11_int_as_range_bound": [(_X3, 1), (_X3, 2), (_X3, 3)],
        "rc11_int_in_reshape": [(_X6, 1), (_X6, 2), (_X6, 3), (_X6, 6)],
    },
    12: {
        "rc12_float_constant_in_branch": [(_X3, 0.5), (_X3, 1.5), (_X3, 2.5), (_X3, 0.5)],
        "rc12_list_of_strings": [(_X3, ["a"]), (_X3, ["bb"]), (_X3, ["a", "b"])],
        "rc12_tuple_of_floats": [(_X3, (1.0, 2.0)), (_X3, (1.0, 3.0)), (_X3, (1.0, 2.0))],
        "rc12_none_or_tensor": [(_X3, None), (_X3, _X3), (_X3, None)],
        "rc12_dict_key_presence": [(_X3, {"s": 2}), (_X3, {"t": 2}), (_X3, {"s": 3})],
        "rc12_string_compare": [(_X3, "train"), (_X3, "eval"), (_X3, "train")],
        "rc12_nested_list_sizes": [(_X3, [[1], [2, 3]]), (_X3, [[1], [2, 4]]), (_X3, [[1, 2]])],
        "rc12_global_state_written": [(_X3, 1), (_X3, 1), (_X3, 2)],
        "rc12_bool_and_int_mixed": [(_X3, True), (_X3, 1), (_X3, 2), (_X3, True)],
        "rc12_deque_input": [(_X3, collections.deque([1, 2])), (_X3, collections.deque([1, 3])),
                             (_X3, collections.deque([1, 2, 3])), (_X3, collections.deque([1, 2]))],
        "rc12_namedtuple_field_changes": [(_X3, _Pair(1, 2)), (_X3, _Pair(1, 3)), (_X3, _Pair(2.5, 2)),
                                          (_X3, _Pair(1, 2))],
        "rc12_tensor_in_list_shape_changes": [(_X3, [_X3]), (_X3, [_X3, _X3]), (_X3, [_X2x3]), (_X3, [_X3])],
        "rc12_callable_arg_changes": [(_X3, abs), (_X3, abs), (_X3, len), (_X3, abs)],
        "rc12_dtype_of_input": [(_X3, _X3), (_X3, _X3.astype("float64")), (_X3, _X3)],
    },
    13: {
        "rc13_slice_arg_changes": [(_X3, slice(1, None)), (_X3, slice(0, 2)), (_X3, slice(1, None))],
        "rc13_frozenset_arg": [(_X3, frozenset({1})), (_X3, frozenset({1, 2})), (_X3, frozenset({2, 3}))],
        "rc13_ordered_dict_order": [(_X3, collections.OrderedDict([(1, 2), (3, 4)])),
                                    (_X3, collections.OrderedDict([(3, 4), (1, 2)])),
                                    (_X3, collections.OrderedDict([(1, 2), (3, 4)]))],
        "rc13_bytes_arg": [(_X3, b"ab"), (_X3, b"cd"), (_X3, b"abc")],
        "rc13_complex_free_float_sign": [(_X3, 1.5), (_X3, -1.5), (_X3, 2.5), (_X3, -0.5)],
        "rc13_kwargs_dict_size": [(_X3, {"bias": 1}), (_X3, {"bias": 2}), (_X3, {"bias": 1, "w": 0}), (_X3, {})],
        "rc13_slice_step_changes": [(_X3, 1), (_X3, 2), (_X3, 3), (_X3, 2)],
    },
    14: {
        "rc14_enum_member_changes": [(_X3, _Mode.TRAIN), (_X3, _Mode.EVAL), (_X3, _Mode.TRAIN)],
        "rc14_complex_arg_changes": [(_X3, 1 + 2j), (_X3, 1 + 3j), (_X3, 1 + 2j)],
        "rc14_deque_arg_length": [(_X3, collections.deque([1])), (_X3, collections.deque([1, 2])),
                                  (_X3, collections.deque([3, 2]))],
        "rc14_counter_arg_changes": [(_X3, collections.Counter("xy")), (_X3, collections.Counter("xxy")),
                                     (_X3, collections.Counter("xyz"))],
        "rc14_counter_missing_key_counts_zero": [(_X3, collections.Counter("x")), (_X3, collections.Counter("xx")),
                                                 (_X3, collections.Counter({"x": 1, "absent": 2}))],
        "rc14_simple_namespace_attr": [(_X3, _NS(k=1)), (_X3, _NS(k=2)), (_X3, _NS(k=1))],
        "rc14_tuple_of_enum_members": [(_X3, (_Mode.TRAIN,)), (_X3, (_Mode.TRAIN, _Mode.EVAL)),
                                       (_X3, (_Mode.EVAL,))],
    },
    15: {
        "rc15_kwonly_default_overridden": [(_X3, 2), (_X3, 3), (_X3, 2), (_X3, 4)],
        "rc15_starred_tuple_length": [(_X3, (1, 2)), (_X3, (1, 2, 3)), (_X3, (2, 2)), (_X3, (1,))],
        "rc15_dict_keys_view_arg": [(_X3, {"p": 1}), (_X3, {"q": 1}), (_X3, {"p": 1, "q": 2}), (_X3, {"z": 0})],
        "rc15_object_with_property": [(_X3, _Valued(2)), (_X3, _Valued(3)), (_X3, _Valued(2))],
        "rc15_bool_attr_on_list": [(_X3, [True, False]), (_X3, [False, False]), (_X3, [True, True])],
        "rc15_none_default_kw": [(_X3, None), (_X3, 1.5), (_X3, None), (_X3, 2)],
    },
    16: {
        "rc16_string_arg_method": [(_X3, " ab "), (_X3, "ab"), (_X3, "abc "), (_X3, " ab ")],
        "rc16_heap_list_changes": [(_X3, [3, 1]), (_X3, [3, 2]), (_X3, [0, 1, 2]), (_X3, [3, 1])],
        "rc16_user_object_with_setattr": [(_X3, _DoublesOnWrite(1)), (_X3, _DoublesOnWrite(2)),
                                          (_X3, _DoublesOnWrite(1))],
        "rc16_typing_namedtuple_arg": [(_X3, _Row(1, 0.5)), (_X3, _Row(2, 0.5)), (_X3, _Row(1, 1.5))],
        "rc16_int_bit_count": [(_X3, 3), (_X3, 5), (_X3, 7), (_X3, 8)],
    },
    17: {
        "rc17_match_on_mode": [(_X3, "double"), (_X3, "neg"), (_X3, "double"), (_X3, "other")],
        "rc17_dataclass_arg_field": [(_X3, _Config(1)), (_X3, _Config(2)), (_X3, _Config(1))],
        "rc17_local_contextmanager_param": [(_X3, 2), (_X3, 3), (_X3, 2)],
        "rc17_slice_arg": [(_X3, slice(1, None)), (_X3, slice(0, 2)), (_X3, slice(1, None))],
        "rc17_bytes_arg": [(_X3, b"ab"), (_X3, b"abc"), (_X3, b"ab")],
    },
}

# batch -> program name -> how its counts or values still differ from Dynamo's.
KNOWN_DIFFS = {
    9: {},
    10: {},
    11: {
        "dy11_float_of_size_in_math": "math.log(float(a.shape[0])) with dynamic=True: Dynamo records torch.sym_float "
                                      "and math.log of the size as graph nodes before the size is specialized; ours "
                                      "folds them (2 ops a graph, not 4): ours (3, 6, 0), Dynamo (3, 12, 0)",
        "ms11_set_of_tensors": "a set literal of tensors {a, b, a}: Dynamo keys its items by identity and takes len() "
                               "in the graph; ours breaks at BUILD_SET (a tensor is no constant key) and again at "
                               "len(): ours (1, 2, 2), Dynamo (1, 2, 0)",
    },
    12: {
        "fn12_deque_maxlen_after_break": "a deque(maxlen=3) reaching the frame after a break (deque.rotate): Dynamo's "
                                         "builder drops its maxlen, so its append keeps 3 items where eager keeps 2 "
                                         "(Dynamo's value is not eager's); ours guards maxlen and gives eager's value",
        "rp12_module_buffer_update": "an nn.Module subclass defined and made in the frame with a buffer: ours breaks "
                                     "at __build_class__ and at the call making it (it holds a buffer); Dynamo "
                                     "breaks once: ours (2, 10, 3), Dynamo (2, 14, 1)",
    },
    13: {
        "op13_length_hint": "operator.length_hint of a list iterator: Dynamo folds it from the items left; ours has no "
                            "rule for an iterator there and breaks: ours (2, 3, 1), Dynamo (1, 3, 0)",
        "fa13_closure_cell_contents": "inner.__closure__ of a function made in the frame: Dynamo has no rule and raises "
                                      "an AttributeError it does not catch, so the frame runs eagerly and only inner "
                                      "compiles (1, 1, 0); ours breaks at __closure__ and at the cell: (2, 3, 2)",
        "gs13_stopiteration_from_helper_next": "a generator whose next(it) raises StopIteration: by PEP 479 it leaves "
                                               "the generator as a RuntimeError (eager's and ours: out = [b]); Dynamo "
                                               "ends the generator there instead, so its value is not eager's",
        "cl13_index_dunder_indexes": "a list indexed by a user object with __index__: Dynamo calls __index__; ours "
                                     "breaks at the subscript: ours (1, 2, 1), Dynamo (1, 2, 0)",
    },
    14: {
        "bi14_format_with_spec": "format(3.14159, '.2f'): Dynamo's folded string is '3.14159' (the spec dropped), "
                                 "so its value is not eager's; ours gives eager's",
        "de14_non_data_descriptor_reads": "a descriptor read through its class (`_HasLazy.lazy`, whose __get__(None, "
                                          "cls) gives -1): Dynamo takes the descriptor object itself, cannot multiply a "
                                          "tensor by it and runs the frame eagerly (0, 0, 0); ours calls __get__ as "
                                          "Python does and compiles the frame: (1, 3, 0)",
        "ty14_mapping_proxy_is_live_and_read_only": "`proxy['u'] = 3` on a types.MappingProxyType made in the frame: "
                                                    "Python raises TypeError (ours too); Dynamo lets the write through "
                                                    "to the dict, so its len() and get('u', 7) differ and its value "
                                                    "is not eager's",
        "dy14_divmod_of_size": "divmod(n, 2) of a size symbol under dynamic=True: Dynamo raises TypeError "
                               "('unsupported operand type(s) for divmod()') while tracing and runs every call "
                               "eagerly (0, 0, 0); ours specializes n and compiles each length: (3, 9, 0)",
    },
    15: {
        "au15_iadd_dunder_in_place": "`acc += b` with a user class's __iadd__ and a tensor: Dynamo tries to put "
                                     "operator.iadd of the object in the graph, fails (no as_proxy), runs the frame "
                                     "eagerly and compiles only __iadd__'s own frame: (1, 2, 0); ours inlines __iadd__ "
                                     "as Python calls it: (1, 3, 0)",
        "ka15_duplicate_keyword_raises": "f(**{'p': 1}, **{'p': 2}): Python raises TypeError (ours too, caught in the "
                                         "frame); Dynamo's DICT_MERGE keeps the later value and raises nothing, so "
                                         "its value is not eager's",
        "is15_nested_tuples_of_types": "isinstance(2.5, (int, (str, (float,)))): Python accepts nested tuples of "
                                       "types (ours too); Dynamo raises TypeError while tracing and runs the frame "
                                       "eagerly: ours (1, 3, 0), Dynamo (0, 0, 0)",
    },
    16: {
        "dy16_size_bit_length": "a.shape[0].bit_length() under dynamic=True: Dynamo records the size, its getitem and "
                                "a call_method bit_length node, then specializes the result (a recompile each time "
                                "it changes: 3 graphs of 5 ops); ours has no attribute rule for a size symbol's int "
                                "methods and breaks at the read and the call: ours (2, 2, 5), Dynamo (3, 15, 0)",
        "rc16_int_bit_count": "n.bit_count() of an int argument that turned dynamic on the second call: Dynamo puts a "
                              "call_method bit_count node in the graph, whose fake run fails (SymInt has no "
                              "bit_count), one break; ours breaks at the attribute read and then at the call in each "
                              "resumed frame: ours (3, 3, 4), Dynamo (3, 3, 1)",
    },
    17: {},
}


def _load(batch):
    """Batch -> (PORTED, DYNAMIC, RECOMPILED): each (names, torch namespace, minitorch2 namespace)."""
    first = importlib.import_module(f"{__package__}.corpus_dynamo_tests_ported_{batch}")
    second = importlib.import_module(f"{__package__}.corpus_dynamo_tests_ported_{batch}b")
    return (build_batch(first.PORTED_SRC, second.PORTED_SRC), build_batch(second.DYNAMIC_SRC),
            build_batch(second.RECOMPILE_SRC))


BATCHES = {batch: _load(batch) for batch in RECOMPILE_CALLS}


def _params(kind):
    """(batch, name) parameters of one kind (0 ported, 1 dynamic, 2 recompiled), known differences strict xfails."""
    out = []
    for batch, loaded in BATCHES.items():
        for name in loaded[kind][0]:
            reason = KNOWN_DIFFS[batch].get(name)
            marks = [pytest.mark.xfail(reason=reason, strict=True)] if reason else []
            out.append(pytest.param(batch, name, id=f"{batch}-{name}", marks=marks))
    return out


DYNAMIC_LENGTHS = (3, 5, 3, 8)


def _dynamic_run(lib, fn):
    _clear_counters(lib)
    counter = torch._dynamo.testing.CompileCounter() if lib is torch else CompileCounter()
    compiled = lib.compile(fn, backend=counter, dynamic=True)
    outputs = []
    for n in DYNAMIC_LENGTHS:
        a, b = (np.random.default_rng(seed + n).standard_normal(n).astype("float32") for seed in (1, 2))
        outputs.append(compiled(lib.tensor(a), lib.tensor(b)).detach().numpy())
    return (counter.frame_count, counter.op_count, _breaks(lib)), outputs


@pytest.mark.parametrize("batch,name", _params(0))
def test_counts_breaks_and_values_match_dynamo(batch, name):
    _, torch_ns, mt_ns = BATCHES[batch][0]
    check_against_dynamo(torch_ns[name], mt_ns[name])


@pytest.mark.parametrize("batch,name", _params(1))
def test_dynamic_true_counts_and_values_match_dynamo(batch, name):
    _, torch_ns, mt_ns = BATCHES[batch][1]
    theirs_counts, theirs = _dynamic_run(torch, torch_ns[name])
    ours_counts, ours = _dynamic_run(minitorch2, mt_ns[name])
    assert ours_counts == theirs_counts, f"(frames, ops, breaks): ours {ours_counts}, Dynamo {theirs_counts}"
    _assert_close(ours, theirs)


@pytest.mark.parametrize("batch,name", _params(2))
def test_recompiles_match_dynamo(batch, name):
    _, torch_ns, mt_ns = BATCHES[batch][2]
    check_recompiles_against_dynamo(torch_ns[name], mt_ns[name], RECOMPILE_CALLS[batch][name])


@pytest.mark.parametrize("batch", list(BATCHES))
def test_enough_programs_every_recompile_has_calls_and_known_diffs_name_programs(batch):
    ported, dynamic, recompiled = (names for names, _, _ in BATCHES[batch])
    check_batch_is_whole(ported + dynamic, recompiled, RECOMPILE_CALLS[batch], KNOWN_DIFFS[batch],
                         at_least={13: 90, 14: 50, 15: 50, 16: 50, 17: 50}.get(batch, 150))  # (13 on: asked for fewer)
