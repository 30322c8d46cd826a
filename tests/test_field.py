"""Field errors render byte for byte as apimachinery 1.30 renders them (field.Error, ToAggregate)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from webhook.field import (
    NIL_PATH,
    ROOT,
    ErrorType,
    FieldError,
    FieldPath,
    aggregate_message,
    compact_json,
    duplicate,
    forbidden,
    go_float,
    go_json,
    go_quote,
    go_string_slice,
    internal,
    invalid,
    invalid_message,
    not_found,
    not_supported,
    required,
    too_long,
    too_long_max_length,
    too_many,
    type_invalid,
)

SPEC = ROOT.child("spec")


@pytest.mark.parametrize(
    ("error", "rendered", "reason"),
    [
        (required(SPEC.child("x")), "spec.x: Required value", "FieldValueRequired"),
        (
            required(SPEC.child("x"), "must be specified when `allocation` is set"),
            "spec.x: Required value: must be specified when `allocation` is set",
            "FieldValueRequired",
        ),
        (forbidden(SPEC, "not allowed"), "spec: Forbidden: not allowed", "FieldValueForbidden"),
        (
            too_long_max_length(ROOT.child("status", "reservedFor"), [1, 2], 32),
            "status.reservedFor: Too long: may not be longer than 32",
            "FieldValueTooLong",
        ),
        (
            too_long(ROOT.child("driverName"), "x" * 64, 63),
            "driverName: Too long: must have at most 63 bytes",
            "FieldValueTooLong",
        ),
        (internal(SPEC, "boom"), "spec: Internal error: boom", "InternalError"),
        (invalid(SPEC.child("n"), "a b", "bad"), 'spec.n: Invalid value: "a b": bad', "FieldValueInvalid"),
        (
            type_invalid(SPEC.child("n"), 3, "must be a string"),
            "spec.n: Invalid value: 3: must be a string",
            "FieldValueTypeInvalid",
        ),
        (
            duplicate(ROOT.child("status", "claims").index(1), "my-claim"),
            'status.claims[1]: Duplicate value: "my-claim"',
            "FieldValueDuplicate",
        ),
        (not_found(SPEC.key("k"), "v"), 'spec[k]: Not found: "v"', "FieldValueNotFound"),
        (
            not_supported(SPEC.child("allocationMode"), "Later", ["Immediate", "WaitForFirstConsumer"]),
            'spec.allocationMode: Unsupported value: "Later": supported values: "Immediate", "WaitForFirstConsumer"',
            "FieldValueNotSupported",
        ),
        (
            too_many(SPEC.child("l"), 40, 32),
            "spec.l: Too many: 40: must have at most 32 items",
            "FieldValueTooMany",
        ),
        (
            required(NIL_PATH, "exactly one structured model field must be set"),
            "<nil>: Required value: exactly one structured model field must be set",
            "FieldValueRequired",
        ),
    ],
)
def test_each_error_type_renders_like_apimachinery(error: FieldError, rendered: str, reason: str) -> None:
    assert str(error) == rendered
    assert error.cause() == {
        "reason": reason,
        "message": rendered.split(": ", 1)[1],
        "field": rendered.split(": ", 1)[0],
    }


@pytest.mark.parametrize(
    ("value", "printed"),
    [
        # Go sets a nil value to the string "null" and then %q-quotes it.
        (None, '"null"'),
        (True, "true"),
        (False, "false"),
        (-1, "-1"),
        (1.5, "1.5"),
        (1e6, "1e+06"),
        ("x", '"x"'),
        ('a"b\n', '"a\\"b\\n"'),
        ({"resourceClassName": "b"}, '{"resourceClassName":"b"}'),
        (go_string_slice(["bool", "int"]), '[]string{"bool", "int"}'),
    ],
)
def test_bad_values_print_as_go_prints_them(value: Any, printed: str) -> None:
    assert invalid(ROOT.child("f"), value, "d").body() == f"Invalid value: {printed}: d"


def test_go_quote_escapes_control_characters_and_keeps_printable_unicode() -> None:
    assert go_quote("é\x01\u200b\x7f") == '"é\\x01\\u200b\\x7f"'


@pytest.mark.parametrize(
    ("value", "printed"),
    [
        (0.0001, "0.0001"),
        (0.00001, "1e-05"),
        (123456.0, "123456"),
        (1234567.0, "1.234567e+06"),
        (float("inf"), "+Inf"),
    ],
)
def test_floats_print_with_go_percent_v(value: float, printed: str) -> None:
    assert go_float(value) == printed


def test_path_elements_print_like_go_field_paths() -> None:
    path = ROOT.child("status", "allocation").child("resourceHandles").index(3).child("data")
    assert str(path) == "status.allocation.resourceHandles[3].data"
    assert str(ROOT.child("metadata", "labels").key("a/b")) == "metadata.labels[a/b]"
    assert str(NIL_PATH) == "<nil>"


def test_one_error_is_the_message_itself() -> None:
    errors = [too_long_max_length(ROOT.child("status", "reservedFor"), None, 32)]
    assert (
        invalid_message("ResourceClaim", "resource.k8s.io", "foo", errors)
        == 'ResourceClaim.resource.k8s.io "foo" is invalid: status.reservedFor: Too long: may not be longer than 32'
    )


def test_several_errors_are_bracketed_and_identical_ones_dropped() -> None:
    first = required(ROOT.child("driverName"))
    second = invalid(ROOT.child("driverName"), "", "bad")
    assert (
        aggregate_message([first, second, first])
        == '[driverName: Required value, driverName: Invalid value: "": bad]'
    )
    assert aggregate_message([first, first]) == "driverName: Required value"


def test_an_empty_name_is_quoted_empty() -> None:
    assert invalid_message("ResourceClaim", "resource.k8s.io", "", [required(ROOT.child("x"))]).startswith(
        'ResourceClaim.resource.k8s.io "" is invalid: '
    )


def test_error_types_carry_their_wire_reasons() -> None:
    assert {t.value for t in ErrorType} >= {
        "FieldValueRequired",
        "FieldValueInvalid",
        "FieldValueTypeInvalid",
    }


class EagerPath:
    """The reference: `FieldPath` as it was, its text built at every step."""

    def __init__(self, text: str = "") -> None:
        self.text = text

    def child(self, name: str, *more: str) -> EagerPath:
        text = self.text
        for part in (name, *more):
            text = f"{text}.{part}" if text else part
        return EagerPath(text)

    def index(self, i: int) -> EagerPath:
        return EagerPath(f"{self.text}[{i}]")

    def key(self, k: str) -> EagerPath:
        return EagerPath(f"{self.text}[{k}]")


segment_text = st.text(st.sampled_from("ab.[]/ é"), max_size=4)
path_steps = st.lists(
    st.one_of(
        st.tuples(st.just("child"), st.lists(segment_text, min_size=1, max_size=3)),
        st.tuples(st.just("index"), st.integers(min_value=-2, max_value=40)),
        st.tuples(st.just("key"), segment_text),
    ),
    max_size=6,
)


@given(segment_text, path_steps)
@settings(max_examples=600, deadline=None)
def test_paths_print_compare_and_hash_as_eagerly_built_text(start: str, steps: list[tuple[str, Any]]) -> None:
    path, reference = FieldPath(start), EagerPath(start)
    for step, argument in steps:
        if step == "child":
            path, reference = path.child(*argument), reference.child(*argument)
        elif step == "index":
            path, reference = path.index(argument), reference.index(argument)
        else:
            path, reference = path.key(argument), reference.key(argument)
        assert str(path) == (reference.text or "<nil>")
        assert repr(path) == f"FieldPath({reference.text!r})"
        assert path == FieldPath(reference.text)
        assert hash(path) == hash(FieldPath(reference.text))
        assert path != reference.text


@pytest.mark.parametrize(
    ("value", "encoded"),
    [
        ({"a": [1, True, None]}, '{"a":[1,true,null]}'),
        ("<&>", '"\\u003c\\u0026\\u003e"'),
        ("\b\f\n", '"\\b\\f\\n"'),  # Go 1.22+ writes \b and \f short
        ("é\u2028\u2029", '"é\\u2028\\u2029"'),
        ("\ud800", '"\ufffd"'),  # Go's decoder had replaced the lone surrogate
    ],
)
def test_go_json_writes_as_encoding_json(value: Any, encoded: str) -> None:
    assert go_json(value) == encoded


json_scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**70), max_value=2**70),
    st.floats(),  # NaN and the infinities too: the encoder's allow_nan, as json.dumps has it
    st.text(),
)
json_values = st.recursive(
    json_scalars,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=4), inner, max_size=4),
    max_leaves=24,
)


@given(json_values)
@settings(max_examples=400, deadline=None)
def test_compact_json_is_json_dumps_compact_character_for_character(value: Any) -> None:
    assert compact_json(value) == json.dumps(value, separators=(",", ":"), ensure_ascii=False)
