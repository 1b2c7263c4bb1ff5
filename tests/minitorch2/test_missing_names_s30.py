"""Issue 20's names, compared with torch: the device modules scripts probe first (torch.xpu, torch.mps, torch.cpu)
and the torch functions and Tensor methods of minitorch2/_functions_missing.py (values, gradients, dtypes, errors)."""
import warnings

import numpy as np
import pytest
import torch

import minitorch2 as mt


def outcome(module, call):
    """What `call(module)` returns, or the class and message of what it raises."""
    try:
        result = call(module)
    except Exception as error:  # noqa: BLE001  (the error itself is what we compare)
        return type(error).__name__, str(error)
    return result if isinstance(result, (bool, int, str, type(None), list)) else type(result).__name__


@pytest.mark.parametrize("name", ["xpu", "mps", "cpu"])
@pytest.mark.parametrize("call", [
    "is_available()", "device_count()", "manual_seed(1)", "manual_seed_all(1)", "seed()", "empty_cache()",
    "synchronize()", "current_device()", "is_initialized()", "get_rng_state()", "get_device_name()",
    "memory_allocated()", "set_device(0)", "current_allocated_memory()", "recommended_max_memory()",
    "get_arch_list()", "is_bf16_supported()", "init()", "initial_seed()", "current_stream()"])
def test_device_modules_answer_as_torch(name, call):
    mine, theirs = getattr(mt, name), getattr(torch, name)
    attr = call.split("(")[0]
    assert hasattr(mine, attr) == hasattr(theirs, attr)
    if hasattr(theirs, attr):
        assert outcome(mine, lambda m: eval("m." + call)) == outcome(theirs, lambda m: eval("m." + call))


def test_accelerator_agrees_with_the_device_modules():
    assert mt.accelerator.is_available() is torch.accelerator.is_available() is False
    assert mt.xpu.device_count() + mt.mps.device_count() + mt.cuda.device_count() == mt.accelerator.device_count()


def test_cpu_streams_and_deprecated_amp():
    s = mt.cpu.Stream()
    with mt.cpu.stream(s):
        assert mt.cpu.current_stream() is s
    assert mt.cpu.current_stream() is not s and mt.cpu.Event().query()
    x, w = mt.randn(4, 4), mt.randn(4, 4)
    with pytest.warns(FutureWarning, match=r"torch.cpu.amp.autocast\(args...\)` is deprecated"):
        with mt.cpu.amp.autocast():
            y = mt.mm(x, w)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with torch.cpu.amp.autocast():
            ty = torch.mm(torch.tensor(x.numpy()), torch.tensor(w.numpy()))
    assert str(y.dtype) == str(ty.dtype) == "torch.bfloat16"
    np.testing.assert_allclose(y.float().numpy(), ty.float().numpy())
    with pytest.warns(FutureWarning, match="GradScaler"):
        assert mt.cpu.amp.GradScaler().is_enabled() == torch.cpu.amp.GradScaler().is_enabled()


def pair(*shape, dtype=np.float32, grad=True, seed=0):
    a = np.random.default_rng(seed).standard_normal(shape).astype(dtype)
    return mt.tensor(a, requires_grad=grad), torch.tensor(a, requires_grad=grad)


def close(mine, theirs, rtol=1e-5, atol=1e-6):
    assert str(mine.dtype) == str(theirs.dtype) and tuple(mine.shape) == tuple(theirs.shape)
    np.testing.assert_allclose(mine.detach().numpy(), theirs.detach().numpy(), rtol=rtol, atol=atol)


