"""Shared pytest configuration: hypothesis profiles.

`default`: 200 examples per property, derandomized so CI runs are stable.
`deep`: 10,000 examples; select it with HYPOTHESIS_PROFILE=deep.
`ci`: 50 examples, for .ci/run's runs on Python 3.12 and 3.13.
Test modules that import torch (the oracle) are reported as skipped where torch is not installed.
"""
import os

from hypothesis import HealthCheck, settings

settings.register_profile(
    "default", max_examples=200, deadline=None, derandomize=True, print_blob=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
settings.register_profile(  # random, not derandomized (it would inherit that from "default"): --hypothesis-seed
    "deep", max_examples=10_000, deadline=None, derandomize=False, print_blob=True,  # picks a fresh campaign
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
settings.register_profile(  # .ci/run's extra-interpreter runs: a smoke test of the same properties
    "ci", max_examples=50, deadline=None, derandomize=True, print_blob=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))


# ---- torch is the oracle, but optional ------------------------------------------------------
# On an interpreter without torch (CI's Python 3.12/3.13 runs of tests/frontend), a test module that
# imports torch reports as skipped instead of failing to collect, so the torch-free tests still run.
import importlib.util

import pytest

from minitorch2.fx import _patching, _spelling

TORCH_AVAILABLE = importlib.util.find_spec("torch") is not None


@pytest.hookimpl(hookwrapper=True)
def pytest_make_collect_report(collector):
    outcome = yield
    report = outcome.get_result()
    if TORCH_AVAILABLE or not report.failed or "No module named 'torch'" not in str(report.longrepr):
        return
    report.outcome = "skipped"
    report.longrepr = (str(collector.path), 0, "Skipped: needs torch (the oracle), which is not installed")


# ---- one test's hand-made FX Proxies do not change the torch functions of the tests after it ----------------
# A program that builds a graph with Proxy objects gets recording wrappers installed for good (fx/_patching.py);
# in a test process that would leak into every later test, so they are taken out after each test.
@pytest.fixture(autouse=True)
def _no_recording_wrappers_left_behind():
    yield
    while _patching._RECORDING_FOR_GOOD:
        _patching._RECORDING_FOR_GOOD.pop().__exit__(None, None, None)
        _spelling.forget_spellings()
