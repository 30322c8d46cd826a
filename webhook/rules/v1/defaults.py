"""The defaulters kube-apiserver 1.37 runs on a resource.k8s.io/v1 object before validating it.

`pkg/apis/resource/v1/defaults.go` and the `+default` tags of `k8s.io/api/resource/v1`:

* `SetDefaults_ExactDeviceRequest`, `SetDefaults_DeviceSubRequest`: an empty allocationMode becomes
  ExactCount, and an ExactCount request with count 0 asks for one device;
* `DeviceToleration.operator` (`+default="Equal"`): empty becomes Equal, wherever a toleration is
  (requests, subrequests, allocation results).

Objects that come through the API server are defaulted already; objects given offline may not be,
so the rules default them as the v1alpha2 rules apply their defaulter. The functions return new
values and never change what they are given.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

from webhook.rules.kinds import Obj

EXACT_COUNT: Final = "ExactCount"
DEFAULT_TOLERATION_OPERATOR: Final = "Equal"

# The defaulter of one request of a claim spec: v1's (`defaulted_request`), or that of the apiVersion
# the claim came in (v1beta1's, `webhook.rules.v1beta1.defaults`).
RequestDefaulter = Callable[[Any], Any]


def defaulted_request(request: Any) -> Any:
    """A v1 DeviceRequest: its `exactly` and its subrequests."""
    if not isinstance(request, dict):
        return request
    defaulted = dict(request)
    if isinstance(request.get("exactly"), dict):
        defaulted["exactly"] = defaulted_device_request(request["exactly"])
    if isinstance(request.get("firstAvailable"), list):
        defaulted["firstAvailable"] = [defaulted_device_request(sub) for sub in request["firstAvailable"]]
    return defaulted


def defaulted_claim(claim: Obj, default_request: RequestDefaulter = defaulted_request) -> Obj:
    """The claim as the defaulters leave it: its spec's requests (`default_request` each), its
    allocation results' tolerations."""
    defaulted = dict(claim)
    if "spec" in claim:
        defaulted["spec"] = defaulted_claim_spec(claim["spec"], default_request)
    if "status" in claim:
        defaulted["status"] = defaulted_claim_status(claim["status"])
    return defaulted


def defaulted_template(
    template: Obj, default_request: RequestDefaulter = defaulted_request
) -> dict[str, Any]:
    """The template as the defaulters leave it: the requests of its claim spec at `spec.spec`."""
    defaulted = dict(template)
    spec = template.get("spec")
    if isinstance(spec, dict) and "spec" in spec:
        defaulted["spec"] = {**spec, "spec": defaulted_claim_spec(spec["spec"], default_request)}
    return defaulted


def defaulted_claim_spec(spec: Any, default_request: RequestDefaulter = defaulted_request) -> Any:
    """A ResourceClaimSpec with its requests defaulted (anything that is not an object is returned
    as it is: the rules read it as Go would decode it)."""
    if not isinstance(spec, dict):
        return spec
    devices = spec.get("devices")
    if not isinstance(devices, dict) or not isinstance(devices.get("requests"), list):
        return spec
    requests = [default_request(request) for request in devices["requests"]]
    return {**spec, "devices": {**devices, "requests": requests}}


def defaulted_device_request(request: Any) -> Any:
    """`SetDefaults_ExactDeviceRequest` / `SetDefaults_DeviceSubRequest`, and the tolerations."""
    if not isinstance(request, dict):
        return request
    defaulted = dict(request)
    mode = request.get("allocationMode")
    if mode is None or mode == "":
        mode = defaulted["allocationMode"] = EXACT_COUNT
    count = request.get("count")
    if mode == EXACT_COUNT and (count is None or (type(count) is int and count == 0)):
        defaulted["count"] = 1
    if isinstance(request.get("tolerations"), list):
        defaulted["tolerations"] = defaulted_tolerations(request["tolerations"])
    return defaulted


def defaulted_tolerations(tolerations: list[Any]) -> list[Any]:
    """`operator` defaults to Equal."""
    return [
        {**toleration, "operator": DEFAULT_TOLERATION_OPERATOR}
        if isinstance(toleration, dict) and toleration.get("operator") in (None, "")
        else toleration
        for toleration in tolerations
    ]


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
    results = [
        {**result, "tolerations": defaulted_tolerations(result["tolerations"])}
        if isinstance(result, dict) and isinstance(result.get("tolerations"), list)
        else result
        for result in devices["results"]
    ]
    return {**status, "allocation": {**allocation, "devices": {**devices, "results": results}}}