def test_addbmm_values_gradients_and_in_place_forms():
    (i, ti), (b1, tb1), (b2, tb2) = pair(3, 5), pair(4, 3, 2, seed=1), pair(4, 2, 5, seed=2)
    out, tout = mt.addbmm(i, b1, b2, beta=0.5, alpha=2.0), torch.addbmm(ti, tb1, tb2, beta=0.5, alpha=2.0)
    close(out, tout)
    out.sum().backward(), tout.sum().backward()
    for m, t in ((i, ti), (b1, tb1), (b2, tb2)):
        close(m.grad, t.grad)
    (x, tx), = [pair(3, 5, grad=False)]
    close(x.addbmm_(b1.detach(), b2.detach()), tx.addbmm_(tb1.detach(), tb2.detach()))
    (y, ty), (c1, tc1), (c2, tc2) = pair(4, 3, 5, grad=False), pair(4, 3, 2, grad=False), pair(4, 2, 5, grad=False)
    close(y.baddbmm_(c1, c2, alpha=3), ty.baddbmm_(tc1, tc2, alpha=3))
    close(mt.masked_scatter(y, y > 0, mt.zeros(60)), torch.masked_scatter(ty, ty > 0, torch.zeros(60)))


def test_frexp_values_dtypes_gradient_and_refusal():
    data = np.array([0.0, np.inf, -3.5, np.nan, 1e-30, 7.0], dtype=np.float32)
    x, tx = mt.tensor(data, requires_grad=True), torch.tensor(data, requires_grad=True)
    m, e = mt.frexp(x)
    tm, te = torch.frexp(tx)
    close(m, tm), close(e, te)
    assert type(x.frexp()).__name__ == "frexp" and "mantissa=" in repr(x.frexp())
    m[[2, 4, 5]].sum().backward(), tm[[2, 4, 5]].sum().backward()
    close(x.grad, tx.grad)
    with pytest.raises(RuntimeError, match="only supports floating-point"):
        mt.frexp(mt.tensor([1, 2]))
    with pytest.raises(RuntimeError, match="only supports floating-point"):
        torch.frexp(torch.tensor([1, 2]))


@pytest.mark.parametrize("reduce", ["prod", "mean", "amax", "amin"])
@pytest.mark.parametrize("include_self", [True, False])
def test_index_reduce(reduce, include_self):
    (x, tx), (src, tsrc) = pair(5, 3), pair(4, 3, seed=3)
    index = np.array([0, 4, 0, 2])
    out = mt.index_reduce(x, 0, mt.tensor(index), src, reduce, include_self=include_self)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # torch's "index_reduce() is in beta" notice
        tout = torch.index_reduce(tx, 0, torch.tensor(index), tsrc, reduce, include_self=include_self)
    close(out, tout)
    if reduce != "prod" or include_self:
        out.sum().backward(), tout.sum().backward()
        close(x.grad, tx.grad), close(src.grad, tsrc.grad)
    y, ty = x.detach().clone(), tx.detach().clone()
    close(y.index_reduce_(1, mt.tensor([2, 2, 0]), mt.ones(5, 3), reduce),
          ty.index_reduce_(1, torch.tensor([2, 2, 0]), torch.ones(5, 3), reduce))


def test_small_functions():
    x, tx = pair(3, 4)
    for size, fill in ((2, -1), (6, 7)):
        close(mt.nonzero_static(x > 0, size=size, fill_value=fill), torch.nonzero_static(tx > 0, size=size,
                                                                                          fill_value=fill))
    assert mt.empty_permuted((2, 3, 4), (0, 2, 1)).stride() == torch.empty_permuted((2, 3, 4), (0, 2, 1)).stride()
    close(mt.constant_pad_nd(x, [1, 2], 0.5), torch.constant_pad_nd(tx, [1, 2], 0.5))
    for args in ((5,), (5, False), (1,), (0,), (8, True, 4.0), (7, False, 2.5)):
        close(mt.kaiser_window(*args), torch.kaiser_window(*args))
    close(mt.kaiser_window(6, dtype=mt.float64), torch.kaiser_window(6, dtype=torch.float64))
    w, tw = pair(4)
    b, tb = pair(4, seed=5)
    for m, t in zip(mt.native_layer_norm(x, [4], w, b, 1e-5), torch.native_layer_norm(tx, [4], tw, tb, 1e-5)):
        close(m, t)
    for m, t in zip(mt.native_batch_norm(x.T, None, None, None, None, True, 0.1, 1e-5),
                    torch.native_batch_norm(tx.T, None, None, None, None, True, 0.1, 1e-5)):
        close(m, t)
    for m, t in zip(mt.native_dropout(x, 0.5, False), torch.native_dropout(tx, 0.5, False)):
        close(m, t)
    assert mt.newaxis is torch.newaxis is None
    assert (x.output_nr, x.name, x.is_neg(), mt.is_neg(x)) == (tx.output_nr, tx.name, tx.is_neg(), torch.is_neg(tx))
    assert x.split(2, 1)[1].output_nr == tx.split(2, 1)[1].output_nr == 1
    assert mt.resolve_neg(x) is x and x.const_data_ptr() == x.data_ptr()


