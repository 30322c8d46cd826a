"""Kinds of one apiVersion judged by the rules of another after conversion, as kube-apiserver does.

kube-apiserver decodes an object of any apiVersion it serves, converts it to the internal type and
validates that: the rules of `resource.k8s.io/v1beta2` and `v1beta1` in Kubernetes 1.37 are the
rules of `v1` (whose shape the internal type has), run on the converted object. What differs is the
shape on the wire, and so the field paths, the order and the printed values of the errors the
declarative validation reports on the wire version (docs/versions.md, "v1beta1 and v1beta2").

`converted_kind` builds the `KindRules` of such a kind from three parts: the rules of the kind in
the shape they are written in, a pure conversion of the wire object to that shape, and the mapping
of the errors found in that shape to the errors the API server reports for the wire version.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from webhook.field import ErrorList
from webhook.rules.kinds import CreateValidator, GroupVersionKind, KindRules, Obj, UpdateValidator

# The wire object of one apiVersion -> the same object in the shape the rules are written in.
Converter = Callable[[Obj], Obj]
# The errors found in the rules' shape -> the errors as the API server reports them for the wire version.
ErrorMapper = Callable[[ErrorList], ErrorList]


def same_errors(errors: ErrorList) -> ErrorList:
    """The mapper of a version whose errors are those of the rules' shape as they are."""
    return errors


@dataclass(frozen=True, slots=True)
class ConvertedCreate:
    """A create validator run on the converted object, its errors mapped back."""

    validate: CreateValidator
    convert: Converter
    map_errors: ErrorMapper

    def __call__(self, obj: Obj) -> ErrorList:
        return self.map_errors(self.validate(self.convert(obj)))


@dataclass(frozen=True, slots=True)
class ConvertedUpdate:
    """An update (or status update) validator run on the converted new and old objects."""

    validate: UpdateValidator
    convert: Converter
    map_errors: ErrorMapper

    def __call__(self, new: Obj, old: Obj) -> ErrorList:
        return self.map_errors(self.validate(self.convert(new), self.convert(old)))


def converted_kind(
    rules: KindRules,
    gvk: GroupVersionKind,
    *,
    convert: Converter,
    map_errors: ErrorMapper = same_errors,
    resource: str = "",
) -> KindRules:
    """The rules of `gvk`: `rules` (of the same kind in another apiVersion) run on each object after
    `convert`, every error list passed through `map_errors`. The resource name (plural), the scope
    and the subresources are those of `rules` unless `resource` names another plural."""
    if gvk.kind != rules.gvk.kind:
        raise ValueError(f"{gvk} cannot be judged by the rules of {rules.gvk}: another kind")
    status = rules.validate_status_update
    return KindRules(
        gvk=gvk,
        resource=resource or rules.resource,
        namespaced=rules.namespaced,
        validate_create=ConvertedCreate(rules.validate_create, convert, map_errors),
        validate_update=ConvertedUpdate(rules.validate_update, convert, map_errors),
        validate_status_update=None if status is None else ConvertedUpdate(status, convert, map_errors),
    )
