"""An autouse fixture for test modules that compile the same program under both Dynamos: each test starts and ends
with fresh caches in frontend and torch._dynamo. A module opts in by importing `fresh_compilers`."""
import pytest
import torch._dynamo

import frontend


@pytest.fixture(autouse=True)
def fresh_compilers():
    frontend.reset()
    torch._dynamo.reset()
    yield
    frontend.reset()
    torch._dynamo.reset()
