"""Validation of resource.k8s.io/v1alpha3 as kube-apiserver 1.31 runs it (pkg/apis/resource/validation).

The served v1alpha3 types of 1.31 (`k8s.io/api` v0.31.0, `resource/v1alpha3/types.go`) convert field
for field to the internal types that 1.31's `validation.go` judges, so the JSON paths of this version
are the internal ones. This module imports no rule module: the kinds are listed in `kinds.py`.
"""

from __future__ import annotations

from typing import Final

from webhook.release import KUBERNETES_1_31
from webhook.rules.kinds import GroupVersionKind

GROUP: Final = "resource.k8s.io"
VERSION: Final = "v1alpha3"
# The release whose rules, limits and messages the kinds of this version are exact to.
RELEASE: Final = KUBERNETES_1_31


def resource_v1alpha3(kind: str) -> GroupVersionKind:
    """The identity of a kind of this group and version."""
    return GroupVersionKind(GROUP, VERSION, kind)
