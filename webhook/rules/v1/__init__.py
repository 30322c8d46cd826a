"""Validation of resource.k8s.io/v1 as kube-apiserver 1.37 runs it: the hand-written checks of
`pkg/apis/resource/validation` merged with the declarative validation of `k8s.io/api/resource/v1`
(see `webhook.rules.v1.lifecycle`)."""

from __future__ import annotations

from typing import Final

from webhook.release import KUBERNETES_1_37
from webhook.rules.kinds import GroupVersionKind

GROUP: Final = "resource.k8s.io"
VERSION: Final = "v1"
RELEASE: Final = KUBERNETES_1_37


def resource_v1(kind: str) -> GroupVersionKind:
    """The identity of a kind of this group and version."""
    return GroupVersionKind(GROUP, VERSION, kind)
