"""torch.backends.cuda on a CPU-only build: matmul precision flags and the attention-kernel switches
(see backends/__init__.py)."""


class _MatmulFlags:
    allow_tf32 = False
    allow_fp16_reduced_precision_reduction = True
    allow_bf16_reduced_precision_reduction = True


matmul = _MatmulFlags()
_SDP_ENABLED = {"cudnn": True, "flash": True, "mem_efficient": True, "math": True, "overrideable": True}  # (ATen's order)


def is_built():
    return False


def _sdp_switches(kind):
    def enable(enabled):
        _SDP_ENABLED[kind] = bool(enabled)

    def is_enabled():
        return _SDP_ENABLED[kind]

    return enable, is_enabled


enable_flash_sdp, flash_sdp_enabled = _sdp_switches("flash")
enable_mem_efficient_sdp, mem_efficient_sdp_enabled = _sdp_switches("mem_efficient")
enable_math_sdp, math_sdp_enabled = _sdp_switches("math")
enable_cudnn_sdp, cudnn_sdp_enabled = _sdp_switches("cudnn")
