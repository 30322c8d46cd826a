"""Prometheus instruments, named once, and the rules that keep their labels few.

Every instrument of the webhook is created here, on a `Metrics` object with its own registry (no
global state: each app, and each test, counts for itself). With several workers the values live in
prometheus_client's multiprocess files (the supervisor points ``PROMETHEUS_MULTIPROC_DIR`` at a private
directory before it starts them) and the supervisor's scrape sums them (`multiprocess_registry`).

A review is not written to the instruments when it is answered: writing one value takes a lock, a
pid check and, with workers, an mmap write, and a review touched three to five of them. It is
tallied in plain memory, and `Metrics.flush` adds the tallies to the instruments: the server flushes
every `server.METRICS_FLUSH_SECONDS`, when it stops, and a scrape of the registry flushes first.

Label values are bounded: a kind this webhook does not validate is ``other`` (and so is its
``version``), so is an unknown subresource; a kind it validates is labelled with its kind name and its
apiVersion's version (``kind="ResourceClaim", version="v1alpha2"``), so that the apiVersions of one kind
are told apart; a field path has its indexes and map keys folded (``status.reservedFor[*].uid``) and at
most `MAX_FIELD_LABELS` distinct paths are kept per process, the rest counted as ``other``.
"""

from __future__ import annotations

import logging
import re
from bisect import bisect_left
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Final, TypeVar

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily, Metric
from prometheus_client.registry import Collector

from webhook.rules.kinds import GroupVersionKind, KindRules

if TYPE_CHECKING:
    from webhook.admission import AdmissionRequest, Verdict

log = logging.getLogger("webhook.metrics")

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


# What `observe_review` caches its tallies by: the request's group, version, kind, subresource and
# operation, then the verdict label and code.
_ReviewKey = tuple[str, str, str, str, str, str, int]
# The labels every per-kind instrument starts with: kind, version.
_KindLabels = tuple[str, str]
# The labels of a `denial_causes` child: kind, version, field, reason, enforcement.
_CauseLabels = tuple[str, str, str, str, str]
_PendingKey = TypeVar("_PendingKey", _KindLabels, _CauseLabels)


class ReviewTally:
    """The reviews counted with one `requests` child (hence one `duration` child) since the last flush:
    their durations' sum, and how many fell in each bucket of `LATENCY_BUCKETS` (the last one +Inf)."""

    __slots__ = ("buckets", "duration", "kind_labels", "requests", "seconds")

    def __init__(self, kind_labels: _KindLabels, requests: Counter, duration: Histogram) -> None:
        self.kind_labels = kind_labels
        self.requests = requests
        self.duration = duration
        self.seconds = 0.0
        self.buckets = [0] * (len(LATENCY_BUCKETS) + 1)

    def add(self, seconds: float) -> None:
        self.seconds += seconds
        # The first bucket whose bound is >= seconds: where `Histogram.observe` counts it.
        self.buckets[bisect_left(LATENCY_BUCKETS, seconds)] += 1

    def flush(self) -> None:
        """Add the tallied reviews to the instruments, and start again from zero."""
        count = sum(self.buckets)
        if not count:
            return
        seconds, buckets = self.seconds, self.buckets
        self.seconds, self.buckets = 0.0, [0] * len(buckets)
        # What `count` calls of `Histogram.observe` write, in one write per value (prometheus_client
        # has no public call for several observations; tests/test_metrics.py compares the two).
        self.duration._sum.inc(seconds)
        for value, observed in zip(self.duration._buckets, buckets, strict=True):
            if observed:
                value.inc(observed)
        self.requests.inc(count)  # last: see `Metrics.flush`


