"""pytest configuration for the FX tests: the `fx` marker selects them (`pytest -m fx`)."""


def pytest_configure(config):
    config.addinivalue_line("markers", "fx: minitorch2.fx, the graph IR (tracing, codegen, passes)")
