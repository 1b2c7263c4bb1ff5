"""torch.compile's `mode=` and `options=`: checked as torch checks them, when torch.compile is called (before
`disable=` is looked at), and the options this backend has applied to its compiles.

Runtime layer, coverage surface: minitorch2.compile calls checked_backend() before handing the function to
frontend.optimize; no stage of the pipeline reads this module. As in torch, only the "inductor" backend reads
mode and options: another backend is handed them unchecked (here: ignored).
"""
import functools

# torch's modes (torch._inductor.list_mode_options). On a CPU they change nothing this backend computes:
# "reduce-overhead" asks for CUDA graphs, the max-autotune modes for a search over GPU kernel configurations.
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


def checked_backend(backend, mode, options):
    """torch.compile(backend=, mode=, options=) -> the backend to compile with: `backend`, or for inductor with
    options backend.config has, one that compiles under them. Raises RuntimeError in torch's words."""
    if mode is not None and options is not None:
        raise RuntimeError("Either mode or options can be specified, but both can't be specified at the same time.")
    if backend not in (None, "inductor"):
        return backend
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
    return _patched_inductor(applied) if applied else backend


@functools.cache  # one backend per set of options: compiling twice with the same options reuses the cache entries
def _patched_inductor(applied):
    def inductor_with_options(gm, example_inputs):
        from backend import config  # deferred by layering: the backend loads at the first compile
        from frontend.backends import inductor  # (deferred with it)

        with config.patch(dict(applied)):
            return inductor(gm, example_inputs)

    return inductor_with_options
