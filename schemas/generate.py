"""Generate the JSON Schemas of resource.k8s.io from the Kubernetes OpenAPI of each release.

Source: the `v<Kubernetes version>-local` definitions shipped by the `kubernetes-validate` package
(PyPI), which are that release's OpenAPI definitions converted to JSON Schema (one
`_definitions.json` holding every `io.k8s.*` definition). `SCHEMA_SETS` says which kinds of which
apiVersion come from which release: v1alpha2 from 1.30, v1alpha3 from 1.31 (and the v1alpha3 kinds
that only 1.37 has, from 1.37), v1, v1beta2 and v1beta1 from 1.37. For each kind and its list,
this script keeps the part of the definitions the kind reaches and writes one self-contained
Draft 2020-12 schema:

    schemas/<group>/<version>/<lower-case kind>.json

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

The script stops if a release's definitions bind a kind to the group that no set names, or lack
one a set names: a new kind or apiVersion is then a decision, not an accident.

Usage (from the repository root, with the test extras installed):

    .venv/bin/python schemas/generate.py           # rewrite the files
    .venv/bin/python schemas/generate.py --check   # exit 1 if a file differs from a fresh run
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

GROUP = "resource.k8s.io"
SOURCE_PACKAGE = "kubernetes_validate"
SOURCE_DISTRIBUTION = "kubernetes-validate"


@dataclass(frozen=True)
class SchemaSet:
    """The kinds of one apiVersion whose schemas come from one Kubernetes release's definitions.
    Each kind's list kind (`<Kind>List`) comes with it."""

    group: str
    version: str
    kubernetes_version: str
    kinds: tuple[str, ...]

    @property
    def api_version(self) -> str:
        return f"{self.group}/{self.version}"

    @property
    def source_file(self) -> str:
        return f"kubernetes-json-schema/v{self.kubernetes_version}-local/_definitions.json"

    @property
    def all_kinds(self) -> tuple[str, ...]:
        return tuple(kind for base in self.kinds for kind in (base, base + "List"))


# The kinds each 1.37 apiVersion serves (its definitions' x-kubernetes-group-version-kind): v1
# and v1beta2 have DeviceTaintRule, v1beta1 does not; v1alpha3 keeps only DeviceTaintRule and
# ResourcePoolStatusRequest, which share the apiVersion, not the schemas, of 1.31's v1alpha3.
CLAIM_KINDS_1_37 = ("DeviceClass", "ResourceClaim", "ResourceClaimTemplate", "ResourceSlice")
SCHEMA_SETS = (
    SchemaSet(
        GROUP,
        "v1alpha2",
        "1.30.0",
        (
            "ResourceClass",
            "ResourceClaim",
            "ResourceClaimTemplate",
            "PodSchedulingContext",
            "ResourceSlice",
            "ResourceClaimParameters",
            "ResourceClassParameters",
        ),
    ),
    SchemaSet(
        GROUP,
        "v1alpha3",
        "1.31.0",
        ("DeviceClass", "ResourceClaim", "ResourceClaimTemplate", "ResourceSlice", "PodSchedulingContext"),
    ),
    SchemaSet(GROUP, "v1alpha3", "1.37.0", ("DeviceTaintRule", "ResourcePoolStatusRequest")),
    SchemaSet(GROUP, "v1beta1", "1.37.0", CLAIM_KINDS_1_37),
    SchemaSet(GROUP, "v1beta2", "1.37.0", (*CLAIM_KINDS_1_37, "DeviceTaintRule")),
    SchemaSet(GROUP, "v1", "1.37.0", (*CLAIM_KINDS_1_37, "DeviceTaintRule")),
)

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


@cache
def load_definitions(source_file: str) -> dict[str, Any]:
    """The `$defs` of one of kubernetes-validate's definition files (one Kubernetes release)."""
    source = resources.files(SOURCE_PACKAGE).joinpath(source_file)
    document = json.loads(source.read_text(encoding="utf-8"))
    definitions: dict[str, Any] = document["$defs"]
    return definitions


def gvk_of(definition: Mapping[str, Any]) -> tuple[str, str, str] | None:
    entries = definition.get("x-kubernetes-group-version-kind") or []
    if len(entries) != 1:
        return None
    entry = entries[0]
    return entry["group"], entry["version"], entry["kind"]


