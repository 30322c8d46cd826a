"""An AdmissionReview built around manifests as kube-apiserver would send it, and its answer: what
review suites' `object:` tests and `webhook.review_manifest` judge."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from webhook.admission import Judge, default_judge, review, review_document
from webhook.offline.apiserver import (
    KUBECTL_NAMESPACE,
    in_request_namespace,
    server_filled_create,
    server_filled_update,
)
from webhook.registry import KindRegistry
from webhook.rules.kinds import GroupVersionKind
from webhook.rules.values import text

# The uid of the reviews review_manifest builds (an answer carries it back).
MANIFEST_REVIEW_UID: Final = "review-manifest"


def manifest_review_document(
    obj: Mapping[str, Any],
    old: Mapping[str, Any] | None,
    registry: KindRegistry,
    *,
    uid: str,
    operation: str = "",
    subresource: str = "",
    namespace: str = KUBECTL_NAMESPACE,
) -> dict[str, Any]:
    """The AdmissionReview of a manifest as a client sends it (in `namespace` unless it names one),
    with what the API server fills in first: CREATE, or UPDATE of `old` when it is given."""
    operation = operation or ("UPDATE" if old is not None else "CREATE")
    group, _, version = text(obj.get("apiVersion")).rpartition("/")
    gvk = GroupVersionKind(group, version, text(obj.get("kind")))
    rules = registry.get(gvk)
    new = dict(obj)
    old_filled = None if old is None else dict(old)
    if rules is not None and old_filled is None:
        new = server_filled_create(new, rules, namespace)
    elif rules is not None and old_filled is not None:
        new = in_request_namespace(new, rules, namespace)
        old_filled = in_request_namespace(old_filled, rules, namespace)
    if old_filled is not None:
        new = server_filled_update(new, old_filled, subresource=subresource)
    return review_document(
        uid=uid,
        gvk=gvk,
        resource=rules.resource if rules else "",
        operation=operation,
        obj=new,
        old_obj=old_filled,
        subresource=subresource,
    )


def review_manifest(
    manifest: Mapping[str, Any],
    old: Mapping[str, Any] | None = None,
    *,
    subresource: str = "",
    namespace: str = KUBECTL_NAMESPACE,
    judge: Judge | None = None,
) -> dict[str, Any]:
    """Judge one manifest (a dict, as `yaml.safe_load` gives it) and return the `response` of the
    AdmissionReview answer, as `review` does for a whole review: a CREATE, or an UPDATE of `old`
    (`subresource="status"` for a status update), in `namespace` unless the manifest names one.

        >>> from webhook import review_manifest
        >>> review_manifest(claim)["allowed"]
    """
    if subresource and old is None:
        raise ValueError(f"a {subresource} update needs the old object (old=...)")
    judge = judge or default_judge()
    document = manifest_review_document(
        manifest, old, judge.registry, uid=MANIFEST_REVIEW_UID, subresource=subresource, namespace=namespace
    )
    response: dict[str, Any] = review(document, judge=judge)["response"]
    return response
