"""The macros cel-go expands into comprehensions while parsing (`parser/macro.go`, and the `bind`,
two-variable and `sortBy` macros of its extension libraries): the standard library's (``has``,
``all``, ``exists``, ``exists_one``, ``map``, ``filter``), the optional library's (``optMap``,
``optFlatMap``), and the others an environment enables (`Syntax.macros`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Protocol

from webhook.celgo import ast
from webhook.celgo.source import Location

if TYPE_CHECKING:
    from webhook.celgo.parser import Syntax

ACCUMULATOR_NAME = "__result__"
# cel-go v0.27 names the accumulator so that no expression can refer to it.
HIDDEN_ACCUMULATOR_NAME = "@result"
UNUSED_ITER_VAR = "#unused"


class MacroError(Exception):
    """A macro matched but its arguments are malformed (`common.Error` from an expander)."""

    def __init__(self, message: str, location: Location | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.location = location


class MacroHost(Protocol):
    """What a macro needs of the parser that found it: new ids located in the source, the location
    of an id, and the syntax being parsed."""

    syntax: Syntax

    def new_id(self, location: Location) -> int: ...

    def location(self, expr_id: int) -> Location: ...


class MacroFactory:
    """cel-go's macro `ExprHelper`: every node it makes is located at the macro call."""

    def __init__(self, builder: MacroHost, location: Location) -> None:
        self.builder = builder
        self.syntax = builder.syntax
        self.accumulator = builder.syntax.accumulator
        self.at = location

    def next_id(self) -> int:
        return self.builder.new_id(self.at)

    def location_of(self, expr: ast.Expr) -> Location:
        return self.builder.location(expr.id)

    def argument_error(self, message: str, argument: ast.Expr) -> MacroError:
        """cel-go's `NewError(args[0].ID(), ...)`: v0.27 places it at the argument, v0.17 (for map
        and filter) at the call."""
        return MacroError(message, self.location_of(argument) if self.syntax.modern else None)

    def check_not_accumulator(self, name: str, argument: ast.Expr) -> None:
        if self.syntax.modern and name in (self.accumulator, ACCUMULATOR_NAME):
            raise MacroError("iteration variable overwrites accumulator variable", self.location_of(argument))

    def ident(self, name: str) -> ast.Ident:
        return ast.Ident(self.next_id(), name)

    def accu(self) -> ast.Ident:
        return self.ident(self.accumulator)

    def literal(self, kind: str, value: object) -> ast.Literal:
        return ast.Literal(self.next_id(), kind, value)

    def call(self, function: str, *args: ast.Expr) -> ast.Call:
        return ast.Call(self.next_id(), function, list(args))

    def member_call(self, function: str, target: ast.Expr, *args: ast.Expr) -> ast.Call:
        return ast.Call(self.next_id(), function, list(args), target)

    def new_list(self, *elements: ast.Expr) -> ast.CreateList:
        return ast.CreateList(self.next_id(), list(elements))

    def new_map(self) -> ast.CreateMap:
        return ast.CreateMap(self.next_id(), [])

    def fold(
        self,
        iter_var: str,
        iter_range: ast.Expr,
        accu_var: str,
        accu_init: ast.Expr,
        condition: ast.Expr,
        step: ast.Expr,
        result: ast.Expr,
        iter_var2: str | None = None,
    ) -> ast.Comprehension:
        return ast.Comprehension(
            self.next_id(), iter_var, iter_range, accu_var, accu_init, condition, step, result, iter_var2
        )


_Expander = Callable[[MacroFactory, ast.Expr | None, list[ast.Expr]], ast.Expr | None]


def _has(f: MacroFactory, target: ast.Expr | None, args: list[ast.Expr]) -> ast.Expr:
    arg = args[0]
    if isinstance(arg, ast.Select):
        return ast.Select(f.next_id(), arg.operand, arg.field, test_only=True)
    # cel-go (v0.17.8 to v0.27.0, parser/macro.go MakeHas): eh.NewError(args[0].ID(), ...), at the
    # argument; the 1.30 port reports it at the call and keeps doing so.
    raise MacroError(
        "invalid argument to has() macro", f.location_of(arg) if f.syntax.has_error_at_argument else None
    )


