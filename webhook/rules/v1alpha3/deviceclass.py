"""DeviceClass (resource.k8s.io/v1alpha3, cluster-scoped): create and update, as kube-apiserver 1.31.

Mirrors `ValidateDeviceClass`, `ValidateDeviceClassUpdate` and `validateDeviceClassSpec` of
`pkg/apis/resource/validation/validation.go` (1.31) and the registry strategy
(`pkg/registry/resource/deviceclass/strategy.go`), whose `ValidateUpdate` runs `ValidateDeviceClass(new)`
and then `ValidateDeviceClassUpdate(new, old)`: ObjectMetaUpdate and the spec again (see
`strategy.py`). Nothing in the spec is immutable.

`spec.suitableNodes` is reported at ``suitableNodes...``: 1.31's Go builds that path with
`field.NewPath("suitableNodes")`, not under `spec`.
"""

from __future__ import annotations

import functools
from typing import Any, Final

from webhook.field import ROOT, ErrorList, FieldPath
from webhook.rules import meta
from webhook.rules.equality import semantic_equal
from webhook.rules.kinds import KindRules, Obj
from webhook.rules.nodeselector import validate_node_selector
from webhook.rules.v1alpha3 import resource_v1alpha3
from webhook.rules.v1alpha3.configuration import validate_device_configuration
from webhook.rules.v1alpha3.deviceclaim import DEVICE_CONFIG_MAX_SIZE
from webhook.rules.v1alpha3.selectors import DEVICE_SELECTORS_MAX_SIZE, validate_selector
from webhook.rules.v1alpha3.shapes import DEVICE_SELECTORS
from webhook.rules.v1alpha3.slices import validate_slice
from webhook.rules.v1alpha3.strategy import create_then_update
from webhook.rules.values import mapping, optional_mapping, sequence

__all__ = ["DEVICE_CLASS", "validate_device_class", "validate_device_class_update"]

_SPEC = ROOT.child("spec")
# Where 1.31 reports the suitable nodes (see the module docstring).
_SUITABLE_NODES = ROOT.child("suitableNodes")


def validate_device_class_spec(spec: Any, path: FieldPath, *, old_spec: Any = None) -> ErrorList:
    """`validateDeviceClassSpec`: selectors, configuration, then the suitable nodes when set. On
    update (`old_spec` given), selectors exactly as before are compiled as stored expressions; any
    change, even a reordering, makes them new ones (1.31)."""
    fields = mapping(spec)
    selectors = sequence(fields.get("selectors"))
    stored = old_spec is not None and semantic_equal(
        selectors, sequence(mapping(old_spec).get("selectors")), DEVICE_SELECTORS
    )
    errs = validate_slice(
        selectors,
        DEVICE_SELECTORS_MAX_SIZE,
        functools.partial(validate_selector, stored=stored),
        path.child("selectors"),
    )
    errs += validate_slice(
        sequence(fields.get("config")),
        DEVICE_CONFIG_MAX_SIZE,
        _validate_class_configuration,
        path.child("config"),
    )
    # SuitableNodes is a pointer: `{}` is validated (and lacks nodeSelectorTerms), null is not.
    suitable_nodes = optional_mapping(fields.get("suitableNodes"))
    if suitable_nodes is not None:
        errs += validate_node_selector(suitable_nodes, _SUITABLE_NODES)
    return errs


def _validate_class_configuration(config: Any, path: FieldPath) -> ErrorList:
    """`validateDeviceClassConfiguration`: a DeviceConfiguration, nothing more."""
    return validate_device_configuration(mapping(config), path)


def validate_device_class(device_class: Obj) -> ErrorList:
    """`ValidateDeviceClass`: ObjectMeta of a cluster-scoped object, then the spec."""
    errs = meta.validate_object_meta(device_class.get("metadata"), namespaced=False)
    errs += validate_device_class_spec(device_class.get("spec"), _SPEC)
    return errs


def validate_device_class_update(new: Obj, old: Obj) -> ErrorList:
    """The strategy's `ValidateDeviceClass(new)` then `ValidateDeviceClassUpdate(new, old)`, which
    compiles unchanged selectors in the StoredExpressions CEL environment."""
    errs = meta.validate_object_meta_update(new.get("metadata"), old.get("metadata"))
    errs += validate_device_class_spec(new.get("spec"), _SPEC, old_spec=old.get("spec"))
    return create_then_update(validate_device_class(new), errs)


DEVICE_CLASS: Final = KindRules(
    gvk=resource_v1alpha3("DeviceClass"),
    resource="deviceclasses",
    namespaced=False,
    validate_create=validate_device_class,
    validate_update=validate_device_class_update,
)