@pytest.mark.parametrize("name,args", [
    ("view_copy", ((4, 3),)), ("t_copy", ()), ("transpose_copy", (0, 1)), ("permute_copy", ((1, 0),)),
    ("expand_copy", ((2, 3, 4),)), ("select_copy", (1, 2)), ("slice_copy", (1, 1, 3)), ("squeeze_copy", ()),
    ("unsqueeze_copy", (1,)), ("detach_copy", ()), ("alias_copy", ()), ("as_strided_copy", ((2, 2), (1, 2))),
    ("unfold_copy", (1, 2, 1)), ("split_copy", (2, 1)), ("split_with_sizes_copy", ([1, 3], 1)),
    ("unbind_copy", (0,))])
def test_copy_functions(name, args):
    x, tx = pair(3, 4)
    out, tout = getattr(mt, name)(x, *args), getattr(torch, name)(tx, *args)
    outs, touts = (out, tout) if isinstance(out, (list, tuple)) else ([out], [tout])
    for m, t in zip(outs, touts, strict=True):
        close(m, t)
        # torch's detach_copy requires grad with a NotImplemented grad_fn (backward raises); ours is detached
        assert m.requires_grad == (t.requires_grad and name != "detach_copy") and m.data_ptr() != x.data_ptr()
    if outs[0].requires_grad:
        sum(o.sum() * (k + 1) for k, o in enumerate(outs)).backward()
        sum(o.sum() * (k + 1) for k, o in enumerate(touts)).backward()
        close(x.grad, tx.grad)


def test_view_as_real_copy():
    z = np.array([1 + 2j, 3 - 1j], dtype=np.complex64)
    close(mt.view_as_real_copy(mt.tensor(z)), torch.view_as_real_copy(torch.tensor(z)))


@pytest.mark.parametrize("options", [
    dict(n_fft=16), dict(n_fft=16, hop_length=5, win_length=10, window="hann", normalized=True),
    dict(n_fft=16, onesided=False, center=False, window="hann"), dict(n_fft=12, pad_mode="constant", window="hann"),
    dict(n_fft=16, window="hann", return_complex=False)])
@pytest.mark.parametrize("batched", [False, True])
def test_stft_values_and_gradients(options, batched):
    options = {"return_complex": True, **options}
    window = options.get("win_length", options["n_fft"])
    mine, theirs = dict(options), dict(options)
    if options.get("window") == "hann":
        mine["window"], theirs["window"] = mt.hann_window(window), torch.hann_window(window)
    x, tx = pair(2, 60) if batched else pair(60)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        out = mt.stft(x, **mine)
    with warnings.catch_warnings(record=True) as tcaught:
        warnings.simplefilter("always")
        tout = torch.stft(tx, **theirs)
    # torch gives both its warnings once per process (TORCH_WARN_ONCE), as minitorch2 does: no more than one each
    assert len(caught) <= 2 and len({str(w.message) for w in caught}) == len(caught)
    assert {str(w.message) for w in caught} <= {str(w.message).split(" (Triggered internally")[0] for w in tcaught} | {
        "A window was not provided. A rectangular window will be applied,which is known to cause spectral leakage. "
        "Other windows such as torch.hann_window or torch.hamming_window are recommended to reduce spectral "
        "leakage.To suppress this warning and use a rectangular window, explicitly set `window=torch.ones(n_fft, "
        "device=<device>)`.", "stft with return_complex=False is deprecated. In a future pytorch release, stft will "
        "return complex tensors for all inputs, and return_complex=False will raise an error.\nNote: you can still "
        "call torch.view_as_real on the complex output to recover the old return format."}
    close(out, tout, rtol=1e-4, atol=1e-5)
    (out.abs() if out.is_complex() else out).sum().backward()
    (tout.abs() if tout.is_complex() else tout).sum().backward()
    close(x.grad, tx.grad, rtol=1e-4, atol=1e-5)


