"""Kubernetes objects of a document: the document itself, or the items of a List.

`kind: List` and every `<Kind>List` with `items` are expanded, recursively, as kubectl's builder
flattens them; items of a typed list that carry neither apiVersion nor kind take them from the list
(unstructured's `decodeToList`).

A document that is no Kubernetes object (a Helm values file, a CI workflow, an Ansible playbook: no
`apiVersion` and `kind`, or not a mapping) is a `NotAnObject`: reported, never judged. One that
looks meant for `resource.k8s.io` (its apiVersion, or the name of one of its kinds) is an object
even with a piece missing, so that the missing piece is reported as kubectl would refuse it.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any, Final

from webhook.offline.documents import Document, UnreadableInput
from webhook.rules.kinds import GroupVersionKind
from webhook.rules.values import mapping, text
from webhook.served import GROUP, SERVED_KINDS

DRA_KIND_NAMES: Final = frozenset(served.kind for served in SERVED_KINDS)


@dataclass(frozen=True, slots=True)
class NotAnObject:
    """A document that is not a Kubernetes object, where it starts, and why it is not one."""

    source: str
    line: int
    reason: str


@dataclass(frozen=True, slots=True)
class ManifestObject:
    """One Kubernetes object of a manifest, where it came from, and who it is."""

    source: str
    line: int
    obj: dict[str, Any]
    duplicates: tuple[str, ...] = ()  # fields the document gives twice (`Document.duplicates`)

    @property
    def api_version(self) -> str:
        return text(self.obj.get("apiVersion"))

    @property
    def kind(self) -> str:
        return text(self.obj.get("kind"))

    @property
    def gvk(self) -> GroupVersionKind:
        group, _, version = self.api_version.rpartition("/")
        return GroupVersionKind(group, version, self.kind)

    @property
    def namespace(self) -> str:
        return text(mapping(self.obj.get("metadata")).get("namespace"))

    @property
    def name(self) -> str:
        return text(mapping(self.obj.get("metadata")).get("name"))


def objects_of(document: Document) -> Iterator[ManifestObject | NotAnObject | UnreadableInput]:
    """The objects of one document: itself, or the items of a List, flattened like kubectl does.

    An empty document is no object (kubectl skips it too)."""
    if document.data is None:
        return
    yield from expand_objects(
        document.source, document.line, document.data, where="", duplicates=document.duplicates
    )


def means_dra(api_version: Any, kind: Any) -> bool:
    """Whether a document is meant as a `resource.k8s.io` object: its apiVersion is of the group, or
    its kind is the name of a kind the group has."""
    return (isinstance(api_version, str) and api_version.split("/")[0] == GROUP) or (
        isinstance(kind, str) and kind in DRA_KIND_NAMES
    )


def expand_objects(
    source: str, line: int, data: Any, *, where: str, duplicates: tuple[str, ...] = ()
) -> Iterator[ManifestObject | NotAnObject | UnreadableInput]:
    """The objects of decoded `data`, Lists flattened; `where` starts each problem's reason (and is
    empty for a whole document, which may be no Kubernetes object at all)."""
    if not isinstance(data, dict):
        what = "a list" if isinstance(data, list) else f"a {type(data).__name__}"
        if not where:
            yield NotAnObject(source, line, f"{what}, not a Kubernetes object")
            return
        yield UnreadableInput(source, f"{where}expected an object, got {what}", line=line)
        return
    kind, api_version = data.get("kind"), data.get("apiVersion")
    missing = [name for name, value in (("apiVersion", api_version), ("kind", kind)) if not value]
    if missing or not isinstance(kind, str) or not isinstance(api_version, str):
        problems = [f"{name} not set" for name in missing] or ["apiVersion and kind must be strings"]
        if not where and means_dra(api_version, kind):
            yield ManifestObject(source, line, data, duplicates)  # judged: refused for what it lacks
        elif not where:
            lacks = ", ".join(f"no {name}" for name in missing) or "apiVersion and kind not strings"
            yield NotAnObject(source, line, f"not a Kubernetes object ({lacks})")
        else:
            yield UnreadableInput(source, f"{where}{', '.join(problems)}", line=line)
        return
    if kind == "List" or (kind.endswith("List") and "items" in data):
        items = data.get("items")
        if items is None:
            return
        if not isinstance(items, list):
            yield UnreadableInput(source, f"{where}items of {kind} must be a list", line=line)
            return
        item_kind = kind.removesuffix("List")
        for index, item in enumerate(items):
            if (
                kind != "List"
                and isinstance(item, dict)
                and not item.get("kind")
                and not item.get("apiVersion")
            ):
                # unstructured decodeToList: items of a typed list take the list's group and kind.
                item = {"apiVersion": api_version, "kind": item_kind, **item}
            prefix = f"items[{index}]."
            item_duplicates = tuple(
                path.removeprefix(prefix) for path in duplicates if path.startswith(prefix)
            )
            yield from expand_objects(
                source, line, item, where=f"{where}items[{index}]: ", duplicates=item_duplicates
            )
        return
    yield ManifestObject(source, line, data, duplicates)
