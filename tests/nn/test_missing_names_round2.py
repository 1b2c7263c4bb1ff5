"""Names of torch's API that real programs call and minitorch2 lacked (round 2): nn.Module's state-dict hooks (public
and the private forms HF transformers registers), _save_to_state_dict / _load_from_state_dict overrides, the
state dict's `_metadata`, load_state_dict(assign=True); the deprecated register_backward_hook and grad_fn hooks that
return gradients; nn.init's pre-0.4 names; torch's interop-thread, warn-always and deterministic-debug settings;
nn.utils.get_total_norm / clip_grads_with_norm_; linalg.matmul, matrix_power, diagonal, vecdot. Each program runs
on torch and on minitorch2 and must give the same keys, values, hook calls and errors."""
import pytest
import torch

import minitorch2


def both(program):
    """program(lib) on torch and minitorch2; their results, numbers as lists."""
    def plain(value):
        if isinstance(value, (torch.Tensor, minitorch2.Tensor)):
            return value.detach().tolist()
        if isinstance(value, dict):
            return {k: plain(v) for k, v in value.items()}
        if isinstance(value, (list, tuple)):
            return [plain(v) for v in value]
        return value
    return plain(program(torch)), plain(program(minitorch2))


def make_net(lib):
    lib.manual_seed(0)
    net = lib.nn.Sequential(lib.nn.Linear(3, 2), lib.nn.BatchNorm1d(2))
    with lib.no_grad():
        for i, p in enumerate(net.parameters()):
            p.copy_(lib.arange(p.numel(), dtype=lib.float32).reshape(p.shape) * 0.1 + i)
    return net


def test_state_dict_pre_and_post_hooks_see_each_module_in_torchs_order():
    def program(lib):
        net, calls = make_net(lib), []
        for name, m in net.named_modules():
            m.register_state_dict_pre_hook(lambda mod, prefix, keep_vars, n=name: calls.append(("pre", n, prefix)))
            m.register_state_dict_post_hook(
                lambda mod, sd, prefix, meta, n=name: calls.append(("post", n, prefix, len(sd), dict(meta))))
        sd = net.state_dict(prefix="model.")
        return calls, list(sd), dict(sd._metadata)
    theirs, ours = both(program)
    assert ours == theirs


def test_a_state_dict_post_hook_edits_in_place_and_may_not_return():
    def program(lib):
        net = make_net(lib)
        handle = net[0].register_state_dict_post_hook(lambda m, sd, prefix, meta: sd.pop(prefix + "bias"))
        try:
            net.state_dict()
        except RuntimeError as e:
            error = str(e)
        handle.remove()
        net[0].register_state_dict_post_hook(lambda m, sd, prefix, meta: sd.update({prefix + "scale": lib.ones(1)}))
        return error, list(net.state_dict())
    theirs, ours = both(program)
    assert ours == theirs


def test_the_private_state_dict_hook_may_replace_the_dict_at_the_root():
    def program(lib):
        net = make_net(lib)
        net._register_state_dict_hook(lambda m, sd, prefix, meta: {k.upper(): v for k, v in sd.items()})

        def public(m, sd, prefix, meta):
            return None
        net.register_state_dict_post_hook(public)
        try:
            net._register_state_dict_hook(public)
        except RuntimeError as e:
            error = str(e)
        return list(net.state_dict()), error
    theirs, ours = both(program)
    assert ours == theirs


def test_load_state_dict_pre_hooks_rename_old_keys():
    def program(lib):
        net, seen = make_net(lib), []

        def rename(module, state_dict, prefix, local_metadata, strict, missing, unexpected, errors):
            seen.append((type(module).__name__, prefix, sorted(state_dict), dict(local_metadata), strict))
            for old in [k for k in state_dict if k.startswith(prefix + "w_")]:
                state_dict[prefix + old[len(prefix) + 2:]] = state_dict.pop(old)

        def private(state_dict, prefix, *rest):  # (HF's form: no module)
            seen.append(("private", prefix, len(rest)))
        net[0].register_load_state_dict_pre_hook(rename)
        net[0]._register_load_state_dict_pre_hook(private)
        net[1]._register_load_state_dict_pre_hook(lambda module, sd, prefix, *rest: seen.append(type(module).__name__),
                                                  with_module=True)
        old = {("0.w_" + k[2:] if k.startswith("0.") else k): v * 2 for k, v in make_net(lib).state_dict().items()}
        result = net.load_state_dict(old)
        return seen, net.state_dict(), list(result.missing_keys), list(result.unexpected_keys), sorted(old)
    theirs, ours = both(program)
    assert ours == theirs


