"""`dra-webhook validate --kubernetes-version X.Y`: an object as a cluster of release X.Y would take it.

A cluster answers an apiVersion and kind of resource.k8s.io it does not serve with kubectl's
``no matches for kind "ResourceClaim" in version "resource.k8s.io/v1alpha2"``: such an object is
invalid, with a hint naming the releases that serve it (`webhook.eras`). An object the release
serves is judged as the webhook judges it there: by the registry's rules when they stand for that
release (`eras.stands_for`), else not at all (v1alpha3 of 1.32 and 1.33, whose rules the webhook
does not have). Without the flag none of this applies: each apiVersion is judged as its own release.
"""

from __future__ import annotations

from typing import Literal

from webhook import eras
from webhook.registry import KindRegistry
from webhook.rules.kinds import GroupVersionKind


def release_verdict(
    gvk: GroupVersionKind, release: str, registry: KindRegistry
) -> tuple[Literal["invalid", "not-validated"], str] | None:
    """(status, message) of an object a cluster of `release` does not take as the webhook judges it,
    or None to judge it as usual: it is served there and judged by rules that stand for `release`,
    or it is not a resource.k8s.io object. An object served there but judged by this webhook only as
    another release is "not-validated": it fails the run unless --ignore-missing-schemas, as any
    served kind the webhook does not judge."""
    if gvk.group != eras.GROUP:
        return None
    if not eras.serves(release, gvk):
        return "invalid", eras.unserved_message(release, gvk)
    if gvk in registry and not eras.stands_for(registry, gvk, release):
        judged = registry.release_of(gvk).version
        span = eras.release_span(eras.STANDS_FOR.get(judged, (judged,)))
        reason = (
            f"{gvk} is served by Kubernetes {release}, but this webhook judges it only as Kubernetes "
            f"{judged} (for Kubernetes {span})"
        )
        return "not-validated", reason
    return None
