"""Every kind of resource.k8s.io/v1alpha2: what `webhook.registry` binds to Kubernetes 1.30."""

from __future__ import annotations

from typing import Final

from webhook.rules.kinds import KindRules
from webhook.rules.v1alpha2.parameters import RESOURCE_CLAIM_PARAMETERS, RESOURCE_CLASS_PARAMETERS
from webhook.rules.v1alpha2.podschedulingcontext import POD_SCHEDULING_CONTEXT
from webhook.rules.v1alpha2.resourceclaim import RESOURCE_CLAIM
from webhook.rules.v1alpha2.resourceclaimtemplate import RESOURCE_CLAIM_TEMPLATE
from webhook.rules.v1alpha2.resourceclass import RESOURCE_CLASS
from webhook.rules.v1alpha2.resourceslice import RESOURCE_SLICE

KINDS: Final[tuple[KindRules, ...]] = (
    RESOURCE_CLAIM,
    RESOURCE_CLAIM_TEMPLATE,
    RESOURCE_CLASS,
    POD_SCHEDULING_CONTEXT,
    RESOURCE_SLICE,
    RESOURCE_CLAIM_PARAMETERS,
    RESOURCE_CLASS_PARAMETERS,
)
