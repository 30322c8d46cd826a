"""The CEL type checker, as cel-go v0.17's `checker/checker.go`.

It infers a type for every node of a parsed expression against an `Environment`, reporting what
cel-go reports, where cel-go reports it: ``undeclared reference to 'x' (in container '')``,
``found no matching overload for '_+_' applied to '(int, string)'``, ``expected type 'bool' but
found 'int'``, ``type 'int' does not support field selection``, ``expression of type 'int' cannot
be range of a comprehension (must be list, map, or dynamic)``. Overload resolution unifies type
parameters exactly as cel-go does (fresh ``_varN`` per generic overload tried).

The environment declares no protobuf message types, so creating or selecting fields of a message
reports what cel-go reports for an unknown type; the selector environments of Kubernetes 1.30 only
know Kubernetes' own opaque library types there.
"""

from __future__ import annotations

from typing import Protocol

from webhook.celgo import ast
from webhook.celgo import types as t
from webhook.celgo.decls import Environment, Function
from webhook.celgo.parser import ParsedExpression
from webhook.celgo.source import Errors
from webhook.celgo.types import CelType, Kind, Mapping


class _Clock(Protocol):
    def check(self) -> None: ...


CONTAINER = ""  # Kubernetes compiles selectors in the empty container

_LITERAL_TYPES = {
    "bool": t.BOOL,
    "bytes": t.BYTES,
    "double": t.DOUBLE,
    "int": t.INT,
    "null": t.NULL,
    "string": t.STRING,
    "uint": t.UINT,
}

_WELL_KNOWN_KINDS = frozenset({Kind.ANY, Kind.TIMESTAMP, Kind.DURATION, Kind.DYN, Kind.NULL})


