"""pytest configuration for the AOT tests: the `aot` marker selects them (`pytest -m aot`)."""


def pytest_configure(config):
    config.addinivalue_line("markers", "aot: autograd/, the AOT joint-graph tracer (aot_function, make_fx)")
