"""Validation of resource.k8s.io/v1alpha2 as kube-apiserver 1.30 runs it (pkg/apis/resource/validation).

This module imports no rule: `kinds.KINDS` lists the kinds, and `webhook.registry` binds them to
`RELEASE`.
"""

from __future__ import annotations

from typing import Final

from webhook.release import KUBERNETES_1_30
from webhook.rules.kinds import GroupVersionKind

GROUP: Final = "resource.k8s.io"
VERSION: Final = "v1alpha2"
RELEASE: Final = KUBERNETES_1_30  # the release whose rules and messages this package's kinds follow


def resource_v1alpha2(kind: str) -> GroupVersionKind:
    """The identity of a kind of this group and version."""
    return GroupVersionKind(GROUP, VERSION, kind)
