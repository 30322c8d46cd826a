"""ResourceClass (cluster-scoped): `ValidateClass` / `ValidateClassUpdate` of kube-apiserver 1.30.

Wire fields: `driverName`, `parametersRef{apiGroup, kind, name, namespace}`, `suitableNodes`,
`structuredParameters`. `structuredParameters` and `parametersRef.apiGroup` are not validated in
any released version. Nothing is immutable: a class may even change its driver.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from webhook.field import ROOT, ErrorList, FieldPath, required
from webhook.rules.kinds import GroupVersionKind, KindRules, Obj
from webhook.rules.meta import validate_object_meta, validate_object_meta_update
from webhook.rules.names import validate_csi_driver_name, validate_dns_label
from webhook.rules.nodeselector import validate_node_selector
from webhook.rules.values import optional_mapping, text

__all__ = ["RESOURCE_CLASS", "validate_class", "validate_class_parameters_reference", "validate_class_update"]


def validate_class_parameters_reference(ref: Mapping[str, Any] | None, path: FieldPath) -> ErrorList:
    """`validateClassParameters`: a ResourceClass.parametersRef or a ResourceClassParameters.generatedFrom.

    The namespace, when set, goes through `ValidateNamespaceName` (a DNS label).
    """
    if ref is None:
        return []
    errs: ErrorList = []
    if not text(ref.get("kind")):
        errs.append(required(path.child("kind"), ""))
    if not text(ref.get("name")):
        errs.append(required(path.child("name"), ""))
    namespace = text(ref.get("namespace"))
    if namespace:
        errs += validate_dns_label(namespace, path.child("namespace"))
    return errs


def validate_class(resource_class: Obj) -> ErrorList:
    """`ValidateClass`: metadata, driverName, parametersRef, suitableNodes -- in this order."""
    errs = validate_object_meta(resource_class.get("metadata"), namespaced=False)
    errs += validate_csi_driver_name(text(resource_class.get("driverName")), ROOT.child("driverName"))
    errs += validate_class_parameters_reference(
        optional_mapping(resource_class.get("parametersRef")), ROOT.child("parametersRef")
    )
    # SuitableNodes is a pointer: `{}` is validated (and lacks nodeSelectorTerms), null is not.
    suitable_nodes = optional_mapping(resource_class.get("suitableNodes"))
    if suitable_nodes is not None:
        errs += validate_node_selector(suitable_nodes, ROOT.child("suitableNodes"))
    return errs


def validate_class_update(new: Obj, old: Obj) -> ErrorList:
    """`ValidateClassUpdate`: ObjectMetaUpdate, then the whole create validation again."""
    errs = validate_object_meta_update(new.get("metadata"), old.get("metadata"))
    errs += validate_class(new)
    return errs


RESOURCE_CLASS = KindRules(
    gvk=GroupVersionKind("resource.k8s.io", "v1alpha2", "ResourceClass"),
    resource="resourceclasses",
    namespaced=False,
    validate_create=validate_class,
    # The registry strategy runs ValidateClass(new) before ValidateClassUpdate, which runs it again,
    # so Go's causes list create errors twice (the message drops the repeat); we report each once.
    validate_update=validate_class_update,
)
