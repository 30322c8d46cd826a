"""A status update is judged with the stored metadata the status strategy puts back.

Every resource.k8s.io status strategy of 1.30, 1.31 and 1.37 calls `metav1.ResetObjectMetaForStatus`
in its PrepareForUpdate (pkg/registry/resource/*/strategy.go; apimachinery pkg/apis/meta/v1/helpers.go):
the deletionTimestamp, generation, selfLink, labels, annotations, finalizers and owner references of
the stored object replace the sent ones before any validation. kube-apiserver hands the webhook that
prepared object; a client's own object (offline, or a hand-made review) gets the same answer.
"""

from __future__ import annotations

import copy
from typing import Any

import pytest

from webhook.registry import REGISTRY
from webhook.rules.kinds import GroupVersionKind
from webhook.rules.meta import STATUS_RESET_METADATA, reset_object_meta_for_status
from webhook.rules.v1.resourceclaim import validate_claim_status_update

STORED_META: dict[str, Any] = {
    "name": "obj",
    "resourceVersion": "7",
    "uid": "0b0b",
    "generation": 2,
    "labels": {"app": "a"},
    "finalizers": ["example.com/keep"],
}
# What a status update may not change and the strategy resets: all of them invalid or forbidden.
SENT_META_CHANGES: dict[str, Any] = {
    "deletionTimestamp": "2024-01-02T03:04:05Z",
    "generation": 1,
    "selfLink": "/apis/elsewhere",
    "labels": {"bad key!": "a b"},
    "annotations": {"bad key!": "v"},
    "finalizers": ["example.com/keep", "unqualified"],
    "ownerReferences": [{"apiVersion": "v1", "kind": "", "name": "", "uid": ""}],
}


def test_the_reset_takes_each_field_from_the_stored_object_and_drops_what_it_lacks() -> None:
    old = {"metadata": STORED_META}
    new = {"metadata": {**STORED_META, **SENT_META_CHANGES, "managedFields": []}, "status": {}}
    before = copy.deepcopy(new)
    reset = reset_object_meta_for_status(new, old)
    assert reset["metadata"] == {**STORED_META, "managedFields": []}  # managedFields kept as sent
    assert reset["status"] is new["status"]
    assert new == before  # the input is not changed


def test_an_object_whose_metadata_agrees_is_returned_as_it_is() -> None:
    old = {"metadata": STORED_META}
    new = {"metadata": {**STORED_META, "resourceVersion": "8"}}
    assert reset_object_meta_for_status(new, old) is new


def test_the_reset_fields_are_those_of_apimachinery() -> None:
    assert set(STATUS_RESET_METADATA) == set(SENT_META_CHANGES)


STATUS_KINDS = [gvk for gvk, rules in REGISTRY.items() if rules.validate_status_update is not None]


def stored_object(gvk: GroupVersionKind) -> dict[str, Any]:
    metadata = {**STORED_META, **({"namespace": "ns"} if REGISTRY[gvk].namespaced else {})}
    return {"apiVersion": f"{gvk.group}/{gvk.version}", "kind": gvk.kind, "metadata": metadata}


@pytest.mark.parametrize("gvk", STATUS_KINDS, ids=str)
def test_every_status_update_is_judged_with_the_stored_metadata(gvk: GroupVersionKind) -> None:
    validate_status_update = REGISTRY[gvk].validate_status_update
    assert validate_status_update is not None
    old = stored_object(gvk)
    changed = copy.deepcopy(old)
    changed["metadata"].update(SENT_META_CHANGES)
    assert validate_status_update(changed, old) == validate_status_update(copy.deepcopy(old), old)


def test_the_status_kinds_include_every_release() -> None:
    assert {gvk.version for gvk in STATUS_KINDS} >= {"v1alpha2", "v1alpha3", "v1beta1", "v1beta2", "v1"}


def test_a_v1_claim_gains_a_consumer_when_only_the_update_says_it_is_being_deleted() -> None:
    """The rule "no new consumers while deletionTimestamp is set" reads the stored timestamp."""
    old: dict[str, Any] = {
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
    new = copy.deepcopy(old)
    new["metadata"]["deletionTimestamp"] = "2024-01-02T03:04:05Z"
    new["status"]["reservedFor"] = [{"resource": "pods", "name": "p", "uid": "1"}]
    assert validate_claim_status_update(new, old) == []
    # Once the stored claim is being deleted, the same update is forbidden.
    old["metadata"]["deletionTimestamp"] = "2024-01-02T03:04:05Z"
    assert [str(error) for error in validate_claim_status_update(new, old)] == [
        "status.reservedFor: Forbidden: new entries may not be added while `deallocationRequested` or"
        " `deletionTimestamp` are set"
    ]
