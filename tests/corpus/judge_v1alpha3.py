"""The judge the v1alpha3 tests run end to end with, until the registry and the v1alpha3 schemas land.

The rules of resource.k8s.io/v1alpha3 (`webhook.rules.v1alpha3.kinds.KINDS`) are not in the default
registry yet: the judge below adds them to it, so the request goes through `webhook.review()` exactly
as it will once they are registered. The structural check has no v1alpha3 schemas yet.
"""

from __future__ import annotations

import functools
from types import MappingProxyType

from webhook.admission import Judge, namespace_policy_from
from webhook.rules import REGISTRY
from webhook.rules.v1alpha3.kinds import KINDS
from webhook.settings import PolicySettings


@functools.cache
def v1alpha3_judge() -> Judge:
    # structural check on once the schemas of this version are merged
    policy = PolicySettings(structural_check=False)
    registry = MappingProxyType({**REGISTRY, **{rules.gvk: rules for rules in KINDS}})
    return Judge(
        policy=policy, namespace_policy=namespace_policy_from(policy), structural=None, registry=registry
    )
