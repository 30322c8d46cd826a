"""The kind registry: what it binds, what every reader derives from it, and that a second version flows
through the judge, the manifests, the metrics, enforcement, the decision log and the offline commands
with nothing but a registry entry (and its schemas)."""

from __future__ import annotations

import dataclasses
import importlib
import importlib.util
import json
import logging
import pickle
import pkgutil
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import orjson
import pytest

import webhook.rules
from tests.live_server import sample
from tests.reviews import admission_review, resource_claim
from webhook import native
from webhook.admission import Judge, log_decision, parse_review
from webhook.config import parse_config
from webhook.eras import ERAS
from webhook.field import ROOT, ErrorList, required
from webhook.manifests import era_rules, registry_resources, render_objects, webhook_rules
from webhook.metrics import Metrics
from webhook.offline.manifest_judge import ManifestJudge, ValidateOptions
from webhook.offline.review_judge import ReviewJudge
from webhook.registry import REGISTRY, KindRegistry, ServedKinds, api_version_of
from webhook.release import KUBERNETES_1_30, RELEASES, Release
from webhook.rules.kinds import GroupVersionKind, KindRules, Obj
from webhook.rules.v1alpha2 import kinds as v1alpha2_kinds
from webhook.rules.v1alpha2.resourceclaim import RESOURCE_CLAIM
from webhook.schemas import SchemaError, StructuralChecker, default_schema_directory
from webhook.settings import PolicySettings

ROOT_DIR = Path(__file__).resolve().parent.parent
GROUP = "resource.k8s.io"

# The project's contract (shared SOURCES.md): the release each apiVersion is judged as, and the kinds
# an apiVersion holds that a later release added and judges.
RELEASE_OF_VERSION = {
    "v1alpha2": "1.30",
    "v1alpha3": "1.31",
    "v1": "1.37",
    "v1beta2": "1.37",
    "v1beta1": "1.37",
}
RELEASE_OF_KIND = {
    ("v1alpha3", "DeviceTaintRule"): "1.37",
    ("v1alpha3", "ResourcePoolStatusRequest"): "1.37",
}


# --- what the registry binds ----------------------------------------------------------------------------


def test_every_registered_kind_is_judged_as_the_release_its_api_version_is_exact_to() -> None:
    for gvk in REGISTRY:
        assert gvk.group == GROUP
        expected = RELEASE_OF_KIND.get((gvk.version, gvk.kind), RELEASE_OF_VERSION[gvk.version])
        assert REGISTRY.release_of(gvk).version == expected, gvk


def test_v1alpha2_is_judged_as_kubernetes_1_30_with_its_seven_kinds() -> None:
    claim = GroupVersionKind(GROUP, "v1alpha2", "ResourceClaim")
    assert REGISTRY[claim] is RESOURCE_CLAIM
    assert REGISTRY.release_of(claim) is KUBERNETES_1_30
    assert str(REGISTRY.release_of(claim)) == "Kubernetes 1.30"
    assert [gvk.kind for gvk in REGISTRY if gvk.version == "v1alpha2"] == [
        "ResourceClaim",
        "ResourceClaimTemplate",
        "ResourceClass",
        "PodSchedulingContext",
        "ResourceSlice",
        "ResourceClaimParameters",
        "ResourceClassParameters",
    ]
    assert REGISTRY.version_table()[0] == ("resource.k8s.io/v1alpha2", KUBERNETES_1_30)
    assert REGISTRY.kinds_by_group_version()[GROUP, "v1alpha2"] == v1alpha2_kinds.KINDS


def test_a_kind_outside_the_registry_has_no_release() -> None:
    unknown = GroupVersionKind(GROUP, "v1alpha9", "ResourceClaim")
    assert unknown not in REGISTRY
    assert REGISTRY.get(unknown) is None
    with pytest.raises(KeyError):
        REGISTRY.release_of(unknown)


def test_a_kind_is_registered_once() -> None:
    with pytest.raises(
        ValueError, match=re.escape("resource.k8s.io/v1alpha2, Kind=ResourceClaim is registered twice")
    ):
        KindRegistry([*REGISTRY.entries, ServedKinds(Release("1.99"), (RESOURCE_CLAIM,))])


