"""The kinds Kubernetes 1.37 serves under resource.k8s.io/v1alpha3, registered beside 1.31's and judged as
1.37: DeviceTaintRule (v1's rules under this apiVersion) and ResourcePoolStatusRequest. Their tables run
end to end in tests/corpus/test_corpus_v1alpha3_of_1_37.py."""

from __future__ import annotations

from typing import Any

import pytest

from webhook.registry import REGISTRY
from webhook.release import KUBERNETES_1_31, KUBERNETES_1_37
from webhook.rules.kinds import GroupVersionKind
from webhook.rules.v1 import devicetaintrule as v1_devicetaintrule
from webhook.rules.v1alpha3 import kinds
from webhook.rules.v1alpha3.devicetaintrule import DEVICE_TAINT_RULE
from webhook.rules.v1alpha3.resourcepoolstatusrequest import (
    RESOURCE_POOL_STATUS_REQUEST,
    defaulted_request,
    validate_request,
    validate_request_status_update,
    validate_request_update,
)


def gvk(kind: str) -> GroupVersionKind:
    return GroupVersionKind("resource.k8s.io", "v1alpha3", kind)


def test_the_two_tuples_of_v1alpha3_are_judged_as_their_releases() -> None:
    assert [rules.gvk for rules in kinds.KINDS_OF_1_37] == [
        gvk("DeviceTaintRule"),
        gvk("ResourcePoolStatusRequest"),
    ]
    for rules in kinds.KINDS_OF_1_37:
        assert REGISTRY[rules.gvk] is rules
        assert REGISTRY.release_of(rules.gvk) is KUBERNETES_1_37
    for rules in kinds.KINDS:
        assert REGISTRY.release_of(rules.gvk) is KUBERNETES_1_31
    assert ("resource.k8s.io/v1alpha3", KUBERNETES_1_37) in REGISTRY.version_table()


def test_the_device_taint_rule_is_v1s_under_another_gvk() -> None:
    v1 = v1_devicetaintrule.DEVICE_TAINT_RULE
    assert DEVICE_TAINT_RULE.gvk == gvk("DeviceTaintRule")
    assert (DEVICE_TAINT_RULE.resource, DEVICE_TAINT_RULE.namespaced) == (v1.resource, v1.namespaced)
    assert DEVICE_TAINT_RULE.validate_create is v1.validate_create
    assert DEVICE_TAINT_RULE.validate_update is v1.validate_update
    assert DEVICE_TAINT_RULE.validate_status_update is v1.validate_status_update


def request(**spec: Any) -> dict[str, Any]:
    return {
        "apiVersion": "resource.k8s.io/v1alpha3",
        "kind": "ResourcePoolStatusRequest",
        "metadata": {"name": "r", "resourceVersion": "1"},
        "spec": {"driver": "gpu.example.com", **spec},
    }


def test_the_resource_pool_status_request_entry() -> None:
    assert RESOURCE_POOL_STATUS_REQUEST.gvk == gvk("ResourcePoolStatusRequest")
    assert RESOURCE_POOL_STATUS_REQUEST.resource == "resourcepoolstatusrequests"
    assert RESOURCE_POOL_STATUS_REQUEST.subresources == ("status",)


def test_the_limit_defaults_to_100() -> None:
    assert defaulted_request(request())["spec"]["limit"] == 100
    assert defaulted_request(request(limit=7))["spec"]["limit"] == 7
    assert validate_request(request()) == []


@pytest.mark.parametrize(
    ("spec", "fields"),
    [
        ({}, []),
        ({"driver": ""}, ["spec.driver"]),
        ({"limit": 0}, ["spec.limit"]),
        ({"limit": 1001}, ["spec.limit"]),
        ({"poolName": ""}, ["spec.poolName"]),
        ({"defaultPartitionTypeAttribute": "profile"}, ["spec.defaultPartitionTypeAttribute"]),
    ],
)
def test_the_spec_on_create(spec: dict[str, Any], fields: list[str]) -> None:
    assert [error.field for error in validate_request(request(**spec))] == fields


def test_the_spec_is_immutable() -> None:
    errors = validate_request_update(request(limit=5), request())
    assert [str(error) for error in errors] == ["spec: Invalid value: null: field is immutable"]


def with_status(status: dict[str, Any] | None) -> dict[str, Any]:
    obj = request()
    if status is not None:
        obj["status"] = status
    return obj


@pytest.mark.parametrize(
    ("old", "new", "bodies"),
    [
        (None, {"poolCount": 1}, []),
        (
            None,
            {"poolCount": -1},
            ["status.poolCount: Invalid value: -1: must be greater than or equal to 0"],
        ),
        ({"poolCount": 1}, {"poolCount": 1}, []),
        ({"poolCount": 1}, {"poolCount": 2}, ['status: Invalid value: {"poolCount":2}: field is immutable']),
        ({"poolCount": 1}, None, ["status: Invalid value: null: field is immutable"]),
    ],
)
def test_a_status_once_set_is_immutable(
    old: dict[str, Any] | None, new: dict[str, Any] | None, bodies: list[str]
) -> None:
    errors = validate_request_status_update(with_status(new), with_status(old))
    assert [str(error) for error in errors] == bodies
