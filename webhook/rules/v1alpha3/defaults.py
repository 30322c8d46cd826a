"""The v1alpha3 defaulter of 1.31 (`pkg/apis/resource/v1alpha3/defaults.go`), which the API server
runs when it decodes an object, before any validation: `SetDefaults_DeviceRequest` fills an empty
`allocationMode` with ExactCount and, for ExactCount, a zero `count` with 1. It is the only v1alpha3
defaulter of 1.31.

Objects from the API server arrive defaulted; objects given offline may not be, so the rules read a
request, and compare specs, as the defaulter leaves them (as the v1alpha2 rules do with theirs).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from webhook.rules.values import integer, mapping, sequence, text

__all__ = [
    "ALLOCATION_MODE_ALL",
    "ALLOCATION_MODE_EXACT_COUNT",
    "defaulted_claim_spec",
    "defaulted_request",
    "defaulted_template_spec",
]

ALLOCATION_MODE_EXACT_COUNT: Final = "ExactCount"
ALLOCATION_MODE_ALL: Final = "All"


def defaulted_request(request: Any) -> Mapping[str, Any]:
    """A DeviceRequest as `SetDefaults_DeviceRequest` leaves it (the same object when nothing changes)."""
    fields = mapping(request)
    mode = text(fields.get("allocationMode"))
    needs_mode = not mode
    needs_count = (needs_mode or mode == ALLOCATION_MODE_EXACT_COUNT) and integer(fields.get("count")) == 0
    if not needs_mode and not needs_count:
        return fields
    defaulted = dict(fields)
    if needs_mode:
        defaulted["allocationMode"] = ALLOCATION_MODE_EXACT_COUNT
    if needs_count:
        defaulted["count"] = 1
    return defaulted


def defaulted_claim_spec(spec: Any) -> dict[str, Any]:
    """A ResourceClaimSpec with every request defaulted (`spec.devices.requests`)."""
    defaulted = dict(mapping(spec))
    devices = defaulted.get("devices")
    requests = sequence(mapping(devices).get("requests"))
    if requests:
        defaulted["devices"] = {**mapping(devices), "requests": [defaulted_request(r) for r in requests]}
    return defaulted


def defaulted_template_spec(spec: Any) -> dict[str, Any]:
    """A ResourceClaimTemplateSpec whose claim spec (`spec.spec`) is defaulted."""
    defaulted = dict(mapping(spec))
    defaulted["spec"] = defaulted_claim_spec(defaulted.get("spec"))
    return defaulted
