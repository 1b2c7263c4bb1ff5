"""torch.compile's `backend=`, `mode=` and `options=`: checked as torch checks them, when torch.compile is called
(before `disable=` is looked at), and made into the CompileBackend the call compiles with: equal to another call's
when torch's compile wrappers would be (then the two share a frame's compiled entries), running the inductor under
the options backend.config has.

Runtime layer, coverage surface: minitorch2.compile and Module.compile call checked_backend() before handing the
function to frontend.optimize; no stage of the pipeline reads this module. As in torch, only the "inductor" backend
reads mode and options: another backend is handed them unchecked, as keyword arguments (this library's own backends
by name are not: as torch's eager, they would ignore them).
"""
import functools

# torch's modes (torch._inductor.list_mode_options). None changes a value computed here: "reduce-overhead" asks for
# CUDA graphs, the max-autotune modes for a search over GPU kernel configurations, "lite" for fewer of Inductor's
# passes (which this backend runs regardless).
MODES = ("default", "lite", "reduce-overhead", "max-autotune-no-cudagraphs", "max-autotune")

# The options torch's Inductor knows that only choose how kernels are searched for, timed, cached, traced or run on a
# GPU: accepted (and checked for type) with no effect on what runs here.
TUNING_OPTIONS = {
    "max_autotune": bool, "max_autotune_gemm": bool, "max_autotune_pointwise": bool,
    "coordinate_descent_tuning": bool, "triton.cudagraphs": bool, "triton.cudagraph_trees": bool,
    "triton.unique_kernel_names": bool, "epilogue_fusion": bool, "epilogue_fusion_first": bool,
    "aggressive_fusion": bool, "shape_padding": bool, "layout_optimization": bool, "freezing": bool,
    "cpp_wrapper": bool, "benchmark_kernel": bool, "trace.enabled": bool, "trace.graph_diagram": bool,
    "fx_graph_cache": bool, "verbose_progress": bool, "cpp.threads": int, "split_reductions": bool,
    "size_asserts": bool, "keep_output_stride": bool, "implicit_fallbacks": bool,
}
# The options that are knobs of backend.config too (same name, same meaning): applied while the graph compiles.
APPLIED_OPTIONS = {"debug": bool, "max_fusion_size": int}


def checked_backend(backend, mode, options, dynamic):
    """torch.compile(backend=, mode=, options=, dynamic=) -> the CompileBackend to compile with. Raises in torch's
    words: RuntimeError for mode and options, InvalidBackend for a backend name no one registered."""
    from frontend.backends import lookup_backend  # deferred: the compiler layers load at the first compile

    if mode is not None and options is not None:
        raise RuntimeError("Either mode or options can be specified, but both can't be specified at the same time.")
    mode = None if mode == "default" else mode
    if backend not in (None, "inductor"):  # handed mode and options, if it is the user's: torch's eager ignores them
        kwargs = {**({"mode": mode} if mode else {}), **({"options": options} if options else {})}
        return CompileBackend(lookup_backend(backend), kwargs if callable(backend) else {}, (kwargs, dynamic))
    if mode is not None and mode not in MODES:
        raise RuntimeError(f"Unrecognized mode={mode}, should be one of: {', '.join(MODES)}")
    known = {**APPLIED_OPTIONS, **TUNING_OPTIONS}
    for key, value in (options or {}).items():
        name = key.replace("-", "_")
        if name not in known:
            raise RuntimeError(f"Unexpected optimization option {key}, known options are {list(known)}")
        if not isinstance(value, known[name]):
            raise RuntimeError(f"Unexpected type of attr {key}, got {type(value).__name__} should be "
                               f"{known[name].__name__}")
    applied = tuple(sorted((key.replace("-", "_"), value) for key, value in (options or {}).items()
                           if key.replace("-", "_") in APPLIED_OPTIONS))
    fn = _patched_inductor(backend, applied) if applied else lookup_backend(backend)
    return CompileBackend(fn, {}, (mode, options or {}, dynamic))


class CompileBackend:
    """The backend of one torch.compile call, as torch's compile wrappers: the backend's function, called with the
    keyword arguments it is handed. Two calls' backends are equal, and share compiled entries (eval_frame.py compares
    them), when they have the same function, mode, options and dynamic=; otherwise the frame compiles anew."""

    def __init__(self, fn, kwargs, key):
        self.fn, self.kwargs, self.key = fn, kwargs, key
        self.__name__ = getattr(fn, "__name__", repr(fn))  # (named in BackendCompilerFailed)

    def __call__(self, gm, example_inputs):
        return self.fn(gm, example_inputs, **self.kwargs)

    def __eq__(self, other):
        return isinstance(other, CompileBackend) and (self.fn, self.key) == (other.fn, other.key)

    __hash__ = object.__hash__


@functools.cache  # one backend function per set of options: compiling twice with the same options shares entries
def _patched_inductor(backend, applied):
    def inductor_with_options(gm, example_inputs):
        from backend import config  # deferred by layering: the backend loads at the first compile
        from frontend.backends import lookup_backend  # (deferred with it)

        with config.patch(dict(applied)):
            return lookup_backend(backend)(gm, example_inputs)

    return inductor_with_options
