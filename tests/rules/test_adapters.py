"""v1beta1 and v1beta2 judged by v1's rules after conversion (`webhook.rules.adapters`), with rules of
v1's shape written here for the test: a few of 1.37's v1 rules, with their paths, so that every part
of an adapted kind shows (the conversion, the path each error is reported at, create, update and
status, the judge, the decision log and the offline output), whatever the real v1 package holds."""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import Mapping
from typing import Any

import orjson
import pytest

from tests.reviews import admission_review, metadata
from webhook.admission import Judge, log_decision, parse_review
from webhook.field import (
    ROOT,
    ErrorList,
    ErrorType,
    FieldError,
    from_declarative,
    invalid,
    required,
    too_many,
)
from webhook.offline.manifest_judge import ManifestJudge, ValidateOptions
from webhook.registry import KindRegistry, ServedKinds
from webhook.release import KUBERNETES_1_37
from webhook.rules.adapters import converted_kind, same_errors
from webhook.rules.kinds import GroupVersionKind, KindRules, Obj
from webhook.rules.v1beta1 import conversion as v1beta1_conversion
from webhook.rules.v1beta1 import paths as v1beta1_paths
from webhook.rules.v1beta1 import resource_v1beta1
from webhook.rules.v1beta2 import conversion as v1beta2_conversion
from webhook.rules.v1beta2 import resource_v1beta2
from webhook.rules.values import mapping, optional_mapping, sequence, text
from webhook.schemas import StructuralChecker
from webhook.settings import PolicySettings

GROUP = "resource.k8s.io"
ALLOCATION_MODES = ("All", "ExactCount")

# --- rules of v1's shape, for the test ------------------------------------------------------------------


def validate_v1_claim(obj: Obj) -> ErrorList:
    """validateDeviceRequest and validateExactDeviceRequest of 1.37, in part."""
    errors: ErrorList = []
    path = ROOT.child("spec", "devices", "requests")
    for i, request in enumerate(sequence(mapping(mapping(obj.get("spec")).get("devices")).get("requests"))):
        request_path = path.index(i)
        exactly = optional_mapping(mapping(request).get("exactly"))
        if exactly is None and not sequence(mapping(request).get("firstAvailable")):
            errors.append(required(request_path, "exactly one of `exactly` or `firstAvailable` is required"))
            continue
        if exactly is None:
            continue
        exact_path = request_path.child("exactly")
        if not text(exactly.get("deviceClassName")):
            errors.append(required(exact_path.child("deviceClassName")))
        # Two of 1.37's declarative checks, marked as the merge of v1's rules marks them.
        if len(sequence(exactly.get("selectors"))) > 32:
            errors += from_declarative(
                [too_many(exact_path.child("selectors"), len(exactly["selectors"]), 32)]
            )
        mode = text(exactly.get("allocationMode")) or "ExactCount"  # v1's defaulter
        if mode not in ALLOCATION_MODES:
            not_supported = FieldError(ErrorType.NOT_SUPPORTED, str(exact_path.child("allocationMode")), mode)
            errors += from_declarative([not_supported])
    return errors


def validate_v1_claim_update(new: Obj, old: Obj) -> ErrorList:
    if new.get("spec") != old.get("spec"):
        return [invalid(ROOT.child("spec"), new.get("spec"), "field is immutable")]
    return []


def validate_v1_claim_status(new: Obj, old: Obj) -> ErrorList:
    """A result must name a request of the claim: the spec it sees is in v1's shape."""
    names = {text(mapping(request).get("name")) for request in requests_of(new)}
    shapes = ["exactly" in mapping(request) for request in requests_of(new)]
    results = sequence(
        mapping(mapping(mapping(new.get("status")).get("allocation")).get("devices")).get("results")
    )
    path = ROOT.child("status", "allocation", "devices", "results")
    errors = [
        invalid(
            path.index(i).child("request"),
            text(mapping(result).get("request")),
            "must be the name of a request in the claim",
        )
        for i, result in enumerate(results)
        if text(mapping(result).get("request")) not in names
    ]
    return errors if all(shapes) else [*errors, invalid(ROOT.child("spec"), None, "not in v1's shape")]


