"""The CEL expression tree the parser builds and the checker types (cel-go `common/ast`).

Every node has the numeric id cel-go would give it; the parser keeps each id's source offset, so
an error about a node is reported where cel-go reports it.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(eq=False, slots=True)
class Literal:
    id: int
    # "bool", "int", "uint", "double", "string", "bytes" or "null"
    kind: str
    value: object


@dataclass(eq=False, slots=True)
class Ident:
    id: int
    name: str


@dataclass(eq=False, slots=True)
class Select:
    id: int
    operand: Expr
    field: str
    test_only: bool = False


@dataclass(eq=False, slots=True)
class Call:
    id: int
    function: str
    args: list[Expr]
    target: Expr | None = None


@dataclass(eq=False, slots=True)
class CreateList:
    id: int
    elements: list[Expr]
    optional_indices: list[int] = field(default_factory=list)


@dataclass(eq=False, slots=True)
class MapEntry:
    id: int
    key: Expr
    value: Expr
    optional: bool = False


@dataclass(eq=False, slots=True)
class CreateMap:
    id: int
    entries: list[MapEntry]


@dataclass(eq=False, slots=True)
class StructField:
    id: int
    name: str
    value: Expr
    optional: bool = False


@dataclass(eq=False, slots=True)
class CreateStruct:
    id: int
    type_name: str
    fields: list[StructField]


@dataclass(eq=False, slots=True)
class Comprehension:
    id: int
    iter_var: str
    iter_range: Expr
    accu_var: str
    accu_init: Expr
    loop_condition: Expr
    loop_step: Expr
    result: Expr
    # The second variable of a two-variable comprehension (cel-go v0.27 ext.TwoVarComprehensions).
    iter_var2: str | None = None


@dataclass(eq=False, slots=True)
class Unspecified:
    """The empty node cel-go's parser leaves where a syntax error was found."""

    id: int


Expr = Literal | Ident | Select | Call | CreateList | CreateMap | CreateStruct | Comprehension | Unspecified


def children(expr: Expr) -> list[Expr]:
    """The direct sub-expressions of a node, in cel-go's navigation order."""
    if isinstance(expr, Select):
        return [expr.operand]
    if isinstance(expr, Call):
        return ([expr.target] if expr.target is not None else []) + list(expr.args)
    if isinstance(expr, CreateList):
        return list(expr.elements)
    if isinstance(expr, CreateMap):
        out: list[Expr] = []
        for entry in expr.entries:
            out += [entry.key, entry.value]
        return out
    if isinstance(expr, CreateStruct):
        return [f.value for f in expr.fields]
    if isinstance(expr, Comprehension):
        return [
            expr.iter_range,
            expr.accu_init,
            expr.loop_condition,
            expr.loop_step,
            expr.result,
        ]
    return []


def qualified_name(expr: Expr) -> str | None:
    """`containers.ToQualifiedName`: ``a.b.c`` for a chain of selects on an identifier."""
    if isinstance(expr, Ident):
        return expr.name
    if isinstance(expr, Select) and not expr.test_only:
        prefix = qualified_name(expr.operand)
        if prefix is not None:
            return f"{prefix}.{expr.field}"
    return None
