"""Issue 20's names (the in-place forms, aliases and small functions scripts stop at), each against torch:
values and dtype; for the in-place forms also that the result is self, the version counter moved and the
grad_fn is torch's; errors where torch raises."""
import warnings

import numpy as np
import pytest
import torch

import minitorch2

X = np.array([[1.5, -2.25, 0.75], [0.5, 2.0, -1.0]], dtype=np.float32)
UNIT = np.array([[0.5, -0.25, 0.75], [0.1, 0.6, -0.9]], dtype=np.float32)
INTS = np.array([[6, -4, 9], [10, 0, -15]], dtype=np.int64)


def both(array, requires_grad=False):
    return minitorch2.tensor(array, requires_grad=requires_grad), torch.tensor(array, requires_grad=requires_grad)


def assert_same(ours, theirs):
    if isinstance(theirs, (tuple, list)):
        assert len(ours) == len(theirs)
        for o, t in zip(ours, theirs):
            assert_same(o, t)
        return
    if not isinstance(theirs, torch.Tensor):
        assert ours == theirs
        return
    if theirs._is_zerotensor():  # (sgn_'s gradient: a ZeroTensor numpy cannot read)
        theirs = torch.zeros(theirs.shape, dtype=theirs.dtype)
    assert str(ours.dtype) == str(theirs.dtype)
    assert tuple(ours.shape) == tuple(theirs.shape)
    np.testing.assert_allclose(ours.detach().numpy(), theirs.detach().numpy(), rtol=1e-5, atol=1e-6)


# (method name, input, positional arguments: a numpy array there becomes a tensor of each library)
IN_PLACE = [
    *[(name, UNIT, ()) for name in (
        "acos_", "asin_", "atan_", "cos_", "cosh_", "sin_", "sinh_", "tan_", "ceil_", "floor_", "trunc_", "frac_",
        "sign_", "sgn_", "square_", "negative_", "absolute_", "arccos_", "arcsin_", "arctan_", "fix_", "asinh_",
        "atanh_", "arcsinh_", "arctanh_", "deg2rad_", "rad2deg_", "nan_to_num_", "sigmoid_", "exp_", "log1p_")],
    *[(name, X + 3, ()) for name in ("log10_", "log2_", "rsqrt_", "reciprocal_", "acosh_", "arccosh_")],
    *[(name, X, (UNIT,)) for name in (
        "atan2_", "arctan2_", "hypot_", "fmod_", "remainder_", "eq_", "ne_", "lt_", "le_", "gt_", "ge_",
        "greater_", "greater_equal_", "less_", "less_equal_", "not_equal_", "nextafter_", "subtract_", "multiply_",
        "divide_", "true_divide_", "heaviside_", "logical_and_", "logical_or_", "logical_xor_", "ldexp_")],
    *[(name, X, (0.5,)) for name in ("fmod_", "remainder_", "eq_", "lt_", "clamp_max_", "clamp_min_", "clip_")],
    ("cumsum_", X, (1,)), ("cumprod_", X, (0,)), ("tril_", X, ()), ("triu_", X, (1,)),
    ("swapaxes_", X, (0, 1)), ("swapdims_", X, (1, 0)),
    *[(name, INTS, (INTS[::-1].copy(),)) for name in ("gcd_", "lcm_", "bitwise_and_", "bitwise_or_", "bitwise_xor_")],
    ("bitwise_not_", INTS, ()), ("bitwise_and_", INTS, (3,)), ("floor_divide_", INTS, (4,)),
    ("polygamma_", X + 3, (1,)), ("index_add_", X, (1, np.array([2, 0]), UNIT[:, :2])),
]


def _arguments(args, lib):
    return [(minitorch2 if lib is minitorch2 else torch).tensor(a) if isinstance(a, np.ndarray) else a for a in args]


@pytest.mark.parametrize("name,values,args", IN_PLACE, ids=[f"{case[0]}-{i}" for i, case in enumerate(IN_PLACE)])
def test_in_place_method_is_torchs(name, values, args):
    results = []
    for lib in (minitorch2, torch):
        self = lib.tensor(values)
        version = self._version
        out = getattr(self, name)(*_arguments(args, lib))
        assert out is self, f"{name} returned another object"
        assert self._version > version, f"{name} did not bump the version counter"
        results.append(out)
    assert_same(*results)


