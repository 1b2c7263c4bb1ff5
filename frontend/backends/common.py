"""Backend helpers (plays torch._dynamo.backends.common): aot_autograd comes from `autograd`."""
from autograd import aot_autograd  # noqa: F401
