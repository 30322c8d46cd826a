"""Every kind of resource.k8s.io/v1alpha3, as the registry reads them."""

from __future__ import annotations

from typing import Final

from webhook.rules.kinds import KindRules
from webhook.rules.v1alpha3.deviceclass import DEVICE_CLASS
from webhook.rules.v1alpha3.podschedulingcontext import POD_SCHEDULING_CONTEXT
from webhook.rules.v1alpha3.resourceclaim import RESOURCE_CLAIM
from webhook.rules.v1alpha3.resourceclaimtemplate import RESOURCE_CLAIM_TEMPLATE
from webhook.rules.v1alpha3.resourceslice import RESOURCE_SLICE

__all__ = ["KINDS"]

KINDS: Final[tuple[KindRules, ...]] = (
    DEVICE_CLASS,
    RESOURCE_CLAIM,
    RESOURCE_CLAIM_TEMPLATE,
    RESOURCE_SLICE,
    POD_SCHEDULING_CONTEXT,
)
