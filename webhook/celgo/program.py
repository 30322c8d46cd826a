"""What `env.Program` refuses in an expression that compiled: cel-go's planner with constant folding.

Kubernetes' base environment (apiserver `pkg/cel/environment/base.go`, 1.31 and 1.37) programs every
expression with `cel.EvalOptions(cel.OptOptimize, ...)`, and DRA's `CompileCELExpression`
(`dynamic-resource-allocation` `cel/compile.go`, v0.31.0 and the 1.37 line) builds the program right
after checking: an error there is ``program instantiation failed: <err>``, which `validateCELSelector`
reports as an Internal error. With optimisation on, cel-go's planner (`interpreter/planner.go`, the
decorators of `interpreter/decorators.go`: identical in v0.20.1 for 1.31 and v0.27.0 for 1.37)
plans the tree depth first, children before parents, and for each node, in this order:

* `decOptimize` turns a list or map literal whose elements are all constant into a constant, and
  evaluates a call of a type conversion (``bool bytes double duration dyn int string timestamp type
  uint``) on one constant argument (`maybeOptimizeConstUnary`): an error value fails the program
  with its message (``type conversion error from 'string' to 'int'``, ``integer overflow``...);
  a conversion that succeeds is itself a constant, so ``int(dyn("x"))`` folds and fails too;
* `decRegexOptimizer` compiles a constant string pattern (argument 1, the receiver counting as 0)
  of ``matches`` (cel-go) and of ``find``/``findAll`` (Kubernetes' regex library,
  `pkg/cel/library/regex.go`) with Go's `regexp.Compile`: its error fails the program;
* `planCallIndex` makes a constant index a qualifier: a constant that is not a string, int, uint,
  bool or double fails with ``invalid qualifier type: <Go type>`` (`attributes.go` `newQualifier`).

The first failure in planning order is the one reported. Identifiers naming types are constants
too (``dyn(int)``). A ``matches`` literal pattern is judged earlier, by the checker's validator.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from decimal import Decimal

from webhook.celgo import ast
from webhook.celgo.goregexp import go_regexp_error
from webhook.celgo.types import CelType, Kind
from webhook.celgo.validators import MAX_UNIX_SECONDS, MIN_UNIX_SECONDS, go_parse_duration
from webhook.field import go_float
from webhook.gotime import UNIX_EPOCH_SECONDS, GoTime, parse_rfc3339

CONVERSIONS = frozenset(
    {"bool", "bytes", "double", "duration", "dyn", "int", "string", "timestamp", "type", "uint"}
)
REGEX_FUNCTIONS = frozenset({"matches", "find", "findAll"})
INDEX_FUNCTIONS = frozenset({"_[_]", "_[?_]"})

TIMESTAMP = "google.protobuf.Timestamp"
DURATION = "google.protobuf.Duration"
# The Go types (`%T`) of the constant values `newQualifier` does not take.
_GO_VALUE_TYPES = {
    "null_type": "types.Null",
    "bytes": "types.Bytes",
    "list": "*types.baseList",
    "map": "*types.baseMap",
    TIMESTAMP: "types.Timestamp",
    DURATION: "types.Duration",
    "type": "*types.Type",
}
_QUALIFIER_TYPES = frozenset({"string", "int", "uint", "bool", "double"})
_INT64 = 1 << 63
_UINT64 = 1 << 64
# What strconv.ParseFloat reads besides inf and nan (Python's float() also takes spaces), its digit
# separators checked apart (`underscores_ok`).
_FLOAT_CHARACTERS = frozenset("0123456789.eE+-xXpPabcdfABCDF_")


@dataclass(frozen=True, slots=True)
class Value:
    """A constant as the planner holds it: its CEL type name (as Go prints it) and the data."""

    type_name: str
    data: object = None


class ProgramError(Exception):
    """`env.Program` failed with this message."""


def program_error(
    expr: ast.Expr, types: dict[int, CelType], *, regexp_unicode_aliases: bool = False
) -> str | None:
    """The error `env.Program` returns for the checked expression `expr`, or None."""
    try:
        _Planner(types, regexp_unicode_aliases).plan(expr)
    except ProgramError as err:
        return str(err)
    return None


class _Planner:
    def __init__(self, types: dict[int, CelType], regexp_unicode_aliases: bool) -> None:
        self.types = types
        self.regexp_unicode_aliases = regexp_unicode_aliases

    def plan(self, expr: ast.Expr, local: frozenset[str] = frozenset()) -> Value | None:
        """Plan `expr` and its children (`local`: the comprehension variables in scope); the constant
        it becomes, or None."""
        if isinstance(expr, ast.Literal):
            return _literal(expr)
        if isinstance(expr, ast.Call):
            operands = ([expr.target] if expr.target is not None else []) + expr.args
            return self.call(expr, [self.plan(operand, local) for operand in operands])
        if isinstance(expr, ast.CreateList):
            elements = [self.plan(element, local) for element in expr.elements]
            if expr.optional_indices or any(element is None for element in elements):
                return None
            return Value("list", tuple(elements))
        if isinstance(expr, ast.CreateMap):
            entries = [(self.plan(entry.key, local), self.plan(entry.value, local)) for entry in expr.entries]
            if any(entry.optional for entry in expr.entries) or any(None in entry for entry in entries):
                return None
            return Value("map", tuple(entries))
        if isinstance(expr, ast.Comprehension):
            # `planComprehension`: the accumulator's initial value first, then the range.
            self.plan(expr.accu_init, local)
            self.plan(expr.iter_range, local)
            inner = local | {expr.iter_var, expr.accu_var} | ({expr.iter_var2} if expr.iter_var2 else set())
            for part in (expr.loop_condition, expr.loop_step, expr.result):
                self.plan(part, inner)
            return None
        if isinstance(expr, ast.Select):
            if self._names_a_type(expr, local):
                return Value("type")
            self.plan(expr.operand, local)
            return None
        if isinstance(expr, ast.CreateStruct):
            for struct_field in expr.fields:
                self.plan(struct_field.value, local)
            return None
        if isinstance(expr, ast.Ident) and self._names_a_type(expr, local):
            return Value("type")  # `planCheckedIdent`: a type name is a constant type value
        return None

    def _names_a_type(self, expr: ast.Expr, local: frozenset[str]) -> bool:
        found = self.types.get(expr.id)
        name = ast.qualified_name(expr)
        return (
            found is not None
            and found.kind is Kind.TYPE
            and name is not None
            and name.split(".")[0] not in local
        )

    def call(self, expr: ast.Call, args: list[Value | None]) -> Value | None:
        if expr.function in INDEX_FUNCTIONS and len(args) == 2:
            index = args[1]
            if index is not None and index.type_name not in _QUALIFIER_TYPES:
                raise ProgramError(f"invalid qualifier type: {_GO_VALUE_TYPES[index.type_name]}")
            return None
        if expr.function in CONVERSIONS and len(args) == 1:
            argument = args[0]
            return None if argument is None else convert(expr.function, argument)
        if expr.function in REGEX_FUNCTIONS and len(args) > 1:
            pattern = args[1]
            if pattern is not None and pattern.type_name == "string":
                error = go_regexp_error(str(pattern.data), unicode_aliases=self.regexp_unicode_aliases)
                if error is not None:
                    raise ProgramError(error)
        return None


def _literal(literal: ast.Literal) -> Value:
    kind = literal.kind
    if kind == "null":
        return Value("null_type")
    return Value(kind, literal.value)


# --- type conversions (common/types/*.go `ConvertToType`, the standard library's overloads) -------

# Which argument types each conversion has an overload for (common/stdlib/standard.go).
_OVERLOADS = {
    "bool": frozenset({"bool", "string"}),
    "bytes": frozenset({"bytes", "string"}),
    "double": frozenset({"double", "int", "string", "uint"}),
    "duration": frozenset({DURATION, "int", "string"}),
    "int": frozenset({"int", "double", DURATION, "string", TIMESTAMP, "uint"}),
    "string": frozenset({"string", "bool", "bytes", "double", DURATION, "int", TIMESTAMP, "uint"}),
    "timestamp": frozenset({TIMESTAMP, "int", "string"}),
    "uint": frozenset({"uint", "double", "int", "string"}),
}
_TARGET_TYPES = {"duration": DURATION, "timestamp": TIMESTAMP}


def convert(function: str, value: Value) -> Value:
    """Evaluate the conversion `function(value)` as cel-go does; raise its error as ProgramError."""
    if function == "dyn":
        return value
    if function == "type":
        return Value("type")
    source = value.type_name
    if source not in _OVERLOADS[function]:
        # `decls.MaybeNoSuchOverload`: the dynamic dispatch found no overload for the argument.
        raise ProgramError(f"no such overload: {function}({source})")
    target = _TARGET_TYPES.get(function, function)
    if source == target:
        return value
    converter = _CONVERTERS.get((source, target))
    # Int.ConvertToType has no case for durations: duration(int) always fails.
    converted = None if converter is None else converter(value.data)
    if converted is None:
        raise ProgramError(f"type conversion error from '{source}' to '{target}'")
    return converted


def _int(data: object) -> int:
    assert isinstance(data, int)  # an int, uint or duration constant
    return data


def _float(data: object) -> float:
    assert isinstance(data, float)
    return data


def _int_from_string(text: object) -> Value | None:
    """strconv.ParseInt(s, 10, 64)."""
    digits = str(text)
    body = digits[1:] if digits[:1] in ("+", "-") else digits
    if not body or not body.isascii() or not body.isdigit():
        return None
    number = int(digits)
    return Value("int", number) if -_INT64 <= number < _INT64 else None


def _uint_from_string(text: object) -> Value | None:
    """strconv.ParseUint(s, 10, 64): digits only, no sign."""
    digits = str(text)
    if not digits or not digits.isascii() or not digits.isdigit():
        return None
    number = int(digits)
    return Value("uint", number) if number < _UINT64 else None


def go_parse_float(text: str) -> float | None:
    """strconv.ParseFloat(s, 64): None where Go returns an error (syntax, or out of range)."""
    body = text[1:] if text[:1] in ("+", "-") else text
    lowered = body.lower()
    if lowered in ("inf", "infinity") or (lowered == "nan" and body == text):
        return float(text)
    if not body or not set(body) <= _FLOAT_CHARACTERS or lowered.startswith(("inf", "nan")):
        return None
    if "_" in body:
        if not underscores_ok(text):
            return None
        text, lowered = text.replace("_", ""), lowered.replace("_", "")
    hexadecimal = lowered.startswith("0x")
    if hexadecimal and "p" not in lowered:
        return None  # a hexadecimal mantissa needs its p exponent
    try:
        number = float.fromhex(text) if hexadecimal else float(text)
    except (ValueError, OverflowError):
        return None
    return None if math.isinf(number) else number


def underscores_ok(text: str) -> bool:
    """strconv's `underscoreOK` (atoi.go): an underscore only between digits, or between a base
    prefix and a digit (Go's digit separators, which ParseFloat accepts: ``1_000.5``, ``0x_1p0``)."""
    saw = "^"  # ^ the start, 0 a digit or base prefix, _ an underscore, ! anything else
    body = text[1:] if text[:1] in ("+", "-") else text
    start, hexadecimal = 0, False
    if len(body) >= 2 and body[0] == "0" and body[1].lower() in ("b", "o", "x"):
        start, saw, hexadecimal = 2, "0", body[1].lower() == "x"
    for char in body[start:]:
        if "0" <= char <= "9" or (hexadecimal and "a" <= char.lower() <= "f"):
            saw = "0"
        elif char == "_":
            if saw != "0":
                return False
            saw = "_"
        elif saw == "_":
            return False
        else:
            saw = "!"
    return saw != "_"


def _double_from_string(text: object) -> Value | None:
    number = go_parse_float(str(text))
    return None if number is None else Value("double", number)


def _bool_from_string(text: object) -> Value | None:
    """strconv.ParseBool."""
    if text in ("1", "t", "T", "TRUE", "true", "True"):
        return Value("bool", True)
    if text in ("0", "f", "F", "FALSE", "false", "False"):
        return Value("bool", False)
    return None


def _int_from_double(number: object) -> Value:
    value = _float(number)
    if math.isnan(value) or math.isinf(value) or value <= -(2.0**63) or value >= 2.0**63:
        raise ProgramError("integer overflow")
    return Value("int", int(value))


def _uint_from_double(number: object) -> Value:
    value = _float(number)
    if math.isnan(value) or math.isinf(value) or value < 0 or value >= 2.0**64:
        raise ProgramError("unsigned integer overflow")
    return Value("uint", int(value))


def _uint_from_int(number: object) -> Value:
    value = _int(number)
    if value < 0:
        raise ProgramError("unsigned integer overflow")
    return Value("uint", value)


def _int_from_uint(number: object) -> Value:
    value = _int(number)
    if value >= _INT64:
        raise ProgramError("integer overflow")
    return Value("int", value)


def _timestamp_from_int(seconds: object) -> Value:
    value = _int(seconds)
    if not MIN_UNIX_SECONDS <= value <= MAX_UNIX_SECONDS:
        raise ProgramError("timestamp overflow")
    return Value(TIMESTAMP, GoTime(value + UNIX_EPOCH_SECONDS, 0))


def _timestamp_from_string(text: object) -> Value | None:
    instant = parse_rfc3339(str(text))
    if instant is None:
        return None
    if not MIN_UNIX_SECONDS <= instant.unix_seconds <= MAX_UNIX_SECONDS:
        raise ProgramError("timestamp overflow")
    return Value(TIMESTAMP, instant)


def _duration_from_string(text: object) -> Value | None:
    nanoseconds = go_parse_duration(str(text))
    return None if nanoseconds is None else Value(DURATION, nanoseconds)


def _string_from_bytes(data: object) -> Value:
    try:
        assert isinstance(data, bytes)
        return Value("string", data.decode("utf-8"))
    except UnicodeDecodeError:
        raise ProgramError("invalid UTF-8 in bytes, cannot convert to string") from None


def _duration_string(nanoseconds: object) -> Value:
    """strconv.FormatFloat(d.Seconds(), 'f', -1, 64) + "s"."""
    seconds = _int(nanoseconds) / 1e9
    text = format(Decimal(repr(seconds)), "f")
    if "." in text:
        text = text.rstrip("0").rstrip(".")
    return Value("string", text + "s")


def _instant(data: object) -> GoTime:
    assert isinstance(data, GoTime)
    return data


def _timestamp_string(data: object) -> Value:
    """Format(time.RFC3339Nano), in UTC (the offset a parsed timestamp kept changes no verdict)."""
    instant = _instant(data)
    text = instant.rfc3339_seconds()
    if instant.nanos:
        text = text[:-1] + f".{instant.nanos:09d}".rstrip("0") + "Z"
    return Value("string", text)


_CONVERTERS = {
    ("string", "int"): _int_from_string,
    ("string", "uint"): _uint_from_string,
    ("string", "double"): _double_from_string,
    ("string", "bool"): _bool_from_string,
    ("string", "bytes"): lambda text: Value("bytes", str(text).encode("utf-8", "surrogatepass")),
    ("string", DURATION): _duration_from_string,
    ("string", TIMESTAMP): _timestamp_from_string,
    ("double", "int"): _int_from_double,
    ("double", "uint"): _uint_from_double,
    ("double", "string"): lambda number: Value("string", go_float(_float(number))),
    ("int", "uint"): _uint_from_int,
    ("int", "double"): lambda number: Value("double", float(_int(number))),
    ("int", "string"): lambda number: Value("string", str(number)),
    ("int", TIMESTAMP): _timestamp_from_int,
    ("uint", "int"): _int_from_uint,
    ("uint", "double"): lambda number: Value("double", float(_int(number))),
    ("uint", "string"): lambda number: Value("string", str(number)),
    ("bool", "string"): lambda flag: Value("string", "true" if flag else "false"),
    ("bytes", "string"): _string_from_bytes,
    (DURATION, "int"): lambda nanoseconds: Value("int", nanoseconds),
    (DURATION, "string"): _duration_string,
    (TIMESTAMP, "int"): lambda instant: Value("int", _instant(instant).unix_seconds),
    (TIMESTAMP, "string"): _timestamp_string,
}
