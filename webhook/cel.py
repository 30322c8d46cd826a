"""CEL selectors: 1.30's structured parameters (`validate_selector`) and the DRA device selectors
of 1.31 and 1.37 (`validate_device_selector`, each release's `validateCELSelector`), exactly.

Device selectors compile in `dynamic-resource-allocation/cel`'s environments
(`webhook.celgo.decls.device_selector_environment_1_31` / `_1_37`); 1.37 also limits their length
(10 KiB) and their estimated cost (`webhook.celgo.cost`). The bounds below apply to every
environment. What follows describes the 1.30 selectors.

`ResourceClaimParameters.driverRequests[].requests[].namedResources.selector` and
`ResourceClassParameters.filters[].namedResources.selector` are CEL expressions over the
`attributes.<type>` maps of a named resource. Kubernetes 1.30
(`pkg/apis/resource/structured/namedresources/validation/validation.go`) validates one like this:

* ``""``  -> Required(path, "");
* compile it (`namedresources/cel/compile.go`) in the NewExpressions environment -- or the
  StoredExpressions one when the expression was already stored unchanged -- and turn a
  `cel.Error` into a field error: Invalid(path, expression, detail) for ``compilation failed:
  <issues>`` (cel-go's issue text: ``ERROR: <input>:LINE:COL: message`` + source line + caret line,
  for every error) and for ``must evaluate to bool``; Internal for an environment failure.

Which library
-------------
The candidates on PyPI were compared (June 2026 versions): `cel-python` (celpy, pure Python,
Lark grammar) parses and evaluates but has no type checker, so it can neither find undeclared
references nor tell a non-bool result; `common-expression-language` (Rust `cel` crate bindings)
and `cel-bind` (C++ bindings without declarations API) evaluate only; `cel-expr-python` (Google's
cel-cpp bindings, wheels for x86_64/arm64, CPython 3.11+) does type-check, but cel-cpp's checker
words and places errors differently from cel-go (``cannot be the range of`` vs ``cannot be range
of``, ``'a.c'`` vs ``'a'``, no homogeneous-literal check, a newer grammar that accepts backquoted
names) and cannot be configured to cel-go's environment. Kubernetes' messages are cel-go's, so
`webhook.celgo` ports cel-go's compiler front end on top of a real CEL parser: the ANTLR parser
generated from cel-go's own grammar (runtime: `antlr4-python3-runtime`, pure Python).

Bounds
------
cel-go (hence Kubernetes 1.30, which sets no length limit on these fields) rejects expressions
over 100,000 code points and nesting deeper than 250, and stops error recovery after 30 attempts
of 256 tokens; all of it is ported. The Python parser is far slower than Go's (docs/performance.md),
so this module adds one bound of its own: `COMPILE_CPU_SECONDS` of CPU time per expression. A hostile 10,000
character expression is answered in well under a second (deep nesting hits cel-go's recursion
limit long before); a pathological one that still runs past the budget is rejected as Invalid
with `TOO_COMPLEX_DETAIL` -- the one verdict Kubernetes would not give (it has no time limit).
One object may carry hundreds of selectors, so the compilations of one review also share a budget,
`REVIEW_COMPILE_CPU_SECONDS`, opened by the judge per review (`open_review_budget`): once it is spent, the
selectors still to compile are answered Invalid with `BUDGET_SPENT_DETAIL` (not cached: another
review compiles them afresh), and a worker never spends more than that on one review's selectors.
Compiled results are memoised per (expression, environment) in an LRU cache bounded in entries and
in the size of each (`SELECTOR_CACHE`), so repeated reviews of the same object do not recompile.
"""

from __future__ import annotations

import contextlib
import functools
import sys
import time
from collections import OrderedDict
from collections.abc import Iterator
from contextvars import ContextVar, Token
from dataclasses import dataclass

from webhook.celgo import types as celtypes
from webhook.celgo.compiler import Compilation, CompileTimeout, Deadline, compile_expression
from webhook.celgo.cost import estimate_device_selector_cost
from webhook.celgo.decls import (
    Environment,
    device_selector_environment_1_31,
    device_selector_environment_1_37,
    selector_environment,
)
from webhook.celgo.program import program_error
from webhook.celgo.types import BOOL
from webhook.field import ErrorList, ErrorType, FieldError, FieldPath, forbidden, internal, invalid, required
from webhook.release import KUBERNETES_1_31, KUBERNETES_1_37, Release