def test_stft_refusals():
    x, tx = pair(30, grad=False)
    calls = (lambda m, t: m.stft(t, 8), lambda m, t: m.stft(t, 64, return_complex=True, center=False),
             lambda m, t: m.stft(t, 8, hop_length=0, return_complex=True, normalized=True),
             lambda m, t: m.stft(t, 8, win_length=9, window=None, return_complex=True),
             lambda m, t: m.stft(t.double(), 8, hop_length=0, window=m.hann_window(8, dtype=m.float64),
                                 return_complex=True, onesided=False),
             lambda m, t: m.stft(t.reshape(2, 3, 5), 4, return_complex=True))
    for call in calls:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            with pytest.raises(RuntimeError) as error:
                call(mt, x)
            with pytest.raises(RuntimeError) as terror:
                call(torch, tx)
        assert str(error.value) == str(terror.value)


@pytest.mark.parametrize("options", [
    dict(n_fft=16, window="hann"), dict(n_fft=16, hop_length=4, win_length=12, window="hann", normalized=True),
    dict(n_fft=16, window="hann", length=55), dict(n_fft=16, window="hann", length=70),
    dict(n_fft=16, center=False, onesided=False, hop_length=5), dict(n_fft=16, hop_length=8)])
@pytest.mark.parametrize("batched", [False, True])
def test_istft_values_and_gradients(options, batched):
    signal = np.random.default_rng(1).standard_normal((2, 60)).astype(np.float32)
    window = options.get("win_length", options["n_fft"])
    mine, theirs = dict(options), dict(options)
    if options.get("window") == "hann":
        mine["window"], theirs["window"] = mt.hann_window(window), torch.hann_window(window)
    spectrum = torch.stft(torch.tensor(signal), **{k: v for k, v in theirs.items() if k != "length"},
                          return_complex=True).numpy()
    spectrum = spectrum if batched else spectrum[0]
    x, tx = mt.tensor(spectrum, requires_grad=True), torch.tensor(spectrum, requires_grad=True)
    out, tout = mt.istft(x, **mine), torch.istft(tx, **theirs)
    close(out, tout, atol=1e-5)
    out.pow(2).sum().backward(), tout.pow(2).sum().backward()
    close(x.grad, tx.grad, atol=1e-5)


def test_istft_refusals():
    spectrum = torch.stft(torch.randn(60), 16, window=torch.hann_window(16), return_complex=True, center=False,
                          onesided=False).numpy()
    messages = []
    for mod in (mt, torch):
        with pytest.raises(RuntimeError) as error:  # a zero in the overlap-added squared window
            mod.istft(mod.tensor(spectrum), 16, window=mod.hann_window(16), center=False, onesided=False)
        messages.append(str(error.value))
    assert messages[0] == messages[1]
    for mod in (mt, torch):
        with pytest.raises(RuntimeError, match="istft requires a complex-valued input tensor"):
            mod.istft(mod.ones(9, 5), 16)


@pytest.mark.parametrize("options", [{}, dict(spacing=0.3, dim=0, edge_order=2), dict(spacing=[2.0, 0.5]),
                                     dict(dim=1, edge_order=2), dict(spacing="coordinates", dim=0),
                                     dict(spacing="coordinates", dim=0, edge_order=2)])
