"""The program stage of DRA's `CompileCELExpression` (1.31 and 1.37): `env.Program` with constant
folding refuses constant conversions and regex patterns that fail, as an Internal error.

Sources: `dynamic-resource-allocation` `cel/compile.go` (v0.31.0 and the 1.37 line: "program
instantiation failed: " + err, `ErrorTypeInternal`); apiserver `pkg/cel/environment/base.go`
(`cel.EvalOptions(cel.OptOptimize, ...)`) and `pkg/cel/library/regex.go` (find/findAll patterns);
cel-go v0.20.1 and v0.27.0 `interpreter/decorators.go`, `interpreter/planner.go`,
`interpreter/attributes.go`, `common/types/*.go` (the error texts), `common/decls/decls.go`.
"""

from __future__ import annotations

import math
from typing import Any

import pytest

from webhook import cel, review_manifest
from webhook.cel import validate_device_selector
from webhook.celgo.program import go_parse_float
from webhook.field import ROOT, ErrorType, go_float
from webhook.release import KUBERNETES_1_31, KUBERNETES_1_37, Release

PATH = ROOT.child("spec", "selectors").index(0).child("cel", "expression")
RELEASES = [KUBERNETES_1_31, KUBERNETES_1_37]


@pytest.fixture(autouse=True)
def _fresh_cache() -> None:
    cel.SELECTOR_CACHE.clear()


def errors_of(expression: str, release: Release) -> list[tuple[ErrorType, str]]:
    return [(e.type, e.detail) for e in validate_device_selector(expression, PATH, release=release)]


def program_failed(err: str) -> list[tuple[ErrorType, str]]:
    return [(ErrorType.INTERNAL, f"program instantiation failed: {err}")]


CONVERSION_FAILURES = [
    ('int("abc") == 1', "type conversion error from 'string' to 'int'"),
    # An underscore only between digits, or after a base prefix (strconv's underscoreOK).
    ('double("1__2") == 1.0', "type conversion error from 'string' to 'double'"),
    ('double("123_.5") == 1.0', "type conversion error from 'string' to 'double'"),
    ('double("_1") == 1.0', "type conversion error from 'string' to 'double'"),
    ('int("1.5") == 1', "type conversion error from 'string' to 'int'"),
    ('int("9223372036854775808") == 1', "type conversion error from 'string' to 'int'"),
    ("uint(-1) == 1u", "unsigned integer overflow"),
    ('uint("-1") == 1u', "type conversion error from 'string' to 'uint'"),
    ("uint(-1.0) == 1u", "unsigned integer overflow"),
    ("uint(1e20) == 1u", "unsigned integer overflow"),
    ("int(18446744073709551615u) == 1", "integer overflow"),
    ('bool("maybe")', "type conversion error from 'string' to 'bool'"),
    ('double("x") == 1.0', "type conversion error from 'string' to 'double'"),
    ('double("1e400") == 1.0', "type conversion error from 'string' to 'double'"),
    ('double(" 1") == 1.0', "type conversion error from 'string' to 'double'"),
    ("int(1e100) == 1", "integer overflow"),
    ("int(9223372036854775807.0) == 1", "integer overflow"),
    ('string(b"\\xff") == ""', "invalid UTF-8 in bytes, cannot convert to string"),
    (
        'duration(string(1)) > duration("1s")',
        "type conversion error from 'string' to 'google.protobuf.Duration'",
    ),
    (
        'timestamp(dyn("x")) > timestamp(0)',
        "type conversion error from 'string' to 'google.protobuf.Timestamp'",
    ),
    ('timestamp(dyn("0000-12-31T23:59:59Z")) > timestamp(0)', "timestamp overflow"),
    ("timestamp(dyn(253402300800)) > timestamp(0)", "timestamp overflow"),
    ("duration(dyn(5)) > duration('1s')", "type conversion error from 'int' to 'google.protobuf.Duration'"),
    # Folding goes up from the leaves: a conversion of a folded conversion is folded too.
    ('int(dyn("x")) == 1', "type conversion error from 'string' to 'int'"),
    ("int(string(1e6)) == 1", "type conversion error from 'string' to 'int'"),
    ('int(string(timestamp("2024-01-01T00:00:00Z"))) == 1', "type conversion error from 'string' to 'int'"),
    # Dynamic dispatch finds no overload for the constant's type.
    ("int(dyn([1])) == 1", "no such overload: int(list)"),
    ('string(dyn({"a": 1})) == ""', "no such overload: string(map)"),
    ('string(dyn(null)) == ""', "no such overload: string(null_type)"),
    ("int(dyn(int)) == 1", "no such overload: int(type)"),
    # A constant index must be a string, int, uint, bool or double.
    ("[1, 2][dyn(null)] == 1", "invalid qualifier type: types.Null"),
    ('dyn({"a": 1})[b"a"] == 1', "invalid qualifier type: types.Bytes"),
    ("dyn(device.attributes)[dyn([1])] == 1", "invalid qualifier type: *types.baseList"),
    # Anywhere in the tree: inside a comprehension, a binding, a conditional.
    ('device.attributes["x"].exists(k, int("z") == 1)', "type conversion error from 'string' to 'int'"),
    ('cel.bind(x, int("q"), x == 1)', "type conversion error from 'string' to 'int'"),
    ('device.driver == "a" ? true : bool("no")', "type conversion error from 'string' to 'bool'"),
]