# Compiled selectors kept: a ResourceClaimParameters object carries a handful; 4096 covers the
# working set of a large cluster.
MAX_CACHED_SELECTORS = 4096
# Characters of one cached entry, expression and detail together. A selector of a few hundred
# characters, valid or with an error or two, fits; a hostile one does not (1,000 characters of
# junk make a 110,000-character detail: 100 errors, each quoting the line) and is compiled again
# when it comes back. With both bounds the cache holds at most ~32 MiB whatever it is sent.
MAX_CACHED_ENTRY_CHARS = 8192
# CPU seconds one compilation may take: a hundred times what a realistic selector takes
# (docs/performance.md, "The rules alone"); enough for any 2,000-character selector on a slow machine.
COMPILE_CPU_SECONDS = 1.0
TOO_COMPLEX_DETAIL = (
    "compilation failed: ERROR: <input>:-1:0: expression too complex: compiling it took more than "
    f"{COMPILE_CPU_SECONDS:g}s of CPU time (a limit of this webhook, not of Kubernetes)"
)
# CPU seconds the uncached compilations of one review may take together: a review is answered well
# within kube-apiserver's webhook timeout (the manifests set 5 s) however many selectors it carries.
REVIEW_COMPILE_CPU_SECONDS = 2.0
BUDGET_SPENT_DETAIL = (
    "compilation failed: ERROR: <input>:-1:0: not compiled: the selectors of this object took more "
    f"than {REVIEW_COMPILE_CPU_SECONDS:g}s of CPU time to compile "
    "(a limit of this webhook, not of Kubernetes)"
)
# The deepest expression cel-go accepts (250 nested rules) needs ~2,500 Python frames to parse.
_RECURSION_HEADROOM = 10_000


@dataclass(frozen=True, slots=True)
class SelectorCompilation:
    """The outcome of compiling one selector: no detail means it is valid."""

    expression: str
    stored: bool
    # The `cel.Error` detail Kubernetes reports, or None for a valid selector.
    detail: str | None
    # True when Kubernetes would report the detail as an Internal error (never Invalid).
    internal: bool = False
    # The expression's type as cel-go prints it, when it compiled ("bool" for a valid selector).
    output_type: str | None = None
    # Which environments: "1.30" (structured parameters' selectors), "1.31" or "1.37" (device
    # selectors of that release).
    environment: str = "1.30"
    # The estimated worst-case cost (`cel.EstimateCost`'s Max) where the release limits it.
    max_cost: int | None = None


@functools.cache
def _environment(stored: bool, environment: str = "1.30") -> Environment:
    if environment == "1.31":
        return device_selector_environment_1_31(stored=stored)
    if environment == "1.37":
        return device_selector_environment_1_37(stored=stored)
    return selector_environment(stored=stored)


class CompilationCache:
    """The compiled selectors of this process, least recently used first out: at most `max_entries`,
    none larger than `max_entry_chars` (a larger result is returned, not kept)."""

    def __init__(self, *, max_entries: int, max_entry_chars: int) -> None:
        self.max_entries = max_entries
        self.max_entry_chars = max_entry_chars
        self.hits = 0
        self.misses = 0
        self._entries: OrderedDict[tuple[str, bool, str], SelectorCompilation] = OrderedDict()

    def __len__(self) -> int:
        return len(self._entries)

    def get(self, expression: str, stored: bool, environment: str = "1.30") -> SelectorCompilation | None:
        key = (expression, stored, environment)
        found = self._entries.get(key)
        if found is None:
            self.misses += 1
            return None
        self.hits += 1
        self._entries.move_to_end(key)
        return found

    def keep(self, compiled: SelectorCompilation) -> None:
        if len(compiled.expression) + len(compiled.detail or "") > self.max_entry_chars:
            return
        self._entries[(compiled.expression, compiled.stored, compiled.environment)] = compiled
        if len(self._entries) > self.max_entries:
            self._entries.popitem(last=False)

    def clear(self) -> None:
        self._entries.clear()
        self.hits = self.misses = 0


# Module state, on purpose: compiling is pure, and a cache per caller would compile each selector
# once per Judge, per worker, per test.
SELECTOR_CACHE = CompilationCache(max_entries=MAX_CACHED_SELECTORS, max_entry_chars=MAX_CACHED_ENTRY_CHARS)


class ReviewBudget:
    """The CPU seconds left for compiling the selectors of one review."""

    __slots__ = ("remaining",)

    def __init__(self, seconds: float) -> None:
        self.remaining = seconds


_REVIEW_BUDGET: ContextVar[ReviewBudget | None] = ContextVar("cel_review_budget", default=None)


@contextlib.contextmanager
def review_budget(seconds: float | None = None) -> Iterator[ReviewBudget]:
    """Share `seconds` (default `REVIEW_COMPILE_CPU_SECONDS`) of compile CPU among the selectors
    validated inside the block (the judge uses `open_review_budget`, the same without a context
    manager)."""
    token = open_review_budget(seconds)
    budget = _REVIEW_BUDGET.get()
    assert budget is not None  # the one just opened
    try:
        yield budget
    finally:
        close_review_budget(token)


