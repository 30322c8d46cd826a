"""NodeSelector as 1.30's `corevalidation.ValidateNodeSelector` checks it (ResourceClass.suitableNodes,
ResourceClaim.status.allocation.availableOnNodes)."""

from __future__ import annotations

from typing import Any

import pytest

from webhook.field import ROOT, ErrorType, FieldError
from webhook.rules.names import DNS1123_SUBDOMAIN_MSG, QUALIFIED_NAME_MSG
from webhook.rules.nodeselector import validate_node_selector

F = ErrorType
Rendered = list[tuple[ErrorType, str]]
NODES = ROOT.child("suitableNodes")
TERM = "suitableNodes.nodeSelectorTerms[0]"


def rendered(errs: list[FieldError]) -> Rendered:
    return [(err.type, str(err)) for err in errs]


def expression(operator: str, values: Any = None, key: str = "example.com/gpu") -> dict[str, Any]:
    requirement: dict[str, Any] = {"key": key, "operator": operator}
    if values is not None:
        requirement["values"] = values
    return requirement


def selector(*, expressions: Any = None, fields: Any = None) -> dict[str, Any]:
    term: dict[str, Any] = {}
    if expressions is not None:
        term["matchExpressions"] = expressions
    if fields is not None:
        term["matchFields"] = fields
    return {"nodeSelectorTerms": [term]}


