"""Go's `regexp.Compile` verdicts (`webhook.celgo.goregexp`), as `regexp/syntax/parse.go` gives them.

Expected texts are Go's `*syntax.Error` strings, worked out from parse.go (the error codes and the
slice of the pattern each one quotes) and from its `parse_test.go` tables (valid and invalid
patterns). Kubernetes 1.30 and 1.31 build with Go 1.22, 1.37 with Go 1.26 (`go.mod` of
`dynamic-resource-allocation` v0.31.0 and v0.37); only the ``\\p{...}`` names differ between them.
"""

from __future__ import annotations

import pytest

from webhook import cel
from webhook.cel import validate_device_selector
from webhook.celgo import validators
from webhook.celgo.goregexp import go_regexp_error
from webhook.field import ROOT, ErrorType
from webhook.release import KUBERNETES_1_31, KUBERNETES_1_37, Release


def go_error(code: str, expr: str) -> str:
    return f"error parsing regexp: {code}: `{expr}`"


ACCEPTED_BY_GO = [
    "^a[0-9]+$",
    r"(?<n>x)",  # Go 1.22 on
    r"(?P<n>a)(?P<n>b)",  # Go does not reject a repeated name
    r"(?U)a+",
    r"(?i)(?-i)a",
    r"(?sm:a.)",
    r"\x{41}",
    r"\x{10FFFF}",
    r"\x41",
    r"\10",  # octal
    r"\0",
    r"\_",
    r"\Qa.b\E\z",
    r"\Qab\E+",
    r"\pL+\p{Greek}\P{Canadian_Aboriginal}\p{^Braille}\p{Any}",
    r"[\d-z]",
    r"[[:^alpha:][:word:]]",
    r"[]a]",
    r"a{,2}",  # not a repeat: literals
    r"x{9876543210",
    "(?:[a-z]{4}){0,250}",  # nested repeat product 1000, at the limit
    "((((((((((x{2}){2}){2}){2}){2}){2}){2}){2}){2}))",
    "(" * 999 + ")" * 999,
    "(" * 330 + "a" + ")" * 330 + "{2}",  # a repeat over deep nesting: checked without recursion
    # Go's parser merges `.|a` into one class and a run of empty alternatives into one empty match
    # (parse_test.go: "a|." -> dot{}, "|" -> emp{}): one level, at the limit of 1000.
    "(" * 999 + ".|a" + ")" * 999,
    "(" * 999 + "(?:|)" + ")" * 999,
    "(?:" * 999 + ")*" * 999,
    "(" + "|" * 12345 + ")",
]


@pytest.mark.parametrize("pattern", ACCEPTED_BY_GO)
def test_go_compiles_these(pattern: str) -> None:
    assert go_regexp_error(pattern) is None
    assert validators.go_regexp_is_valid(pattern)


REJECTED_BY_GO = [
    (r"\Z", go_error("invalid escape sequence", r"\Z")),
    (r"[\b]", go_error("invalid escape sequence", r"\b")),
    (r"\u0041", go_error("invalid escape sequence", r"\u")),
    (r"\U0001F600", go_error("invalid escape sequence", r"\U")),
    (r"\N{DIGIT ONE}", go_error("invalid escape sequence", r"\N")),
    (r"\1", go_error("invalid escape sequence", r"\1")),
    (r"(a)\1", go_error("invalid escape sequence", r"\1")),
    (r"\8", go_error("invalid escape sequence", r"\8")),
    (r"\C", go_error("invalid escape sequence", r"\C")),
    (r"\x{110000}", go_error("invalid escape sequence", r"\x{110000")),
    (r"\x{}", go_error("invalid escape sequence", r"\x{}")),
    (r"\x4", go_error("invalid escape sequence", r"\x4")),
    ("\\é", go_error("invalid escape sequence", "\\é")),
    (r"[a-\d]", go_error("invalid escape sequence", r"\d")),
    ("a\\", go_error("trailing backslash at end of expression", "")),
    (r"(?x)a b", go_error("invalid or unsupported Perl syntax", "(?x")),
    (r"(?#c)a", go_error("invalid or unsupported Perl syntax", "(?#")),
    (r"(?a)a", go_error("invalid or unsupported Perl syntax", "(?a")),
    (r"(?=x)", go_error("invalid or unsupported Perl syntax", "(?=")),
    (r"(?P=n)", go_error("invalid or unsupported Perl syntax", "(?P")),
    (r"(?i-)a", go_error("invalid or unsupported Perl syntax", "(?i-)")),
    ("(?i", go_error("invalid or unsupported Perl syntax", "(?i")),
    (r"(?<=a)b", go_error("invalid named capture", "(?<=a)b")),
    (r"(?<>a)", go_error("invalid named capture", "(?<>")),
    (r"(?P<x y>a)", go_error("invalid named capture", "(?P<x y>")),
    (r"\p{Foo}", go_error("invalid character class range", r"\p{Foo}")),
    (r"\pX", go_error("invalid character class range", r"\pX")),
    (r"\p{Greek", go_error("invalid character class range", r"\p{Greek")),
    (r"[[:foo:]]", go_error("invalid character class range", "[:foo:]")),
    ("[z-a]", go_error("invalid character class range", "z-a")),
    ("(a{1000}){1000}", go_error("invalid repeat count", "{1000}")),
    ("(?:[a-z]{4}){0,251}", go_error("invalid repeat count", "{0,251}")),
    ("x{1001}", go_error("invalid repeat count", "{1001}")),
    ("x{2,1}?", go_error("invalid repeat count", "{2,1}")),
    ("a**", go_error("invalid nested repetition operator", "**")),
    ("a*?+", go_error("invalid nested repetition operator", "*?+")),
    ("*", go_error("missing argument to repetition operator", "*")),
    ("(+)", go_error("missing argument to repetition operator", "+")),
    (r"\Q\E*", go_error("missing argument to repetition operator", "*")),
    ("[", go_error("missing closing ]", "[")),
    ("a[]", go_error("missing closing ]", "[]")),
    ("(a|b", go_error("missing closing )", "(a|b")),
    ("a|b)", go_error("unexpected )", "a|b)")),
    ("(" * 1000 + ")" * 1000, go_error("expression nests too deeply", "(" * 1000 + ")" * 1000)),
    # A two-rune literal is no class: `ab|c` stays an alternation, one level more.
    ("(" * 999 + "ab|c" + ")" * 999, go_error("expression nests too deeply", "(" * 999 + "ab|c" + ")" * 999)),
]


