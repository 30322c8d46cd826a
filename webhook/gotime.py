"""Go's `time.Parse(time.RFC3339, ...)` and `time.Time.String()`, as Kubernetes 1.30 reaches them.

One reading of a timestamp for everything that needs one: the structural check (a `metav1.Time`
that `UnmarshalJSON` would refuse), the ObjectMeta rules (creation and deletion times are
immutable: compared as instants, printed as Go prints them), semantic equality (`metav1.Time` is
equal when `a.UTC() == b.UTC()`) and CEL's timestamp literals (cel-go's `timestamp()` overload).

`time.Parse` with the RFC 3339 layout tries a strict fast path and falls back to Go's general
layout parser, so the general parser decides what is accepted. For the layout
``2006-01-02T15:04:05Z07:00`` that is:

* a four-digit year, two-digit month, day, minute and second, and a one- *or* two-digit hour
  (``15`` is Go's unpadded hour);
* month 1-12, a day that exists in that month, hour < 24, minute < 60, second < 60;
* a fraction after the seconds although the layout has none, after ``.`` or ``,``; only its first
  nine digits count;
* ``Z`` or ``+hh:mm`` / ``-hh:mm`` with hh <= 24 and mm <= 60 (Go tests the offset with ``>``);
* ASCII digits only, nothing before or after.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Final

# The layout with Go's range checks written into it: month 01-12, day 01-31, hour 0-23 in one or
# two digits, minute and second 00-59, offset hours 00-24 and minutes 00-60. Only a day past the
# 28th needs its month and year looked at (`_checked_match`).
_RFC3339: Final = re.compile(
    r"([0-9]{4})-(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01])T([01]?[0-9]|2[0-3]):([0-5][0-9]):([0-5][0-9])"
    r"(?:[.,]([0-9]+))?(?:Z|([+-])([01][0-9]|2[0-4]):([0-5][0-9]|60))",
    re.ASCII,
)
SECONDS_PER_DAY: Final = 86400
# Days from 0001-01-01 (Go's zero time) to 1970-01-01.
_DAYS_TO_UNIX_EPOCH: Final = 719162
UNIX_EPOCH_SECONDS: Final = _DAYS_TO_UNIX_EPOCH * SECONDS_PER_DAY
_DAYS_IN_MONTH: Final = (31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31)


@dataclass(frozen=True, slots=True)
class GoTime:
    """An instant as a Go `time.Time` in UTC holds it. Equal instants are equal, whatever offset
    they were written with (`Semantic.DeepEqual` compares `a.UTC() == b.UTC()`)."""

    seconds: int = 0  # since 0001-01-01T00:00:00Z, Go's zero time
    nanos: int = 0

    @property
    def unix_seconds(self) -> int:
        return self.seconds - UNIX_EPOCH_SECONDS

    def __str__(self) -> str:
        """`time.Time.String()` in UTC: ``2006-01-02 15:04:05.999999999 +0000 UTC``."""
        days, rest = divmod(self.seconds, SECONDS_PER_DAY)
        year, month, day = _civil_from_days(days)
        date = f"-{-year:04d}" if year < 0 else f"{year:04d}"
        clock = f"{rest // 3600:02d}:{rest // 60 % 60:02d}:{rest % 60:02d}"
        fraction = f".{self.nanos:09d}".rstrip("0") if self.nanos else ""
        return f"{date}-{month:02d}-{day:02d} {clock}{fraction} +0000 UTC"

    def rfc3339_seconds(self) -> str:
        """`t.UTC().Format(time.RFC3339)`, as `metav1.Time.MarshalJSON` writes it: whole seconds."""
        days, rest = divmod(self.seconds, SECONDS_PER_DAY)
        year, month, day = _civil_from_days(days)
        clock = f"{rest // 3600:02d}:{rest // 60 % 60:02d}:{rest % 60:02d}"
        return f"{year:04d}-{month:02d}-{day:02d}T{clock}Z"


ZERO_TIME: Final = GoTime()


def is_rfc3339(text: str) -> bool:
    """Whether `time.Parse(time.RFC3339, text)` succeeds (without computing the instant)."""
    return _checked_match(text) is not None


def parse_rfc3339(text: str) -> GoTime | None:
    """The instant `time.Parse(time.RFC3339, text)` gives, or None where Go returns an error."""
    match = _checked_match(text)
    if match is None:
        return None
    year, month, day, hour, minute, second = (int(part) for part in match.group(1, 2, 3, 4, 5, 6))
    offset = 0
    if match.group(8):
        offset = int(match.group(9)) * 3600 + int(match.group(10)) * 60
        offset = -offset if match.group(8) == "-" else offset
    seconds = _days_from_civil(year, month, day) * SECONDS_PER_DAY + hour * 3600 + minute * 60 + second
    nanos = int((match.group(7) or "")[:9].ljust(9, "0"))
    return GoTime(seconds - offset, nanos)


def _checked_match(text: str) -> re.Match[str] | None:
    match = _RFC3339.fullmatch(text)
    if match is None:
        return None
    day = match.group(3)
    if day > "28" and int(day) > _days_in_month(int(match.group(1)), int(match.group(2))):
        return None
    return match


def _days_in_month(year: int, month: int) -> int:
    leap = year % 4 == 0 and (year % 100 != 0 or year % 400 == 0)
    return 29 if month == 2 and leap else _DAYS_IN_MONTH[month - 1]


def _days_from_civil(year: int, month: int, day: int) -> int:
    """Days since 0001-01-01 of a proleptic Gregorian date (H. Hinnant's algorithm), any year."""
    year -= month <= 2
    era = year // 400
    year_of_era = year - era * 400
    day_of_year = (153 * (month + (-3 if month > 2 else 9)) + 2) // 5 + day - 1
    day_of_era = year_of_era * 365 + year_of_era // 4 - year_of_era // 100 + day_of_year
    return era * 146097 + day_of_era - 719468 + _DAYS_TO_UNIX_EPOCH


def _civil_from_days(days: int) -> tuple[int, int, int]:
    """The inverse of `_days_from_civil`."""
    shifted = days - _DAYS_TO_UNIX_EPOCH + 719468
    era = shifted // 146097
    day_of_era = shifted - era * 146097
    year_of_era = (day_of_era - day_of_era // 1460 + day_of_era // 36524 - day_of_era // 146096) // 365
    day_of_year = day_of_era - (365 * year_of_era + year_of_era // 4 - year_of_era // 100)
    month_index = (5 * day_of_year + 2) // 153
    day = day_of_year - (153 * month_index + 2) // 5 + 1
    month = month_index + 3 if month_index < 10 else month_index - 9
    return year_of_era + era * 400 + (month <= 2), month, day
