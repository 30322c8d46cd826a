"""What both corpus runners build around a case: its AdmissionReview, and the status message the
API server's `apierrors.NewInvalid` gives for its expected errors (an oracle of its own, not the
webhook's `field` module)."""

from __future__ import annotations

import copy
import json
from collections.abc import Callable, Mapping
from typing import Any

GROUP = "resource.k8s.io"
VERSION = "v1alpha2"
# A case's operation -> the request's operation and subresource.
OPERATIONS = {"CREATE": ("CREATE", ""), "UPDATE": ("UPDATE", ""), "UPDATE+status": ("UPDATE", "status")}
RESOURCES = {
    "ResourceClaim": "resourceclaims",
    "ResourceClaimTemplate": "resourceclaimtemplates",
    "ResourceClass": "resourceclasses",
    "PodSchedulingContext": "podschedulingcontexts",
    "ResourceSlice": "resourceslices",
    "ResourceClaimParameters": "resourceclaimparameters",
    "ResourceClassParameters": "resourceclassparameters",
    "DeviceClass": "deviceclasses",
    "DeviceTaintRule": "devicetaintrules",
    "ResourcePoolStatusRequest": "resourcepoolstatusrequests",
}


def admission_review(
    entry: Mapping[str, Any],
    *,
    uid: str,
    expand: Callable[[Any], Any] = lambda value: value,
    version: str = VERSION,
) -> dict[str, Any]:
    """The AdmissionReview kube-apiserver sends for a case of `version`; `expand` builds its objects."""
    operation, subresource = OPERATIONS[entry["operation"]]
    obj = expand(entry["object"])
    kind = obj["kind"]
    metadata = obj.get("metadata") or {}
    request: dict[str, Any] = {
        "uid": uid,
        "kind": {"group": GROUP, "version": version, "kind": kind},
        "resource": {"group": GROUP, "version": version, "resource": RESOURCES[kind]},
        "requestKind": {"group": GROUP, "version": version, "kind": kind},
        "requestResource": {"group": GROUP, "version": version, "resource": RESOURCES[kind]},
        "name": metadata.get("name") or "",
        "namespace": metadata.get("namespace") or "",
        "operation": operation,
        "userInfo": {"username": "kubernetes-admin", "groups": ["system:masters", "system:authenticated"]},
        "object": obj,
        "dryRun": False,
        "options": {"apiVersion": "meta.k8s.io/v1", "kind": f"{operation.title()}Options"},
    }
    if subresource:
        request["subResource"] = subresource
        request["requestSubResource"] = subresource
    if "oldObject" in entry:
        request["oldObject"] = expand(entry["oldObject"])
    return {"apiVersion": "admission.k8s.io/v1", "kind": "AdmissionReview", "request": request}


def in_version(
    document: dict[str, Any], version: str, convert: Callable[[Mapping[str, Any]], Mapping[str, Any]] | None
) -> dict[str, Any]:
    """The v1 AdmissionReview as the API server would send it for objects of `version`."""
    request = copy.deepcopy(document["request"])
    for field in ("kind", "resource", "requestKind", "requestResource"):
        request[field]["version"] = version
    for field in ("object", "oldObject"):
        if field in request:
            obj = request[field] if convert is None else dict(convert(request[field]))
            obj["apiVersion"] = f"resource.k8s.io/{version}"
            request[field] = obj
    return {**document, "request": request}


def go_quote(text: str) -> str:
    """`strconv.Quote` of the names the corpora use: printable text, plus newline and tab."""
    escaped = text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n").replace("\t", "\\t")
    assert escaped.isprintable(), text
    return f'"{escaped}"'


def expected_status_message(kind: str, name: str, expected: list[Mapping[str, Any]]) -> str:
    """`apierrors.NewInvalid(...).Error()`: the distinct `field: body` strings, bracketed when several."""
    distinct = list(dict.fromkeys(f"{error['field']}: {error['message']}" for error in expected))
    aggregate = distinct[0] if len(distinct) == 1 else "[" + ", ".join(distinct) + "]"
    return f"{kind}.{GROUP} {go_quote(name)} is invalid: {aggregate}"


def assert_answered_as_go(
    entry: Mapping[str, Any], document: Mapping[str, Any], answer: Mapping[str, Any]
) -> None:
    """The answer to a case's AdmissionReview is the one the API server gives: allowed with the case's
    warnings, or denied like `apierrors.NewInvalid` with the Go `wantFailures` in order (type, field,
    and message where the case records one) and their aggregated message."""
    assert (answer["apiVersion"], answer["kind"]) == ("admission.k8s.io/v1", "AdmissionReview")
    response = answer["response"]
    assert response["uid"] == document["request"]["uid"]
    # An unknown-field warning would mean the case's JSON does not match the version's types.
    assert response.get("warnings", []) == entry.get("warnings", [])

    expected = entry["expected"]
    if not expected:
        assert response["allowed"] is True, json.dumps(response.get("status"), indent=1)[:4000]
        assert "status" not in response
        return

    assert response["allowed"] is False, entry["name"]
    status = response["status"]
    assert (status["code"], status["reason"], status["status"]) == (422, "Invalid", "Failure"), status
    obj = document["request"]["object"]
    kind, name = obj["kind"], (obj.get("metadata") or {}).get("name", "")
    details = status["details"]
    assert (details["group"], details["kind"], details.get("name", "")) == (GROUP, kind, name)

    causes = details["causes"]
    assert [(cause["reason"], cause["field"]) for cause in causes] == [
        (error["type"], error["field"]) for error in expected
    ], json.dumps(causes, indent=1)[:6000]
    for cause, error in zip(causes, expected, strict=True):
        if error["message"] is not None:
            assert cause["message"] == error["message"], cause["field"]
    if all(error["message"] is not None for error in expected):
        assert status["message"] == expected_status_message(kind, name, expected)
