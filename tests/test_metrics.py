"""The Prometheus metrics: bounded labels, exact counts in one process and summed over two workers."""

from __future__ import annotations

import asyncio
import dataclasses
import time
from collections import Counter
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import orjson
import pytest
from aiohttp import web
from aiohttp.test_utils import TestClient
from prometheus_client import generate_latest

from tests.live_server import (
    JSON_HEADERS,
    live_server,
    metric_samples,
    sample,
    wait_for,
)
from tests.reviews import admission_review, allocated_claim, claim_template, resource_claim
from webhook.admission import AdmissionRequest, Judge, Verdict, allowed, denied_invalid, errored, parse_review
from webhook.field import ROOT, required
from webhook.metrics import (
    MAX_FIELD_LABELS,
    OTHER,
    Metrics,
    fold_field,
    single_process_registry,
    verdict_label,
)
from webhook.registry import REGISTRY, KindRegistry, ServedKinds
from webhook.release import KUBERNETES_1_30
from webhook.rules.kinds import GroupVersionKind, KindRules, Obj
from webhook.server import app as server_app
from webhook.server import create_app
from webhook.server.state import METRICS_KEY, TRAFFIC_KEY
from webhook.settings import Settings

Client = TestClient[web.Request, web.Application]
MakeClient = Callable[[web.Application], Awaitable[Client]]

CLAIM = GroupVersionKind("resource.k8s.io", "v1alpha2", "ResourceClaim")
CRASHING = GroupVersionKind("crash.example.com", "v1", "Crash")


@pytest.mark.parametrize(
    ("field", "label"),
    [
        ("spec", "spec"),
        ("<nil>", "<nil>"),
        ("status.reservedFor[3].uid", "status.reservedFor[*].uid"),
        ("status.reservedFor[31]", "status.reservedFor[*]"),
        ("metadata.labels[example.com/app]", "metadata.labels[*]"),
        ("metadata.annotations[key with spaces]", "metadata.annotations[*]"),
        (
            "status.allocation.resourceHandles[0].structuredData.results[12].namedResources.name",
            "status.allocation.resourceHandles[*].structuredData.results[*].namedResources.name",
        ),
        ("spec.podSpecs[1].claims[2]", "spec.podSpecs[*].claims[*]"),
        ("oldObject.spec.parametersRef", "oldObject.spec.parametersRef"),
        # A key with a bracket in it cannot be folded cleanly: the label gives up on the path.
        ("metadata.labels[a[b]", OTHER),
        ("metadata.labels[a]b]", OTHER),
        ('metadata.labels["quoted"]', "metadata.labels[*]"),
    ],
)
def test_field_paths_fold_indexes_and_keys(field: str, label: str) -> None:
    assert fold_field(field) == label


def test_field_labels_stop_growing_at_the_cap() -> None:
    metrics = Metrics(REGISTRY)
    labels = {metrics.field_label(f"spec.field{i}") for i in range(MAX_FIELD_LABELS + 10)}
    assert len(labels) == MAX_FIELD_LABELS + 1  # the cap, plus "other"
    assert metrics.field_label(f"spec.field{MAX_FIELD_LABELS + 5}") == OTHER
    assert metrics.field_label("spec.field0") == "spec.field0"  # a path seen before keeps its label


def test_verdict_labels() -> None:
    error = required(ROOT.child("spec"))
    assert verdict_label(allowed()) == "allowed"
    assert verdict_label(allowed(["a warning"])) == "allowed"
    assert verdict_label(dataclasses.replace(allowed(), errors=(error,))) == "warned"
    assert verdict_label(denied_invalid("ResourceClaim", "claim", [error])) == "denied"
    assert verdict_label(errored("boom")) == "error"


