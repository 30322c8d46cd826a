"""The decision line: one log line (logger ``webhook.decision``) per denial and per warn-mode "would
deny", keyed by the request uid, with kind, apiVersion, the release the rules that found the causes
are exact to (``release``), namespace/name, operation, user, dry-run and the causes.

Nothing of the object is logged beyond what a denial already tells the user: the causes, each cut to
`MAX_CAUSE_MESSAGE_CHARS`, at most `MAX_LOGGED_CAUSES` of them. Allowed requests are not logged, and
neither are internal errors: the judge logs those once, with the stack and the same request fields
(`request_fields`). How a line is written (JSON or text) is `webhook.logs`'s.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from typing import Any, Final

from webhook.admission.envelope import AdmissionRequest
from webhook.admission.verdicts import Verdict
from webhook.field import FieldError
from webhook.release import Release

DECISION_LOGGER: Final = "webhook.decision"
# A denial may carry hundreds of causes, each echoing a bad value: the log keeps enough to act on.
MAX_LOGGED_CAUSES: Final = 32
MAX_CAUSE_MESSAGE_CHARS: Final = 512

log = logging.getLogger(DECISION_LOGGER)


def request_fields(request: AdmissionRequest, release: Release | None = None) -> dict[str, Any]:
    """What identifies a request in a log line: never the object, only its coordinates and the caller;
    with `release`, the release its kind was judged as (``"release": "1.30"``, after the apiVersion)."""
    gvk = request.kind
    fields: dict[str, Any] = {
        "uid": request.uid,
        "kind": gvk.kind,
        "apiVersion": f"{gvk.group}/{gvk.version}" if gvk.group else gvk.version,
    }
    if release is not None:
        fields["release"] = release.version
    fields["namespace"] = request.namespace
    # `name` is a LogRecord attribute and cannot be an extra field. A CREATE with generateName
    # has no request.name; the object may carry one.
    fields["objectName"] = request.name or request.object_name
    fields["operation"] = request.operation
    fields["subresource"] = request.sub_resource
    fields["user"] = request.user_info.username if request.user_info is not None else ""
    fields["dryRun"] = bool(request.dry_run)
    return fields


def logged_causes(
    errors: Sequence[FieldError], rendered: Sequence[Mapping[str, str]] | None = None
) -> list[Mapping[str, str]]:
    """The causes of a denial as the answer carries them (field, reason, message), each message cut
    to `MAX_CAUSE_MESSAGE_CHARS`, at most `MAX_LOGGED_CAUSES`. `rendered` is the answer's own list
    of causes (`errors` rendered by `FieldError.cause`), when there is one: its causes are logged as
    they are, a copy only of those whose message is cut (rendering a bad value costs more than the
    rest of the line)."""
    if rendered is not None and len(rendered) == len(errors):
        selected = rendered[:MAX_LOGGED_CAUSES]
    else:
        selected = [error.cause() for error in errors[:MAX_LOGGED_CAUSES]]
    return [
        cause if len(cause["message"]) <= MAX_CAUSE_MESSAGE_CHARS else _cut_message(cause)
        for cause in selected
    ]


def _cut_message(cause: Mapping[str, str]) -> dict[str, str]:
    message = cause["message"]
    return {**cause, "message": message[: MAX_CAUSE_MESSAGE_CHARS - 3] + "..."}


def log_decision(request: AdmissionRequest, verdict: Verdict) -> None:
    """One line per denial (``denied``) and per warn-mode allowance of an invalid object (``warned``).

    Allowed requests are not logged, and neither are internal errors: the judge logged those once,
    with the stack and the same request fields.
    """
    if (
        verdict.internal_error
        or (verdict.allowed and not verdict.errors)
        or not log.isEnabledFor(logging.INFO)
    ):
        return
    event = "warned" if verdict.allowed else "denied"
    fields: dict[str, Any] = {
        "event": event,
        **request_fields(request, verdict.release),
        "code": verdict.code,
    }
    status = verdict.status
    if status is not None:
        fields["reason"] = status.get("reason", "")
    if verdict.errors:
        details = status.get("details") if status is not None else None
        rendered = details.get("causes") if isinstance(details, dict | Mapping) else None
        fields["causes"] = logged_causes(verdict.errors, rendered if isinstance(rendered, list) else None)
        if len(verdict.errors) > MAX_LOGGED_CAUSES:
            fields["causesOmitted"] = len(verdict.errors) - MAX_LOGGED_CAUSES
    elif status is not None:
        # `message` is a LogRecord attribute and cannot be an extra field.
        fields["statusMessage"] = str(status.get("message", ""))[:MAX_CAUSE_MESSAGE_CHARS]
    name = fields["objectName"]
    where = f"{fields['namespace']}/{name}" if fields["namespace"] else name
    log.info("%s %s %s (%s)", event, fields["kind"], where or "<unnamed>", fields["operation"], extra=fields)