def _quantifier_parts(
    f: MacroFactory, kind: str, predicate: ast.Expr
) -> tuple[ast.Expr, ast.Expr, ast.Expr, ast.Expr]:
    """accuInit, loopCondition, loopStep and result of all / exists / exists_one."""
    if kind == "all":
        return (
            f.literal("bool", True),
            f.call("@not_strictly_false", f.accu()),
            f.call("_&&_", f.accu(), predicate),
            f.accu(),
        )
    if kind == "exists":
        return (
            f.literal("bool", False),
            f.call("@not_strictly_false", f.call("!_", f.accu())),
            f.call("_||_", f.accu(), predicate),
            f.accu(),
        )
    init = f.literal("int", 0)
    condition = f.literal("bool", True)
    step = f.call("_?_:_", predicate, f.call("_+_", f.accu(), f.literal("int", 1)), f.accu())
    return init, condition, step, f.call("_==_", f.accu(), f.literal("int", 1))


def _quantifier(kind: str) -> _Expander:
    def expand(f: MacroFactory, target: ast.Expr | None, args: list[ast.Expr]) -> ast.Expr:
        variable = args[0]
        if not isinstance(variable, ast.Ident):
            raise MacroError("argument must be a simple name", f.location_of(variable))
        f.check_not_accumulator(variable.name, variable)
        assert target is not None
        init, condition, step, result = _quantifier_parts(f, kind, args[1])
        return f.fold(variable.name, target, f.accumulator, init, condition, step, result)

    return expand


def _map(f: MacroFactory, target: ast.Expr | None, args: list[ast.Expr]) -> ast.Expr:
    variable = args[0]
    if not isinstance(variable, ast.Ident):
        raise f.argument_error("argument is not an identifier", variable)
    f.check_not_accumulator(variable.name, variable)
    assert target is not None
    filter_expr, transform = (args[1], args[2]) if len(args) == 3 else (None, args[1])
    accumulator = f.accu()
    init = f.new_list()
    condition = f.literal("bool", True)
    step: ast.Expr = f.call("_+_", accumulator, f.new_list(transform))
    if filter_expr is not None:
        step = f.call("_?_:_", filter_expr, step, f.accu() if f.syntax.modern else accumulator)
    result = f.accu() if f.syntax.modern else accumulator
    return f.fold(variable.name, target, f.accumulator, init, condition, step, result)


def _filter(f: MacroFactory, target: ast.Expr | None, args: list[ast.Expr]) -> ast.Expr:
    variable = args[0]
    if not isinstance(variable, ast.Ident):
        raise f.argument_error("argument is not an identifier", variable)
    f.check_not_accumulator(variable.name, variable)
    assert target is not None
    accumulator = f.accu()
    init = f.new_list()
    condition = f.literal("bool", True)
    step: ast.Expr = f.call("_+_", accumulator, f.new_list(variable))
    step = f.call("_?_:_", args[1], step, f.accu() if f.syntax.modern else accumulator)
    result = f.accu() if f.syntax.modern else accumulator
    return f.fold(variable.name, target, f.accumulator, init, condition, step, result)


def _opt_map(flat: bool) -> _Expander:
    name = "optFlatMap" if flat else "optMap"

    def expand(f: MacroFactory, target: ast.Expr | None, args: list[ast.Expr]) -> ast.Expr:
        variable = args[0]
        if not isinstance(variable, ast.Ident):
            raise MacroError(f"{name}() variable name must be a simple identifier", f.location_of(variable))
        assert target is not None
        comprehension: ast.Expr = f.fold(
            UNUSED_ITER_VAR,
            f.new_list(),
            variable.name,
            f.member_call("value", target),
            f.literal("bool", False),
            f.ident(variable.name),
            args[1],
        )
        if not flat:
            comprehension = f.call("optional.of", comprehension)
        return f.call("_?_:_", f.member_call("hasValue", target), comprehension, f.call("optional.none"))

    return expand


def _bind(f: MacroFactory, target: ast.Expr | None, args: list[ast.Expr]) -> ast.Expr | None:
    """ext.Bindings: ``cel.bind(name, init, expr)``; any other receiver is not the macro."""
    if not (isinstance(target, ast.Ident) and target.name == "cel"):
        return None
    variable = args[0]
    if not isinstance(variable, ast.Ident):
        raise MacroError("cel.bind() variable names must be simple identifiers", f.location_of(variable))
    return f.fold(
        UNUSED_ITER_VAR,
        f.new_list(),
        variable.name,
        args[1],
        f.literal("bool", False),
        f.ident(variable.name),
        args[2],
    )


def _iter_vars(f: MacroFactory, first: ast.Expr, second: ast.Expr) -> tuple[str, str]:
    """ext/comprehensions.go `extractIterVars`."""
    for argument in (first, second):
        if not isinstance(argument, ast.Ident):
            raise MacroError("argument must be a simple name", f.location_of(argument))
    assert isinstance(first, ast.Ident) and isinstance(second, ast.Ident)
    if first.name == second.name:
        raise MacroError(f"duplicate variable name: {first.name}", f.location_of(second))
    for argument, name in ((first, first.name), (second, second.name)):
        if name in (f.accumulator, ACCUMULATOR_NAME):
            raise MacroError("iteration variable overwrites accumulator variable", f.location_of(argument))
    return first.name, second.name