class Checker:
    """One type-check of one parsed expression (cel-go's `checker` struct)."""

    def __init__(
        self, env: Environment, parsed: ParsedExpression, errors: Errors, deadline: _Clock | None = None
    ) -> None:
        self.deadline = deadline
        self.env = env
        self.parsed = parsed
        self.errors = errors
        self.types: dict[int, CelType] = {}
        self.mapping = Mapping()
        self.scopes: list[dict[str, CelType]] = []
        self.free_type_vars = 0
        # The ids of the overloads each call resolved to (cel-go's reference map), and the calls
        # that resolved as namespaced functions (`sets.contains(...)`: no receiver).
        self.overload_ids: dict[int, list[str]] = {}
        self.namespaced_calls: set[int] = set()

    def run(self) -> dict[int, CelType]:
        """Check the whole expression; the final type of every node, type parameters resolved."""
        self.check(self.parsed.expr)
        return {expr_id: t.substitute(self.mapping, type_, True) for expr_id, type_ in self.types.items()}

    # --- errors --------------------------------------------------------------------------------

    def _error(self, expr_id: int, message: str) -> None:
        self.errors.report(self.parsed.location(expr_id), message)

    def _type_mismatch(self, expr_id: int, expected: CelType, actual: CelType) -> None:
        self._error(expr_id, f"expected type '{t.format_type(expected)}' but found '{t.format_type(actual)}'")

    def _undeclared(self, expr_id: int, name: str) -> None:
        self._error(expr_id, f"undeclared reference to '{name}' (in container '{CONTAINER}')")

    # --- environment lookups -------------------------------------------------------------------

    def lookup_ident(self, name: str) -> CelType | None:
        name = name.removeprefix(".")
        for scope in reversed(self.scopes):
            if name in scope:
                return scope[name]
        found = self.env.idents.get(name)
        if found is None and name in self.env.structs:
            # cel-go's checker env imports a type name its provider knows as an identifier.
            return t.type_of(t.object_type(name))
        return found

    def lookup_function(self, name: str) -> Function | None:
        return self.env.functions.get(name.removeprefix("."))

    # --- type bookkeeping ----------------------------------------------------------------------

    def set_type(self, expr: ast.Expr | ast.MapEntry | ast.StructField, type_: CelType) -> None:
        self.types.setdefault(expr.id, type_)

    def get_type(self, expr: ast.Expr) -> CelType:
        return self.types.get(expr.id, t.ERROR)

    def new_type_var(self) -> CelType:
        name = f"_var{self.free_type_vars}"
        self.free_type_vars += 1
        return t.param(name)

    def is_assignable(self, t1: CelType, t2: CelType) -> bool:
        mapping = t.is_assignable(self.mapping, t1, t2)
        if mapping is None:
            return False
        self.mapping = mapping
        return True

    def is_assignable_list(self, l1: tuple[CelType, ...], l2: tuple[CelType, ...]) -> bool:
        mapping = t.is_assignable_list(self.mapping, l1, l2)
        if mapping is None:
            return False
        self.mapping = mapping
        return True

    def assert_type(self, expr: ast.Expr, type_: CelType) -> None:
        if not self.is_assignable(type_, self.get_type(expr)):
            self._type_mismatch(expr.id, type_, self.get_type(expr))

    # --- the checks ----------------------------------------------------------------------------

    def check(self, e: ast.Expr) -> None:
        if self.deadline is not None:
            self.deadline.check()
        if isinstance(e, ast.Literal):
            self.set_type(e, _LITERAL_TYPES[e.kind])
        elif isinstance(e, ast.Ident):
            self.check_ident(e)
        elif isinstance(e, ast.Select):
            self.check_select(e)
        elif isinstance(e, ast.Call):
            self.check_call(e)
        elif isinstance(e, ast.CreateList):
            self.check_list(e)
        elif isinstance(e, ast.CreateMap):
            self.check_map(e)
        elif isinstance(e, ast.CreateStruct):
            self.check_struct(e)
        elif isinstance(e, ast.Comprehension):
            self.check_comprehension(e)
        else:
            self._error(e.id, "unexpected unspecified type: ")

    def check_ident(self, e: ast.Ident) -> None:
        found = self.lookup_ident(e.name)
        if found is not None:
            self.set_type(e, found)
            return
        self.set_type(e, t.ERROR)
        self._undeclared(e.id, e.name)

    def check_select(self, e: ast.Select) -> None:
        # Before traversing down the tree, try to interpret the chain as a qualified name.
        qualified = ast.qualified_name(e)
        if qualified is not None:
            found = self.lookup_ident(qualified)
            if found is not None:
                self.set_type(e, found)
                return
        result = self.check_select_field(e, e.operand, e.field, optional=False)
        if e.test_only:
            result = t.BOOL
        self.set_type(e, t.substitute(self.mapping, result, False))

    def check_opt_select(self, e: ast.Call) -> None:
        operand, field = e.args[0], e.args[1]
        if not (isinstance(field, ast.Literal) and field.kind == "string"):
            self._error(field.id, "unsupported optional field selection")
            return
        result = self.check_select_field(e, operand, str(field.value), optional=True)
        self.set_type(e, t.substitute(self.mapping, result, False))

    def lookup_field_type(self, expr_id: int, struct: str, field_name: str) -> CelType | None:
        """`lookupFieldType`: the declared field's type, else cel-go's error."""
        fields = self.env.structs.get(struct)
        if fields is None:
            # Kubernetes' library types (Quantity, Semver, ...) are not known to the type provider.
            self._error(expr_id, f"unexpected failed resolution of '{struct}'")
            return None
        found = fields.get(field_name)
        if found is None:
            self._error(expr_id, f"undefined field '{field_name}'")
        return found

    def check_select_field(
        self, e: ast.Expr, operand: ast.Expr, field_name: str, *, optional: bool
    ) -> CelType:
        # A map selection has the map's value type whatever the key; a struct selection the
        # declared field's type.
        self.check(operand)
        operand_type = t.substitute(self.mapping, self.get_type(operand), False)
        target, is_optional = t.maybe_unwrap_optional(operand_type)
        result = t.ERROR
        if target.kind is Kind.MAP:
            result = target.params[1]
        elif target.kind is Kind.STRUCT:
            field_type = self.lookup_field_type(e.id, target.name, field_name)
            if field_type is not None:
                result = field_type
        elif target.kind is Kind.TYPE_PARAM:
            self.is_assignable(t.DYN, target)
            result = t.DYN
        else:
            if not t.is_dyn_or_error(target):
                self._error(e.id, f"type '{t.format_type(target)}' does not support field selection")
            result = t.DYN
        if is_optional or optional:
            return t.optional_of(result)
        return result

    def check_call(self, e: ast.Call) -> None:
        if e.function == "_?._":
            self.check_opt_select(e)
            return
        for arg in e.args:
            self.check(arg)
        if e.target is None:
            fn = self.lookup_function(e.function)
            if fn is None:
                self._undeclared(e.id, e.function)
                self.set_type(e, t.ERROR)
                return
            self.resolve_overload_or_error(e, fn, None, e.args)
            return
        # A receiver call may be a namespaced function (optional.of, sets.contains, ...).
        prefix = ast.qualified_name(e.target)
        if prefix is not None:
            fn = self.lookup_function(f"{prefix}.{e.function}")
            if fn is not None:
                self.namespaced_calls.add(e.id)
                self.resolve_overload_or_error(e, fn, None, e.args)
                return
        self.check(e.target)
        fn = self.lookup_function(e.function)
        if fn is not None:
            self.resolve_overload_or_error(e, fn, e.target, e.args)
            return
        self.set_type(e, t.ERROR)
        self._undeclared(e.id, e.function)

    def resolve_overload_or_error(
        self, e: ast.Call, fn: Function, target: ast.Expr | None, args: list[ast.Expr]
    ) -> None:
        result = self.resolve_overload(e, fn, target, args)
        self.set_type(e, t.ERROR if result is None else result)

    def resolve_overload(
        self, call: ast.Call, fn: Function, target: ast.Expr | None, args: list[ast.Expr]
    ) -> CelType | None:
        arg_types = ([self.get_type(target)] if target is not None else []) + [self.get_type(a) for a in args]
        result: CelType | None = None
        matched = self.overload_ids.setdefault(call.id, [])
        for candidate in fn.overloads:
            if (target is None) == candidate.member:
                continue
            if fn.name in ("_&&_", "_||_"):
                matched.append(candidate.id)
                failed = False
                for i, arg_type in enumerate(arg_types):
                    if not self.is_assignable(arg_type, t.BOOL):
                        self._type_mismatch(args[i].id, t.BOOL, arg_type)
                        failed = True
                return None if failed else t.BOOL
            overload_type = t.function_type(candidate.result, candidate.args)
            if candidate.type_params:
                substitutions = Mapping()
                for name in candidate.type_params:
                    substitutions.add(t.param(name), self.new_type_var())
                overload_type = t.substitute(substitutions, overload_type, False)
            if self.is_assignable_list(tuple(arg_types), overload_type.params[1:]):
                matched.append(candidate.id)
                fn_result = t.substitute(self.mapping, overload_type.params[0], False)
                if result is None:
                    result = fn_result
                elif not t.is_dyn(result) and fn_result != result:
                    result = t.DYN
        if result is None:
            shown = tuple(t.substitute(self.mapping, a, True) for a in arg_types)
            signature = t.format_function(None, shown, member=target is not None)
            self._error(call.id, f"found no matching overload for '{fn.name}' applied to '{signature}'")
        return result

    def check_list(self, e: ast.CreateList) -> None:
        elems_type: CelType | None = None
        for i, element in enumerate(e.elements):
            self.check(element)
            elem_type = self.get_type(element)
            if i in e.optional_indices:
                elem_type, is_optional = t.maybe_unwrap_optional(elem_type)
                if not is_optional and not t.is_dyn(elem_type):
                    self._type_mismatch(element.id, t.optional_of(elem_type), elem_type)
            elems_type = self.join_types(elems_type, elem_type)
        self.set_type(e, t.list_of(elems_type if elems_type is not None else self.new_type_var()))

    def check_map(self, e: ast.CreateMap) -> None:
        key_type: CelType | None = None
        value_type: CelType | None = None
        for entry in e.entries:
            self.check(entry.key)
            key_type = self.join_types(key_type, self.get_type(entry.key))
            self.check(entry.value)
            entry_value_type = self.get_type(entry.value)
            if entry.optional:
                entry_value_type, is_optional = t.maybe_unwrap_optional(entry_value_type)
                if not is_optional and not t.is_dyn(entry_value_type):
                    self._type_mismatch(entry.value.id, t.optional_of(entry_value_type), entry_value_type)
            value_type = self.join_types(value_type, entry_value_type)
        if key_type is None or value_type is None:
            key_type, value_type = self.new_type_var(), self.new_type_var()
        self.set_type(e, t.map_of(key_type, value_type))

    def join_types(self, previous: CelType | None, current: CelType) -> CelType:
        """Mixed literals join to dyn; the homogeneous-literal validator reports them later."""
        if previous is None:
            return current
        if self.is_assignable(previous, current):
            return t.most_general(previous, current)
        return t.DYN

    def check_struct(self, e: ast.CreateStruct) -> None:
        found = self.lookup_ident(e.type_name)
        if found is None:
            self._undeclared(e.id, e.type_name)
            self.set_type(e, t.ERROR)
            return
        result = t.ERROR
        type_name = e.type_name.removeprefix(".")
        if found.kind is not Kind.ERROR:
            if found.kind is not Kind.TYPE:
                self._error(e.id, f"'{found.name}' is not a type")
            else:
                result = found.params[0]
                well_known_list = result.kind is Kind.LIST and result.params[0] == t.DYN
                if result.kind in _WELL_KNOWN_KINDS or well_known_list:
                    type_name = result.name
                elif result.kind is not Kind.STRUCT:
                    self._error(e.id, f"'{result.name}' is not a message type")
                    result = t.ERROR
        self.set_type(e, result)
        for field in e.fields:
            self.check(field.value)
            if type_name not in self.env.structs:
                self._error(field.id, f"unexpected failed resolution of '{type_name}'")
                continue
            field_type = self.lookup_field_type(field.id, type_name, field.name) or t.ERROR
            value_type = self.get_type(field.value)
            if field.optional:
                value_type, is_optional = t.maybe_unwrap_optional(value_type)
                if not is_optional and not t.is_dyn(value_type):
                    self._type_mismatch(field.value.id, t.optional_of(value_type), value_type)
            if not self.is_assignable(field_type, value_type):
                self._error(
                    field.id,
                    f"expected type of field '{field.name}' is '{t.format_type(field_type)}' but provided "
                    f"type is '{t.format_type(value_type)}'",
                )

    def check_comprehension(self, e: ast.Comprehension) -> None:
        self.check(e.iter_range)
        self.check(e.accu_init)
        accu_type = self.get_type(e.accu_init)
        range_type = t.substitute(self.mapping, self.get_type(e.iter_range), False)
        var2_type = t.ERROR
        if range_type.kind is Kind.LIST:
            var_type = var2_type = range_type.params[0]
            if e.iter_var2 is not None:
                var_type = t.INT  # the index; the second variable is the element
        elif range_type.kind is Kind.MAP:
            var_type, var2_type = range_type.params[0], range_type.params[1]
        elif range_type.kind in (Kind.DYN, Kind.ERROR, Kind.TYPE_PARAM):
            self.is_assignable(t.DYN, range_type)
            var_type = var2_type = t.DYN
        else:
            self._error(
                e.iter_range.id,
                f"expression of type '{t.format_type(range_type)}' cannot be range of a comprehension "
                "(must be list, map, or dynamic)",
            )
            var_type = t.ERROR
        self.scopes.append({e.accu_var: accu_type})
        loop_scope = {e.iter_var: var_type}
        if e.iter_var2 is not None:
            loop_scope[e.iter_var2] = var2_type
        self.scopes.append(loop_scope)
        self.check(e.loop_condition)
        self.assert_type(e.loop_condition, t.BOOL)
        self.check(e.loop_step)
        self.assert_type(e.loop_step, accu_type)
        self.scopes.pop()
        self.check(e.result)
        self.scopes.pop()
        self.set_type(e, t.substitute(self.mapping, self.get_type(e.result), False))
