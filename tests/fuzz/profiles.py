"""Hypothesis profiles of the fuzz suite, and the budget of its loops that run outside hypothesis.

Two profiles, chosen with ``DRA_FUZZ_PROFILE`` (default ``ci``):

* ``ci`` — small and derandomized: the same examples on every run, the whole fuzz suite in well
  under a minute on two busy cores, so a failure in CI is a regression and not bad luck;
* ``fuzz`` — long and random, with the example database on: ``make fuzz`` (``DRA_FUZZ_EXAMPLES``
  examples per test, 4000 by default);
  every failure it finds is shrunk, printed with a reproduction blob, and becomes a test in
  ``test_regressions.py``.

The profiles apply to the fuzz tests only (each decorated with `FUZZ`), never to the rest of the
test suite. Loops that do not use hypothesis (byte-level mutation, load) scale with `budget()`.
"""

from __future__ import annotations

import os

from hypothesis import HealthCheck, settings

from webhook.cel import compile_selector

# The first CEL compilation raises the process's recursion limit (webhook.cel): do it before any
# hypothesis test starts, which otherwise warns that it cannot restore the limit it saw.
compile_selector("true")

_SLOW_INPUTS = [HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.large_base_example]

settings.register_profile(
    "ci",
    max_examples=60,
    derandomize=True,
    database=None,
    deadline=None,  # wall-clock limits are enforced by `bounded_time`, generously, not per example
    suppress_health_check=[*_SLOW_INPUTS, HealthCheck.function_scoped_fixture],
    print_blob=True,
)
settings.register_profile(
    "fuzz",
    max_examples=int(os.environ.get("DRA_FUZZ_EXAMPLES", "4000")),
    derandomize=False,
    deadline=None,
    suppress_health_check=[*_SLOW_INPUTS, HealthCheck.function_scoped_fixture],
    print_blob=True,
)

PROFILE = os.environ.get("DRA_FUZZ_PROFILE", "ci")
LONG_RUN = PROFILE != "ci"
# The settings every fuzz test is decorated with: `@FUZZ` then `@given(...)`.
FUZZ = settings(settings.get_profile(PROFILE))
# How many times longer the non-hypothesis loops run under the long profile.
LONG_RUN_FACTOR = 40


def budget(ci_count: int) -> int:
    """The number of iterations of a seeded loop: `ci_count` in CI, many more under ``make fuzz``."""
    return ci_count * LONG_RUN_FACTOR if LONG_RUN else ci_count


def run_seed() -> int:
    """The seed of the seeded loops: fixed in CI (the same inputs every run), fresh under ``make fuzz``
    (``DRA_FUZZ_SEED`` replays a run; every failure message names its seed)."""
    if "DRA_FUZZ_SEED" in os.environ:
        return int(os.environ["DRA_FUZZ_SEED"])
    return int.from_bytes(os.urandom(4), "big") if LONG_RUN else 20240501
