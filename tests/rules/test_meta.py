"""ObjectMeta as the 1.30 core validators check it: create, update and ResourceClaimTemplate spec.metadata.

Each row names the rule it checks and lists every error it expects: type and the full `str(err)`
(which carries the field path)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from tests.rules.expected import QUALIFIED_WITH_PREFIX_MSG
from webhook.field import ROOT, ErrorType, FieldError
from webhook.rules.meta import (
    validate_object_meta,
    validate_object_meta_update,
    validate_template_object_meta,
)
from webhook.rules.names import DNS1123_LABEL_MSG, DNS1123_SUBDOMAIN_MSG, LABEL_VALUE_MSG, QUALIFIED_NAME_MSG

F = ErrorType
Rendered = list[tuple[ErrorType, str]]

NOT_STANDARD_FINALIZER = "name is neither a standard finalizer name nor is it fully qualified"
ANNOTATION_BUDGET = 262144


def rendered(errs: list[FieldError]) -> Rendered:
    return [(err.type, str(err)) for err in errs]


def meta(**fields: Any) -> dict[str, Any]:
    """A valid namespaced ObjectMeta with the given fields replaced (None removes a field)."""
    base: dict[str, Any] = {"name": "claim", "namespace": "default"}
    base.update(fields)
    return {key: value for key, value in base.items() if value is not None}


def owner(kind: str = "Deployment", name: str = "d", **fields: Any) -> dict[str, Any]:
    return {"apiVersion": "apps/v1", "kind": kind, "name": name, "uid": "u-" + name, **fields}


# --- create ------------------------------------------------------------------------------------

CONTROLLERS = [
    owner("Deployment", "a", controller=True),
    owner("ReplicaSet", "b", controller=False),
    owner("ReplicaSet", "c", controller=True),
    owner("StatefulSet", "d", controller=True),
]
# Go prints the []OwnerReference as a struct literal; the webhook renders it as compact JSON.
CONTROLLERS_JSON = json.dumps(CONTROLLERS, separators=(",", ":"))

CREATE_ROWS: list[tuple[str, Any, Rendered]] = [
    ("valid", meta(), []),
    (
        "name is required even with generateName (the REST layer fills it first)",
        meta(name=None, generateName="claim-"),
        [(F.REQUIRED, "metadata.name: Required value: name or generateName is required")],
    ),
    (
        "name must be a DNS subdomain",
        meta(name="Claim_1"),
        [(F.INVALID, f'metadata.name: Invalid value: "Claim_1": {DNS1123_SUBDOMAIN_MSG}')],
    ),
    (
        "name longer than 253 bytes",
        meta(name="a" * 254),
        [(F.INVALID, f'metadata.name: Invalid value: "{"a" * 254}": must be no more than 253 characters')],
    ),
    ("generateName may end in a dash", meta(generateName="claim-"), []),
    (
        "generateName is checked with its trailing dash masked",
        meta(generateName="Claim-"),
        [(F.INVALID, f'metadata.generateName: Invalid value: "Claim-": {DNS1123_SUBDOMAIN_MSG}')],
    ),
    # maskTrailingDash turns "x.-" into "xa": the dot is dropped with the dash, so Go accepts it.
    ("generateName masking drops the character before the dash", meta(generateName="x.-"), []),
    (
        "namespace is required on namespaced kinds",
        meta(namespace=None),
        [(F.REQUIRED, "metadata.namespace: Required value")],
    ),
    (
        "namespace must be a DNS label: dots",
        meta(namespace="team.a"),
        [(F.INVALID, 'metadata.namespace: Invalid value: "team.a": must not contain dots')],
    ),
    (
        "namespace must be a DNS label: characters",
        meta(namespace="Team_A"),
        [(F.INVALID, f'metadata.namespace: Invalid value: "Team_A": {DNS1123_LABEL_MSG}')],
    ),
    (
        "generation may not be negative",
        meta(generation=-1),
        [(F.INVALID, "metadata.generation: Invalid value: -1: must be greater than or equal to 0")],
    ),
    ("labels may be valid", meta(labels={"example.com/Key": "My_value.1", "app": ""}), []),
    (
        "label keys are qualified names and values label values, both at the map's path",
        meta(labels={"a/b/c": "-bad"}),
        [
            (F.INVALID, f'metadata.labels: Invalid value: "a/b/c": {QUALIFIED_WITH_PREFIX_MSG}'),
            (F.INVALID, f'metadata.labels: Invalid value: "-bad": {LABEL_VALUE_MSG}'),
        ],
    ),
    (
        "label key prefixes are case-sensitive",
        meta(labels={"Example.com/key": "v"}),
        [
            (
                F.INVALID,
                f'metadata.labels: Invalid value: "Example.com/key": prefix part {DNS1123_SUBDOMAIN_MSG}',
            )
        ],
    ),
    (
        "label values are at most 63 bytes",
        meta(labels={"k": "v" * 64}),
        [(F.INVALID, f'metadata.labels: Invalid value: "{"v" * 64}": must be no more than 63 characters')],
    ),
    ("annotation keys are lower-cased before the check", meta(annotations={"Example.COM/Key": "x"}), []),
    (
        "annotation keys are qualified names; the original key is printed",
        meta(annotations={"A/B/C": "x", "": "y"}),
        [
            (F.INVALID, f'metadata.annotations: Invalid value: "A/B/C": {QUALIFIED_WITH_PREFIX_MSG}'),
            (F.INVALID, 'metadata.annotations: Invalid value: "": name part must be non-empty'),
            (F.INVALID, f'metadata.annotations: Invalid value: "": name part {QUALIFIED_NAME_MSG}'),
        ],
    ),
    (
        "annotations at exactly 262144 bytes are fine",
        meta(annotations={"k": "v" * (ANNOTATION_BUDGET - 1)}),
        [],
    ),
    (
        "annotations over 262144 bytes are too long",
        meta(annotations={"k": "v" * ANNOTATION_BUDGET}),
        [(F.TOO_LONG, "metadata.annotations: Too long: must have at most 262144 bytes")],
    ),
    (
        "the annotation budget counts bytes of keys and values",
        meta(annotations={"k": "é" * (ANNOTATION_BUDGET // 2), "a": ""}),
        [(F.TOO_LONG, "metadata.annotations: Too long: must have at most 262144 bytes")],
    ),
    (
        "owner references may be valid",
        meta(ownerReferences=[owner(controller=True), owner("ReplicaSet")]),
        [],
    ),
    (
        "owner reference fields must not be empty; paths carry no index",
        meta(ownerReferences=[{"apiVersion": "", "kind": "", "name": "", "uid": ""}]),
        [
            (F.INVALID, 'metadata.ownerReferences.apiVersion: Invalid value: "": version must not be empty'),
            (F.INVALID, 'metadata.ownerReferences.kind: Invalid value: "": kind must not be empty'),
            (F.INVALID, 'metadata.ownerReferences.name: Invalid value: "": name must not be empty'),
            (F.INVALID, 'metadata.ownerReferences.uid: Invalid value: "": uid must not be empty'),
        ],
    ),
    (
        "an owner apiVersion with a group but no version",
        meta(ownerReferences=[owner(apiVersion="apps/")]),
        [
            (
                F.INVALID,
                'metadata.ownerReferences.apiVersion: Invalid value: "apps/": version must not be empty',
            )
        ],
    ),
    (
        "an owner apiVersion Go cannot parse (two slashes)",
        meta(ownerReferences=[owner(apiVersion="a/b/c")]),
        [
            (
                F.INVALID,
                'metadata.ownerReferences.apiVersion: Invalid value: "a/b/c": version must not be empty',
            )
        ],
    ),
    (
        "a core Event may not own anything",
        meta(ownerReferences=[{"apiVersion": "v1", "kind": "Event", "name": "e", "uid": "u"}]),
        [
            (
                F.INVALID,
                'metadata.ownerReferences: Invalid value: {"apiVersion":"v1","kind":"Event","name":"e","uid":"u"}: '
                "/v1, Kind=Event is disallowed from being an owner",
            )
        ],
    ),
    (
        "an events.k8s.io Event may",
        meta(ownerReferences=[owner("Event", apiVersion="events.k8s.io/v1")]),
        [],
    ),
    (
        "only one owner may be the controller; each extra one is reported against the first",
        meta(ownerReferences=CONTROLLERS),
        [
            (
                F.INVALID,
                f"metadata.ownerReferences: Invalid value: {CONTROLLERS_JSON}: Only one reference can have "
                'Controller set to true. Found "true" in references for Deployment/a and ReplicaSet/c',
            ),
            (
                F.INVALID,
                f"metadata.ownerReferences: Invalid value: {CONTROLLERS_JSON}: Only one reference can have "
                'Controller set to true. Found "true" in references for Deployment/a and StatefulSet/d',
            ),
        ],
    ),
    (
        "standard and qualified finalizers",
        meta(finalizers=["kubernetes", "orphan", "example.com/cleanup"]),
        [],
    ),
    (
        "a finalizer without a '/' must be a standard name (core validation, per index)",
        meta(finalizers=["example.com/ok", "my-finalizer"]),
        [(F.INVALID, f'metadata.finalizers[1]: Invalid value: "my-finalizer": {NOT_STANDARD_FINALIZER}')],
    ),
    (
        "finalizers are qualified names (apimachinery, no index), then the core check",
        meta(finalizers=["Bad Name"]),
        [
            (F.INVALID, f'metadata.finalizers: Invalid value: "Bad Name": name part {QUALIFIED_NAME_MSG}'),
            (F.INVALID, f'metadata.finalizers[0]: Invalid value: "Bad Name": {NOT_STANDARD_FINALIZER}'),
        ],
    ),
    (
        "orphan and foregroundDeletion cannot both be set",
        meta(finalizers=["orphan", "foregroundDeletion"]),
        [
            (
                F.INVALID,
                'metadata.finalizers: Invalid value: []string{"orphan", "foregroundDeletion"}: '
                "finalizer orphan and foregroundDeletion cannot be both set",
            )
        ],
    ),
    (
        "managed fields: operation, fieldsType",
        meta(
            managedFields=[
                {"manager": "m", "operation": "Update"},
                {"operation": "Patch", "fieldsType": "FieldsV2"},
            ]
        ),
        [
            (
                F.INVALID,
                'metadata.managedFields[1].operation: Invalid value: "Patch": must be `Apply` or `Update`',
            ),
            (
                F.INVALID,
                'metadata.managedFields[1].fieldsType: Invalid value: "FieldsV2": must be `FieldsV1`',
            ),
        ],
    ),
    (
        "managed fields: operation is required",
        meta(managedFields=[{"fieldsType": "FieldsV1"}]),
        [(F.INVALID, 'metadata.managedFields[0].operation: Invalid value: "": must be `Apply` or `Update`')],
    ),
    (
        "managed fields: manager and subresource lengths in bytes",
        meta(managedFields=[{"operation": "Apply", "manager": "é" * 65, "subresource": "s" * 257}]),
        [
            (F.TOO_LONG, "metadata.managedFields[0].manager: Too long: must have at most 128 bytes"),
            (F.TOO_LONG, "metadata.managedFields[0].subresource: Too long: must have at most 256 bytes"),
        ],
    ),
    (
        "managed fields: each non-printable rune of the manager, at its byte position",
        meta(managedFields=[{"operation": "Apply", "manager": "é\x07a\u00a0"}]),
        [
            (
                F.INVALID,
                'metadata.managedFields[0].manager: Invalid value: "é\\aa\\u00a0": invalid character U+0007 (at position 2)',
            ),
            (
                F.INVALID,
                'metadata.managedFields[0].manager: Invalid value: "é\\aa\\u00a0": invalid character U+00A0 (at position 4)',
            ),
        ],
    ),
    (
        "malformed metadata reads as empty",
        "not an object",
        [
            (F.REQUIRED, "metadata.name: Required value: name or generateName is required"),
            (F.REQUIRED, "metadata.namespace: Required value"),
        ],
    ),
    (
        "null entries and wrong types never crash",
        meta(labels=["x"], annotations=None, ownerReferences=[None], finalizers=[None], managedFields="x"),
        [
            (F.INVALID, 'metadata.ownerReferences.apiVersion: Invalid value: "": version must not be empty'),
            (F.INVALID, 'metadata.ownerReferences.kind: Invalid value: "": kind must not be empty'),
            (F.INVALID, 'metadata.ownerReferences.name: Invalid value: "": name must not be empty'),
            (F.INVALID, 'metadata.ownerReferences.uid: Invalid value: "": uid must not be empty'),
            (F.INVALID, 'metadata.finalizers: Invalid value: "": name part must be non-empty'),
            (F.INVALID, f'metadata.finalizers: Invalid value: "": name part {QUALIFIED_NAME_MSG}'),
            (F.INVALID, f'metadata.finalizers[0]: Invalid value: "": {NOT_STANDARD_FINALIZER}'),
        ],
    ),
]


@pytest.mark.parametrize(
    ("metadata", "expected"), [row[1:] for row in CREATE_ROWS], ids=[row[0] for row in CREATE_ROWS]
)
def test_object_meta_on_create(metadata: Any, expected: Rendered) -> None:
    assert rendered(validate_object_meta(metadata, namespaced=True)) == expected


@pytest.mark.parametrize(
    ("metadata", "expected"),
    [
        ({"name": "class"}, []),
        (
            {"name": "class", "namespace": "default"},
            [(F.FORBIDDEN, "metadata.namespace: Forbidden: not allowed on this type")],
        ),
    ],
    ids=["no namespace", "namespace is forbidden"],
)
def test_object_meta_of_cluster_scoped_kinds(metadata: Any, expected: Rendered) -> None:
    assert rendered(validate_object_meta(metadata, namespaced=False)) == expected


def test_object_meta_reports_in_go_order_with_the_core_finalizer_check_last() -> None:
    metadata = {
        "managedFields": [{"operation": "Patch"}],
        "finalizers": ["custom"],
        "ownerReferences": [{"apiVersion": "v1", "kind": "Pod", "name": "p", "uid": ""}],
        "annotations": {"a/b/c": ""},
        "labels": {"k": "-"},
        "generation": -2,
        "namespace": "a.b",
        "name": "Bad",
        "generateName": "Bad-",
    }
    assert [err.field for err in validate_object_meta(metadata, namespaced=True)] == [
        "metadata.generateName",
        "metadata.name",
        "metadata.namespace",
        "metadata.generation",
        "metadata.labels",
        "metadata.annotations",
        "metadata.ownerReferences.uid",
        "metadata.managedFields[0].operation",
        "metadata.finalizers[0]",
    ]


def test_name_fn_and_path_are_the_callers() -> None:
    def dns_label(name: str, prefix: bool) -> list[str]:
        return ["label!"] if "." in name else []

    errs = validate_object_meta({"name": "a.b"}, namespaced=False, name_fn=dns_label, path=ROOT.child("m"))
    assert rendered(errs) == [(F.INVALID, 'm.name: Invalid value: "a.b": label!')]


# --- update ------------------------------------------------------------------------------------

OLD = {
    "name": "claim",
    "namespace": "default",
    "uid": "uid-1",
    "resourceVersion": "1",
    "generation": 2,
    "creationTimestamp": "2024-01-02T03:04:05Z",
}
DELETING = {**OLD, "deletionTimestamp": "2024-02-03T04:05:06Z", "deletionGracePeriodSeconds": 30}


def changed(base: dict[str, Any], **fields: Any) -> dict[str, Any]:
    updated = {**base, **fields}
    return {key: value for key, value in updated.items() if value is not None}


UPDATE_ROWS: list[tuple[str, dict[str, Any], dict[str, Any], Rendered]] = [
    ("unchanged", OLD, OLD, []),
    (
        "resourceVersion must be set on the new object",
        changed(OLD, resourceVersion=None),
        OLD,
        [(F.INVALID, 'metadata.resourceVersion: Invalid value: "": must be specified for an update')],
    ),
    ("generation may grow", changed(OLD, generation=3), OLD, []),
    (
        "generation must not be decremented",
        changed(OLD, generation=1),
        OLD,
        [(F.INVALID, "metadata.generation: Invalid value: 1: must not be decremented")],
    ),
    (
        "name is immutable",
        changed(OLD, name="other"),
        OLD,
        [(F.INVALID, 'metadata.name: Invalid value: "other": field is immutable')],
    ),
    (
        "namespace is immutable",
        changed(OLD, namespace="other"),
        OLD,
        [(F.INVALID, 'metadata.namespace: Invalid value: "other": field is immutable')],
    ),
    (
        "uid is immutable",
        changed(OLD, uid=None),
        OLD,
        [(F.INVALID, 'metadata.uid: Invalid value: "": field is immutable')],
    ),
    (
        "creationTimestamp is immutable and prints as a Go time",
        changed(OLD, creationTimestamp="2024-01-02T03:04:06.250Z"),
        OLD,
        [
            (
                F.INVALID,
                "metadata.creationTimestamp: Invalid value: 2024-01-02 03:04:06.25 +0000 UTC: field is immutable",
            )
        ],
    ),
    (
        "creationTimestamp compares instants, not text",
        changed(OLD, creationTimestamp="2024-01-02T05:04:05+02:00"),
        OLD,
        [],
    ),
    (
        "a cleared creationTimestamp is Go's zero time",
        changed(OLD, creationTimestamp=None),
        OLD,
        [
            (
                F.INVALID,
                "metadata.creationTimestamp: Invalid value: 0001-01-01 00:00:00 +0000 UTC: field is immutable",
            )
        ],
    ),
    (
        "deletionTimestamp cannot be set by an update",
        changed(OLD, deletionTimestamp="2024-02-03T04:05:06+01:00"),
        OLD,
        [
            (
                F.INVALID,
                "metadata.deletionTimestamp: Invalid value: 2024-02-03 03:05:06 +0000 UTC: field is immutable",
            )
        ],
    ),
    (
        "a cleared deletionTimestamp is a nil pointer, printed as null",
        changed(DELETING, deletionTimestamp=None),
        DELETING,
        [(F.INVALID, 'metadata.deletionTimestamp: Invalid value: "null": field is immutable')],
    ),
    (
        "deletionGracePeriodSeconds is immutable",
        changed(DELETING, deletionGracePeriodSeconds=10),
        DELETING,
        [(F.INVALID, "metadata.deletionGracePeriodSeconds: Invalid value: 10: field is immutable")],
    ),
    (
        "a pointer to zero differs from nil",
        changed(OLD, deletionGracePeriodSeconds=0),
        OLD,
        [(F.INVALID, "metadata.deletionGracePeriodSeconds: Invalid value: 0: field is immutable")],
    ),
    (
        "a cleared deletionGracePeriodSeconds prints as null",
        changed(DELETING, deletionGracePeriodSeconds=None),
        DELETING,
        [(F.INVALID, 'metadata.deletionGracePeriodSeconds: Invalid value: "null": field is immutable')],
    ),
    (
        "no new finalizers once deleting; the new ones print sorted",
        changed(DELETING, finalizers=["kubernetes", "example.com/b", "example.com/a"]),
        changed(DELETING, finalizers=["kubernetes"]),
        [
            (
                F.FORBIDDEN,
                "metadata.finalizers: Forbidden: no new finalizers can be added if the object is being deleted, "
                'found new finalizers []string{"example.com/a", "example.com/b"}',
            )
        ],
    ),
    (
        "finalizers may be removed while deleting",
        changed(DELETING, finalizers=["example.com/a"]),
        changed(DELETING, finalizers=["example.com/a", "kubernetes"]),
        [],
    ),
    (
        "finalizers may be added before deletion",
        changed(OLD, finalizers=["example.com/a"]),
        OLD,
        [],
    ),
    (
        "the core finalizer check runs on every update",
        changed(OLD, finalizers=["custom"]),
        changed(OLD, finalizers=["custom"]),
        [(F.INVALID, f'metadata.finalizers[0]: Invalid value: "custom": {NOT_STANDARD_FINALIZER}')],
    ),
    (
        "but not apimachinery's qualified-name check of finalizers",
        changed(OLD, finalizers=["Not Qualified/x"]),
        OLD,
        [],
    ),
    (
        "nor the name format (create validation, re-run by the kind's validator)",
        changed(OLD, name="Bad_Name"),
        changed(OLD, name="Bad_Name"),
        [],
    ),
    (
        "labels, annotations, owner references and managed fields are checked again",
        changed(
            OLD,
            labels={"k": "-"},
            annotations={"a/b/c": ""},
            ownerReferences=[{"apiVersion": "v1", "kind": "Pod", "name": "", "uid": "u"}],
            managedFields=[{"operation": "Get"}],
        ),
        OLD,
        [
            (F.INVALID, f'metadata.labels: Invalid value: "-": {LABEL_VALUE_MSG}'),
            (F.INVALID, f'metadata.annotations: Invalid value: "a/b/c": {QUALIFIED_WITH_PREFIX_MSG}'),
            (F.INVALID, 'metadata.ownerReferences.name: Invalid value: "": name must not be empty'),
            (
                F.INVALID,
                'metadata.managedFields[0].operation: Invalid value: "Get": must be `Apply` or `Update`',
            ),
        ],
    ),
]


@pytest.mark.parametrize(
    ("new", "old", "expected"), [row[1:] for row in UPDATE_ROWS], ids=[row[0] for row in UPDATE_ROWS]
)
def test_object_meta_on_update(new: dict[str, Any], old: dict[str, Any], expected: Rendered) -> None:
    assert rendered(validate_object_meta_update(new, old)) == expected


def test_object_meta_update_reports_in_go_order() -> None:
    new = {
        "finalizers": ["custom", "example.com/new"],
        "labels": {"k": "-"},
        "generation": 1,
        "name": "other",
        "namespace": "other",
        "uid": "other",
        "creationTimestamp": "2020-01-01T00:00:00Z",
        "deletionGracePeriodSeconds": 1,
        "annotations": {"/": ""},
        "ownerReferences": [{"apiVersion": "", "kind": "K", "name": "n", "uid": "u"}],
        "managedFields": [{"operation": ""}],
    }
    assert [err.field for err in validate_object_meta_update(new, DELETING)] == [
        "metadata.finalizers",
        "metadata.resourceVersion",
        "metadata.generation",
        "metadata.name",
        "metadata.namespace",
        "metadata.uid",
        "metadata.creationTimestamp",
        "metadata.deletionTimestamp",
        "metadata.deletionGracePeriodSeconds",
        "metadata.labels",
        "metadata.annotations",
        "metadata.annotations",
        "metadata.annotations",
        "metadata.ownerReferences.apiVersion",
        "metadata.managedFields[0].operation",
        "metadata.finalizers[0]",
    ]


def test_object_meta_update_survives_malformed_metadata() -> None:
    assert rendered(validate_object_meta_update(None, ["x"])) == [
        (F.INVALID, 'metadata.resourceVersion: Invalid value: "": must be specified for an update')
    ]


# --- ResourceClaimTemplate spec.metadata --------------------------------------------------------

TEMPLATE = ROOT.child("spec", "metadata")

TEMPLATE_ROWS: list[tuple[str, Any, Rendered]] = [
    ("absent", None, []),
    ("labels and annotations are allowed", {"labels": {"app": "x"}, "annotations": {"Note": "y"}}, []),
    (
        "annotations are checked before labels",
        {"labels": {"k": "-"}, "annotations": {"a/b/c": ""}},
        [
            (F.INVALID, f'spec.metadata.annotations: Invalid value: "a/b/c": {QUALIFIED_WITH_PREFIX_MSG}'),
            (F.INVALID, f'spec.metadata.labels: Invalid value: "-": {LABEL_VALUE_MSG}'),
        ],
    ),
    (
        "the annotation budget applies",
        {"annotations": {"k": "v" * ANNOTATION_BUDGET}},
        [(F.TOO_LONG, "spec.metadata.annotations: Too long: must have at most 262144 bytes")],
    ),
    ("name", {"name": "x"}, [(F.FORBIDDEN, "spec.metadata.name: Forbidden: cannot be set")]),
    (
        "generateName",
        {"generateName": "x-"},
        [(F.FORBIDDEN, "spec.metadata.generateName: Forbidden: cannot be set")],
    ),
    ("namespace", {"namespace": "x"}, [(F.FORBIDDEN, "spec.metadata.namespace: Forbidden: cannot be set")]),
    ("selfLink", {"selfLink": "/x"}, [(F.FORBIDDEN, "spec.metadata.selfLink: Forbidden: cannot be set")]),
    # Go lower-cases only the first rune of the field name UID.
    ("uid prints as uID", {"uid": "u"}, [(F.FORBIDDEN, "spec.metadata.uID: Forbidden: cannot be set")]),
    (
        "resourceVersion",
        {"resourceVersion": "1"},
        [(F.FORBIDDEN, "spec.metadata.resourceVersion: Forbidden: cannot be set")],
    ),
    ("generation", {"generation": 1}, [(F.FORBIDDEN, "spec.metadata.generation: Forbidden: cannot be set")]),
    (
        "creationTimestamp",
        {"creationTimestamp": "2024-01-02T03:04:05Z"},
        [(F.FORBIDDEN, "spec.metadata.creationTimestamp: Forbidden: cannot be set")],
    ),
    (
        "deletionTimestamp",
        {"deletionTimestamp": "2024-01-02T03:04:05Z"},
        [(F.FORBIDDEN, "spec.metadata.deletionTimestamp: Forbidden: cannot be set")],
    ),
    (
        "deletionGracePeriodSeconds, even a pointer to zero",
        {"deletionGracePeriodSeconds": 0},
        [(F.FORBIDDEN, "spec.metadata.deletionGracePeriodSeconds: Forbidden: cannot be set")],
    ),
    (
        "ownerReferences, even an empty list (a non-nil slice)",
        {"ownerReferences": []},
        [(F.FORBIDDEN, "spec.metadata.ownerReferences: Forbidden: cannot be set")],
    ),
    (
        "finalizers",
        {"finalizers": ["x"]},
        [(F.FORBIDDEN, "spec.metadata.finalizers: Forbidden: cannot be set")],
    ),
    (
        "managedFields",
        {"managedFields": []},
        [(F.FORBIDDEN, "spec.metadata.managedFields: Forbidden: cannot be set")],
    ),
    (
        "zero values are not set: kubectl's creationTimestamp null among them",
        {
            "name": "",
            "generation": 0,
            "creationTimestamp": None,
            "deletionTimestamp": None,
            "finalizers": None,
            "labels": {},
        },
        [],
    ),
    (
        "every field at once, in ObjectMeta's Go field order",
        {
            "managedFields": [{}],
            "finalizers": ["x"],
            "ownerReferences": [{}],
            "labels": {"ok": "ok"},
            "deletionGracePeriodSeconds": 5,
            "deletionTimestamp": "2024-01-02T03:04:05Z",
            "creationTimestamp": "2024-01-02T03:04:05Z",
            "generation": 3,
            "resourceVersion": "7",
            "uid": "u",
            "selfLink": "/s",
            "namespace": "ns",
            "generateName": "g-",
            "name": "n",
        },
        [
            (F.FORBIDDEN, f"spec.metadata.{name}: Forbidden: cannot be set")
            for name in (
                "name",
                "generateName",
                "namespace",
                "selfLink",
                "uID",
                "resourceVersion",
                "generation",
                "creationTimestamp",
                "deletionTimestamp",
                "deletionGracePeriodSeconds",
                "ownerReferences",
                "finalizers",
                "managedFields",
            )
        ],
    ),
    ("malformed metadata reads as empty", "x", []),
]


@pytest.mark.parametrize(
    ("metadata", "expected"), [row[1:] for row in TEMPLATE_ROWS], ids=[row[0] for row in TEMPLATE_ROWS]
)
def test_template_object_meta(metadata: Any, expected: Rendered) -> None:
    assert rendered(validate_template_object_meta(metadata, TEMPLATE)) == expected
