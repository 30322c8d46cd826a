"""ResourceClass (cluster-scoped): `ValidateClass` / `ValidateClassUpdate` of kube-apiserver 1.30.

Wire fields: `driverName`, `parametersRef{apiGroup, kind, name, namespace}`, `suitableNodes`,
`structuredParameters`. `structuredParameters` and `parametersRef.apiGroup` are not validated in
any released version. Nothing is immutable: a class may even change its driver.
"""

from __future__ import annotations

from typing import Final

from webhook.field import ROOT, ErrorList
from webhook.rules.kinds import KindRules, Obj
from webhook.rules.meta import object_meta_update_then, validate_object_meta
from webhook.rules.names import validate_csi_driver_name
from webhook.rules.nodeselector import validate_node_selector
from webhook.rules.v1alpha2 import resource_v1alpha2
from webhook.rules.v1alpha2.references import validate_class_parameters_ref
from webhook.rules.values import optional_mapping, text

__all__ = ["RESOURCE_CLASS", "validate_class", "validate_class_update"]


def validate_class(resource_class: Obj) -> ErrorList:
    """`ValidateClass`: metadata, driverName, parametersRef, suitableNodes -- in this order."""
    errs = validate_object_meta(resource_class.get("metadata"), namespaced=False)
    errs += validate_csi_driver_name(text(resource_class.get("driverName")), ROOT.child("driverName"))
    errs += validate_class_parameters_ref(resource_class.get("parametersRef"), ROOT.child("parametersRef"))
    # SuitableNodes is a pointer: `{}` is validated (and lacks nodeSelectorTerms), null is not.
    suitable_nodes = optional_mapping(resource_class.get("suitableNodes"))
    if suitable_nodes is not None:
        errs += validate_node_selector(suitable_nodes, ROOT.child("suitableNodes"))
    return errs


# `ValidateClassUpdate`: ObjectMetaUpdate, then the whole create validation again.
validate_class_update: Final = object_meta_update_then(validate_class)


RESOURCE_CLASS = KindRules(
    gvk=resource_v1alpha2("ResourceClass"),
    resource="resourceclasses",
    namespaced=False,
    validate_create=validate_class,
    # The registry strategy runs ValidateClass(new) before ValidateClassUpdate, which runs it again,
    # so Go's causes list create errors twice (the message drops the repeat); we report each once.
    validate_update=validate_class_update,
)