DIFFERENTIABLE = ["acos_", "sin_", "tan_", "log10_", "rsqrt_", "reciprocal_", "ceil_", "sgn_", "frac_", "deg2rad_",
                  "nan_to_num_", "square_", "negative_", "arccos_", "atan2_", "hypot_", "fmod_", "remainder_",
                  "eq_", "lt_", "clamp_max_", "cumsum_", "cumprod_", "tril_", "nextafter_", "acosh_", "index_add_"]


@pytest.mark.parametrize("name", DIFFERENTIABLE)
def test_in_place_grad_fn_and_gradient(name):
    values, args = next((v, a) for n, v, a in IN_PLACE if n == name)
    grads, names = [], []
    for lib in (minitorch2, torch):
        leaf = lib.tensor(values, requires_grad=True)
        out = getattr(leaf * 1, name)(*_arguments(args, lib))
        names.append(out.grad_fn.name())
        try:
            out.sum().backward()
            grads.append(leaf.grad)
        except (RuntimeError, NotImplementedError) as e:
            grads.append(type(e).__name__)
    assert names[0] == names[1]
    if isinstance(grads[1], str):
        assert grads[0] == grads[1]
    else:
        assert_same(grads[0], grads[1])


FUNCTIONS = [
    ("acosh", (X + 3,)), ("asinh", (X,)), ("atanh", (UNIT,)), ("arccosh", (X + 3,)), ("arcsinh", (X,)),
    ("arctanh", (UNIT,)), ("deg2rad", (X,)), ("rad2deg", (X,)), ("deg2rad", (INTS,)), ("fmax", (X, UNIT)),
    ("fmin", (X, UNIT)), ("logaddexp2", (X, UNIT)), ("nextafter", (X, UNIT)), ("gcd", (INTS, INTS[::-1].copy())),
    ("lcm", (INTS, INTS[::-1].copy())), ("ravel", (X.T,)), ("fliplr", (X,)), ("flipud", (X,)), ("positive", (X,)),
    ("isneginf", (np.array([-np.inf, 1, np.inf], np.float32),)), ("isposinf", (np.array([-np.inf, np.inf]),)),
    ("isreal", (X,)), ("is_signed", (X,)), ("is_signed", (np.array([1], np.uint8),)), ("is_same_size", (X, UNIT)),
    ("dist", (X, UNIT)), ("dist", (X, UNIT, 1)), ("vdot", (X[0], UNIT[0])), ("matrix_power", (X[:, :2], 0)),
    ("matrix_power", (X[:, :2], 1)), ("matrix_power", (X[:, :2], 3)), ("matrix_power", (X[:, :2], 6)),
    ("msort", (X,)), ("diagflat", (X,)), ("diagflat", (X[0], 1)), ("ldexp", (X, INTS % 4)),
    ("split_with_sizes", (X, [1, 2], 1)), ("unsafe_split", (X, 2, 1)), ("unsafe_chunk", (X, 2, 1)),
    ("narrow_copy", (X, 1, 1, 2)), ("select_scatter", (X, UNIT[0], 0, 1)),
    ("slice_scatter", (X, UNIT[:, :2], 1, 0, 2)), ("diagonal_scatter", (X, UNIT[0, :2])), ("row_stack", ([X, UNIT],)),
]


@pytest.mark.parametrize("name,args", FUNCTIONS, ids=[f"{case[0]}-{i}" for i, case in enumerate(FUNCTIONS)])
def test_function_and_method_are_torchs(name, args):
    def call(lib, as_method):
        converted = [[lib.tensor(x) for x in a] if isinstance(a, list) else a for a in _arguments(args, lib)]
        if as_method:
            return getattr(converted[0], name)(*converted[1:])
        return getattr(lib, name)(*converted)

    assert_same(call(minitorch2, False), call(torch, False))
    if name not in ("row_stack", "select_scatter", "slice_scatter", "diagonal_scatter") or hasattr(torch.ones(1), name):
        assert_same(call(minitorch2, True), call(torch, True))


