"""Common user mistakes get torch's error class, message and warnings (session 31's probes of what scripts do
wrong): a loss whose target broadcasts, an optimizer given a non-leaf or a set or named parameters, a gradient
assigned of the wrong size or dtype, .grad read on a non-leaf, requires_grad on an integer tensor, F.pad narrowing
below nothing. Each case runs under minitorch2 and torch and compares (result or error class and first line of its
message, plus the warnings raised)."""
import warnings

import pytest
import torch

import minitorch2


def _outcome(fn, lib):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            result = fn(lib)
            result = result.tolist() if isinstance(result, lib.Tensor) else result
        except Exception as e:  # noqa: BLE001 - the class and words are compared
            result = (type(e).__name__, str(e).splitlines()[0] if str(e) else "")
    return result, [str(w.message).splitlines()[0] for w in caught]


def check(fn):
    assert _outcome(fn, minitorch2) == _outcome(fn, torch)


LOSSES = ["mse_loss", "l1_loss", "smooth_l1_loss", "huber_loss"]


@pytest.mark.parametrize("loss", LOSSES)
def test_a_target_that_broadcasts_warns_as_torch(loss):
    check(lambda lib: getattr(lib.nn.functional, loss)(lib.arange(3.0).view(3, 1), lib.tensor([0.5, 1.0, -2.0])).item())


@pytest.mark.parametrize("loss", ["MSELoss", "L1Loss"])
def test_loss_modules_warn_as_their_functions(loss):
    check(lambda lib: getattr(lib.nn, loss)()(lib.ones(4, 1), lib.zeros(4)).item())


def _named(lib):
    lib.manual_seed(0)
    model = lib.nn.Sequential(lib.nn.Linear(2, 3), lib.nn.ReLU(), lib.nn.Linear(3, 1))
    opt = lib.optim.AdamW(model.named_parameters(), lr=0.1)
    model(lib.ones(4, 2)).sum().backward()
    opt.step()
    state = opt.state_dict()
    again = lib.optim.AdamW(model.named_parameters(), lr=0.5)
    again.load_state_dict(state)
    return (opt.param_groups[0]["param_names"], list(state["param_groups"][0]), sorted(state["state"]),
            again.param_groups[0]["lr"], [round(p.sum().item(), 5) for p in model.parameters()])


OPTIMIZER_MISTAKES = {
    "named_parameters": _named,
    "non_leaf": lambda lib: lib.optim.SGD([lib.ones(2, requires_grad=True) * 2], lr=0.1),
    "a_set_in_a_group": lambda lib: lib.optim.SGD([{"params": {lib.nn.Parameter(lib.ones(2))}}], lr=0.1),
    "not_a_tensor": lambda lib: lib.optim.SGD([1.0], lr=0.1),
    "names_missing": lambda lib: lib.optim.SGD([("w", lib.nn.Parameter(lib.ones(2))), lib.nn.Parameter(lib.ones(1))],
                                               lr=0.1),
    "groups_with_and_without_names": lambda lib: lib.optim.SGD(
        [{"params": [lib.nn.Parameter(lib.ones(2))]}, {"params": [("b", lib.nn.Parameter(lib.ones(1)))]}], lr=0.1),
    "group_not_a_dict": lambda lib: lib.optim.SGD([lib.nn.Parameter(lib.ones(2))], lr=0.1).add_param_group([]),
    "duplicate_parameters": lambda lib: len(lib.optim.SGD([lib.nn.Linear(1, 1).weight] * 2, lr=0.1).param_groups),
    "a_group_with_its_own_lr": lambda lib: [
        g["lr"] for g in lib.optim.SGD([{"params": lib.nn.Parameter(lib.ones(2)), "lr": 0.5}], lr=0.1).param_groups],
}


@pytest.mark.parametrize("case", OPTIMIZER_MISTAKES)
def test_optimizer_parameters_are_checked_as_torchs(case):
    check(OPTIMIZER_MISTAKES[case])


@pytest.mark.parametrize("value", ["wrong_size", "extra_dim", "float64", "int64", "float16", "a_list", "none", "ok"])
def test_an_assigned_gradient_is_checked_as_torchs(value):
    def fn(lib):
        t = lib.zeros(2, requires_grad=True)
        t.grad = {"wrong_size": lib.zeros(3), "extra_dim": lib.zeros(1, 2), "float64": lib.zeros(2, dtype=lib.float64),
                  "int64": lib.zeros(2, dtype=lib.int64), "float16": lib.zeros(2, dtype=lib.float16),
                  "a_list": [1.0, 2.0], "none": None, "ok": lib.ones(2)}[value]
        (t * 3).sum().backward()
        return t.grad
    check(fn)


def test_reading_grad_of_a_non_leaf_warns_unless_it_is_retained_or_set():
    def fn(lib):
        x = lib.ones(2, requires_grad=True) * 2
        first = x.grad
        x.grad = lib.zeros(2)
        y = lib.ones(2, requires_grad=True) * 3
        y.retain_grad()
        y.sum().backward()
        return first, x.grad.tolist(), y.grad.tolist(), lib.ones(2, requires_grad=True).grad
    check(fn)