def test_load_state_dict_post_hooks_may_forgive_missing_keys_in_place():
    def program(lib):
        net, seen = make_net(lib), []

        def forgive(module, incompatible):
            seen.append((type(module).__name__, list(incompatible.missing_keys), list(incompatible.unexpected_keys)))
            incompatible.missing_keys.clear()
        for m in net.modules():
            m.register_load_state_dict_post_hook(forgive)
        sd = {k: v for k, v in make_net(lib).state_dict().items() if k != "0.bias"}
        sd["0.extra"] = lib.ones(1)
        try:
            net.load_state_dict(sd)
        except RuntimeError as e:
            error = str(e)
        net[0].register_load_state_dict_post_hook(lambda m, keys: keys)
        try:
            net.load_state_dict(sd, strict=False)
        except AssertionError as e:
            returned = str(e)
        return seen, error, returned
    theirs, ours = both(program)
    assert ours == theirs


def test_programs_override_load_from_and_save_to_state_dict():
    def program(lib):
        class Versioned(lib.nn.Linear):
            _version = 2

            def _save_to_state_dict(self, destination, prefix, keep_vars):
                super()._save_to_state_dict(destination, prefix, keep_vars)
                destination[prefix + "scale"] = lib.full((1,), 3.0)

            def _load_from_state_dict(self, state_dict, prefix, local_metadata, strict, missing, unexpected, errors):
                version = local_metadata.get("version")
                if version is None or version < 2:
                    state_dict[prefix + "weight"] = state_dict.pop(prefix + "old_weight")
                state_dict.pop(prefix + "scale", None)
                super()._load_from_state_dict(state_dict, prefix, local_metadata, strict, missing, unexpected, errors)

        net = lib.nn.Sequential(Versioned(2, 2))
        saved = net.state_dict()
        old = {"0.old_weight": lib.eye(2), "0.bias": lib.zeros(2)}
        result = net.load_state_dict(old)
        return list(saved), dict(saved._metadata), net.state_dict(), list(result), net.load_state_dict(saved)
    theirs, ours = both(program)
    assert ours == theirs


def test_load_state_dict_assign_replaces_the_parameters():
    def program(lib):
        net = make_net(lib)
        weight = net[0].weight
        new = {k: v + 1 for k, v in make_net(lib).state_dict().items()}
        net.load_state_dict(new, assign=True)
        return (net[0].weight is weight, type(net[0].weight).__name__, net[0].weight.requires_grad,
                net.state_dict(), net[1].running_var.requires_grad)
    theirs, ours = both(program)
    assert ours == theirs


def test_load_state_dict_refuses_what_is_not_a_mapping():
    for lib in (torch, minitorch2):
        with pytest.raises(TypeError, match="Expected state_dict to be dict-like"):
            make_net(lib).load_state_dict([("0.weight", lib.ones(2, 3))])


def test_a_batch_norm_state_dict_from_before_num_batches_tracked_still_loads_strictly():
    def program(lib):
        net = make_net(lib)
        net.train()
        net(lib.ones(4, 3))
        old = {k: v for k, v in make_net(lib).state_dict().items() if "num_batches_tracked" not in k}
        net.load_state_dict(old)  # (a plain dict: no _metadata, so version None)
        new = make_net(lib).state_dict()
        del new["1.num_batches_tracked"]
        try:
            net.load_state_dict(new)  # (version 2 in its metadata: the count is missing)
        except RuntimeError as e:
            error = str(e)
        return net.state_dict(), sorted(old), type(net[1])._version, error
    theirs, ours = both(program)
    assert ours == theirs


