"""optim.LBFGS (as torch.optim.LBFGS): limited-memory BFGS with an optional strong-Wolfe line search.

Coverage surface (outside the lesson): scripts fitting small problems (style transfer, curve
fits, physics-informed nets) call `optimizer.step(closure)` with it.

One `step(closure)` runs up to `max_iter` iterations over all parameters flattened into one
vector. The search direction comes from the two-loop recursion over the last `history_size`
pairs (s = step taken, y = change of gradient); the step length is `lr` (the first iteration
scales it by the gradient's 1-norm), or is found by `_strong_wolfe`: bracket a step satisfying
the sufficient-decrease and curvature conditions, then zoom in with cubic interpolation.

The arithmetic is PyTorch's, in its order: its scalars are 0-dim tensors of the parameters'
dtype (dot products, norms) mixed with Python floats (losses, the step length once a scalar),
and `float / tensor` is `tensor.reciprocal() * float` (`divide`). As in PyTorch, all state is
kept under the first parameter, so state dicts carry over.
"""
from .. import _factories, _functions
from ..autograd.grad_mode import enable_grad, no_grad
from .optimizer import Optimizer, divide


def _cubic_minimizer(x1, f1, g1, x2, f2, g2, bounds=None):
    """The minimizer of the cubic through (x1, f1) and (x2, f2) with slopes g1, g2, clamped to `bounds`.

    Without a real minimizer (the discriminant is negative) it is the bounds' midpoint.
    """
    low, high = bounds if bounds is not None else ((x1, x2) if x1 <= x2 else (x2, x1))
    d1 = g1 + g2 - divide(3 * (f1 - f2), x1 - x2)
    d2_square = d1**2 - g1 * g2
    if not d2_square >= 0:
        return (low + high) / 2.0
    d2 = d2_square.sqrt()
    if x1 <= x2:
        minimizer = x2 - (x2 - x1) * ((g2 + d2 - d1) / (g2 - g1 + 2 * d2))
    else:
        minimizer = x1 - (x1 - x2) * ((g1 + d2 - d1) / (g1 - g2 + 2 * d2))
    return min(max(minimizer, low), high)


class _Bracket:
    """The line search's interval: two (step, loss, flat gradient, directional derivative) points."""

    def __init__(self, *points):
        self.t = [p[0] for p in points]
        self.f = [p[1] for p in points]
        self.g = [p[2] for p in points]
        self.gtd = [p[3] for p in points]

    def set(self, index, t, f, g, gtd):
        self.t[index], self.f[index], self.g[index], self.gtd[index] = t, f, g, gtd

    def low_high(self):
        return (0, 1) if self.f[0] <= self.f[-1] else (1, 0)


def _strong_wolfe(evaluate, t, d, f, g, gtd, c1=1e-4, c2=0.9, tolerance_change=1e-9, max_ls=25):
    """Find a step `t` along `d` meeting the strong Wolfe conditions; returns (loss, flat grad, t, evaluations)."""
    d_norm = d.abs().max()
    g = g.clone()
    f_new, g_new = evaluate(t)
    evaluations = 1
    gtd_new = g_new.dot(d)
    t_prev, f_prev, g_prev, gtd_prev = 0, f, g, gtd
    done, ls_iter, bracket = False, 0, None
    while ls_iter < max_ls:
        if f_new > (f + c1 * t * gtd) or (ls_iter > 1 and f_new >= f_prev):
            bracket = _Bracket((t_prev, f_prev, g_prev, gtd_prev), (t, f_new, g_new.clone(), gtd_new))
            break
        if abs(gtd_new) <= -c2 * gtd:
            bracket, done = _Bracket((t, f_new, g_new, None)), True
            break
        if gtd_new >= 0:
            bracket = _Bracket((t_prev, f_prev, g_prev, gtd_prev), (t, f_new, g_new.clone(), gtd_new))
            break
        # extrapolate: the next trial lies beyond t, at most ten times as far
        bounds = (t + 0.01 * (t - t_prev), t * 10)
        t_prev, t = t, _cubic_minimizer(t_prev, f_prev, gtd_prev, t, f_new, gtd_new, bounds=bounds)
        f_prev, g_prev, gtd_prev = f_new, g_new.clone(), gtd_new
        f_new, g_new = evaluate(t)
        evaluations += 1
        gtd_new = g_new.dot(d)
        ls_iter += 1
    if ls_iter == max_ls:
        bracket = _Bracket((0, f, g, None), (t, f_new, g_new, None))
    low, high = bracket.low_high()
    insufficient_progress = False
    while not done and ls_iter < max_ls:
        if abs(bracket.t[1] - bracket.t[0]) * d_norm < tolerance_change:
            break
        t = _cubic_minimizer(bracket.t[0], bracket.f[0], bracket.gtd[0], bracket.t[1], bracket.f[1], bracket.gtd[1])
        t, insufficient_progress = _keep_off_the_ends(t, bracket.t, insufficient_progress)
        f_new, g_new = evaluate(t)
        evaluations += 1
        gtd_new = g_new.dot(d)
        ls_iter += 1
        if f_new > (f + c1 * t * gtd) or f_new >= bracket.f[low]:
            bracket.set(high, t, f_new, g_new.clone(), gtd_new)
            low, high = bracket.low_high()
            continue
        if abs(gtd_new) <= -c2 * gtd:
            done = True
        elif gtd_new * (bracket.t[high] - bracket.t[low]) >= 0:
            bracket.set(high, bracket.t[low], bracket.f[low], bracket.g[low], bracket.gtd[low])
        bracket.set(low, t, f_new, g_new.clone(), gtd_new)
    return bracket.f[low], bracket.g[low], bracket.t[low], evaluations


