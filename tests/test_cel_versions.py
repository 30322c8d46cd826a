"""validateCELSelector of Kubernetes 1.31 and 1.37: CEL device selectors in each release's environment.

Expected texts and costs come from the releases' sources: `dynamic-resource-allocation`
`cel/compile_test.go` (v0.31.0 for 1.31; the 1.37 line for the costs, which that test pins as
`MaxCost`, the estimate), `pkg/apis/resource/validation/validation.go` (the error types, the
length and cost limits) and cel-go's own parser test for v0.27 (`parser_test.go`).
"""

from __future__ import annotations

import pytest

from webhook import cel
from webhook.cel import compile_selector, validate_device_selector
from webhook.field import ROOT, ErrorType
from webhook.release import KUBERNETES_1_30, KUBERNETES_1_31, KUBERNETES_1_37, Release

PATH = (
    ROOT.child("spec", "devices", "requests").index(0).child("selectors").index(1).child("cel", "expression")
)
FIELD = "spec.devices.requests[0].selectors[1].cel.expression"
EXPECTING_EXPR = (
    "{'[', '{', '(', '.', '-', '!', 'true', 'false', 'null', NUM_FLOAT, NUM_INT, NUM_UINT, STRING, BYTES, "
    "IDENTIFIER}"
)


@pytest.fixture(autouse=True)
def _fresh_cache() -> None:
    cel.SELECTOR_CACHE.clear()


def errors_of(expression: str, release: Release, *, stored: bool = False) -> list[tuple[ErrorType, str, str]]:
    return [
        (e.type, e.field, str(e))
        for e in validate_device_selector(expression, PATH, release=release, stored=stored)
    ]


def go_quote(text: str) -> str:
    quoted = text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n").replace("\t", "\\t")
    return f'"{quoted}"'


def invalid(expression: str, detail: str) -> list[tuple[ErrorType, str, str]]:
    return [(ErrorType.INVALID, FIELD, f"{FIELD}: Invalid value: {go_quote(expression)}: {detail}")]


# --- valid selectors: dynamic-resource-allocation cel/compile_test.go ---------------------------

COMPILE_TEST_1_31 = [
    "true",
    "false",
    'device.attributes["no-such-domain"].noSuchAttr.isGreaterThan(quantity("0"))',
    'device.attributes["no-such-domain"]["noSuchAttr"].isGreaterThan(quantity("0"))',
    '"no-such-domain" in device.attributes',
    'device.driver == ""',
    'device.driver == "dra.example.com"',
    'device.attributes["dra.example.com"].name',  # the unknown type `any` is accepted
    'device.attributes["dra.example.com"]["name"]',
    'cel.bind(dra, device.attributes["dra.example.com"], dra.name)',
    'device.attributes["dra.example.com"].name > 0',
    'device.attributes["dra.example.com"].name == "fish"',
    'device.attributes["dra.example.com"].name.isGreaterThan(semver("0.0.1"))',
    'device.capacity["dra.example.com"].name.isGreaterThan(quantity("1Ki"))',
    '"name" in device.capacity["dra.example.com"] && '
    'device.capacity["dra.example.com"].name.isGreaterThan(quantity("1Ki"))',
    '!("name" in device.capacity["dra.example.com"]) || '
    'device.capacity["dra.example.com"].name.isGreaterThan(quantity("1Ki"))',
    'device.attributes["dra.example.com"].a && device.attributes["dra.example.com"].b && '
    'device.attributes["dra.example.com"].c',
    # the base libraries of compatibility 1.30
    'isIP("10.0.0.1") && cidr("10.0.0.0/8").containsIP("10.1.2.3")',
    'sets.contains([1, 2], [1]) && "a,b".split(",").size() == 2',
    "optional.of(1).orValue(2) == 1",
]


@pytest.mark.parametrize("expression", COMPILE_TEST_1_31)
def test_a_1_31_selector_from_kubernetes_tests_is_valid(expression: str) -> None:
    assert errors_of(expression, KUBERNETES_1_31) == []
    assert errors_of(expression, KUBERNETES_1_31, stored=True) == []