def test_a_grad_fn_hook_returning_gradients_replaces_them():
    def program(lib):
        lib.manual_seed(0)
        layer, x = lib.nn.Linear(3, 2), lib.ones(4, 3, requires_grad=True)
        y = layer(x)
        y.grad_fn.register_hook(lambda grad_inputs, grad_outputs: tuple(None if g is None else g * 2
                                                                        for g in grad_inputs))
        y.sum().backward()
        return layer.bias.grad, layer.weight.grad, x.grad
    theirs, ours = both(program)
    assert ours == theirs


@pytest.mark.filterwarnings("ignore::FutureWarning")
def test_the_deprecated_backward_hook_sees_the_last_nodes_gradients():
    def program(lib):
        lib.manual_seed(0)
        net, seen = lib.nn.Sequential(lib.nn.Linear(3, 2), lib.nn.ReLU()), []

        def hook(module, grad_input, grad_output):
            seen.append((type(module).__name__, [None if g is None else g for g in grad_input], list(grad_output)))
            if isinstance(module, lib.nn.Linear):
                return tuple(None if g is None else g * 3 for g in grad_input)
        for m in net:
            m.register_backward_hook(hook)
        handle = net[0].register_backward_hook(lambda *a: seen.append("removed"))
        handle.remove()
        x = lib.arange(12.0).reshape(4, 3).requires_grad_()
        (net(x) * lib.arange(2.0)).sum().backward()
        try:
            net[0].register_full_backward_hook(hook)
        except RuntimeError as e:
            error = str(e)
        return seen, net[0].weight.grad, net[0].bias.grad, x.grad, error
    theirs, ours = both(program)
    assert ours == theirs


@pytest.mark.parametrize("name, args", [("uniform", (-1.0, 1.0)), ("normal", (0.0, 2.0)), ("constant", (0.5,)),
                                        ("eye", ()), ("xavier_uniform", ()), ("xavier_normal", ()),
                                        ("kaiming_uniform", ()), ("kaiming_normal", ()), ("orthogonal", ()),
                                        ("sparse", (0.5,))])
def test_the_deprecated_init_names_warn_and_initialize_as_the_underscored_ones(name, args):
    results = []
    for lib in (torch, minitorch2):
        lib.manual_seed(0)
        weight = lib.empty(4, 6)
        with pytest.warns(FutureWarning, match=rf"`nn.init.{name}` is now deprecated in favor of `nn.init.{name}_`"):
            out = getattr(lib.nn.init, name)(weight, *args)
        assert out is weight and getattr(lib.nn.init, name).__name__ == name
        lib.manual_seed(0)
        results.append((getattr(lib.nn.init, name + "_")(lib.empty(4, 6), *args).tolist(), weight.tolist()))
    for underscored_draw, alias_draw in results:
        assert alias_draw == underscored_draw
    if name in ("constant", "eye"):
        assert results[0] == results[1]


def test_process_settings_scripts_set_first():
    def program(lib):
        lib.set_warn_always(True)
        out = [lib.is_warn_always_enabled()]
        lib.set_warn_always(False)
        for mode in ("warn", 2, "default", 1, 0):
            lib.set_deterministic_debug_mode(mode)
            out.append((lib.get_deterministic_debug_mode(), lib.are_deterministic_algorithms_enabled(),
                        lib.is_deterministic_algorithms_warn_only_enabled()))
        for bad in ("x", 5, 1.0, 0):
            try:
                lib.set_deterministic_debug_mode(bad) if bad != 0 else lib.set_num_interop_threads(0)
            except (RuntimeError, TypeError) as e:
                out.append((type(e).__name__, str(e)))
        return out + [isinstance(lib.get_num_interop_threads(), int)]
    theirs, ours = both(program)
    assert ours == theirs


