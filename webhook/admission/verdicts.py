"""Verdicts: the judgement of one request, before it is wrapped in an AdmissionReview answer.

Allowed (with warnings, or with the causes a warn-mode kind would have been denied for), denied like
the API server's `apierrors.NewInvalid` (`denied_invalid`), denied as a whole (`denied`), or an
internal error (`errored`: a 500, the request's uid kept, the stack logged once by the judge).
"""

from __future__ import annotations

import unicodedata
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

from webhook.field import FieldError, invalid_message
from webhook.release import Release
from webhook.rules.v1alpha2 import GROUP

DRA_GROUP: Final = GROUP
# kube-apiserver drops a warning with control characters and truncates each to 256 characters once
# their total passes 4096: keep ours printable, short and few.
MAX_WARNING_CHARS: Final = 256
MAX_WARNINGS: Final = 16


@dataclass(frozen=True, slots=True)
class Verdict:
    """The judgement of one request, before it is wrapped in an AdmissionReview."""

    allowed: bool
    status: Mapping[str, Any] | None = None
    warnings: tuple[str, ...] = ()
    errors: tuple[FieldError, ...] = ()  # the causes of a denial (or of warn-mode warnings)
    internal_error: bool = False
    # The release whose rules found `errors` (what the decision log names); None without errors.
    release: Release | None = None

    @property
    def code(self) -> int:
        if self.status is None:
            return 200
        return int(self.status.get("code", 200))

    def response(self, uid: str) -> dict[str, Any]:
        response: dict[str, Any] = {"uid": uid, "allowed": self.allowed}
        if self.status is not None:
            response["status"] = self.status
        if self.warnings:
            response["warnings"] = list(self.warnings)
        return response


def allowed(warnings: Sequence[str] = ()) -> Verdict:
    if not warnings:
        return _ALLOWED  # a Verdict is immutable: one serves every plain "allowed"
    return Verdict(True, warnings=tidy_warnings(warnings))


_ALLOWED: Final = Verdict(True)


def denied_invalid(
    kind: str,
    name: str,
    errors: Sequence[FieldError],
    warnings: Sequence[str] = (),
    *,
    release: Release | None = None,
) -> Verdict:
    """A denial shaped exactly like the API server's `apierrors.NewInvalid` (HTTP 422, reason Invalid)."""
    details: dict[str, Any] = {}
    if name:
        details["name"] = name
    details["group"] = DRA_GROUP
    details["kind"] = kind
    details["causes"] = [error.cause() for error in errors]
    status = {
        "metadata": {},
        "status": "Failure",
        "message": invalid_message(kind, DRA_GROUP, name, errors),
        "reason": "Invalid",
        "details": details,
        "code": 422,
    }
    return Verdict(
        False, status=status, warnings=tidy_warnings(warnings), errors=tuple(errors), release=release
    )


def denied(code: int, reason: str, message: str, warnings: Sequence[str] = ()) -> Verdict:
    """A denial that is not a field validation (a request we can read but refuse as a whole)."""
    status = {"metadata": {}, "status": "Failure", "message": message, "reason": reason, "code": code}
    return Verdict(False, status=status, warnings=tidy_warnings(warnings))


def errored(message: str) -> Verdict:
    """Judging crashed: a 500 InternalError answer with a short message and no stack trace."""
    status = {"metadata": {}, "status": "Failure", "message": message, "reason": "InternalError", "code": 500}
    return Verdict(False, status=status, internal_error=True)


def tidy_warnings(warnings: Sequence[str]) -> tuple[str, ...]:
    """Printable, at most 256 characters each, at most 16, duplicates dropped."""
    tidy: dict[str, None] = {}
    for warning in warnings:
        printable = "".join(char if unicodedata.category(char)[0] != "C" else " " for char in warning).strip()
        if len(printable) > MAX_WARNING_CHARS:
            printable = printable[: MAX_WARNING_CHARS - 3] + "..."
        if printable:
            tidy.setdefault(printable, None)
    kept = list(tidy)
    if len(kept) > MAX_WARNINGS:
        omitted = len(kept) - (MAX_WARNINGS - 1)
        kept = [*kept[: MAX_WARNINGS - 1], f"dra-webhook: {omitted} more warnings omitted"]
    return tuple(kept)
