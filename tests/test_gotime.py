"""Go's `time.Parse(time.RFC3339, ...)` and `time.Time.String()` (webhook.gotime), and the four
places that read a timestamp agreeing on it: the structural check, the ObjectMeta immutability
rules, semantic equality and CEL's timestamp literals."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from webhook.cel import validate_selector
from webhook.field import ROOT
from webhook.gotime import UNIX_EPOCH_SECONDS, ZERO_TIME, GoTime, _days_in_month, is_rfc3339, parse_rfc3339
from webhook.rules.equality import OBJECT_META, semantic_equal
from webhook.rules.meta import validate_object_meta_update
from webhook.schemas import StructuralChecker


@pytest.mark.parametrize(
    ("text", "ok"),
    [
        ("2024-05-01T10:00:00Z", True),
        ("2024-05-01T10:00:00.5Z", True),
        ("2024-05-01T10:00:00,123456789Z", True),  # Go accepts a comma before the fraction
        ("2024-05-01T10:00:00+02:00", True),
        ("2024-05-01T10:00:00-23:59", True),
        ("2024-05-01T1:00:00Z", True),  # Go's layout hour "15" takes one or two digits
        ("2024-02-29T00:00:00Z", True),
        ("2000-02-29T00:00:00Z", True),
        ("1900-02-29T00:00:00Z", False),
        ("2023-02-29T00:00:00Z", False),
        ("2024-04-31T00:00:00Z", False),
        ("2024-13-01T00:00:00Z", False),
        ("2024-05-01T24:00:00Z", False),
        ("2024-05-01T10:60:00Z", False),
        ("2024-05-01T10:00:60Z", False),
        ("2024-05-01 10:00:00Z", False),
        ("2024-05-01t10:00:00z", False),
        ("2024-05-01T10:00:00", False),
        ("2024-05-01T10:00Z", False),
        ("2024-05-01", False),
        ("2024-05-01T10:00:00+0200", False),
        ("", False),
        ("yesterday", False),
        ("٢٠٢٤-05-01T10:00:00Z", False),  # Arabic-Indic digits are not digits to Go
    ],
)
def test_timestamps_parse_as_go_time_parse_rfc3339(text: str, ok: bool) -> None:
    assert is_rfc3339(text) is ok
    assert (parse_rfc3339(text) is not None) is ok


@pytest.mark.parametrize(
    ("text", "seconds_since_unix_epoch", "nanos"),
    [
        ("1970-01-01T00:00:00Z", 0, 0),
        ("1970-01-01T01:00:00+01:00", 0, 0),
        ("1970-01-01T0:00:00-00:01", 60, 0),
        ("2024-05-01T10:00:00.1234567899Z", 1714557600, 123456789),  # nine digits count
        ("2024-05-01T10:00:00,5Z", 1714557600, 500000000),
        ("2024-05-01T00:00:00+24:00", 1714521600 - 86400, 0),
        ("0001-01-01T00:00:00Z", -UNIX_EPOCH_SECONDS, 0),
    ],
)
def test_the_instant_of_a_timestamp(text: str, seconds_since_unix_epoch: int, nanos: int) -> None:
    instant = parse_rfc3339(text)
    assert instant is not None
    assert (instant.unix_seconds, instant.nanos) == (seconds_since_unix_epoch, nanos)


@pytest.mark.parametrize(
    ("instant", "printed"),
    [
        (ZERO_TIME, "0001-01-01 00:00:00 +0000 UTC"),
        (parse_rfc3339("2024-05-01T12:30:00+02:00"), "2024-05-01 10:30:00 +0000 UTC"),
        (parse_rfc3339("2024-05-01T10:00:00.120Z"), "2024-05-01 10:00:00.12 +0000 UTC"),
        (parse_rfc3339("0000-01-01T00:00:00+00:01"), "-0001-12-31 23:59:00 +0000 UTC"),
    ],
)
def test_times_print_as_go_time_string_in_utc(instant: GoTime | None, printed: str) -> None:
    assert str(instant) == printed


# What Go accepts but a stricter reader did not: a one-digit hour, a comma before the fraction, a
# 24-hour offset. The same instant written two ways is the same time everywhere.
SAME_INSTANT = [
    ("2024-05-01T05:04:05Z", "2024-05-01T5:04:05Z"),
    ("2024-05-01T05:04:05.5Z", "2024-05-01T05:04:05,5Z"),
    ("2024-05-01T05:04:05Z", "2024-05-02T05:04:05+24:00"),
]


@pytest.mark.parametrize(("old", "new"), SAME_INSTANT)
def test_an_unchanged_creation_time_written_otherwise_is_not_a_change(old: str, new: str) -> None:
    meta = {"name": "a", "namespace": "n", "resourceVersion": "1"}
    errors = validate_object_meta_update(
        {**meta, "creationTimestamp": new}, {**meta, "creationTimestamp": old}
    )
    assert [str(error) for error in errors] == []


@pytest.mark.parametrize(("old", "new"), SAME_INSTANT)
def test_the_same_instant_is_semantically_equal(old: str, new: str) -> None:
    assert semantic_equal({"creationTimestamp": old}, {"creationTimestamp": new}, OBJECT_META)


@pytest.mark.parametrize("text", [text for pair in SAME_INSTANT for text in pair])
def test_the_structural_check_and_cel_accept_what_go_accepts(text: str) -> None:
    claim = {"metadata": {"name": "a", "namespace": "n", "creationTimestamp": text}, "spec": {}}
    checker = StructuralChecker.load()
    gvk = next(kind for kind in checker.kinds if kind.kind == "ResourceClaim")
    assert checker.check(gvk, claim).errors == []
    assert validate_selector(f'timestamp("{text}") > timestamp(0)', ROOT.child("selector")) == []


def test_cel_refuses_an_offset_past_24_hours() -> None:
    [error] = validate_selector('timestamp("2024-05-01T05:04:05+25:00") > timestamp(0)', ROOT.child("s"))
    assert "invalid timestamp argument" in error.detail


# The reference: the layout's digits matched loosely, Go's range checks made in Python (the regex of
# webhook.gotime now carries all of them but the day of the month).
_LOOSE_RFC3339 = re.compile(
    r"([0-9]{4})-([0-9]{2})-([0-9]{2})T([0-9]{1,2}):([0-9]{2}):([0-9]{2})(?:[.,]([0-9]+))?"
    r"(?:Z|([+-])([0-9]{2}):([0-9]{2}))",
    re.ASCII,
)


def reference_is_rfc3339(text: str) -> bool:
    match = _LOOSE_RFC3339.fullmatch(text)
    if match is None:
        return False
    year, month, day, hour, minute, second = (int(part) for part in match.group(1, 2, 3, 4, 5, 6))
    if not 1 <= month <= 12 or not 1 <= day <= _days_in_month(year, month):
        return False
    if hour >= 24 or minute >= 60 or second >= 60:
        return False
    return not (match.group(8) and (int(match.group(9)) > 24 or int(match.group(10)) > 60))


_YEARS = ["2024", "2023", "1900", "2000", "0000", "999", "20240"]
_MONTHS = ["00", "01", "02", "04", "09", "10", "12", "13", "20", "1", "001"]
_DAYS = ["00", "01", "09", "10", "19", "20", "28", "29", "30", "31", "32", "40", "1"]
_HOURS = ["0", "9", "00", "09", "10", "19", "20", "23", "24", "29", "30", "000", ""]
_MINUTES = ["00", "09", "10", "59", "60", "99", "0", "000"]
_FRACTIONS = ["", ".5", ",123456789123", ".", ".a"]
_ZONES = ["Z", "z", "", "+02:00", "-23:59", "+19:00", "+20:00", "+24:00", "+25:00", "+30:00", "+24:59", "+24:60",
          "+24:61", "+00:70", "+2:00", "+02:0", "02:00"]  # fmt: skip


def _timestamps() -> list[str]:
    """Every date of the edge years, months and days at one time, then every other field's edges
    at dates of 28, 29 and 31 days."""
    texts = [f"{y}-{m}-{d}T10:00:00Z" for y in _YEARS for m in _MONTHS for d in _DAYS]
    for date in ("2023-02-28", "2024-02-29", "2024-01-31"):
        texts += [f"{date}T{h}:00:00Z" for h in _HOURS]
        texts += [f"{date}T10:{m}:00Z" for m in _MINUTES] + [f"{date}T10:00:{sec}Z" for sec in _MINUTES]
        texts += [f"{date}T10:00:00{f}{z}" for f in _FRACTIONS for z in _ZONES]
    return texts


def test_timestamps_are_accepted_as_by_the_range_checks_they_encode() -> None:
    for text in _timestamps():
        assert is_rfc3339(text) == reference_is_rfc3339(text), text
        assert (parse_rfc3339(text) is not None) == reference_is_rfc3339(text), text


@given(st.text(st.sampled_from("0123459-:TZ+.,"), max_size=26))
@settings(max_examples=1000, deadline=None)
def test_any_text_is_accepted_as_by_the_range_checks(text: str) -> None:
    assert is_rfc3339(text) == reference_is_rfc3339(text)