ROWS: list[tuple[str, Any, Rendered]] = [
    (
        "at least one term is required",
        {"nodeSelectorTerms": []},
        [
            (
                F.REQUIRED,
                "suitableNodes.nodeSelectorTerms: Required value: must have at least one node selector term",
            )
        ],
    ),
    (
        "an absent term list (or selector) is the same",
        None,
        [
            (
                F.REQUIRED,
                "suitableNodes.nodeSelectorTerms: Required value: must have at least one node selector term",
            )
        ],
    ),
    ("an empty term is fine", {"nodeSelectorTerms": [{}]}, []),
    ("a null term is an empty term", {"nodeSelectorTerms": [None]}, []),
    ("In with values", selector(expressions=[expression("In", ["a", "b"])]), []),
    (
        "In needs values",
        selector(expressions=[expression("In")]),
        [
            (
                F.REQUIRED,
                f"{TERM}.matchExpressions[0].values: Required value: must be specified when `operator` is 'In' or 'NotIn'",
            )
        ],
    ),
    (
        "NotIn needs values",
        selector(expressions=[expression("NotIn", [])]),
        [
            (
                F.REQUIRED,
                f"{TERM}.matchExpressions[0].values: Required value: must be specified when `operator` is 'In' or 'NotIn'",
            )
        ],
    ),
    ("Exists without values", selector(expressions=[expression("Exists")]), []),
    (
        "DoesNotExist forbids values",
        selector(expressions=[expression("DoesNotExist", ["x"])]),
        [
            (
                F.FORBIDDEN,
                f"{TERM}.matchExpressions[0].values: Forbidden: "
                "may not be specified when `operator` is 'Exists' or 'DoesNotExist'",
            )
        ],
    ),
    ("Gt with one value", selector(expressions=[expression("Gt", ["3"])]), []),
    (
        "Lt needs exactly one value",
        selector(expressions=[expression("Lt", ["1", "2"]), expression("Gt")]),
        [
            (
                F.REQUIRED,
                f"{TERM}.matchExpressions[0].values: Required value: "
                "must be specified single value when `operator` is 'Lt' or 'Gt'",
            ),
            (
                F.REQUIRED,
                f"{TERM}.matchExpressions[1].values: Required value: "
                "must be specified single value when `operator` is 'Lt' or 'Gt'",
            ),
        ],
    ),
    (
        "an unknown operator, then the key",
        selector(expressions=[expression("Equals", ["x"], key="a/b/c")]),
        [
            (
                F.INVALID,
                f'{TERM}.matchExpressions[0].operator: Invalid value: "Equals": not a valid selector operator',
            ),
            (
                F.INVALID,
                f'{TERM}.matchExpressions[0].key: Invalid value: "a/b/c": a qualified name {QUALIFIED_NAME_MSG} '
                "with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')",
            ),
        ],
    ),
    (
        "operators are case-sensitive and required",
        selector(expressions=[expression("in", ["x"]), {"key": "k"}]),
        [
            (
                F.INVALID,
                f'{TERM}.matchExpressions[0].operator: Invalid value: "in": not a valid selector operator',
            ),
            (
                F.INVALID,
                f'{TERM}.matchExpressions[1].operator: Invalid value: "": not a valid selector operator',
            ),
        ],
    ),
    (
        "an empty key",
        selector(expressions=[expression("Exists", key="")]),
        [
            (F.INVALID, f'{TERM}.matchExpressions[0].key: Invalid value: "": name part must be non-empty'),
            (F.INVALID, f'{TERM}.matchExpressions[0].key: Invalid value: "": name part {QUALIFIED_NAME_MSG}'),
        ],
    ),
    # ValidateNodeSelectorRequirement in 1.30 checks no label values.
    (
        "label values are not validated",
        selector(expressions=[expression("In", ["-not a label value-", "v" * 100])]),
        [],
    ),
    ("a node name field selector", selector(fields=[expression("In", ["node-1"], key="metadata.name")]), []),
    (
        "a field selector In takes exactly one value",
        selector(fields=[expression("NotIn", ["a", "b"], key="metadata.name")]),
        [
            (
                F.REQUIRED,
                f"{TERM}.matchFields[0].values: Required value: "
                "must be only one value when `operator` is 'In' or 'NotIn' for node field selector",
            )
        ],
    ),
    (
        "a field selector allows only In and NotIn",
        selector(fields=[expression("Exists", key="metadata.name")]),
        [
            (
                F.INVALID,
                f'{TERM}.matchFields[0].operator: Invalid value: "Exists": not a valid selector operator',
            )
        ],
    ),
    (
        "a field selector selects only metadata.name, and then its values are not checked",
        selector(fields=[expression("In", ["Bad_Node"], key="metadata.labels")]),
        [
            (
                F.INVALID,
                f'{TERM}.matchFields[0].key: Invalid value: "metadata.labels": not a valid field selector key',
            )
        ],
    ),
    (
        "field selector values are node names",
        selector(fields=[expression("In", ["Bad_Node"], key="metadata.name")]),
        [(F.INVALID, f'{TERM}.matchFields[0].values[0]: Invalid value: "Bad_Node": {DNS1123_SUBDOMAIN_MSG}')],
    ),
    (
        "every value of a wrong-length field selector is still checked",
        selector(fields=[expression("In", ["ok", "Bad"], key="metadata.name")]),
        [
            (
                F.REQUIRED,
                f"{TERM}.matchFields[0].values: Required value: "
                "must be only one value when `operator` is 'In' or 'NotIn' for node field selector",
            ),
            (F.INVALID, f'{TERM}.matchFields[0].values[1]: Invalid value: "Bad": {DNS1123_SUBDOMAIN_MSG}'),
        ],
    ),
    (
        "expressions are reported before fields, term by term",
        {
            "nodeSelectorTerms": [
                {
                    "matchFields": [expression("In", ["n"], key="spec.x")],
                    "matchExpressions": [expression("In")],
                },
                {"matchExpressions": [expression("Exists", ["x"])]},
            ]
        },
        [
            (
                F.REQUIRED,
                "suitableNodes.nodeSelectorTerms[0].matchExpressions[0].values: Required value: "
                "must be specified when `operator` is 'In' or 'NotIn'",
            ),
            (
                F.INVALID,
                'suitableNodes.nodeSelectorTerms[0].matchFields[0].key: Invalid value: "spec.x": '
                "not a valid field selector key",
            ),
            (
                F.FORBIDDEN,
                "suitableNodes.nodeSelectorTerms[1].matchExpressions[0].values: Forbidden: "
                "may not be specified when `operator` is 'Exists' or 'DoesNotExist'",
            ),
        ],
    ),
    (
        "wrong types read as empty, never crash",
        {"nodeSelectorTerms": [{"matchExpressions": "x", "matchFields": [None, expression("In", "x")]}]},
        [
            (F.INVALID, f'{TERM}.matchFields[0].operator: Invalid value: "": not a valid selector operator'),
            (F.INVALID, f'{TERM}.matchFields[0].key: Invalid value: "": not a valid field selector key'),
            (
                F.REQUIRED,
                f"{TERM}.matchFields[1].values: Required value: "
                "must be only one value when `operator` is 'In' or 'NotIn' for node field selector",
            ),
            (
                F.INVALID,
                f'{TERM}.matchFields[1].key: Invalid value: "example.com/gpu": not a valid field selector key',
            ),
        ],
    ),
]


@pytest.mark.parametrize(
    ("node_selector", "expected"), [row[1:] for row in ROWS], ids=[row[0] for row in ROWS]
)
def test_node_selector(node_selector: Any, expected: Rendered) -> None:
    assert rendered(validate_node_selector(node_selector, NODES)) == expected


def test_the_path_is_the_callers() -> None:
    path = ROOT.child("status", "allocation", "availableOnNodes")
    assert rendered(validate_node_selector({}, path)) == [
        (
            F.REQUIRED,
            "status.allocation.availableOnNodes.nodeSelectorTerms: Required value: "
            "must have at least one node selector term",
        )
    ]
