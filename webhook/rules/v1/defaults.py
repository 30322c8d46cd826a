"""The defaulters kube-apiserver 1.37 runs on a resource.k8s.io/v1 object before validating it.

`pkg/apis/resource/v1/defaults.go` and the `+default` tags of `k8s.io/api/resource/v1`:

* `SetDefaults_ExactDeviceRequest`, `SetDefaults_DeviceSubRequest`: an empty allocationMode becomes
  ExactCount, and an ExactCount request with count 0 asks for one device;
* `DeviceToleration.operator` (`+default="Equal"`): empty becomes Equal, wherever a toleration is
  (requests, subrequests, allocation results).

Objects that come through the API server are defaulted already; objects given offline may not be,
so the rules default them as the v1alpha2 rules apply their defaulter. The functions never change
what they are given: they return a new value where a default applies, and the value they were given
where none does (the usual case, which then costs no copy).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

EXACT_COUNT: Final = "ExactCount"
DEFAULT_TOLERATION_OPERATOR: Final = "Equal"


def defaulted_claim_spec(spec: Any) -> Any:
    """A ResourceClaimSpec with its requests defaulted (anything that is not an object is returned
    as it is: the rules read it as Go would decode it)."""
    if not isinstance(spec, dict):
        return spec
    devices = spec.get("devices")
    if not isinstance(devices, dict):
        return spec
    given = devices.get("requests")
    if not isinstance(given, list):
        return spec
    requests = _defaulted_items(given, _defaulted_request)
    if requests is given:
        return spec
    return {**spec, "devices": {**devices, "requests": requests}}


def _defaulted_items(given: list[Any], defaulted: Callable[[Any], Any]) -> list[Any]:
    """Each item of `given` defaulted: the list given until the first item a default applies to, a
    new list from there. (Plain loops: mypyc compiles them to C, not generators.)"""
    for index in range(len(given)):
        item = given[index]
        changed = defaulted(item)
        if changed is not item:
            items = given[:index]
            items.append(changed)
            for rest in given[index + 1 :]:
                items.append(defaulted(rest))
            return items
    return given


def _defaulted_request(request: Any) -> Any:
    if not isinstance(request, dict):
        return request
    exactly, first_available = request.get("exactly"), request.get("firstAvailable")
    defaulted_exactly = defaulted_device_request(exactly) if isinstance(exactly, dict) else exactly
    if isinstance(first_available, list):
        defaulted_subrequests = _defaulted_items(first_available, defaulted_device_request)
        if defaulted_exactly is exactly and defaulted_subrequests is first_available:
            return request
        defaulted = dict(request)
        if isinstance(exactly, dict):
            defaulted["exactly"] = defaulted_exactly
        defaulted["firstAvailable"] = (
            list(first_available) if defaulted_subrequests is first_available else defaulted_subrequests
        )
        return defaulted
    if defaulted_exactly is exactly:
        return request
    defaulted = dict(request)
    defaulted["exactly"] = defaulted_exactly  # changed, so a dict
    return defaulted


def defaulted_device_request(request: Any) -> Any:
    """`SetDefaults_ExactDeviceRequest` / `SetDefaults_DeviceSubRequest`, and the tolerations."""
    if not isinstance(request, dict):
        return request
    mode = request.get("allocationMode")
    count = request.get("count")
    tolerations = request.get("tolerations")
    mode_defaulted = mode is None or mode == ""
    count_defaulted = (EXACT_COUNT if mode_defaulted else mode) == EXACT_COUNT and (
        count is None or (type(count) is int and count == 0)
    )
    defaulted_list = defaulted_tolerations(tolerations) if isinstance(tolerations, list) else tolerations
    if not mode_defaulted and not count_defaulted and defaulted_list is tolerations:
        return request
    defaulted = dict(request)
    if mode_defaulted:
        defaulted["allocationMode"] = EXACT_COUNT
    if count_defaulted:
        defaulted["count"] = 1
    if isinstance(tolerations, list):
        defaulted["tolerations"] = defaulted_list
    return defaulted


def defaulted_tolerations(tolerations: list[Any]) -> list[Any]:
    """`operator` defaults to Equal (the list given when no toleration lacks one)."""
    return _defaulted_items(tolerations, _defaulted_toleration)


def _defaulted_toleration(toleration: Any) -> Any:
    if isinstance(toleration, dict) and toleration.get("operator") in (None, ""):
        return {**toleration, "operator": DEFAULT_TOLERATION_OPERATOR}
    return toleration


def defaulted_claim_status(status: Any) -> Any:
    """A ResourceClaimStatus whose allocation results have their tolerations defaulted."""
    if not isinstance(status, dict):
        return status
    allocation = status.get("allocation")
    if not isinstance(allocation, dict):
        return status
    devices = allocation.get("devices")
    if not isinstance(devices, dict) or not isinstance(devices.get("results"), list):
        return status
    given: list[Any] = devices["results"]
    results = _defaulted_items(given, _defaulted_result)
    if results is given:
        return status
    return {**status, "allocation": {**allocation, "devices": {**devices, "results": results}}}


def _defaulted_result(result: Any) -> Any:
    if not isinstance(result, dict) or not isinstance(result.get("tolerations"), list):
        return result
    tolerations = result["tolerations"]
    defaulted = defaulted_tolerations(tolerations)
    return result if defaulted is tolerations else {**result, "tolerations": defaulted}
