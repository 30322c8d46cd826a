"""The CEL parser: ANTLR parse tree -> expression tree, as cel-go v0.17's `parser/parser.go`.

The ANTLR lexer and parser are generated from cel-go's own grammar (see `gen/`), so syntax errors
carry ANTLR's wording; this module ports what cel-go does around them:

* the limits: at most 100,000 code points (`expression code point size exceeds limit`), a
  recursion depth of 250 per grammar rule while parsing and per visited node while building the
  tree (`expression recursion limit exceeded: 250` / `max recursion depth exceeded`), at most 30
  error recoveries of at most 256 tokens each, at most 100 syntax errors;
* ids and source positions of every node (a call is located at its operator or its ``(``);
* the balanced trees cel-go builds for chains of ``&&`` and ``||``;
* literal parsing with cel-go's error messages (string unescaping: `unescape`);
* the macros, expanded as cel-go expands them (`macros`).
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from antlr4 import CommonTokenStream, InputStream  # type: ignore[import-untyped]
from antlr4.atn.ParserATNSimulator import ParserATNSimulator  # type: ignore[import-untyped]
from antlr4.dfa.DFA import DFA  # type: ignore[import-untyped]
from antlr4.error.ErrorListener import ErrorListener  # type: ignore[import-untyped]
from antlr4.error.ErrorStrategy import DefaultErrorStrategy  # type: ignore[import-untyped]
from antlr4.PredictionContext import PredictionContextCache  # type: ignore[import-untyped]
from antlr4.Token import Token  # type: ignore[import-untyped]
from antlr4.tree.Tree import ParseTreeListener  # type: ignore[import-untyped]

from webhook.celgo import ast
from webhook.celgo.gen.CELLexer import CELLexer
from webhook.celgo.gen.CELParser import CELParser as _GeneratedParser
from webhook.celgo.gen27.CELLexer import CELLexer as CELLexer27
from webhook.celgo.gen27.CELParser import CELParser as _GeneratedParser27
from webhook.celgo.macros import (
    ACCUMULATOR_NAME,
    HIDDEN_ACCUMULATOR_NAME,
    MACROS,
    MODERN_MACROS,
    STANDARD_MACROS,
    MacroError,
    MacroFactory,
)
from webhook.celgo.source import NO_LOCATION, Errors, Location, Source
from webhook.celgo.unescape import unescape

# The generated modules are untyped: their parse-tree classes are handled as Any here.
CELParser: Any = _GeneratedParser
CELParser27: Any = _GeneratedParser27

# cel-go parser defaults (parser.NewParser); Kubernetes 1.30 does not change them.
EXPRESSION_SIZE_CODE_POINT_LIMIT = 100_000
MAX_RECURSION_DEPTH = 250
ERROR_RECOVERY_LIMIT = 30
ERROR_RECOVERY_LOOKAHEAD_TOKEN_LIMIT = 256
ERROR_REPORTING_LIMIT = 100


RESERVED_IDS = frozenset(
    {
        "as", "break", "const", "continue", "else", "false", "for", "function", "if", "import",
        "in", "let", "loop", "package", "namespace", "null", "return", "true", "var", "void",
        "while",
    }
)  # fmt: skip

_OPERATORS = {
    "==": "_==_",
    "!=": "_!=_",
    "in": "@in",
    "<": "_<_",
    "<=": "_<=_",
    ">=": "_>=_",
    ">": "_>_",
    "*": "_*_",
    "/": "_/_",
    "%": "_%_",
    "+": "_+_",
    "-": "_-_",
}

_RESERVED_NO_VIABLE = re.compile(r"no viable alternative at input '.(true|false|null)'")


class _Abort(Exception):
    """A parse stopped early; `message` (if any) is reported as an internal error."""

    def __init__(self, message: str | None) -> None:
        super().__init__(message)
        self.message = message


class ParsedExpression:
    """The result of a successful parse: the tree and each node's source offset."""

    __slots__ = ("expr", "positions", "source")

    def __init__(self, expr: ast.Expr, positions: dict[int, int], source: Source) -> None:
        self.expr = expr
        self.positions = positions
        self.source = source

    def location(self, expr_id: int) -> Location:
        return self.source.offset_location(self.positions.get(expr_id, 0))


