"""`resource.Quantity` (k8s.io/apimachinery/pkg/api/resource; `ParseQuantity` is the same in 0.30
and 0.37) as the webhook reads it: the structural check asks whether a string parses and, if not,
for Go's error (`quantity_error`); the rules parse, compare, add, round and print quantities.

A quantity is parsed the way `Quantity.UnmarshalJSON` parses it (`ParseQuantity`): into an exact
decimal held either as Go's `int64Amount` (the fast path, at most 18 significant digits and no
more than nine decimal places) or as an `inf.Dec` (anything else, rounded up to nano units). The
two hold the same number; they differ only where Go's arithmetic differs -- `Value()` of a number
beyond int64, or of a negative fraction. `canonical_text()` is `Quantity.String()`: the string as written
when `ParseQuantity` found it canonical, else the canonical form of `CanonicalizeBytes` (with its
quirks: a decimal exponent outside n..E prints without a suffix).
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from typing import Any, Final

__all__ = [
    "BINARY_SI",
    "DECIMAL_EXPONENT",
    "DECIMAL_SI",
    "INT64_MAX",
    "INT64_MIN",
    "QUANTITY_FORMAT_WRONG",
    "QUANTITY_NUMERIC_WRONG",
    "QUANTITY_SUFFIX_WRONG",
    "Quantity",
    "add",
    "canonical_text",
    "compare",
    "compare_int64",
    "is_fractional",
    "parse_quantity",
    "quantity_error",
    "quantity_of",
    "sign",
    "value_int64",
]

DECIMAL_EXPONENT: Final = "DecimalExponent"
BINARY_SI: Final = "BinarySI"
DECIMAL_SI: Final = "DecimalSI"

# Go's int64: a quantity's fast path, and the JSON integers a Go decoder stores.
INT64_MIN: Final = -(2**63)
INT64_MAX: Final = 2**63 - 1

# ParseQuantity's errors.
QUANTITY_FORMAT_WRONG: Final = (
    "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'"
)
QUANTITY_SUFFIX_WRONG: Final = "unable to parse quantity's suffix"
QUANTITY_NUMERIC_WRONG: Final = "unable to parse numeric part of quantity"

# quantity.go maxInt64Factors: the decimal digits an int64Amount may hold on the fast path.
_MAX_INT64_FACTORS: Final = 18
_NANO: Final = -9  # resource.Nano: the finest scale a parsed quantity keeps

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
_DECIMAL_SUFFIX_OF: Final = {exponent: suffix for suffix, exponent in _DECIMAL_SUFFIXES.items()}
_BINARY_SUFFIXES: Final = {"Ki": 10, "Mi": 20, "Gi": 30, "Ti": 40, "Pi": 50, "Ei": 60}
_BINARY_SUFFIX_OF: Final = {exponent: suffix for suffix, exponent in _BINARY_SUFFIXES.items()}
_SUFFIX_LETTERS: Final = frozenset("eEinumkKMGTP")
_DIGITS: Final = frozenset("0123456789")


@dataclass(frozen=True, slots=True)
class Quantity:
    """A parsed quantity: the number ``unscaled * 10**-scale`` (inf.Dec's convention), its format,
    the string `ParseQuantity` kept when the input was canonical ("" when it did not), and whether
    Go holds it as an `int64Amount` (value `unscaled`, scale `-scale`) or as an `inf.Dec`."""

    unscaled: int
    scale: int
    format: str
    cached: str = ""
    int64: bool = True


def _pow10(exponent: int) -> int:
    """10**exponent for exponent >= 0, as an int for the type checker."""
    power: int = 10**exponent
    return power


def _to_int64(value: int) -> int:
    """Go's conversion of a wider integer to int64 (`big.Int.Int64()`): the low 64 bits."""
    return (value - INT64_MIN) % (1 << 64) + INT64_MIN


# --- parsing -------------------------------------------------------------------------------------


def quantity_of(value: Any) -> Quantity | None:
    """The quantity a JSON value decodes to (a string, or a number written as such), or None when
    Go's decoder would reject it (the structural check reports that)."""
    if isinstance(value, bool):
        return None
    if isinstance(value, str):
        return parse_quantity(value.strip())
    if isinstance(value, int):
        return parse_quantity(str(value))
    if isinstance(value, float):
        # The JSON text is gone; Python's shortest repr is the closest spelling of the number.
        return parse_quantity(repr(value))
    return None


def _parse_quantity_string(text: str) -> tuple[bool, str, str, str, str] | None:
    """`parseQuantityString`: (positive, value, numerator, denominator, suffix), None on
    ErrFormatWrong."""
    positive, pos, end = True, 0, len(text)
    if pos < end and text[0] in "+-":
        positive = text[0] == "+"
        pos += 1
    while pos < end and text[pos] == "0":  # leading zeros
        pos += 1
    if pos >= end:
        return positive, "0", "0", "", ""
    start = pos
    while pos < end and text[pos] in _DIGITS:
        pos += 1
    if pos >= end:
        return positive, text, text[start:], "", ""
    num = text[start:pos] or "0"
    denom = ""
    if text[pos] == ".":
        pos += 1
        start = pos
        while pos < end and text[pos] in _DIGITS:
            pos += 1
        denom = text[start:pos]
        if pos >= end:
            return positive, text, num, denom, ""
    value, suffix_start = text[:pos], pos
    while pos < end and text[pos] in _SUFFIX_LETTERS:
        pos += 1
    if pos >= end:
        return positive, value, num, denom, text[suffix_start:]
    if text[pos] in "+-":
        pos += 1
    while pos < end and text[pos] in _DIGITS:
        pos += 1
    if pos < end:
        return None
    return positive, value, num, denom, text[suffix_start:]


def _interpret_suffix(suffix: str) -> tuple[int, int, str] | None:
    """`quantitySuffixer.interpret`: (base, exponent, format), None on ErrSuffix."""
    if suffix in _DECIMAL_SUFFIXES:
        return 10, _DECIMAL_SUFFIXES[suffix], DECIMAL_SI
    if suffix in _BINARY_SUFFIXES:
        return 2, _BINARY_SUFFIXES[suffix], BINARY_SI
    if len(suffix) > 1 and suffix[0] in "eE":
        digits = suffix[1:]
        body = digits[1:] if digits[0] in "+-" else digits
        if not body or not set(body) <= _DIGITS:
            return None
        exponent = int(digits)
        if not INT64_MIN <= exponent <= INT64_MAX:
            return None
        return 10, (exponent + 2**31) % 2**32 - 2**31, DECIMAL_EXPONENT  # int32(parsed)
    return None


def parse_quantity(text: str) -> Quantity | None:
    """`ParseQuantity`, None where it returns an error."""
    parsed = _parse_quantity(text)
    if isinstance(parsed, str):
        return None
    unscaled, scale, quantity_format, cached, int64 = parsed
    return Quantity(unscaled, scale, quantity_format, cached=cached, int64=int64)


def quantity_error(text: str) -> str | None:
    """Go's error for `Quantity.UnmarshalJSON` of a JSON string (spaces trimmed, then
    `ParseQuantity`), or None when it parses."""
    parsed = _parse_quantity(text.strip())
    return parsed if isinstance(parsed, str) else None


# A parsed quantity's fields (`Quantity`'s, in order), left unbuilt for `quantity_error`, which
# only asks whether the text parses.
_Fields = tuple[int, int, str, str, bool]


def _parse_quantity(text: str) -> _Fields | str:
    """`ParseQuantity`: the quantity's fields, or the message of the error it returns."""
    if not text:
        return QUANTITY_FORMAT_WRONG
    if text == "0":
        return 0, 0, DECIMAL_SI, "0", True
    parsed = _parse_quantity_string(text)
    if parsed is None:
        return QUANTITY_FORMAT_WRONG
    positive, value, num, denom, suffix = parsed
    interpreted = _interpret_suffix(suffix)
    if interpreted is None:
        return QUANTITY_SUFFIX_WRONG
    base, exponent, quantity_format = interpreted

    mantissa, scale = 1, 0
    if quantity_format == BINARY_SI:
        if exponent >= 0 and not denom:
            mantissa = 1 << exponent
            # Go: 15 - len(num) - int32(float32(exponent)*3/10) - 1
            precision = 15 - len(num) - int(exponent * 3 / 10) - 1
        else:
            precision = -1
    else:
        scale = exponent
        precision = _MAX_INT64_FACTORS - (len(num) + len(denom))
    if precision >= 0:
        scale -= len(denom)
        if scale >= _NANO:
            shifted = num + denom
            amount = int(shifted)
            result = amount * mantissa
            if INT64_MIN <= result <= INT64_MAX:
                if not positive:
                    result = -result
                cached = ""
                if quantity_format == BINARY_SI:
                    if exponent % 10 == 0 and amount & 0x07 != 0:
                        cached = text
                elif scale % 3 == 0 and not shifted.endswith("000") and shifted[0] != "0":
                    cached = text
                return result, -scale, quantity_format, cached, True

    # The inf.Dec path: the exact number, scaled by the suffix.
    try:
        number = Decimal(value)
    except InvalidOperation:  # inf.Dec's scanner needs a digit
        return QUANTITY_NUMERIC_WRONG
    if not number.is_finite():
        return QUANTITY_NUMERIC_WRONG
    sign, digits, exp = number.as_tuple()
    assert isinstance(exp, int)
    unscaled = int("".join(map(str, digits)) or "0")
    dec_scale = -exp
    if base == 10:
        dec_scale -= exponent
    else:
        unscaled <<= exponent
    # Non-zero values round up (away from zero) to nano units; inf.Dec's Round leaves scale 9.
    if unscaled != 0:
        unscaled, dec_scale = _round_up(unscaled, dec_scale, -_NANO), -_NANO
    if quantity_format == BINARY_SI and _compare_parts(unscaled, dec_scale, INT64_MAX, 0) > 0:
        unscaled, dec_scale = INT64_MAX, 0  # the cap of maxAllowed
    if quantity_format == BINARY_SI and unscaled != 0 and _compare_parts(unscaled, dec_scale, 1, 0) < 0:
        quantity_format = DECIMAL_SI
    if sign:
        unscaled = -unscaled
    return unscaled, dec_scale, quantity_format, "", False


def _round_up(unscaled: int, scale: int, new_scale: int) -> int:
    """The unscaled value of a non-negative decimal rounded up (away from zero) to `new_scale`."""
    if new_scale >= scale:
        return unscaled * _pow10(new_scale - scale)
    divisor = _pow10(scale - new_scale)
    quotient, remainder = divmod(unscaled, divisor)
    return quotient + (1 if remainder else 0)


# --- arithmetic ----------------------------------------------------------------------------------


def _compare_parts(a_unscaled: int, a_scale: int, b_unscaled: int, b_scale: int) -> int:
    scale = max(a_scale, b_scale)
    a = a_unscaled * _pow10(scale - a_scale)
    b = b_unscaled * _pow10(scale - b_scale)
    return (a > b) - (a < b)


def compare(a: Quantity, b: Quantity) -> int:
    """`a.Cmp(b)`: -1, 0 or 1 (exact, whichever way Go holds them)."""
    return _compare_parts(a.unscaled, a.scale, b.unscaled, b.scale)


def compare_int64(q: Quantity, value: int) -> int:
    """`q.CmpInt64(value)`."""
    return _compare_parts(q.unscaled, q.scale, value, 0)


def sign(q: Quantity) -> int:
    """`q.Sign()`."""
    return (q.unscaled > 0) - (q.unscaled < 0)


def is_fractional(q: Quantity) -> bool:
    """Whether the number has a part below one (validation.go `isFractionalQuantity`)."""
    return q.scale > 0 and q.unscaled % _pow10(q.scale) != 0


def add(a: Quantity, b: Quantity) -> Quantity:
    """`a.Add(b)` on a copy of `a`: the sum, no longer cached; `a`'s format unless `a` is zero."""
    quantity_format = b.format if a.unscaled == 0 else a.format
    scale = max(a.scale, b.scale)
    unscaled = a.unscaled * _pow10(scale - a.scale) + b.unscaled * _pow10(scale - b.scale)
    fits = a.int64 and b.int64 and INT64_MIN <= unscaled <= INT64_MAX
    return Quantity(unscaled, scale, quantity_format, int64=fits)


def value_int64(q: Quantity) -> int:
    """`q.Value()`: `ScaledValue(0)`, rounded up as Go's two representations round, overflowing
    as they overflow."""
    if q.int64:
        if q.scale <= 0:  # an int64Amount of scale >= 0: positiveScaleInt64, 0 on overflow
            result = q.unscaled * _pow10(-q.scale)
            return result if INT64_MIN <= result <= INT64_MAX else 0
        return _negative_scale_int64(q.unscaled, q.scale)
    return _scaled_value(q.unscaled, q.scale)


def _negative_scale_int64(base: int, scale: int) -> int:
    """`negativeScaleInt64`: `base` divided by 10**scale, rounded away from zero."""
    value, fraction = base, False
    for _ in range(scale):
        if not fraction and _go_remainder(value, 10) != 0:
            fraction = True
        value = _go_quotient(value, 10)
        if value == 0:
            if fraction:
                return 1 if base > 0 else -1
            return 0
    if fraction:
        value = value + 1 if base > 0 else value - 1
    return value


def _scaled_value(unscaled: int, scale: int) -> int:
    """scale_int.go `scaledValue(unscaled, scale, 0)`."""
    if scale == 0:
        return _to_int64(unscaled)
    if scale < 0:
        factor = _pow10(-scale)
        # int64(math.Pow10(n)): beyond int64 the conversion gives the minimum int64 (amd64).
        factor64 = factor if factor <= INT64_MAX else INT64_MIN
        return _to_int64(_to_int64(unscaled) * factor64)
    if unscaled < INT64_MAX and scale < 19:
        small = _to_int64(unscaled)
        divisor = _pow10(scale)
        result, remainder = _go_quotient(small, divisor), _go_remainder(small, divisor)
        return result + 1 if remainder != 0 else result
    quotient, remainder = divmod(unscaled, _pow10(scale))  # big.Int DivMod: Euclidean, divisor > 0
    return _to_int64(quotient) + 1 if remainder != 0 else _to_int64(quotient)


def _go_quotient(a: int, b: int) -> int:
    """Go's integer division, truncated toward zero."""
    quotient = abs(a) // abs(b)
    return quotient if (a >= 0) == (b > 0) else -quotient


def _go_remainder(a: int, b: int) -> int:
    """Go's `%`: the sign of the dividend."""
    return a - _go_quotient(a, b) * b


# --- printing ------------------------------------------------------------------------------------


def canonical_text(q: Quantity) -> str:
    """`q.String()`."""
    if q.cached:
        return q.cached
    if q.unscaled == 0:
        return "0"
    quantity_format = q.format
    if quantity_format == BINARY_SI:
        if compare_int64(q, -1024) > 0 and compare_int64(q, 1024) < 0:
            quantity_format = DECIMAL_SI
        elif is_fractional(q):
            quantity_format = DECIMAL_SI  # rounding to an integer would lose precision
    if quantity_format == BINARY_SI:
        number = q.unscaled // _pow10(q.scale) if q.scale > 0 else q.unscaled * _pow10(-q.scale)
        amount, times = _remove_factors(number, 1024)
        return str(amount) + _BINARY_SUFFIX_OF.get(times * 10, "")
    mantissa, exponent = _remove_factors(q.unscaled, 10)
    exponent -= q.scale
    shift = exponent % 3  # Go lowers the exponent to the multiple of 3 at or below it
    mantissa, exponent = mantissa * _pow10(shift), exponent - shift
    if quantity_format == DECIMAL_EXPONENT:
        return str(mantissa) + ("" if exponent == 0 else f"e{exponent}")
    return str(mantissa) + _DECIMAL_SUFFIX_OF.get(exponent, "")


def _remove_factors(value: int, base: int) -> tuple[int, int]:
    """`removeInt64Factors`: (result, times) with value == result * base**times."""
    negative, result, times = value < 0, abs(value), 0
    while result >= base and result % base == 0:
        result //= base
        times += 1
    return (-result if negative else result), times
