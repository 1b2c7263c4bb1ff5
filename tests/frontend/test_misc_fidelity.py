"""Odds and ends users hit, against real torch: a Python number beside a tensor in `&`, `|`, `^` records the
bitwise ops' Scalar overloads (make_fx, aot graphs) and compiled graphs run them; `~` on a float."""
import pytest
import torch
from torch.fx.experimental.proxy_tensor import make_fx as torch_make_fx

import frontend
import minitorch2
from autograd import make_fx


def bitwise_with_numbers(x, y):
    y2 = y.clone()
    y2 &= 3
    x2 = x.clone()
    x2 |= True
    x2 ^= x
    return (x & True, x | False, x ^ True, y & 3, y | 1, y ^ 5, True & x, 3 | y, x.bitwise_and(True),
            y.bitwise_or(2), y.__and__(1), y2, x2, (y & 1) + y, x & 2)


def _bitwise_inputs(lib):
    return lib.tensor([True, False, True]), lib.tensor([1, 2, 3])


def test_make_fx_records_the_scalar_overloads():
    ours = make_fx(bitwise_with_numbers)(*_bitwise_inputs(minitorch2))
    theirs = torch_make_fx(bitwise_with_numbers)(*_bitwise_inputs(torch))
    assert "bitwise_and.Scalar(x_1, True)" in ours.code
    assert ours.code == theirs.code


def test_scalar_tensor_overload_when_the_number_comes_first():
    def traced_code(lib, trace):
        def fn(x, y):
            return lib.bitwise_and(3, y), lib.bitwise_xor(True, x)
        return trace(fn)(*_bitwise_inputs(lib)).code

    ours = traced_code(minitorch2, make_fx)
    assert "bitwise_and.Scalar_Tensor(3, y_1)" in ours
    assert ours == traced_code(torch, torch_make_fx)


@pytest.mark.parametrize("backend", ["aot_eager", "inductor"])
def test_compiled_bitwise_with_numbers_matches_torch(backend):
    frontend.reset()
    ours = minitorch2.compile(bitwise_with_numbers, backend=backend)(*_bitwise_inputs(minitorch2))
    theirs = bitwise_with_numbers(*_bitwise_inputs(torch))
    assert [(str(o.dtype), o.tolist()) for o in ours] == [(str(t.dtype), t.tolist()) for t in theirs]


@pytest.mark.parametrize("expression", ["x & 1", "1 | x", "x ^ True", "x.bitwise_and_(1)"])
def test_bitwise_with_a_number_on_floats_refused_as_torch(expression):
    def outcome(lib):
        try:
            return eval(expression, {"x": lib.tensor([1.5, 2.0])}).tolist()
        except Exception as e:  # (the class and message are what is compared)
            return type(e).__name__, str(e)

    assert outcome(minitorch2) == outcome(torch)


def _error(fn, *args):
    try:
        fn(*args)
    except Exception as e:  # (the class and message are what is compared)
        return type(e).__name__, str(e)
    return None


def _invert(x):
    return ~x


def _invert_a_float(x):
    return x + ~1.5


def test_invert_of_a_float_tensor_is_torch_type_error():
    assert _error(_invert, minitorch2.tensor([1.5])) == _error(_invert, torch.tensor([1.5]))
    assert _error(_invert, minitorch2.tensor([1.5]))[0] == "TypeError"


@pytest.mark.parametrize("backend", ["eager", "inductor"])
def test_compiled_invert_of_a_float_tensor_fails_as_dynamo_does(backend):
    frontend.reset()
    torch._dynamo.reset()
    ours = _error(minitorch2.compile(_invert, backend=backend), minitorch2.tensor([1.5, 2.0]))
    theirs = _error(torch.compile(_invert, backend=backend), torch.tensor([1.5, 2.0]))
    assert ours[0] == theirs[0] == "TorchRuntimeError"
    assert ours[1].splitlines()[:2] == theirs[1].splitlines()[:2]  # (the explanation names the node and the error)


