"""What scripts ask in their first lines, answered as a CPU-only build of torch answers: torch.cuda,
torch.backends flags, thread and determinism settings, torch.version; each against torch itself."""
import warnings

import pytest
import torch

import minitorch2

QUESTIONS = [
    "cuda.is_available()", "cuda.device_count()", "cuda.is_initialized()", "cuda.is_bf16_supported()",
    "cuda.manual_seed(1)", "cuda.manual_seed_all(1)", "cuda.seed()", "cuda.empty_cache()", "cuda.memory_allocated()",
    "cuda.max_memory_allocated()", "cuda.memory_reserved()", "backends.cudnn.is_available()",
    "backends.cudnn.version()", "backends.cudnn.benchmark", "backends.cudnn.deterministic", "backends.cudnn.enabled",
    "backends.cudnn.allow_tf32", "backends.cuda.matmul.allow_tf32", "backends.cuda.is_built()",
    "backends.cuda.matmul.allow_fp16_reduced_precision_reduction", "backends.mps.is_available()",
    "backends.mps.is_built()", "backends.cuda.flash_sdp_enabled()", "backends.cuda.math_sdp_enabled()",
    "version.cuda", "version.hip", "get_float32_matmul_precision()", "are_deterministic_algorithms_enabled()",
    "is_deterministic_algorithms_warn_only_enabled()",
]


@pytest.mark.parametrize("question", QUESTIONS)
def test_answers_as_a_cpu_only_torch(question):
    assert eval(f"minitorch2.{question}") == eval(f"torch.{question}")


@pytest.mark.parametrize("call", ["cuda.current_device()", "cuda.synchronize()", "cuda.get_device_name()",
                                  "cuda.get_device_properties(0)", "cuda.get_rng_state()"])
def test_device_calls_raise_torchs_assertion(call):
    for lib in (torch, minitorch2):
        with pytest.raises(AssertionError, match="Torch not compiled with CUDA enabled"):
            eval(f"lib.{call}")


def test_flags_are_set_and_read_back():
    for lib in (torch, minitorch2):
        before = (lib.backends.cudnn.benchmark, lib.backends.cuda.matmul.allow_tf32)
        lib.backends.cudnn.benchmark = True
        lib.backends.cuda.matmul.allow_tf32 = True
        assert (lib.backends.cudnn.benchmark, lib.backends.cuda.matmul.allow_tf32) == (True, True)
        lib.backends.cudnn.benchmark, lib.backends.cuda.matmul.allow_tf32 = before


def test_settings_checks_and_round_trips_match_torch():
    for lib in (torch, minitorch2):
        threads = lib.get_num_threads()
        lib.set_num_threads(1)
        assert lib.get_num_threads() == 1
        lib.set_num_threads(threads)
        with pytest.raises(RuntimeError, match="set_num_threads expects a positive integer"):
            lib.set_num_threads(0)
        lib.set_float32_matmul_precision("high")
        assert lib.get_float32_matmul_precision() == "high"
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            lib.set_float32_matmul_precision("fast")
        assert "fast is not one of 'highest', 'high', or 'medium'" in str(caught[0].message)
        lib.set_float32_matmul_precision("highest")
        lib.use_deterministic_algorithms(True, warn_only=True)
        assert lib.are_deterministic_algorithms_enabled() and lib.is_deterministic_algorithms_warn_only_enabled()
        lib.use_deterministic_algorithms(False)
        with pytest.raises(TypeError, match="must be bool, not str"):
            lib.use_deterministic_algorithms("yes")


def test_a_scripts_device_selection_takes_the_cpu_path():
    script = ("device = 'cuda' if torch.cuda.is_available() else "
              "('mps' if torch.backends.mps.is_available() else 'cpu')\n"
              "torch.backends.cudnn.benchmark = torch.cuda.is_available()\n"
              "x = torch.ones(2, device=device) * 3\n")
    results = []
    for lib in (torch, minitorch2):
        scope = {"torch": lib}
        exec(script, scope)
        results.append((scope["device"], scope["x"].tolist()))
    assert results[0] == results[1]


DEVICE_USES = ["device('cuda')", "device('cuda:1')", "device('cuda', 0)", "device('mps')", "device('foo')",
               "ones(2).to('cuda')", "ones(2).to(device('cuda'))", "ones(2).cuda()", "ones(2).to('mps')",
               "ones(2).to('cpu').tolist()", "ones(2, device='cuda')", "nn.Linear(2, 2).to('cuda')",
               "nn.Linear(2, 2).to(device='mps')", "ones(2).device == device('cuda')"]


@pytest.mark.parametrize("use", DEVICE_USES)
def test_devices_are_named_freely_and_only_the_cpu_holds_tensors_as_in_a_cpu_only_torch(use):
    results = []
    for lib in (torch, minitorch2):
        try:
            value = eval(f"lib.{use}")
            results.append(("value", repr(value) if not isinstance(value, lib.nn.Module) else "module"))
        except Exception as error:
            results.append((type(error).__name__, str(error).split(".")[0]))
    assert results[1] == results[0]


@pytest.mark.parametrize("call", ["finfo(lib.float32)", "finfo()", "finfo(lib.float16)", "finfo(lib.float64)",
                                  "iinfo(lib.int64)", "iinfo(lib.uint8)", "iinfo(lib.int8)", "finfo(lib.int32)",
                                  "iinfo(lib.float32)", "iinfo(lib.bool)"])
def test_finfo_and_iinfo_match_torch(call):
    results = []
    for lib in (torch, minitorch2):
        try:
            info = eval(f"lib.{call}")
            fields = ("bits", "eps", "max", "min", "tiny", "smallest_normal", "resolution", "dtype")
            results.append((repr(info), [getattr(info, f, None) for f in fields]))
        except TypeError as error:
            results.append(str(error))
    assert results[1] == results[0]