# (expression, environment is StoredExpressions, estimated cost) -- compile_test.go's expectCost.
COMPILE_TEST_1_37 = [
    ("true", True, 0),
    ('device.attributes["no-such-domain"].noSuchAttr.isGreaterThan(quantity("0"))', True, 6),
    ('device.attributes["no-such-domain"]["noSuchAttr"].isGreaterThan(quantity("0"))', True, 6),
    ('"no-such-domain" in device.attributes', True, 3),
    ('device.driver == ""', True, 2),
    ('device.driver == "dra.example.com"', True, 4),
    ('device.attributes["dra.example.com"].name', True, 4),
    ('device.attributes["dra.example.com"]["name"]', True, 4),
    ('cel.bind(dra, device.attributes["dra.example.com"], dra.name)', True, 15),
    ('device.attributes["dra.example.com"].name > 0', True, 5),
    ('device.attributes["dra.example.com"].name == "fish"', True, 5),
    # list-typed attributes (dyn values, 64 elements at most): 5 + (3 + 3) * 64
    ('device.attributes["dra.example.com"].name.exists(x, x > 0)', True, 389),
    ('device.attributes["dra.example.com"].names.size() == 2', True, 6),
    ('device.attributes["dra.example.com"].names.all(x, x != "")', True, 261),
    ('device.attributes["dra.example.com"].names.all(x, x.isGreaterThan(semver("0.0.1")))', True, 389),
    ('device.attributes["dra.example.com"].name.exists(x, x.isGreaterThan(semver("0.0.1")))', True, 453),
    ('1 in device.attributes["dra.example.com"].names', True, 68),
    ('device.attributes["dra.example.com"].name.isGreaterThan(semver("0.0.1"))', True, 6),
    (
        'device.attributes["dra.example.com"].name.isGreaterThan(semver("v0.0.1", true)) && '
        'isSemver("v1.0.0", true)',
        True,
        7,
    ),
    ('device.capacity["dra.example.com"].name.isGreaterThan(quantity("1Ki"))', True, 6),
    (
        '"name" in device.capacity["dra.example.com"] && '
        'device.capacity["dra.example.com"].name.isGreaterThan(quantity("1Ki"))',
        True,
        10,
    ),
    (
        '!("name" in device.capacity["dra.example.com"]) || '
        'device.capacity["dra.example.com"].name.isGreaterThan(quantity("1Ki"))',
        True,
        11,
    ),
    (
        'device.capacity["dra.example.com"].quantity.isGreaterThan(quantity("1Ki")) &&\n'
        'device.attributes["dra.example.com"].bool &&\n'
        'device.attributes["dra.example.com"].int > 0 &&\n'
        'device.attributes["dra.example.com"].string == "fish" &&\n'
        'device.attributes["dra.example.com"].version.isGreaterThan(semver("0.0.1")) &&\n'
        'device.capacity["dra.example.com"]["quantity"].isGreaterThan(quantity("1Ki")) &&\n'
        'device.attributes["dra.example.com"]["bool"] &&\n'
        'device.attributes["dra.example.com"]["int"] > 0 &&\n'
        'device.attributes["dra.example.com"]["string"] == "fish" &&\n'
        'device.attributes["dra.example.com"]["version"].isGreaterThan(semver("0.0.1"))',
        True,
        52,
    ),
    (
        'device.attributes["dra.example.com"].a && device.attributes["dra.example.com"].b && '
        'device.attributes["dra.example.com"].c',
        True,
        12,
    ),
    ('device.attributes.exists_one(x, x == "dra.example.com")', True, 164),
    ('device.attributes["dra.example.com"].exists_one(x, x == "services")', True, 133),
    ('device.attributes["dra.example.com"].services.split("example").size() >= 2', True, 19),
    ('device.attributes["dra.example.com"].services.matches("[^a]?sym")', True, 18),
    ('device.capacity.exists_one(x, x == "dra.example.com")', True, 164),
    ('device.capacity["dra.example.com"].exists_one(x, x == "memory")', True, 133),
    ("device.allowMultipleAllocations", False, 2),  # DRAConsumableCapacity is on by default in 1.37
    ("device.allowMultipleAllocations", True, 2),
]


