"""Go's `resource.ParseQuantity` (k8s.io/apimachinery/pkg/api/resource/quantity.go), as far as it
decides between a quantity and its three errors: what `Quantity.UnmarshalJSON` says of a JSON string.
"""

from __future__ import annotations

from typing import Final

# Go's int64, the type of a quantity's fast path (and of the JSON integers a Go decoder stores).
INT64_MIN: Final = -(2**63)
INT64_MAX: Final = 2**63 - 1

# resource.ParseQuantity's errors (k8s.io/apimachinery/pkg/api/resource/quantity.go).
QUANTITY_FORMAT_WRONG: Final = (
    "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'"
)
QUANTITY_SUFFIX_WRONG: Final = "unable to parse quantity's suffix"
QUANTITY_NUMERIC_WRONG: Final = "unable to parse numeric part of quantity"

_BINARY_SUFFIXES: Final = {"Ki": 10, "Mi": 20, "Gi": 30, "Ti": 40, "Pi": 50, "Ei": 60}
_DECIMAL_SUFFIXES: Final = {
    "n": -9,
    "u": -6,
    "m": -3,
    "": 0,
    "k": 3,
    "M": 6,
    "G": 9,
    "T": 12,
    "P": 15,
    "E": 18,
}
_QUANTITY_SUFFIX_CHARS: Final = frozenset("eEinumkKMGTP")
_DIGITS: Final = frozenset("0123456789")
_MAX_INT64_FACTORS: Final = 18  # quantity.go maxInt64Factors
_NANO_SCALE: Final = -9


def quantity_error(text: str) -> str | None:
    """Go's error for `Quantity.UnmarshalJSON` of a JSON string, or None when it parses.

    A port of `ParseQuantity` (apimachinery 1.30) as far as it decides between success and its three
    errors: `parseQuantityString`, the suffix lookup, and the numeric fallback through `inf.Dec`.
    """
    text = text.strip()  # UnmarshalJSON trims spaces before parsing
    if not text:
        return QUANTITY_FORMAT_WRONG
    if text == "0":
        return None
    parsed = _parse_quantity_string(text)
    if parsed is None:
        return QUANTITY_FORMAT_WRONG
    value, num, denom, suffix = parsed
    interpreted = _interpret_quantity_suffix(suffix)
    if interpreted is None:
        return QUANTITY_SUFFIX_WRONG
    base, exponent = interpreted
    if _quantity_fits_int64(num, denom, base, exponent):
        return None
    # The inf.Dec fallback: its scanner needs at least one digit.
    return None if any(char in _DIGITS for char in value) else QUANTITY_NUMERIC_WRONG


def _parse_quantity_string(text: str) -> tuple[str, str, str, str] | None:
    """`parseQuantityString`: (value, numerator, denominator, suffix), or None for ErrFormatWrong."""
    end, pos = len(text), 0
    if text[0] in "+-":
        pos = 1
    while pos < end and text[pos] == "0":  # leading zeros
        pos += 1
    if pos >= end:
        return "0", "0", "", ""
    start = pos
    while pos < end and text[pos] in _DIGITS:
        pos += 1
    if pos >= end:
        return text, text[start:], "", ""
    num = text[start:pos] or "0"
    denom = ""
    if text[pos] == ".":
        pos += 1
        start = pos
        while pos < end and text[pos] in _DIGITS:
            pos += 1
        denom = text[start:pos]
        if pos >= end:
            return text, num, denom, ""
    value, suffix_start = text[:pos], pos
    while pos < end and text[pos] in _QUANTITY_SUFFIX_CHARS:
        pos += 1
    if pos < end and text[pos] in "+-":
        pos += 1
    while pos < end and text[pos] in _DIGITS:
        pos += 1
    if pos < end:
        return None  # a character that is neither a suffix letter nor an exponent digit
    return value, num, denom, text[suffix_start:]


def _interpret_quantity_suffix(suffix: str) -> tuple[int, int] | None:
    """`quantitySuffixer.interpret`: (base, exponent), or None for ErrSuffix."""
    if suffix in _BINARY_SUFFIXES:
        return 2, _BINARY_SUFFIXES[suffix]
    if suffix in _DECIMAL_SUFFIXES:
        return 10, _DECIMAL_SUFFIXES[suffix]
    if len(suffix) > 1 and suffix[0] in "eE":
        digits = suffix[1:]
        body = digits[1:] if digits[0] in "+-" else digits
        if not body or not set(body) <= _DIGITS:
            return None
        exponent = int(digits)
        if not INT64_MIN <= exponent <= INT64_MAX:
            return None
        return 10, (exponent + 2**31) % 2**32 - 2**31  # Go's int32(parsed)
    return None


def _quantity_fits_int64(num: str, denom: str, base: int, exponent: int) -> bool:
    """Whether `ParseQuantity` returns through its int64 fast path (before the inf.Dec fallback)."""
    if base == 10:
        scale, precision, mantissa = exponent, _MAX_INT64_FACTORS - (len(num) + len(denom)), 1
    elif exponent >= 0 and not denom:
        scale, mantissa = 0, 1 << exponent
        # Go: 15 - len(num) - int32(float32(exponent)*3/10) - 1
        precision = 15 - len(num) - int(exponent * 3 / 10) - 1
    else:
        return False
    if precision < 0:
        return False
    scale -= len(denom)
    if scale < _NANO_SCALE:
        return False
    return INT64_MIN <= int(num + denom) * mantissa <= INT64_MAX