def requests_of(obj: Obj) -> list[Any]:
    return list(sequence(mapping(mapping(obj.get("spec")).get("devices")).get("requests")))


def validate_v1_slice(obj: Obj) -> ErrorList:
    """1.37's checks of a device, in part: the name (hand-written); one value per attribute and at most
    two counter consumptions (declarative, marked as the merge of v1's rules marks them)."""
    errors: ErrorList = []
    path = ROOT.child("spec", "devices")
    for i, device in enumerate(sequence(mapping(obj.get("spec")).get("devices"))):
        device_path = path.index(i)
        if not text(mapping(device).get("name")):
            errors.append(required(device_path.child("name")))
        for key, attribute in mapping(mapping(device).get("attributes")).items():
            if len(mapping(attribute)) != 1:
                attribute_path = device_path.child("attributes").key(key)
                errors += from_declarative([invalid(attribute_path, "", "must specify one of: `int`")])
        consumes = sequence(mapping(device).get("consumesCounters"))
        if len(consumes) > 2:
            errors += from_declarative([too_many(device_path.child("consumesCounters"), len(consumes), 2)])
    if mapping(obj.get("spec")).get("allNodes") is False:
        errors.append(invalid(ROOT.child("spec", "allNodes"), False, "v1 never sees false from v1beta1"))
    return errors


def no_update_rule(new: Obj, old: Obj) -> ErrorList:
    return []


V1_CLAIM = KindRules(
    GroupVersionKind(GROUP, "v1", "ResourceClaim"),
    "resourceclaims",
    True,
    validate_v1_claim,
    validate_v1_claim_update,
    validate_status_update=validate_v1_claim_status,
)
V1_SLICE = KindRules(
    GroupVersionKind(GROUP, "v1", "ResourceSlice"), "resourceslices", False, validate_v1_slice, no_update_rule
)

V1BETA1_CLAIM = converted_kind(
    V1_CLAIM,
    resource_v1beta1("ResourceClaim"),
    convert=v1beta1_conversion.claim_to_v1,
    map_errors=v1beta1_paths.claim_errors_to_v1beta1,
)
V1BETA1_SLICE = converted_kind(
    V1_SLICE,
    resource_v1beta1("ResourceSlice"),
    convert=v1beta1_conversion.resource_slice_to_v1,
    map_errors=v1beta1_paths.resource_slice_errors_to_v1beta1,
)
V1BETA2_CLAIM = converted_kind(V1_CLAIM, resource_v1beta2("ResourceClaim"), convert=v1beta2_conversion.to_v1)


def v1beta1_claim(*requests: dict[str, Any], version: str = "v1beta1", **status: Any) -> dict[str, Any]:
    claim: dict[str, Any] = {
        "apiVersion": f"{GROUP}/{version}",
        "kind": "ResourceClaim",
        "metadata": metadata("claim"),
        "spec": {"devices": {"requests": list(requests)}},
    }
    if status:
        claim["status"] = status
    return claim


SELECTORS = [{"cel": {"expression": "true"}}] * 33

# --- the adapted kinds -----------------------------------------------------------------------------------

V1BETA1_CLAIM_CASES: list[tuple[str, dict[str, Any], list[tuple[ErrorType, str]]]] = [
    ("valid", {"name": "r", "deviceClassName": "gpu"}, []),
    ("no fields of exactly", {"name": "r"}, [(ErrorType.REQUIRED, "spec.devices.requests[0]")]),
    # A hand-written error at the internal object's path, `exactly` and all.
    (
        "count without a class",
        {"name": "r", "count": 2},
        [(ErrorType.REQUIRED, "spec.devices.requests[0].exactly.deviceClassName")],
    ),
    # A declarative error at v1beta1's path.
    (
        "too many selectors",
        {"name": "r", "deviceClassName": "gpu", "selectors": SELECTORS},
        [(ErrorType.TOO_MANY, "spec.devices.requests[0].selectors")],
    ),
    (
        "both",
        {"name": "r", "allocationMode": "Some", "selectors": SELECTORS},
        [
            (ErrorType.REQUIRED, "spec.devices.requests[0].exactly.deviceClassName"),
            (ErrorType.TOO_MANY, "spec.devices.requests[0].selectors"),
            (ErrorType.NOT_SUPPORTED, "spec.devices.requests[0].allocationMode"),
        ],
    ),
    ("subrequests", {"name": "r", "firstAvailable": [{"name": "a", "deviceClassName": "gpu"}]}, []),
    # v1's shape sent as v1beta1: `exactly` is not a v1beta1 field, so the request has nothing.
    (
        "v1's shape",
        {"name": "r", "exactly": {"deviceClassName": "gpu"}},
        [(ErrorType.REQUIRED, "spec.devices.requests[0]")],
    ),
]


