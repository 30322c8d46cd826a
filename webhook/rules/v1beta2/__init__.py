"""Validation of resource.k8s.io/v1beta2 as kube-apiserver 1.37 runs it: the v1 rules, after a
conversion that changes nothing but the apiVersion (v1beta2 has v1's shape field for field).

This module imports no rule: `kinds.KINDS` lists the kinds, and `webhook.registry` binds them to
`RELEASE`.
"""

from __future__ import annotations

from typing import Final

from webhook.release import KUBERNETES_1_37
from webhook.rules.kinds import GroupVersionKind

GROUP: Final = "resource.k8s.io"
VERSION: Final = "v1beta2"
RELEASE: Final = KUBERNETES_1_37  # the release whose rules and messages this package's kinds follow


def resource_v1beta2(kind: str) -> GroupVersionKind:
    """The identity of a kind of this group and version."""
    return GroupVersionKind(GROUP, VERSION, kind)
