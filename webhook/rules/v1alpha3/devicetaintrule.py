"""DeviceTaintRule of resource.k8s.io/v1alpha3, a kind Kubernetes 1.37 serves under v1alpha3 in the shape
it has in v1 (`k8s.io/api` v0.37.0-beta.0, `resource/v1alpha3/types.go`: the same spec, selector,
taint and status, and the same declarative tags on the taint's effect). 1.37 converts it to the one
internal type and validates it as v1's: v1's rules (`webhook.rules.v1.devicetaintrule`), judged as
1.37 (the registry's `KINDS_OF_1_37` entry), under this apiVersion.
"""

from __future__ import annotations

import dataclasses
from typing import Final

from webhook.rules.kinds import KindRules
from webhook.rules.v1 import devicetaintrule as v1
from webhook.rules.v1alpha3 import resource_v1alpha3

DEVICE_TAINT_RULE: Final[KindRules] = dataclasses.replace(
    v1.DEVICE_TAINT_RULE, gvk=resource_v1alpha3("DeviceTaintRule")
)
