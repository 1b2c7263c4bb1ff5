"""pytest configuration for the partition tests: the `partition` marker selects them (`pytest -m partition`)."""
import pytest


def pytest_configure(config):
    config.addinivalue_line("markers", "partition: the partition layer (default and min-cut partitioners)")


def pytest_collection_modifyitems(items):
    for item in items:
        if "tests/partition/" in str(item.fspath).replace("\\", "/"):
            item.add_marker(pytest.mark.partition)
