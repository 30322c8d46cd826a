"""The defaulters kube-apiserver 1.37 runs on a resource.k8s.io/v1beta1 object, before it converts the
object to its internal type and validates it: v1beta1's own, not v1's.

`pkg/apis/resource/v1beta1/defaults.go` and the `+default` tags of `k8s.io/api/resource/v1beta1`
(`zz_generated.defaults.go` calls them for every request, subrequest and toleration of a claim, a
template's claim spec and a claim's allocation results):

* `SetDefaults_DeviceRequest` starts with `if obj.DeviceClassName == "" { return }` ("the request
  will have subrequests and the allocationMode and count fields should not be set"): only a request
  that names a class gets v1's defaults (an empty allocationMode becomes ExactCount, an ExactCount
  request with count 0 asks for one device). A request without a class keeps an empty mode and a zero
  count, and when it sets any other field of `exactly` the conversion still makes an `exactly`
  (`hasAnyMainRequestFieldsSet`) which the hand-written validation then finds without a mode
  (`validateDeviceAllocationMode`'s `default:` branch: Unsupported value "") or without a count (an
  ExactCount request: "must be greater than zero"). v1's `SetDefaults_ExactDeviceRequest` has no such
  test: v1's defaulter would hide both errors.
* `SetDefaults_DeviceSubRequest` and `DeviceToleration.operator` (`+default="Equal"`, v1beta1
  types.go at kubernetes/api v0.37.0-beta.0 line 1578) are v1's: the same functions serve here.

The v1beta1 `AllocationMode` has no `+default` tag at v0.37.0-beta.0 (types.go line 1041 has
`+k8s:beta(since: "1.37")=+k8s:optional` only). The functions return new values and never change
what they are given; a value of the wrong JSON type is returned as it is.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from webhook.rules.kinds import Obj
from webhook.rules.v1 import defaults as v1_defaults
from webhook.rules.v1.defaults import defaulted_device_request, defaulted_tolerations
from webhook.rules.values import text


def defaulted_claim(claim: Obj) -> Obj:
    """`SetObjectDefaults_ResourceClaim`: the requests of the spec, the tolerations of the allocation
    results (the status has v1's shape)."""
    if not isinstance(claim, Mapping):
        return claim
    return v1_defaults.defaulted_claim(claim, defaulted_request)


def defaulted_claim_template(template: Obj) -> Obj:
    """`SetObjectDefaults_ResourceClaimTemplate`: the requests of the claim spec at `spec.spec`."""
    if not isinstance(template, Mapping):
        return template
    return v1_defaults.defaulted_template(template, defaulted_request)


def defaulted_claim_spec(spec: Any) -> Any:
    """A v1beta1 ResourceClaimSpec with its requests defaulted."""
    return v1_defaults.defaulted_claim_spec(spec, defaulted_request)


def defaulted_request(request: Any) -> Any:
    """A v1beta1 DeviceRequest: `SetDefaults_DeviceRequest` only when it names a class (Go tests the
    decoded string, as the conversion does); its tolerations and subrequests in any case."""
    if not isinstance(request, dict):
        return request
    if text(request.get("deviceClassName")):
        defaulted = defaulted_device_request(request)  # mode and count as v1's, and the tolerations
    else:
        defaulted = dict(request)
        if isinstance(request.get("tolerations"), list):
            defaulted["tolerations"] = defaulted_tolerations(request["tolerations"])
    if isinstance(request.get("firstAvailable"), list):
        defaulted["firstAvailable"] = [defaulted_device_request(sub) for sub in request["firstAvailable"]]
    return defaulted
