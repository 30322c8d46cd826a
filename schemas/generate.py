"""Generate the JSON Schemas of resource.k8s.io/v1alpha2 from the Kubernetes 1.30 OpenAPI.

Source: the `v1.30.0-local` definitions shipped by the `kubernetes-validate` package (PyPI), which
are the Kubernetes v1.30.0 OpenAPI definitions converted to JSON Schema (one `_definitions.json`
holding every `io.k8s.*` definition). This script keeps the part that the seven v1alpha2 kinds and
their lists reach, and writes one self-contained Draft 2020-12 schema per kind:

    schemas/resource.k8s.io/v1alpha2/<lower-case kind>.json

Each file's root is the kind's own definition; every definition it reaches (ObjectMeta included)
is copied into `$defs` under its OpenAPI name. Field names, descriptions, `required`, formats and
the `x-kubernetes-*` extensions are kept as the OpenAPI states them. Four changes make the schema
accept what Kubernetes' JSON decoding of these Go types accepts (see schemas/README.md):

1. `null` is allowed at every position below the root (a JSON null leaves a Go field at its zero
   value, required or not; kubernetes-validate allows it only where a field is optional).
2. `runtime.RawExtension` and `metav1.FieldsV1` accept any JSON value: their UnmarshalJSON keeps
   the raw bytes whatever they are (the OpenAPI says `type: object`).
3. `resource.Quantity` is one node `{"type": ["string", "number", "null"], "format": "quantity"}`
   (Quantity.UnmarshalJSON parses quoted and unquoted values alike) instead of a `oneOf`.
4. The `apiVersion`/`kind` enums that kubernetes-validate adds to every definition are removed
   from the definitions and put on the file's root only: a typed Go decoder checks the group,
   version and kind of the object it decodes, not those of the items of a list.

Usage (from the repository root, with the test extras installed):

    .venv/bin/python schemas/generate.py           # rewrite the files
    .venv/bin/python schemas/generate.py --check   # exit 1 if a file differs from a fresh run
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterator, Mapping
from importlib import resources
from pathlib import Path
from typing import Any

GROUP = "resource.k8s.io"
VERSION = "v1alpha2"
KUBERNETES_VERSION = "1.30.0"
SOURCE_PACKAGE = "kubernetes_validate"
SOURCE_DISTRIBUTION = "kubernetes-validate"
SOURCE_FILE = f"kubernetes-json-schema/v{KUBERNETES_VERSION}-local/_definitions.json"

KINDS = (
    "ResourceClass",
    "ResourceClaim",
    "ResourceClaimTemplate",
    "PodSchedulingContext",
    "ResourceSlice",
    "ResourceClaimParameters",
    "ResourceClassParameters",
)
ALL_KINDS = tuple(kind for base in KINDS for kind in (base, base + "List"))

DEFINITION_PREFIX = "io.k8s.api.resource.v1alpha2."
REF_PREFIX = "#/$defs/"
QUANTITY = "io.k8s.apimachinery.pkg.api.resource.Quantity"
# Go types whose UnmarshalJSON keeps any JSON value as raw bytes.
RAW_JSON = {
    "io.k8s.apimachinery.pkg.runtime.RawExtension": "runtime.RawExtension",
    "io.k8s.apimachinery.pkg.apis.meta.v1.FieldsV1": "metav1.FieldsV1",
}

# Output key order, so that regenerating gives byte-identical files.
KEY_ORDER = (
    "$schema",
    "$id",
    "$comment",
    "title",
    "description",
    "$ref",
    "type",
    "format",
    "enum",
    "properties",
    "additionalProperties",
    "items",
    "required",
)

SCHEMA_DIALECT = "https://json-schema.org/draft/2020-12/schema"


def load_definitions() -> dict[str, Any]:
    """The `$defs` of kubernetes-validate's Kubernetes 1.30.0 definitions."""
    source = resources.files(SOURCE_PACKAGE).joinpath(SOURCE_FILE)
    document = json.loads(source.read_text(encoding="utf-8"))
    definitions: dict[str, Any] = document["$defs"]
    return definitions


def gvk_of(definition: Mapping[str, Any]) -> tuple[str, str, str] | None:
    entries = definition.get("x-kubernetes-group-version-kind") or []
    if len(entries) != 1:
        return None
    entry = entries[0]
    return entry["group"], entry["version"], entry["kind"]


def kind_definitions(definitions: Mapping[str, Any]) -> dict[str, str]:
    """Kind -> definition name, for every definition bound to resource.k8s.io/v1alpha2."""
    found: dict[str, str] = {}
    for name, definition in definitions.items():
        gvk = gvk_of(definition)
        if gvk is not None and gvk[:2] == (GROUP, VERSION):
            found[gvk[2]] = name
    if sorted(found) != sorted(ALL_KINDS):
        raise SystemExit(f"expected the kinds {sorted(ALL_KINDS)}, the source has {sorted(found)}")
    return found


