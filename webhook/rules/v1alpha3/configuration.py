"""Device configuration of resource.k8s.io/v1alpha3 as 1.31 checks it, wherever it appears: a claim's
`spec.devices.config[]`, a class's `spec.config[]` and an allocation's `status.allocation.devices.config[]`
(`validateDeviceConfiguration` and `validateOpaqueConfiguration` of `validation.go`).

`DeviceConfiguration` is inlined into each of them, so `opaque` sits beside `requests`. The opaque
parameters are a `runtime.RawExtension`: absent or null leaves its raw bytes empty (Required), and
anything but a JSON object is Invalid with the value omitted.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from webhook.field import ErrorList, FieldPath, invalid, required
from webhook.rules.names import validate_csi_driver_name
from webhook.rules.values import optional_mapping, text

__all__ = ["validate_device_configuration", "validate_opaque_configuration"]

# What Go shows instead of the parameters.
VALUE_OMITTED: Final = "<value omitted>"
NOT_AN_OBJECT_MSG: Final = "parameters must be a valid JSON object"


def validate_device_configuration(config: Mapping[str, Any], path: FieldPath) -> ErrorList:
    """`validateDeviceConfiguration`: the one configuration type of 1.31, `opaque`, is required."""
    opaque = optional_mapping(config.get("opaque"))
    if opaque is None:
        return [required(path.child("opaque"), "")]
    return validate_opaque_configuration(opaque, path.child("opaque"))


def validate_opaque_configuration(opaque: Mapping[str, Any], path: FieldPath) -> ErrorList:
    """`validateOpaqueConfiguration`: a driver name, and parameters that are a JSON object."""
    errs = validate_csi_driver_name(text(opaque.get("driver")), path.child("driver"))
    parameters = opaque.get("parameters")
    if parameters is None:
        # RawExtension.UnmarshalJSON keeps no bytes for null, and none arrive when it is absent.
        errs.append(required(path.child("parameters"), ""))
    elif not isinstance(parameters, Mapping):
        errs.append(invalid(path.child("parameters"), VALUE_OMITTED, NOT_AN_OBJECT_MSG))
    return errs
