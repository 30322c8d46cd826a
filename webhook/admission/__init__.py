"""The AdmissionReview bridge: envelope in (v1 and v1beta1), dispatch to the rules, verdict out.

The only package that knows the AdmissionReview envelope. It never sees HTTP: the server hands
`parse_review` the body's bytes (an `UnreadableReview` becomes a 4xx), the `Judge` a request, and
gets back from `review_response` the answer as a dict, which it encodes; the offline commands and
`review()` hand it dicts.

Three families of answer, never mixed:
* the request cannot be read -> `UnreadableReview` (an HTTP 4xx, no verdict);
* the request is read -> an AdmissionReview verdict: allowed, or denied like `apierrors.NewInvalid`;
* judging it crashed -> an AdmissionReview with code 500 InternalError, uid kept, stack logged once.

* `webhook.admission.envelope`: the envelope's shapes, reading it and writing it;
* `webhook.admission.verdicts`: the verdicts and their constructors;
* `webhook.admission.judge`: the `Judge`, which turns a request into a verdict;
* `webhook.admission.decisions`: the decision log line of a verdict.

This package exports what the rest of the webhook uses.
"""

from __future__ import annotations

from webhook.admission.decisions import log_decision, request_fields
from webhook.admission.envelope import (
    AdmissionRequest,
    AdmissionReview,
    ReviewKind,
    UnreadableReview,
    parse_review,
    review_document,
    review_response,
)
from webhook.admission.judge import Judge, default_judge, namespace_policy_from, review
from webhook.admission.verdicts import DRA_GROUP, Verdict, allowed, denied, denied_invalid, errored

__all__ = [
    "DRA_GROUP",
    "AdmissionRequest",
    "AdmissionReview",
    "Judge",
    "ReviewKind",
    "UnreadableReview",
    "Verdict",
    "allowed",
    "default_judge",
    "denied",
    "denied_invalid",
    "errored",
    "log_decision",
    "namespace_policy_from",
    "parse_review",
    "request_fields",
    "review",
    "review_document",
    "review_response",
]
