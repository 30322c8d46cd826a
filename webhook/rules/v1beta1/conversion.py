"""resource.k8s.io/v1beta1 objects in v1's shape, as kube-apiserver 1.37 converts them, and back.

kube-apiserver converts a v1beta1 object to its internal type, which has v1's shape, before it
validates it. In 1.37 two v1beta1 types differ from v1 (`staging/src/k8s.io/api/resource/{v1beta1,v1}/
types.go` at v1.37.0-beta.0) and the hand-written conversions of `pkg/apis/resource/v1beta1/
conversion.go` bridge them:

* **DeviceRequest**: v1beta1 holds `deviceClassName`, `selectors`, `allocationMode`, `count`,
  `adminAccess`, `tolerations` and `capacity` in the request itself; v1 moves them into `exactly`.
  `Convert_v1beta1_DeviceRequest_To_resource_DeviceRequest` creates `exactly` when any of them is
  set (`hasAnyMainRequestFieldsSet`: a non-empty class name or allocation mode, a non-zero count, or a
  non-nil selectors, adminAccess, tolerations or capacity: an empty list is set, null is not) and
  copies them there, "it might be invalid but that will be caught in validation"; `name` and
  `firstAvailable` are copied as they are. A request with none of them has no `exactly`.
* **Device**: v1beta1 wraps a device's fields in `basic`; v1 has them in the device.
  `Convert_v1beta1_Device_To_resource_Device` copies every field of `basic` into the device (empty
  attribute and capacity maps and empty counter-consumption and taint lists become absent); a device
  without `basic` keeps only its name. `basic` itself has no v1 counterpart and disappears.
* **ResourceSliceSpec**: v1beta1's `nodeName` is a string and `allNodes` a bool, v1's are pointers:
  `Convert_v1beta1_ResourceSliceSpec_To_resource_ResourceSliceSpec` makes an empty node name and a
  false `allNodes` absent.

Every other field of every kind (DeviceClass, the claim's constraints, config and status, a
template's metadata, a slice's pool, counters and node selector, ...) has the same name and shape in
both versions and is copied as it is. A field v1beta1 does not know (`exactly`, a device's
`attributes` outside `basic`, the prototype `composite`) was dropped by the API server's decoder
before any conversion (a warning of the structural check): the converted parts here are built from
v1beta1's fields only, so such a field never reaches the v1 rules.

Objects are decoded JSON; the functions never change their input. A value of the wrong JSON type is
passed on as it is: the structural check has reported it before any rule runs.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from webhook.rules.kinds import Obj
from webhook.rules.values import integer, text

V1_API_VERSION: Final = "resource.k8s.io/v1"
V1BETA1_API_VERSION: Final = "resource.k8s.io/v1beta1"

# The fields of a v1beta1 DeviceRequest that v1 holds in `exactly`, in v1's order.
EXACT_REQUEST_FIELDS: Final = (
    "deviceClassName",
    "selectors",
    "allocationMode",
    "count",
    "adminAccess",
    "tolerations",
    "capacity",
)
# The fields of a v1beta1 BasicDevice, which v1 holds in the device itself, in v1's order.
BASIC_DEVICE_FIELDS: Final = (
    "attributes",
    "capacity",
    "consumesCounters",
    "nodeName",
    "nodeSelector",
    "allNodes",
    "taints",
    "bindsToNode",
    "bindingConditions",
    "bindingFailureConditions",
    "allowMultipleAllocations",
    "nodeAllocatableResourceMappings",
)
# The conversion copies these maps only when they have an entry, and builds these lists by appending
# (so an empty one becomes nil): in v1 an empty one is absent.
_DROPPED_WHEN_EMPTY: Final = frozenset({"attributes", "capacity", "consumesCounters", "taints"})
# The fields of ResourceSliceSpec, the same in both versions but for the types of nodeName and allNodes.
SLICE_SPEC_FIELDS: Final = (
    "driver",
    "pool",
    "nodeName",
    "nodeSelector",
    "allNodes",
    "devices",
    "perDeviceNodeSelection",
    "sharedCounters",
)


# --- v1beta1 -> v1 ----------------------------------------------------------------------------------


def device_class_to_v1(obj: Obj) -> Obj:
    """A DeviceClass: the same fields in both versions."""
    converted = _copy_in(obj, V1_API_VERSION)
    return obj if converted is None else converted


def claim_to_v1(obj: Obj) -> Obj:
    """A ResourceClaim: its requests in v1's shape; status and everything else as they are."""
    converted = _copy_in(obj, V1_API_VERSION)
    if converted is None:
        return obj
    if "spec" in converted:
        converted["spec"] = claim_spec_to_v1(converted["spec"])
    return converted