def version_packages() -> list[str]:
    """The apiVersion packages under webhook/rules/: those with a `kinds` module."""
    return sorted(
        module.name
        for module in pkgutil.iter_modules(webhook.rules.__path__)
        if module.ispkg and (Path(webhook.rules.__path__[0]) / module.name / "kinds.py").is_file()
    )


def test_v1alpha2_is_a_version_package() -> None:
    assert "v1alpha2" in version_packages()


@pytest.mark.parametrize("package", version_packages())
def test_every_kind_of_a_version_package_is_registered_under_its_group_and_version(package: str) -> None:
    names = importlib.import_module(f"webhook.rules.{package}")
    kinds = importlib.import_module(f"webhook.rules.{package}.kinds")
    assert kinds.KINDS, f"webhook/rules/{package}/kinds.py lists no kind"
    for rules in kinds.KINDS:
        assert (rules.gvk.group, rules.gvk.version) == (names.GROUP, names.VERSION)
        assert REGISTRY.get(rules.gvk) is rules, f"{rules.gvk}: add the package to webhook/registry.py"
    assert isinstance(names.RELEASE, Release)


@pytest.mark.parametrize("package", version_packages())
def test_every_module_of_a_version_package_is_compiled_with_the_rules(package: str) -> None:
    compiled = {native.module_name(path) for path in native.compiled_source_files()}
    sources = (Path(webhook.rules.__path__[0]) / package).glob("*.py")
    modules = {native.module_name(path) for path in sources if path.name != "__init__.py"}
    assert modules - compiled == set(), f'add "webhook/rules/{package}/*.py" to webhook/native.py'


def test_the_rules_package_and_a_version_package_import_no_rule_module() -> None:
    # A fresh interpreter: what `import webhook.rules.v1alpha2` loads, and nothing else.
    code = (
        "import json, sys, webhook.rules, webhook.rules.v1alpha2; "
        "print(json.dumps(sorted(name for name in sys.modules if name.startswith('webhook.rules'))))"
    )
    loaded = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT_DIR
    ).stdout
    assert json.loads(loaded) == [
        "webhook.rules",
        "webhook.rules.kinds",
        "webhook.rules.v1alpha2",
    ]


# --- what the readers derive from it -------------------------------------------------------------------


def test_every_registered_kind_has_a_schema() -> None:
    checker = StructuralChecker.load()
    missing = [str(gvk) for gvk in REGISTRY if not checker.knows(gvk)]
    assert missing == [], f"add schemas/<group>/<version>/<kind>.json for {missing}"


def test_the_webhook_rules_name_every_registered_kind_and_its_status_subresource() -> None:
    named = registry_resources()
    for gvk, rules in REGISTRY.items():
        assert (gvk.group, gvk.version, rules.resource) in named
        if rules.validate_status_update is not None:
            assert (gvk.group, gvk.version, f"{rules.resource}/status") in named
        else:
            assert (gvk.group, gvk.version, f"{rules.resource}/status") not in named


def test_a_judge_is_not_built_for_a_registered_kind_without_a_schema(tmp_path: Path) -> None:
    schemas = tmp_path / "schemas"
    shutil.copytree(default_schema_directory(), schemas)
    (schemas / GROUP / "v1alpha2" / "resourceslice.json").unlink()
    with pytest.raises(SchemaError) as refused:
        dataclasses.replace(Judge.build(), structural=StructuralChecker.load(schemas))
    assert str(refused.value) == (
        "the registry serves kinds without a schema: resource.k8s.io/v1alpha2, Kind=ResourceSlice "
        "(schemas/resource.k8s.io/v1alpha2/resourceslice.json)"
    )


def version_rows(document: str) -> set[tuple[str, str]]:
    """(apiVersion, release) of each row of a Markdown table whose rows start
    ``| `resource.k8s.io/v1` | Kubernetes 1.37``: an apiVersion with kinds of two releases has two rows."""
    text = (ROOT_DIR / document).read_text()
    return set(re.findall(r"^\| `(resource\.k8s\.io/\w+)` \| Kubernetes (1\.\d+)\b", text, re.MULTILINE))


