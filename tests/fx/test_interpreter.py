"""Interpreter, Transformer and ShapeProp, against torch.fx's on the same graphs."""
from collections import Counter

import pytest
import torch
import torch.fx
from torch.fx.passes.shape_prop import ShapeProp as TorchShapeProp

import minitorch2
import minitorch2.fx
from minitorch2.fx.passes.shape_prop import ShapeProp, TensorMetadata

from .helpers import assert_same_values, example_inputs, trace_both

pytestmark = pytest.mark.fx

PROGRAMS = ["mlp_modules", "convnet", "operators", "tuple_and_dict_outputs", "getattr_parameters", "indexing",
            "unpack_and_chunk", "module_list_loop"]


@pytest.mark.parametrize("name", PROGRAMS)
def test_interpreter_runs_graph_as_torch_does(name):
    theirs, ours, shapes = trace_both(name)
    inputs_theirs, inputs_ours = example_inputs(shapes, seed=1)
    with torch.no_grad():
        expected = torch.fx.Interpreter(theirs).run(*inputs_theirs)
    with minitorch2.no_grad():
        got = minitorch2.fx.Interpreter(ours).run(*inputs_ours)
        assert_same_values(ours(*inputs_ours), expected)
    assert_same_values(got, expected)


def _counting_interpreter(fx):
    class Counting(fx.Interpreter):
        def __init__(self, gm):
            super().__init__(gm)
            self.calls = Counter()
            self.order = []

        def run_node(self, n):
            self.order.append(n.name)
            if n.op in ("call_function", "call_method", "call_module"):
                self.calls[n.op] += 1
            return super().run_node(n)

        def call_function(self, target, args, kwargs):
            self.calls[getattr(target, "__name__", "?")] += 1
            return super().call_function(target, args, kwargs)

    return Counting


def test_overriding_run_node_and_an_opcode_sees_what_torch_sees():
    theirs, ours, shapes = trace_both("convnet")
    inputs_theirs, inputs_ours = example_inputs(shapes)
    t = _counting_interpreter(torch.fx)(theirs)
    o = _counting_interpreter(minitorch2.fx)(ours)
    with torch.no_grad():
        t.run(*inputs_theirs)
    o.run(*inputs_ours)
    assert o.calls == t.calls and o.order == t.order


def test_values_are_freed_after_last_use_like_torch():
    theirs, ours, shapes = trace_both("mlp_modules")
    sizes = []
    for lib, gm in ((torch, theirs), (minitorch2, ours)):
        class Watch(lib.fx.Interpreter):
            def run_node(self, n):
                sizes.append((lib.__name__, n.name, sorted(k.name for k in self.env)))
                return super().run_node(n)

        Watch(gm).run(lib.randn(5, 6))
    half = len(sizes) // 2
    assert [s[1:] for s in sizes[:half]] == [s[1:] for s in sizes[half:]]


def test_boxed_run_clears_its_argument_list():
    _, ours, _ = trace_both("operators")
    args = [minitorch2.randn(3, 3), minitorch2.randn(3, 3)]
    expected = minitorch2.fx.Interpreter(ours).run(*args)
    boxed = list(args)
    got = minitorch2.fx.Interpreter(ours).boxed_run(boxed)
    assert boxed == []
    minitorch2.testing.assert_close(got[0], expected[0])
    with pytest.raises(RuntimeError, match="expected 2 arguments for placeholders but received 1"):
        minitorch2.fx.Interpreter(ours).boxed_run([args[0]])


def test_interpreter_error_names_the_node():
    gm = minitorch2.fx.symbolic_trace(lambda x: x.view(7))
    with pytest.raises(Exception, match="While executing %view"):
        minitorch2.fx.Interpreter(gm).run(minitorch2.randn(3))


@pytest.mark.parametrize("name", ["swish_seed", "conv_bn_silu", "kwargs_calls", "nested_user_modules"])
def test_transformer_identity_copies_as_torch_does(name):
    theirs, ours, _ = trace_both(name)
    assert torch.fx.Transformer(theirs).transform().code == minitorch2.fx.Transformer(ours).transform().code