@pytest.mark.parametrize(("pattern", "error"), REJECTED_BY_GO)
def test_go_refuses_these_with_its_error_text(pattern: str, error: str) -> None:
    assert go_regexp_error(pattern) == error
    assert not validators.go_regexp_is_valid(pattern)


@pytest.mark.parametrize(
    ("pattern", "go_1_22", "go_1_26"),
    [
        (r"\p{Greek}", True, True),
        (r"\p{greek}", False, True),
        (r"\p{Letter}", False, True),
        (r"\p{upper case-let ter}", False, True),
        (r"\p{Assigned}", False, True),
        (r"\p{ascii}", False, True),
        (r"\p{Cn}", False, True),
        (r"\p{LC}", False, True),
        (r"\p{Foo}", False, False),
    ],
)
def test_go_1_25_widened_the_unicode_class_names(pattern: str, go_1_22: bool, go_1_26: bool) -> None:
    assert validators.go_regexp_is_valid(pattern) is go_1_22
    assert validators.go_regexp_is_valid(pattern, unicode_aliases=True) is go_1_26


PATH = ROOT.child("spec", "selectors").index(0).child("cel", "expression")


def matches_errors(expression: str, release: Release) -> list[tuple[ErrorType, str]]:
    cel.SELECTOR_CACHE.clear()
    return [(e.type, e.detail) for e in validate_device_selector(expression, PATH, release=release)]


def invalid_matches_argument(expression: str, column: int) -> list[tuple[ErrorType, str]]:
    caret = "." * column + "^"
    return [
        (
            ErrorType.INVALID,
            f"compilation failed: ERROR: <input>:1:{column + 1}: invalid matches argument\n"
            f" | {expression}\n | {caret}",
        )
    ]


@pytest.mark.parametrize("release", [KUBERNETES_1_31, KUBERNETES_1_37])
@pytest.mark.parametrize(
    ("expression", "column"),
    [
        ('device.driver.matches("\\\\Z")', 22),
        ('device.driver.matches("(?x)a b")', 22),
        ('device.driver.matches("[[:foo:]]")', 22),
        ('device.driver.matches("(a{1000}){1000}")', 22),
    ],
)
def test_a_literal_pattern_go_refuses_is_an_invalid_matches_argument(
    release: Release, expression: str, column: int
) -> None:
    assert matches_errors(expression, release) == invalid_matches_argument(expression, column)


@pytest.mark.parametrize("release", [KUBERNETES_1_31, KUBERNETES_1_37])
@pytest.mark.parametrize(
    "pattern", ["(?<n>x)", "(?U)a+", "\\\\x{41}", "\\\\10", "(?i)(?-i)a", "(?P<n>a)(?P<n>b)"]
)
def test_a_literal_pattern_go_compiles_is_accepted(release: Release, pattern: str) -> None:
    assert matches_errors(f'device.driver.matches("{pattern}")', release) == []


def test_1_37_takes_the_unicode_names_of_go_1_26_and_1_31_those_of_go_1_22() -> None:
    expression = 'device.driver.matches("\\\\p{Letter}")'
    assert matches_errors(expression, KUBERNETES_1_37) == []
    assert matches_errors(expression, KUBERNETES_1_31) == invalid_matches_argument(expression, 22)
