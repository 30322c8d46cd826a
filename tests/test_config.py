"""The configuration file: what each key sets, what a broken file says, and reloads while serving."""

from __future__ import annotations

import logging
import os
import ssl
from pathlib import Path
from typing import Any

import aiohttp
import orjson
import pytest
from prometheus_client import generate_latest

from tests.live_server import JSON_HEADERS, eventually, metric_samples, sample
from tests.reviews import admission_review, claim_template, resource_claim
from webhook.cli import main
from webhook.config import ConfigError, ConfigWatcher, parse_config
from webhook.rules.kinds import GroupVersionKind
from webhook.server import WebhookServer
from webhook.server.state import METRICS_KEY
from webhook.settings import Enforcement, PolicySettings, Settings, UnknownKindPolicy

# Two kinds, one of them served in two apiVersions.
KINDS = frozenset(
    {
        GroupVersionKind("resource.k8s.io", "v1alpha2", "ResourceClaim"),
        GroupVersionKind("resource.k8s.io", "v1alpha3", "ResourceClaim"),
        GroupVersionKind("resource.k8s.io", "v1alpha2", "ResourceClaimTemplate"),
    }
)
BASE = PolicySettings()


@pytest.mark.parametrize(
    ("text", "base", "expected"),
    [
        ("", BASE, BASE),
        ("# only a comment\n", BASE, BASE),
        ("unknownKind: deny\n", BASE, PolicySettings(unknown_kind=UnknownKindPolicy.DENY)),
        ("namespaceRules: {enabled: false}\n", BASE, PolicySettings(namespace_rules=False)),
        (
            "namespaceRules:\n  classReferenceScope: false\n  claimReferenceNamespace: false\n",
            BASE,
            PolicySettings(class_reference_scope=False, claim_reference_namespace=False),
        ),
        (
            "namespaceRules:\n  scopes:\n    - {apiGroup: gpu.example.com, kind: GpuClassParameters, scope: Cluster}\n"
            "    - {apiGroup: gpu.example.com, kind: GpuClaimParameters, scope: Namespaced}\n",
            BASE,
            PolicySettings(
                extra_scopes=(
                    ("gpu.example.com", "GpuClaimParameters", True),
                    ("gpu.example.com", "GpuClassParameters", False),
                )
            ),
        ),
        (
            "enforcement:\n  default: warn\n  kinds:\n    ResourceClaim: deny\n",
            BASE,
            PolicySettings(
                default_enforcement=Enforcement.WARN, enforcement=(("ResourceClaim", Enforcement.DENY),)
            ),
        ),
        (
            "enforcement:\n  kinds:\n    ResourceClaim: warn\n    ResourceClaim.v1alpha3.resource.k8s.io: deny\n",
            BASE,
            PolicySettings(
                enforcement=(
                    ("ResourceClaim", Enforcement.WARN),
                    ("ResourceClaim.v1alpha3.resource.k8s.io", Enforcement.DENY),
                )
            ),
        ),
        # What the file sets overrides the flags; what it does not set, the flags keep.
        (
            "unknownKind: allow\n",
            PolicySettings(unknown_kind=UnknownKindPolicy.DENY, namespace_rules=False),
            PolicySettings(unknown_kind=UnknownKindPolicy.ALLOW, namespace_rules=False),
        ),
        (
            "namespaceRules: {scopes: []}\n",
            PolicySettings(namespace_rules=False),
            PolicySettings(namespace_rules=False),
        ),
    ],
)
def test_each_key_sets_its_switch(text: str, base: PolicySettings, expected: PolicySettings) -> None:
    assert parse_config(text, base=base, known_kinds=KINDS) == expected


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            "[1, 2]\n",
            "config: the configuration must be a mapping of unknownKind, namespaceRules, enforcement",
        ),
        ("unknownKind: maybe\n", "config: unknownKind must be allow or deny, not 'maybe'"),
        (
            "unknownKinds: deny\n",
            "config: unknown keys ['unknownKinds'] (known: unknownKind, namespaceRules, enforcement)",
        ),
        ("namespaceRules: 3\n", "config: namespaceRules must be a mapping"),
        ("namespaceRules: {enabled: 1}\n", "config: namespace policy: enabled must be true or false, not 1"),
        (
            "namespaceRules: {scopes: [{kind: X, scope: Everywhere}]}\n",
            "config: namespace policy: scopes[0].scope must be Namespaced or Cluster, not 'Everywhere'",
        ),
        ("enforcement: warn\n", "config: enforcement must be a mapping of default and kinds"),
        ("enforcement: {mode: warn}\n", "config: enforcement: unknown keys ['mode'] (known: default, kinds)"),
        ("enforcement: {default: block}\n", "config: enforcement.default must be deny or warn, not 'block'"),
        (
            "enforcement: {kinds: {Pod: warn}}\n",
            "config: enforcement.kinds: 'Pod' is not a kind this webhook validates "
            "(known: ResourceClaim, ResourceClaimTemplate)",
        ),
        (
            "enforcement: {kinds: {ResourceClaimTemplate.v1alpha3.resource.k8s.io: warn}}\n",
            "config: enforcement.kinds: 'ResourceClaimTemplate.v1alpha3.resource.k8s.io' is not a kind this "
            "webhook validates (known: ResourceClaim.v1alpha2.resource.k8s.io, "
            "ResourceClaim.v1alpha3.resource.k8s.io, ResourceClaimTemplate.v1alpha2.resource.k8s.io)",
        ),
        (
            "enforcement: {kinds: {ResourceClaim: off}}\n",
            "config: enforcement.kinds.ResourceClaim must be deny or warn, not False",
        ),
        (
            "enforcement: {kinds: [ResourceClaim]}\n",
            "config: enforcement.kinds must map kind names to deny or warn",
        ),
    ],
)
def test_a_broken_file_is_refused_naming_the_first_problem(text: str, message: str) -> None:
    with pytest.raises(ConfigError) as refused:
        parse_config(text, base=BASE, known_kinds=KINDS)
    assert str(refused.value) == message