class _FlushOnCollect(Collector):
    """Registered first in the registry of a `Metrics`: a scrape flushes the tallies before it reads
    the instruments, so it never misses a review answered before it in this process."""

    def __init__(self, metrics: Metrics) -> None:
        self._metrics = metrics

    def collect(self) -> Iterator[Metric]:
        self._metrics.flush_or_log()  # a failed flush still lets the scrape read the instruments
        return iter(())


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
    """The webhook's instruments. `kinds` is the kind registry: its kinds and their versions are the
    kind and version labels."""

    def __init__(
        self, kinds: Mapping[GroupVersionKind, KindRules], *, registry: CollectorRegistry | None = None
    ) -> None:
        self.registry = registry if registry is not None else CollectorRegistry()
        self._kinds = kinds
        self._field_labels: dict[str, str] = {}  # raw path -> label, a cache
        self._distinct_fields: set[str] = set()
        # The tally a review is counted in, found once per distinct request (see `_new_review_tally`),
        # and every tally by its `requests` child.
        self._review_tallies: dict[_ReviewKey, ReviewTally] = {}
        self._tallies: dict[Counter, ReviewTally] = {}
        # Counts not yet added to `denial_causes`, `warnings` and `internal_errors`, by label values.
        self._pending_causes: dict[_CauseLabels, int] = {}
        self._pending_warnings: dict[_KindLabels, int] = {}
        self._pending_internal_errors: dict[_KindLabels, int] = {}
        self._in_flight_source: Callable[[], int] | None = None
        r = self.registry
        r.register(_FlushOnCollect(self))
        self.requests = Counter(
            f"{PREFIX}_requests",
            "AdmissionReview requests answered, by kind, version, operation, subresource, verdict and "
            "code (the status code of a denial, or the HTTP status of an unreadable request).",
            ["kind", "version", "operation", "subresource", "verdict", "code"],
            registry=r,
        )
        self.duration = Histogram(
            f"{PREFIX}_request_duration_seconds",
            "Time from the start of a POST /validate to its answer, by kind and version.",
            ["kind", "version"],
            buckets=LATENCY_BUCKETS,
            registry=r,
        )
        self.in_flight = Gauge(
            f"{PREFIX}_requests_in_flight",
            "POST /validate requests being read or judged (as of the last flush).",
            registry=r,
            multiprocess_mode="livesum",
        )
        self.denial_causes = Counter(
            f"{PREFIX}_denial_causes",
            "Field errors of denied (enforcement=deny) and warn-mode (enforcement=warn) requests, by kind, "
            "version, field path with indexes folded, and cause reason.",
            ["kind", "version", "field", "reason", "enforcement"],
            registry=r,
        )
        self.warnings = Counter(
            f"{PREFIX}_warnings",
            "Warnings returned in answers, by kind and version.",
            ["kind", "version"],
            registry=r,
        )
        self.internal_errors = Counter(
            f"{PREFIX}_internal_errors",
            "Requests whose judging crashed (answered with a 500 InternalError), by kind and version.",
            ["kind", "version"],
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

    def version_label(self, gvk: GroupVersionKind) -> str:
        rules = self._kinds.get(gvk)
        return rules.gvk.version if rules is not None else OTHER

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
        """Count one judged request: its verdict, its latency, its warnings and its causes (in the
        tallies: see `flush`)."""
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
        tally = self._review_tallies.get(key)
        if tally is None:
            tally = self._new_review_tally(key)
        tally.add(seconds)
        if verdict.warnings:
            _count(self._pending_warnings, tally.kind_labels, len(verdict.warnings))
        if verdict.internal_error:
            _count(self._pending_internal_errors, tally.kind_labels, 1)
        if verdict.errors:
            enforcement = "warn" if verdict.allowed else "deny"
            kind, version = tally.kind_labels
            for error in verdict.errors:
                causes = (kind, version, self.field_label(error.field), error.type.value, enforcement)
                _count(self._pending_causes, causes, 1)

    def _new_review_tally(self, key: _ReviewKey) -> ReviewTally:
        """The tally of a request seen for the first time, kept for the next ones while there are
        fewer than `_REVIEW_CACHE_SIZE` (the raw values come from the request, so their combinations
        are not bounded; the labels, hence the tallies, are)."""
        group, version, kind_name, subresource, operation, label, code = key
        gvk = GroupVersionKind(group, version, kind_name)
        kind_labels = (self.kind_label(gvk), self.version_label(gvk))
        requests = self.requests.labels(
            *kind_labels, operation, self.subresource_label(gvk, subresource), label, str(code)
        )
        tally = self._tally(kind_labels, requests)
        if len(self._review_tallies) < _REVIEW_CACHE_SIZE:
            self._review_tallies[key] = tally
        return tally

    def _tally(self, kind_labels: _KindLabels, requests: Counter) -> ReviewTally:
        tally = self._tallies.get(requests)
        if tally is None:
            duration = self.duration.labels(*kind_labels)
            tally = self._tallies[requests] = ReviewTally(kind_labels, requests, duration)
        return tally

    def observe_unreadable(self, status: int, seconds: float) -> None:
        """Count one request that was not a readable AdmissionReview (an HTTP 4xx)."""
        self._tally(("", ""), self.requests.labels("", "", "", "", UNREADABLE, str(status))).add(seconds)

    def count_in_flight(self, source: Callable[[], int]) -> None:
        """Where each flush reads the number of requests in flight (the server's own count)."""
        self._in_flight_source = source

    def flush_or_log(self) -> None:
        """`flush` for the timer, the stop and a scrape: a flush that fails is logged and loses the
        counts gathered since the last one, never an answer, the server or the scrape."""
        try:
            self.flush()
        except Exception:
            log.exception("cannot write the metrics", extra={"event": "error"})

    def flush(self) -> None:
        """Add what was counted since the last flush to the instruments, and set the in-flight gauge.

        Until then a review's counts live only in this process's memory: a scrape shows them after
        the flush that follows the answer (a scrape of this registry flushes first), and a worker
        killed without a chance to flush loses them.

        The requests are written last: another process's scrape (the supervisor reads every worker's
        files) that sees a review counted sees its denial causes, warnings and internal errors too."""
        if self._in_flight_source is not None:
            self.in_flight.set(self._in_flight_source())
        causes, self._pending_causes = self._pending_causes, {}
        for labels, count in causes.items():
            self.denial_causes.labels(*labels).inc(count)
        warnings, self._pending_warnings = self._pending_warnings, {}
        for kind_labels, count in warnings.items():
            self.warnings.labels(*kind_labels).inc(count)
        internal_errors, self._pending_internal_errors = self._pending_internal_errors, {}
        for kind_labels, count in internal_errors.items():
            self.internal_errors.labels(*kind_labels).inc(count)
        for tally in self._tallies.values():
            tally.flush()

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


def _count(pending: dict[_PendingKey, int], key: _PendingKey, count: int) -> None:
    pending[key] = pending.get(key, 0) + count


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
