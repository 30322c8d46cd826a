"""Every kind of resource.k8s.io/v1beta2: the v1 kinds of Kubernetes 1.37 under v1beta2's identity.

`webhook.registry` binds them to Kubernetes 1.37. v1beta2 has v1's shape, so its objects are judged
by the v1 rules unchanged and their errors carry the paths the API server reports for them; only
the declarative checks of a driver name come in v1beta2's tag order (`order.py`).

"""

from __future__ import annotations

from typing import Final

from webhook.rules.adapters import converted_kind
from webhook.rules.kinds import KindRules
from webhook.rules.v1.deviceclass import DEVICE_CLASS as V1_DEVICE_CLASS
from webhook.rules.v1.devicetaintrule import DEVICE_TAINT_RULE as V1_DEVICE_TAINT_RULE
from webhook.rules.v1.resourceclaim import RESOURCE_CLAIM as V1_RESOURCE_CLAIM
from webhook.rules.v1.resourceclaimtemplate import RESOURCE_CLAIM_TEMPLATE as V1_RESOURCE_CLAIM_TEMPLATE
from webhook.rules.v1.resourceslice import RESOURCE_SLICE as V1_RESOURCE_SLICE
from webhook.rules.v1beta2 import resource_v1beta2
from webhook.rules.v1beta2.conversion import to_v1
from webhook.rules.v1beta2.order import errors_in_v1beta2_order

DEVICE_CLASS: Final = converted_kind(
    V1_DEVICE_CLASS, resource_v1beta2("DeviceClass"), convert=to_v1, map_errors=errors_in_v1beta2_order
)
RESOURCE_CLAIM: Final = converted_kind(
    V1_RESOURCE_CLAIM, resource_v1beta2("ResourceClaim"), convert=to_v1, map_errors=errors_in_v1beta2_order
)
RESOURCE_CLAIM_TEMPLATE: Final = converted_kind(
    V1_RESOURCE_CLAIM_TEMPLATE,
    resource_v1beta2("ResourceClaimTemplate"),
    convert=to_v1,
    map_errors=errors_in_v1beta2_order,
)
RESOURCE_SLICE: Final = converted_kind(V1_RESOURCE_SLICE, resource_v1beta2("ResourceSlice"), convert=to_v1)
# Served in v1beta2 from Kubernetes 1.36 (staging/src/k8s.io/api/resource/v1beta2/register.go).
DEVICE_TAINT_RULE: Final = converted_kind(
    V1_DEVICE_TAINT_RULE, resource_v1beta2("DeviceTaintRule"), convert=to_v1
)

KINDS: Final[tuple[KindRules, ...]] = (
    DEVICE_CLASS,
    RESOURCE_CLAIM,
    RESOURCE_CLAIM_TEMPLATE,
    RESOURCE_SLICE,
    DEVICE_TAINT_RULE,
)