@pytest.mark.parametrize(
    ("gvk", "subresource", "kind_label", "version_label", "subresource_label"),
    [
        (CLAIM, "", "ResourceClaim", "v1alpha2", ""),
        (CLAIM, "status", "ResourceClaim", "v1alpha2", "status"),
        (CLAIM, "scale", "ResourceClaim", "v1alpha2", OTHER),
        (GroupVersionKind("resource.k8s.io", "v1alpha9", "ResourceClaim"), "", OTHER, OTHER, ""),
        (GroupVersionKind("example.com", "v1", "Whatever-The-Caller-Sent"), "status", OTHER, OTHER, OTHER),
    ],
)
def test_kinds_and_subresources_outside_the_registry_fold_to_other(
    gvk: GroupVersionKind, subresource: str, kind_label: str, version_label: str, subresource_label: str
) -> None:
    metrics = Metrics(REGISTRY)
    assert metrics.kind_label(gvk) == kind_label
    assert metrics.version_label(gvk) == version_label
    assert metrics.subresource_label(gvk, subresource) == subresource_label


# --- exact counts in one process --------------------------------------------------------------------


def crash(obj: Obj, old: Obj | None = None) -> list[Any]:
    raise RuntimeError("a rule that crashes")


def judge_with_a_crashing_kind() -> Judge:
    crashing = KindRules(CRASHING, "crashes", True, crash, crash)
    return dataclasses.replace(
        Judge.build(),
        structural=None,
        registry=KindRegistry([*REGISTRY.entries, ServedKinds(KUBERNETES_1_30, (crashing,))]),
    )


def too_many_consumers() -> dict[str, Any]:
    return admission_review(
        allocated_claim(reserved_for=33), operation="UPDATE", old=allocated_claim(), sub_resource="status"
    )


def consumers_without_uids() -> dict[str, Any]:
    new = allocated_claim(reserved_for=3)
    for consumer in new["status"]["reservedFor"]:
        consumer["uid"] = ""
    return admission_review(new, operation="UPDATE", old=allocated_claim(), sub_resource="status")


def unknown_kind() -> dict[str, Any]:
    return admission_review(resource_claim(), kind="Foo", group="example.com", version="v1")


def crashing_review() -> dict[str, Any]:
    return admission_review(
        {"metadata": {"name": "x"}}, kind="Crash", group="crash.example.com", version="v1"
    )


async def test_metrics_count_a_mix_of_allowed_denied_and_errored_reviews_exactly(
    aiohttp_client: MakeClient,
) -> None:
    app = create_app(Settings(max_body_bytes=64 * 1024), judge=judge_with_a_crashing_kind())
    client = await aiohttp_client(app)
    documents = [
        *[admission_review(resource_claim(f"claim-{i}")) for i in range(3)],
        too_many_consumers(),
        too_many_consumers(),
        consumers_without_uids(),
        unknown_kind(),
        crashing_review(),
    ]
    for document in documents:
        response = await client.post("/validate", data=orjson.dumps(document), headers=JSON_HEADERS)
        assert response.status == 200
    assert (await client.post("/validate", data=b"not json", headers=JSON_HEADERS)).status == 400
    assert (await client.post("/validate", data=b"{}", headers={"Content-Type": "text/plain"})).status == 415

    samples = metric_samples(generate_latest(app[METRICS_KEY].registry).decode())
    requests = "dra_webhook_requests_total"
    claim = {"kind": "ResourceClaim", "version": "v1alpha2"}
    assert (
        sample(samples, requests, **claim, operation="CREATE", subresource="", verdict="allowed", code="200")
        == 3
    )
    assert (
        sample(
            samples, requests, **claim, operation="UPDATE", subresource="status", verdict="denied", code="422"
        )
        == 3
    )
    assert (
        sample(
            samples,
            requests,
            kind="other",
            version="other",
            operation="CREATE",
            subresource="",
            verdict="allowed",
            code="200",
        )
        == 1
    )
    assert (
        sample(
            samples,
            requests,
            kind="Crash",
            version="v1",
            operation="CREATE",
            subresource="",
            verdict="error",
            code="500",
        )
        == 1
    )
    assert (
        sample(
            samples,
            requests,
            kind="",
            version="",
            operation="",
            subresource="",
            verdict="unreadable",
            code="400",
        )
        == 1
    )
    assert (
        sample(
            samples,
            requests,
            kind="",
            version="",
            operation="",
            subresource="",
            verdict="unreadable",
            code="415",
        )
        == 1
    )
    assert sum(value for (name, _), value in samples.items() if name == requests) == 10

    causes = "dra_webhook_denial_causes_total"
    deny = {"kind": "ResourceClaim", "version": "v1alpha2", "enforcement": "deny"}
    assert sample(samples, causes, **deny, field="status.reservedFor", reason="FieldValueTooLong") == 2
    assert (
        sample(samples, causes, **deny, field="status.reservedFor[*].uid", reason="FieldValueRequired") == 1
    )
    assert (
        sample(samples, causes, **deny, field="status.reservedFor[*].uid", reason="FieldValueDuplicate") == 2
    )
    assert sample(samples, "dra_webhook_internal_errors_total", kind="Crash", version="v1") == 1
    assert sample(samples, "dra_webhook_warnings_total", kind="other", version="other") == 1
    assert sample(samples, "dra_webhook_requests_in_flight") == 0
    assert (
        sample(
            samples, "dra_webhook_request_duration_seconds_count", kind="ResourceClaim", version="v1alpha2"
        )
        == 6
    )
    assert sample(samples, "dra_webhook_request_duration_seconds_count", kind="", version="") == 2
    # Millisecond buckets: from a quarter of a millisecond to a second.
    buckets = sorted(
        float(dict(labels)["le"])
        for (name, labels), _ in samples.items()
        if name == "dra_webhook_request_duration_seconds_bucket" and dict(labels)["kind"] == "ResourceClaim"
    )
    assert buckets[0] == 0.00025
    assert buckets[-2:] == [1.0, float("inf")]


