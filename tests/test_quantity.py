"""`resource.Quantity` as apimachinery 0.37 parses, prints, compares and rounds it.

The expected texts are what `Quantity.String()` returns: the input when `ParseQuantity` found it
canonical, else the canonical form (a decimal exponent lowered to a multiple of three, a suffix
from n to E, binary suffixes for whole multiples of 1024)."""

from __future__ import annotations

import pytest

from webhook.quantity import (
    Quantity,
    add,
    canonical_text,
    compare,
    compare_int64,
    is_fractional,
    parse_quantity,
    quantity_of,
    value_int64,
)


def q(spelled: str) -> Quantity:
    parsed = parse_quantity(spelled)
    assert parsed is not None, spelled
    return parsed


@pytest.mark.parametrize(
    ("spelled", "printed"),
    [
        ("0", "0"),
        ("00", "0"),
        ("1Gi", "1Gi"),
        ("10Mi", "10Mi"),
        ("1050m", "1050m"),
        ("1.05", "1050m"),  # not canonical: printed in milli units
        ("5.0", "5"),
        ("0.1", "100m"),
        ("100m", "100m"),
        ("-1", "-1"),
        ("-1Mi", "-1Mi"),
        ("1e3", "1e3"),
        ("1E", "1E"),  # E is exa, not an exponent
        ("12e6", "12e6"),
        ("1000", "1k"),
        ("1.5Ki", "1536"),  # fractional binary: inf.Dec, printed as the whole number
        ("0.5Ki", "512"),
        ("2048", "2048"),
        ("9223372036854775807", "9223372036854775807"),
        ("9223372036854775807m", "9223372036854775807m"),
        ("1n", "1n"),
        ("0.0000000001", "1n"),  # rounded up to nano units
        ("1e21", "1e21"),
    ],
)
def test_a_quantity_prints_as_go_prints_it(spelled: str, printed: str) -> None:
    assert canonical_text(q(spelled)) == printed


@pytest.mark.parametrize("spelled", ["", "1x", "abc", "1e", "--1", "1.5.5"])
def test_what_parse_quantity_refuses(spelled: str) -> None:
    assert parse_quantity(spelled) is None


@pytest.mark.parametrize(
    ("spelled", "value"),
    [
        ("1Gi", 1073741824),
        ("1.05", 2),  # rounded up
        ("0.1", 1),
        ("-1.5", -2),  # int64Amount rounds away from zero
        ("9223372036854775807m", 9223372036854776),
        ("1e21", 0),  # positiveScaleInt64 overflows; Value() ignores the flag and returns 0
        ("9223372036854775807", 9223372036854775807),
    ],
)
def test_value_rounds_up_as_go_does(spelled: str, value: int) -> None:
    assert value_int64(q(spelled)) == value


def test_comparisons_are_exact_across_representations() -> None:
    assert compare(q("1Gi"), q("1073741824")) == 0
    assert compare(q("1.05"), q("1.1")) < 0
    assert compare(q("9223372036854775807"), q("9223372036854775806")) > 0
    assert compare_int64(q("9223372036854775808"), (1 << 63) - 1) > 0
    assert is_fractional(q("1.5")) and not is_fractional(q("1.5k"))


def test_adding_keeps_the_first_format_unless_it_is_zero() -> None:
    assert canonical_text(add(q("1Mi"), q("1Mi"))) == "2Mi"
    assert canonical_text(add(q("0"), q("1Mi"))) == "1Mi"
    assert canonical_text(add(q("1"), q("0.5"))) == "1500m"


def test_json_values_decode_as_quantities() -> None:
    assert quantity_of(" 2 ") == q("2")
    assert quantity_of(3) == q("3")
    assert quantity_of(True) is None
    assert quantity_of(None) is None