@dataclass(frozen=True, slots=True)
class Limits:
    """cel-go's parser options (tests of cel-go itself run with smaller ones)."""

    size_code_points: int = EXPRESSION_SIZE_CODE_POINT_LIMIT
    recursion_depth: int = MAX_RECURSION_DEPTH
    recovery_attempts: int = ERROR_RECOVERY_LIMIT
    recovery_lookahead_tokens: int = ERROR_RECOVERY_LOOKAHEAD_TOKEN_LIMIT


DEFAULT_LIMITS = Limits()


@dataclass(frozen=True, slots=True)
class Syntax:
    """What differs in parsing between the cel-go versions and environments Kubernetes compiles in.

    * `grammar`: "v0.17" (cel-go v0.17-v0.21: Kubernetes 1.30, 1.31) or "v0.27" (1.37: backquoted
      field names in the grammar, rejected as ``unsupported syntax: '`'`` since Kubernetes does not
      enable them; the hidden accumulator ``@result``; map/filter argument errors at the argument;
      ``existsOne``; ``iteration variable overwrites accumulator variable``);
    * `macros`: the macro libraries of the environment beyond the standard and optional ones:
      ``bind`` (ext.Bindings: ``cel.bind``), ``two_var`` (ext.TwoVarComprehensions), ``sort_by``
      (ext.Lists v2+: ``sortBy``).
    """

    grammar: str = "v0.17"
    macros: frozenset[str] = frozenset()
    # Whether the lexer and token stream behave as the Go ANTLR runtime cel-go links (antlr4-go
    # v4.13.0 for 1.31, v4.13.1 for 1.37) where the Python runtime differs (True: 1.31, 1.37):
    # * a lexer error quotes the text it could not match as it is (Go `lexer.go` `notifyListeners`:
    #   "token recognition error at: '" + text + "'"); Python writes a newline, tab or carriage
    #   return as ``\n``, ``\t``, ``\r``;
    # * the text of a "no viable alternative" error is read from the tokens lexed so far (Go
    #   `common_token_stream.go` `GetTextFromInterval`: `c.Sync(interval.Stop)`); Python's
    #   `BufferedTokenStream.getText` first lexes the whole rest of the input (`self.fill()`), so
    #   the lexer errors after that point are reported earlier (before the error itself, counted in
    #   the 100 syntax errors reported) or even when the parse stops before reaching them.
    # False keeps the answers the 1.30 port has always given.
    go_antlr_runtime: bool = False
    # Where ``has()`` of something other than a field selection is reported: at its argument, as
    # cel-go does (True: 1.31, 1.37), or at the call, as the 1.30 port always has (False).
    has_error_at_argument: bool = False

    @property
    def modern(self) -> bool:
        return self.grammar == "v0.27"

    @property
    def accumulator(self) -> str:
        return HIDDEN_ACCUMULATOR_NAME if self.modern else ACCUMULATOR_NAME


SYNTAX_V0_17 = Syntax()


class _Clock(Protocol):
    def check(self) -> None: ...


