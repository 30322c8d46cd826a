"""Compile one CEL expression the way cel-go's `Env.Compile` does: parse, check, validate.

`compile_expression` returns the output type of a valid expression, or the issues text cel-go's
`Issues.String()` gives (every error, sorted by position, with its source line and caret).
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from webhook.celgo import checker, parser, validators
from webhook.celgo.decls import Environment
from webhook.celgo.source import Errors, Source
from webhook.celgo.types import CelType


class CompileTimeout(Exception):
    """Compiling took more CPU time than the caller allowed."""


class Deadline:
    """A CPU-time budget for one compilation, measured on the calling thread.

    CPU time (not wall time) keeps verdicts independent of machine load: an expression either fits
    the budget or it does not, however busy the other threads are.
    """

    __slots__ = ("_at", "seconds")

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        self._at = time.thread_time() + seconds

    def check(self) -> None:
        if time.thread_time() > self._at:
            raise CompileTimeout(self.seconds)


@dataclass(frozen=True, slots=True)
class Compilation:
    """A compiled expression: its output type, or the issues that stopped compilation."""

    output_type: CelType | None
    issues: str | None
    # The checked expression and the type of each of its nodes, when it compiled.
    parsed: parser.ParsedExpression | None = None
    types: dict[int, CelType] | None = None
    # The overload ids each call resolved to, and the calls resolved as namespaced functions.
    overloads: dict[int, list[str]] | None = None
    namespaced: frozenset[int] = frozenset()


def compile_expression(text: str, env: Environment, deadline: Deadline | None = None) -> Compilation:
    """Parse, check and validate `text`; raises CompileTimeout when `deadline` passes."""
    errors = Errors(Source(text))
    parsed = parser.parse(text, errors, deadline=deadline, syntax=env.syntax)
    if parsed is None:
        return Compilation(None, errors.display())
    checked = checker.Checker(env, parsed, errors, deadline)
    types = checked.run()
    if errors:
        return Compilation(None, errors.display())
    validators.validate(
        parsed,
        types,
        errors,
        overloads=checked.overload_ids,
        string_format=env.string_format_validator,
        regexp_unicode_aliases=env.regexp_unicode_aliases,
    )
    if errors:
        return Compilation(None, errors.display())
    return Compilation(
        types.get(parsed.expr.id),
        None,
        parsed,
        types,
        checked.overload_ids,
        frozenset(checked.namespaced_calls),
    )