def test_transformer_pass_rewrites_calls_as_torch_does():
    def build(lib):
        class SigmoidToTanh(lib.fx.Transformer):
            def call_function(self, target, args, kwargs):
                if target is lib.sigmoid:
                    return super().call_function(lib.tanh, args, kwargs)
                return super().call_function(target, args, kwargs)

            def call_method(self, target, args, kwargs):
                if target == "relu":
                    target = "sigmoid"
                return super().call_method(target, args, kwargs)

        return SigmoidToTanh

    theirs, ours, shapes = trace_both("swish_seed")
    new_theirs = build(torch)(theirs).transform()
    new_ours = build(minitorch2)(ours).transform()
    assert new_ours.code == new_theirs.code and "tanh" in new_ours.code
    inputs_theirs, inputs_ours = example_inputs(shapes)
    with torch.no_grad():
        expected = new_theirs(*inputs_theirs)
    with minitorch2.no_grad():
        assert_same_values(new_ours(*inputs_ours), expected)


def _metadata(meta):
    is_tensor_metadata = type(meta).__name__ == "TensorMetadata"
    if isinstance(meta, tuple) and not is_tensor_metadata:
        return tuple(_metadata(m) for m in meta)
    if isinstance(meta, list):
        return [_metadata(m) for m in meta]
    if isinstance(meta, dict):
        return {k: _metadata(v) for k, v in meta.items()}
    if is_tensor_metadata:
        return (tuple(meta.shape), str(meta.dtype), meta.requires_grad, tuple(meta.stride), str(meta.memory_format),
                meta.is_quantized, meta.qparams)
    return meta


@pytest.mark.parametrize("name", ["convnet", "method_calls", "tuple_and_dict_outputs", "unpack_and_chunk", "max_with_dim",
                                  "getattr_parameters"])
def test_shape_prop_records_torch_metadata(name):
    theirs, ours, shapes = trace_both(name)
    inputs_theirs, inputs_ours = example_inputs(shapes)
    TorchShapeProp(theirs).propagate(*inputs_theirs)
    ShapeProp(ours).propagate(*inputs_ours)
    recorded = 0
    for t, o in zip(theirs.graph.nodes, ours.graph.nodes):
        assert o.name == t.name
        assert ("tensor_meta" in o.meta) == ("tensor_meta" in t.meta), o.name
        if "tensor_meta" in t.meta:
            recorded += 1
            assert _metadata(o.meta["tensor_meta"]) == _metadata(t.meta["tensor_meta"]), o.name
        if t.meta["type"].__module__ == "torch.return_types":  # a structseq there, a namedtuple here
            assert issubclass(o.meta["type"], tuple) and hasattr(o.meta["type"], "indices")
        else:
            assert o.meta["type"].__name__ == t.meta["type"].__name__
    assert recorded > 0


def test_shape_prop_with_fake_tensors_and_channels_last():
    from minitorch2._subclasses.fake_tensor import FakeTensor, FakeTensorMode

    _, ours, shapes = trace_both("convnet")
    _, inputs = example_inputs(shapes)
    out = ShapeProp(ours, fake_mode=FakeTensorMode()).propagate(*inputs)
    assert isinstance(out, FakeTensor) and tuple(out.shape) == (2, 5)
    conv = next(n for n in ours.graph.nodes if n.name == "conv1")
    assert isinstance(conv.meta["tensor_meta"], TensorMetadata)
    assert tuple(conv.meta["tensor_meta"].shape) == (2, 4, 8, 8)
    gm = minitorch2.fx.symbolic_trace(lambda x: x.permute(0, 2, 3, 1).contiguous().permute(0, 3, 1, 2))
    ShapeProp(gm).propagate(minitorch2.randn(2, 3, 4, 5))
    assert gm.graph.output_node().meta["tensor_meta"].memory_format == minitorch2.channels_last


@pytest.mark.parametrize("flags", [{}, {"include_stride": True, "include_device": True}])
def test_print_readable_after_shape_prop_matches_torch(flags):
    theirs, ours, shapes = trace_both("conv_bn_silu")
    inputs_theirs, inputs_ours = example_inputs(shapes)
    TorchShapeProp(theirs).propagate(*inputs_theirs)
    ShapeProp(ours).propagate(*inputs_ours)
    for lib, gm in ((torch, theirs), (minitorch2, ours)):  # meta["val"]: what make_fx and Dynamo record
        for node in gm.graph.nodes:
            if node.name == "conv":
                node.meta["val"] = lib.zeros(4, 8, 6, 6).permute(0, 2, 3, 1)
    assert ours.print_readable(print_output=False, **flags) == theirs.print_readable(print_output=False, **flags)