REQUIRES_GRAD = {
    "method": lambda lib: lib.tensor([1, 2]).requires_grad_(),
    "attribute": lambda lib: setattr(lib.tensor([1]), "requires_grad", True),
    "factory_keyword": lambda lib: lib.tensor([1, 2], requires_grad=True),
    "zeros_long": lambda lib: lib.zeros(2, dtype=lib.long, requires_grad=True),
    "arange": lambda lib: lib.arange(3, requires_grad=True),
    "parameter_of_ints": lambda lib: lib.nn.Parameter(lib.tensor([1, 2])),
    "parameter_of_bools": lambda lib: lib.nn.Parameter(lib.tensor([True])),
    "parameter_without_grad": lambda lib: lib.nn.Parameter(lib.tensor([1, 2]), requires_grad=False).tolist(),
    "complex_method": lambda lib: lib.zeros(2, dtype=lib.complex64).requires_grad_().requires_grad,
    "turned_off": lambda lib: lib.tensor([1, 2]).requires_grad_(False).tolist(),
}


@pytest.mark.parametrize("case", REQUIRES_GRAD)
def test_requires_grad_on_an_integer_tensor_is_refused_in_torchs_words(case):
    check(REQUIRES_GRAD[case])


@pytest.mark.parametrize("pad", [(-4, 0), (-3, 0), (-2, -1), (-2, -2), (1, -4), (0, 0, -3, 0), (-1, -1), (2, -3)])
def test_constant_padding_narrowing_below_nothing_raises_as_torch(pad):
    check(lambda lib: lib.nn.functional.pad(lib.arange(6.0).view(2, 3), pad, value=-1.0))


@pytest.mark.parametrize("backend", ["aot_eager", "inductor"])
def test_compiled_constant_padding_narrowing_below_nothing_raises(backend):
    f = minitorch2.compile(lambda x: minitorch2.nn.functional.pad(x * 1, (-4, 0)), backend=backend)
    with pytest.raises(Exception, match="narrow\\(\\): length must be non-negative"):
        f(minitorch2.ones(2, 3))


NARROW = [(0, 3, 2), (0, 5, 0), (0, -1, 1), (0, -5, 1), (0, 4, 0), (0, 2, -1), (1, 0, 1), (0, -4, 4), (-1, -2, 2)]


@pytest.mark.parametrize("args", NARROW)
def test_narrow_counts_a_negative_start_from_the_end_and_checks_its_bounds(args):
    """A negative start gave an empty tensor (silent), a slice past the end was cut short."""
    check(lambda lib: lib.arange(4.0).narrow(*args))


def test_narrow_by_a_tensor_start_and_chunk_into_no_pieces():
    check(lambda lib: lib.narrow(lib.arange(5), 0, lib.tensor(1), 2))
    check(lambda lib: lib.arange(4).chunk(0))


WARNED = {
    "tensor_of_a_tensor": lambda lib: lib.tensor(lib.ones(2)),
    "new_tensor_of_a_tensor": lambda lib: lib.zeros(1).new_tensor(lib.ones(2), dtype=lib.float64),
    "tensor_of_a_list_of_tensors": lambda lib: lib.tensor([lib.ones(()), lib.zeros(())]),
    "softmax_without_dim": lambda lib: _rounded(lib.nn.functional.softmax(lib.arange(6.0).view(2, 3))),
    "log_softmax_without_dim": lambda lib: _rounded(lib.nn.functional.log_softmax(lib.arange(3.0))),
    "softmin_without_dim": lambda lib: _rounded(lib.nn.functional.softmin(lib.arange(3.0))),
    "softmax_with_dim": lambda lib: _rounded(lib.nn.functional.softmax(lib.arange(3.0), dim=0)),
}


def _rounded(t):  # (softmax's last bit is a known difference: test_probes_s30.py)
    return (t * 1e4).round()


@pytest.mark.parametrize("case", WARNED)
def test_torchs_warnings_on_copy_construction_and_an_implicit_softmax_dim(case):
    check(WARNED[case])


def _not_a_module(x):
    return x


WORDED = {
    "matmul_of_two_dtypes": lambda lib: lib.ones(2, 2) @ lib.ones(2, 2, dtype=lib.float64),
    "linear_of_double_input": lambda lib: lib.nn.functional.linear(lib.ones(2, 3, dtype=lib.float64), lib.ones(2, 3)),
    "mm_long_and_float": lambda lib: lib.ones(2, 2, dtype=lib.long) @ lib.ones(2, 2),
    "masked_fill_by_a_float_mask": lambda lib: lib.zeros(2).masked_fill(lib.tensor([1.0, 0.0]), 1.0),
    "where_by_a_long_condition": lambda lib: lib.where(lib.tensor([1, 0]), lib.ones(2), lib.zeros(2)),
    "mean_of_longs": lambda lib: lib.tensor([1, 2]).mean(),
    "randn_of_longs": lambda lib: lib.randn(2, dtype=lib.long),
    "rand_of_bools": lambda lib: lib.rand(2, dtype=lib.bool),
    "normal_into_longs": lambda lib: lib.zeros(2, dtype=lib.long).normal_(),
    "uniform_into_ints": lambda lib: lib.zeros(2, dtype=lib.int32).uniform_(),
    "normal_with_a_negative_std": lambda lib: lib.normal(0.0, -1.0, (2,)),
    "normal_with_a_fractional_negative_std": lambda lib: lib.normal(0.0, -0.25, (2,)),
    "bernoulli_beyond_one": lambda lib: lib.bernoulli(lib.tensor([1.5])),
    "module_dict_with_an_int_key": lambda lib: lib.nn.ModuleDict({1: lib.nn.ReLU()}),
    "sequential_of_a_function": lambda lib: lib.nn.Sequential(_not_a_module),
    "upsample_is_deprecated": lambda lib: lib.nn.functional.upsample(lib.ones(1, 1, 2, 2), scale_factor=2).shape,
}


@pytest.mark.parametrize("case", WORDED)
def test_errors_and_warnings_in_torchs_words(case):
    check(WORDED[case])