@pytest.mark.parametrize(("expression", "stored", "cost"), COMPILE_TEST_1_37)
def test_a_1_37_selector_from_kubernetes_tests_is_valid_with_its_estimated_cost(
    expression: str, stored: bool, cost: int
) -> None:
    assert errors_of(expression, KUBERNETES_1_37, stored=stored) == []
    assert compile_selector(expression, stored=stored, environment="1.37").max_cost == cost


@pytest.mark.parametrize(
    "expression",
    [
        '{"a": 1}.all(k, v, v > 0)',  # two-variable comprehensions (1.32)
        "[1, 2].transformList(i, v, v * 2) == [2, 4]",
        "[3, 1].sortBy(x, x) == [1, 3] && lists.range(3).reverse().distinct().size() == 3",  # ext.Lists v3
        "[1, 2].existsOne(x, x > 1)",
        "[[1], [2]].flatten().slice(0, 1) == [1]",
        "[1, 2].first().orValue(0) == 1",  # optional types v2
        'format.dns1123Label().validate("a").hasValue() == false',  # format (1.31)
        'semver("1.0", true).isGreaterThan(semver("0.9.0"))',  # semver v1 (1.33)
    ],
)
def test_the_1_37_libraries_compile_in_both_environments(expression: str) -> None:
    assert errors_of(expression, KUBERNETES_1_37) == []
    assert errors_of(expression, KUBERNETES_1_37, stored=True) == []


# --- the output type ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("release", "stored", "expression", "output"),
    [
        (KUBERNETES_1_31, False, "1", "int"),  # compile_test.go
        (KUBERNETES_1_31, False, "device.driver", "string"),
        (KUBERNETES_1_31, False, "dyn(true)", "dyn"),
        (KUBERNETES_1_31, False, 'device.capacity["d"]', "map(string, kubernetes.Quantity)"),
        (KUBERNETES_1_31, False, 'duration("1s")', "google.protobuf.Duration"),
        (KUBERNETES_1_37, False, "1", "int"),
        (KUBERNETES_1_37, False, "dyn(true)", "dyn"),  # NewExpressions: attributes are `any`
        (KUBERNETES_1_37, True, 'device.attributes["d"]', "map(string, dyn)"),
        (KUBERNETES_1_37, True, "optional.of(true)", "optional_type(bool)"),
    ],
)
def test_a_selector_must_evaluate_to_bool_or_the_unknown_type(
    release: Release, stored: bool, expression: str, output: str
) -> None:
    assert errors_of(expression, release, stored=stored) == invalid(
        expression, f"must evaluate to bool or the unknown type, not {output}"
    )


def test_1_37_accepts_the_attribute_type_of_the_environment() -> None:
    # attributeTypeFromEnv: `any` in NewExpressions, `dyn` in StoredExpressions.
    assert errors_of("dyn(true)", KUBERNETES_1_37, stored=True) == []
    any_value = 'device.attributes["d"]["a"]'
    assert errors_of(any_value, KUBERNETES_1_37) == []
    assert errors_of(any_value, KUBERNETES_1_37, stored=True) == []


# --- compilation failures -------------------------------------------------------------------------

