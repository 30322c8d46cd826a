"""The static cost estimate Kubernetes 1.37 limits CEL device selectors with.

`dynamic-resource-allocation/cel/compile.go` (1.37) calls `env.EstimateCost(ast, estimator)` on
every compiled selector and `validateCELSelector` rejects one whose `Max` exceeds
`resource.CELSelectorExpressionMaxCost` (1,000,000). This module ports what that computes:

* cel-go v0.27.0 `checker/cost.go` (`Cost`, the `coster`): the cost of literals, identifiers,
  selections, list/map/message creation, comprehensions and `cel.bind`, the built-in call
  estimates (string traversal, `in`, `matches`, `contains`, `==`, `+`, `&&`/`||`, `?:`, ...), the
  size bookkeeping (computed sizes, list and map entry sizes, paths such as ``device.attributes
  .@values.@values``, local variables of comprehensions);
* the cost options of the environment: `PresenceTestHasCost(false)` (the Kubernetes base
  environment), ext.Sets' and ext.Lists v3's overload estimators;
* apiserver 0.37 `library.CostEstimator.EstimateCallCost` (the Kubernetes libraries: lists,
  strings, regex, URLs, IP/CIDR, quantity, semver, format, authz);
* DRA's `sizeEstimator`: the maximum sizes of what `device` holds, read from the newest device
  type whatever the environment (driver 63, attribute domain 63, id 32, at most 32 attributes and
  32 capacities, an attribute value 64, `allowMultipleAllocations` 1).

Where it is not exact: Go builds paths with `append` on shared slices, so two selections from the
same local variable can alias one path element; the device's attribute maps resolve every name to
the same size, so this can only change an estimate for a `cel.bind` or comprehension variable bound
to the device itself and selected twice. Costs are integers saturating at 2**64-1 as Go's uint64.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Protocol

from webhook.celgo import ast
from webhook.celgo import types as t
from webhook.celgo.compiler import Compilation
from webhook.celgo.decls import Environment
from webhook.celgo.macros import ACCUMULATOR_NAME, HIDDEN_ACCUMULATOR_NAME
from webhook.celgo.types import CelType, Kind

MAX_U64 = 2**64 - 1
_TWO_TO_64 = 2.0**64

# cel-go common/cost.go
SELECT_AND_IDENT_COST = 1
CONST_COST = 0
LIST_CREATE_BASE_COST = 10
MAP_CREATE_BASE_COST = 30
STRUCT_CREATE_BASE_COST = 40
STRING_TRAVERSAL_COST_FACTOR = 0.1
REGEX_STRING_LENGTH_COST_FACTOR = 0.25
# apiserver pkg/cel/limits.go
MAX_FORMAT_SIZE = 64
MAX_NAME_FORMAT_REGEX_SIZE = 128

Range = tuple[int, int]  # (min, max): a SizeEstimate or a CostEstimate
UNKNOWN_SIZE: Range = (0, MAX_U64)


class _Clock(Protocol):
    def check(self) -> None: ...


def _add(x: int, y: int) -> int:
    return MAX_U64 if y > 0 and x > MAX_U64 - y else x + y


def _mul(x: int, y: int) -> int:
    return MAX_U64 if y != 0 and x > MAX_U64 // y else x * y


def _mul_factor(x: int, y: float) -> int:
    """`multiplyByCostFactor`, in float64 as Go computes it."""
    xf = float(x)
    if xf > 0 and y > 0 and xf > float(MAX_U64) / y:
        return MAX_U64
    ceil = math.ceil(xf * y)
    return MAX_U64 if ceil >= _TWO_TO_64 else int(ceil)


def add(a: Range, b: Range) -> Range:
    return _add(a[0], b[0]), _add(a[1], b[1])


def multiply(a: Range, b: Range) -> Range:
    return _mul(a[0], b[0]), _mul(a[1], b[1])


def by_factor(a: Range, factor: float) -> Range:
    return _mul_factor(a[0], factor), _mul_factor(a[1], factor)


def union(a: Range, b: Range) -> Range:
    return min(a[0], b[0]), max(a[1], b[1])


def fixed(value: int) -> Range:
    return value, value


@dataclass(frozen=True, slots=True)
class EntrySize:
    """`entrySizeEstimate`: the key and value sizes of a list or map literal (or what one built)."""

    container: Kind
    key: Range
    value: Range


def _union_entries(a: EntrySize | None, b: EntrySize | None) -> EntrySize | None:
    if a is None or b is None:
        return None
    return EntrySize(a.container, union(a.key, b.key), union(a.value, b.value))


@dataclass(slots=True)
class Node:
    """`checker.AstNode`: what an estimator sees of an argument or receiver."""

    path: list[str] | None
    type: CelType
    expr: ast.Expr | None
    computed_size: Range | None


@dataclass(slots=True)
class _LocalVar:
    path: list[str]
    size: Range | None
    entry_size: EntrySize | None


# --- the DRA device's sizes (sizeEstimator of dynamic-resource-allocation/cel, 1.37) -----------


@dataclass(frozen=True, slots=True)
class DeclSize:
    """The parts of an apiserver `DeclType` the size estimator reads."""

    max_elements: int = 0
    fields: tuple[tuple[str, DeclSize], ...] = ()
    key: DeclSize | None = None
    elem: DeclSize | None = None

    def field(self, name: str) -> DeclSize | None:
        for field_name, size in self.fields:
            if field_name == name:
                return size
        return None


# resource/v1 (1.37): ResourceSliceMaxAttributesAndCapacitiesPerDevice, DeviceMaxDomainLength,
# DeviceMaxIDLength, DriverNameMaxLength, max(DeviceAttributeMaxValueLength,
# ResourceSliceMaxAttributeValuesPerDevice).
_PER_DEVICE = 32
_DOMAIN = DeclSize(63)
_ID = DeclSize(32)
ATTRIBUTE = DeclSize(max(64, 48))
_QUANTITY = DeclSize(0)
DEVICE = DeclSize(
    0,
    (
        ("allowMultipleAllocations", DeclSize(1)),
        ("driver", DeclSize(63)),
        (
            "attributes",
            DeclSize(_PER_DEVICE, key=_DOMAIN, elem=DeclSize(_PER_DEVICE, key=_ID, elem=ATTRIBUTE)),
        ),
        (
            "capacity",
            DeclSize(_PER_DEVICE, key=_DOMAIN, elem=DeclSize(_PER_DEVICE, key=_ID, elem=_QUANTITY)),
        ),
    ),
)


def device_size(path: list[str] | None) -> Range | None:
    """`sizeEstimator.EstimateSize`: the maximum size of what a path under `device` holds."""
    if not path or path[0] != "device":
        return None
    current = DEVICE
    for name in path[1:]:
        if name in ("@items", "@values"):
            if current.elem is None:
                return None
            current = current.elem
        elif name == "@keys":
            if current.key is None:
                return None
            current = current.key
        else:
            found = current.field(name)
            if found is None:
                # Every element of an attribute map has the attribute's maximum size.
                if current.elem is ATTRIBUTE:
                    current = ATTRIBUTE
                    continue
                return None
            current = found
    return 0, current.max_elements


# --- the Kubernetes libraries' estimates (apiserver library.CostEstimator, 0.37) ---------------


def _size_estimate(node: Node) -> Range:
    if node.computed_size is not None:
        return node.computed_size
    found = device_size(node.path)
    return found if found is not None else UNKNOWN_SIZE


def _list_element(node: Node) -> Node | None:
    if not node.type.params:
        return None
    path = None if node.path is None else [*node.path, "@items"]
    return Node(path, node.type.params[0], None, None)


def _selector_cost(length: Range) -> Range:
    parse = by_factor(length, STRING_TRAVERSAL_COST_FACTOR)
    requirements = by_factor(by_factor(length, 0.5), float(LIST_CREATE_BASE_COST + STRUCT_CREATE_BASE_COST))
    return add(add(fixed(LIST_CREATE_BASE_COST), parse), requirements)


_O1_STRUCTS = frozenset(
    {
        "kubernetes.Quantity", "kubernetes.authorization.Authorizer", "kubernetes.authorization.PathCheck",
        "kubernetes.authorization.GroupCheck", "kubernetes.authorization.ResourceCheck",
        "kubernetes.authorization.Decision", "kubernetes.Semver",
    }
)  # fmt: skip


def kubernetes_call_cost(
    function: str, overload_id: str, target: Node | None, args: list[Node]
) -> tuple[Range, Range | None] | None:
    """`library.CostEstimator.EstimateCallCost`: (cost, result size) or None (not estimated)."""
    stf = STRING_TRAVERSAL_COST_FACTOR
    if function == "check":
        return fixed(350000), None
    if function in (
        "serviceAccount", "path", "group", "resource", "subresource", "namespace", "name", "allowed",
        "reason", "error", "errored",
    ):  # fmt: skip
        return fixed(1), None
    if function in ("fieldSelector", "labelSelector"):
        if len(args) == 1:
            return _selector_cost(_size_estimate(args[0])), None
    elif function in ("isSorted", "sum", "max", "min", "indexOf", "lastIndexOf", "includes"):
        if target is not None:
            element_cost = fixed(1)
            element = _list_element(target)
            if element is not None:
                if element.type.kind in (Kind.STRING, Kind.BYTES):
                    element_cost = add(element_cost, by_factor(_size_estimate(element), stf))
                return multiply(_size_estimate(target), element_cost), None
            if function == "includes":
                return multiply(_size_estimate(target), element_cost), None
            return by_factor(_size_estimate(target), stf), None
    elif function in ("url", "jsonpatch.escapeKey"):
        if len(args) == 1:
            size = _size_estimate(args[0])
            return by_factor(size, stf), size
    elif function in ("lowerAscii", "upperAscii", "substring", "trim"):
        if target is not None:
            size = _size_estimate(target)
            return by_factor(size, stf), size
    elif function == "replace":
        if target is not None and len(args) >= 2:
            return _replace_cost(_size_estimate(target), _size_estimate(args[0]), _size_estimate(args[1]))
    elif function == "split":
        if target is not None:
            size = _size_estimate(target)
            most = size[1]
            if len(args) > 1:
                limit = args[1].expr
                if isinstance(limit, ast.Literal) and limit.kind == "int":
                    most = int(str(limit.value)) % 2**64
            return by_factor(size, 2 * stf), (0, most)
    elif function == "join":
        if target is not None:
            return _join_cost(target, args)
    elif function in ("find", "findAll"):
        if target is not None and len(args) >= 1:
            size = _size_estimate(target)
            text = by_factor(add(size, fixed(1)), stf)
            regex = by_factor(_size_estimate(args[0]), REGEX_STRING_LENGTH_COST_FACTOR)
            return multiply(text, regex), (0, size[1])
    elif function in ("cidr", "isIP", "isCIDR"):
        if len(args) >= 1:
            return by_factor(_size_estimate(args[0]), stf), None
    elif function == "ip":
        if overload_id == "cidr_ip":
            return fixed(1), None
        if len(args) >= 1:
            return by_factor(_size_estimate(args[0]), stf), None
    elif function == "ip.isCanonical":
        if len(args) >= 1:
            return by_factor(_size_estimate(args[0]), 2 * stf), None
    elif function in (
        "masked", "prefixLength", "family", "isUnspecified", "isLoopback", "isLinkLocalMulticast",
        "isLinkLocalUnicast", "isGlobalUnicast",
    ):  # fmt: skip
        return fixed(1), None
    elif function in ("containsIP", "containsCIDR"):
        if len(args) >= 1:
            ip = (4, 16)
            cost = by_factor(add(ip, ip), stf)
            if function == "containsCIDR":
                cost = add(add(cost, by_factor(ip, stf)), fixed(1))
            if overload_id in ("cidr_contains_ip_string", "cidr_contains_cidr_string"):
                cost = add(cost, by_factor(_size_estimate(args[0]), stf))
            return cost, None
    elif function in ("quantity", "isQuantity", "semver", "isSemver"):
        if len(args) >= 1:
            return by_factor(_size_estimate(args[0]), stf), None
    elif function == "validate":
        if len(args) >= 1:
            cost = by_factor(_size_estimate(args[0]), stf)
            return by_factor(cost, MAX_NAME_FORMAT_REGEX_SIZE * REGEX_STRING_LENGTH_COST_FACTOR), None
    elif function in (
        "format.named", "sign", "asInteger", "isInteger", "asApproximateFloat", "isGreaterThan",
        "isLessThan", "compareTo", "add", "sub", "major", "minor", "patch", "getScheme", "getHostname",
        "getHost", "getPort", "getEscapedPath", "getQuery",
    ):  # fmt: skip
        return fixed(1), None
    elif function == "_==_" and len(args) == 2:
        return _equality_cost(args[0], args[1])
    return None


def _replace_cost(size: Range, to_replace: Range, replace_with: Range) -> tuple[Range, Range]:
    if to_replace[0] == 0:
        count_max = size[1] + 1 if size[1] < MAX_U64 else size[1]
        retained_max = size[1]
    elif replace_with[1] <= to_replace[0]:
        count_max, retained_max = 0, size[1]
    else:
        count_max, retained_max = math.ceil(float(size[1]) / float(to_replace[0])), 0
    if to_replace[1] == 0:
        count_min = size[0] + 1 if size[0] < MAX_U64 else size[0]
        retained_min = size[0]
    elif to_replace[1] <= replace_with[0]:
        count_min, retained_min = 0, size[0]
    else:
        count_min, retained_min = math.ceil(float(size[0]) / float(to_replace[1])), 0
    result = add(multiply((count_min, count_max), replace_with), (retained_min, retained_max))
    return by_factor(size, 2 * STRING_TRAVERSAL_COST_FACTOR), result


def _join_cost(target: Node, args: list[Node]) -> tuple[Range, Range]:
    size: Range = (0, 0)
    list_size = _size_estimate(target)
    element = _list_element(target)
    if element is not None:
        size = multiply(list_size, _size_estimate(element))
    if args:
        separators = (max(list_size[0] - 1, 0), max(list_size[1] - 1, 0))
        size = add(size, multiply(_size_estimate(args[0]), separators))
    return by_factor(size, STRING_TRAVERSAL_COST_FACTOR), size


def _equality_cost(lhs: Node, rhs: Node) -> tuple[Range, Range | None] | None:
    if lhs.type != rhs.type:
        return None
    kind, name = lhs.type.kind, lhs.type.name
    if kind is Kind.OPAQUE and name in ("net.IP", "net.CIDR"):
        return fixed(1), None
    if kind is Kind.STRUCT:
        if name in _O1_STRUCTS:
            return fixed(1), None
        if name == "kubernetes.NamedFormat":
            return by_factor((1, MAX_FORMAT_SIZE), STRING_TRAVERSAL_COST_FACTOR), None
        if name == "kubernetes.URL":
            # apiserver reads the right-hand size twice (`lhSize := rhs.ComputedSize()`).
            size = (1, 1) if rhs.computed_size is None else rhs.computed_size
            return by_factor((1, size[1]), STRING_TRAVERSAL_COST_FACTOR), None
    return None


# --- the extension libraries' overload estimators (cel-go v0.27 ext.Sets, ext.Lists v3) --------


def _int_literal(node: Node, default: int) -> int:
    """ext/lists.go `nodeAsIntValue`."""
    if not (isinstance(node.expr, ast.Literal) and node.expr.kind == "int"):
        return default
    value = int(str(node.expr.value))
    return max(value, 0)


def _allocating_list_call(factor: float, size: Range) -> tuple[Range, Range]:
    cost = add(add(by_factor(size, factor), fixed(1)), fixed(LIST_CREATE_BASE_COST))
    return cost, size


def overload_estimate(
    overload_id: str, target: Node | None, args: list[Node]
) -> tuple[Range, Range | None] | None:
    if overload_id in ("list_sets_contains_list", "list_sets_intersects_list", "list_sets_equivalent_list"):
        if len(args) != 2:
            return None
        factor = 2.0 if overload_id == "list_sets_equivalent_list" else 1.0
        return add(
            by_factor(multiply(_size_estimate(args[0]), _size_estimate(args[1])), factor), fixed(1)
        ), None
    if overload_id == "list_slice":
        if target is None or len(args) != 2:
            return None
        size = _size_estimate(target)
        start, end = _int_literal(args[0], 0), _int_literal(args[1], size[1])
        return _allocating_list_call(1, fixed((end - start) % 2**64))
    if overload_id in ("list_flatten", "list_flatten_int"):
        if target is None or len(args) > 1:
            return None
        depth = _int_literal(args[0], MAX_U64) if args else 1
        return _allocating_list_call(float(depth), _size_estimate(target))
    if overload_id == "lists_range":
        if target is not None or len(args) != 1:
            return None
        return _allocating_list_call(1, fixed(_int_literal(args[0], MAX_U64)))
    if overload_id == "list_reverse":
        if target is None or args:
            return None
        return _allocating_list_call(1, _size_estimate(target))
    if overload_id == "list_distinct":
        if target is None or args:
            return None
        size = _size_estimate(target)
        return _allocating_list_call(2.0, multiply(size, size))
    for type_name in ("string", "bytes", "int", "uint", "double", "bool", "google.protobuf.Duration",
                      "google.protobuf.Timestamp"):  # fmt: skip
        factor = 2.0 + (STRING_TRAVERSAL_COST_FACTOR if type_name in ("string", "bytes") else 0.0)
        if overload_id == f"list_{type_name}_sort":
            if target is None or args:
                return None
            size = _size_estimate(target)
            return _allocating_list_call(factor, multiply(size, size))
        if overload_id == f"list_{type_name}_sortByAssociatedKeys":
            if target is None or len(args) != 1:
                return None
            size = _size_estimate(args[0])
            return _allocating_list_call(factor, multiply(size, size))
    return None


# --- cel-go's coster ----------------------------------------------------------------------------

_COMPARISONS = frozenset(
    {
        "less_string", "greater_string", "less_equals_string", "greater_equals_string", "less_bytes",
        "greater_bytes", "less_equals_bytes", "greater_equals_bytes", "equals", "not_equals",
    }
)  # fmt: skip


class Coster:
    """cel-go's `coster` over one compiled expression."""

    def __init__(self, compiled: Compilation, deadline: _Clock | None = None) -> None:
        assert compiled.parsed is not None and compiled.types is not None and compiled.overloads is not None
        self.types = compiled.types
        self.overloads = compiled.overloads
        self.namespaced = compiled.namespaced
        self.deadline = deadline
        self.paths: dict[int, list[str]] = {}
        self.local_vars: dict[str, list[_LocalVar]] = {}
        self.sizes: dict[int, Range] = {}
        self.entry_sizes: dict[int, EntrySize] = {}
        # `PresenceTestHasCost(false)`: the Kubernetes base environment keeps has() free.
        self.presence_test_cost: Range = (0, 0)

    def type_of(self, e: ast.Expr) -> CelType:
        return self.types.get(e.id, t.DYN)

    # --- local variables ----------------------------------------------------------------------

    def _push(self, name: str, path: list[str], size: Range | None, entry: EntrySize | None) -> None:
        self.local_vars.setdefault(name, []).append(_LocalVar(path, size, entry))

    def _pop(self, name: str) -> None:
        self.local_vars[name].pop()

    def _peek(self, name: str) -> _LocalVar | None:
        stack = self.local_vars.get(name)
        return stack[-1] if stack else None

    def _container(self, entry: EntrySize | None, range_expr: ast.Expr) -> Kind:
        return entry.container if entry is not None else self.type_of(range_expr).kind

    def _push_iter_key(self, name: str, range_expr: ast.Expr) -> None:
        entry = self.entry_size(range_expr)
        sub = "@indices" if self._container(entry, range_expr) is Kind.LIST else "@keys"
        self._push(name, [*self.path(range_expr), sub], None if entry is None else entry.key, None)

    def _push_iter_value(self, name: str, range_expr: ast.Expr) -> None:
        entry = self.entry_size(range_expr)
        sub = "@items" if self._container(entry, range_expr) is Kind.LIST else "@values"
        self._push(name, [*self.path(range_expr), sub], None if entry is None else entry.value, None)

    def _push_iter_single(self, name: str, range_expr: ast.Expr) -> None:
        entry = self.entry_size(range_expr)
        size = None if entry is None else entry.key
        sub = "@keys"
        if self._container(entry, range_expr) is Kind.LIST:
            size = None if entry is None else entry.value
            sub = "@items"
        self._push(name, [*self.path(range_expr), sub], size, None)

    def _push_local(self, name: str, e: ast.Expr) -> None:
        self._push(name, self.path(e), self.size(e), self.entry_size(e))

    # --- paths and sizes ------------------------------------------------------------------------

    def path(self, e: ast.Expr) -> list[str]:
        if isinstance(e, ast.Ident):
            var = self._peek(e.name)
            if var is not None:
                return list(var.path)
        return list(self.paths.get(e.id, []))

    def node(self, e: ast.Expr) -> Node:
        path: list[str] | None = self.path(e)
        if path and path[0] in (ACCUMULATOR_NAME, HIDDEN_ACCUMULATOR_NAME):
            path = None
        return Node(path, self.type_of(e), e, self.size(e))

    def size(self, e: ast.Expr) -> Range | None:
        """`computeSize`."""
        if e.id in self.sizes:
            return self.sizes[e.id]
        literal = _expression_size(e)
        if literal is not None:
            return literal
        estimated = device_size(self.path(e))
        if estimated is not None:
            self.sizes[e.id] = estimated
            return estimated
        if _is_scalar(self.type_of(e)):
            return fixed(1)
        if isinstance(e, ast.Ident):
            var = self._peek(e.name)
            if var is not None and var.size is not None:
                return var.size
        return None

    def size_or_unknown(self, e: ast.Expr) -> Range:
        found = self.size(e)
        return UNKNOWN_SIZE if found is None else found

    def entry_size(self, e: ast.Expr) -> EntrySize | None:
        if e.id in self.entry_sizes:
            return self.entry_sizes[e.id]
        if isinstance(e, ast.Ident):
            var = self._peek(e.name)
            if var is not None and var.entry_size is not None:
                return var.entry_size
        return None

    def _set_size(self, e: ast.Expr, size: Range | None) -> None:
        if size is not None:
            self.sizes[e.id] = size

    def _set_entry_size(self, e: ast.Expr, size: EntrySize | None) -> None:
        if size is not None:
            self.entry_sizes[e.id] = size

    def _copy_sizes(self, destination: ast.Expr, source: ast.Expr) -> None:
        self._set_size(destination, self.size(source))
        self._set_entry_size(destination, self.entry_size(source))

    # --- costs ----------------------------------------------------------------------------------

    def cost(self, e: ast.Expr) -> Range:
        if self.deadline is not None:
            self.deadline.check()
        if isinstance(e, ast.Literal):
            return fixed(CONST_COST)
        if isinstance(e, ast.Ident):
            var = self._peek(e.name)
            self.paths[e.id] = list(var.path) if var is not None else [e.name]
            return fixed(SELECT_AND_IDENT_COST)
        if isinstance(e, ast.Select):
            return self._cost_select(e)
        if isinstance(e, ast.Call):
            return self._cost_call(e)
        if isinstance(e, ast.CreateList):
            return self._cost_list(e)
        if isinstance(e, ast.CreateMap):
            return self._cost_map(e)
        if isinstance(e, ast.CreateStruct):
            total: Range = (0, 0)
            for field in e.fields:
                total = add(total, self.cost(field.value))
            return add(total, fixed(STRUCT_CREATE_BASE_COST))
        if isinstance(e, ast.Comprehension):
            return self._cost_bind(e) if _is_bind(e) else self._cost_comprehension(e)
        return (0, 0)

    def _cost_select(self, e: ast.Select) -> Range:
        if e.test_only:
            return add(self.presence_test_cost, self.cost(e.operand))
        total = self.cost(e.operand)
        if self.type_of(e.operand).kind in (Kind.MAP, Kind.STRUCT, Kind.TYPE_PARAM):
            total = add(total, fixed(SELECT_AND_IDENT_COST))
        self.paths[e.id] = [*self.path(e.operand), e.field]
        return total

    def _cost_list(self, e: ast.CreateList) -> Range:
        total: Range = (0, 0)
        item: Range = (MAX_U64, 0) if e.elements else (0, 0)
        for element in e.elements:
            total = add(total, self.cost(element))
            item = union(item, self.size_or_unknown(element))
        self._set_entry_size(e, EntrySize(Kind.LIST, fixed(1), item))
        return add(total, fixed(LIST_CREATE_BASE_COST))

    def _cost_map(self, e: ast.CreateMap) -> Range:
        total: Range = (0, 0)
        key: Range = (MAX_U64, 0) if e.entries else (0, 0)
        value: Range = (MAX_U64, 0) if e.entries else (0, 0)
        for entry in e.entries:
            total = add(total, self.cost(entry.key))
            total = add(total, self.cost(entry.value))
            key = union(key, self.size_or_unknown(entry.key))
            value = union(value, self.size_or_unknown(entry.value))
        self._set_entry_size(e, EntrySize(Kind.MAP, key, value))
        return add(total, fixed(MAP_CREATE_BASE_COST))

    def _cost_comprehension(self, e: ast.Comprehension) -> Range:
        total = add(self.cost(e.iter_range), self.cost(e.accu_init))
        self._push_local(e.accu_var, e.accu_init)
        if e.iter_var2 is not None:
            self._push_iter_key(e.iter_var, e.iter_range)
            self._push_iter_value(e.iter_var2, e.iter_range)
        else:
            self._push_iter_single(e.iter_var, e.iter_range)
        loop = self.cost(e.loop_condition)
        step = self.cost(e.loop_step)
        self._pop(e.iter_var)
        if e.iter_var2 is not None:
            self._pop(e.iter_var2)
        total = add(total, self.cost(e.result))
        self._pop(e.accu_var)
        count = self.size_or_unknown(e.iter_range)
        total = add(total, multiply(count, add(step, loop)))
        if isinstance(e.accu_init, ast.Literal):
            self._set_size(e, self.size(e.accu_init))
        elif isinstance(e.accu_init, (ast.CreateList, ast.CreateMap)):
            self._set_size(e, count)
            self._set_entry_size(e, self.entry_size(e.loop_step))
        return total

    def _cost_bind(self, e: ast.Comprehension) -> Range:
        total = add(self.cost(e.iter_range), self.cost(e.accu_init))
        self._push_local(e.accu_var, e.accu_init)
        total = add(total, self.cost(e.result))
        self._pop(e.accu_var)
        self._copy_sizes(e, e.result)
        return total

    def _cost_call(self, e: ast.Call) -> Range:
        if e.function == "dyn" and e.args:
            argument_cost = self.cost(e.args[0])
            self._copy_sizes(e, e.args[0])
            return add(fixed(1), argument_cost)
        argument_costs: list[Range] = []
        arguments: list[Node] = []
        for argument in e.args:
            argument_costs.append(self.cost(argument))
            arguments.append(self.node(argument))
        overload_ids = self.overloads.get(e.id) or []
        if not overload_ids:
            return (0, 0)
        total: Range = (0, 0)
        target: Node | None = None
        if e.target is not None and e.id not in self.namespaced:
            total = add(total, self.cost(e.target))
            target = self.node(e.target)
        function_cost: Range = (MAX_U64, 0)
        result_size: Range | None = None
        for overload_id in overload_ids:
            cost, size = self._function_cost(e, overload_id, target, arguments, argument_costs)
            function_cost = union(function_cost, cost)
            if size is not None:
                result_size = size if result_size is None else union(result_size, size)
            if overload_id in ("index_list", "index_map") and e.args:
                entry = self.entry_size(e.args[0])
                result_size = None if entry is None else entry.value
                sub = "@items" if overload_id == "index_list" else "@values"
                self.paths[e.id] = [*self.path(e.args[0]), sub]
            if result_size is None:
                result_size = self.size(e)
        self._set_size(e, result_size)
        return add(total, function_cost)

    def _function_cost(
        self,
        e: ast.Call,
        overload_id: str,
        target: Node | None,
        args: list[Node],
        argument_costs: list[Range],
    ) -> tuple[Range, Range | None]:
        arguments_total: Range = (0, 0)
        for cost in argument_costs:
            arguments_total = add(arguments_total, cost)
        estimated = overload_estimate(overload_id, target, args)
        if estimated is None:
            estimated = kubernetes_call_cost(e.function, overload_id, target, args)
        if estimated is not None:
            return add(estimated[0], arguments_total), estimated[1]
        stf = STRING_TRAVERSAL_COST_FACTOR
        if overload_id == "string_format" and target is not None:
            return add(by_factor(_node_size(target), stf), arguments_total), None
        if overload_id in ("string_to_bytes", "bytes_to_string", "strings_quote") and len(args) == 1:
            size = _node_size(args[0])
            if overload_id == "string_to_bytes":
                result = (size[0], _mul(size[1], 4))
            elif overload_id == "bytes_to_string":
                result = (size[0] // 4, size[1])
            else:
                result = (_add(size[0], 2), _add(_mul(size[1], 2), 2))
            return add(by_factor(size, stf), arguments_total), result
        if overload_id in ("starts_with_string", "ends_with_string") and len(args) == 1:
            return add(by_factor(_node_size(args[0]), stf), arguments_total), None
        if overload_id == "in_list" and len(args) == 2:
            return add(by_factor(_node_size(args[1]), 1), arguments_total), None
        if overload_id == "matches_string" and target is not None and len(args) == 1:
            text = by_factor(add(_node_size(target), fixed(1)), stf)
            regex = by_factor(_node_size(args[0]), REGEX_STRING_LENGTH_COST_FACTOR)
            return add(multiply(text, regex), arguments_total), None
        if overload_id == "contains_string" and target is not None and len(args) == 1:
            text = by_factor(_node_size(target), stf)
            sub = by_factor(_node_size(args[0]), stf)
            return add(multiply(text, sub), arguments_total), None
        if overload_id in ("logical_or", "logical_and"):
            lhs, rhs = argument_costs[0], argument_costs[1]
            return (lhs[0], add(lhs, rhs)[1]), None
        if overload_id == "conditional":
            size = union(_node_size(args[1]), _node_size(args[2]))
            assert args[1].expr is not None and args[2].expr is not None
            entry = _union_entries(self.entry_size(args[1].expr), self.entry_size(args[2].expr))
            self._set_entry_size(e, entry)
            return add(argument_costs[0], union(argument_costs[1], argument_costs[2])), size
        if overload_id in ("add_string", "add_bytes", "add_list") and len(args) == 2:
            result = add(_node_size(args[0]), _node_size(args[1]))
            assert args[0].expr is not None and args[1].expr is not None
            entry = _union_entries(self.entry_size(args[0].expr), self.entry_size(args[1].expr))
            self._set_entry_size(e, entry)
            if overload_id == "add_list":
                return add(fixed(1), arguments_total), result
            return add(by_factor(result, stf), arguments_total), result
        if overload_id in _COMPARISONS:
            lhs, rhs = _node_size(args[0]), _node_size(args[1])
            smallest_max = min(lhs[1], rhs[1])
            low = 1 if smallest_max > 0 else 0
            return add(by_factor((low, smallest_max), stf), arguments_total), None
        return add(fixed(1), arguments_total), None


def _node_size(node: Node) -> Range:
    """`sizeOrUnknown` of an AstNode: its computed size only."""
    return UNKNOWN_SIZE if node.computed_size is None else node.computed_size


def _is_bind(e: ast.Comprehension) -> bool:
    return (
        isinstance(e.iter_range, ast.CreateList)
        and not e.iter_range.elements
        and isinstance(e.loop_condition, ast.Literal)
        and e.loop_condition.kind == "bool"
        and e.loop_condition.value is False
        and e.accu_var != ACCUMULATOR_NAME
    )


def _expression_size(e: ast.Expr) -> Range | None:
    """`computeExprSize`: literals and list/map literals."""
    if isinstance(e, ast.Literal):
        if e.kind == "string":
            return fixed(len(str(e.value)))
        if e.kind == "bytes":
            value = e.value
            return fixed(len(value) if isinstance(value, bytes) else 0)
        return fixed(1)
    if isinstance(e, ast.CreateList):
        return fixed(len(e.elements))
    if isinstance(e, ast.CreateMap):
        return fixed(len(e.entries))
    return None


def _is_scalar(type_: CelType) -> bool:
    if type_.kind in (Kind.BOOL, Kind.DOUBLE, Kind.DURATION, Kind.INT, Kind.TIMESTAMP, Kind.UINT):
        return True
    if type_.kind is Kind.OPAQUE and type_.name == "optional_type":
        return _is_scalar(type_.params[0])
    return False


def estimate_device_selector_cost(
    compiled: Compilation, env: Environment, deadline: _Clock | None = None
) -> int:
    """`env.EstimateCost(ast, estimator).Max` for a selector compiled in a 1.37 environment."""
    del env  # every 1.37 environment estimates with the same options and the newest device type
    assert compiled.parsed is not None
    return Coster(compiled, deadline).cost(compiled.parsed.expr)[1]