def parse(
    text: str,
    errors: Errors,
    limits: Limits = DEFAULT_LIMITS,
    *,
    deadline: _Clock | None = None,
    syntax: Syntax = SYNTAX_V0_17,
) -> ParsedExpression | None:
    """Parse `text`; on failure the errors are in `errors` and None is returned."""
    source = errors.source
    size = len(text)
    if size > limits.size_code_points:
        errors.report(
            NO_LOCATION,
            f"expression code point size exceeds limit: size: {size}, limit {limits.size_code_points}",
        )
        return None
    first_try = Errors(source)
    try:
        parsed = _parse_once(text, first_try, limits, deadline=deadline, cold=False, syntax=syntax)
        if not first_try:
            return parsed
    except _Abort as abort:
        # A limit (recursion, error recovery) ends the parse on the first pass; it is not retried.
        _carry_over(first_try, errors)
        if abort.message is not None:
            errors.report(NO_LOCATION, abort.message)
        return None
    # ANTLR's prediction cache (the DFA) is shared by every parse and grows with what it has seen,
    # and the wording of a syntax error depends on it ("extraneous input" or "mismatched input").
    # An expression with syntax errors is parsed again from a cold cache, so what it is told never
    # depends on what was parsed before; valid expressions keep the fast, warm path.
    try:
        return _parse_once(text, errors, limits, deadline=deadline, cold=True, syntax=syntax)
    except _Abort as abort:
        if abort.message is not None:
            errors.report(NO_LOCATION, abort.message)
        return None


def _carry_over(scratch: Errors, errors: Errors) -> None:
    for error in scratch.errors:
        errors.report(error.location, error.message)
    errors.count += scratch.count - len(scratch.errors)


def _parse_once(
    text: str,
    errors: Errors,
    limits: Limits,
    *,
    deadline: _Clock | None,
    cold: bool,
    syntax: Syntax = SYNTAX_V0_17,
) -> ParsedExpression | None:
    """One ANTLR parse into `errors`; raises `_Abort` when a limit is reached."""
    builder = _Builder(errors.source, errors, limits.recursion_depth, syntax)
    lexer = _lexer_class(syntax)(InputStream(text))
    lexer.removeErrorListeners()
    lexer.addErrorListener(builder)
    tokens = _GoTokenStream(lexer) if syntax.go_antlr_runtime else CommonTokenStream(lexer)
    parser: Any = (_LimitedParser27 if syntax.modern else _LimitedParser)(tokens)
    if cold:
        parser._interp = ParserATNSimulator(
            parser,
            parser.atn,
            [DFA(state, i) for i, state in enumerate(parser.atn.decisionToState)],
            PredictionContextCache(),
        )
    parser.deadline = deadline
    parser.removeErrorListeners()
    parser.addErrorListener(builder)
    parser.addParseListener(_RecursionListener(limits.recursion_depth))
    parser._errHandler = _RecoveryLimitStrategy(limits.recovery_attempts, limits.recovery_lookahead_tokens)
    expr = builder.visit(parser.start())
    if errors:
        return None
    return ParsedExpression(expr, builder.positions, errors.source)


class _GoErrorDisplay:
    """A lexer reporting an unmatched text as the Go runtime does: as it is."""

    def getErrorDisplay(self, s: str) -> str:
        return s


class _GoLexer(_GoErrorDisplay, CELLexer):
    """The v0.17 lexer with Go's error display."""


class _GoLexer27(_GoErrorDisplay, CELLexer27):
    """The v0.27 lexer with Go's error display."""


class _GoTokenStream(CommonTokenStream):  # type: ignore[misc]
    """A token stream whose text between two tokens is that of antlr4-go's `GetTextFromTokens`:
    only the tokens up to the last one are lexed (`Sync`), not the rest of the input."""

    def getText(self, start: Any = None, stop: Any = None) -> str:
        if not isinstance(start, Token) or not isinstance(stop, Token):
            return str(super().getText(start, stop))
        self.lazyInit()
        self.sync(stop.tokenIndex)
        text = []
        for i in range(max(start.tokenIndex, 0), min(stop.tokenIndex, len(self.tokens) - 1) + 1):
            token = self.tokens[i]
            if token.type == Token.EOF:
                break
            text.append(token.text)
        return "".join(text)


def _lexer_class(syntax: Syntax) -> Any:
    if syntax.modern:
        return _GoLexer27 if syntax.go_antlr_runtime else CELLexer27
    return _GoLexer if syntax.go_antlr_runtime else CELLexer