async def test_warn_mode_counts_the_causes_it_lets_through(aiohttp_client: MakeClient) -> None:
    from webhook.settings import Enforcement, PolicySettings

    policy = PolicySettings(enforcement=(("ResourceClaimTemplate", Enforcement.WARN),))
    app = create_app(Settings(policy=policy))
    client = await aiohttp_client(app)
    document = admission_review(
        claim_template(resourceClassName="other.example.com"), operation="UPDATE", old=claim_template()
    )
    answer = await (await client.post("/validate", data=orjson.dumps(document), headers=JSON_HEADERS)).json()
    assert answer["response"]["allowed"] is True

    samples = metric_samples(generate_latest(app[METRICS_KEY].registry).decode())
    assert (
        sample(
            samples,
            "dra_webhook_requests_total",
            kind="ResourceClaimTemplate",
            version="v1alpha2",
            operation="UPDATE",
            subresource="",
            verdict="warned",
            code="200",
        )
        == 1
    )
    assert (
        sample(
            samples,
            "dra_webhook_denial_causes_total",
            kind="ResourceClaimTemplate",
            version="v1alpha2",
            field="spec",
            reason="FieldValueInvalid",
            enforcement="warn",
        )
        == 1
    )
    assert (
        sample(samples, "dra_webhook_warnings_total", kind="ResourceClaimTemplate", version="v1alpha2") == 1
    )


def test_certificate_and_configuration_counts_follow_their_watchers() -> None:
    metrics = Metrics(REGISTRY)
    metrics.observe_certificate(reloads=0, reload_errors=0, not_after_timestamp=1_900_000_000.0)
    metrics.observe_certificate(reloads=2, reload_errors=1, not_after_timestamp=1_950_000_000.0)
    metrics.observe_certificate(reloads=2, reload_errors=1, not_after_timestamp=1_950_000_000.0)
    metrics.observe_config(reloads=1, reload_errors=3)
    samples = metric_samples(generate_latest(metrics.registry).decode())
    assert sample(samples, "dra_webhook_certificate_reloads_total", result="success") == 2
    assert sample(samples, "dra_webhook_certificate_reloads_total", result="error") == 1
    assert sample(samples, "dra_webhook_certificate_expiry_timestamp_seconds") == 1_950_000_000.0
    assert sample(samples, "dra_webhook_config_reloads_total", result="success") == 1
    assert sample(samples, "dra_webhook_config_reloads_total", result="error") == 3


