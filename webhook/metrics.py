"""Prometheus instruments, named once, and the rules that keep their labels few.

Every instrument of the webhook is created here, on a `Metrics` object with its own registry (no
global state: each app, and each test, counts for itself). With several workers the values live in
prometheus_client's multiprocess files (the supervisor points ``PROMETHEUS_MULTIPROC_DIR`` at a private
directory before it starts them) and the supervisor's scrape sums them (`multiprocess_registry`).

Label values are bounded: a kind this webhook does not validate is ``other``, so is an unknown
subresource; a field path has its indexes and map keys folded (``status.reservedFor[*].uid``) and at
most `MAX_FIELD_LABELS` distinct paths are kept per process, the rest counted as ``other``.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Final

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily, Metric
from prometheus_client.registry import Collector

from webhook.rules.kinds import GroupVersionKind, KindRules

if TYPE_CHECKING:
    from webhook.admission import AdmissionRequest, Verdict

PREFIX: Final = "dra_webhook"
# A review is judged in well under a millisecond to a few milliseconds; the apiserver gives up after
# 10 s (its default webhook timeout) but anything above 1 s is already an incident.
LATENCY_BUCKETS: Final = (0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0)
# Why the server closes a connection of a slow or abusive client (server.ConnectionGuard).
CONNECTION_CLOSING_REASONS: Final = ("slow-head", "slow-write", "evicted", "refused")
OTHER: Final = "other"
# Denial causes by field: the rules know a few hundred paths at most once indexes are folded; past
# this many (a bug, or paths built from user input) new paths share one label value.
MAX_FIELD_LABELS: Final = 256
_FIELD_CACHE_SIZE: Final = 4096
_REVIEW_CACHE_SIZE: Final = 4096

# Verdict label values.
ALLOWED: Final = "allowed"
DENIED: Final = "denied"
WARNED: Final = "warned"  # allowed by `enforcement: warn`, the errors returned as warnings
ERROR: Final = "error"  # the judge crashed: a 500 InternalError answer
UNREADABLE: Final = "unreadable"  # not an AdmissionReview: an HTTP 4xx, no verdict

# `[3]`, `[key]`: an index or a map key. Keys may hold anything but brackets are balanced in the
# paths the rules build; a leftover bracket makes the whole path `other` (see `fold_field`).
_SUBSCRIPT: Final = re.compile(r"\[[^\[\]]*\]")
_FOLDED_PATH: Final = re.compile(r"[A-Za-z0-9_.<>-]*(?:\[\*\][A-Za-z0-9_.<>-]*)*")


# What `observe_review` caches its children by: the request's group, version, kind, subresource and
# operation, then the verdict label and code; and what it caches: the kind label, the `requests` child
# and the `duration` child.
_ReviewKey = tuple[str, str, str, str, str, str, int]
_ReviewChildren = tuple[str, Counter, Histogram]


def fold_field(field: str) -> str:
    """The label of a field path: indexes and map keys become ``[*]``, e.g.
    ``status.reservedFor[3].uid`` -> ``status.reservedFor[*].uid``; a path that is still not plain
    (a key with brackets in it) is ``other``."""
    folded = _SUBSCRIPT.sub("[*]", field)
    return folded if _FOLDED_PATH.fullmatch(folded) else OTHER


def verdict_label(verdict: Verdict) -> str:
    if verdict.internal_error:
        return ERROR
    if verdict.allowed:
        return WARNED if verdict.errors else ALLOWED
    return DENIED


class Metrics:
    """The webhook's instruments. `kinds` is the rule registry: its kind names are the kind labels."""

    def __init__(
        self, kinds: Mapping[GroupVersionKind, KindRules], *, registry: CollectorRegistry | None = None
    ) -> None:
        self.registry = registry if registry is not None else CollectorRegistry()
        self._kinds = kinds
        self._field_labels: dict[str, str] = {}  # raw path -> label, a cache
        self._distinct_fields: set[str] = set()
        # The labelled children a review is counted with, found once per distinct request (a
        # `.labels()` lookup costs about as much as the `inc` itself): see `_new_review_children`.
        self._review_children: dict[_ReviewKey, _ReviewChildren] = {}
        self._denial_children: dict[tuple[str, str, str, str], Counter] = {}
        r = self.registry
        self.requests = Counter(
            f"{PREFIX}_requests",
            "AdmissionReview requests answered, by kind, operation, subresource, verdict and code "
            "(the status code of a denial, or the HTTP status of an unreadable request).",
            ["kind", "operation", "subresource", "verdict", "code"],
            registry=r,
        )
        self.duration = Histogram(
            f"{PREFIX}_request_duration_seconds",
            "Time from the start of a POST /validate to its answer, by kind.",
            ["kind"],
            buckets=LATENCY_BUCKETS,
            registry=r,
        )
        self.in_flight = Gauge(
            f"{PREFIX}_requests_in_flight",
            "POST /validate requests being read or judged.",
            registry=r,
            multiprocess_mode="livesum",
        )
        self.denial_causes = Counter(
            f"{PREFIX}_denial_causes",
            "Field errors of denied (enforcement=deny) and warn-mode (enforcement=warn) requests, by kind, "
            "field path with indexes folded, and cause reason.",
            ["kind", "field", "reason", "enforcement"],
            registry=r,
        )
        self.warnings = Counter(
            f"{PREFIX}_warnings", "Warnings returned in answers, by kind.", ["kind"], registry=r
        )
        self.internal_errors = Counter(
            f"{PREFIX}_internal_errors",
            "Requests whose judging crashed (answered with a 500 InternalError), by kind.",
            ["kind"],
            registry=r,
        )
        self.certificate_reloads = Counter(
            f"{PREFIX}_certificate_reloads",
            "Serving-certificate reloads after start-up (success), and new pairs refused (error); "
            "each worker reloads its own copy.",
            ["result"],
            registry=r,
        )
        self.certificate_expiry = Gauge(
            f"{PREFIX}_certificate_expiry_timestamp_seconds",
            "Expiry (notAfter, Unix time) of the serving certificate in use; the earliest over the workers.",
            registry=r,
            multiprocess_mode="livemin",
        )
        self.config_reloads = Counter(
            f"{PREFIX}_config_reloads",
            "Configuration-file changes applied (success) and refused (error); each worker reloads its "
            "own copy.",
            ["result"],
            registry=r,
        )
        self.connections_closed = Counter(
            f"{PREFIX}_connections_closed",
            "Connections the server closed to bound a slow or abusive client, by reason: slow-head (no "
            "complete request head in time), slow-write (an answer left unread), evicted (the idle one "
            "closed at the connection limit), refused (a new one at the limit, every other busy).",
            ["reason"],
            registry=r,
        )
        for result in ("success", "error"):
            self.certificate_reloads.labels(result)
            self.config_reloads.labels(result)
        for reason in CONNECTION_CLOSING_REASONS:
            self.connections_closed.labels(reason)
        self._seen_certificate_counts = (0, 0)
        self._seen_config_counts = (0, 0)

    # -- labels ----------------------------------------------------------------------------------

    def kind_label(self, gvk: GroupVersionKind) -> str:
        rules = self._kinds.get(gvk)
        return rules.gvk.kind if rules is not None else OTHER

    def subresource_label(self, gvk: GroupVersionKind, subresource: str) -> str:
        rules = self._kinds.get(gvk)
        if not subresource or (rules is not None and subresource in rules.subresources):
            return subresource
        return OTHER

    def field_label(self, field: str) -> str:
        label = self._field_labels.get(field)
        if label is not None:
            return label
        label = fold_field(field)
        if label not in self._distinct_fields and len(self._distinct_fields) >= MAX_FIELD_LABELS:
            label = OTHER
        self._distinct_fields.add(label)
        if len(self._field_labels) < _FIELD_CACHE_SIZE:
            self._field_labels[field] = label
        return label

    # -- observations ----------------------------------------------------------------------------

    def observe_review(self, request: AdmissionRequest, verdict: Verdict, seconds: float) -> None:
        """Count one judged request: its verdict, its latency, its warnings and its causes."""
        version_kind = request.kind
        label = verdict_label(verdict)
        key = (
            version_kind.group,
            version_kind.version,
            version_kind.kind,
            request.sub_resource,
            request.operation,
            label,
            verdict.code,
        )
        children = self._review_children.get(key)
        if children is None:
            children = self._new_review_children(key)
        kind, requests, duration = children
        requests.inc()
        duration.observe(seconds)
        if verdict.warnings:
            self.warnings.labels(kind).inc(len(verdict.warnings))
        if verdict.internal_error:
            self.internal_errors.labels(kind).inc()
        if verdict.errors:
            enforcement = "warn" if verdict.allowed else "deny"
            for error in verdict.errors:
                self._denial_child(kind, self.field_label(error.field), error.type.value, enforcement).inc()

    def _new_review_children(self, key: _ReviewKey) -> _ReviewChildren:
        """The kind label and the `requests` and `duration` children of a request seen for the first
        time; kept for the next ones while there are fewer than `_REVIEW_CACHE_SIZE` (the raw
        values come from the request, so their combinations are not bounded; the labels are)."""
        group, version, kind_name, subresource, operation, label, code = key
        gvk = GroupVersionKind(group, version, kind_name)
        kind = self.kind_label(gvk)
        children = (
            kind,
            self.requests.labels(kind, operation, self.subresource_label(gvk, subresource), label, str(code)),
            self.duration.labels(kind),
        )
        if len(self._review_children) < _REVIEW_CACHE_SIZE:
            self._review_children[key] = children
        return children

    def _denial_child(self, kind: str, field: str, reason: str, enforcement: str) -> Counter:
        key = (kind, field, reason, enforcement)  # every part a bounded label value
        child = self._denial_children.get(key)
        if child is None:
            child = self._denial_children[key] = self.denial_causes.labels(*key)
        return child

    def observe_unreadable(self, status: int, seconds: float) -> None:
        """Count one request that was not a readable AdmissionReview (an HTTP 4xx)."""
        self.requests.labels("", "", "", UNREADABLE, str(status)).inc()
        self.duration.labels("").observe(seconds)

    def observe_certificate(self, *, reloads: int, reload_errors: int, not_after_timestamp: float) -> None:
        """Bring the certificate instruments up to the reloader's running counts."""
        seen_reloads, seen_errors = self._seen_certificate_counts
        if reloads > seen_reloads:
            self.certificate_reloads.labels("success").inc(reloads - seen_reloads)
        if reload_errors > seen_errors:
            self.certificate_reloads.labels("error").inc(reload_errors - seen_errors)
        self._seen_certificate_counts = (max(reloads, seen_reloads), max(reload_errors, seen_errors))
        self.certificate_expiry.set(not_after_timestamp)

    def observe_connection_closed(self, reason: str) -> None:
        self.connections_closed.labels(reason if reason in CONNECTION_CLOSING_REASONS else "other").inc()

    def observe_config(self, *, reloads: int, reload_errors: int) -> None:
        """Bring the configuration instruments up to the watcher's running counts."""
        seen_reloads, seen_errors = self._seen_config_counts
        if reloads > seen_reloads:
            self.config_reloads.labels("success").inc(reloads - seen_reloads)
        if reload_errors > seen_errors:
            self.config_reloads.labels("error").inc(reload_errors - seen_errors)
        self._seen_config_counts = (max(reloads, seen_reloads), max(reload_errors, seen_errors))


class WorkerPoolCollector(Collector):
    """The supervisor's own numbers: live workers and replacements, read when scraped."""

    def __init__(self, stats: Callable[[], tuple[int, int]]) -> None:
        self._stats = stats

    def collect(self) -> Iterator[Metric]:
        live, restarts = self._stats()
        yield GaugeMetricFamily(f"{PREFIX}_workers", "Worker processes running.", value=live)
        yield CounterMetricFamily(
            f"{PREFIX}_worker_restarts", "Workers that died and were replaced.", value=restarts
        )


def multiprocess_registry(directory: Path, pool: WorkerPoolCollector) -> CollectorRegistry:
    """The registry a supervisor serves: every worker's values from `directory`, summed (gauges as
    each declares), and the pool's own numbers."""
    from prometheus_client.multiprocess import MultiProcessCollector

    registry = CollectorRegistry()
    MultiProcessCollector(registry, path=str(directory))  # type: ignore[no-untyped-call]
    registry.register(pool)
    return registry


def single_process_registry(metrics: Metrics) -> CollectorRegistry:
    """The registry a single in-process server serves: its instruments and a pool of one worker."""
    metrics.registry.register(WorkerPoolCollector(lambda: (1, 0)))
    return metrics.registry