def bound_kinds(definitions: Mapping[str, Any], group: str) -> dict[tuple[str, str], str]:
    """(version, kind) -> definition name, for every definition bound to one kind of `group`."""
    found: dict[tuple[str, str], str] = {}
    for name, definition in definitions.items():
        gvk = gvk_of(definition)
        if gvk is not None and gvk[0] == group:
            found[gvk[1], gvk[2]] = name
    return found


def check_sets_cover_the_sources(schema_sets: tuple[SchemaSet, ...]) -> None:
    """Each release's definitions bind to the group exactly the kinds its sets name, no more, no
    fewer (a new kind, or a new apiVersion of the group, stops the script)."""
    for source_file in sorted({schema_set.source_file for schema_set in schema_sets}):
        for group in sorted({schema_set.group for schema_set in schema_sets}):
            expected = sorted(
                (schema_set.version, kind)
                for schema_set in schema_sets
                if (schema_set.source_file, schema_set.group) == (source_file, group)
                for kind in schema_set.all_kinds
            )
            found = sorted(bound_kinds(load_definitions(source_file), group))
            if found != expected:
                raise SystemExit(
                    f"{source_file}: expected the {group} kinds {expected}, the source has {found}"
                )


def kind_definitions(schema_set: SchemaSet) -> dict[str, str]:
    """Kind -> definition name, for the kinds of one set (and their lists)."""
    bound = bound_kinds(load_definitions(schema_set.source_file), schema_set.group)
    return {kind: bound[schema_set.version, kind] for kind in schema_set.all_kinds}


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
            # kubernetes-validate's apiVersion/kind enums; the root gets its own. (A field's enum,
            # from a Go string type marked +enum, would go too: Go decodes any string into it, and
            # the validation rules check the value with their own messages.)
            continue
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


def kind_schema(schema_set: SchemaSet, kind: str, definition_name: str) -> dict[str, Any]:
    """The self-contained schema of one kind (module docstring)."""
    definitions = load_definitions(schema_set.source_file)
    root = normalize(definitions[definition_name], at_root=True)
    properties = dict(root["properties"])
    properties["apiVersion"] = ordered({**properties["apiVersion"], "enum": [schema_set.api_version, None]})
    properties["kind"] = ordered({**properties["kind"], "enum": [kind, None]})
    schema = {
        "$schema": SCHEMA_DIALECT,
        "$id": f"urn:dra-webhook:schema:{schema_set.api_version}/{kind}",
        "$comment": (
            f"Generated by schemas/generate.py from the Kubernetes {schema_set.kubernetes_version} OpenAPI "
            f"definitions shipped by {SOURCE_DISTRIBUTION} ({schema_set.source_file}). Do not edit."
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


def generated_files(output: Path, schema_sets: tuple[SchemaSet, ...] = SCHEMA_SETS) -> dict[Path, str]:
    """Every file of every set, by path (two sets of one apiVersion share its directory)."""
    check_sets_cover_the_sources(schema_sets)
    files: dict[Path, str] = {}
    for schema_set in schema_sets:
        for kind, name in sorted(kind_definitions(schema_set).items()):
            path = output / schema_set.group / schema_set.version / f"{kind.lower()}.json"
            if path in files:
                raise SystemExit(f"two sets write {path}")
            files[path] = render(kind_schema(schema_set, kind, name))
    return files


def files_on_disk(output: Path, schema_sets: tuple[SchemaSet, ...]) -> list[Path]:
    """The schema files in the directories the sets write to."""
    directories = sorted({output / schema_set.group / schema_set.version for schema_set in schema_sets})
    return [path for directory in directories for path in sorted(directory.glob("*.json"))]


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
    else:
        for path, text in files.items():
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
            print(f"wrote {path}")
        stale = []
    strays = [path for path in files_on_disk(args.output, SCHEMA_SETS) if path not in files]
    for path in strays:
        print(f"not made by this script (remove it, or add its kind to SCHEMA_SETS): {path}", file=sys.stderr)
    return 1 if stale or strays else 0


if __name__ == "__main__":
    raise SystemExit(main())