# --- exact counts summed over two workers -----------------------------------------------------------


async def test_a_scrape_sums_the_counts_of_two_workers_exactly(tmp_path: Path, cert_dir: Path) -> None:
    config = tmp_path / "config.yaml"
    config.write_text("enforcement:\n  kinds:\n    ResourceClaimTemplate: warn\n")
    plan: list[tuple[bytes, dict[str, str]]] = [
        *[(orjson.dumps(admission_review(resource_claim(f"claim-{i}"))), JSON_HEADERS) for i in range(10)],
        *[(orjson.dumps(too_many_consumers()), JSON_HEADERS) for _ in range(6)],
        *[
            (
                orjson.dumps(
                    admission_review(
                        claim_template(resourceClassName="other.example.com"),
                        operation="UPDATE",
                        old=claim_template(),
                    )
                ),
                JSON_HEADERS,
            )
            for _ in range(4)
        ],
        *[(orjson.dumps(unknown_kind()), JSON_HEADERS) for _ in range(2)],
        *[(b"not json", JSON_HEADERS) for _ in range(3)],
        *[(b"{}", {"Content-Type": "text/plain"}) for _ in range(2)],
    ]
    requests = "dra_webhook_requests_total"
    with live_server(tmp_path, cert_dir, "--access-log", "--config", str(config), workers=2) as server:
        async with server.session(fresh_connections=True) as session:

            async def post(body: bytes, headers: dict[str, str]) -> int:
                async with session.post(server.url("/validate"), data=body, headers=headers) as response:
                    await response.read()
                    return response.status

            statuses = await asyncio.gather(*(post(body, headers) for body, headers in plan))
            assert Counter(statuses) == {200: 22, 400: 3, 415: 2}

            async def scrape() -> dict[tuple[str, frozenset[tuple[str, str]]], float]:
                async with session.get(server.metrics_url()) as response:
                    assert response.status == 200
                    return metric_samples(await response.text())

            # Each worker adds its counts to its multiprocess files every METRICS_FLUSH_SECONDS.
            def answered(samples: dict[tuple[str, frozenset[tuple[str, str]]], float]) -> float:
                return sum(value for (name, _), value in samples.items() if name == requests)

            deadline = time.monotonic() + 5
            samples = await scrape()
            while answered(samples) < len(plan):
                assert time.monotonic() < deadline, "the workers never flushed their counts"
                await asyncio.sleep(0.05)
                samples = await scrape()

        # Both workers answered: the access lines of /validate come from two processes.
        # (A worker writes its access line just after the answer: wait for the last ones.)
        def access_lines() -> list[dict[str, Any]]:
            return [line for line in server.log_lines() if line.get("logger") == "webhook.access"]

        wait_for(lambda: len(access_lines()) >= len(plan), timeout=5, what="every access line")
        assert len(access_lines()) == len(plan)
        assert len({line["pid"] for line in access_lines()}) == 2

    claim = {"kind": "ResourceClaim", "version": "v1alpha2"}
    assert (
        sample(samples, requests, **claim, operation="CREATE", subresource="", verdict="allowed", code="200")
        == 10
    )
    assert (
        sample(
            samples, requests, **claim, operation="UPDATE", subresource="status", verdict="denied", code="422"
        )
        == 6
    )
    assert (
        sample(
            samples,
            requests,
            kind="ResourceClaimTemplate",
            version="v1alpha2",
            operation="UPDATE",
            subresource="",
            verdict="warned",
            code="200",
        )
        == 4
    )
    assert (
        sample(
            samples,
            requests,
            kind="other",
            version="other",
            operation="CREATE",
            subresource="",
            verdict="allowed",
            code="200",
        )
        == 2
    )
    assert (
        sample(
            samples,
            requests,
            kind="",
            version="",
            operation="",
            subresource="",
            verdict="unreadable",
            code="400",
        )
        == 3
    )
    assert (
        sample(
            samples,
            requests,
            kind="",
            version="",
            operation="",
            subresource="",
            verdict="unreadable",
            code="415",
        )
        == 2
    )
    assert sum(value for (name, _), value in samples.items() if name == requests) == len(plan)
    assert (
        sample(
            samples,
            "dra_webhook_denial_causes_total",
            kind="ResourceClaim",
            version="v1alpha2",
            field="status.reservedFor",
            reason="FieldValueTooLong",
            enforcement="deny",
        )
        == 6
    )
    assert (
        sample(samples, "dra_webhook_warnings_total", kind="ResourceClaimTemplate", version="v1alpha2") == 4
    )
    assert sample(samples, "dra_webhook_warnings_total", kind="other", version="other") == 2
    durations = sum(
        value for (name, _), value in samples.items() if name == "dra_webhook_request_duration_seconds_count"
    )
    assert durations == len(plan)
    assert sample(samples, "dra_webhook_requests_in_flight") == 0
    assert sample(samples, "dra_webhook_workers") == 2
    assert sample(samples, "dra_webhook_worker_restarts_total") == 0
    assert sample(samples, "dra_webhook_certificate_expiry_timestamp_seconds") > 0


