"""The backend table lives in backends/__init__.py; this module mirrors torch._dynamo.backends.registry's path."""
from . import BACKENDS, list_backends, lookup_backend, register_backend  # noqa: F401
