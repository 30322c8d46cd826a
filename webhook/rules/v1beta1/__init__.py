"""Validation of resource.k8s.io/v1beta1 as kube-apiserver 1.37 runs it: the v1 rules, after 1.37's
conversion of the v1beta1 shape (request fields in the request, slice devices under `basic`) to v1's,
with the field paths 1.37 reports for a v1beta1 object (docs/versions.md).

This module imports no rule: `kinds.KINDS` lists the kinds, and `webhook.registry` binds them to
`RELEASE`.
"""

from __future__ import annotations

from typing import Final

from webhook.release import KUBERNETES_1_37
from webhook.rules.kinds import GroupVersionKind

GROUP: Final = "resource.k8s.io"
VERSION: Final = "v1beta1"
RELEASE: Final = KUBERNETES_1_37  # the release whose rules and messages this package's kinds follow


def resource_v1beta1(kind: str) -> GroupVersionKind:
    """The identity of a kind of this group and version."""
    return GroupVersionKind(GROUP, VERSION, kind)
