"""Kubernetes objects of a document: the document itself, or the items of a List.

`kind: List` and every `<Kind>List` with `items` are expanded, recursively, as kubectl's builder
flattens them; items of a typed list that carry neither apiVersion nor kind take them from the list
(unstructured's `decodeToList`).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from webhook.offline.documents import Document, UnreadableInput
from webhook.rules.kinds import GroupVersionKind
from webhook.rules.values import mapping, text


@dataclass(frozen=True, slots=True)
class ManifestObject:
    """One Kubernetes object of a manifest, where it came from, and who it is."""

    source: str
    line: int
    obj: dict[str, Any]

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


def objects_of(document: Document) -> Iterator[ManifestObject | UnreadableInput]:
    """The objects of one document: itself, or the items of a List, flattened like kubectl does.

    An empty document is no object (kubectl skips it too)."""
    if document.data is None:
        return
    yield from expand_objects(document.source, document.line, document.data, where="")


def expand_objects(
    source: str, line: int, data: Any, *, where: str
) -> Iterator[ManifestObject | UnreadableInput]:
    """The objects of decoded `data`, Lists flattened; `where` starts each problem's reason."""
    if not isinstance(data, dict):
        what = "a list" if isinstance(data, list) else f"a {type(data).__name__}"
        yield UnreadableInput(source, f"{where}expected an object, got {what}", line=line)
        return
    kind, api_version = data.get("kind"), data.get("apiVersion")
    missing = [name for name, value in (("apiVersion", api_version), ("kind", kind)) if not value]
    if missing or not isinstance(kind, str) or not isinstance(api_version, str):
        problems = [f"{name} not set" for name in missing] or ["apiVersion and kind must be strings"]
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
            yield from expand_objects(source, line, item, where=f"{where}items[{index}]: ")
        return
    yield ManifestObject(source, line, data)