FAILURES = [
    (
        KUBERNETES_1_31,
        False,
        "",  # 1.31 has no Required check of its own: an empty expression is a syntax error
        f"ERROR: <input>:1:1: Syntax error: mismatched input '<EOF>' expecting {EXPECTING_EXPR}",
    ),
    (
        KUBERNETES_1_31,
        False,
        "device.allowMultipleAllocations",
        "ERROR: <input>:1:7: undefined field 'allowMultipleAllocations'\n"
        " | device.allowMultipleAllocations\n | ......^",
    ),
    (
        KUBERNETES_1_31,
        False,
        'format.dns1123Label().validate("a").hasValue()',  # format arrived at 1.31: stored only
        "ERROR: <input>:1:1: undeclared reference to 'format' (in container '')\n"
        ' | format.dns1123Label().validate("a").hasValue()\n | ^\n'
        "ERROR: <input>:1:20: undeclared reference to 'dns1123Label' (in container '')\n"
        ' | format.dns1123Label().validate("a").hasValue()\n | ...................^\n'
        "ERROR: <input>:1:31: undeclared reference to 'validate' (in container '')\n"
        ' | format.dns1123Label().validate("a").hasValue()\n | ..............................^',
    ),
    (
        KUBERNETES_1_31,
        False,
        "cel.bind(1, 2, true)",
        "ERROR: <input>:1:10: cel.bind() variable names must be simple identifiers\n"
        " | cel.bind(1, 2, true)\n | .........^",
    ),
    (
        KUBERNETES_1_31,
        False,
        "{'a': 1}.all(k, v, v > 0)",  # no two-variable comprehensions before 1.32
        "ERROR: <input>:1:13: undeclared reference to 'all' (in container '')\n"
        " | {'a': 1}.all(k, v, v > 0)\n | ............^\n"
        "ERROR: <input>:1:14: undeclared reference to 'k' (in container '')\n"
        " | {'a': 1}.all(k, v, v > 0)\n | .............^\n"
        "ERROR: <input>:1:17: undeclared reference to 'v' (in container '')\n"
        " | {'a': 1}.all(k, v, v > 0)\n | ................^\n"
        "ERROR: <input>:1:20: undeclared reference to 'v' (in container '')\n"
        " | {'a': 1}.all(k, v, v > 0)\n | ...................^",
    ),
    (
        KUBERNETES_1_37,
        False,
        "device.foo",
        "ERROR: <input>:1:7: undefined field 'foo'\n | device.foo\n | ......^",
    ),
    (
        KUBERNETES_1_37,
        False,
        'device.attributes["d"].name.includes("fish")',  # DRAListTypeAttributes is off: stored only
        "ERROR: <input>:1:37: undeclared reference to 'includes' (in container '')\n"
        ' | device.attributes["d"].name.includes("fish")\n | ....................................^',
    ),
    (
        KUBERNETES_1_37,
        False,
        "device.`driver` == 'a'",  # backquoted names parse in cel-go v0.27 but are not enabled
        "ERROR: <input>:1:8: unsupported syntax: '`'\n | device.`driver` == 'a'\n | .......^",
    ),
    (
        KUBERNETES_1_37,
        False,
        "[1, 2, 3].map(var, var * var)",  # cel-go v0.27 parser_test.go
        "ERROR: <input>:1:15: reserved identifier: var\n"
        " | [1, 2, 3].map(var, var * var)\n | ..............^\n"
        "ERROR: <input>:1:15: argument is not an identifier\n"
        " | [1, 2, 3].map(var, var * var)\n | ..............^\n"
        "ERROR: <input>:1:20: reserved identifier: var\n"
        " | [1, 2, 3].map(var, var * var)\n | ...................^\n"
        "ERROR: <input>:1:26: reserved identifier: var\n"
        " | [1, 2, 3].map(var, var * var)\n | .........................^",
    ),
    (
        KUBERNETES_1_37,
        False,
        "[1].all(__result__, true)",
        "ERROR: <input>:1:9: iteration variable overwrites accumulator variable\n"
        " | [1].all(__result__, true)\n | ........^",
    ),
    (
        KUBERNETES_1_37,
        False,
        "{'a': 1}.all(k, k, true)",
        "ERROR: <input>:1:17: duplicate variable name: k\n | {'a': 1}.all(k, k, true)\n | ................^",
    ),
    (
        KUBERNETES_1_37,
        False,
        'device.driver == "a\n|| true',  # antlr4-go lexer.go: the unmatched text as it is, not escaped
        "ERROR: <input>:1:18: Syntax error: token recognition error at: '\"a\n'\n"
        ' | device.driver == "a\n | .................^\n'
        f"ERROR: <input>:2:1: Syntax error: extraneous input '||' expecting {EXPECTING_EXPR}\n"
        " | || true\n | ^",
    ),
    (
        KUBERNETES_1_31,
        False,
        'device.driver == "a\tb',  # the tab stays a tab in the message (the snippet shows a space)
        "ERROR: <input>:1:18: Syntax error: token recognition error at: '\"a\tb'\n"
        ' | device.driver == "a b\n | .................^\n'
        f"ERROR: <input>:1:22: Syntax error: mismatched input '<EOF>' expecting {EXPECTING_EXPR}\n"
        ' | device.driver == "a b\n | .....................^',
    ),
    (
        KUBERNETES_1_37,
        False,
        "has(device)",  # cel-go v0.27 parser_test.go `has(m)`: at the argument, not at the call
        "ERROR: <input>:1:5: invalid argument to has() macro\n | has(device)\n | ....^",
    ),
    (
        KUBERNETES_1_31,
        False,
        'has(device.attributes["a"])',  # cel-go v0.20.1 MakeHas: eh.NewError(args[0].ID(), ...)
        "ERROR: <input>:1:22: invalid argument to has() macro\n"
        ' | has(device.attributes["a"])\n | .....................^',
    ),
    (
        KUBERNETES_1_37,
        False,
        "device.driver == '\\udead'",  # cel-go v0.27 unescape.go: !utf8.ValidRune; parser_test.go
        "ERROR: <input>:1:18: invalid unicode code point\n | device.driver == '\\udead'\n | .................^",
    ),
    (
        KUBERNETES_1_37,
        False,
        'device.driver == "\\U00110000"',
        "ERROR: <input>:1:18: invalid unicode code point\n"
        ' | device.driver == "\\U00110000"\n | .................^',
    ),
    (
        KUBERNETES_1_37,
        True,
        'device.driver + 1 == "a"',
        "ERROR: <input>:1:15: found no matching overload for '_+_' applied to '(string, int)'\n"
        ' | device.driver + 1 == "a"\n | ..............^',
    ),
]