@pytest.mark.parametrize(
    ("table", "version", "expected"),
    [
        ((), "v1alpha3", Enforcement.DENY),
        ((("ResourceClaim", Enforcement.WARN),), "v1alpha2", Enforcement.WARN),
        ((("ResourceClaim", Enforcement.WARN),), "v1alpha3", Enforcement.WARN),
        ((("ResourceClaim.v1alpha3.resource.k8s.io", Enforcement.WARN),), "v1alpha3", Enforcement.WARN),
        ((("ResourceClaim.v1alpha3.resource.k8s.io", Enforcement.WARN),), "v1alpha2", Enforcement.DENY),
        # The most specific setting applies, whichever comes first.
        (
            (
                ("ResourceClaim", Enforcement.WARN),
                ("ResourceClaim.v1alpha3.resource.k8s.io", Enforcement.DENY),
            ),
            "v1alpha3",
            Enforcement.DENY,
        ),
        (
            (
                ("ResourceClaim.v1alpha3.resource.k8s.io", Enforcement.DENY),
                ("ResourceClaim", Enforcement.WARN),
            ),
            "v1alpha2",
            Enforcement.WARN,
        ),
        ((("ResourceClaimTemplate", Enforcement.WARN),), "v1alpha3", Enforcement.DENY),
    ],
)
def test_enforcement_of_a_kind_in_one_api_version_is_its_most_specific_setting(
    table: tuple[tuple[str, Enforcement], ...], version: str, expected: Enforcement
) -> None:
    policy = PolicySettings(enforcement=table)
    assert policy.enforcement_for("ResourceClaim", version=version, group="resource.k8s.io") is expected


