"""The AST validators Kubernetes adds to its CEL environments (cel-go `cel/validator.go`).

They run only on an expression that type-checked without error, in this order:

* homogeneous aggregate literals (base environment, `cel.HomogeneousAggregateLiterals()`): every
  element of a list literal, and every key and value of a map literal, must have the type of the
  first one, else ``expected type 'int' but found 'string'`` at the offending element; literals
  inside a ``format`` call are exempt (`ext.Strings` exempts it);
* duration, timestamp and regex literals (Kubernetes 1.29): a literal argument of ``duration``,
  ``timestamp`` or ``matches`` that would fail at run time is reported as ``invalid duration
  argument`` (``timestamp``, ``matches``) at the literal.

Go semantics are reproduced in Python: `time.ParseDuration`, `time.Parse(time.RFC3339, ...)` with
CEL's year 1..9999 range, and Go `regexp` syntax (RE2). The regex check uses Python's parser with
Go's differences applied (no look-around, back-references, atomic groups or possessive repeats;
``\\pL``/``\\p{Greek}`` classes, ``\\z`` and ``\\Q...\\E`` accepted; repeat counts at most 1000).
"""

from __future__ import annotations

import importlib
import re
from collections.abc import Callable, Iterator
from typing import Any

from webhook.celgo import ast
from webhook.celgo import types as t
from webhook.celgo.parser import ParsedExpression
from webhook.celgo.source import Errors
from webhook.celgo.types import CelType
from webhook.gotime import parse_rfc3339

_EXEMPT_FROM_HOMOGENEITY = frozenset({"format"})

_Check = Callable[[ast.Literal], bool]
# Python's own regex parser (private, stable since 3.11): the walkable tree behind `re.compile`.
sre_parse: Any = importlib.import_module("re._parser")
sre_constants: Any = importlib.import_module("re._constants")


def validate(parsed: ParsedExpression, types: dict[int, CelType], errors: Errors) -> None:
    _homogeneous_literals(parsed, types, errors)
    _literal_arguments(parsed, errors, "duration", _valid_duration_literal)
    _literal_arguments(parsed, errors, "timestamp", _valid_timestamp_literal)
    _literal_arguments(parsed, errors, "matches", _valid_regex_literal)


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
    if literal.kind == "string":
        return go_parse_duration(str(literal.value)) is not None
    return literal.kind == "int"


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

_GO_UNICODE_CLASS = re.compile(r"\\[pP](?:\{\^?[A-Za-z_]+\}|[A-Za-z])")
_GO_QUOTED = re.compile(r"\\Q(.*?)(?:\\E|\Z)", re.S)
_MAX_REPEAT = 1000


def go_regexp_is_valid(pattern: str) -> bool:
    """Whether Go's `regexp.Compile` accepts `pattern` (RE2 syntax)."""
    text = _GO_QUOTED.sub(lambda m: re.escape(m.group(1)), pattern)
    text = _GO_UNICODE_CLASS.sub("a", text).replace("\\z", "\\Z")
    try:
        tree = sre_parse.parse(text)
    except (re.error, OverflowError, RecursionError):
        return False
    return _re2_compatible(tree)


def _re2_compatible(tree: Any) -> bool:
    """Walk Python's parse of a pattern for what Go's RE2 syntax lacks."""
    c = sre_constants
    unsupported = {c.ASSERT, c.ASSERT_NOT, c.GROUPREF, c.GROUPREF_EXISTS, c.GROUPREF_IGNORE}
    unsupported |= {getattr(c, name) for name in ("ATOMIC_GROUP", "POSSESSIVE_REPEAT") if hasattr(c, name)}
    stack: list[Any] = [tree]
    while stack:
        node = stack.pop()
        items = list(node) if isinstance(node, (list, tuple)) or hasattr(node, "data") else []
        for item in items:
            if isinstance(item, tuple) and len(item) == 2 and isinstance(item[0], c._NamedIntConstant):
                op, argument = item
                if op in unsupported:
                    return False
                if op in (c.MAX_REPEAT, c.MIN_REPEAT):
                    low, high = argument[0], argument[1]
                    if low > _MAX_REPEAT or (high != c.MAXREPEAT and high > _MAX_REPEAT):
                        return False
                stack.append(argument)
            elif isinstance(item, (list, tuple)) or hasattr(item, "data"):
                stack.append(item)
    return True


def _valid_regex_literal(literal: ast.Literal) -> bool:
    if literal.kind != "string":
        return True
    return go_regexp_is_valid(str(literal.value))