@pytest.mark.parametrize(
    ("case", "request_", "expected"), V1BETA1_CLAIM_CASES, ids=[c for c, _, _ in V1BETA1_CLAIM_CASES]
)
def test_a_v1beta1_claim_is_judged_by_v1s_rules_at_the_paths_1_37_reports(
    case: str, request_: dict[str, Any], expected: list[tuple[ErrorType, str]]
) -> None:
    errors = V1BETA1_CLAIM.validate_create(v1beta1_claim(request_))
    assert [(error.type, error.field) for error in errors] == expected


def test_a_v1beta2_claim_is_judged_by_v1s_rules_at_v1s_paths() -> None:
    request = {"name": "r", "exactly": {"count": 2, "selectors": SELECTORS}}
    errors = V1BETA2_CLAIM.validate_create(v1beta1_claim(request, version="v1beta2"))
    assert [(error.type, error.field) for error in errors] == [
        (ErrorType.REQUIRED, "spec.devices.requests[0].exactly.deviceClassName"),
        (ErrorType.TOO_MANY, "spec.devices.requests[0].exactly.selectors"),
    ]
    assert errors == V1_CLAIM.validate_create(v1beta1_claim(request, version="v1"))


def test_an_update_converts_the_new_and_the_old_object() -> None:
    old = v1beta1_claim({"name": "r", "deviceClassName": "gpu"})
    assert V1BETA1_CLAIM.validate_update(old, old) == []
    (error,) = V1BETA1_CLAIM.validate_update(v1beta1_claim({"name": "r", "deviceClassName": "tpu"}), old)
    assert (error.field, error.detail) == ("spec", "field is immutable")
    # The value is the internal object's spec: v1's shape, as the hand-written check prints it.
    assert error.bad_value == {
        "devices": {"requests": [{"name": "r", "exactly": {"deviceClassName": "tpu"}}]}
    }


def test_a_status_update_sees_the_spec_in_v1s_shape() -> None:
    results = [
        {"request": "r", "driver": "d", "pool": "p", "device": "x"},
        {"request": "s", "driver": "d", "pool": "p", "device": "y"},
    ]
    claim = v1beta1_claim(
        {"name": "r", "deviceClassName": "gpu"}, allocation={"devices": {"results": results}}
    )
    status_update = V1BETA1_CLAIM.validate_status_update
    assert status_update is not None
    assert [(error.field, error.bad_value) for error in status_update(claim, claim)] == [
        ("status.allocation.devices.results[1].request", "s")
    ]


def test_a_v1beta1_slice_has_its_devices_basic_fields_in_the_device() -> None:
    slice_ = {
        "apiVersion": f"{GROUP}/v1beta1",
        "kind": "ResourceSlice",
        "metadata": {"name": "s"},
        "spec": {
            "driver": "d.example.com",
            "pool": {"name": "p", "resourceSliceCount": 1},
            "allNodes": False,
            "nodeName": "n",
            "devices": [
                {
                    "name": "a",
                    "basic": {"attributes": {"x": {}}, "consumesCounters": [{"counterSet": "s"}] * 3},
                },
                {"basic": {}},
            ],
        },
    }
    errors = V1BETA1_SLICE.validate_create(slice_)
    assert [(error.type, error.field) for error in errors] == [
        (ErrorType.INVALID, "spec.devices[0].basic.attributes[x]"),  # declarative: v1beta1's path
        (ErrorType.TOO_MANY, "spec.devices[0].basic.consumesCounters"),
        (ErrorType.REQUIRED, "spec.devices[1].name"),  # hand-written: the internal path
    ]


