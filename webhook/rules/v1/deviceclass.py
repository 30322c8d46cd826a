"""DeviceClass (resource.k8s.io/v1, cluster-scoped) as kube-apiserver 1.37 validates it.

Hand-written: `ValidateDeviceClass` on create and `ValidateDeviceClassUpdate` on update
(`pkg/apis/resource/validation/validation.go`, 1.37), which checks the object's metadata with
`ValidateObjectMetaWithOpts` and the name with `validate.LongName` (covered by declarative
validation), then the spec: selectors, configuration and the extended resource name. An update
also runs `ValidateObjectMetaUpdate`; configuration and selectors equal to the stored ones are
"stored" (parameters over the size limit stay valid). Declarative: `webhook.rules.v1.declared`.
The two are merged as 1.37 merges them (`webhook.rules.v1.lifecycle`).

The REST layer adds its own metadata check (apiserver `pkg/registry/rest`, v0.37.0-beta.0): on create
when the kind's checks found nothing (`ValidateCreate`), on every update before them
(`validateCommonFields`). It validates generateName as a path segment prefix, which
`ValidateObjectMetaWithOpts` does not look at: a generateName with '/' or '%' is denied.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from webhook.field import ROOT, ErrorList, FieldPath, covered_by_declarative, invalid, with_origin
from webhook.rules import meta
from webhook.rules.equality import semantic_equal
from webhook.rules.kinds import KindRules, Obj
from webhook.rules.names import is_qualified_name
from webhook.rules.v1 import RELEASE, declared, resource_v1, shapes
from webhook.rules.v1.declarative import long_name
from webhook.rules.v1.devices import (
    DEVICE_CONFIG_MAX_SIZE,
    validate_device_configuration,
    validate_selectors,
    validate_slice,
)
from webhook.rules.v1.lifecycle import created_meta_errors, merge_validations, updated_with_common_fields
from webhook.rules.values import mapping, sequence

EXTENDED_RESOURCE_NAME_MSG: Final = "must be a valid extended resource name"

_SPEC = ROOT.child("spec")


def validate_device_class(device_class: Obj) -> ErrorList:
    """Create: `ValidateDeviceClass` merged with `Validate_DeviceClass`; when that finds nothing, the
    REST layer's `ValidateObjectMetaAccessor(meta, false, validatePathSegment, ...)` (apiserver
    `pkg/registry/rest/create.go` `ValidateCreate`), whose only news is a generateName that is no
    path segment prefix."""
    handwritten = _validate_class_meta(device_class.get("metadata"))
    handwritten += validate_device_class_spec(mapping(device_class.get("spec")), None, _SPEC)
    errs = merge_validations(handwritten, declared.validate_device_class(device_class, None))
    return errs or created_meta_errors(device_class.get("metadata"), namespaced=False)


def validate_device_class_update(new: Obj, old: Obj) -> ErrorList:
    """Update: `rest.validateCommonFields` (apiserver `pkg/registry/rest/update.go`), then
    `ValidateDeviceClassUpdate`, merged with `Validate_DeviceClass(new, old)`; the merge keeps one of
    the texts the two metadata checks repeat."""
    handwritten = updated_with_common_fields(new.get("metadata"), old.get("metadata"), namespaced=False)
    handwritten += _validate_class_meta(new.get("metadata"))
    handwritten += meta.validate_object_meta_update(new.get("metadata"), old.get("metadata"), release=RELEASE)
    handwritten += validate_device_class_spec(mapping(new.get("spec")), mapping(old.get("spec")), _SPEC)
    return merge_validations(handwritten, declared.validate_device_class(new, old))


def _validate_class_meta(metadata: Any) -> ErrorList:
    """`ValidateObjectMetaWithOpts(meta, false, validateClassName, ...)`; the name is a long name
    (`validate.LongName(...).MarkCoveredByDeclarative()`)."""
    return meta.validate_object_meta_with_opts(
        metadata, namespaced=False, name_errors=_class_name_errors, release=RELEASE
    )


def _class_name_errors(name: str, path: FieldPath) -> ErrorList:
    return covered_by_declarative(long_name(name, path))


def validate_device_class_spec(
    spec: Mapping[str, Any], old: Mapping[str, Any] | None, path: FieldPath
) -> ErrorList:
    """`validateDeviceClassSpec`: selectors and configuration exactly as before (`old`) are treated
    as stored (their CEL compiled in the StoredExpressions environment, their parameters allowed
    over today's size limit); any change, even a reordering, makes them new."""
    selectors_stored = old is not None and semantic_equal(
        spec.get("selectors"), old.get("selectors"), shapes.DEVICE_SELECTORS
    )
    errs = validate_selectors(spec.get("selectors"), path.child("selectors"), stored=selectors_stored)
    stored = old is not None and semantic_equal(
        spec.get("config"), old.get("config"), shapes.DEVICE_CLASS_CONFIGURATIONS
    )
    errs += validate_slice(
        sequence(spec.get("config")),
        DEVICE_CONFIG_MAX_SIZE,
        lambda config, at: validate_device_configuration(mapping(config), at, stored=stored),
        path.child("config"),
        size_covered=True,
    )
    name = spec.get("extendedResourceName")
    if isinstance(name, str) and not is_extended_resource_name(name):
        error = invalid(path.child("extendedResourceName"), name, EXTENDED_RESOURCE_NAME_MSG)
        errs += covered_by_declarative(with_origin([error], "format=k8s-extended-resource-name"))
    return errs


def is_extended_resource_name(name: str) -> bool:
    """`v1helper.IsExtendedResourceName`: a domain-prefixed name outside kubernetes.io, not a quota
    name ("requests." prefix), that is a label key once "requests." is put before it."""
    if "/" not in name or "kubernetes.io/" in name or name.startswith("requests."):
        return False
    return not is_qualified_name("requests." + name, release=RELEASE)


DEVICE_CLASS: Final = KindRules(
    gvk=resource_v1("DeviceClass"),
    resource="deviceclasses",
    namespaced=False,
    validate_create=validate_device_class,
    validate_update=validate_device_class_update,
)