def _two_var_quantifier(kind: str) -> _Expander:
    def expand(f: MacroFactory, target: ast.Expr | None, args: list[ast.Expr]) -> ast.Expr:
        var1, var2 = _iter_vars(f, args[0], args[1])
        assert target is not None
        init, condition, step, result = _quantifier_parts(f, kind, args[2])
        return f.fold(var1, target, f.accumulator, init, condition, step, result, var2)

    return expand


def _transform(kind: str) -> _Expander:
    def expand(f: MacroFactory, target: ast.Expr | None, args: list[ast.Expr]) -> ast.Expr:
        var1, var2 = _iter_vars(f, args[0], args[1])
        assert target is not None
        filter_expr, transform = (args[2], args[3]) if len(args) == 4 else (None, args[2])
        init: ast.Expr
        if kind == "list":
            step: ast.Expr = f.call("_+_", f.accu(), f.new_list(transform))
            init = f.new_list()
        elif kind == "map":
            step = f.call("cel.@mapInsert", f.accu(), f.ident(var1), transform)
            init = f.new_map()
        else:
            step = f.call("cel.@mapInsert", f.accu(), transform)
            init = f.new_map()
        if filter_expr is not None:
            step = f.call("_?_:_", filter_expr, step, f.accu())
        return f.fold(var1, target, f.accumulator, init, f.literal("bool", True), step, f.accu(), var2)

    return expand


_SORTABLE_TARGETS = (ast.CreateList, ast.Select, ast.Ident, ast.Comprehension, ast.Call)


def _sort_by(f: MacroFactory, target: ast.Expr | None, args: list[ast.Expr]) -> ast.Expr:
    """ext.Lists v2+ `sortBy`: binds the target, maps it to keys, sorts by them."""
    assert target is not None
    input_name = "@__sortBy_input__"
    bound = f.ident(input_name)
    if not isinstance(target, _SORTABLE_TARGETS):
        raise MacroError(
            "sortBy can only be applied to a list, identifier, comprehension, call or select expression",
            f.location_of(target),
        )
    keys = _map(f, f.ident(input_name), args)
    sort = f.member_call("@sortByAssociatedKeys", f.ident(input_name), keys)
    return f.fold(UNUSED_ITER_VAR, f.new_list(), input_name, target, f.literal("bool", False), bound, sort)


# Which macro library a macro belongs to: every environment has the standard and optional ones,
# cel-go v0.27 adds `existsOne` to the standard ones.
STANDARD_MACROS = frozenset({"standard", "optional"})
MODERN_MACROS = frozenset({"standard", "optional", "v0.27"})

# (function, argument count, is a receiver call) -> (library, expander)
MACROS: dict[tuple[str, int, bool], tuple[str, _Expander]] = {
    ("has", 1, False): ("standard", _has),
    ("all", 2, True): ("standard", _quantifier("all")),
    ("exists", 2, True): ("standard", _quantifier("exists")),
    ("exists_one", 2, True): ("standard", _quantifier("exists_one")),
    ("existsOne", 2, True): ("v0.27", _quantifier("exists_one")),
    ("map", 2, True): ("standard", _map),
    ("map", 3, True): ("standard", _map),
    ("filter", 2, True): ("standard", _filter),
    ("optMap", 2, True): ("optional", _opt_map(flat=False)),
    ("optFlatMap", 2, True): ("optional", _opt_map(flat=True)),
    ("bind", 3, True): ("bind", _bind),
    ("all", 3, True): ("two_var", _two_var_quantifier("all")),
    ("exists", 3, True): ("two_var", _two_var_quantifier("exists")),
    ("existsOne", 3, True): ("two_var", _two_var_quantifier("exists_one")),
    ("exists_one", 3, True): ("two_var", _two_var_quantifier("exists_one")),
    ("transformList", 3, True): ("two_var", _transform("list")),
    ("transformList", 4, True): ("two_var", _transform("list")),
    ("transformMap", 3, True): ("two_var", _transform("map")),
    ("transformMap", 4, True): ("two_var", _transform("map")),
    ("transformMapEntry", 3, True): ("two_var", _transform("entry")),
    ("transformMapEntry", 4, True): ("two_var", _transform("entry")),
    ("sortBy", 2, True): ("sort_by", _sort_by),
}