@pytest.mark.parametrize("name", ["cos_", "exp_", "sqrt_", "neg_", "trunc_", "deg2rad_", "square_", "zero_", "detach_"])
def test_torch_level_in_place_functions(name):
    ours, theirs = both(X + 3)
    assert getattr(minitorch2, name)(ours) is ours
    getattr(torch, name)(theirs)
    assert_same(ours, theirs)


def test_small_helpers():
    ours, theirs = both(X)
    assert ours.get_device() == theirs.get_device() == -1
    assert minitorch2.broadcast_shapes((2, 1), (3,), 1) == torch.broadcast_shapes((2, 1), (3,), 1)
    assert str(minitorch2.get_default_device()) == str(torch.get_default_device())
    minitorch2.set_default_device("cpu")
    assert_same(minitorch2.fill(ours, 2.5), torch.fill(theirs, 2.5))
    assert_same(ours.clone().apply_(lambda v: v * 2 + 1), theirs.clone().apply_(lambda v: v * 2 + 1))
    other_ours, other_theirs = both(UNIT)
    assert_same(ours.clone().map_(other_ours, lambda a, b: a - b),
                theirs.clone().map_(other_theirs, lambda a, b: a - b))
    assert_same(minitorch2.tensor([3.0, 4.0], dtype=minitorch2.float64).float_power_(2),
                torch.tensor([3.0, 4.0], dtype=torch.float64).float_power_(2))


ERRORS = [
    lambda lib: lib.fliplr(lib.ones(3)),
    lambda lib: lib.flipud(lib.tensor(1.0)),
    lambda lib: lib.positive(lib.tensor([True])),
    lambda lib: lib.tensor([1.0]).float_power_(2),
    lambda lib: lib.ones(2, 3).cumsum_(0, dtype=lib.float64),
    lambda lib: lib.ones(2, 3).matrix_power(2),
    lambda lib: lib.tensor([1, 2]).sin_(),
    lambda lib: lib.tensor([1.0]).gcd_(lib.tensor([2.0])),
    lambda lib: lib.ones(2, 3).eq_(lib.ones(3, 3)),
    lambda lib: lib.ones(2, requires_grad=True).apply_(lambda v: v),
]


@pytest.mark.parametrize("case", range(len(ERRORS)))
def test_errors_match_torchs(case):
    outcomes = []
    for lib in (minitorch2, torch):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            try:
                ERRORS[case](lib)
                outcomes.append(None)
            except (RuntimeError, TypeError, NotImplementedError) as e:
                outcomes.append(type(e).__name__)
    assert outcomes[0] is not None and outcomes[0] == outcomes[1]


FACTORY_LIKE = [
    lambda lib: lib.unravel_index(lib.tensor([9, 8, -9, 3]), (2, 4)),
    lambda lib: lib.cumulative_trapezoid(lib.tensor([[1.0, 2.0, 4.0, 7.0], [0.5, 1.0, -1.0, 2.0]])),
    lambda lib: lib.cumulative_trapezoid(lib.tensor([1.0, 2.0, 4.0, 7.0]), dx=0.5),
    lambda lib: lib.cumulative_trapezoid(lib.tensor([1.0, 2.0, 4.0, 7.0]), lib.tensor([0.0, 1.0, 3.0, 4.0])),
    lambda lib: lib.zeros(2, 3).put_(lib.tensor([0, 5, -1]), lib.tensor([1.0, 2.0, 3.0]), accumulate=True),
    lambda lib: lib.zeros(3, 2).t().put_(lib.tensor([1, 4]), lib.tensor([1.0, 2.0])),
    lambda lib: lib.put(lib.zeros(2, 3), lib.tensor([0, 4]), lib.tensor([1.0, 2.0])),
    lambda lib: lib.tensor(X).renorm(2, 0, 1.0),
    lambda lib: lib.tensor(X).renorm(1, 1, 2.0),
    lambda lib: lib.tensor(X).renorm_(2, 0, 1.0),
    lambda lib: lib.logspace(0, 2, 5),
    lambda lib: lib.logspace(-1, 3, 4, base=2, dtype=lib.float64),
    lambda lib: lib.asarray([1, 2.5]),
    lambda lib: lib.asarray(lib.tensor([1, 2]), dtype=lib.float32),
]