def claim_template_to_v1(obj: Obj) -> Obj:
    """A ResourceClaimTemplate: the requests of `spec.spec` in v1's shape."""
    converted = _copy_in(obj, V1_API_VERSION)
    if converted is None:
        return obj
    spec = converted.get("spec")
    if isinstance(spec, Mapping) and "spec" in spec:
        converted["spec"] = {**spec, "spec": claim_spec_to_v1(spec["spec"])}
    return converted


def resource_slice_to_v1(obj: Obj) -> Obj:
    """A ResourceSlice: its spec (node name, all nodes, devices) in v1's shape."""
    converted = _copy_in(obj, V1_API_VERSION)
    if converted is None:
        return obj
    if isinstance(converted.get("spec"), Mapping):
        converted["spec"] = slice_spec_to_v1(converted["spec"])
    return converted


def claim_spec_to_v1(spec: Any) -> Any:
    """A ResourceClaimSpec: `devices.requests` converted one by one, the rest as it is."""
    if not isinstance(spec, Mapping) or not isinstance(spec.get("devices"), Mapping):
        return spec
    devices: Mapping[str, Any] = spec["devices"]
    requests = devices.get("requests")
    if not isinstance(requests, list):
        return spec
    return {**spec, "devices": {**devices, "requests": [request_to_v1(request) for request in requests]}}


def request_to_v1(request: Any) -> Any:
    """`Convert_v1beta1_DeviceRequest_To_resource_DeviceRequest` (1.37)."""
    if not isinstance(request, Mapping):
        return request
    converted: dict[str, Any] = {}
    if "name" in request:
        converted["name"] = request["name"]
    if has_exact_request_fields(request):
        converted["exactly"] = {
            name: request[name]
            for name in EXACT_REQUEST_FIELDS
            if _copied(request.get(name), dropped_when_empty=name == "tolerations")
        }
    if request.get("firstAvailable") is not None:
        converted["firstAvailable"] = request["firstAvailable"]
    return converted


def has_exact_request_fields(request: Mapping[str, Any]) -> bool:
    """`hasAnyMainRequestFieldsSet`: what makes the conversion create `exactly`. Go tests the decoded
    struct: a string set when not empty, the count when not zero, the pointers and lists when not nil
    (JSON null is nil; an empty list is not)."""
    return bool(
        text(request.get("deviceClassName"))
        or request.get("selectors") is not None
        or text(request.get("allocationMode"))
        or integer(request.get("count")) != 0
        or request.get("adminAccess") is not None
        or request.get("tolerations") is not None
        or request.get("capacity") is not None
    )


def slice_spec_to_v1(spec: Mapping[str, Any]) -> dict[str, Any]:
    """`Convert_v1beta1_ResourceSliceSpec_To_resource_ResourceSliceSpec` (1.37): an empty node name
    and a false allNodes become absent, the devices leave `basic`."""
    converted: dict[str, Any] = {}
    for name in SLICE_SPEC_FIELDS:
        value = spec.get(name)
        if _unset_in_slice_spec(name, value):
            continue
        if name == "devices" and isinstance(value, list):
            value = [device_to_v1(device) for device in value]
        converted[name] = value
    return converted


def device_to_v1(device: Any) -> Any:
    """`Convert_v1beta1_Device_To_resource_Device` (1.37): the fields of `basic` in the device."""
    if not isinstance(device, Mapping):
        return device
    converted: dict[str, Any] = {}
    if "name" in device:
        converted["name"] = device["name"]
    basic = device.get("basic")
    if isinstance(basic, Mapping):
        for name in BASIC_DEVICE_FIELDS:
            value = basic.get(name)
            if _copied(value, dropped_when_empty=name in _DROPPED_WHEN_EMPTY):
                converted[name] = value
    return converted


# --- v1 -> v1beta1 ----------------------------------------------------------------------------------
# The conversions the API server runs to answer in v1beta1 (`Convert_resource_*_To_v1beta1_*`): a v1
# object re-expressed as v1beta1, the inverse of the above for every object the v1beta1 shape can say.