class _LimitedParser(_GeneratedParser):
    """The generated parser, counting the tokens an error recovery consumes."""

    lookahead_budget: int | None = None
    lookahead_limit = ERROR_RECOVERY_LOOKAHEAD_TOKEN_LIMIT
    deadline: _Clock | None = None

    def consume(self) -> Any:
        if self.deadline is not None:
            self.deadline.check()
        if self.lookahead_budget is not None:
            if self.lookahead_budget <= 0:
                raise _Abort(f"error recovery token lookahead limit exceeded: {self.lookahead_limit}")
            self.lookahead_budget -= 1
        return super().consume()


class _LimitedParser27(_GeneratedParser27):
    """`_LimitedParser` for the v0.27 grammar."""

    lookahead_budget: int | None = None
    lookahead_limit = ERROR_RECOVERY_LOOKAHEAD_TOKEN_LIMIT
    deadline: _Clock | None = None

    def consume(self) -> Any:
        if self.deadline is not None:
            self.deadline.check()
        if self.lookahead_budget is not None:
            if self.lookahead_budget <= 0:
                raise _Abort(f"error recovery token lookahead limit exceeded: {self.lookahead_limit}")
            self.lookahead_budget -= 1
        return super().consume()


class _RecoveryLimitStrategy(DefaultErrorStrategy):  # type: ignore[misc]
    """cel-go's `recoveryLimitErrorStrategy`."""

    def __init__(self, attempt_limit: int, lookahead_limit: int) -> None:
        super().__init__()
        self.attempts = 0
        self.attempt_limit = attempt_limit
        self.lookahead_limit = lookahead_limit

    def _check_attempts(self, recognizer: _LimitedParser) -> None:
        if self.attempts == self.attempt_limit:
            self.attempts += 1
            message = f"error recovery attempt limit exceeded: {self.attempt_limit}"
            recognizer.notifyErrorListeners(message, None, None)
            raise _Abort(None)
        self.attempts += 1

    def _start_lookahead(self, recognizer: _LimitedParser) -> None:
        recognizer.lookahead_limit = self.lookahead_limit
        recognizer.lookahead_budget = self.lookahead_limit

    def recover(self, recognizer: _LimitedParser, e: Any) -> None:
        self._check_attempts(recognizer)
        self._start_lookahead(recognizer)
        try:
            super().recover(recognizer, e)
        finally:
            recognizer.lookahead_budget = None

    def recoverInline(self, recognizer: _LimitedParser) -> Any:
        self._check_attempts(recognizer)
        self._start_lookahead(recognizer)
        try:
            return super().recoverInline(recognizer)
        finally:
            recognizer.lookahead_budget = None


class _RecursionListener(ParseTreeListener):  # type: ignore[misc]
    """cel-go's `recursionListener`: nesting of one grammar rule is limited to 250."""

    def __init__(self, max_depth: int) -> None:
        self.max_depth = max_depth
        self.depths: dict[int, int] = {}

    def visitTerminal(self, node: Any) -> None:
        return None

    def visitErrorNode(self, node: Any) -> None:
        return None

    def enterEveryRule(self, ctx: Any) -> None:
        if ctx is None:
            return
        index = ctx.getRuleIndex()
        depth = self.depths.get(index, 0) + 1
        self.depths[index] = depth
        if depth > self.max_depth:
            raise _Abort(f"expression recursion limit exceeded: {self.max_depth}")

    def exitEveryRule(self, ctx: Any) -> None:
        if ctx is None:
            return
        index = ctx.getRuleIndex()
        if self.depths.get(index, 0) > 0:
            self.depths[index] -= 1


