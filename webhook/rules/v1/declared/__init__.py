"""The declarative validation of resource.k8s.io/v1 as 1.37 generates it from the `+k8s:` tags of
`k8s.io/api/resource/v1` (`zz_generated.validations.go` at 2710ee7b, and the root types'
`RegisterValidations`): DeviceClass, ResourceClaim, ResourceClaimTemplate, ResourceSlice and
DeviceTaintRule.

Every tag of these types is `+k8s:beta(since: "1.37")` except `skipNodeOperations` (standard), a
slice's `partitionTypeAttribute` and a node allocatable mapping's union (standard), and the alpha
ones, never enforced and so left out: the `metav1.Condition` checks (a claim's `status.devices[]` and a
DeviceTaintRule's status), ObjectMeta's, a device attribute's `strings` lengths and a node allocatable
mapping's dependencies.
The generated code's ratcheting is kept: on an update, a field equal (`Semantic.DeepEqual`) to its
old value is not validated again, and the items of a list keyed by a name are matched with the old
items of that name and skipped when unchanged ("don't revalidate unchanged data"); items of lists
without keys are validated without an old value.

A function takes the new value and the old one (None on create, or when there is no old value to
correlate with) and returns the declarative errors, each marked with its tag's stage.

The generated file is one per API group version; here it is one module per kind (`deviceclass`,
`claims`, `claimstatus`, `slices`, `taintrules`), with what they share in `common`.
"""

from __future__ import annotations

from webhook.rules.v1.declared.claims import validate_resource_claim, validate_resource_claim_template
from webhook.rules.v1.declared.claimstatus import validate_resource_claim_status_update
from webhook.rules.v1.declared.deviceclass import validate_device_class
from webhook.rules.v1.declared.slices import validate_resource_slice
from webhook.rules.v1.declared.taintrules import validate_device_taint_rule

__all__ = [
    "validate_device_class",
    "validate_device_taint_rule",
    "validate_resource_claim",
    "validate_resource_claim_status_update",
    "validate_resource_claim_template",
    "validate_resource_slice",
]