def device_class_from_v1(obj: Obj) -> Obj:
    converted = _copy_in(obj, V1BETA1_API_VERSION)
    return obj if converted is None else converted


def claim_from_v1(obj: Obj) -> Obj:
    converted = _copy_in(obj, V1BETA1_API_VERSION)
    if converted is None:
        return obj
    if "spec" in converted:
        converted["spec"] = claim_spec_from_v1(converted["spec"])
    return converted


def claim_template_from_v1(obj: Obj) -> Obj:
    converted = _copy_in(obj, V1BETA1_API_VERSION)
    if converted is None:
        return obj
    spec = converted.get("spec")
    if isinstance(spec, Mapping) and "spec" in spec:
        converted["spec"] = {**spec, "spec": claim_spec_from_v1(spec["spec"])}
    return converted


def resource_slice_from_v1(obj: Obj) -> Obj:
    converted = _copy_in(obj, V1BETA1_API_VERSION)
    if converted is None:
        return obj
    if isinstance(converted.get("spec"), Mapping):
        converted["spec"] = slice_spec_from_v1(converted["spec"])
    return converted


def claim_spec_from_v1(spec: Any) -> Any:
    if not isinstance(spec, Mapping) or not isinstance(spec.get("devices"), Mapping):
        return spec
    devices: Mapping[str, Any] = spec["devices"]
    requests = devices.get("requests")
    if not isinstance(requests, list):
        return spec
    return {**spec, "devices": {**devices, "requests": [request_from_v1(request) for request in requests]}}


def request_from_v1(request: Any) -> Any:
    """`Convert_resource_DeviceRequest_To_v1beta1_DeviceRequest` (1.37): `exactly` flattened."""
    if not isinstance(request, Mapping):
        return request
    converted: dict[str, Any] = {}
    if "name" in request:
        converted["name"] = request["name"]
    exactly = request.get("exactly")
    if isinstance(exactly, Mapping):
        for name in EXACT_REQUEST_FIELDS:
            if _copied(exactly.get(name), dropped_when_empty=name == "tolerations"):
                converted[name] = exactly[name]
    if request.get("firstAvailable") is not None:
        converted["firstAvailable"] = request["firstAvailable"]
    return converted


def slice_spec_from_v1(spec: Mapping[str, Any]) -> dict[str, Any]:
    """`Convert_resource_ResourceSliceSpec_To_v1beta1_ResourceSliceSpec` (1.37): an absent node name
    and allNodes become v1beta1's empty string and false, which its JSON leaves out."""
    converted: dict[str, Any] = {}
    for name in SLICE_SPEC_FIELDS:
        value = spec.get(name)
        if _unset_in_slice_spec(name, value):
            continue
        if name == "devices" and isinstance(value, list):
            value = [device_from_v1(device) for device in value]
        converted[name] = value
    return converted


def device_from_v1(device: Any) -> Any:
    """`Convert_resource_Device_To_v1beta1_Device` (1.37): every device gets a `basic`."""
    if not isinstance(device, Mapping):
        return device
    converted: dict[str, Any] = {}
    if "name" in device:
        converted["name"] = device["name"]
    converted["basic"] = {
        name: device[name]
        for name in BASIC_DEVICE_FIELDS
        if _copied(device.get(name), dropped_when_empty=name in _DROPPED_WHEN_EMPTY)
    }
    return converted


# --- helpers --------------------------------------------------------------------------------------


def _copy_in(obj: Obj, api_version: str) -> dict[str, Any] | None:
    """A shallow copy of the object under `api_version`; None for a value that is not an object
    (the structural check has denied it)."""
    if not isinstance(obj, Mapping):
        return None
    return {**obj, "apiVersion": api_version}


def _unset_in_slice_spec(name: str, value: Any) -> bool:
    """Null, and the values v1beta1's plain string and bool cannot tell from absent."""
    return value is None or (name == "nodeName" and value == "") or (name == "allNodes" and value is False)


def _copied(value: Any, *, dropped_when_empty: bool) -> bool:
    """Whether the conversion leaves a field set: JSON null is Go's nil (and a missing key its zero
    value); some maps and lists are copied only when they hold something."""
    if value is None:
        return False
    return not (dropped_when_empty and isinstance(value, (list, dict)) and not value)
