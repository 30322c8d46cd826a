"""What the declarative validation of every v1 kind shares (`webhook.rules.v1.declared`): the
ratcheting of the generated code ("don't revalidate unchanged data"), its list walks, and the tags
of the types more than one kind holds (device configurations, tolerations, taints, request
references)."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, Final

from webhook.field import ErrorList, FieldPath, go_json_value
from webhook.rules.equality import Shape, semantic_equal
from webhook.rules.v1.declarative import (
    beta,
    enum,
    label_key,
    long_name_caseless,
    max_items,
    max_length,
    required_value,
    unique,
)
from webhook.rules.v1.gojson import (
    go_encoded,
)
from webhook.rules.values import mapping, optional_mapping, sequence, text

TOLERATION_OPERATORS: Final = ("Equal", "Exists")
TAINT_EFFECTS: Final = ("NoExecute", "NoSchedule", "None")
SKIP_NODE_OPERATIONS: Final = ("*", "NodePrepareResources", "NodeUnprepareResources")
Old = Mapping[str, Any] | None
METADATA_PATH: Final = FieldPath("metadata")
SPEC_PATH: Final = FieldPath("spec")
STATUS_PATH: Final = FieldPath("status")


def unchanged(new: Any, old: Any, correlated: bool, shape: Shape) -> bool:
    """ "don't revalidate unchanged data": an update whose old value is correlated and equal."""
    return correlated and semantic_equal(new, old, shape)


def same_text(new: Any, old: Any, correlated: bool) -> bool:
    """The pointer/value comparison of the generated code for strings."""
    return correlated and new == old


def each(
    items: Sequence[Any],
    old_items: Sequence[Any] | None,
    path: FieldPath,
    validate: Callable[[Any, Any, FieldPath], ErrorList],
    *,
    key: Callable[[Any], Any] | None = None,
    shape: Shape | None = None,
) -> ErrorList:
    """`EachValSliceVal`: with a key, an item is matched with the first old item of that key and
    skipped when equal to it; without one, every item is validated with no old value."""
    errs: ErrorList = []
    for i, item in enumerate(items):
        old = None
        if key is not None and old_items:
            item_key = key(item)
            old = next((candidate for candidate in old_items if key(candidate) == item_key), None)
        if old is not None and (shape is None or semantic_equal(item, old, shape)):
            continue
        errs += validate(item, old, path.index(i))
    return errs


def list_map(
    items: Sequence[Any],
    old_items: Sequence[Any] | None,
    path: FieldPath,
    validate: Callable[[Any, Any, FieldPath], ErrorList],
    *,
    key: Callable[[Any], Any],
    limit: int | None,
    go_shape: Any,
    shape: Shape | None = None,
) -> ErrorList:
    """A list-map (`+k8s:listType=map`): at most `limit` items (short-circuits), no key twice (the
    duplicate shown as Go prints the item, in `go_shape`), then `each` item, matched by its key with
    the old items."""
    if limit is not None:
        too_many = beta(max_items(len(items), limit, path))
        if too_many:
            return too_many
    errs = beta(unique(items, lambda a, b: key(a) == key(b), path, shown(go_shape)))
    errs += each(items, old_items, path, validate, key=key, shape=shape)
    return errs


def list_map_field(
    new: Any,
    old: Any,
    correlated: bool,
    list_shape: Shape,
    path: FieldPath,
    validate: Callable[[Any, Any, FieldPath], ErrorList],
    *,
    key: Callable[[Any], Any],
    limit: int | None,
    go_shape: Any,
    shape: Shape,
) -> ErrorList:
    """A struct's list-map field as the generated code walks it: nothing for an update that leaves it
    as it was (`unchanged`), else `list_map` of its items, matched with the old ones when correlated."""
    items = sequence(new)
    if not items or unchanged(new, old, correlated, list_shape):
        return []
    old_items = list(sequence(old)) if correlated else None
    return list_map(items, old_items, path, validate, key=key, limit=limit, go_shape=go_shape, shape=shape)


def skip_node_operations(operations: Sequence[str], old: Sequence[str] | None, path: FieldPath) -> ErrorList:
    """`skipNodeOperations` of an allocation result or a slice (standard tags: always enforced): a
    set of known operations; on update an operation the old list has is not validated again
    (`EachValSliceVal` with `DirectEqual`)."""
    errs = unique(list(operations), lambda a, b: a == b, path, go_json_value)
    for i, name in enumerate(operations):
        if old is None or name not in old:
            errs += enum(name, SKIP_NODE_OPERATIONS, path.index(i))
    return errs


def name_of(item: Any) -> str:
    return text(mapping(item).get("name"))


def texts(value: Any) -> list[str]:
    return [text(item) for item in sequence(value)]


def shown(shape: Any) -> Callable[[Any], Any]:
    return lambda item: go_encoded(item, shape)


def configurations(
    items: Sequence[Any], path: FieldPath, limit: int, validate: Callable[[Any, Any, FieldPath], ErrorList]
) -> ErrorList:
    """An optional list of configurations: at most `limit` (short-circuits), each validated."""
    too_many = beta(max_items(len(items), limit, path))
    if too_many:
        return too_many
    return each(items, None, path, validate)


def validate_device_configuration(config: Any, old: Any, path: FieldPath) -> ErrorList:
    """`Validate_DeviceConfiguration` (embedded: its `opaque` is a field of the container)."""
    opaque = optional_mapping(mapping(config).get("opaque"))
    if opaque is None:
        return []
    return validate_driver(text(opaque.get("driver")), path.child("opaque", "driver"))


def validate_driver(driver: str, path: FieldPath) -> ErrorList:
    required = beta(required_value(bool(driver), path))
    if required:
        return required
    return beta(long_name_caseless(driver, path)) + beta(max_length(driver, 63, path))


def validate_tolerations(tolerations: Any, path: FieldPath) -> ErrorList:
    return each(list(sequence(tolerations)), None, path, _toleration)


def _toleration(toleration: Any, old: Any, path: FieldPath) -> ErrorList:
    """`Validate_DeviceToleration`: the key a label key, the operator required (it has a default)
    and Equal or Exists, the effect one of the taint effects."""
    fields = mapping(toleration)
    key, operator, effect = text(fields.get("key")), text(fields.get("operator")), text(fields.get("effect"))
    errs = beta(label_key(key, path.child("key"))) if key else []
    operator_path = path.child("operator")
    errs += beta(required_value(bool(operator), operator_path)) or beta(
        enum(operator, TOLERATION_OPERATORS, operator_path)
    )
    if effect:
        errs += beta(enum(effect, TAINT_EFFECTS, path.child("effect")))
    return errs


def validate_request_references(references: Any, path: FieldPath) -> ErrorList:
    """The `requests` of a constraint or configuration: at most 32, a set."""
    names = texts(references)
    too_many = beta(max_items(len(names), 32, path))
    if too_many:
        return too_many
    return beta(unique(names, lambda a, b: a == b, path, lambda name: name))


def device_taint(taint: Any, old: Any, path: FieldPath) -> ErrorList:
    """`Validate_DeviceTaint`: the effect required (short-circuits) and one of the enum; an effect
    equal to the correlated old taint's is not validated again."""
    effect = text(mapping(taint).get("effect"))
    if same_text(effect, text(mapping(old).get("effect")), old is not None):
        return []
    effect_path = path.child("effect")
    return beta(required_value(bool(effect), effect_path)) or beta(enum(effect, TAINT_EFFECTS, effect_path))
