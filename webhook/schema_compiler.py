"""The schema compiler: one JSON Schema file of ``schemas/`` into the node tree of
`webhook.schema_nodes`, refusing every keyword, type combination and format it does not implement
(a `SchemaError` naming the file and the place)."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from types import MappingProxyType
from typing import Any, Final

from webhook.rules.kinds import GroupVersionKind
from webhook.schema_nodes import (
    FORMATS,
    JSON_TYPES,
    NULL,
    AnyValue,
    Array,
    DateTime,
    FreeObject,
    Int32,
    Int64,
    Map,
    Node,
    QuantityScalar,
    Scalar,
    StringEnum,
    Struct,
)


class SchemaError(Exception):
    """A schema file that the checker cannot use: unreadable, or using what it does not implement."""


_ANNOTATIONS: Final = frozenset({"$schema", "$id", "$comment", "title", "description", "$defs"})
_KEYWORDS: Final = _ANNOTATIONS | {
    "$ref",
    "type",
    "format",
    "enum",
    "properties",
    "additionalProperties",
    "items",
    "required",
}
_REF_PREFIX: Final = "#/$defs/"


class SchemaCompiler:
    """Turns one schema file into nodes, refusing every keyword it does not implement."""

    def __init__(self, source: Path, document: Mapping[str, Any]) -> None:
        self.source = source
        definitions = document.get("$defs", {})
        if not isinstance(definitions, Mapping):
            raise self.error("$defs must be an object")
        self.definitions: Mapping[str, Any] = definitions
        self.compiled: dict[str, Node] = {}
        self.compiling: set[str] = set()

    def error(self, message: str) -> SchemaError:
        return SchemaError(f"{self.source}: {message}")

    def node(self, schema: Any, where: str) -> Node:
        if not isinstance(schema, Mapping):
            raise self.error(f"{where}: a schema must be an object")
        for keyword in schema:
            if keyword not in _KEYWORDS and not str(keyword).startswith("x-"):
                raise self.error(f"{where}: unsupported keyword {keyword!r}")
        if "$ref" in schema:
            return self.reference(schema["$ref"], where)
        types = schema.get("type")
        if types is None:
            if any(
                key in schema for key in ("properties", "additionalProperties", "items", "format", "enum")
            ):
                raise self.error(f"{where}: constraints without a type")
            return AnyValue()
        names = [types] if isinstance(types, str) else list(types) if isinstance(types, list) else None
        if not names or any(name not in JSON_TYPES for name in names):
            raise self.error(f"{where}: bad type {types!r}")
        kinds = [name for name in names if name != "null"]
        if kinds == ["object"]:
            return self.object(schema, where)
        if kinds == ["array"]:
            if "items" not in schema:
                raise self.error(f"{where}: an array needs items")
            return Array(self.node(schema["items"], f"{where}.items"))
        if not kinds or "object" in kinds or "array" in kinds:
            raise self.error(f"{where}: unsupported type combination {types!r}")
        return self.scalar(schema, kinds, where)

    def reference(self, ref: Any, where: str) -> Node:
        if not isinstance(ref, str) or not ref.startswith(_REF_PREFIX):
            raise self.error(f"{where}: only local references ({_REF_PREFIX}...) are supported, not {ref!r}")
        name = ref[len(_REF_PREFIX) :]
        if name in self.compiled:
            return self.compiled[name]
        if name not in self.definitions:
            raise self.error(f"{where}: unresolvable reference {ref!r}")
        if name in self.compiling:
            raise self.error(f"{where}: recursive reference {ref!r} is not supported")
        self.compiling.add(name)
        node = self.node(self.definitions[name], name)
        self.compiling.discard(name)
        self.compiled[name] = node
        return node

    def object(self, schema: Mapping[str, Any], where: str) -> Node:
        properties = schema.get("properties")
        additional = schema.get("additionalProperties")
        if properties is not None and additional is not None:
            raise self.error(f"{where}: properties together with additionalProperties are not supported")
        if properties is not None:
            if not isinstance(properties, Mapping):
                raise self.error(f"{where}: properties must be an object")
            fields = {name: self.node(child, f"{where}.{name}") for name, child in properties.items()}
            required_names = schema.get("required", [])
            if not isinstance(required_names, list) or not all(isinstance(n, str) for n in required_names):
                raise self.error(f"{where}: required must be a list of names")
            return Struct(MappingProxyType(fields), tuple(required_names))
        if additional is not None:
            if not isinstance(additional, Mapping):
                raise self.error(f"{where}: additionalProperties must be a schema")
            return Map(self.node(additional, f"{where}.additionalProperties"))
        return FreeObject()

    def scalar(self, schema: Mapping[str, Any], kinds: list[str], where: str) -> Node:
        accepted = set(kinds)
        if "number" in accepted:
            accepted.add("integer")  # a Go float64 (or a Quantity) takes an integer literal too
        format_name = schema.get("format")
        if format_name is not None and format_name not in FORMATS:
            raise self.error(f"{where}: unsupported format {format_name!r}")
        enum = schema.get("enum")
        if enum is not None and not isinstance(enum, list):
            raise self.error(f"{where}: enum must be a list")
        expected = ",".join(kinds)  # kube-openapi: strings.Join(t.Type, ",")
        if (
            accepted == {"string"}
            and format_name is None
            and enum
            and all(type(e) in (str, NULL) for e in enum)
        ):
            return StringEnum(expected, tuple(enum))
        if accepted == {"string"} and format_name == "date-time" and enum is None:
            return DateTime(expected)
        if accepted == {"integer"} and format_name in (None, "int64") and enum is None:
            return Int64(expected)
        if accepted == {"integer"} and format_name == "int32" and enum is None:
            return Int32(expected)
        if format_name == "quantity" and enum is None:
            return QuantityScalar(frozenset(accepted), expected)
        return Scalar(
            frozenset(accepted),
            expected,
            FORMATS[format_name] if format_name is not None else None,
            tuple(enum) if enum is not None else None,
        )


def kind_of(source: Path, document: Mapping[str, Any]) -> GroupVersionKind:
    entries = document.get("x-kubernetes-group-version-kind")
    if not isinstance(entries, list) or len(entries) != 1 or not isinstance(entries[0], Mapping):
        raise SchemaError(f"{source}: the root needs exactly one x-kubernetes-group-version-kind")
    entry = entries[0]
    gvk = GroupVersionKind(
        str(entry.get("group", "")), str(entry.get("version", "")), str(entry.get("kind", ""))
    )
    if not gvk.version or not gvk.kind:
        raise SchemaError(f"{source}: incomplete x-kubernetes-group-version-kind {entry}")
    return gvk


def check_root(source: Path, document: Mapping[str, Any], gvk: GroupVersionKind) -> None:
    """The root must be an object that names its own apiVersion and kind (the mismatch check)."""
    if document.get("type") != "object":
        raise SchemaError(f"{source}: the root must have type object")
    properties = document.get("properties")
    api_version = f"{gvk.group}/{gvk.version}" if gvk.group else gvk.version
    for name, expected in (("apiVersion", api_version), ("kind", gvk.kind)):
        field_schema = properties.get(name) if isinstance(properties, Mapping) else None
        enum = field_schema.get("enum") if isinstance(field_schema, Mapping) else None
        if not isinstance(enum, list) or expected not in enum:
            raise SchemaError(f"{source}: properties.{name}.enum must list {expected!r}")