@pytest.mark.parametrize(("release", "stored", "expression", "issues"), FAILURES)
def test_a_selector_that_does_not_compile_is_invalid_with_cel_go_issues(
    release: Release, stored: bool, expression: str, issues: str
) -> None:
    assert errors_of(expression, release, stored=stored) == invalid(
        expression, f"compilation failed: {issues}"
    )


def test_1_31_unescapes_a_surrogate_half_as_the_replacement_character() -> None:
    # cel-go v0.20.1 parser/unescape.go checks only `v > utf8.MaxRune`; the rune is encoded as U+FFFD.
    assert errors_of("device.driver == '\\udead'", KUBERNETES_1_31) == []
    assert errors_of('device.driver == "\\U00110000"', KUBERNETES_1_31) == invalid(
        'device.driver == "\\U00110000"',
        "compilation failed: ERROR: <input>:1:18: unable to unescape string\n"
        ' | device.driver == "\\U00110000"\n | .................^',
    )


# cel-go ext/formatting.go `stringFormatValidator` (v0.20.1 for 1.31, v0.27.0 for 1.37): a literal
# format string with a list literal of arguments is checked at compile time.
STRING_FORMAT_ERRORS = [
    (
        '"%d".format(["a"]) == device.driver',
        13,
        "error during formatting: decimal clause can only be used on integers, was given string",
    ),
    ('"%s %s".format(["a"]) == device.driver', 14, "index 1 out of range"),
    (
        '"%s".format(["a", "b"]) == device.driver',
        11,
        "too many arguments supplied to string.format (expected 1, got 2)",
    ),
    (
        '"%q".format([1]) == device.driver',
        11,
        'could not parse formatting clause: unrecognized formatting clause "q"',
    ),
    (
        '"%.f".format([1.0]) == device.driver',
        12,
        "could not parse formatting clause: error while parsing precision: error while converting "
        'precision to integer: strconv.Atoi: parsing "": invalid syntax',
    ),
    (
        '"%.3".format([1.0]) == device.driver',
        12,
        "could not parse formatting clause: error while parsing precision: "
        "could not find end of precision specifier",
    ),
    ('"%".format([1]) == device.driver', 10, "unexpected end of string"),
    (
        '"%x".format([1.0]) == device.driver',
        13,
        "error during formatting: only integers, byte buffers, and strings can be formatted as hex, "
        "was given double",
    ),
    (
        '"%s".format([device.capacity["a"].b]) == device.driver',
        33,
        "error during formatting: string clause can only be used on strings, bools, bytes, ints, "
        "doubles, maps, lists, types, durations, and timestamps, was given kubernetes.Quantity",
    ),
    (
        '"%s".format([device.attributes["a"].b]) == device.driver',  # `any` is no `dyn`
        35,
        "error during formatting: string clause can only be used on strings, bools, bytes, ints, "
        "doubles, maps, lists, types, durations, and timestamps, was given google.protobuf.Any",
    ),
]