class _Builder(ErrorListener):  # type: ignore[misc]
    """The parse-tree visitor and error listener (cel-go's `parser` struct)."""

    def __init__(self, source: Source, errors: Errors, max_depth: int, syntax: Syntax = SYNTAX_V0_17) -> None:
        self.syntax = syntax
        self.grammar: Any = CELParser27 if syntax.modern else CELParser
        self.max_depth = max_depth
        self.source = source
        self.errors = errors
        self.positions: dict[int, int] = {}
        self.next_id = 1
        self.depth = 0
        self.syntax_errors = 0

    # --- ids, positions and errors ---------------------------------------------------------

    def new_id(self, at: Any) -> int:
        if isinstance(at, Location):
            location = at
        else:
            token = at.start if hasattr(at, "start") and not hasattr(at, "tokenIndex") else at
            if token is None:
                return -1
            location = Location(token.line, token.column)
        expr_id = self.next_id
        self.positions[expr_id] = self.source.location_offset(location)
        self.next_id += 1
        return expr_id

    def location(self, expr_id: int) -> Location:
        return self.source.offset_location(self.positions.get(expr_id, 0))

    def report_error(self, at: Any, message: str) -> ast.Expr:
        err = ast.Unspecified(self.new_id(at))
        location = at if isinstance(at, Location) else self.location(err.id)
        self.errors.report(location, message)
        return err

    def syntaxError(
        self, recognizer: Any, offendingSymbol: Any, line: int, column: int, msg: str, e: Any
    ) -> None:
        location = Location(line, column)
        if "no viable alternative" in msg:
            msg = _RESERVED_NO_VIABLE.sub(r"mismatched input '\1' expecting IDENTIFIER", msg)
        if self.syntax_errors < ERROR_REPORTING_LIMIT:
            self.syntax_errors += 1
            self.errors.report(location, f"Syntax error: {msg}")
            return
        self.errors.report(location, f"Syntax error: More than {ERROR_REPORTING_LIMIT} syntax errors")
        raise _Abort(None)

    def _enter(self) -> None:
        self.depth += 1
        if self.depth > self.max_depth:
            raise _Abort("max recursion depth exceeded")

    # --- node constructors -----------------------------------------------------------------

    def literal(self, at: Any, kind: str, value: object) -> ast.Literal:
        return ast.Literal(self.new_id(at), kind, value)

    def call(self, expr_id: int, function: str, args: Sequence[ast.Expr]) -> ast.Expr:
        expanded = self._expand_macro(expr_id, function, None, args)
        if expanded is not None:
            return expanded
        return ast.Call(expr_id, function, list(args))

    def member_call(
        self, expr_id: int, function: str, target: ast.Expr, args: Sequence[ast.Expr]
    ) -> ast.Expr:
        expanded = self._expand_macro(expr_id, function, target, args)
        if expanded is not None:
            return expanded
        return ast.Call(expr_id, function, list(args), target)

    def _expand_macro(
        self, expr_id: int, function: str, target: ast.Expr | None, args: Sequence[ast.Expr]
    ) -> ast.Expr | None:
        expander = MACROS.get((function, len(args), target is not None))
        if expander is None or expander[0] not in self._macro_libraries():
            return None
        factory = MacroFactory(self, self.location(expr_id))
        try:
            return expander[1](factory, target, list(args))
        except MacroError as err:
            location = err.location if err.location is not None else self.location(expr_id)
            return self.report_error(location, err.message)

    def _macro_libraries(self) -> frozenset[str]:
        return self.syntax.macros | (MODERN_MACROS if self.syntax.modern else STANDARD_MACROS)

    # --- visitor -----------------------------------------------------------------------------

    def visit(self, tree: Any) -> ast.Expr:
        p = self.grammar
        t = _unnest(tree, p)
        if isinstance(t, p.StartContext):
            return self.visit(t.expr())
        if isinstance(t, p.ExprContext):
            return self._counted(self._visit_expr, t)
        if isinstance(t, p.ConditionalOrContext):
            return self._visit_logic(t, "_||_", "||")
        if isinstance(t, p.ConditionalAndContext):
            return self._visit_logic(t, "_&&_", "&&")
        if isinstance(t, p.RelationContext):
            return self._counted(self._visit_binary, t, t.relation(0), t.relation(1))
        if isinstance(t, p.CalcContext):
            return self._counted(self._visit_binary, t, t.calc(0), t.calc(1))
        if isinstance(t, p.LogicalNotContext):
            return self._visit_unary(t, "!_")
        if isinstance(t, p.NegateContext):
            return self._visit_unary(t, "-_")
        if self.syntax.modern:
            if isinstance(t, (p.IdentContext, p.GlobalCallContext)):
                return self._visit_ident_or_call(t)
        elif isinstance(t, p.IdentOrGlobalCallContext):
            return self._visit_ident_or_call(t)
        if isinstance(t, p.SelectContext):
            return self._counted(self._visit_select, t)
        if isinstance(t, p.MemberCallContext):
            return self._counted(self._visit_member_call, t)
        if isinstance(t, p.IndexContext):
            return self._counted(self._visit_index, t)
        if isinstance(t, p.CreateListContext):
            return self._visit_list(t)
        if isinstance(t, p.CreateMessageContext):
            return self._visit_message(t)
        if isinstance(t, p.CreateStructContext):
            return self._visit_map(t)
        literal = self._visit_literal(t)
        if literal is not None:
            return literal
        if not self.errors.errors:
            name = "<<nil>>" if t is None else f"<<*gen.{type(t).__name__}>>"
            return self.report_error(NO_LOCATION, f"unknown parse element encountered: {name}")
        return ast.Unspecified(self.new_id(NO_LOCATION))

    def _counted(self, visit: Callable[..., ast.Expr], *args: Any) -> ast.Expr:
        self._enter()
        try:
            return visit(*args)
        finally:
            self.depth -= 1

    def _visit_expr(self, ctx: Any) -> ast.Expr:
        result = self.visit(ctx.e)
        if ctx.op is None:
            return result
        op_id = self.new_id(ctx.op)
        if_true = self.visit(ctx.e1)
        if_false = self.visit(ctx.e2)
        return self.call(op_id, "_?_:_", [result, if_true, if_false])

    def _visit_logic(self, ctx: Any, function: str, symbol: str) -> ast.Expr:
        result = self.visit(ctx.e)
        terms = [result]
        ops: list[int] = []
        rest = ctx.e1
        for i, op in enumerate(ctx.ops):
            if i >= len(rest):
                return self.report_error(ctx, f"unexpected character, wanted '{symbol}'")
            term = self.visit(rest[i])
            ops.append(self.new_id(op))
            terms.append(term)
        if len(terms) == 1:
            return terms[0]
        return _balanced(function, terms, ops, 0, len(ops) - 1)

    def _visit_binary(self, ctx: Any, left: Any, right: Any) -> ast.Expr:
        op_text = ctx.op.text if ctx.op is not None else ""
        function = _OPERATORS.get(op_text)
        if function is None:
            return self.report_error(ctx, "operator not found")
        lhs = self.visit(left)
        op_id = self.new_id(ctx.op)
        rhs = self.visit(right)
        return self.call(op_id, function, [lhs, rhs])

    def _visit_unary(self, ctx: Any, function: str) -> ast.Expr:
        if len(ctx.ops) % 2 == 0:
            return self.visit(ctx.member())
        op_id = self.new_id(ctx.ops[0])
        target = self.visit(ctx.member())
        return self.call(op_id, function, [target])

    def _escaped_name(self, ctx: Any) -> str:
        """cel-go v0.27's `normalizeIdent`: backquoted names are not enabled in Kubernetes."""
        if isinstance(ctx, self.grammar.EscapedIdentifierContext):
            self.report_error(ctx, "unsupported syntax: '`'")
            return ""
        return str(ctx.id_.text)

    def _visit_select(self, ctx: Any) -> ast.Expr:
        operand = self.visit(ctx.member())
        if ctx.id_ is None or ctx.op is None:
            return ast.Unspecified(self.new_id(ctx))
        name = self._escaped_name(ctx.id_) if self.syntax.modern else ctx.id_.text
        if ctx.opt is not None:
            field = self.literal(ctx.id_, "string", name)
            return ast.Call(self.new_id(ctx.op), "_?._", [operand, field])
        return ast.Select(self.new_id(ctx.op), operand, name)

    def _visit_member_call(self, ctx: Any) -> ast.Expr:
        operand = self.visit(ctx.member())
        if ctx.id_ is None:
            return ast.Unspecified(self.new_id(ctx))
        op_id = self.new_id(ctx.open_)
        return self.member_call(op_id, ctx.id_.text, operand, self._visit_expr_list(ctx.args))

    def _visit_index(self, ctx: Any) -> ast.Expr:
        target = self.visit(ctx.member())
        if ctx.op is None:
            return ast.Unspecified(self.new_id(ctx))
        op_id = self.new_id(ctx.op)
        index = self.visit(ctx.index)
        function = "_[?_]" if ctx.opt is not None else "_[_]"
        return self.call(op_id, function, [target, index])

    def _visit_message(self, ctx: Any) -> ast.Expr:
        name = ".".join(token.text for token in ctx.ids)
        if ctx.leadingDot is not None:
            name = "." + name
        obj_id = self.new_id(ctx.op)
        fields: list[ast.StructField] = []
        entries = ctx.entries
        if entries is not None:
            for i, optional_field in enumerate(entries.fields):
                if i >= len(entries.cols) or i >= len(entries.values):
                    fields = []
                    break
                init_id = self.new_id(entries.cols[i])
                if self.syntax.modern:
                    escaped = optional_field.escapeIdent()
                    if isinstance(escaped, self.grammar.EscapedIdentifierContext):
                        self.report_error(entries, "unsupported syntax: '`'")
                        continue
                    field_name = escaped.id_.text
                else:
                    identifier = optional_field.IDENTIFIER()
                    if identifier is None:
                        fields = []
                        break
                    field_name = identifier.getText()
                value = self.visit(entries.values[i])
                fields.append(ast.StructField(init_id, field_name, value, optional_field.opt is not None))
        return ast.CreateStruct(obj_id, name, fields)

    def _visit_ident_or_call(self, ctx: Any) -> ast.Expr:
        name = "." if ctx.leadingDot is not None else ""
        if ctx.id_ is None:
            return ast.Unspecified(self.new_id(ctx))
        identifier = ctx.id_.text
        if identifier in RESERVED_IDS:
            return self.report_error(ctx, f"reserved identifier: {identifier}")
        name += identifier
        if getattr(ctx, "op", None) is not None:
            op_id = self.new_id(ctx.op)
            return self.call(op_id, name, self._visit_expr_list(ctx.args))
        return ast.Ident(self.new_id(ctx.id_), name)

    def _visit_list(self, ctx: Any) -> ast.Expr:
        list_id = self.new_id(ctx.op)
        elements: list[ast.Expr] = []
        optionals: list[int] = []
        if ctx.elems is not None:
            for i, element in enumerate(ctx.elems.elems):
                elements.append(self.visit(element.e))
                if element.opt is not None:
                    optionals.append(i)
        return ast.CreateList(list_id, elements, optionals)

    def _visit_map(self, ctx: Any) -> ast.Expr:
        map_id = self.new_id(ctx.op)
        entries = self._visit_map_entries(ctx.entries) if ctx.entries is not None else []
        return ast.CreateMap(map_id, entries)

    def _visit_map_entries(self, ctx: Any) -> list[ast.MapEntry]:
        if ctx is None or not ctx.keys:
            return []
        entries: list[ast.MapEntry] = []
        for i, col in enumerate(ctx.cols):
            col_id = self.new_id(col)
            if i >= len(ctx.keys) or i >= len(ctx.values):
                return []
            optional_key = ctx.keys[i]
            key = self.visit(optional_key.e)
            value = self.visit(ctx.values[i])
            entries.append(ast.MapEntry(col_id, key, value, optional_key.opt is not None))
        return entries

    def _visit_expr_list(self, ctx: Any) -> list[ast.Expr]:
        if ctx is None:
            return []
        return [self.visit(e) for e in ctx.e]

    def _visit_literal(self, ctx: Any) -> ast.Expr | None:
        p = self.grammar
        if isinstance(ctx, p.IntContext):
            return self._visit_int(ctx)
        if isinstance(ctx, p.UintContext):
            return self._visit_uint(ctx)
        if isinstance(ctx, p.DoubleContext):
            text = (ctx.sign.text if ctx.sign is not None else "") + ctx.tok.text
            value = float(text)
            if math.isinf(value):
                # Go's strconv.ParseFloat reports ErrRange when the value overflows.
                return self.report_error(ctx, "invalid double literal")
            return self.literal(ctx, "double", value)
        if isinstance(ctx, p.StringContext):
            return self._visit_quoted(ctx, ctx.getText(), is_bytes=False)
        if isinstance(ctx, p.BytesContext):
            return self._visit_quoted(ctx, ctx.tok.text[1:], is_bytes=True)
        if isinstance(ctx, p.BoolTrueContext):
            return self.literal(ctx, "bool", True)
        if isinstance(ctx, p.BoolFalseContext):
            return self.literal(ctx, "bool", False)
        if isinstance(ctx, p.NullContext):
            return self.literal(ctx, "null", None)
        return None

    def _visit_int(self, ctx: Any) -> ast.Expr:
        text = ctx.tok.text
        base = 10
        if text.startswith("0x"):
            base, text = 16, text[2:]
        if ctx.sign is not None:
            text = ctx.sign.text + text
        value = int(text, base)
        if not -(2**63) <= value < 2**63:
            return self.report_error(ctx, "invalid int literal")
        return self.literal(ctx, "int", value)

    def _visit_uint(self, ctx: Any) -> ast.Expr:
        text = ctx.tok.text[:-1]
        base = 10
        if text.startswith("0x"):
            base, text = 16, text[2:]
        value = int(text, base)
        if value >= 2**64:
            return self.report_error(ctx, "invalid uint literal")
        return self.literal(ctx, "uint", value)

    def _visit_quoted(self, ctx: Any, text: str, *, is_bytes: bool) -> ast.Expr:
        try:
            value: object = unescape(text, is_bytes=is_bytes, valid_runes_only=self.syntax.modern)
        except ValueError as err:
            self.report_error(ctx, str(err))
            value = text.encode() if is_bytes else text
        return self.literal(ctx, "bytes" if is_bytes else "string", value)