@pytest.mark.parametrize("release", RELEASES)
@pytest.mark.parametrize(("expression", "err"), CONVERSION_FAILURES)
def test_a_constant_conversion_that_fails_fails_the_program(
    release: Release, expression: str, err: str
) -> None:
    assert errors_of(expression, release) == program_failed(err)


REGEX_FAILURES = [
    ('device.driver.find("[") == ""', "error parsing regexp: missing closing ]: `[`"),
    (
        'device.driver.findAll("(?x)a") == []',
        "error parsing regexp: invalid or unsupported Perl syntax: `(?x`",
    ),
    (
        'device.driver.findAll("a**", 2) == []',
        "error parsing regexp: invalid nested repetition operator: `**`",
    ),
    # The check-time validator looks at argument 0 of a global call; the program at argument 1.
    ('matches("abc", "\\\\Z")', "error parsing regexp: invalid escape sequence: `\\Z`"),
    # A folded pattern is a constant too.
    ('device.driver.matches(dyn("("))', "error parsing regexp: missing closing ): `(`"),
    ('device.driver.find(string(b"[")) == ""', "error parsing regexp: missing closing ]: `[`"),
]


@pytest.mark.parametrize("release", RELEASES)
@pytest.mark.parametrize(("expression", "err"), REGEX_FAILURES)
def test_a_constant_pattern_go_refuses_fails_the_program(release: Release, expression: str, err: str) -> None:
    assert errors_of(expression, release) == program_failed(err)


def test_the_regexp_of_the_releases_go_judges_the_pattern() -> None:
    # \p{Letter}: Go 1.25 on (1.37); not Go 1.22 (1.31).
    expression = 'device.driver.find("\\\\p{Letter}+") == ""'
    assert errors_of(expression, KUBERNETES_1_37) == []
    assert errors_of(expression, KUBERNETES_1_31) == program_failed(
        "error parsing regexp: invalid character class range: `\\p{Letter}`"
    )


@pytest.mark.parametrize("release", RELEASES)
@pytest.mark.parametrize(
    "expression",
    [
        'int("42") == 42',
        "int(string(1)) == 1",
        'dyn("x") == "x"',
        "uint(string(5.0)) == 5u",
        'string(duration("1h")) == "3600s"',
        'double("0x1p-2") == 0.25',
        # strconv.ParseFloat takes Go's digit separators (atof_test.go: "1_23.50_0_0e+1_2").
        'double("1_23.50_0_0e+1_2") == 123500000000000.0 && double("0x_1p0") == 1.0',
        'bool("T") && !bool("0")',
        'int(timestamp("1970-01-01T00:00:01Z")) == 1',
        '[1, 2][dyn(1)] == 2 && {"a": 1}[dyn("a")] == 1',
        'device.driver.find("[a-z]+") != ""',
        # Not constant: the planner leaves these to run time.
        "int(device.driver) == 1",
        'device.driver.find(device.driver) == ""',
        'int(["x"][0]) == 1',
    ],
)
def test_what_folds_or_is_not_constant_builds(release: Release, expression: str) -> None:
    assert errors_of(expression, release) == []


@pytest.mark.parametrize("release", RELEASES)
def test_the_first_failure_in_planning_order_is_reported(release: Release) -> None:
    # Depth first, left to right: the operands of && in source order.
    assert errors_of('int("a") == 1 && device.driver.find("[") == ""', release) == program_failed(
        "type conversion error from 'string' to 'int'"
    )
    assert errors_of('device.driver.find("[") == "" && int("a") == 1', release) == program_failed(
        "error parsing regexp: missing closing ]: `[`"
    )
    # A comprehension plans its accumulator's start before its range.
    assert errors_of('[int("r")].all(x, x == 1)', release) == program_failed(
        "type conversion error from 'string' to 'int'"
    )