async def test_a_certificate_rotation_and_a_refused_pair_are_counted(tmp_path: Path, cert_dir: Path) -> None:
    from webhook.server import WebhookServer
    from webhook.server.state import RELOADER_KEY
    from webhook.tls import issue_serving_certificate, load_ca

    serving = tmp_path / "serving"
    serving.mkdir()
    for name in ("tls.crt", "tls.key"):
        (serving / name).write_bytes((cert_dir / name).read_bytes())
    settings = Settings(port=0, cert_dir=serving, generate_dev_certs=False, cert_reload_interval_seconds=0.02)
    server = WebhookServer(settings)
    await server.start()
    assert server.app is not None
    registry = server.app[METRICS_KEY].registry
    reloader = server.app[RELOADER_KEY]

    def samples() -> dict[tuple[str, frozenset[tuple[str, str]]], float]:
        return metric_samples(generate_latest(registry).decode())

    async def until(condition: Callable[[], bool]) -> None:
        for _ in range(250):
            if condition():
                return
            await asyncio.sleep(0.02)
        raise AssertionError("timed out")

    try:
        first_expiry = sample(samples(), "dra_webhook_certificate_expiry_timestamp_seconds")
        assert first_expiry == reloader.not_after.timestamp()
        ca = load_ca(cert_dir / "ca.crt", cert_dir / "ca.key")
        rotated = issue_serving_certificate(ca, ip_addresses=["127.0.0.1"], days=30)
        (serving / "tls.key").write_bytes(rotated.key_pem)
        (serving / "tls.crt").write_bytes(rotated.cert_pem)
        await until(lambda: sample(samples(), "dra_webhook_certificate_reloads_total", result="success") == 1)
        assert (
            sample(samples(), "dra_webhook_certificate_expiry_timestamp_seconds")
            == rotated.not_after.timestamp()
        )
        assert rotated.not_after.timestamp() < first_expiry

        # (A poll between the two writes above may have refused a torn pair: count from here.)
        errors = sample(samples(), "dra_webhook_certificate_reloads_total", result="error")
        (serving / "tls.crt").write_bytes(b"-----BEGIN CERTIFICATE-----\nbroken\n-----END CERTIFICATE-----\n")
        await until(
            lambda: sample(samples(), "dra_webhook_certificate_reloads_total", result="error") == errors + 1
        )
        assert (
            sample(samples(), "dra_webhook_certificate_expiry_timestamp_seconds")
            == rotated.not_after.timestamp()
        )
    finally:
        await server.stop()


# --- tallies and flushes ----------------------------------------------------------------------------

Samples = dict[tuple[str, frozenset[tuple[str, str]]], float]


def instrument_samples(metrics: Metrics) -> Samples:
    """What the instruments hold now, read without a scrape of the registry (which would flush)."""
    samples = {}
    for instrument in (metrics.requests, metrics.duration, metrics.in_flight, metrics.denial_causes):
        for family in instrument.collect():
            for one in family.samples:
                if not one.name.endswith("_created"):
                    samples[(one.name, frozenset(one.labels.items()))] = one.value
    return samples


