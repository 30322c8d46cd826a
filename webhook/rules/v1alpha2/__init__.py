"""Validation of resource.k8s.io/v1alpha2 as kube-apiserver 1.30 runs it (pkg/apis/resource/validation)."""

from __future__ import annotations

from typing import Final

from webhook.rules.kinds import GroupVersionKind

GROUP: Final = "resource.k8s.io"
VERSION: Final = "v1alpha2"


def resource_v1alpha2(kind: str) -> GroupVersionKind:
    """The identity of a kind of this group and version."""
    return GroupVersionKind(GROUP, VERSION, kind)