def open_review_budget(seconds: float | None = None) -> Token[ReviewBudget | None]:
    """`review_budget()` without a context manager, for the judge's per-review path (entering and
    leaving a generator context manager costs more than the budget's own work: docs/performance.md):
    open a budget here and close it with `close_review_budget(token)` in a `finally`."""
    return _REVIEW_BUDGET.set(ReviewBudget(REVIEW_COMPILE_CPU_SECONDS if seconds is None else seconds))


def close_review_budget(token: Token[ReviewBudget | None]) -> None:
    _REVIEW_BUDGET.reset(token)


def compile_selector(
    expression: str, *, stored: bool = False, environment: str = "1.30"
) -> SelectorCompilation:
    """Compile like `namedresourcescel.Compiler.CompileCELExpression` (1.30) or
    `dracel.Compiler.CompileCELExpression` (`environment` "1.31", "1.37"), memoised in
    `SELECTOR_CACHE` (a cached result comes back as the same object). Inside `review_budget()` an
    uncached compilation also spends from the review's budget."""
    compiled = SELECTOR_CACHE.get(expression, stored, environment)
    if compiled is not None:
        return compiled
    budget = _REVIEW_BUDGET.get()
    if budget is None or budget.remaining >= COMPILE_CPU_SECONDS:
        compiled = _compile(expression, stored, COMPILE_CPU_SECONDS, budget, environment=environment)
        SELECTOR_CACHE.keep(compiled)
        return compiled
    if budget.remaining <= 0:
        return SelectorCompilation(expression, stored, BUDGET_SPENT_DETAIL, environment=environment)
    # Less than one expression's budget is left: a timeout now says the review's budget is spent.
    return _compile(
        expression,
        stored,
        budget.remaining,
        budget,
        timeout_detail=BUDGET_SPENT_DETAIL,
        environment=environment,
    )


def _compile(
    expression: str,
    stored: bool,
    seconds: float,
    budget: ReviewBudget | None,
    *,
    timeout_detail: str = TOO_COMPLEX_DETAIL,
    environment: str = "1.30",
) -> SelectorCompilation:
    if sys.getrecursionlimit() < _RECURSION_HEADROOM:
        sys.setrecursionlimit(_RECURSION_HEADROOM)
    env = _environment(stored, environment)
    started = time.thread_time()
    deadline = Deadline(seconds)
    try:
        result = compile_expression(expression, env, deadline)
        program_failure = max_cost = None
        if environment != "1.30" and result.issues is None and _accepted_output(result, environment, stored):
            program_failure = _program_error(result, env)
            if environment == "1.37" and program_failure is None:
                max_cost = estimate_device_selector_cost(result, env, deadline)
    except CompileTimeout:
        return SelectorCompilation(expression, stored, timeout_detail, environment=environment)
    except RecursionError:
        return SelectorCompilation(
            expression, stored, "unexpected compilation error: too deep", True, environment=environment
        )
    finally:
        if budget is not None:
            budget.remaining -= time.thread_time() - started
    if result.issues is not None:
        return SelectorCompilation(
            expression, stored, "compilation failed: " + result.issues, environment=environment
        )
    output = str(result.output_type) if result.output_type is not None else "dyn"
    if not _accepted_output(result, environment, stored):
        return SelectorCompilation(
            expression,
            stored,
            _not_bool_detail(result, environment),
            output_type=output,
            environment=environment,
        )
    if program_failure is not None:
        return SelectorCompilation(
            expression,
            stored,
            PROGRAM_FAILED + program_failure,
            internal=True,
            output_type=output,
            environment=environment,
        )
    return SelectorCompilation(
        expression, stored, None, output_type=output, environment=environment, max_cost=max_cost
    )


# DRA's `CompileCELExpression` (1.31 and 1.37) builds the program right after the output type check;
# its error is an internal-type `cel.Error` (`webhook.celgo.program`).
PROGRAM_FAILED = "program instantiation failed: "


def _program_error(result: Compilation, env: Environment) -> str | None:
    """What `env.Program` refuses in a device selector that compiled (before the cost estimate)."""
    assert result.parsed is not None and result.types is not None  # it compiled
    return program_error(result.parsed.expr, result.types, regexp_unicode_aliases=env.regexp_unicode_aliases)


