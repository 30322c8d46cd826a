"""The structural check: would kube-apiserver even decode this object as its Go type?

Before any validation rule runs, the API server decodes the request body into the kind's Go struct
with `sigs.k8s.io/json`. A value of the wrong JSON type there is a decoding error, and a field the
struct does not have is, with server-side field validation, a warning (``unknown field "spec.foo"``)
or an error. This module answers the same questions from the JSON Schemas in ``schemas/`` (one file
per kind, generated from the OpenAPI of the release each apiVersion is judged as: 1.30 for v1alpha2,
1.31 for v1alpha3, 1.37 for v1, v1beta2 and v1beta1; see ``schemas/README.md``) so that rules only
ever see objects of the right shape, and so that a malformed object is denied with causes at the
offending paths instead of crashing a rule.

What is reported, and how it is worded:

* A wrong JSON type is ``FieldValueTypeInvalid`` in the wording of the API server's OpenAPI schema
  validation (kube-openapi `errors.InvalidType`, turned into a field error by apiextensions'
  `kubeOpenAPIResultToFieldErrors`): the bad value is the JSON type's name and the detail is
  ``<path> in body must be of type <type>: "<actual type>"``, e.g.
  ``spec.reservedFor: Invalid value: "string": spec.reservedFor in body must be of type array: "string"``.
  For built-in kinds the API server itself answers a 400 with Go's decoding error, which is not a
  field error; this is the closest field-level form the API server has.
* A timestamp that Go's `time.Parse(time.RFC3339, ...)` rejects is the same error with the format as
  the type (``must be of type date-time``), as kube-openapi words a format failure.
* A quantity that `resource.ParseQuantity` rejects is ``FieldValueInvalid`` with Go's own message.
* An integer outside int64 is a type error (``must be of type integer: "number"``): Go cannot store
  it, and the API server's generic JSON decoding reads it as a float.
* An integer outside int32 where the Go field is an int32 (``format: int32``) is a type error with
  the format as the type, as kube-openapi's `InvalidType` words it for a value that is not a string
  (``spec.limit in body must be of type int32``): `json.Unmarshal` cannot store it either.
* An ``apiVersion`` or ``kind`` other than the schema's is ``FieldValueNotSupported``, listing the one
  supported value. Absent or null is accepted: the API server takes them from the request URL.
* Unknown fields are warnings worded as `sigs.k8s.io/json` strict decoding words them
  (``unknown field "spec.foo"``, full path with list indexes, in document order, each at most once,
  at most 100 of them). Go reports them only when decoding otherwise succeeds; the checker reports
  them alongside type errors, since its answer to a type error is a denial either way.

What is accepted, because Go's decoder accepts it: ``null`` at any position below the root (it
leaves the Go field at its zero value, required or not); any JSON value where the Go type keeps raw
JSON (`runtime.RawExtension`, `metav1.FieldsV1`); a JSON number for a quantity. Integers must be
JSON integers: Go does not decode ``1.0`` into an int64.

Missing OpenAPI-required fields are *not* errors by default: kube-apiserver does not enforce the
OpenAPI ``required`` list for built-in kinds -- their validation code does, with its own messages
(a ResourceClass without ``driverName`` gets ``Required value`` *and* the DNS-subdomain message),
and a structural Required error would deny first and hide those. `StructuralChecker.load` takes
``report_missing_required=True`` for callers that want them anyway (``Required value`` at the path).

The checker is compiled once from the schema files (`webhook.schema_compiler`) into a tree of small
node objects; checking is a single walk over the object that only builds paths when it has something
to report (`webhook.schema_nodes`). Go's quantity parsing is `webhook.quantity`.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from types import MappingProxyType
from typing import Any

from webhook.field import ROOT, ErrorList, FieldError, go_quote, type_invalid
from webhook.rules.kinds import GroupVersionKind
from webhook.schema_compiler import SchemaCompiler, SchemaError, check_root, kind_of
from webhook.schema_nodes import Findings, Node, json_type

__all__ = [
    "SchemaError",
    "StructuralChecker",
    "StructuralReport",
    "default_schema_directory",
    "not_an_object",
]


@dataclass(frozen=True, slots=True)
class StructuralReport:
    """The outcome of one structural check: errors deny the object, warnings are passed on."""

    errors: ErrorList
    warnings: tuple[str, ...]


def default_schema_directory() -> Path:
    """Where the schemas are: inside the package when installed from a wheel, else the source tree.

    ``webhook/schema_files`` is a symbolic link to ``../schemas`` in the repository (so an editable
    install reads the files in place); a built wheel carries real files there (pyproject
    package-data). Without the link (a checkout where symlinks are plain files), the source tree's
    ``schemas/`` is used directly.
    """
    here = Path(__file__).resolve().parent
    for candidate in (here / "schema_files", here.parent / "schemas"):
        if candidate.is_dir():
            return candidate
    raise SchemaError(f"no schema directory: neither {here / 'schema_files'} nor {here.parent / 'schemas'}")


def _schema_files(directory: Path) -> Iterable[Path]:
    """``<group>/<version>/<kind>.json`` files, in a stable order."""
    return sorted(directory.glob("*/*/*.json"))


class StructuralChecker:
    """Checks objects of the kinds it has schemas for. Build it once with `load`; it is immutable."""

    __slots__ = ("_by_name", "_report_missing_required", "_roots")

    def __init__(
        self, roots: Mapping[GroupVersionKind, Node], *, report_missing_required: bool = False
    ) -> None:
        self._roots: Mapping[GroupVersionKind, Node] = MappingProxyType(dict(roots))
        # The same, found by a tuple: hashed and compared in C, unlike the dataclass.
        self._by_name: dict[tuple[str, str, str], Node] = {
            (gvk.group, gvk.version, gvk.kind): node for gvk, node in roots.items()
        }
        self._report_missing_required = report_missing_required

    @classmethod
    def load(
        cls, directory: Path | None = None, *, report_missing_required: bool = False
    ) -> StructuralChecker:
        """Read and compile every schema file under `directory` (default: `default_schema_directory`).

        Raises SchemaError for a file that is not JSON, uses a keyword or format the checker does
        not implement, has a dangling reference, or claims a kind another file already claims.
        """
        directory = directory if directory is not None else default_schema_directory()
        if not directory.is_dir():
            raise SchemaError(f"{directory}: not a directory")
        roots: dict[GroupVersionKind, Node] = {}
        for source in _schema_files(directory):
            try:
                document = json.loads(source.read_text(encoding="utf-8"))
            except (OSError, UnicodeDecodeError, ValueError) as error:
                raise SchemaError(f"{source}: cannot read: {error}") from error
            if not isinstance(document, Mapping):
                raise SchemaError(f"{source}: a schema must be a JSON object")
            gvk = kind_of(source, document)
            if gvk in roots:
                raise SchemaError(f"{source}: a second schema for {gvk}")
            check_root(source, document, gvk)
            roots[gvk] = SchemaCompiler(source, document).node(document, gvk.kind)
        if not roots:
            raise SchemaError(f"{directory}: no schema files (<group>/<version>/<kind>.json)")
        return cls(roots, report_missing_required=report_missing_required)

    @property
    def kinds(self) -> tuple[GroupVersionKind, ...]:
        return tuple(sorted(self._roots))

    def knows(self, gvk: GroupVersionKind) -> bool:
        return gvk in self._roots

    def check(self, gvk: GroupVersionKind, obj: Any) -> StructuralReport:
        """The structural errors and unknown-field warnings of `obj` as a `gvk`. Never raises for
        any decoded JSON value; raises KeyError for a kind without a schema (ask `knows` first)."""
        root = self._by_name.get((gvk.group, gvk.version, gvk.kind))
        if root is None:
            raise KeyError(f"no schema for {gvk}")
        findings = Findings(self._report_missing_required)
        if type(obj) is dict or isinstance(obj, Mapping):
            root.check(obj, None, findings)
        else:
            findings.errors.append(not_an_object(obj))
        return StructuralReport(findings.errors, tuple(findings.warnings))


def not_an_object(obj: Any) -> FieldError:
    """The error for a whole object that is not a JSON object: a type error at the root (``<nil>``)."""
    actual = json_type(obj)
    return type_invalid(ROOT, actual, f"body must be of type object: {go_quote(actual)}")
