"""CEL types as the cel-go checker sees them, with its unification rules.

Ports `common/types/types.go` (the parts the checker uses), `checker/types.go` (assignability,
substitution, the occurs check), `checker/mapping.go` and `FormatCELType`, whose output is the
type text inside checker messages (``list(int)``, ``map(string, kubernetes.Quantity)``,
``optional_type(int)``, ``!error!``, ``_var0``).
"""

from __future__ import annotations

import enum
from dataclasses import dataclass


class Kind(enum.Enum):
    ANY = enum.auto()
    BOOL = enum.auto()
    BYTES = enum.auto()
    DOUBLE = enum.auto()
    DURATION = enum.auto()
    DYN = enum.auto()
    ERROR = enum.auto()
    INT = enum.auto()
    LIST = enum.auto()
    MAP = enum.auto()
    NULL = enum.auto()
    OPAQUE = enum.auto()
    STRING = enum.auto()
    STRUCT = enum.auto()
    TIMESTAMP = enum.auto()
    TYPE = enum.auto()
    TYPE_PARAM = enum.auto()
    UINT = enum.auto()


@dataclass(frozen=True, slots=True)
class CelType:
    kind: Kind
    # cel-go's runtime type name: "int", "list", "google.protobuf.Duration", "kubernetes.Quantity", "A"
    name: str
    params: tuple[CelType, ...] = ()

    def __str__(self) -> str:
        return format_type(self)


ANY = CelType(Kind.ANY, "google.protobuf.Any")
BOOL = CelType(Kind.BOOL, "bool")
BYTES = CelType(Kind.BYTES, "bytes")
DOUBLE = CelType(Kind.DOUBLE, "double")
DURATION = CelType(Kind.DURATION, "google.protobuf.Duration")
DYN = CelType(Kind.DYN, "dyn")
ERROR = CelType(Kind.ERROR, "error")
INT = CelType(Kind.INT, "int")
NULL = CelType(Kind.NULL, "null_type")
STRING = CelType(Kind.STRING, "string")
TIMESTAMP = CelType(Kind.TIMESTAMP, "google.protobuf.Timestamp")
TYPE = CelType(Kind.TYPE, "type")
UINT = CelType(Kind.UINT, "uint")


def list_of(elem: CelType) -> CelType:
    return CelType(Kind.LIST, "list", (elem,))


def map_of(key: CelType, value: CelType) -> CelType:
    return CelType(Kind.MAP, "map", (key, value))


def type_of(t: CelType) -> CelType:
    return CelType(Kind.TYPE, "type", (t,))


def param(name: str) -> CelType:
    return CelType(Kind.TYPE_PARAM, name)


def optional_of(t: CelType) -> CelType:
    return CelType(Kind.OPAQUE, "optional_type", (t,))


def opaque(name: str, *params: CelType) -> CelType:
    return CelType(Kind.OPAQUE, name, params)


def object_type(name: str) -> CelType:
    """`cel.ObjectType`: a named message type (Kubernetes declares its library types this way)."""
    return CelType(Kind.STRUCT, name)


def function_type(result: CelType, args: tuple[CelType, ...]) -> CelType:
    return CelType(Kind.OPAQUE, "function", (result, *args))


_FIXED_NAMES = {
    Kind.ANY: "any",
    Kind.DURATION: "duration",
    Kind.ERROR: "!error!",
    Kind.NULL: "null",
    Kind.TIMESTAMP: "timestamp",
}


def format_type(t: CelType) -> str:
    """`checker.FormatCELType`."""
    fixed = _FIXED_NAMES.get(t.kind)
    if fixed is not None:
        return fixed
    if t.kind is Kind.TYPE_PARAM:
        return t.name
    if t.kind is Kind.OPAQUE and t.name == "function":
        return format_function(t.params[0], t.params[1:], member=False)
    if not t.params:
        return t.name
    return f"{t.name}({', '.join(format_type(p) for p in t.params)})"


