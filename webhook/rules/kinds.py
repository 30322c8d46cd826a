"""What the registry knows of one API kind: its identity, its scope and its validators.

Validators are pure functions over decoded JSON objects (`Obj`). They never see an AdmissionReview,
a uid or a socket; they return every field error they find, in the API server's order.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from webhook.field import ErrorList

Obj = Mapping[str, Any]
CreateValidator = Callable[[Obj], ErrorList]
UpdateValidator = Callable[[Obj, Obj], ErrorList]


@dataclass(frozen=True, slots=True, order=True)
class GroupVersionKind:
    group: str
    version: str
    kind: str

    def __str__(self) -> str:
        return (
            f"{self.group}/{self.version}, Kind={self.kind}"
            if self.group
            else f"{self.version}, Kind={self.kind}"
        )


@dataclass(frozen=True, slots=True)
class KindRules:
    """The built-in validation of one kind, as its registry strategy runs it in kube-apiserver."""

    gvk: GroupVersionKind
    resource: str  # the plural resource name, as a ValidatingWebhookConfiguration rule names it
    namespaced: bool
    validate_create: CreateValidator
    validate_update: UpdateValidator
    # None when the kind has no status subresource.
    validate_status_update: UpdateValidator | None = None

    @property
    def subresources(self) -> tuple[str, ...]:
        return ("status",) if self.validate_status_update is not None else ()
