"""The old objects of `dra-webhook validate --old`: an object whose group, kind, namespace and name
match one of them is judged as an UPDATE of it."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from webhook.admission import DRA_GROUP, Judge
from webhook.offline.apiserver import KUBECTL_NAMESPACE, effective_namespace, in_request_namespace
from webhook.offline.documents import UnreadableInput
from webhook.offline.inputs import MANIFEST_SUFFIXES, display_name, expand_paths, read_documents, read_input
from webhook.offline.objects import ManifestObject, NotAnObject, objects_of
from webhook.registry import KindRegistry
from webhook.rules.kinds import GroupVersionKind, KindRules
from webhook.rules.values import text

ObjectKey = tuple[str, str, str, str]  # group, kind, namespace, name


def object_key(item: ManifestObject, rules: KindRules | None, request_namespace: str) -> ObjectKey:
    """How an object is matched with its old version: group, kind, namespace and name."""
    return _key(item.gvk.group, item.kind, item.namespace, item.name, rules, request_namespace)


def _key(
    group: str, kind: str, namespace: str, name: str, rules: KindRules | None, request_namespace: str
) -> ObjectKey:
    return (group, kind, effective_namespace(namespace, rules, request_namespace), name)


@dataclass(frozen=True, slots=True)
class OldObjects:
    """The old versions of objects, by `object_key` (a later duplicate wins)."""

    by_key: Mapping[ObjectKey, Mapping[str, Any]] = field(default_factory=dict)
    request_namespace: str = KUBECTL_NAMESPACE

    def find(self, item: ManifestObject, rules: KindRules | None) -> Mapping[str, Any] | None:
        if not item.name:
            return None
        return self.by_key.get(object_key(item, rules, self.request_namespace))

    def key_of_given(
        self, api_version: str, kind: str, namespace: str, name: str, registry: KindRegistry
    ) -> ObjectKey:
        """The `object_key` of an object given, from what its result says of it."""
        group, _, version = api_version.rpartition("/")
        rules = registry.get(GroupVersionKind(group, version, kind))
        return _key(group, kind, namespace, name, rules, self.request_namespace)

    def not_given(self, given: Iterable[ObjectKey]) -> list[tuple[str, ObjectKey]]:
        """The `resource.k8s.io` objects among these whose key no object given has, with their
        apiVersion, in the order they were read: most likely a name, namespace, kind or apiVersion
        that differs by mistake, which leaves the object meant judged as a CREATE."""
        keys = set(given)
        return [
            (text(obj.get("apiVersion")), key)
            for key, obj in self.by_key.items()
            if key[0] == DRA_GROUP and key not in keys
        ]


def load_old_objects(
    paths: Sequence[str],
    *,
    judge: Judge,
    read_stdin: Callable[[], bytes],
    request_namespace: str = KUBECTL_NAMESPACE,
) -> tuple[OldObjects, list[UnreadableInput]]:
    by_key: dict[ObjectKey, Mapping[str, Any]] = {}
    problems: list[UnreadableInput] = []
    for path in expand_paths(paths, MANIFEST_SUFFIXES):
        try:
            read = read_documents(display_name(path), read_input(path, read_stdin))
        except UnreadableInput as problem:
            problems.append(problem)
            continue
        if read.error is not None:
            problems.append(read.error)
        for document in read.documents:
            for item in objects_of(document):
                if isinstance(item, UnreadableInput):
                    problems.append(item)
                elif isinstance(item, NotAnObject):
                    continue  # an old version is looked for among objects only
                else:
                    rules = judge.registry.get(item.gvk)
                    obj = (
                        item.obj
                        if rules is None
                        else in_request_namespace(item.obj, rules, request_namespace)
                    )
                    by_key[object_key(item, rules, request_namespace)] = obj
    return OldObjects(by_key, request_namespace), problems