def test_an_adapted_kind_keeps_the_resource_scope_and_subresources() -> None:
    assert (V1BETA1_CLAIM.gvk, V1BETA1_CLAIM.resource, V1BETA1_CLAIM.namespaced) == (
        GroupVersionKind(GROUP, "v1beta1", "ResourceClaim"),
        "resourceclaims",
        True,
    )
    assert V1BETA1_CLAIM.subresources == ("status",)
    assert V1BETA1_SLICE.validate_status_update is None and V1BETA1_SLICE.subresources == ()
    assert V1BETA1_SLICE.namespaced is False
    renamed = converted_kind(V1_CLAIM, resource_v1beta1("ResourceClaim"), convert=dict, resource="claims")
    assert renamed.resource == "claims"


def test_an_adapted_kind_must_be_the_same_kind() -> None:
    with pytest.raises(ValueError, match="another kind"):
        converted_kind(V1_CLAIM, resource_v1beta1("ResourceSlice"), convert=dict)


def test_the_default_mapper_keeps_the_errors() -> None:
    errors = [required(ROOT.child("spec"))]
    assert same_errors(errors) is errors


# --- through the judge, the decision log and the offline output -------------------------------------------

ADAPTED = KindRegistry([ServedKinds(KUBERNETES_1_37, (V1BETA1_CLAIM, V1BETA2_CLAIM, V1BETA1_SLICE))])


@pytest.fixture(scope="module")
def judge() -> Judge:
    # With the structural check of the real v1beta1 and v1beta2 schemas.
    built = Judge.build(PolicySettings(structural_check=False))
    return dataclasses.replace(built, structural=StructuralChecker.load(), registry=ADAPTED)


def review(obj: dict[str, Any], **fields: Any) -> Mapping[str, Any]:
    version = obj["apiVersion"].split("/")[1]
    return admission_review(obj, version=version, **fields)


def test_the_judge_names_the_version_and_judges_as_1_37(
    judge: Judge, caplog: pytest.LogCaptureFixture
) -> None:
    bad = v1beta1_claim({"name": "r", "count": 2, "selectors": SELECTORS})
    with caplog.at_level(logging.INFO, logger="webhook.decision"):
        for obj in (bad, v1beta1_claim({"name": "r", "exactly": {"count": 2}}, version="v1beta2")):
            request = parse_review(review(obj)).request
            verdict = judge.judge(request)
            assert (verdict.allowed, verdict.release) == (False, KUBERNETES_1_37)
            log_decision(request, verdict)
    assert [(record.apiVersion, record.release) for record in caplog.records] == [  # type: ignore[attr-defined]
        ("resource.k8s.io/v1beta1", "1.37"),
        ("resource.k8s.io/v1beta2", "1.37"),
    ]
    verdict = judge.judge(parse_review(review(bad)).request)
    assert verdict.status is not None
    assert [cause["field"] for cause in verdict.status["details"]["causes"]] == [
        "spec.devices.requests[0].exactly.deviceClassName",
        "spec.devices.requests[0].selectors",
    ]


def test_the_wire_shape_is_checked_with_its_own_schema(judge: Judge) -> None:
    # `exactly` is unknown to v1beta1: a warning, and the field is not judged.
    verdict = judge.judge(parse_review(review(v1beta1_claim({"name": "r", "exactly": {}}))).request)
    assert verdict.allowed is False
    assert any("exactly" in warning for warning in verdict.warnings)
    mistyped = judge.judge(parse_review(review(v1beta1_claim({"name": "r", "count": "two"}))).request)
    assert mistyped.status is not None
    assert [cause["field"] for cause in mistyped.status["details"]["causes"]] == [
        "spec.devices.requests[0].count"
    ]


def test_offline_results_name_the_api_version_and_the_release(judge: Judge) -> None:
    manifests = ManifestJudge(judge, ValidateOptions())
    content = b"\n".join(
        orjson.dumps(obj)
        for obj in (
            v1beta1_claim({"name": "r", "deviceClassName": "gpu"}),
            v1beta1_claim({"name": "r"}, version="v1beta2"),
        )
    )
    results = manifests.judge_content("claims.json", content)
    assert [(r.status, r.as_json()["apiVersion"], r.as_json().get("release")) for r in results] == [
        ("valid", "resource.k8s.io/v1beta1", "1.37"),
        ("invalid", "resource.k8s.io/v1beta2", "1.37"),
    ]
