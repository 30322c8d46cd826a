"""The two parameters references (1.30's validateResourceClaimParametersRef and
validateClassParameters), checked directly; the kinds' tables check that each kind calls them at its
own path (parametersRef, generatedFrom)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from tests.rules.expected import BAD, LABEL_MSG, Row, rendered
from webhook.field import ROOT, ErrorList, ErrorType, FieldPath
from webhook.rules.v1alpha2.references import validate_claim_parameters_ref, validate_class_parameters_ref

REF = ROOT.child("ref")
KIND_REQUIRED: Row = (ErrorType.REQUIRED, "ref.kind", "ref.kind: Required value")
NAME_REQUIRED: Row = (ErrorType.REQUIRED, "ref.name", "ref.name: Required value")

# Rows both references share: they differ only in the namespace, which the claim reference lacks.
KIND_AND_NAME_ROWS: list[tuple[str, Any, list[Row]]] = [
    ("absent-is-not-checked", None, []),
    ("not-an-object-reads-as-absent", "x", []),
    ("empty-object-needs-kind-and-name", {}, [KIND_REQUIRED, NAME_REQUIRED]),
    ("kind-is-required", {"name": "n"}, [KIND_REQUIRED]),
    ("name-is-required", {"kind": "k"}, [NAME_REQUIRED]),
    ("empty-strings-are-missing", {"kind": "", "name": ""}, [KIND_REQUIRED, NAME_REQUIRED]),
    ("non-strings-read-as-empty", {"kind": 1, "name": None}, [KIND_REQUIRED, NAME_REQUIRED]),
    ("api-group-is-not-checked", {"apiGroup": "!!", "kind": "k", "name": "n"}, []),
]


@pytest.mark.parametrize(
    ("ref", "expected"), [r[1:] for r in KIND_AND_NAME_ROWS], ids=[r[0] for r in KIND_AND_NAME_ROWS]
)
@pytest.mark.parametrize("validate", [validate_claim_parameters_ref, validate_class_parameters_ref])
def test_kind_and_name(
    validate: Callable[[Any, FieldPath], ErrorList], ref: Any, expected: list[Row]
) -> None:
    assert rendered(validate(ref, REF)) == expected


def test_a_claim_reference_has_no_namespace_to_check() -> None:
    assert validate_claim_parameters_ref({"kind": "k", "name": "n", "namespace": BAD}, REF) == []


@pytest.mark.parametrize(
    ("namespace", "expected"),
    [
        ("", []),
        ("ns", []),
        (BAD, [(ErrorType.INVALID, "ref.namespace", f'ref.namespace: Invalid value: "{BAD}": {LABEL_MSG}')]),
        # ValidateNamespaceName is a DNS label: a valid subdomain with dots gets its own message.
        (
            "a.b",
            [
                (
                    ErrorType.INVALID,
                    "ref.namespace",
                    'ref.namespace: Invalid value: "a.b": must not contain dots',
                )
            ],
        ),
    ],
    ids=["empty-is-not-checked", "label", "bad", "dotted"],
)
def test_a_class_reference_namespace_is_a_dns_label(namespace: str, expected: list[Row]) -> None:
    assert (
        rendered(validate_class_parameters_ref({"kind": "k", "name": "n", "namespace": namespace}, REF))
        == expected
    )


def test_a_class_reference_reports_kind_name_then_namespace() -> None:
    assert rendered(validate_class_parameters_ref({"namespace": BAD}, REF)) == [
        KIND_REQUIRED,
        NAME_REQUIRED,
        (ErrorType.INVALID, "ref.namespace", f'ref.namespace: Invalid value: "{BAD}": {LABEL_MSG}'),
    ]
