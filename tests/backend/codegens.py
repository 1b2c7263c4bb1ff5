"""The code generators the backend tests run under, and the fixture that switches between them."""
import importlib.util

import pytest

import backend
import frontend

CODEGENS = ["numpy_ref", "llvm"]  # the reference evaluator, then the default generator
WITH_TRITON = CODEGENS + (["triton"] if importlib.util.find_spec("triton") else [])  # interpreter: slower


def codegen_fixture(names=CODEGENS, autouse=False):
    """A `codegen` fixture: each test runs once per generator in `names` (backend.config.cpu_codegen),
    with empty backend metrics and frontend caches (minitorch2.compile caches per code object)."""

    @pytest.fixture(params=names, autouse=autouse)
    def codegen(request):
        saved = backend.config.cpu_codegen
        backend.config.cpu_codegen = request.param
        backend.metrics.reset()
        frontend.reset()
        yield request.param
        backend.config.cpu_codegen = saved
        backend.metrics.reset()

    return codegen