def test_the_version_table_of_docs_versions_md_says_what_the_registry_binds() -> None:
    rows = version_rows("docs/versions.md")
    contract = {(f"{GROUP}/{version}", release) for version, release in RELEASE_OF_VERSION.items()}
    contract |= {(f"{GROUP}/{version}", release) for (version, _), release in RELEASE_OF_KIND.items()}
    assert rows == contract
    for api_version, release in REGISTRY.version_table():
        assert (api_version, release.version) in rows


def test_the_version_table_of_the_readme_lists_exactly_the_registered_api_versions() -> None:
    assert version_rows("README.md") == {
        (api_version, release.version) for api_version, release in REGISTRY.version_table()
    }


def test_the_command_line_names_each_api_version_and_its_release(capsys: pytest.CaptureFixture[str]) -> None:
    from webhook.cli import main

    with pytest.raises(SystemExit):
        main(["--help"])
    help_text = " ".join(capsys.readouterr().out.split())
    assert "judges resource.k8s.io/v1alpha2 as Kubernetes 1.30 does" in help_text
    assert "resource.k8s.io/v1 as Kubernetes 1.37 does" in help_text
    # An apiVersion judged as two releases says which kinds the second one covers.
    assert "resource.k8s.io/v1alpha3 as Kubernetes 1.31 does" in help_text
    assert (
        "resource.k8s.io/v1alpha3 (DeviceTaintRule, ResourcePoolStatusRequest) as Kubernetes 1.37 does"
        in help_text
    )


# --- a second version, registered in a test ---------------------------------------------------------------
#
# A fake version package: resource.k8s.io/v1alpha9 with one kind, ResourceClaim (and its status
# subresource), judged as a release that does not exist, 1.99. Its rule: spec.devices is required.

FAKE_RELEASE = Release(version="1.99")
FAKE_CLAIM = GroupVersionKind(GROUP, "v1alpha9", "ResourceClaim")


def validate_fake_claim(obj: Obj, old: Obj | None = None) -> ErrorList:
    spec = obj.get("spec") or {}
    return [] if spec.get("devices") else [required(ROOT.child("spec").child("devices"))]


FAKE_KINDS = (
    KindRules(
        FAKE_CLAIM,
        "resourceclaims",
        True,
        validate_fake_claim,
        validate_fake_claim,
        validate_status_update=validate_fake_claim,
    ),
)
TWO_VERSIONS = KindRegistry([*REGISTRY.entries, ServedKinds(FAKE_RELEASE, FAKE_KINDS)])


@pytest.fixture(scope="module")
def two_version_schemas(tmp_path_factory: pytest.TempPathFactory) -> StructuralChecker:
    """The schemas with the fake version's: v1alpha2's ResourceClaim schema renamed."""
    schemas = tmp_path_factory.mktemp("schemas")
    shutil.copytree(default_schema_directory() / GROUP, schemas / GROUP)
    document = (schemas / GROUP / "v1alpha2" / "resourceclaim.json").read_text()
    (schemas / GROUP / "v1alpha9").mkdir()
    (schemas / GROUP / "v1alpha9" / "resourceclaim.json").write_text(
        document.replace('"version": "v1alpha2"', '"version": "v1alpha9"').replace(
            '"resource.k8s.io/v1alpha2"', '"resource.k8s.io/v1alpha9"'
        )
    )
    return StructuralChecker.load(schemas)


def two_version_judge(checker: StructuralChecker | None, policy: PolicySettings | None = None) -> Judge:
    """A judge of both versions; `checker` None: with the structural check off."""
    policy = policy or PolicySettings()
    return dataclasses.replace(
        Judge.build(dataclasses.replace(policy, structural_check=False)),
        structural=checker,
        registry=TWO_VERSIONS,
    )


def fake_claim(name: str = "claim", **spec: Any) -> dict[str, Any]:
    return {
        "apiVersion": "resource.k8s.io/v1alpha9",
        "kind": "ResourceClaim",
        "metadata": {"name": name, "namespace": "default"},
        "spec": spec,
    }


