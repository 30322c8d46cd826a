"""The kinds of resource.k8s.io/v1 this package judges (what the registry reads)."""

from __future__ import annotations

from typing import Final

from webhook.rules.kinds import KindRules
from webhook.rules.v1.deviceclass import DEVICE_CLASS
from webhook.rules.v1.devicetaintrule import DEVICE_TAINT_RULE
from webhook.rules.v1.resourceclaim import RESOURCE_CLAIM
from webhook.rules.v1.resourceclaimtemplate import RESOURCE_CLAIM_TEMPLATE
from webhook.rules.v1.resourceslice import RESOURCE_SLICE

KINDS: Final[tuple[KindRules, ...]] = (
    DEVICE_CLASS,
    RESOURCE_CLAIM,
    RESOURCE_CLAIM_TEMPLATE,
    RESOURCE_SLICE,
    DEVICE_TAINT_RULE,
)