def test_yaml_that_does_not_parse_is_refused_with_its_position() -> None:
    with pytest.raises(ConfigError) as refused:
        parse_config("unknownKind: [deny\n", base=BASE, known_kinds=KINDS)
    assert str(refused.value).startswith("config: not valid YAML: while parsing a flow sequence")
    assert "line 1, column 14" in str(refused.value)


# --- the watcher ------------------------------------------------------------------------------------


def test_the_watcher_applies_changes_and_keeps_the_old_policy_when_the_file_breaks(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    path = tmp_path / "config.yaml"
    path.write_text("unknownKind: deny\n")
    base = PolicySettings(namespace_rules=False)
    watcher = ConfigWatcher(path, base=base, known_kinds=KINDS)
    assert watcher.policy == PolicySettings(namespace_rules=False, unknown_kind=UnknownKindPolicy.DENY)
    assert watcher.poll() is None  # unchanged

    path.write_text("enforcement: {default: warn}\n")  # unknownKind removed: back to the flags' value
    applied = PolicySettings(namespace_rules=False, default_enforcement=Enforcement.WARN)
    assert watcher.poll() == applied
    assert (watcher.policy, watcher.reloads, watcher.reload_errors) == (applied, 1, 0)

    caplog.set_level(logging.ERROR, logger="webhook.config")
    path.write_text("enforcement: {default: block}\n")
    assert watcher.poll() is None
    assert watcher.poll() is None
    assert (watcher.policy, watcher.reloads, watcher.reload_errors) == (applied, 1, 1)
    refusals = [record.getMessage() for record in caplog.records]
    assert refusals == [
        "refusing the changed configuration, keeping the one in service: "
        f"{path}: enforcement.default must be deny or warn, not 'block'"
    ]  # once, not at every poll

    path.unlink()
    assert watcher.poll() is None
    assert watcher.reload_errors == 2
    assert watcher.last_error == f"{path}: cannot read: No such file or directory"

    path.write_text("unknownKind: deny\n")
    fixed = watcher.poll()
    assert fixed == PolicySettings(namespace_rules=False, unknown_kind=UnknownKindPolicy.DENY)
    assert (watcher.reloads, watcher.reload_errors) == (2, 2)
    assert not watcher.last_error


@pytest.mark.parametrize("broken", ["unknownKind: maybe\n", None], ids=["invalid", "removed"])
def test_the_same_break_after_a_return_to_the_file_in_service_is_reported_again(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, broken: str | None
) -> None:
    path = tmp_path / "config.yaml"
    path.write_text("unknownKind: deny\n")
    watcher = ConfigWatcher(path, base=BASE, known_kinds=KINDS)
    caplog.set_level(logging.ERROR, logger="webhook.config")
    errors = []
    for content in (broken, "unknownKind: deny\n", broken):
        if content is None:
            path.unlink()
        else:
            path.write_text(content)
        assert watcher.poll() is None  # refused, unchanged, refused
        assert watcher.poll() is None
        errors.append(watcher.last_error)
    assert (watcher.reloads, watcher.reload_errors) == (0, 2)
    assert errors[0] is not None and errors == [errors[0], None, errors[0]]  # the restore ends the refusal
    assert [record.getMessage() for record in caplog.records] == [
        f"refusing the changed configuration, keeping the one in service: {errors[0]}"
    ] * 2


def test_a_broken_file_at_start_is_an_error(tmp_path: Path) -> None:
    path = tmp_path / "config.yaml"
    path.write_text("unknownKind: maybe\n")
    with pytest.raises(ConfigError, match="unknownKind must be allow or deny"):
        ConfigWatcher(path, base=BASE, known_kinds=KINDS)
    with pytest.raises(ConfigError, match="cannot read: No such file or directory"):
        ConfigWatcher(tmp_path / "missing.yaml", base=BASE, known_kinds=KINDS)


# --- reloads while serving --------------------------------------------------------------------------


def replace_file(path: Path, text: str) -> None:
    """Give `path` new content in one step, as a ConfigMap volume does (an atomic rename): a write in
    place is seen empty for a moment by a watcher polling every 20 ms, and an empty file is a valid
    configuration (every setting from the flags)."""
    staged = path.with_name(path.name + ".staged")
    staged.write_text(text)
    os.replace(staged, path)


async def test_a_serving_webhook_follows_its_configuration_file(tmp_path: Path, cert_dir: Path) -> None:
    path = tmp_path / "config.yaml"
    path.write_text("unknownKind: allow\n")
    settings = Settings(
        port=0,
        cert_dir=cert_dir,
        generate_dev_certs=False,
        config_file=path,
        config_reload_interval_seconds=0.02,
    )
    server = WebhookServer(settings)
    await server.start()
    unknown = orjson.dumps(admission_review(resource_claim(), kind="Foo", group="example.com", version="v1"))
    template_change = orjson.dumps(
        admission_review(
            claim_template(resourceClassName="other.example.com"), operation="UPDATE", old=claim_template()
        )
    )
    tls = aiohttp.TCPConnector(ssl=ssl.create_default_context(cafile=str(cert_dir / "ca.crt")))
    try:
        async with aiohttp.ClientSession(connector=tls) as session:

            async def answer(body: bytes) -> dict[str, Any]:
                url = f"https://127.0.0.1:{server.port}/validate"
                async with session.post(url, data=body, headers=JSON_HEADERS) as response:
                    result: dict[str, Any] = (await response.json())["response"]
                    return result

            assert (await answer(unknown))["allowed"] is True
            assert (await answer(template_change))["allowed"] is False

            replace_file(path, "unknownKind: deny\nenforcement: {kinds: {ResourceClaimTemplate: warn}}\n")

            async def unknown_denied() -> bool:
                return (await answer(unknown))["allowed"] is False

            assert await eventually(unknown_denied)
            warned = await answer(template_change)
            assert warned["allowed"] is True
            assert warned["warnings"][0].startswith(
                "ResourceClaimTemplate 'template' would be denied: spec: Invalid value"
            )

            replace_file(path, "unknownKind: [\n")  # broken: the policy in service stays
            assert server.app is not None
            metrics = server.app[METRICS_KEY]

            async def refused() -> bool:
                samples = metric_samples(generate_latest(metrics.registry).decode())
                return sample(samples, "dra_webhook_config_reloads_total", result="error") == 1

            assert await eventually(refused)
            assert (await answer(unknown))["allowed"] is False
            samples = metric_samples(generate_latest(metrics.registry).decode())
            assert sample(samples, "dra_webhook_config_reloads_total", result="success") == 1
    finally:
        await server.stop()


# --- the offline commands read the same file --------------------------------------------------------


def test_review_applies_the_configuration_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    review = tmp_path / "review.json"
    review.write_bytes(
        orjson.dumps(
            admission_review(
                claim_template(resourceClassName="other.example.com"),
                operation="UPDATE",
                old=claim_template(),
            )
        )
    )
    config = tmp_path / "config.yaml"
    config.write_text("enforcement: {kinds: {ResourceClaimTemplate: warn}}\n")
    assert main(["review", "--compact", str(review)]) == 1
    capsys.readouterr()
    assert main(["review", "--compact", "--config", str(config), str(review)]) == 0
    answer = orjson.loads(capsys.readouterr().out)
    assert answer["response"]["allowed"] is True


def test_review_with_a_broken_configuration_file_exits_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = tmp_path / "config.yaml"
    config.write_text("enforcement: {default: block}\n")
    with pytest.raises(SystemExit) as exited:
        main(["review", "--config", str(config), str(tmp_path / "unused.json")])
    assert exited.value.code == 2
    assert (
        capsys.readouterr().err
        == f"dra-webhook: {config}: enforcement.default must be deny or warn, not 'block'\n"
    )
