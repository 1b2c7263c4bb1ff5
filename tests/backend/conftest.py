"""The backend's tests run in both of its configurations (backend/config.py `speed`).

    python -m pytest tests/backend                                   fast: the speed wing on (the default)
    MINITORCH2_BACKEND_SPEED=plain python -m pytest tests/backend    plain: the plain path alone

The results must be the same in both. A test about the speed wing itself (its threads, caches, our
OpenBLAS, the inline math) is marked `speed_wing` and skips in the plain configuration, where that
machinery is off.
"""
import pytest

from backend import speed


def pytest_configure(config):
    config.addinivalue_line("markers", "speed_wing: tests of backend/speed/ itself (skipped when speed is plain)")


def pytest_collection_modifyitems(config, items):
    if speed.fast():
        return
    skip = pytest.mark.skip(reason="a test of the speed wing, which MINITORCH2_BACKEND_SPEED=plain turns off")
    for item in items:
        if item.get_closest_marker("speed_wing"):
            item.add_marker(skip)
