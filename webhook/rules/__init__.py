"""The rule registry: (group, version, kind) -> the built-in validation of that kind.

Everything the webhook validates is listed here once; the admission bridge dispatches on it, the
manifests derive their webhook rules from it, and the offline commands use it to know what they judge.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from webhook.rules.kinds import GroupVersionKind, KindRules, Obj
from webhook.rules.v1alpha2.parameters import RESOURCE_CLAIM_PARAMETERS, RESOURCE_CLASS_PARAMETERS
from webhook.rules.v1alpha2.podschedulingcontext import POD_SCHEDULING_CONTEXT
from webhook.rules.v1alpha2.resourceclaim import RESOURCE_CLAIM
from webhook.rules.v1alpha2.resourceclaimtemplate import RESOURCE_CLAIM_TEMPLATE
from webhook.rules.v1alpha2.resourceclass import RESOURCE_CLASS
from webhook.rules.v1alpha2.resourceslice import RESOURCE_SLICE

__all__ = ["REGISTRY", "GroupVersionKind", "KindRules", "Obj"]

_ALL_KINDS: tuple[KindRules, ...] = (
    RESOURCE_CLAIM,
    RESOURCE_CLAIM_TEMPLATE,
    RESOURCE_CLASS,
    POD_SCHEDULING_CONTEXT,
    RESOURCE_SLICE,
    RESOURCE_CLAIM_PARAMETERS,
    RESOURCE_CLASS_PARAMETERS,
)

REGISTRY: Mapping[GroupVersionKind, KindRules] = MappingProxyType({rules.gvk: rules for rules in _ALL_KINDS})