def _accepted_output(result: Compilation, environment: str, stored: bool) -> bool:
    """1.30: bool. 1.31: bool or the unknown type `any`. 1.37: bool or the environment's attribute
    value type (`any` for NewExpressions, `dyn` for StoredExpressions: `attributeTypeFromEnv`)."""
    if result.output_type == BOOL:
        return True
    if environment == "1.31":
        return result.output_type == celtypes.ANY
    if environment == "1.37":
        return result.output_type == (celtypes.DYN if stored else celtypes.ANY)
    return False


def _not_bool_detail(result: Compilation, environment: str) -> str:
    if environment == "1.30":
        return "must evaluate to bool"
    output = celtypes.DYN if result.output_type is None else result.output_type
    return f"must evaluate to bool or the unknown type, not {celtypes.type_string(output)}"


def as_go_string(text: str) -> str:
    """The string Go's JSON decoder makes: a lone UTF-16 surrogate (legal in a JSON escape,
    kept by Python's decoder) becomes U+FFFD, as `encoding/json` replaces it. ASCII text (the usual
    selector) has none, decided in C."""
    if text.isascii() or not any("\ud800" <= char <= "\udfff" for char in text):
        return text
    return text.encode("utf-16", "surrogatepass").decode("utf-16", "replace")


def validate_selector(expression: str, path: FieldPath, *, stored: bool = False) -> ErrorList:
    """`validateSelector` of Kubernetes 1.30: Required when empty, else the compile verdict.

    `stored` selects the StoredExpressions environment: pass True only when validating a selector
    that was already persisted unchanged (an update that does not touch it).
    """
    if expression == "":
        return [required(path)]
    expression = as_go_string(expression)
    compiled = compile_selector(expression, stored=stored)
    if compiled.detail is None:
        return []
    if compiled.internal:
        return [internal(path, compiled.detail)]
    return [invalid(path, expression, compiled.detail)]


# Kubernetes 1.37 `resource.CELSelectorExpressionMaxLength` (bytes) and
# `resource.CELSelectorExpressionMaxCost` (cel-go cost units, of the estimated worst case).
CEL_SELECTOR_EXPRESSION_MAX_LENGTH = 10 * 1024
CEL_SELECTOR_EXPRESSION_MAX_COST = 1_000_000
COST_LIMIT_DETAIL = "too complex, exceeds cost limit"

_DEVICE_SELECTOR_ENVIRONMENTS = {KUBERNETES_1_31: "1.31", KUBERNETES_1_37: "1.37"}


def validate_device_selector(
    expression: str, path: FieldPath, *, release: Release, stored: bool = False
) -> ErrorList:
    """`validateCELSelector` of `release`'s validation.go for the `expression` field at `path`.

    1.31: compile in the NewExpressions environment (StoredExpressions when `stored`); a
    `cel.Error` becomes Invalid (compile and type errors, ``must evaluate to bool or the unknown
    type, not T``) or Internal. No length or cost limit; an empty expression is a syntax error.

    1.37: an expression longer than 10 KiB (bytes) is TooLong and not compiled; then the same
    conversion of compile errors; then, for one that compiled, Forbidden ``too complex, exceeds cost
    limit`` when cel-go's estimated worst-case cost exceeds 1,000,000.

    `stored` (both releases): True when the expression was already stored and is validated again,
    as Go does on update: 1.31 for every selector of a ResourceClaim or ResourceClaimTemplate update
    (the spec is immutable) and for a DeviceClass update whose `spec.selectors` are semantically
    equal to the old ones; 1.37 only for that DeviceClass case (claims and templates are not
    validated again on update).
    """
    # The usual release by identity: hashing the frozen dataclass costs more than the cache lookup.
    environment = "1.37" if release is KUBERNETES_1_37 else _DEVICE_SELECTOR_ENVIRONMENTS.get(release)
    if environment is None:
        raise ValueError(f"{release} has no CEL device selectors")
    expression = as_go_string(expression)
    if environment == "1.37" and len(expression.encode()) > CEL_SELECTOR_EXPRESSION_MAX_LENGTH:
        # field.TooLong of apimachinery 1.37: the value is omitted, the limit counted in bytes.
        limit = CEL_SELECTOR_EXPRESSION_MAX_LENGTH
        return [
            FieldError(
                ErrorType.TOO_LONG, str(path), "<value omitted>", f"may not be more than {limit} bytes"
            )
        ]
    compiled = compile_selector(expression, stored=stored, environment=environment)
    if compiled.detail is not None:
        if compiled.internal:
            return [internal(path, compiled.detail)]
        return [invalid(path, expression, compiled.detail)]
    if compiled.max_cost is not None and compiled.max_cost > CEL_SELECTOR_EXPRESSION_MAX_COST:
        return [forbidden(path, COST_LIMIT_DETAIL)]
    return []
