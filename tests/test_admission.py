"""The AdmissionReview bridge: envelopes in, verdicts out, never a crash ."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from tests.reviews import admission_review, allocated_claim, claim_template, resource_claim
from webhook import review
from webhook.admission import Judge, UnreadableReview, default_judge, parse_review
from webhook.admission.verdicts import tidy_warnings
from webhook.registry import REGISTRY, KindRegistry, ServedKinds
from webhook.release import KUBERNETES_1_30
from webhook.rules.kinds import GroupVersionKind
from webhook.settings import Enforcement, PolicySettings, UnknownKindPolicy

CLAIM = GroupVersionKind("resource.k8s.io", "v1alpha2", "ResourceClaim")


def response_of(document: dict[str, Any], judge: Judge | None = None) -> dict[str, Any]:
    answer = review(document, judge=judge)
    assert answer["kind"] == "AdmissionReview"
    assert answer["apiVersion"] == document["apiVersion"]
    assert answer["response"]["uid"] == document["request"]["uid"]
    response: dict[str, Any] = answer["response"]
    return response


@pytest.mark.parametrize("api_version", ["admission.k8s.io/v1", "admission.k8s.io/v1beta1"])
def test_a_valid_claim_is_allowed_in_both_envelope_versions(api_version: str) -> None:
    response = response_of(admission_review(resource_claim(), api_version=api_version))
    assert response == {"uid": response["uid"], "allowed": True}


def test_a_denial_is_shaped_like_api_errors_new_invalid() -> None:
    old = allocated_claim()
    new = allocated_claim(reserved_for=33)
    response = response_of(admission_review(new, operation="UPDATE", old=old, sub_resource="status"))
    assert response["allowed"] is False
    assert response["status"] == {
        "metadata": {},
        "status": "Failure",
        "message": 'ResourceClaim.resource.k8s.io "claim" is invalid: '
        "status.reservedFor: Too long: may not be longer than 32",
        "reason": "Invalid",
        "details": {
            "name": "claim",
            "group": "resource.k8s.io",
            "kind": "ResourceClaim",
            "causes": [
                {
                    "reason": "FieldValueTooLong",
                    "message": "Too long: may not be longer than 32",
                    "field": "status.reservedFor",
                }
            ],
        },
        "code": 422,
    }


def test_spec_of_a_claim_is_immutable_on_update() -> None:
    old = resource_claim()
    new = resource_claim(resourceClassName="other.example.com")
    response = response_of(admission_review(new, operation="UPDATE", old=old))
    assert response["allowed"] is False
    [cause] = response["status"]["details"]["causes"]
    assert cause["field"] == "spec"
    assert cause["reason"] == "FieldValueInvalid"
    assert cause["message"].endswith(": field is immutable")


def test_spec_of_a_template_is_immutable_on_update() -> None:
    old = claim_template()
    new = claim_template(allocationMode="Immediate")
    response = response_of(admission_review(new, operation="UPDATE", old=old))
    assert [c["field"] for c in response["status"]["details"]["causes"]] == ["spec"]


@pytest.mark.parametrize("operation", ["DELETE", "CONNECT"])
def test_delete_and_connect_are_allowed(operation: str) -> None:
    document = admission_review(None, operation=operation, kind="ResourceClaim")
    document["request"]["oldObject"] = {"anything": "goes"}
    assert response_of(document)["allowed"] is True


def test_an_unknown_kind_is_allowed_with_a_warning_by_default() -> None:
    document = admission_review(
        {"apiVersion": "v1", "kind": "ConfigMap"}, group="", version="v1", kind="ConfigMap"
    )
    response = response_of(document)
    assert response["allowed"] is True
    assert response["warnings"] == ["dra-webhook: v1, Kind=ConfigMap is not validated by this webhook"]


def test_an_unknown_resource_k8s_io_version_is_not_judged_as_a_known_one() -> None:
    # resource.k8s.io/v1alpha1: Kubernetes 1.26's, which no release the webhook judges as serves.
    document = admission_review(resource_claim(), version="v1alpha1")
    document["request"]["object"]["apiVersion"] = "resource.k8s.io/v1alpha1"
    response = response_of(document)
    assert response["allowed"] is True
    assert "resource.k8s.io/v1alpha1, Kind=ResourceClaim is not validated" in response["warnings"][0]


def test_the_unknown_kind_policy_can_deny() -> None:
    judge = Judge.build(PolicySettings(unknown_kind=UnknownKindPolicy.DENY))
    document = admission_review(
        {"apiVersion": "v1", "kind": "ConfigMap"}, group="", version="v1", kind="ConfigMap"
    )
    response = response_of(document, judge)
    assert response["allowed"] is False
    assert response["status"]["code"] == 403
    assert "unknown-kind policy is deny" in response["status"]["message"]


def test_an_unvalidated_subresource_is_not_passed_off_as_checked() -> None:
    response = response_of(
        admission_review(resource_claim(), operation="UPDATE", old=resource_claim(), sub_resource="scale")
    )
    assert response["allowed"] is True
    assert "subresource 'scale'" in response["warnings"][0]


@pytest.mark.parametrize(("sub_resource", "allowed"), [("", False), ("status", True)])
def test_the_namespace_rules_judge_the_main_resource_not_status_updates(
    sub_resource: str, allowed: bool
) -> None:
    """A claim whose parametersRef breaks the namespace rules (stored before the rules were turned
    on, say) is denied when its spec side is written, but its status stays writable: the status
    strategy keeps the stored spec, and the controllers that write status must not be blocked."""
    old = allocated_claim()
    old["spec"]["parametersRef"] = {"kind": "ConfigMap", "name": "params", "namespace": "elsewhere"}
    new = {**old, "metadata": {**old["metadata"], "labels": {"touched": "yes"}}}
    response = response_of(admission_review(new, operation="UPDATE", old=old, sub_resource=sub_resource))
    assert response["allowed"] is allowed
    if not allowed:
        assert response["status"]["details"]["causes"] == [
            {
                "reason": "FieldValueForbidden",
                "message": 'Forbidden: must be the namespace of the ResourceClaim ("default") or omitted',
                "field": "spec.parametersRef.namespace",
            }
        ]


def test_a_create_without_an_object_is_a_bad_request_verdict() -> None:
    document = admission_review(resource_claim())
    del document["request"]["object"]
    response = response_of(document)
    assert response["allowed"] is False
    assert response["status"]["code"] == 400
    assert response["status"]["message"] == "request.object is required for CREATE"


def test_an_update_without_an_old_object_is_a_bad_request_verdict() -> None:
    response = response_of(admission_review(resource_claim(), operation="UPDATE"))
    assert response["status"]["message"] == "request.oldObject is required for UPDATE"


def test_an_object_whose_kind_disagrees_with_the_request_is_refused() -> None:
    response = response_of(admission_review(claim_template(), kind="ResourceClaim"))
    assert response["allowed"] is False
    assert response["status"]["code"] == 400
    assert (
        "Kind=ResourceClaimTemplate but request.kind is resource.k8s.io/v1alpha2, Kind=ResourceClaim"
        in (response["status"]["message"])
    )


def test_an_object_of_the_wrong_shape_is_denied_with_type_causes() -> None:
    claim = resource_claim()
    claim["spec"] = "not an object"
    response = response_of(admission_review(claim))
    assert response["allowed"] is False
    assert response["status"]["code"] == 422
    [cause] = response["status"]["details"]["causes"]
    assert cause["field"] == "spec"
    assert cause["reason"] == "FieldValueTypeInvalid"


def test_an_old_object_of_the_wrong_shape_is_denied_at_its_old_object_paths() -> None:
    """The API server could not have stored it, and the rules cannot compare with it."""
    old = resource_claim()
    old["spec"] = "gpu.example.com"
    response = response_of(admission_review(resource_claim(), operation="UPDATE", old=old))
    assert response["allowed"] is False
    assert response["status"]["details"]["causes"] == [
        {
            "reason": "FieldValueTypeInvalid",
            "message": 'Invalid value: "string": spec in body must be of type object: "string"',
            "field": "oldObject.spec",
        }
    ]


def test_an_object_that_is_not_a_json_object_is_denied_not_crashed() -> None:
    response = response_of(admission_review(["a", "list"], kind="ResourceClaim"))
    assert response["allowed"] is False
    assert response["status"]["code"] in (400, 422)


def test_a_crash_in_a_rule_is_a_500_verdict_with_the_uid_and_no_trace(
    caplog: pytest.LogCaptureFixture,
) -> None:
    def explode(obj: Any) -> Any:
        raise RuntimeError("boom")

    rules = dataclasses.replace(REGISTRY[CLAIM], validate_create=explode)
    judge = dataclasses.replace(
        default_judge(), registry=KindRegistry([ServedKinds(KUBERNETES_1_30, (rules,))])
    )
    response = response_of(admission_review(resource_claim(), uid="crash-1"), judge)
    assert response["allowed"] is False
    assert response["status"]["code"] == 500
    assert response["status"]["reason"] == "InternalError"
    assert "crash-1" in response["status"]["message"]
    assert "Traceback" not in response["status"]["message"]
    assert "boom" in caplog.text


def test_warn_enforcement_allows_and_reports_every_error_as_a_warning() -> None:
    judge = Judge.build(PolicySettings(enforcement=(("ResourceClaim", Enforcement.WARN),)))
    old, new = allocated_claim(), allocated_claim(reserved_for=33)
    response = response_of(admission_review(new, operation="UPDATE", old=old, sub_resource="status"), judge)
    assert response["allowed"] is True
    assert response["warnings"] == [
        "ResourceClaim 'claim' would be denied: status.reservedFor: Too long: may not be longer than 32"
    ]


@pytest.mark.parametrize(
    ("body", "reason"),
    [
        (b"{not json", "request body is not valid JSON"),
        (b"[1, 2]", "request body must be a JSON object"),
        (
            b'{"apiVersion": "admission.k8s.io/v2", "kind": "AdmissionReview", "request": {}}',
            "unsupported AdmissionReview apiVersion",
        ),
        (b"{}", "AdmissionReview has no apiVersion; expected one of admission.k8s.io/v1"),
        (
            b'{"apiVersion": "admission.k8s.io/v1", "kind": "AdmissionReview"}',
            "AdmissionReview has no request",
        ),
        (
            b'{"apiVersion": "admission.k8s.io/v1", "kind": "Status", "request": {}}',
            "expected kind AdmissionReview",
        ),
        (
            b'{"apiVersion": "admission.k8s.io/v1", "kind": "AdmissionReview", "request": {"kind": {"version": "v1alpha2", "kind": "ResourceClaim"}, "operation": "CREATE"}}',
            "invalid AdmissionReview: request.uid: Field required",
        ),
        (
            b'{"apiVersion": "admission.k8s.io/v1", "kind": "AdmissionReview", "request": {"uid": "", "kind": {"version": "v1", "kind": "X"}, "operation": "CREATE"}}',
            "invalid AdmissionReview: request.uid",
        ),
        (
            b'{"apiVersion": "admission.k8s.io/v1", "kind": "AdmissionReview", "request": {"uid": "1", "kind": {"version": "v1", "kind": "X"}, "operation": "PATCH"}}',
            "invalid AdmissionReview: request.operation",
        ),
        (b"\xff\xfe not utf-8", "request body is not valid JSON"),
        (b"[" * 5000 + b"]" * 5000, "request body"),
    ],
)
def test_unreadable_reviews_are_400_with_a_one_line_reason(body: bytes, reason: str) -> None:
    with pytest.raises(UnreadableReview) as raised:
        parse_review(body)
    assert raised.value.status == 400
    assert raised.value.reason.startswith(reason)
    assert "\n" not in raised.value.reason


def test_warnings_are_printable_short_and_few() -> None:
    tidy = tidy_warnings(["a\x00b", "x" * 300, *[f"w{i}" for i in range(40)], "a\x00b"])
    assert tidy[0] == "a b"
    assert len(tidy[1]) == 256
    assert len(tidy) == 16
    assert tidy[-1] == "dra-webhook: 27 more warnings omitted"