def observe_directly(metrics: Metrics, request: AdmissionRequest, verdict: Verdict, seconds: float) -> None:
    """What `Metrics.observe_review` wrote before it tallied: every value at once."""
    gvk = GroupVersionKind(request.kind.group, request.kind.version, request.kind.kind)
    kind, version = metrics.kind_label(gvk), metrics.version_label(gvk)
    subresource = metrics.subresource_label(gvk, request.sub_resource)
    metrics.requests.labels(
        kind, version, request.operation, subresource, verdict_label(verdict), str(verdict.code)
    ).inc()
    metrics.duration.labels(kind, version).observe(seconds)
    if verdict.warnings:
        metrics.warnings.labels(kind, version).inc(len(verdict.warnings))
    if verdict.internal_error:
        metrics.internal_errors.labels(kind, version).inc()
    enforcement = "warn" if verdict.allowed else "deny"
    for error in verdict.errors:
        metrics.denial_causes.labels(
            kind, version, metrics.field_label(error.field), error.type.value, enforcement
        ).inc()


def exposition_without_timestamps(metrics: Metrics) -> Samples:
    samples = metric_samples(generate_latest(metrics.registry).decode())
    return {key: value for key, value in samples.items() if not key[0].endswith("_created")}


def test_a_flush_writes_exactly_what_observing_each_review_wrote() -> None:
    claim = parse_review(orjson.dumps(admission_review(resource_claim()))).request
    update = parse_review(orjson.dumps(too_many_consumers())).request
    other = parse_review(orjson.dumps(unknown_kind())).request
    errors = (required(ROOT.child("spec")), required(ROOT.child("status").child("reservedFor").index(3)))
    verdicts = [
        (claim, allowed()),
        (claim, allowed(["a warning", "another"])),
        (update, denied_invalid("ResourceClaim", "claim", errors)),
        (claim, dataclasses.replace(allowed(), errors=errors[:1])),
        (other, allowed()),
        (claim, errored("boom")),
    ]
    # Bucket bounds exactly, just above them, zero, past the last bound.
    durations = [0.0, 0.00025, 0.000251, 0.0005, 0.001, 0.0024, 0.1, 1.0, 1.0001, 3.5, 0.00001]
    tallied, direct = Metrics(REGISTRY), Metrics(REGISTRY)
    for round_ in range(2):  # a second round adds to what the first flush wrote
        for i, seconds in enumerate(durations * 3):
            request, verdict = verdicts[(i + round_) % len(verdicts)]
            tallied.observe_review(request, verdict, seconds)
            observe_directly(direct, request, verdict, seconds)
        tallied.observe_unreadable(400, 0.0005)
        direct.requests.labels("", "", "", "", "unreadable", "400").inc()
        direct.duration.labels("", "").observe(0.0005)
        tallied.flush()
        flushed, observed = exposition_without_timestamps(tallied), exposition_without_timestamps(direct)
        # Sums of durations: the same terms, added in another order (per tally, then to the total).
        sums = {key for key in observed if key[0].endswith("_sum")}
        assert sums
        assert {key: flushed[key] for key in sums} == pytest.approx(
            {key: observed[key] for key in sums}, rel=1e-12
        )
        assert {key: value for key, value in flushed.items() if key not in sums} == {
            key: value for key, value in observed.items() if key not in sums
        }


def test_reviews_wait_in_the_tallies_until_a_flush() -> None:
    metrics = Metrics(REGISTRY)
    in_flight = 3
    metrics.count_in_flight(lambda: in_flight)
    request = parse_review(orjson.dumps(admission_review(resource_claim()))).request
    metrics.observe_review(request, allowed(), 0.002)
    requests = ("dra_webhook_requests_total", "ResourceClaim", "v1alpha2", "CREATE", "", "allowed", "200")

    def count(samples: Samples) -> float:
        name, kind, version, operation, subresource, verdict, code = requests
        return sample(
            samples,
            name,
            kind=kind,
            version=version,
            operation=operation,
            subresource=subresource,
            verdict=verdict,
            code=code,
        )

    assert count(instrument_samples(metrics)) == 0
    metrics.flush()
    assert count(instrument_samples(metrics)) == 1
    assert sample(instrument_samples(metrics), "dra_webhook_requests_in_flight") == 3
    metrics.flush()  # nothing new: nothing added
    assert count(instrument_samples(metrics)) == 1
    assert (
        sample(
            instrument_samples(metrics),
            "dra_webhook_request_duration_seconds_count",
            kind="ResourceClaim",
            version="v1alpha2",
        )
        == 1
    )


