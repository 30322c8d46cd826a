"""The shared building blocks as Kubernetes 1.37 words them (`release=KUBERNETES_1_37`), beside their
unchanged 1.30 answers."""

from __future__ import annotations

from webhook.field import ROOT
from webhook.release import KUBERNETES_1_30, KUBERNETES_1_37
from webhook.rules import meta
from webhook.rules.names import is_qualified_name, is_valid_label_value, validate_csi_driver_name
from webhook.rules.nodeselector import validate_node_selector


def test_label_checks_count_bytes_from_1_35() -> None:
    assert is_valid_label_value("v" * 64, release=KUBERNETES_1_30)[0] == "must be no more than 63 characters"
    assert is_valid_label_value("v" * 64, release=KUBERNETES_1_37)[0] == "must be no more than 63 bytes"
    assert is_qualified_name("a/b/c", release=KUBERNETES_1_37)[0].startswith("a valid label key must consist")
    assert is_qualified_name("a/b/c")[0].startswith("a qualified name must consist")


def test_too_long_reads_may_not_be_more_than_from_1_32() -> None:
    long_name = "a" * 64
    assert validate_csi_driver_name(long_name, ROOT)[0].body() == "Too long: must have at most 63 bytes"
    assert (
        validate_csi_driver_name(long_name, ROOT, release=KUBERNETES_1_37)[0].body()
        == "Too long: may not be more than 63 bytes"
    )


def test_owner_references_are_reported_at_their_index_from_1_36() -> None:
    metadata = {"name": "foo", "ownerReferences": [{"name": "x", "apiVersion": "v1", "kind": "Pod"}]}
    errors = meta.validate_object_meta(metadata, namespaced=False, release=KUBERNETES_1_37)
    assert [(error.field, error.body()) for error in errors] == [
        ("metadata.ownerReferences[0].uid", "Required value: must not be empty")
    ]
    errors = meta.validate_object_meta(metadata, namespaced=False)
    assert [error.field for error in errors] == ["metadata.ownerReferences.uid"]


def test_node_selector_label_values_are_checked_in_1_37() -> None:
    selector = {
        "nodeSelectorTerms": [{"matchExpressions": [{"key": "foo", "operator": "In", "values": ["-1"]}]}]
    }
    assert validate_node_selector(selector, ROOT.child("nodeSelector")) == []
    errors = validate_node_selector(selector, ROOT.child("nodeSelector"), release=KUBERNETES_1_37)
    assert [error.field for error in errors] == [
        "nodeSelector.nodeSelectorTerms[0].matchExpressions[0].values[0]"
    ]
