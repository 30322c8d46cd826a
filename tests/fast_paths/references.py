"""Helpers, strategies and reference algorithms shared by more than one fast-path module."""

from __future__ import annotations

import copy
import math
import re
from collections.abc import Iterator
from typing import Any

import orjson
from hypothesis import strategies as st

from webhook import schema_nodes
from webhook.rules import equality, names
from webhook.rules.equality import (
    ALLOCATION_RESULT,
    ANY,
    OBJECT_META,
    RESOURCE_CLAIM_SPEC,
    RESOURCE_CLAIM_TEMPLATE_SPEC,
    Pointer,
    RawJSON,
    Scalar,
    Shape,
    Slice,
    StringMap,
    Struct,
    Time,
)
from webhook.rules.kinds import GroupVersionKind
from webhook.rules.values import mapping, string_map
from webhook.schemas import StructuralChecker

# --- names: the reference algorithms, as they were before the fast paths ------------------------------


def _bytes(value: str) -> int:
    return len(value.encode("utf-8", "surrogatepass"))


def _reference_bounded_pattern(
    value: str, max_length: int, pattern: re.Pattern[str], message: str
) -> list[str]:
    """At most `max_length` bytes, and the whole of `value` matching `pattern`: each failure's message."""
    errs = []
    if _bytes(value) > max_length:
        errs.append(names.max_len_msg(max_length))
    if not pattern.fullmatch(value):
        errs.append(message)
    return errs


def reference_subdomain(value: str) -> list[str]:
    return _reference_bounded_pattern(
        value, names.DNS1123_SUBDOMAIN_MAX_LENGTH, names._DNS1123_SUBDOMAIN_RE, names.DNS1123_SUBDOMAIN_MSG
    )


def reference_qualified_name(value: str) -> list[str]:
    parts = value.split("/")
    errs: list[str] = []
    if len(parts) == 1:
        name = parts[0]
    elif len(parts) == 2:
        prefix, name = parts
        if not prefix:
            errs.append("prefix part " + names.EMPTY_MSG)
        else:
            errs.extend("prefix part " + msg for msg in reference_subdomain(prefix))
    else:
        return [
            "a qualified name "
            + names.QUALIFIED_NAME_MSG
            + " with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')"
        ]
    if not name:
        errs.append("name part " + names.EMPTY_MSG)
    elif _bytes(name) > names.QUALIFIED_NAME_MAX_LENGTH:
        errs.append("name part " + names.max_len_msg(names.QUALIFIED_NAME_MAX_LENGTH))
    if not names._QUALIFIED_NAME_RE.fullmatch(name):
        errs.append("name part " + names.QUALIFIED_NAME_MSG)
    return errs


def reference_label_value(value: str) -> list[str]:
    return _reference_bounded_pattern(
        value, names.LABEL_VALUE_MAX_LENGTH, names._LABEL_VALUE_RE, names.LABEL_VALUE_MSG
    )


# Text near the boundaries: name characters, the separators, upper case, non-ASCII (the Turkish
# dotted I that Go lower-cases differently, a letter whose UTF-8 is two bytes), and lengths around
# every limit (63, 253).
_NAME_CHARS = st.sampled_from([*"abcz09-._/AZ", "\u0130", "é", "\u212a", " ", "\n"])
name_like = st.one_of(
    st.text(_NAME_CHARS, max_size=12),
    st.text(st.sampled_from("ab-."), min_size=60, max_size=260),
    st.builds(
        lambda n, tail: "a" * n + tail, st.integers(55, 260), st.sampled_from(["", "-", "é", "a", ".b"])
    ),
    st.text(max_size=20),
)


# --- semantic equality: the fast "same document" answer agrees with the typed walk --------------------

json_scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-3, 3),
    st.sampled_from([1.0, 0.0, -0.0, math.nan, math.inf, 2**70]),
    st.sampled_from(["", "a", "2024-05-01T10:00:00Z", "2024-05-01T10:00:00+00:00", "null"]),
)
json_values = st.recursive(
    json_scalars,
    lambda inner: st.one_of(
        st.lists(inner, max_size=3),
        st.dictionaries(st.sampled_from(["a", "b", "driverName", "data", "name", "time"]), inner, max_size=3),
    ),
    max_leaves=12,
)