@pytest.mark.parametrize("fullgraph", [False, True])
def test_compiled_invert_of_a_python_float(fullgraph):
    frontend.reset()
    torch._dynamo.reset()
    ours = _error(minitorch2.compile(_invert_a_float, backend="eager", fullgraph=fullgraph), minitorch2.ones(2))
    theirs = _error(torch.compile(_invert_a_float, backend="eager", fullgraph=fullgraph), torch.ones(2))
    assert ours[0] == theirs[0]
    if not fullgraph:  # (with fullgraph, Dynamo's Unsupported says "Observed exception"; ours names the error)
        assert ours == theirs == ("TypeError", "bad operand type for unary ~: 'float'")


def test_compiled_invert_of_int_and_bool_tensors_matches_torch():
    frontend.reset()

    def fn(x, m):
        return ~x, ~m, (~x) & 6

    ours = minitorch2.compile(fn, backend="inductor")(minitorch2.tensor([1, -2, 3]), minitorch2.tensor([True, False]))
    theirs = fn(torch.tensor([1, -2, 3]), torch.tensor([True, False]))
    assert [(str(o.dtype), o.tolist()) for o in ours] == [(str(t.dtype), t.tolist()) for t in theirs]


def _kwargs_in_use_order(x, **kwargs):
    return x + kwargs["b"] * kwargs["a"]


def _args_and_kwargs(*args, **kwargs):
    return args[1] - kwargs["z"] + kwargs["a"] + args[0]


def _keyword_only_and_kwargs(x, *, k, **kw):
    return x * k + kw["m"]


def _items_of_containers(xs, d):
    return xs[1] + d["q"] + xs[0] + d["p"]


def _placeholder_line(lib, compile_fn, fn, args, kwargs):
    lines = []

    def backend(gm, example_inputs):
        lines.append(gm.code.strip().splitlines()[0])
        return gm.forward

    compile_fn(fn, backend=backend)(*[lib.ones(2) if a is None else a for a in args],
                                    **{k: lib.ones(2) * (i + 1) for i, k in enumerate(kwargs)})
    return lines


@pytest.mark.parametrize("fn, args, kwargs", [
    (_kwargs_in_use_order, (None,), ("a", "b")),
    (_kwargs_in_use_order, (None,), ("b", "a")),
    (_args_and_kwargs, (None, None), ("z", "a")),
    (_keyword_only_and_kwargs, (None,), ("m", "k")),
], ids=["a_then_b", "b_then_a", "args_and_kwargs", "keyword_only"])
def test_graph_inputs_from_args_and_kwargs_in_dynamos_order(fn, args, kwargs):
    """Dynamo wraps the items of *args and **kwargs at their first use: placeholders come in the order the frame
    uses them (L_kwargs_b_, L_kwargs_a_, L_x_ for x + kwargs["b"] * kwargs["a"])."""
    frontend.reset()
    torch._dynamo.reset()
    ours = _placeholder_line(minitorch2, minitorch2.compile, fn, args, kwargs)
    theirs = _placeholder_line(torch, torch.compile, fn, args, kwargs)
    assert ours == theirs


def test_items_of_list_and_dict_inputs_in_dynamos_order():
    frontend.reset()
    torch._dynamo.reset()

    def inputs(lib):
        return [lib.ones(1), lib.ones(1) * 2], {"p": lib.ones(1) * 3, "q": lib.ones(1) * 4}

    ours = _placeholder_line(minitorch2, minitorch2.compile, _items_of_containers, inputs(minitorch2), ())
    theirs = _placeholder_line(torch, torch.compile, _items_of_containers, inputs(torch), ())
    assert ours == theirs == ["def forward(self, L_xs_1_ : torch.Tensor, L_d_q_ : torch.Tensor, "
                              "L_xs_0_ : torch.Tensor, L_d_p_ : torch.Tensor):"]