@pytest.mark.parametrize("norm_type", [2.0, 1, float("inf")])
def test_get_total_norm_then_clip_grads_with_norm_as_clip_grad_norm_does(norm_type):
    def program(lib):
        lib.manual_seed(0)
        layer = lib.nn.Linear(3, 2)
        layer(lib.arange(6.0).reshape(2, 3)).pow(2).sum().backward()
        grads = [p.grad for p in layer.parameters()]
        total = lib.nn.utils.get_total_norm(grads, norm_type)
        lib.nn.utils.clip_grads_with_norm_(layer.parameters(), 0.5, total)
        clipped = lib.cat([p.grad.flatten() for p in layer.parameters()])
        with pytest.warns(FutureWarning, match="clip_grad_norm` is now deprecated"):
            again = lib.nn.utils.clip_grad_norm(layer.parameters(), 0.1, norm_type)
        grads[0][0, 0] = float("nan")
        try:
            lib.nn.utils.get_total_norm(grads, norm_type, error_if_nonfinite=True)
        except RuntimeError as e:
            error = str(e)
        return total, clipped, again, lib.nn.utils.get_total_norm([]), error
    (t_total, *t_rest), (o_total, *o_rest) = both(program)
    assert o_total == pytest.approx(t_total, rel=1e-6)
    assert o_rest[0] == pytest.approx(t_rest[0], rel=1e-5)
    assert o_rest[1] == pytest.approx(t_rest[1], rel=1e-5) and o_rest[2:] == t_rest[2:]


@pytest.mark.xfail(strict=True, reason="register_backward_hook: torch warns (FutureWarning 'Using a non-full backward "
                   "hook when the forward contains multiple autograd Nodes is deprecated', and its siblings for "
                   "nested outputs and non-tensor inputs) at each call; minitorch2 attaches the hook without warning")
def test_the_deprecated_backward_hook_warns_when_the_forward_has_several_nodes():
    net = minitorch2.nn.Sequential(minitorch2.nn.Linear(3, 2), minitorch2.nn.ReLU())
    net.register_backward_hook(lambda *args: None)
    with pytest.warns(FutureWarning, match="contains multiple autograd Nodes"):
        net(minitorch2.ones(1, 3, requires_grad=True)).sum().backward()


def test_a_module_with_full_backward_hooks_refuses_the_deprecated_kind():
    for lib in (torch, minitorch2):
        layer = lib.nn.Linear(2, 2)
        layer.register_full_backward_hook(lambda *args: None)
        with pytest.raises(RuntimeError, match="Cannot use both regular backward hooks and full backward hooks"):
            layer.register_backward_hook(lambda *args: None)


def test_linalg_matmul_matrix_power_diagonal_and_vecdot():
    def program(lib):
        a = lib.arange(18.0).reshape(2, 3, 3).div(10).requires_grad_()
        b = lib.arange(6.0).reshape(2, 3).requires_grad_()
        outs = [lib.linalg.matmul(a, a), lib.linalg.matrix_power(a, 3), lib.linalg.diagonal(a, offset=1),
                lib.linalg.vecdot(a, b[:, None, :]), lib.linalg.vecdot(a, a, dim=1)]
        sum(o.sum() for o in outs).backward()
        return outs, a.grad, b.grad
    theirs, ours = both(program)
    for mine, torchs in zip(ours[0] + ours[1:], theirs[0] + theirs[1:]):
        assert minitorch2.tensor(mine).allclose(minitorch2.tensor(torchs), rtol=1e-5, atol=1e-5)


def test_linalg_vecdot_records_what_torch_records():
    from torch.fx.experimental.proxy_tensor import make_fx as torch_make_fx  # (the oracle's tracer)

    from autograd import make_fx  # (minitorch2's tracer)
    ops = []
    for lib, trace in ((torch, torch_make_fx), (minitorch2, make_fx)):
        graph = trace(lambda x, y: lib.linalg.vecdot(x, y, dim=0))(lib.ones(2, 3), lib.ones(2, 3)).graph
        ops.append([str(n.target) for n in graph.nodes if n.op == "call_function"])
    assert ops[0] == ops[1]