def fake_review(obj: dict[str, Any], **fields: Any) -> dict[str, Any]:
    return admission_review(obj, kind="ResourceClaim", version="v1alpha9", **fields)


def bad_v1alpha2_claim() -> dict[str, Any]:
    return resource_claim(allocationMode="Sometimes")


def test_a_second_version_is_served_beside_the_first() -> None:
    assert list(TWO_VERSIONS.kinds_by_group_version()) == [
        *REGISTRY.kinds_by_group_version(),
        (GROUP, "v1alpha9"),
    ]
    assert TWO_VERSIONS.kinds_by_group_version()[GROUP, "v1alpha9"] == FAKE_KINDS
    assert TWO_VERSIONS.version_table()[-1] == ("resource.k8s.io/v1alpha9", FAKE_RELEASE)
    assert TWO_VERSIONS.release_of(FAKE_CLAIM) is FAKE_RELEASE
    assert TWO_VERSIONS.release_of(RESOURCE_CLAIM.gvk) is KUBERNETES_1_30


def test_a_second_version_is_in_the_webhook_configuration_of_the_releases_that_serve_it() -> None:
    assert [
        rule["resources"] for rule in webhook_rules(TWO_VERSIONS) if rule["apiVersions"] == ["v1alpha9"]
    ] == [["resourceclaims", "resourceclaims/status"]]
    assert registry_resources(TWO_VERSIONS) - registry_resources() == {
        (GROUP, "v1alpha9", "resourceclaims"),
        (GROUP, "v1alpha9", "resourceclaims/status"),
    }
    # A configuration is for the releases of an era (webhook/eras.py): no release serves v1alpha9,
    # so none names it; the era whose release served it would.
    (configuration,) = [
        obj
        for obj in render_objects(registry=TWO_VERSIONS, era=ERAS[0])
        if obj["kind"] == "ValidatingWebhookConfiguration"
    ]
    assert configuration["webhooks"][0]["rules"] == era_rules(ERAS[0], TWO_VERSIONS) == era_rules(ERAS[0])
    assert all(rule["apiVersions"] != ["v1alpha9"] for era in ERAS for rule in era_rules(era, TWO_VERSIONS))


def test_a_second_version_is_judged_by_its_rules_and_names_its_release(
    two_version_schemas: StructuralChecker,
) -> None:
    judge = two_version_judge(two_version_schemas)
    assert judge.judge(parse_review(fake_review(fake_claim(devices={"requests": []}))).request).allowed

    verdict = judge.judge(parse_review(fake_review(fake_claim())).request)
    assert verdict.allowed is False
    assert verdict.release is FAKE_RELEASE
    assert verdict.status is not None
    assert (
        verdict.status["message"]
        == 'ResourceClaim.resource.k8s.io "claim" is invalid: spec.devices: Required value'
    )

    # Its schema is read: a wrong type is denied at its path, before its rules run.
    mistyped = judge.judge(parse_review(fake_review(fake_claim(resourceClassName=1))).request)
    assert mistyped.status is not None
    assert [cause["field"] for cause in mistyped.status["details"]["causes"]] == ["spec.resourceClassName"]

    # The status subresource is registered with it; v1alpha2 is judged as before.
    update = fake_review(fake_claim(), operation="UPDATE", old=fake_claim(), sub_resource="status")
    assert judge.judge(parse_review(update).request).release is FAKE_RELEASE
    old_version = judge.judge(parse_review(admission_review(bad_v1alpha2_claim())).request)
    assert (old_version.allowed, old_version.release) == (False, KUBERNETES_1_30)


def test_a_second_version_is_counted_apart_in_the_metrics() -> None:
    metrics = Metrics(TWO_VERSIONS)
    judge = two_version_judge(None)
    for document in (fake_review(fake_claim()), admission_review(bad_v1alpha2_claim())):
        request = parse_review(document).request
        metrics.observe_review(request, judge.judge(request), 0.001)
    metrics.flush()
    samples = {
        (one.name, frozenset(one.labels.items())): one.value
        for family in metrics.registry.collect()
        for one in family.samples
    }
    for version, field in (("v1alpha9", "spec.devices"), ("v1alpha2", "spec.allocationMode")):
        labels = {"kind": "ResourceClaim", "version": version}
        requests = sample(
            samples,
            "dra_webhook_requests_total",
            **labels,
            operation="CREATE",
            subresource="",
            verdict="denied",
            code="422",
        )
        assert requests == 1, version
        causes = "dra_webhook_denial_causes_total"
        reason = "FieldValueRequired" if version == "v1alpha9" else "FieldValueNotSupported"
        assert sample(samples, causes, **labels, field=field, reason=reason, enforcement="deny") == 1