@pytest.mark.parametrize("release", RELEASES)
def test_a_literal_matches_pattern_is_refused_at_check_time_first(release: Release) -> None:
    expression = 'device.driver.matches("[") && int("a") == 1'
    assert errors_of(expression, release) == [
        (
            ErrorType.INVALID,
            "compilation failed: ERROR: <input>:1:23: invalid matches argument\n"
            f" | {expression}\n | ......................^",
        )
    ]


@pytest.mark.parametrize("release", RELEASES)
def test_a_duration_of_an_int_literal_is_an_invalid_argument(release: Release) -> None:
    # cel-go's validator evaluates the call, and Int.ConvertToType has no case for durations.
    expression = 'duration(5) > duration("1s")'
    assert errors_of(expression, release) == [
        (
            ErrorType.INVALID,
            "compilation failed: ERROR: <input>:1:10: invalid duration argument\n"
            f" | {expression}\n | .........^",
        )
    ]


def test_1_37_builds_the_program_before_estimating_the_cost() -> None:
    expression = "int('1'.find('[0-9]*')) < 100"
    for name in reversed(["x", "y", "z", "z2", "z3", "z4", "z5"]):
        expression = f"[1, 2, 3, 4, 5, 6, 7, 8, 9, 10].all({name}, {expression})"
    assert errors_of(expression, KUBERNETES_1_37) == [
        (ErrorType.FORBIDDEN, "too complex, exceeds cost limit")
    ]
    assert errors_of(f'{expression} && int("x") == 1', KUBERNETES_1_37) == program_failed(
        "type conversion error from 'string' to 'int'"
    )


@pytest.mark.parametrize(
    ("number", "text"),
    [
        (1.0, "1"),
        (1.5, "1.5"),
        (-2.25, "-2.25"),
        (100000.0, "100000"),
        (1e6, "1e+06"),
        (123456789.0, "1.23456789e+08"),
        (0.0001, "0.0001"),
        (0.00001, "1e-05"),
        (1e100, "1e+100"),
        (math.inf, "+Inf"),
        (-0.0, "-0"),
        (math.nan, "NaN"),
    ],
)
def test_doubles_print_as_go_percent_g(number: float, text: str) -> None:
    assert go_float(number) == text


@pytest.mark.parametrize(
    ("text", "number"),
    [
        ("1", 1.0),
        ("-1.5e3", -1500.0),
        (".5", 0.5),
        ("5.", 5.0),
        ("0x1p-2", 0.25),
        ("Inf", math.inf),
        ("-infinity", -math.inf),
        ("1e-400", 0.0),
        ("1e400", None),
        ("0x10", None),
        ("+nan", None),
        ("infin", None),
        (" 1", None),
        ("1_000", 1000.0),  # Go's digit separators
        ("1__000", None),
        ("0x_1p-2", 0.25),
        ("", None),
    ],
)
def test_strings_parse_as_go_parse_float(text: str, number: float | None) -> None:
    assert go_parse_float(text) == number


# --- end to end: a v1 DeviceClass and ResourceClaim as the API server sends them ------------------


def device_class(expression: str) -> dict[str, Any]:
    return {
        "apiVersion": "resource.k8s.io/v1",
        "kind": "DeviceClass",
        "metadata": {"name": "gpu.example.com"},
        "spec": {"selectors": [{"cel": {"expression": expression}}]},
    }


def resource_claim(expression: str) -> dict[str, Any]:
    request = {"deviceClassName": "gpu.example.com", "selectors": [{"cel": {"expression": expression}}]}
    return {
        "apiVersion": "resource.k8s.io/v1",
        "kind": "ResourceClaim",
        "metadata": {"name": "gpu-claim", "namespace": "default"},
        "spec": {"devices": {"requests": [{"name": "gpu", "exactly": request}]}},
    }


@pytest.mark.parametrize(
    ("manifest", "kind", "name", "field"),
    [
        (device_class, "DeviceClass", "gpu.example.com", "spec.selectors[0].cel.expression"),
        (
            resource_claim,
            "ResourceClaim",
            "gpu-claim",
            "spec.devices.requests[0].exactly.selectors[0].cel.expression",
        ),
    ],
)
def test_the_api_server_answers_an_internal_error_for_a_program_that_fails(
    manifest: Any, kind: str, name: str, field: str
) -> None:
    response = review_manifest(manifest('device.driver.find("[") == "" || int("x") == 1'))
    assert response["allowed"] is False
    detail = "program instantiation failed: error parsing regexp: missing closing ]: `[`"
    assert response["status"]["message"] == (
        f'{kind}.resource.k8s.io "{name}" is invalid: {field}: Internal error: {detail}'
    )
    assert response["status"]["details"]["causes"] == [
        {"reason": "InternalError", "message": f"Internal error: {detail}", "field": field}
    ]
    assert review_manifest(manifest('device.driver.find("[a-z]") == ""'))["allowed"] is True
