"""The soak's verdict on memory (`bench/load.py`): a worker's RSS moving within a band is flat, a
band that rises is growth."""

from __future__ import annotations

import pytest

from bench.load import SOAK_GROWTH_LIMIT_MIB, rss_growth


def samples(*rss_per_chunk: float) -> list[dict[str, object]]:
    """Soak samples of one worker: at start-up, then after each chunk."""
    return [{"rss_mib": [rss]} for rss in (60.0, *rss_per_chunk)]


@pytest.mark.parametrize(
    ("rss_per_chunk", "growth"),
    [
        # The v1 mix's 2026-11-24 soak: what the allocator keeps of the last bodies moves the RSS
        # between about 75 and 81 MiB from one chunk to the next; the last sample fell high.
        (
            (75.1, 75.1, 76.6, 77.6, 77.9, 77.0, 79.9, 78.1, 79.0, 79.8, 78.2, 80.4, 78.8, 80.9, 80.1, 80.2),
            1.0,
        ),
        ((75.0, 75.0, 75.0, 75.0), 0.0),
        # A leak lifts the band: 0.5 MiB a chunk.
        ((75.0, 75.5, 76.0, 76.5, 77.0, 77.5, 78.0, 78.5, 79.0, 79.5), 2.5),
        ((75.0,), 0.0),
    ],
)
def test_growth_is_the_rise_of_the_highest_rss_from_the_first_half_to_the_second(
    rss_per_chunk: tuple[float, ...], growth: float
) -> None:
    assert rss_growth(samples(*rss_per_chunk)) == [growth]


def test_a_band_is_flat_and_a_leak_is_not() -> None:
    band = samples(75.0, 80.0, 75.5, 79.5, 76.0, 80.5, 75.0, 79.0)
    leak = samples(*(75.0 + 0.5 * chunk for chunk in range(12)))
    assert rss_growth(band)[0] <= SOAK_GROWTH_LIMIT_MIB < rss_growth(leak)[0]