@pytest.mark.parametrize(
    ("kinds", "fake_verdict", "v1alpha2_verdict"),
    [
        ({"ResourceClaim": "warn"}, True, True),
        ({"ResourceClaim.v1alpha9.resource.k8s.io": "warn"}, True, False),
        ({"ResourceClaim.v1alpha2.resource.k8s.io": "warn"}, False, True),
        ({"ResourceClaim": "warn", "ResourceClaim.v1alpha9.resource.k8s.io": "deny"}, False, True),
    ],
)
def test_enforcement_of_one_kind_is_set_per_api_version(
    kinds: dict[str, str], fake_verdict: bool, v1alpha2_verdict: bool
) -> None:
    content = orjson.dumps({"enforcement": {"kinds": kinds}})
    policy = parse_config(content, base=PolicySettings(), known_kinds=set(TWO_VERSIONS))
    judge = two_version_judge(None, policy)
    fake = judge.judge(parse_review(fake_review(fake_claim())).request)
    old_version = judge.judge(parse_review(admission_review(bad_v1alpha2_claim())).request)
    assert (fake.allowed, old_version.allowed) == (fake_verdict, v1alpha2_verdict)
    assert fake.errors and old_version.errors  # warned or denied, the errors are the same


def test_a_second_version_unknown_to_the_registry_is_refused_in_the_configuration() -> None:
    with pytest.raises(ValueError, match=re.escape("'ResourceClaim.v1alpha9.resource.k8s.io' is not a kind")):
        parse_config(
            "enforcement: {kinds: {ResourceClaim.v1alpha9.resource.k8s.io: warn}}\n",
            base=PolicySettings(),
            known_kinds=set(REGISTRY),
        )


def test_the_decision_log_names_the_release_of_each_version(caplog: pytest.LogCaptureFixture) -> None:
    judge = two_version_judge(None)
    with caplog.at_level(logging.INFO, logger="webhook.decision"):
        for document in (fake_review(fake_claim()), admission_review(bad_v1alpha2_claim())):
            request = parse_review(document).request
            log_decision(request, judge.judge(request))
    assert [(record.apiVersion, record.release) for record in caplog.records] == [  # type: ignore[attr-defined]
        ("resource.k8s.io/v1alpha9", "1.99"),
        ("resource.k8s.io/v1alpha2", "1.30"),
    ]


def test_offline_results_name_the_api_version_and_release_of_each_object(
    two_version_schemas: StructuralChecker,
) -> None:
    manifests = ManifestJudge(two_version_judge(two_version_schemas), ValidateOptions())
    content = orjson.dumps(fake_claim()) + b"\n" + orjson.dumps(bad_v1alpha2_claim())
    results = manifests.judge_content("two.json", content)
    assert [
        (result.status, result.as_json().get("apiVersion"), result.as_json().get("release"))
        for result in results
    ] == [
        ("invalid", "resource.k8s.io/v1alpha9", "1.99"),
        ("invalid", "resource.k8s.io/v1alpha2", "1.30"),
    ]

    reviews = ReviewJudge(two_version_judge(two_version_schemas))
    judged = reviews.judge_review("r.json", 1, "r", fake_review(fake_claim()))
    assert (judged.api_version, judged.release) == ("resource.k8s.io/v1alpha9", FAKE_RELEASE)
    assert api_version_of(FAKE_CLAIM) == "resource.k8s.io/v1alpha9"


def test_a_release_crosses_processes_as_the_same_constant() -> None:
    # `validate --jobs` sends results, and the release each object was judged as, between processes.
    for release in RELEASES:
        assert pickle.loads(pickle.dumps(release)) is release
