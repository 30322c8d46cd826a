"""Offline, a status update keeps the stored metadata, as kube-apiserver's status strategies do.

Every resource.k8s.io status strategy of 1.30, 1.31 and 1.37 calls `metav1.ResetObjectMetaForStatus`
in its PrepareForUpdate: the stored deletionTimestamp, generation, selfLink, labels, annotations,
finalizers and owner references replace the sent ones before validation. A manifest is a client's
object, so `validate` and `review_manifest` do it first (`webhook.offline.apiserver`); the server is
sent the prepared object and judges it as it is.
"""

from __future__ import annotations

import copy
from typing import Any

import pytest

from webhook import review_manifest
from webhook.admission import review
from webhook.offline.apiserver import STATUS_RESET_METADATA, server_filled_update
from webhook.offline.manifest_review import manifest_review_document
from webhook.registry import REGISTRY
from webhook.rules.kinds import GroupVersionKind

STORED_META: dict[str, Any] = {
    "name": "obj",
    "resourceVersion": "7",
    "uid": "0b0b",
    "generation": 2,
    "labels": {"app": "a"},
    "finalizers": ["example.com/keep"],
}
# What a status update may not change and the strategy puts back: each invalid or forbidden here.
SENT_META_CHANGES: dict[str, Any] = {
    "deletionTimestamp": "2024-01-02T03:04:05Z",
    "generation": 1,
    "selfLink": "/apis/elsewhere",
    "labels": {"bad key!": "a b"},
    "annotations": {"bad key!": "v"},
    "finalizers": ["example.com/keep", "unqualified"],
    "ownerReferences": [{"apiVersion": "v1", "kind": "", "name": "", "uid": ""}],
}


def test_the_reset_fields_are_those_of_apimachinery() -> None:
    assert set(STATUS_RESET_METADATA) == set(SENT_META_CHANGES)


def test_a_status_update_takes_each_field_from_the_stored_object_and_drops_what_it_lacks() -> None:
    old = {"metadata": STORED_META}
    new = {"metadata": {**STORED_META, **SENT_META_CHANGES, "managedFields": []}, "status": {}}
    before = copy.deepcopy(new)
    filled = server_filled_update(new, old, subresource="status")
    assert filled["metadata"] == {**STORED_META, "managedFields": []}  # managedFields kept as sent
    assert new == before  # the input is not changed


def test_an_update_of_the_main_resource_keeps_the_sent_labels() -> None:
    old = {"metadata": STORED_META}
    new = {"metadata": {**STORED_META, "labels": {"app": "b"}}}
    assert server_filled_update(new, old)["metadata"]["labels"] == {"app": "b"}


STATUS_KINDS = [gvk for gvk, rules in REGISTRY.items() if rules.validate_status_update is not None]


def stored_object(gvk: GroupVersionKind) -> dict[str, Any]:
    metadata = {**STORED_META, **({"namespace": "ns"} if REGISTRY[gvk].namespaced else {})}
    return {"apiVersion": f"{gvk.group}/{gvk.version}", "kind": gvk.kind, "metadata": metadata}


@pytest.mark.parametrize("gvk", STATUS_KINDS, ids=str)
def test_every_status_update_offline_is_judged_with_the_stored_metadata(gvk: GroupVersionKind) -> None:
    old = stored_object(gvk)
    changed = copy.deepcopy(old)
    changed["metadata"].update(SENT_META_CHANGES)
    unchanged = copy.deepcopy(old)
    assert review_manifest(changed, old, subresource="status") == review_manifest(
        unchanged, old, subresource="status"
    )


def test_the_status_kinds_include_every_release() -> None:
    assert {gvk.version for gvk in STATUS_KINDS} >= {"v1alpha2", "v1alpha3", "v1beta1", "v1beta2", "v1"}


STORED_CLAIM: dict[str, Any] = {
    "apiVersion": "resource.k8s.io/v1",
    "kind": "ResourceClaim",
    "metadata": {"name": "c", "namespace": "ns", "resourceVersion": "1", "uid": "u1"},
    "spec": {"devices": {"requests": [{"name": "foo", "exactly": {"deviceClassName": "foo"}}]}},
    "status": {
        "allocation": {
            "devices": {
                "results": [{"request": "foo", "driver": "dra.example.com", "pool": "p", "device": "d"}]
            }
        }
    },
}
NEW_ENTRIES = (
    "status.reservedFor: Forbidden: new entries may not be added while `deallocationRequested` or"
    " `deletionTimestamp` are set"
)


def a_new_consumer_sent_with_a_deletion_timestamp() -> dict[str, Any]:
    new = copy.deepcopy(STORED_CLAIM)
    new["metadata"]["deletionTimestamp"] = "2024-01-02T03:04:05Z"
    new["status"]["reservedFor"] = [{"resource": "pods", "name": "p", "uid": "1"}]
    return new


def test_offline_a_consumer_is_forbidden_only_once_the_stored_claim_is_being_deleted() -> None:
    new = a_new_consumer_sent_with_a_deletion_timestamp()
    assert review_manifest(new, STORED_CLAIM, subresource="status")["allowed"] is True
    deleting = copy.deepcopy(STORED_CLAIM)
    deleting["metadata"]["deletionTimestamp"] = "2024-01-02T03:04:05Z"
    answer = review_manifest(new, deleting, subresource="status")
    assert answer["allowed"] is False
    assert NEW_ENTRIES in answer["status"]["message"]


def test_the_server_judges_the_object_it_is_sent_as_it_is() -> None:
    """kube-apiserver sends the prepared object; a review that says otherwise is judged as written."""
    document = manifest_review_document(
        a_new_consumer_sent_with_a_deletion_timestamp(), STORED_CLAIM, REGISTRY, uid="u", subresource="status"
    )
    document["request"]["object"] = a_new_consumer_sent_with_a_deletion_timestamp()
    answer = review(document)["response"]
    assert answer["allowed"] is False
    assert NEW_ENTRIES in answer["status"]["message"]