@pytest.mark.parametrize("release", [KUBERNETES_1_31, KUBERNETES_1_37])
@pytest.mark.parametrize(("expression", "column", "message"), STRING_FORMAT_ERRORS)
def test_a_literal_format_string_is_checked_against_its_arguments(
    release: Release, expression: str, column: int, message: str
) -> None:
    issues = f"ERROR: <input>:1:{column + 1}: {message}\n | {expression}\n | {'.' * column}^"
    assert errors_of(expression, release) == invalid(expression, f"compilation failed: {issues}")


@pytest.mark.parametrize(
    "expression",
    [
        '"%.2f %d %s %%".format([1.0, 2, "x"]) == device.driver',
        '"%d".format([dyn("a")]) == device.driver',  # dyn passes every clause
        'device.driver.format([1]) == "a"',  # not a literal format string
        '"%d".format(["a"] + ["b"]) == device.driver',  # not a list literal
    ],
)
def test_a_format_call_the_validator_accepts_or_does_not_check(expression: str) -> None:
    assert errors_of(expression, KUBERNETES_1_37) == []


def test_1_30_has_no_string_format_validator() -> None:
    # cel-go v0.17.8 (Kubernetes 1.30) has no `stringFormatValidator`.
    assert compile_selector('"%d".format(["a"]) == "1"', environment="1.30").detail is None


@pytest.mark.parametrize("environment", ["1.31", "1.37"])
def test_a_no_viable_alternative_error_lexes_no_further_than_go_does(environment: str) -> None:
    # antlr4-go common_token_stream.go GetTextFromInterval: c.Sync(interval.Stop), not a Fill of
    # the whole input as Python's BufferedTokenStream.getText does: the `$` after the point where
    # the parse gives up is never lexed, hence never reported.
    aborted = compile_selector("1.'b' + " * 40 + "$", environment=environment).detail
    assert aborted is not None and "error recovery attempt limit exceeded: 30" in aborted
    assert "'$'" not in aborted
    # The error comes before the lexer errors that follow it, and is one of the 100 reported.
    flooded = compile_selector("a.'b' " + "$ " * 120, environment=environment).detail
    assert flooded is not None
    assert flooded.startswith(
        "compilation failed: ERROR: <input>:1:3: Syntax error: no viable alternative at input '.'b''\n"
    )
    assert flooded.endswith("\n1 more errors were truncated")


def test_the_1_31_stored_environment_adds_the_libraries_introduced_at_1_31() -> None:
    expression = 'format.named("dns1123Label").hasValue()'
    assert errors_of(expression, KUBERNETES_1_31, stored=True) == []
    assert errors_of(expression, KUBERNETES_1_31)[0][2].startswith(f"{FIELD}: Invalid value: ")


def test_v1alpha2_has_no_device_selectors() -> None:
    with pytest.raises(ValueError, match=r"1\.30 has no CEL device selectors"):
        validate_device_selector("true", PATH, release=KUBERNETES_1_30)


# --- 1.37's limits -----------------------------------------------------------------------------------

TOO_LONG = [(ErrorType.TOO_LONG, FIELD, f"{FIELD}: Too long: may not be more than 10240 bytes")]


def padded(length: int) -> str:
    """A valid selector of `length` bytes."""
    return "true" + " " * (length - 4)


