"""The AST validators Kubernetes adds to its CEL environments (cel-go `cel/validator.go`).

They run only on an expression that type-checked without error, in this order:

* homogeneous aggregate literals (base environment, `cel.HomogeneousAggregateLiterals()`): every
  element of a list literal, and every key and value of a map literal, must have the type of the
  first one, else ``expected type 'int' but found 'string'`` at the offending element; literals
  inside a ``format`` call are exempt (`ext.Strings` exempts it);
* duration, timestamp and regex literals (Kubernetes 1.29): a literal argument of ``duration``,
  ``timestamp`` or ``matches`` that would fail at run time is reported as ``invalid duration
  argument`` (``timestamp``, ``matches``) at the literal;
* string format calls (ext.Strings version 1 and later, from cel-go v0.20: Kubernetes 1.31 and
  1.37, not 1.30's v0.17): ``"<literal>".format([<list literal>])`` has its format string parsed
  and each clause checked against the type of its argument, as `ext/formatting.go` does.

Go semantics are reproduced in Python: `time.ParseDuration`, `time.Parse(time.RFC3339, ...)` with
CEL's year 1..9999 range, and Go `regexp` syntax (RE2: `webhook.celgo.goregexp`, a port of Go's
`regexp/syntax` parser).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator

from webhook.celgo import ast
from webhook.celgo import types as t
from webhook.celgo.goregexp import go_regexp_error
from webhook.celgo.parser import ParsedExpression
from webhook.celgo.source import Errors
from webhook.celgo.types import CelType
from webhook.gotime import parse_rfc3339

_EXEMPT_FROM_HOMOGENEITY = frozenset({"format"})

_Check = Callable[[ast.Literal], bool]


def validate(
    parsed: ParsedExpression,
    types: dict[int, CelType],
    errors: Errors,
    *,
    overloads: dict[int, list[str]] | None = None,
    string_format: bool = False,
    regexp_unicode_aliases: bool = False,
) -> None:
    """Run the validators; `string_format` adds ext.Strings' (cel-go v0.20 on: Kubernetes 1.31, 1.37),
    which needs the overload ids each call resolved to; `regexp_unicode_aliases` judges regex literals
    as Go 1.25 on does (Kubernetes 1.37)."""
    _homogeneous_literals(parsed, types, errors)
    _literal_arguments(parsed, errors, "duration", _valid_duration_literal)
    _literal_arguments(parsed, errors, "timestamp", _valid_timestamp_literal)
    _literal_arguments(parsed, errors, "matches", _VALID_REGEX_LITERAL[regexp_unicode_aliases])
    if string_format:
        _string_format_calls(parsed, types, overloads or {}, errors)


def _walk(expr: ast.Expr, exempt: bool = False) -> Iterator[tuple[ast.Expr, bool]]:
    """Every node, pre-order, with whether it lies inside an exempt (format) call."""
    stack: list[tuple[ast.Expr, bool]] = [(expr, exempt)]
    while stack:
        node, inside = stack.pop()
        yield node, inside
        if isinstance(node, ast.Call) and node.function in _EXEMPT_FROM_HOMOGENEITY:
            inside = True
        stack.extend((child, inside) for child in reversed(ast.children(node)))


def _homogeneous_literals(parsed: ParsedExpression, types: dict[int, CelType], errors: Errors) -> None:
    def mismatch(expr_id: int, expected: CelType, actual: CelType) -> None:
        errors.report(
            parsed.location(expr_id),
            f"expected type '{t.format_type(expected)}' but found '{t.format_type(actual)}'",
        )

    for node, exempt in _walk(parsed.expr):
        if exempt:
            continue
        if isinstance(node, ast.CreateList):
            first: CelType | None = None
            for i, element in enumerate(node.elements):
                element_type = types.get(element.id, t.DYN)
                if i in node.optional_indices and element_type.params:
                    element_type = element_type.params[0]
                if first is None:
                    first = element_type
                elif first != element_type:
                    mismatch(element.id, first, element_type)
                    break
        elif isinstance(node, ast.CreateMap):
            key_type: CelType | None = None
            value_type: CelType | None = None
            for entry in node.entries:
                k = types.get(entry.key.id, t.DYN)
                v = types.get(entry.value.id, t.DYN)
                if entry.optional and v.params:
                    v = v.params[0]
                if key_type is None or value_type is None:
                    key_type, value_type = k, v
                    continue
                if key_type != k:
                    mismatch(entry.key.id, key_type, k)
                if value_type != v:
                    mismatch(entry.value.id, value_type, v)


def _literal_arguments(parsed: ParsedExpression, errors: Errors, function: str, valid: _Check) -> None:
    for node, _ in _walk(parsed.expr):
        if not isinstance(node, ast.Call) or node.function != function or not node.args:
            continue
        argument = node.args[0]
        if isinstance(argument, ast.Literal) and not valid(argument):
            errors.report(parsed.location(argument.id), f"invalid {function} argument")


# --- durations (Go time.ParseDuration) -----------------------------------------------------------

_UNITS = {
    "ns": 1,
    "us": 1_000,
    "\u00b5s": 1_000,
    "\u03bcs": 1_000,
    "ms": 1_000_000,
    "s": 1_000_000_000,
    "m": 60_000_000_000,
    "h": 3_600_000_000_000,
}
_DURATION_PART = re.compile(r"([0-9]*)(?:\.([0-9]*))?([^0-9.]*)")


def go_parse_duration(text: str) -> int | None:
    """Nanoseconds of a Go duration string, or None where `time.ParseDuration` fails."""
    s = text
    negative = False
    if s[:1] in ("-", "+"):
        negative = s[0] == "-"
        s = s[1:]
    if s == "0":
        return 0
    if s == "":
        return None
    total = 0
    while s:
        if not (s[0] == "." or (s[0].isascii() and s[0].isdigit())):
            return None
        match = _DURATION_PART.match(s)
        if match is None:  # pragma: no cover - the pattern matches any string
            return None
        whole, fraction, unit = match.group(1), match.group(2), match.group(3)
        if whole == "" and not fraction:
            return None
        if unit not in _UNITS:
            return None
        value = int(whole) if whole else 0
        scale = _UNITS[unit]
        if value > (1 << 63) // scale:
            return None
        value *= scale
        if fraction:
            value += int(float(int(fraction)) * (scale / 10 ** len(fraction)))
            if value > 1 << 63:
                return None
        total += value
        if total > 1 << 63:
            return None
        s = s[match.end() :]
    if not negative and total > (1 << 63) - 1:
        return None
    return -total if negative else total


def _valid_duration_literal(literal: ast.Literal) -> bool:
    # cel-go evaluates the call (`evalCall`); `duration(int)` is declared but always fails:
    # Int.ConvertToType has no case for durations (common/types/int.go, v0.17.8 to v0.27.0).
    return literal.kind == "string" and go_parse_duration(str(literal.value)) is not None


# --- timestamps (Go time.Parse(time.RFC3339, ...), CEL's range) -----------------------------------

# CEL timestamps span 0001-01-01T00:00:00Z .. 9999-12-31T23:59:59Z (common/types/timestamp.go).
MIN_UNIX_SECONDS = -62135596800
MAX_UNIX_SECONDS = 253402300799


def _valid_timestamp_literal(literal: ast.Literal) -> bool:
    seconds: int | None
    if literal.kind == "string":
        instant = parse_rfc3339(str(literal.value))  # cel-go: time.Parse(time.RFC3339, ...)
        seconds = None if instant is None else instant.unix_seconds
    elif literal.kind == "int":
        seconds = int(str(literal.value))
    else:
        return False
    return seconds is not None and MIN_UNIX_SECONDS <= seconds <= MAX_UNIX_SECONDS


# --- regular expressions (Go regexp / RE2 syntax) -------------------------------------------------


def go_regexp_is_valid(pattern: str, *, unicode_aliases: bool = False) -> bool:
    """Whether Go's `regexp.Compile` accepts `pattern` (`webhook.celgo.goregexp`; `unicode_aliases`:
    the ``\\p{...}`` names of Go 1.25 on, which Kubernetes 1.37 builds with)."""
    return go_regexp_error(pattern, unicode_aliases=unicode_aliases) is None


def _regex_literal_check(unicode_aliases: bool) -> _Check:
    def valid(literal: ast.Literal) -> bool:
        if literal.kind != "string":
            return True
        return go_regexp_is_valid(str(literal.value), unicode_aliases=unicode_aliases)

    return valid


_VALID_REGEX_LITERAL = {False: _regex_literal_check(False), True: _regex_literal_check(True)}


# --- string format calls (cel-go ext/formatting.go `stringFormatValidator`) ------------------------

# The kinds each clause accepts (`stringFormatChecker`); a `dyn` argument is accepted by every one.
_STRING_CLAUSE_KINDS = frozenset(
    {
        t.Kind.LIST, t.Kind.MAP, t.Kind.INT, t.Kind.UINT, t.Kind.DOUBLE, t.Kind.BOOL, t.Kind.STRING,
        t.Kind.TIMESTAMP, t.Kind.BYTES, t.Kind.DURATION, t.Kind.TYPE, t.Kind.NULL,
    }
)  # fmt: skip
_CLAUSES: dict[str, tuple[frozenset[t.Kind], str]] = {
    "d": (frozenset({t.Kind.INT, t.Kind.UINT}), "decimal clause can only be used on integers"),
    "f": (
        frozenset({t.Kind.DOUBLE, t.Kind.STRING}),
        "fixed-point clause can only be used on doubles",
    ),
    "e": (
        frozenset({t.Kind.DOUBLE, t.Kind.STRING}),
        "scientific clause can only be used on doubles",
    ),
    "b": (
        frozenset({t.Kind.INT, t.Kind.UINT, t.Kind.BOOL}),
        "only integers and bools can be formatted as binary",
    ),
    "x": (
        frozenset({t.Kind.INT, t.Kind.UINT, t.Kind.STRING, t.Kind.BYTES}),
        "only integers, byte buffers, and strings can be formatted as hex",
    ),
    "o": (frozenset({t.Kind.INT, t.Kind.UINT}), "octal clause can only be used on integers"),
}
_CLAUSES["X"] = _CLAUSES["x"]
_STRING_CLAUSE_ERROR = (
    "string clause can only be used on strings, bools, bytes, ints, doubles, maps, lists, types, "
    "durations, and timestamps"
)
_GO_INT_MAX = (1 << 63) - 1


class _FormatError(Exception):
    """An error of the format check, at the expression `at` (None: at the format call)."""

    def __init__(self, message: str, at: int | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.at = at


def _string_format_calls(
    parsed: ParsedExpression, types: dict[int, CelType], overloads: dict[int, list[str]], errors: Errors
) -> None:
    for node, _ in _walk(parsed.expr):
        if not _is_checkable_format_call(node, overloads):
            continue
        assert isinstance(node, ast.Call) and isinstance(node.target, ast.Literal)
        arguments = node.args[0]
        assert isinstance(arguments, ast.CreateList)
        try:
            requested = _check_format_string(str(node.target.value), arguments.elements, types)
        except _FormatError as err:
            errors.report(parsed.location(node.id if err.at is None else err.at), err.message)
            continue
        if len(arguments.elements) > requested:
            errors.report(
                parsed.location(node.id),
                "too many arguments supplied to string.format "
                f"(expected {requested}, got {len(arguments.elements)})",
            )


def _is_checkable_format_call(node: ast.Expr, overloads: dict[int, list[str]]) -> bool:
    """`matchConstantFormatStringWithListLiteralArgs`: a member `format` resolved to `string_format`
    on a string literal with one list literal argument."""
    if not isinstance(node, ast.Call) or node.target is None or node.function != "format":
        return False
    resolved = overloads.get(node.id, [])
    if resolved and "string_format" not in resolved:
        return False
    target = node.target
    if not isinstance(target, ast.Literal) or target.kind != "string":
        return False
    return len(node.args) == 1 and isinstance(node.args[0], ast.CreateList)


def _check_format_string(text: str, arguments: list[ast.Expr], types: dict[int, CelType]) -> int:
    """`parseFormatString` with the checker's callbacks, over the bytes of the format string as Go
    indexes it; returns how many arguments the clauses asked for."""
    data = text.encode("utf-8", "surrogatepass")
    i = 0
    index = 0
    requested = 0
    while i < len(data):
        if data[i] != ord("%"):
            i += 1
            continue
        if i + 1 < len(data) and data[i + 1] == ord("%"):
            i += 2
            continue
        requested += 1
        if i + 1 >= len(data):
            raise _FormatError("unexpected end of string")
        if index >= len(arguments):
            raise _FormatError(f"index {index} out of range")
        read, clause = _parse_formatting_clause(data[i + 1 :])
        _check_clause(clause, arguments[index], types)
        i += 1 + read
        index += 1
    return requested


def _parse_formatting_clause(data: bytes) -> tuple[int, str]:
    """`parseFormattingClause` (with `parsePrecision`): the bytes read and the clause letter."""
    i = 0
    if data[0] == ord("."):
        i = 1
        digits = bytearray()
        while True:
            if i >= len(data):
                raise _FormatError(
                    "could not parse formatting clause: error while parsing precision: "
                    "could not find end of precision specifier"
                )
            if not 0x30 <= data[i] <= 0x39:
                break
            digits.append(data[i])
            i += 1
        number = digits.decode()
        if number == "" or int(number) > _GO_INT_MAX:
            reason = "invalid syntax" if number == "" else "value out of range"
            raise _FormatError(
                "could not parse formatting clause: error while parsing precision: error while "
                f'converting precision to integer: strconv.Atoi: parsing "{number}": {reason}'
            )
    clause = chr(data[i])  # Go: rune(formatStr[i]), one byte
    if clause != "s" and clause not in _CLAUSES:
        raise _FormatError(f'could not parse formatting clause: unrecognized formatting clause "{clause}"')
    return i + 1, clause


def _check_clause(clause: str, argument: ast.Expr, types: dict[int, CelType]) -> None:
    if clause == "s":
        bad = _unformattable_as_string(argument, types)
        if bad is not None:
            raise _FormatError(
                f"error during formatting: {_STRING_CLAUSE_ERROR}, was given {_type_of(bad, types).name}", bad
            )
        return
    kinds, message = _CLAUSES[clause]
    argument_type = _type_of(argument.id, types)
    if argument_type.kind is not t.Kind.DYN and argument_type.kind not in kinds:
        raise _FormatError(f"error during formatting: {message}, was given {argument_type.name}", argument.id)


def _type_of(expr_id: int, types: dict[int, CelType]) -> CelType:
    return types.get(expr_id, t.DYN)


def _unformattable_as_string(argument: ast.Expr, types: dict[int, CelType]) -> int | None:
    """`verifyString`: the id of the first argument, or element of a list or map literal, that the
    string clause cannot format, or None."""
    kind = _type_of(argument.id, types).kind
    if kind is not t.Kind.DYN and kind not in _STRING_CLAUSE_KINDS:
        return argument.id
    if isinstance(argument, ast.CreateList):
        for element in argument.elements:
            bad = _unformattable_as_string(element, types)
            if bad is not None:
                return bad
    elif isinstance(argument, ast.CreateMap):
        for entry in argument.entries:
            for part in (entry.key, entry.value):
                bad = _unformattable_as_string(part, types)
                if bad is not None:
                    return bad
    return None