def type_string(t: CelType) -> str:
    """`(*types.Type).String()`: the runtime type name with its parameters (``list(int)``,
    ``google.protobuf.Duration``, ``dyn``), as Kubernetes prints an output type."""
    if not t.params:
        return t.name
    return f"{t.name}({', '.join(type_string(p) for p in t.params)})"


def format_function(result: CelType | None, args: tuple[CelType, ...], *, member: bool) -> str:
    """`formatFunctionDeclType`: ``(int, string)``, ``string.(int)``, ``(int) -> bool``."""
    text = ""
    if member:
        text += format_type(args[0]) + "."
        args = args[1:]
    text += "(" + ", ".join(format_type(a) for a in args) + ")"
    if result is not None:
        text += " -> " + format_type(result)
    return text


# --- unification (checker/types.go) ------------------------------------------------------------


class Mapping:
    """Type-parameter substitutions (`checker/mapping.go`), keyed by the parameter's text."""

    __slots__ = ("subs",)

    def __init__(self, subs: dict[str, CelType] | None = None) -> None:
        self.subs = dict(subs) if subs else {}

    def find(self, t: CelType) -> CelType | None:
        return self.subs.get(format_type(t))

    def add(self, t: CelType, sub: CelType) -> None:
        self.subs[format_type(t)] = sub

    def copy(self) -> Mapping:
        return Mapping(self.subs)


def is_dyn(t: CelType) -> bool:
    return t.kind in (Kind.DYN, Kind.ANY)


def is_error(t: CelType) -> bool:
    return t.kind is Kind.ERROR


def is_dyn_or_error(t: CelType) -> bool:
    return is_error(t) or is_dyn(t)


def maybe_unwrap_optional(t: CelType) -> tuple[CelType, bool]:
    if t.kind is Kind.OPAQUE and t.name == "optional_type":
        return t.params[0], True
    return t, False


def _is_assignable_type(target: CelType, source: CelType) -> bool:
    """`(*types.Type).IsAssignableType`: `source` may be assigned to `target`."""
    if target == source or target.kind in (Kind.DYN, Kind.ANY):
        return True
    if (
        target.kind is not source.kind
        or target.name != source.name
        or len(target.params) != len(source.params)
    ):
        return False
    return all(_is_assignable_type(tp, sp) for tp, sp in zip(target.params, source.params, strict=True))


def _is_legacy_nullable(t: CelType) -> bool:
    return t.kind in (Kind.OPAQUE, Kind.STRUCT, Kind.ANY, Kind.DURATION, Kind.TIMESTAMP)


def _is_assignable_null(t: CelType) -> bool:
    return _is_legacy_nullable(t) or _is_assignable_type(t, NULL)


def is_equal_or_less_specific(t1: CelType, t2: CelType) -> bool:
    if is_dyn(t1) or t1.kind is Kind.TYPE_PARAM:
        return True
    if is_dyn(t2) or t2.kind is Kind.TYPE_PARAM:
        return False
    if t1.kind is not t2.kind:
        return False
    if t1.kind is Kind.OPAQUE:
        if t1.name != t2.name or len(t1.params) != len(t2.params):
            return False
        return all(is_equal_or_less_specific(a, b) for a, b in zip(t1.params, t2.params, strict=True))
    if t1.kind is Kind.LIST:
        return is_equal_or_less_specific(t1.params[0], t2.params[0])
    if t1.kind is Kind.MAP:
        return is_equal_or_less_specific(t1.params[0], t2.params[0]) and is_equal_or_less_specific(
            t1.params[1], t2.params[1]
        )
    if t1.kind is Kind.TYPE:
        return True
    return t1 == t2


def most_general(t1: CelType, t2: CelType) -> CelType:
    return t1 if is_equal_or_less_specific(t1, t2) else t2


def _not_referenced_in(m: Mapping, t: CelType, within: CelType) -> bool:
    if t == within:
        return False
    if within.kind is Kind.TYPE_PARAM:
        sub = m.find(within)
        return True if sub is None else _not_referenced_in(m, t, sub)
    if within.kind in (Kind.OPAQUE, Kind.LIST, Kind.MAP, Kind.TYPE):
        return all(_not_referenced_in(m, t, p) for p in within.params)
    return True


