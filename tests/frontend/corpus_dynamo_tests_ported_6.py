"""A sixth batch of programs in the style of Dynamo's own tests (test/dynamo/test_exceptions.py,
test_autograd_function.py, test_hooks.py, test_modules.py, test_higher_order_ops.py, test_subclasses.py), aimed at
what batches 1-5 left out: exceptions raised and caught inside the frame (user exception classes with attributes,
except with tuples of types, else and finally clauses, bare re-raise, raise ... from, __context__ and __cause__,
exceptions raised by helpers and by builtins: KeyError, IndexError, StopIteration, ZeroDivisionError, AttributeError,
assert statements on shapes, passing and failing); torch.autograd.Function subclasses called with .apply (attributes
stored on ctx, save_for_backward, non-tensor arguments, several outputs, mark_non_differentiable, mark_dirty,
once_differentiable, needs_input_grad read in forward, setup_context, apply in a loop, on inputs that require grad);
nn.Module hooks (forward pre-hooks and hooks, with_kwargs, removed handles, hooks on a child, hooks with side
effects, buffers registered in forward); torch.utils.checkpoint; and __torch_function__ subclasses and torch.cond.

Our own programs, not copies of corpus_dynamo_tests_ported*.py nor of pytorch's tests. Each PORTED program is a
function of two (3,) float tensors `a`, `b`; test_dynamo_tests_ported_6.py runs it under torch.compile and
minitorch2.compile with a CompileCounter and compares values, frame_count, op_count and the graph-break count.
The programs continue in corpus_dynamo_tests_ported_6b.py (user classes, the standard library, sizes and dtypes,
random and numpy, the recompile programs). The names given to exec are `torch` (minitorch2 or torch), `nn`, `F` and
`dynamo`.
"""

