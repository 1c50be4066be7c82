"""Shared fixtures and hypothesis profiles."""

from __future__ import annotations

import os

from hypothesis import HealthCheck, settings

# "ci": reproducible and bounded; "dev": the default; "long": for runs on demand.
settings.register_profile("ci", deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("dev", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("long", deadline=None, max_examples=5000, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "dev"))


def pytest_addoption(parser):  # type: ignore[no-untyped-def]
    parser.addoption(
        "--update-golden", action="store_true", help="rewrite the golden files of CLI tests with the current output"
    )