async def answer_one_review(client: Any) -> None:
    """POST one allowed ResourceClaim review and expect it answered."""
    response = await client.post(
        "/validate", data=orjson.dumps(admission_review(resource_claim())), headers=JSON_HEADERS
    )
    assert response.status == 200


async def test_the_server_flushes_on_its_timer(
    aiohttp_client: MakeClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(server_app, "METRICS_FLUSH_SECONDS", 0.02)
    app = create_app(Settings())
    client = await aiohttp_client(app)
    await answer_one_review(client)
    metrics = app[METRICS_KEY]
    for _ in range(250):
        if (
            sample(
                instrument_samples(metrics),
                "dra_webhook_request_duration_seconds_count",
                kind="ResourceClaim",
                version="v1alpha2",
            )
            == 1
        ):
            break
        await asyncio.sleep(0.02)
    else:
        raise AssertionError("the timer never flushed")


async def test_the_server_flushes_when_it_stops(
    aiohttp_client: MakeClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(server_app, "METRICS_FLUSH_SECONDS", 3600.0)
    app = create_app(Settings())
    client = await aiohttp_client(app)
    for _ in range(2):
        await answer_one_review(client)
    metrics = app[METRICS_KEY]
    durations = "dra_webhook_request_duration_seconds_count"
    assert (
        sample(instrument_samples(metrics), durations, kind="ResourceClaim", version="v1alpha2") == 0
    )  # not yet flushed
    await client.close()  # aiohttp's cleanup: the app's cleanup contexts end
    assert sample(instrument_samples(metrics), durations, kind="ResourceClaim", version="v1alpha2") == 2


async def test_a_scrape_flushes_first_and_reads_the_requests_in_flight(
    aiohttp_client: MakeClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(server_app, "METRICS_FLUSH_SECONDS", 3600.0)
    app = create_app(Settings())
    client = await aiohttp_client(app)
    await answer_one_review(client)
    registry = single_process_registry(app[METRICS_KEY])
    app[TRAFFIC_KEY].enter()  # as a review being read
    samples = metric_samples(generate_latest(registry).decode())
    assert (
        sample(
            samples, "dra_webhook_request_duration_seconds_count", kind="ResourceClaim", version="v1alpha2"
        )
        == 1
    )
    assert sample(samples, "dra_webhook_requests_in_flight") == 1
    app[TRAFFIC_KEY].leave()
    samples = metric_samples(generate_latest(registry).decode())
    assert sample(samples, "dra_webhook_requests_in_flight") == 0
    assert (
        sample(
            samples, "dra_webhook_request_duration_seconds_count", kind="ResourceClaim", version="v1alpha2"
        )
        == 1
    )


def test_a_scrape_answers_with_what_the_instruments_hold_when_the_flush_fails(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    metrics = Metrics(REGISTRY)
    metrics.observe_review(
        parse_review(orjson.dumps(admission_review(resource_claim()))).request, allowed(), 0.001
    )
    metrics.flush()

    def broken_flush(self: Metrics) -> None:
        raise OSError("No space left on device")

    monkeypatch.setattr(Metrics, "flush", broken_flush)
    samples = metric_samples(generate_latest(metrics.registry).decode())
    assert (
        sample(
            samples, "dra_webhook_request_duration_seconds_count", kind="ResourceClaim", version="v1alpha2"
        )
        == 1
    )
    assert [record.getMessage() for record in caplog.records] == ["cannot write the metrics"]