def _keep_off_the_ends(t, ends, insufficient_progress):
    """A trial within a tenth of the bracket's length from an end moves a tenth in (the second time, or at the end)."""
    tenth = 0.1 * (max(ends) - min(ends))
    if not min(max(ends) - t, t - min(ends)) < tenth:
        return t, False
    if not (insufficient_progress or t >= max(ends) or t <= min(ends)):
        return t, True
    if abs(t - max(ends)) < abs(t - min(ends)):
        return max(ends) - tenth, False
    return min(ends) + tenth, False


class LBFGS(Optimizer):
    def __init__(self, params, lr=1, max_iter=20, max_eval=None, tolerance_grad=1e-7, tolerance_change=1e-9,
                 history_size=100, line_search_fn=None):
        if not 0.0 <= lr:
            raise ValueError(f"Invalid learning rate: {lr}")
        if max_eval is None:
            max_eval = max_iter * 5 // 4
        defaults = dict(lr=lr, max_iter=max_iter, max_eval=max_eval, tolerance_grad=tolerance_grad,
                        tolerance_change=tolerance_change, history_size=history_size, line_search_fn=line_search_fn)
        super().__init__(params, defaults)
        if len(self.param_groups) != 1:
            raise ValueError("LBFGS doesn't support per-parameter options (parameter groups)")
        self._params = self.param_groups[0]["params"]

    def _flat_grad(self):
        views = [p.grad.reshape(-1) if p.grad is not None else _factories.zeros(p.numel(), dtype=p.dtype)
                 for p in self._params]
        return _functions.cat(views, 0)

    def _add_to_params(self, step_size, direction):
        offset = 0
        for p in self._params:
            p.add_(direction[offset:offset + p.numel()].view_as(p), alpha=step_size)
            offset += p.numel()

    def _evaluate_at(self, closure, start, t, d):
        """Loss and flat gradient at start + t * d; the parameters go back to `start` afterwards."""
        self._add_to_params(t, d)
        loss = float(closure())
        flat_grad = self._flat_grad()
        for p, value in zip(self._params, start):
            p.copy_(value)
        return loss, flat_grad

    @staticmethod
    def _two_loop_direction(flat_grad, work, al):
        """The approximate inverse Hessian times minus the gradient, from the stored (s, y) pairs.

        `al` is the first loop's coefficients, a list PyTorch keeps in the state and overwrites in place.
        """
        old_dirs, old_stps, ro = work["old_dirs"], work["old_stps"], work["ro"]
        q = flat_grad.neg()
        for i in range(len(old_dirs) - 1, -1, -1):
            al[i] = old_stps[i].dot(q) * ro[i]
            q.add_(old_dirs[i], alpha=-al[i])
        r = _functions.mul(q, work["H_diag"])
        for i in range(len(old_dirs)):
            be_i = old_dirs[i].dot(r) * ro[i]
            r.add_(old_stps[i], alpha=al[i] - be_i)
        return r

    @staticmethod
    def _remember(work, flat_grad, history_size):
        """Store the last iteration's (s, y) pair when its curvature is positive; rescale the initial Hessian."""
        y = flat_grad.sub(work["prev_flat_grad"])
        s = work["d"].mul(work["t"])
        ys = y.dot(s)
        if ys > 1e-10:
            if len(work["old_dirs"]) == history_size:
                for key in ("old_dirs", "old_stps", "ro"):
                    work[key].pop(0)
            work["old_dirs"].append(y)
            work["old_stps"].append(s)
            work["ro"].append(ys.reciprocal())
            work["H_diag"] = ys / y.dot(y)

    def step(self, closure):
        with no_grad():
            return self._step(closure)

    def _step(self, closure):
        group = self.param_groups[0]
        lr, max_iter, max_eval = group["lr"], group["max_iter"], group["max_eval"]
        tolerance_grad, tolerance_change = group["tolerance_grad"], group["tolerance_change"]
        history_size = group["history_size"]

        def evaluate():
            with enable_grad():
                return closure()

        state = self.state[self._params[0]]
        state.setdefault("func_evals", 0)
        state.setdefault("n_iter", 0)
        orig_loss = evaluate()
        loss = float(orig_loss)
        current_evals = 1
        state["func_evals"] += 1
        flat_grad = self._flat_grad()
        if flat_grad.abs().max() <= tolerance_grad:
            return orig_loss
        # Working copies of the state (kept as PyTorch keeps them): written back when the loop ends.
        work = {key: state.get(key) for key in ("d", "t", "old_dirs", "old_stps", "ro", "H_diag", "prev_flat_grad",
                                                "prev_loss")}
        n_iter = 0
        while n_iter < max_iter:
            n_iter += 1
            state["n_iter"] += 1
            if state["n_iter"] == 1:
                work.update(d=flat_grad.neg(), old_dirs=[], old_stps=[], ro=[], H_diag=1)
            else:
                self._remember(work, flat_grad, history_size)
                al = state.setdefault("al", [None] * history_size)
                work["d"] = self._two_loop_direction(flat_grad, work, al)
            d = work["d"]
            if work["prev_flat_grad"] is None:
                work["prev_flat_grad"] = flat_grad.clone()
            else:
                work["prev_flat_grad"].copy_(flat_grad)
            work["prev_loss"] = prev_loss = loss
            t = min(1.0, divide(1.0, flat_grad.abs().sum())) * lr if state["n_iter"] == 1 else lr
            gtd = flat_grad.dot(d)
            if gtd > -tolerance_change:
                work["t"] = t
                break
            evaluations = 0
            if group["line_search_fn"] is not None:
                if group["line_search_fn"] != "strong_wolfe":
                    raise RuntimeError("only 'strong_wolfe' is supported")
                start = [p.clone() for p in self._params]
                loss, flat_grad, t, evaluations = _strong_wolfe(
                    lambda step: self._evaluate_at(evaluate, start, step, d), t, d, loss, flat_grad, gtd,
                    max_ls=max_eval - current_evals)
                self._add_to_params(t, d)
                optimal = flat_grad.abs().max() <= tolerance_grad
            else:
                self._add_to_params(t, d)
                optimal = False
                if n_iter != max_iter:
                    # the last iteration skips the evaluation: in a stochastic setting it would be wasted
                    loss = float(evaluate())
                    flat_grad = self._flat_grad()
                    optimal = flat_grad.abs().max() <= tolerance_grad
                    evaluations = 1
            work["t"] = t
            current_evals += evaluations
            state["func_evals"] += evaluations
            if n_iter == max_iter or current_evals >= max_eval or optimal:
                break
            if d.mul(t).abs().max() <= tolerance_change or abs(loss - prev_loss) < tolerance_change:
                break
        for key in ("d", "t", "old_dirs", "old_stps", "ro", "H_diag", "prev_flat_grad", "prev_loss"):
            state[key] = work[key]
        return orig_loss