def _variants(value: Any) -> Iterator[Any]:
    """The same value, a deep copy, and copies with reordered keys or retyped numbers."""
    yield value
    yield copy.deepcopy(value)
    if isinstance(value, dict):
        yield dict(reversed(list(value.items())))
        yield {key: (1.0 if item == 1 and type(item) is int else item) for key, item in value.items()}
        yield {key: (True if item == 1 and type(item) is int else item) for key, item in value.items()}


SHAPES: list[Shape] = [ANY, ALLOCATION_RESULT, OBJECT_META, RESOURCE_CLAIM_SPEC, RESOURCE_CLAIM_TEMPLATE_SPEC]


# --- the structural check: the C-decided shortcuts change no finding ---------------------------------------


def _without_shortcuts(slow: StructuralChecker) -> StructuralChecker:
    """The checker (a fresh one) with every shortcut of its compiled nodes switched off: each
    value gets its node's full `check`, each item of a list its own call."""
    seen: set[int] = set()

    def visit(node: schema_nodes.Node) -> None:
        if id(node) in seen:
            return
        seen.add(id(node))
        node.settled = type(None)
        if isinstance(node, schema_nodes.Struct):
            node.settled_types = dict.fromkeys(node.fields, type(None))
            node.int64_fields = frozenset()
            for child in node.fields.values():
                visit(child)
        elif isinstance(node, schema_nodes.Array):
            node.struct_items = None
            visit(node.items)
        elif isinstance(node, schema_nodes.Map):
            node.struct_values = None
            visit(node.values)

    for root in slow._roots.values():
        visit(root)
    return slow


FAST = StructuralChecker.load()
SLOW = _without_shortcuts(StructuralChecker.load())
FAST_REQUIRED = StructuralChecker.load(report_missing_required=True)
SLOW_REQUIRED = _without_shortcuts(StructuralChecker.load(report_missing_required=True))


def _objects() -> list[tuple[GroupVersionKind, dict[str, Any]]]:

    from bench.reviews import mix, other_kinds

    found = []
    for entry in [*mix("all"), *other_kinds()]:  # v1alpha2 first: the tests below pick its claim
        request = orjson.loads(entry.body)["request"]
        gvk = GroupVersionKind(**request["kind"])
        found.append((gvk, request["object"]))
    return found


OBJECTS = _objects()


def _paths(value: Any, prefix: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    yield prefix
    if isinstance(value, dict):
        for key, child in value.items():
            yield from _paths(child, (*prefix, key))
    elif isinstance(value, list):
        for index, child in enumerate(value):
            yield from _paths(child, (*prefix, index))


def _replace(document: Any, path: tuple[Any, ...], value: Any) -> Any:
    if not path:
        return value
    copied = copy.copy(document)
    copied[path[0]] = _replace(document[path[0]], path[1:], value)
    return copied


replacement: st.SearchStrategy[Any] = st.one_of(
    json_scalars, st.just({}), st.just([]), st.just({"unknown": "x"}), st.just(["x", 1])
)


# --- the kinds' rules: the typed walk and node selectors, each against the loop it stands in for -------


def reference_semantic_equal(a: Any, b: Any, shape: Shape) -> bool:
    """The typed walk as it was before any shortcut: every part read and compared."""
    match shape:
        case Scalar(zero=zero):
            return equality._read_scalar(a, zero) == equality._read_scalar(b, zero)
        case Struct(fields=fields):
            left, right = mapping(a), mapping(b)
            return all(
                reference_semantic_equal(left.get(key), right.get(key), field)
                for key, field in fields.items()
            )
        case Pointer(to=target):
            if a is None or b is None:
                return a is None and b is None
            return reference_semantic_equal(a, b, target)
        case Slice(of=item):
            left_items = a if isinstance(a, list) else []
            right_items = b if isinstance(b, list) else []
            return len(left_items) == len(right_items) and all(
                reference_semantic_equal(x, y, item) for x, y in zip(left_items, right_items, strict=True)
            )
        case StringMap():
            return string_map(a) == string_map(b)
        case RawJSON():
            return equality._raw_bytes(a) == equality._raw_bytes(b)
        case Time():
            return equality._instant(a) == equality._instant(b)
    return equality._untyped_equal(a, b)
