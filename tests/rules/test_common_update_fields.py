"""`rest.validateCommonFields` (apiserver 0.37): the metadata the REST layer checks on every update before
a kind's own `ValidateUpdate`, names as path segments, and apimachinery's update checks without the core
wrapper's finalizer-name check."""

from __future__ import annotations

from typing import Any

import pytest

from webhook.release import KUBERNETES_1_37
from webhook.rules.meta import validate_common_update_fields
from webhook.rules.names import is_dns1123_label, is_dns1123_label_content, path_segment_name

OLD: dict[str, Any] = {"name": "foo", "resourceVersion": "1"}


@pytest.mark.parametrize(
    ("name", "prefix", "messages"),
    [
        ("foo", False, []),
        (".", False, ["may not be '.'"]),
        ("..", False, ["may not be '..'"]),
        (".", True, []),
        ("a/b%c", False, ["may not contain '/'", "may not contain '%'"]),
        ("a/", True, ["may not contain '/'"]),
    ],
)
def test_path_segment_names(name: str, prefix: bool, messages: list[str]) -> None:
    assert path_segment_name(name, prefix) == messages


def test_the_content_label_counts_bytes() -> None:
    long = "a" * 64
    assert is_dns1123_label(long)[0] == "must be no more than 63 characters"
    assert is_dns1123_label_content(long)[0] == "must be no more than 63 bytes"
    assert is_dns1123_label_content("a.b") == ["must not contain dots"]


@pytest.mark.parametrize(
    ("new", "expected"),
    [
        ({"name": "foo", "resourceVersion": "1"}, []),
        # Labels are checked by both halves (the merge then keeps one of the two equal texts).
        (
            {"name": "foo", "resourceVersion": "1", "labels": {"k": "bad value"}},
            ["metadata.labels", "metadata.labels"],
        ),
        # Immutable name, found by the update checks; the name itself is a fine path segment.
        ({"name": "other", "resourceVersion": "1"}, ["metadata.name"]),
        ({"name": "foo"}, ["metadata.resourceVersion"]),
        # The core wrapper's finalizer-name check is not part of it.
        ({"name": "foo", "resourceVersion": "1", "finalizers": ["unknown"]}, []),
        (
            {"name": "foo", "resourceVersion": "1", "namespace": "ns"},
            ["metadata.namespace", "metadata.namespace"],
        ),
    ],
)
def test_common_update_fields(new: dict[str, Any], expected: list[str]) -> None:
    errs = validate_common_update_fields(new, OLD, namespaced=False, release=KUBERNETES_1_37)
    assert [error.field for error in errs] == expected