def test_gradient(options):
    x, tx = pair(6, 5)
    coordinates = np.array([0.0, 1.0, 1.5, 3.5, 4.0, 6.0], dtype=np.float32)
    mine, theirs = dict(options), dict(options)
    if options.get("spacing") == "coordinates":
        mine["spacing"], theirs["spacing"] = (mt.tensor(coordinates),), (torch.tensor(coordinates),)
    out, tout = mt.gradient(x, **mine), torch.gradient(tx, **theirs)
    assert type(out) is tuple and len(out) == len(tout)
    for m, t in zip(out, tout):
        close(m, t)
    sum((m * (k + 1)).sum() for k, m in enumerate(out)).backward()
    sum((t * (k + 1)).sum() for k, t in enumerate(tout)).backward()
    close(x.grad, tx.grad)


def test_gradient_of_integers_and_refusals():
    close(mt.gradient(mt.tensor([1, 4, 9, 16]))[0], torch.gradient(torch.tensor([1, 4, 9, 16]))[0])
    for call in (lambda m: m.gradient(m.ones(1, 3)), lambda m: m.gradient(m.ones(3, 3), spacing=[1.0, 2.0], dim=0)):
        with pytest.raises(RuntimeError) as error:
            call(mt)
        with pytest.raises(RuntimeError) as terror:
            call(torch)
        assert str(error.value) == str(terror.value)


def test_deprecated_out_of_place_resize():
    x, tx = pair(6)
    for call in (lambda t, m: t.resize(2, 3), lambda t, m: t.resize_as(m.zeros(3, 2))):
        with pytest.warns(UserWarning, match="non-inplace resize"):
            out = call(x, mt)
        with pytest.warns(UserWarning, match="non-inplace resize"):
            tout = call(tx, torch)
        close(out, tout)
        assert out.data_ptr() == x.data_ptr()
    (out * mt.arange(6.0).reshape(3, 2)).sum().backward()
    (tout * torch.arange(6.0).reshape(3, 2)).sum().backward()
    close(x.grad, tx.grad)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for sizes in ((2, 5), ((3, 2),)):  # torch's resize takes sizes one by one, never as one sequence
            with pytest.raises(RuntimeError) as error:
                x.resize(*sizes)
            with pytest.raises(RuntimeError) as terror:
                tx.resize(*sizes)
            assert str(error.value) == str(terror.value)


@pytest.mark.parametrize("options", [dict(bins=4), dict(bins=[2, 3, 4], density=True),
                                     dict(bins=3, range=[0.0, 1.0, -1.0, 1.0, -2.0, 2.0]), dict(bins=[3, 2, 2]),
                                     dict(bins="edges")])
@pytest.mark.parametrize("weighted", [False, True])
def test_histogramdd(options, weighted):
    rng = np.random.default_rng(0)
    points, weights = rng.standard_normal((40, 3)).astype(np.float32), rng.random(40).astype(np.float32)
    mine, theirs = dict(options), dict(options)
    if weighted:
        mine["weight"], theirs["weight"] = mt.tensor(weights), torch.tensor(weights)
    if options["bins"] == "edges":
        edges = ([-1.0, 0.0, 2.0], [-3.0, 3.0], [0.0, 0.5, 1.0])
        mine["bins"], theirs["bins"] = [mt.tensor(e) for e in edges], [torch.tensor(e) for e in edges]
    out, tout = mt.histogramdd(mt.tensor(points), **mine), torch.histogramdd(torch.tensor(points), **theirs)
    close(out.hist, tout.hist)
    assert len(out.bin_edges) == len(tout.bin_edges)
    for e, te in zip(out.bin_edges, tout.bin_edges):
        close(e, te)
    small = [[0.0, 1.0], [1.0, 1.0]]
    assert repr(mt.histogramdd(mt.tensor(small), bins=2)) == repr(torch.histogramdd(torch.tensor(small), bins=2))
    for mod in (mt, torch):
        with pytest.raises(RuntimeError, match="histogramdd: The size of bins must be equal to the innermost"):
            mod.histogramdd(mod.tensor(points), bins=[3])