def _unnest(tree: Any, p: Any = CELParser) -> Any:
    """cel-go's `unnest`: skip the single-child rule contexts down to the first real node."""
    while tree is not None:
        if isinstance(tree, p.ExprContext):
            if tree.op is not None:
                return tree
            tree = tree.e
        elif isinstance(tree, (p.ConditionalOrContext, p.ConditionalAndContext)):
            if tree.ops:
                return tree
            tree = tree.e
        elif isinstance(tree, p.RelationContext):
            if tree.op is not None:
                return tree
            tree = tree.calc()
        elif isinstance(tree, p.CalcContext):
            if tree.op is not None:
                return tree
            tree = tree.unary()
        elif isinstance(tree, p.MemberExprContext):
            tree = tree.member()
        elif isinstance(tree, p.PrimaryExprContext):
            tree = tree.primary()
        elif isinstance(tree, p.NestedContext):
            tree = tree.e
        elif isinstance(tree, p.ConstantLiteralContext):
            tree = tree.literal()
        else:
            return tree
    return tree


def _balanced(function: str, terms: list[ast.Expr], ops: list[int], lo: int, hi: int) -> ast.Expr:
    """cel-go's `logicManager.balancedTree`."""
    mid = (lo + hi + 1) // 2
    left = terms[mid] if mid == lo else _balanced(function, terms, ops, lo, mid - 1)
    right = terms[mid + 1] if mid == hi else _balanced(function, terms, ops, mid + 1, hi)
    return ast.Call(ops[mid], function, [left, right])