@pytest.mark.parametrize("case", range(len(FACTORY_LIKE)))
def test_functions_beyond_rows(case):
    assert_same(FACTORY_LIKE[case](minitorch2), FACTORY_LIKE[case](torch))


def test_deprecated_range_and_default_tensor_type():
    for lib in (minitorch2, torch):
        with pytest.warns(UserWarning, match="torch.range is deprecated"):
            values = lib.range(0, 1, 0.25)
        assert values.tolist() == [0.0, 0.25, 0.5, 0.75, 1.0] and str(values.dtype) == "torch.float32"
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # (torch warns once a process: whether here depends on earlier tests)
            lib.set_default_tensor_type(lib.DoubleTensor)
            try:
                assert str(lib.ones(1).dtype) == "torch.float64"
            finally:
                lib.set_default_tensor_type(lib.FloatTensor)
    ours = minitorch2.tensor([1.0])
    assert minitorch2.asarray(ours) is ours


def _script(lib, x, y, index):
    z = x * 2
    z.sin_()
    z.fmod_(1.5)
    z.cumsum_(0)
    z.tril_()
    z.clamp_max_(0.5)
    z.index_add_(0, index, y)
    w = (x * 1).eq_(y).logical_or_(y > 0.5)
    return z.hypot_(y) + lib.fmax(x, y) + lib.deg2rad(x) + z.asinh() + w + lib.logaddexp2(x, y).nextafter_(y)


def test_in_place_forms_compile_and_differentiate_as_torchs():
    """Functionalization replaces each in-place form with its functional op; values and gradients stay torch's."""
    values = np.random.default_rng(0).random((2, 3, 3)).astype(np.float32)
    grads = []
    for lib, run in ((minitorch2, minitorch2.compile(lambda x, y, i: _script(minitorch2, x, y, i))),
                     (torch, lambda x, y, i: _script(torch, x, y, i))):
        x, y = lib.tensor(values[0], requires_grad=True), lib.tensor(values[1])
        out = run(x, y, lib.tensor([1, 0, 2]))
        out.sum().backward()
        grads.append((out, x.grad))
    assert_same(grads[0], grads[1])


def test_logical_in_place_keeps_history():
    for lib in (minitorch2, torch):
        x = lib.tensor(X, requires_grad=True)
        w = x * 1
        w.logical_xor_(lib.tensor(UNIT))
        assert w.grad_fn.name() == "MulBackward0"


def test_storage_and_empty_strided():
    for lib in (minitorch2, torch):
        x = lib.arange(6.0).view(2, 3)[:, 1:]
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # (TypedStorage's deprecation warning comes once a process)
            storage = x.storage()
        assert (storage.size(), len(storage), storage.element_size(), storage.nbytes()) == (6, 6, 4, 24)
        assert storage.data_ptr() == x.untyped_storage().data_ptr()
        assert storage.tolist() == [0.0, 1.0, 2.0, 3.0, 4.0, 5.0] and str(storage.dtype) == "torch.float32"
        empty = lib.empty_strided((2, 3), (1, 2), dtype=lib.float64)
        assert empty.stride() == (1, 2) and str(empty.dtype) == "torch.float64"


PRINT_OPTIONS = [dict(precision=2), dict(threshold=5, edgeitems=1), dict(linewidth=30), dict(profile="short"),
                 dict(profile="full"), dict(profile="short", precision=6)]


@pytest.mark.parametrize("options", PRINT_OPTIONS, ids=[str(o) for o in PRINT_OPTIONS])
def test_set_printoptions_repr_is_torchs(options):
    values = np.linspace(-3, 3, 2000, dtype=np.float32).reshape(40, 50) / 7
    reprs = []
    for lib in (minitorch2, torch):
        lib.set_printoptions(**options)
        try:
            reprs.append([repr(lib.tensor(v)) for v in (values, values[0, :12], values[:3, :3], INTS)])
        finally:
            lib.set_printoptions(profile="default")
    assert reprs[0] == reprs[1]