def test_the_1_37_length_limit_is_10_kib_and_a_longer_expression_is_not_compiled() -> None:
    assert errors_of(padded(10240), KUBERNETES_1_37) == []
    assert errors_of(padded(10241), KUBERNETES_1_37) == TOO_LONG
    assert errors_of("x" * 10241, KUBERNETES_1_37) == TOO_LONG  # not compiled: no undeclared 'x'
    assert errors_of(padded(10241), KUBERNETES_1_31) == []  # 1.31 has no length limit


def test_the_length_is_counted_in_bytes_as_go_does() -> None:
    # "é" is two bytes: 5,118 of them plus the 4 characters around make 10,240 bytes.
    assert errors_of('"' + "é" * 5118 + '" != ""', KUBERNETES_1_37) == TOO_LONG
    assert errors_of('"' + "é" * 5116 + '" != ""', KUBERNETES_1_37) == []


def nested_ranges(n: int) -> str:
    """Estimated cost 4n^2 + 16n + 12 in cel-go v0.27 with ext.Lists v3:

    `lists.range(n)` costs n + 11 (list_slice-style estimate: n * 1 + call 1 + list creation 10) and
    has size n; an `all` over it costs range + 1 (result) + n * (2 (condition) + step), the step
    `accu && p` costing 1 + cost(p); the inner `all` has p = `true` (0): 4n + 12; the outer one
    n + 12 + n * (4n + 15).
    """
    return f"lists.range({n}).all(x, lists.range({n}).all(y, true))"


@pytest.mark.parametrize(("n", "cost"), [(498, 999_996), (499, 1_004_000)])
def test_the_estimate_of_nested_ranges_is_what_cel_go_computes(n: int, cost: int) -> None:
    assert compile_selector(nested_ranges(n), environment="1.37").max_cost == cost


def test_the_1_37_cost_limit_is_one_million_and_its_error_is_forbidden() -> None:
    assert errors_of(nested_ranges(498), KUBERNETES_1_37) == []
    assert errors_of(nested_ranges(499), KUBERNETES_1_37) == [
        (ErrorType.FORBIDDEN, FIELD, f"{FIELD}: Forbidden: too complex, exceeds cost limit")
    ]
    # 1.31 has no cost limit (nor ext.Lists): seven nested `all` over a 10-element list pass.
    assert errors_of(expensive_expression(), KUBERNETES_1_31) == []


def expensive_expression() -> str:
    expression = "int('1'.find('[0-9]*')) < 100"
    for name in reversed(["x", "y", "z", "z2", "z3", "z4", "z5"]):
        expression = f"[1, 2, 3, 4, 5, 6, 7, 8, 9, 10].all({name}, {expression})"
    return expression


def test_the_dra_expensive_expression_exceeds_the_cost_limit() -> None:
    # compile_test.go's "expensive" case (from the VAP integration test): seven nested `all`
    # over ten-element lists.
    assert errors_of(expensive_expression(), KUBERNETES_1_37) == [
        (ErrorType.FORBIDDEN, FIELD, f"{FIELD}: Forbidden: too complex, exceeds cost limit")
    ]


# --- the budgets and the cache apply to the new environments --------------------------------------


def test_each_release_and_environment_is_cached_apart() -> None:
    first = compile_selector("device.driver == 'a'", environment="1.37")
    assert compile_selector("device.driver == 'a'", environment="1.37") is first
    assert compile_selector("device.driver == 'a'", environment="1.37", stored=True) is not first
    assert compile_selector("device.driver == 'a'", environment="1.31") is not first
    assert len(cel.SELECTOR_CACHE) == 3


def test_a_reviews_spent_budget_stops_device_selectors_too() -> None:
    with cel.review_budget(0.0):
        (error,) = validate_device_selector("device.driver == 'x'", PATH, release=KUBERNETES_1_37)
    assert (error.type, error.detail) == (ErrorType.INVALID, cel.BUDGET_SPENT_DETAIL)
    assert validate_device_selector("device.driver == 'x'", PATH, release=KUBERNETES_1_37) == []
