"""Every kind of resource.k8s.io/v1alpha3, as the registry reads them: the five of Kubernetes 1.31
(`KINDS`, judged as 1.31) and the two that 1.37 serves under v1alpha3 (`KINDS_OF_1_37`, judged as
1.37; 1.37's v1alpha3 has no other kinds)."""

from __future__ import annotations

from typing import Final

from webhook.rules.kinds import KindRules
from webhook.rules.v1alpha3.deviceclass import DEVICE_CLASS
from webhook.rules.v1alpha3.devicetaintrule import DEVICE_TAINT_RULE
from webhook.rules.v1alpha3.podschedulingcontext import POD_SCHEDULING_CONTEXT
from webhook.rules.v1alpha3.resourceclaim import RESOURCE_CLAIM
from webhook.rules.v1alpha3.resourceclaimtemplate import RESOURCE_CLAIM_TEMPLATE
from webhook.rules.v1alpha3.resourcepoolstatusrequest import RESOURCE_POOL_STATUS_REQUEST
from webhook.rules.v1alpha3.resourceslice import RESOURCE_SLICE

__all__ = ["KINDS", "KINDS_OF_1_37"]

KINDS: Final[tuple[KindRules, ...]] = (
    DEVICE_CLASS,
    RESOURCE_CLAIM,
    RESOURCE_CLAIM_TEMPLATE,
    RESOURCE_SLICE,
    POD_SCHEDULING_CONTEXT,
)

KINDS_OF_1_37: Final[tuple[KindRules, ...]] = (DEVICE_TAINT_RULE, RESOURCE_POOL_STATUS_REQUEST)
