"""Shared pytest configuration: hypothesis profiles.

`default`: 200 examples per property, derandomized so CI runs are stable.
`deep`: 10,000 examples; select it with HYPOTHESIS_PROFILE=deep.
"""
import os

from hypothesis import HealthCheck, settings

settings.register_profile(
    "default", max_examples=200, deadline=None, derandomize=True, print_blob=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
settings.register_profile(
    "deep", max_examples=10_000, deadline=None, print_blob=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))
