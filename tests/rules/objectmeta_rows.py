"""The ObjectMeta rows every kind's Go validation table repeats (validation_<kind>_test.go in 1.30),
written once and applied to a valid object of each kind.

`object_meta_cases(good, namespaced=...)` gives `(id, object, expected rows)` cases: the object is
`good` with its metadata changed, the expected rows are what `ValidateObjectMeta` reports for it, as
`expected.rendered` shows errors.
"""

from __future__ import annotations

import copy
from typing import Any

from tests.rules.expected import (
    BAD,
    BAD_VALUE,
    LABEL_MSG,
    LABEL_VALUE_MSG,
    NAME_PART_MSG,
    SUBDOMAIN_MSG,
    Row,
)
from webhook.field import ErrorType

Case = tuple[str, dict[str, Any], list[Row]]

OWNER_REFERENCE = {
    "apiVersion": "v1",
    "kind": "pod",
    "name": "foo",
    "uid": "ac051fac-2ead-46d9-b8b4-4e0fbeb7455d",
}
MANAGED_FIELDS_ENTRY = {
    "fieldsType": "FieldsV1",
    "operation": "Apply",
    "apiVersion": "apps/v1",
    "manager": "foo",
}


def with_metadata(obj: dict[str, Any], **metadata: Any) -> dict[str, Any]:
    """A deep copy of `obj` whose metadata fields are set (or replaced) as given."""
    changed = copy.deepcopy(obj)
    changed["metadata"] = {**changed.get("metadata", {}), **metadata}
    return changed


def object_meta_cases(good: dict[str, Any], *, namespaced: bool, generate_name: str = "pvc-") -> list[Case]:
    """The ObjectMeta rows for a kind whose valid object is `good` (with a name, and a namespace when
    the kind is namespaced). `generate_name` is the prefix the kind's Go table uses."""
    name_required = "metadata.name: Required value: name or generateName is required"
    cases: list[Case] = [
        (
            "missing-name",
            with_metadata(good, name=""),
            [(ErrorType.REQUIRED, "metadata.name", name_required)],
        ),
        (
            "bad-name",
            with_metadata(good, name=BAD),
            [(ErrorType.INVALID, "metadata.name", f'metadata.name: Invalid value: "{BAD}": {SUBDOMAIN_MSG}')],
        ),
    ]
    if namespaced:
        cases += [
            (
                "missing-namespace",
                with_metadata(good, namespace=""),
                [(ErrorType.REQUIRED, "metadata.namespace", "metadata.namespace: Required value")],
            ),
            (
                "bad-namespace",
                with_metadata(good, namespace=BAD),
                [
                    (
                        ErrorType.INVALID,
                        "metadata.namespace",
                        f'metadata.namespace: Invalid value: "{BAD}": {LABEL_MSG}',
                    )
                ],
            ),
        ]
    else:
        cases.append(
            (
                "cluster-scoped",
                with_metadata(good, namespace="default"),
                [
                    (
                        ErrorType.FORBIDDEN,
                        "metadata.namespace",
                        "metadata.namespace: Forbidden: not allowed on this type",
                    )
                ],
            )
        )
    cases += [
        ("generate-name", with_metadata(good, generateName=generate_name), []),
        ("uid", with_metadata(good, uid="ac051fac-2ead-46d9-b8b4-4e0fbeb7455d"), []),
        ("resource-version", with_metadata(good, resourceVersion="1"), []),
        ("generation", with_metadata(good, generation=100), []),
        ("creation-timestamp", with_metadata(good, creationTimestamp="2024-04-17T10:00:00Z"), []),
        ("deletion-grace-period-seconds", with_metadata(good, deletionGracePeriodSeconds=10), []),
        ("owner-references", with_metadata(good, ownerReferences=[OWNER_REFERENCE]), []),
        ("finalizers", with_metadata(good, finalizers=["example.com/foo"]), []),
        ("managed-fields", with_metadata(good, managedFields=[MANAGED_FIELDS_ENTRY]), []),
        ("good-labels", with_metadata(good, labels={"apps.kubernetes.io/name": "test"}), []),
        (
            "bad-labels",
            with_metadata(good, labels={"hello-world": BAD_VALUE}),
            [
                (
                    ErrorType.INVALID,
                    "metadata.labels",
                    f'metadata.labels: Invalid value: "{BAD_VALUE}": {LABEL_VALUE_MSG}',
                )
            ],
        ),
        ("good-annotations", with_metadata(good, annotations={"foo": "bar"}), []),
        (
            "bad-annotations",
            with_metadata(good, annotations={BAD: "hello world"}),
            [
                (
                    ErrorType.INVALID,
                    "metadata.annotations",
                    f'metadata.annotations: Invalid value: "{BAD}": {NAME_PART_MSG}',
                )
            ],
        ),
    ]
    return cases