def references(node: Any) -> Iterator[str]:
    """The definition names a schema node refers to, at any depth."""
    if isinstance(node, dict):
        ref = node.get("$ref")
        if isinstance(ref, str):
            if not ref.startswith(REF_PREFIX):
                raise SystemExit(f"unexpected reference {ref!r}")
            yield ref[len(REF_PREFIX) :]
        for value in node.values():
            yield from references(value)
    elif isinstance(node, list):
        for value in node:
            yield from references(value)


def closure(definitions: Mapping[str, Any], start: str) -> list[str]:
    """Every definition reachable from `start` (not including it), sorted by name."""
    seen: set[str] = set()
    pending = list(references(definitions[start]))
    while pending:
        name = pending.pop()
        if name in seen or name == start:
            continue
        seen.add(name)
        pending.extend(references(definitions[name]))
    return sorted(seen)


def nullable(type_value: Any) -> list[str]:
    """The OpenAPI type(s) of a node, plus "null" (Go decoding: null is the zero value)."""
    types = [type_value] if isinstance(type_value, str) else list(type_value)
    types = [t for t in types if t != "null"]
    return [*types, "null"]


def normalize(node: Any, *, at_root: bool = False) -> Any:
    """One schema node in this project's form (module docstring, points 1 and 4)."""
    if isinstance(node, list):
        return [normalize(item) for item in node]
    if not isinstance(node, dict):
        return node
    out: dict[str, Any] = {}
    for key, value in node.items():
        if key == "enum":
            continue  # kubernetes-validate's apiVersion/kind enums; the root gets its own
        if key == "type":
            out[key] = "object" if at_root else nullable(value)
        elif key in ("properties", "$defs"):
            out[key] = {name: normalize(child) for name, child in value.items()}
        elif key in ("items", "additionalProperties", "oneOf", "allOf", "anyOf"):
            out[key] = normalize(value)
        else:
            out[key] = value
    return ordered(out)


def normalize_definition(name: str, definition: Mapping[str, Any]) -> dict[str, Any]:
    """A `$defs` entry; the Go types with their own UnmarshalJSON get their decoding rules (2, 3)."""
    if name in RAW_JSON:
        return ordered(
            {
                "description": definition.get("description", ""),
                "$comment": f"Any JSON value: {RAW_JSON[name]}.UnmarshalJSON keeps the raw bytes "
                "(the OpenAPI states type: object).",
                "x-kubernetes-preserve-unknown-fields": True,
            }
        )
    if name == QUANTITY:
        variants = definition.get("oneOf") or []
        types = sorted({t for variant in variants for t in nullable(variant["type"]) if t != "null"})
        if types != ["number", "string"]:
            raise SystemExit(f"unexpected Quantity schema: {definition}")
        return ordered(
            {
                "description": definition.get("description", ""),
                "$comment": "Quantity.UnmarshalJSON parses a quoted or an unquoted value with ParseQuantity.",
                "type": ["string", "number", "null"],
                "format": "quantity",
            }
        )
    normalized: dict[str, Any] = normalize(definition)
    return normalized


def ordered(node: dict[str, Any]) -> dict[str, Any]:
    rank = {key: i for i, key in enumerate(KEY_ORDER)}
    return dict(sorted(node.items(), key=lambda item: (rank.get(item[0], len(rank)), item[0])))


def kind_schema(definitions: Mapping[str, Any], kind: str, definition_name: str) -> dict[str, Any]:
    """The self-contained schema of one kind (module docstring)."""
    root = normalize(definitions[definition_name], at_root=True)
    properties = dict(root["properties"])
    properties["apiVersion"] = ordered({**properties["apiVersion"], "enum": [f"{GROUP}/{VERSION}", None]})
    properties["kind"] = ordered({**properties["kind"], "enum": [kind, None]})
    schema = {
        "$schema": SCHEMA_DIALECT,
        "$id": f"urn:dra-webhook:schema:{GROUP}/{VERSION}/{kind}",
        "$comment": (
            f"Generated by schemas/generate.py from the Kubernetes {KUBERNETES_VERSION} OpenAPI "
            f"definitions shipped by {SOURCE_DISTRIBUTION} ({SOURCE_FILE}). Do not edit."
        ),
        "title": kind,
        **root,
        "properties": properties,
        "$defs": {
            name: normalize_definition(name, definitions[name])
            for name in closure(definitions, definition_name)
        },
    }
    return ordered(schema)


def render(schema: Mapping[str, Any]) -> str:
    return json.dumps(schema, indent=2, ensure_ascii=False) + "\n"


def generated_files(output: Path) -> dict[Path, str]:
    definitions = load_definitions()
    return {
        output / GROUP / VERSION / f"{kind.lower()}.json": render(kind_schema(definitions, kind, name))
        for kind, name in sorted(kind_definitions(definitions).items())
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument(
        "--output", type=Path, default=Path(__file__).resolve().parent, help="the schemas/ directory"
    )
    parser.add_argument("--check", action="store_true", help="compare with the files on disk, write nothing")
    args = parser.parse_args(argv)
    files = generated_files(args.output)
    if args.check:
        stale = [
            path for path, text in files.items() if not path.is_file() or path.read_text("utf-8") != text
        ]
        for path in stale:
            print(f"out of date: {path}", file=sys.stderr)
        return 1 if stale else 0
    for path, text in files.items():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