def _is_valid_type_substitution(m: Mapping, t1: CelType, t2: CelType) -> tuple[bool, bool]:
    if t1.kind is t2.kind and t1 == t2:
        return True, True
    t2_sub = m.find(t2)
    if t2_sub is not None:
        if t1.kind is t2_sub.kind and t1 == t2_sub:
            return True, True
        if _internal_is_assignable(m, t1, t2_sub):
            t2_new = most_general(t1, t2_sub)
            if _not_referenced_in(m, t2, t2_new):
                m.add(t2, t2_new)
            return True, True
        return False, True
    if _not_referenced_in(m, t2, t1):
        m.add(t2, t1)
        return True, False
    return False, False


_SIMPLE_KINDS = frozenset(
    {
        Kind.BOOL, Kind.BYTES, Kind.DOUBLE, Kind.INT, Kind.STRING, Kind.UINT, Kind.ANY,
        Kind.DURATION, Kind.TIMESTAMP, Kind.STRUCT,
    }
)  # fmt: skip


def _internal_is_assignable(m: Mapping, t1: CelType, t2: CelType) -> bool:
    """`internalIsAssignable`: `t1` may be assigned to `t2` (updating `m`)."""
    if t2.kind is Kind.TYPE_PARAM:
        valid, t2_has_sub = _is_valid_type_substitution(m, t1, t2)
        if valid:
            return True
        if t2_has_sub:
            return False
    if t1.kind is Kind.TYPE_PARAM:
        valid, _ = _is_valid_type_substitution(m, t2, t1)
        return valid
    if is_dyn_or_error(t1) or is_dyn_or_error(t2):
        return True
    if t1.kind is Kind.NULL:
        return _is_assignable_null(t2)
    if t2.kind is Kind.NULL:
        return _is_assignable_null(t1)
    if t1.kind in _SIMPLE_KINDS:
        return _is_assignable_type(t2, t1)
    if t1.kind is Kind.TYPE:
        return t2.kind is Kind.TYPE
    if t1.kind in (Kind.OPAQUE, Kind.LIST, Kind.MAP):
        return (
            t1.kind is t2.kind
            and t1.name == t2.name
            and _internal_is_assignable_list(m, t1.params, t2.params)
        )
    return False


def _internal_is_assignable_list(m: Mapping, l1: tuple[CelType, ...], l2: tuple[CelType, ...]) -> bool:
    if len(l1) != len(l2):
        return False
    return all(_internal_is_assignable(m, a, b) for a, b in zip(l1, l2, strict=True))


def is_assignable(m: Mapping, t1: CelType, t2: CelType) -> Mapping | None:
    copy = m.copy()
    return copy if _internal_is_assignable(copy, t1, t2) else None


def is_assignable_list(m: Mapping, l1: tuple[CelType, ...], l2: tuple[CelType, ...]) -> Mapping | None:
    copy = m.copy()
    return copy if _internal_is_assignable_list(copy, l1, l2) else None


def substitute(m: Mapping, t: CelType, type_param_to_dyn: bool) -> CelType:
    sub = m.find(t)
    if sub is not None:
        return substitute(m, sub, type_param_to_dyn)
    if type_param_to_dyn and t.kind is Kind.TYPE_PARAM:
        return DYN
    if t.kind in (Kind.OPAQUE, Kind.LIST, Kind.MAP) or (t.kind is Kind.TYPE and t.params):
        return CelType(t.kind, t.name, tuple(substitute(m, p, type_param_to_dyn) for p in t.params))
    return t


def type_params_of(t: CelType, into: list[str]) -> None:
    """Collect the names of the type parameters in `t` (for an overload's free parameters)."""
    if t.kind is Kind.TYPE_PARAM:
        if t.name not in into:
            into.append(t.name)
        return
    for p in t.params:
        type_params_of(p, into)
