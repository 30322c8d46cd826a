"""PodSchedulingContext (v1alpha3, Kubernetes 1.31): node lists are sets of at most 128 node names,
checked by 1.31's validateSet (every item, then the limit, then the Duplicates)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.rules.expected import SUBDOMAIN_MSG
from webhook.rules.v1alpha3.podschedulingcontext import (
    POD_SCHEDULING_CONTEXT,
    validate_pod_scheduling_context,
    validate_pod_scheduling_context_status_update,
    validate_pod_scheduling_context_update,
)


def context(potential_nodes: list[str] | None = None, **status: Any) -> dict[str, Any]:
    obj: dict[str, Any] = {
        "apiVersion": "resource.k8s.io/v1alpha3",
        "kind": "PodSchedulingContext",
        "metadata": {"name": "pod", "namespace": "ns", "resourceVersion": "1"},
        "spec": {"selectedNode": "worker-0", "potentialNodes": potential_nodes or []},
    }
    if status:
        obj["status"] = status
    return obj


def nodes(count: int) -> list[str]:
    return [f"worker-{i}" for i in range(count)]


NODE_LIST_ROWS: list[tuple[str, list[str], list[str]]] = [
    ("128 nodes", nodes(128), []),
    ("129 nodes", nodes(129), ["<list>: Too long: may not be longer than 128"]),
    ("a node once", ["a", "b", "a"], ['<list>[2]: Duplicate value: "a"']),
    (
        "a repeated bad name is checked each time, then reported as a duplicate",
        ["A", "A"],
        [
            f'<list>[0]: Invalid value: "A": {SUBDOMAIN_MSG}',
            f'<list>[1]: Invalid value: "A": {SUBDOMAIN_MSG}',
            '<list>[1]: Duplicate value: "A"',
        ],
    ),
    (
        "the limit comes before the duplicates",
        [*nodes(128), "worker-0"],
        ["<list>: Too long: may not be longer than 128", '<list>[128]: Duplicate value: "worker-0"'],
    ),
]


@pytest.mark.parametrize(
    ("names", "expected"), [r[1:] for r in NODE_LIST_ROWS], ids=[r[0] for r in NODE_LIST_ROWS]
)
def test_potential_nodes(names: list[str], expected: list[str]) -> None:
    found = [str(err) for err in validate_pod_scheduling_context(context(names))]
    assert found == [row.replace("<list>", "spec.potentialNodes") for row in expected]
    assert [str(err) for err in POD_SCHEDULING_CONTEXT.validate_create(context(names))] == found


@pytest.mark.parametrize(
    ("names", "expected"), [r[1:] for r in NODE_LIST_ROWS], ids=[r[0] for r in NODE_LIST_ROWS]
)
def test_unsuitable_nodes(names: list[str], expected: list[str]) -> None:
    new = context(resourceClaims=[{"name": "gpu", "unsuitableNodes": names}])
    found = [str(err) for err in validate_pod_scheduling_context_status_update(new, context())]
    assert found == [row.replace("<list>", "status.claims[0].unsuitableNodes") for row in expected]


def test_a_claim_status_is_reported_at_status_claims_once_per_name() -> None:
    new = context(resourceClaims=[{"name": "gpu"}, {"name": "gpu"}])
    assert [str(err) for err in validate_pod_scheduling_context_status_update(new, context())] == [
        'status.claims[1]: Duplicate value: "gpu"'
    ]


def test_the_spec_may_change_and_the_selected_node_is_not_checked() -> None:
    new = context(nodes(3))
    new["spec"]["selectedNode"] = "Not A Node"
    assert validate_pod_scheduling_context_update(new, context()) == []