PORTED_SRC = r'''
import math


class _UserError(Exception):
    pass


class _TaggedError(ValueError):
    def __init__(self, tag):
        super().__init__(tag)
        self.tag = tag


# ---- exceptions raised and caught inside the frame
def ex6_raise_user_error_caught(a, b):
    try:
        raise _UserError("x")
    except _UserError:
        a = a + 1
    return a * b
def ex6_except_tuple_of_types(a, b):
    try:
        {}["missing"]
    except (IndexError, KeyError):
        return a - b
    return a + b
def ex6_exception_attribute_read(a, b):
    try:
        raise _TaggedError(3)
    except _TaggedError as e:
        return a * e.tag + b
def ex6_exception_args(a, b):
    try:
        raise ValueError(2, 5)
    except ValueError as e:
        return a * e.args[0] + b * e.args[1]
def ex6_try_else_runs(a, b):
    try:
        c = a + b
    except RuntimeError:
        c = a - b
    else:
        c = c * 2
    return c
def ex6_finally_after_return_in_helper(a, b):
    log = []
    def inner(x):
        try:
            return x.sin()
        finally:
            log.append(1)
    return inner(a) + b * len(log)
def ex6_nested_try_bare_reraise(a, b):
    try:
        try:
            raise KeyError("k")
        except KeyError:
            raise
    except KeyError:
        return a.cos() + b
def ex6_raise_from_then_cause(a, b):
    try:
        try:
            [][1]
        except IndexError as e:
            raise _UserError("wrapped") from e
    except _UserError as e:
        return a * (e.__cause__ is not None) + b
def ex6_raise_in_except_sets_context(a, b):
    try:
        try:
            raise ValueError
        except ValueError:
            raise TypeError
    except TypeError as e:
        return a + isinstance(e.__context__, ValueError) * b
def ex6_helper_raises_caller_catches(a, b):
    def check(x):
        if x.dim() != 1:
            raise ValueError("rank")
        return x * 2
    try:
        return check(a) + check(b.view(1, 3))
    except ValueError:
        return a - b
def ex6_assert_on_shape_passes(a, b):
    assert a.shape == b.shape, "shapes"
    assert a.dim() == 1
    return a * b
def ex6_assert_failure_caught(a, b):
    try:
        assert a.size(0) == 4, "not four"
    except AssertionError as e:
        return a + len(str(e))
    return a
def ex6_stop_iteration_caught(a, b):
    it = iter([a])
    next(it)
    try:
        next(it)
    except StopIteration:
        return b * 3
def ex6_next_with_default(a, b):
    it = iter([])
    return a + next(it, 2) * b
def ex6_exception_in_loop_continue(a, b):
    out = a
    for i in range(4):
        try:
            if i % 2:
                raise _UserError(i)
            out = out + b
        except _UserError:
            continue
    return out
def ex6_isinstance_of_caught_exception(a, b):
    try:
        int("x")
    except Exception as e:
        return a * isinstance(e, ValueError) + b * isinstance(e, TypeError)
def ex6_zero_division_caught(a, b):
    try:
        n = 1 // 0
    except ZeroDivisionError:
        n = 5
    return a * n
def ex6_attribute_error_caught(a, b):
    class Box:
        pass
    try:
        v = Box().missing
    except AttributeError:
        v = 2
    return a * v + b
def ex6_finally_with_tensor_work(a, b):
    try:
        c = a * 2
    finally:
        c = c + b
    return c
def ex6_except_order_first_match(a, b):
    try:
        raise _TaggedError(1)
    except ValueError:
        r = a
    except _TaggedError:
        r = b
    return r * 2
def ex6_exception_type_compare(a, b):
    try:
        raise _TaggedError(4)
    except Exception as e:
        same = type(e) is _TaggedError
    return a * same + b
def ex6_data_dependent_raise_not_taken(a, b):
    if (a * 0).sum() > 1:
        raise ValueError("never")
    return a + b
def ex6_try_around_graph_break(a, b):
    try:
        c = a * 2
        dynamo.graph_break()
        c = c + b
    except KeyError:
        c = a
    return c.relu()
def ex6_getattr_default_then_raise_caught(a, b):
    try:
        getattr(a, "not_a_tensor_attr")
    except AttributeError:
        return getattr(b, "also_missing", 3) * a
    return a
def ex6_exception_from_list_pop(a, b):
    xs = []
    try:
        xs.pop()
    except IndexError:
        xs.append(b)
    return a + xs[0]
def ex6_dict_keyerror_fallback_to_default(a, b):
    table = {"x": 2}
    def lookup(k):
        try:
            return table[k]
        except KeyError:
            return -1
    return a * lookup("x") + b * lookup("y")

def ex6_catch_base_class_of_user_error(a, b):
    try:
        raise _TaggedError(2)
    except Exception as e:
        return a * e.tag + b
def ex6_exception_message_in_fstring(a, b):
    try:
        raise KeyError("abc")
    except KeyError as e:
        msg = f"{e}!"
    return a * len(msg) + b
def ex6_break_out_of_loop_through_finally(a, b):
    out, seen = a, []
    for i in range(5):
        try:
            if i == 2:
                break
            out = out + b
        finally:
            seen.append(i)
    return out * len(seen)
def ex6_assert_on_tensor_condition(a, b):
    assert (a > -100).all(), "bounded"
    return a + b
def ex6_exception_two_helpers_deep(a, b):
    def inner(d):
        return d["missing"]
    def outer(d):
        return inner(d) * 2
    try:
        return outer({"x": a})
    except KeyError:
        return b.exp()


# ---- torch.autograd.Function
class _Scale(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, k):
        ctx.k = k
        return x * k
    @staticmethod
    def backward(ctx, g):
        return g * ctx.k, None
class _SinSaved(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x.sin()
    @staticmethod
    def backward(ctx, g):
        x, = ctx.saved_tensors
        return g * x.cos()
class _SumAndProd(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, y):
        ctx.save_for_backward(x, y)
        return x + y, x * y
    @staticmethod
    def backward(ctx, gs, gp):
        x, y = ctx.saved_tensors
        return gs + gp * y, gs + gp * x
class _ArgmaxKept(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        idx = x.argmax()
        ctx.mark_non_differentiable(idx)
        return x * 2, idx
    @staticmethod
    def backward(ctx, g, gidx):
        return g * 2
class _DoubleInPlace(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        x.mul_(2)
        ctx.mark_dirty(x)
        return x
    @staticmethod
    def backward(ctx, g):
        return g * 2
class _OnceExp(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        y = x.exp()
        ctx.save_for_backward(y)
        return y
    @staticmethod
    @torch.autograd.function.once_differentiable
    def backward(ctx, g):
        y, = ctx.saved_tensors
        return g * y
class _NeedsGrad(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, y):
        return x * 2 + y if ctx.needs_input_grad[0] else x - y
    @staticmethod
    def backward(ctx, g):
        return g * 2, g
class _SetupCtx(torch.autograd.Function):
    @staticmethod
    def forward(x, p):
        return x.pow(p)
    @staticmethod
    def setup_context(ctx, inputs, output):
        x, p = inputs
        ctx.save_for_backward(x)
        ctx.p = p
    @staticmethod
    def backward(ctx, g):
        x, = ctx.saved_tensors
        return g * ctx.p * x.pow(ctx.p - 1), None
def _cube_helper(x):
    return x * x * x
class _CallsHelper(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return _cube_helper(x)
    @staticmethod
    def backward(ctx, g):
        x, = ctx.saved_tensors
        return 3 * g * x * x
class _ReturnsTuple1(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return (x.tanh(),)
    @staticmethod
    def backward(ctx, g):
        return g


def af6_attribute_on_ctx(a, b):
    return _Scale.apply(a, 3) + b
def af6_save_for_backward(a, b):
    return _SinSaved.apply(a) * b
def af6_two_outputs(a, b):
    s, p = _SumAndProd.apply(a, b)
    return s - p
def af6_non_differentiable_output(a, b):
    y, idx = _ArgmaxKept.apply(a)
    return y + b[idx]
def af6_mark_dirty_on_clone(a, b):
    return _DoubleInPlace.apply(a.clone()) + b
def af6_once_differentiable(a, b):
    return _OnceExp.apply(a) - b
def af6_needs_input_grad_read_in_forward(a, b):
    return _NeedsGrad.apply(a, b)
def af6_setup_context_style(a, b):
    return _SetupCtx.apply(a, 2) + b
def af6_forward_calls_module_helper(a, b):
    return _CallsHelper.apply(a) * b
def af6_apply_in_loop(a, b):
    out = a
    for k in (1, 2, 3):
        out = _Scale.apply(out, k)
    return out + b
def af6_one_element_tuple_output(a, b):
    return _ReturnsTuple1.apply(a)[0] + b
def af6_on_input_that_requires_grad(a, b):
    x = a.detach().requires_grad_()
    y = _SinSaved.apply(x)
    return y.detach() + b
def af6_grad_through_function(a, b):
    x = a.detach().requires_grad_()
    y = _SumAndProd.apply(x, b)[1].sum()
    g, = torch.autograd.grad(y, x)
    return g
def af6_apply_under_no_grad(a, b):
    with torch.no_grad():
        y = _SinSaved.apply(a)
    return y * b
def af6_two_functions_chained(a, b):
    return _Scale.apply(_SinSaved.apply(a), 0.5) + _CallsHelper.apply(b)
def af6_float_and_tensor_args_mixed(a, b):
    k = float(a.shape[0]) / 2
    return _Scale.apply(b, k) + a

class _ViewOut(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x.view_as(x)
    @staticmethod
    def backward(ctx, g):
        return g
class _NoGradInside(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, k):
        with torch.no_grad():
            y = x * k
        return y + 1
    @staticmethod
    def backward(ctx, g):
        return g, None
def af6_forward_returns_view(a, b):
    return _ViewOut.apply(a * 2) + b
def af6_no_grad_block_in_forward(a, b):
    return _NoGradInside.apply(a, 4) - b
def af6_python_number_then_tensor(a, b):
    return _Scale.apply(b, a.shape[0]) * a


# ---- nn.Module hooks
class _Lin(nn.Module):
    def __init__(self):
        super().__init__()
        self.w = nn.Parameter(torch.linspace(-1, 1, 9).reshape(3, 3))
    def forward(self, x):
        return x @ self.w
class _Pair(nn.Module):
    def __init__(self):
        super().__init__()
        self.first, self.second = _Lin(), _Lin()
    def forward(self, x):
        return self.second(self.first(x).relu())
class _BufferInForward(nn.Module):
    def forward(self, x):
        self.register_buffer("last", x * 2)
        return self.last + 1


_pre_hooked = _Lin()
_pre_hooked.register_forward_pre_hook(lambda m, args: (args[0] * 2,))
_post_hooked = _Lin()
_post_hooked.register_forward_hook(lambda m, args, out: out + 1)
_kw_hooked = _Lin()
_kw_hooked.register_forward_pre_hook(lambda m, args, kwargs: ((args[0] - 1,), kwargs), with_kwargs=True)
_removed = _Lin()
_removed.register_forward_hook(lambda m, args, out: out * 100).remove()
_none_hook = _Lin()
_none_hook.register_forward_hook(lambda m, args, out: None)
_child_hooked = _Pair()
_child_hooked.first.register_forward_hook(lambda m, args, out: out.neg())
_HOOK_LOG = []
_logging_hook = _Lin()
_logging_hook.register_forward_hook(lambda m, args, out: _HOOK_LOG.append(out.shape[0]))
_both = _Lin()
_both.register_forward_pre_hook(lambda m, args: (args[0] + 1,))
_both.register_forward_hook(lambda m, args, out: out * 2)
_two_pre = _Lin()
_two_pre.register_forward_pre_hook(lambda m, args: (args[0] * 3,))
_two_pre.register_forward_pre_hook(lambda m, args: (args[0] - 1,))
_backward_hooked = _Lin()
_backward_hooked.register_full_backward_hook(lambda m, gin, gout: None)
_buffered = _BufferInForward()


def mh6_forward_pre_hook_changes_input(a, b):
    return _pre_hooked(a) + b
def mh6_forward_hook_changes_output(a, b):
    return _post_hooked(a) * b
def mh6_pre_hook_with_kwargs(a, b):
    return _kw_hooked(a) + b
def mh6_removed_hook_not_called(a, b):
    return _removed(a) + b
def mh6_hook_returning_none_keeps_output(a, b):
    return _none_hook(a) - b
def mh6_hook_on_child_module(a, b):
    return _child_hooked(a) + b
def mh6_hook_with_side_effect(a, b):
    _HOOK_LOG.clear()
    y = _logging_hook(a)
    return y * len(_HOOK_LOG)
def mh6_pre_and_post_hooks(a, b):
    return _both(a) + _both(b)
def mh6_two_pre_hooks_in_order(a, b):
    return _two_pre(a) * b
def mh6_full_backward_hook_forward_only(a, b):
    return _backward_hooked(a) + b
def mh6_register_buffer_in_forward(a, b):
    return _buffered(a) * b
def mh6_hooked_module_twice(a, b):
    return _post_hooked(_post_hooked(a)) + b
def mh6_module_called_via_forward_skips_hooks(a, b):
    return _post_hooked.forward(a) + b


# ---- torch.utils.checkpoint, __torch_function__ subclasses, torch.cond
def _block(x, y):
    return (x * y).sin() + x
def ck6_checkpoint_non_reentrant(a, b):
    return torch.utils.checkpoint.checkpoint(_block, a, b, use_reentrant=False) * 2
def ck6_checkpoint_of_module(a, b):
    return torch.utils.checkpoint.checkpoint(_post_hooked, a, use_reentrant=False) + b
class _Passthrough(torch.Tensor):
    @classmethod
    def __torch_function__(cls, func, types, args=(), kwargs=None):
        return super().__torch_function__(func, types, args, kwargs or {})
def tf6_subclass_made_in_frame(a, b):
    x = a.as_subclass(_Passthrough)
    return (x + b).as_subclass(torch.Tensor) * 2
def tf6_torch_function_counts_calls(a, b):
    return torch.add(a.as_subclass(_Passthrough), b).sin().as_subclass(torch.Tensor)
def co6_cond_on_shape(a, b):
    return torch.cond(a.shape[0] > 2, lambda x, y: x + y, lambda x, y: x - y, (a, b))
def co6_cond_on_tensor_predicate(a, b):
    return torch.cond(a.sum() > 0, lambda x: x.sin(), lambda x: x.cos(), (b,))
'''
