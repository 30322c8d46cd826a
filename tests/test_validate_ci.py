"""`dra-webhook validate` as a CI relies on it: nothing skipped in silence, strict like
kubectl, what the API server fills in, the server's policy, and a repository pointed at as a whole.

Kinds the webhook does not judge are picked from the registry as it is (`unjudged_kind`), so that these
tests hold whichever versions are registered.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from webhook.cli import main
from webhook.registry import REGISTRY
from webhook.rules.kinds import GroupVersionKind
from webhook.served import SERVED_KINDS, ServedKind

JUDGED_AS_1_30 = " (resource.k8s.io/v1alpha2, judged as Kubernetes 1.30)"
CLAIM = "apiVersion: resource.k8s.io/v1alpha2\nkind: ResourceClaim\n"
BAD_MODE = (
    'ResourceClaim.resource.k8s.io "broken" is invalid: spec.allocationMode: Unsupported value: '
    '"Sometimes": supported values: "Immediate", "WaitForFirstConsumer"'
)


def unjudged_kind() -> ServedKind:
    """A kind some release serves and the registry does not judge."""
    for served in reversed(SERVED_KINDS):
        if GroupVersionKind("resource.k8s.io", served.version, served.kind) not in REGISTRY:
            return served
    pytest.skip("the registry judges every served kind")


def unjudged_manifest(name: str = "x") -> tuple[ServedKind, str]:
    served = unjudged_kind()
    return (
        served,
        f"apiVersion: resource.k8s.io/{served.version}\nkind: {served.kind}\nmetadata: {{name: {name}}}\n",
    )


def validate(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(["validate", *argv])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def write(directory: Path, name: str, text: str) -> Path:
    path = directory / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return path


def results(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, list[dict[str, Any]]]:
    code, out, _ = validate(["-o", "json", *argv], capsys)
    return code, json.loads(out)["results"]


# --- a kind or apiVersion that does not exist: kubectl's "no matches for kind" --------------------------


@pytest.mark.parametrize(
    ("api_version", "kind", "hint"),
    [
        (
            "resource.k8s.io/v1alpha2",
            "ResourceClaims",
            "resource.k8s.io/v1alpha2 has ResourceClass, ResourceClaim, ResourceClaimTemplate, "
            "PodSchedulingContext (Kubernetes 1.27 to 1.30) and ResourceSlice, ResourceClaimParameters, "
            "ResourceClassParameters (Kubernetes 1.30)",
        ),
        (
            "resource.k8s.io/v1alpha",
            "ResourceClaim",
            "resource.k8s.io has v1alpha2, v1alpha3, v1beta1, v1beta2, v1 (Kubernetes 1.27 to 1.37); "
            "ResourceClaim is in v1alpha2, v1alpha3, v1beta1, v1beta2, v1",
        ),
        (  # Kubernetes 1.26's version: no release from 1.27 on serves it
            "resource.k8s.io/v1alpha1",
            "ResourceClass",
            "resource.k8s.io has v1alpha2, v1alpha3, v1beta1, v1beta2, v1 (Kubernetes 1.27 to 1.37); "
            "ResourceClass is in v1alpha2",
        ),
        (  # a group with no version
            "resource.k8s.io",
            "ResourceClaim",
            "resource.k8s.io has v1alpha2, v1alpha3, v1beta1, v1beta2, v1 (Kubernetes 1.27 to 1.37); "
            "ResourceClaim is in v1alpha2, v1alpha3, v1beta1, v1beta2, v1",
        ),
    ],
)
def test_a_kind_or_api_version_no_release_serves_fails_as_kubectl_fails_it(
    api_version: str, kind: str, hint: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    manifest = write(
        tmp_path, "typo.yaml", f"apiVersion: {api_version}\nkind: {kind}\nmetadata: {{name: gpu}}\n"
    )
    code, out, _ = validate([str(manifest)], capsys)
    assert code == 1
    assert (
        out == f'{manifest}: {kind} gpu: no matches for kind "{kind}" in version "{api_version}" ({hint})\n'
    )


def test_no_matches_for_kind_whatever_the_unknown_kind_policy(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # kubectl refuses before the API server is asked: no policy of the webhook applies.
    manifest = write(tmp_path, "typo.yaml", f"{CLAIM.replace('Claim', 'Claims')}metadata: {{name: gpu}}\n")
    code, found = results(["--ignore-missing-schemas", "--unknown-kind", "allow", str(manifest)], capsys)
    assert code == 1
    assert [(result["status"], result["message"]) for result in found] == [
        ("invalid", 'no matches for kind "ResourceClaims" in version "resource.k8s.io/v1alpha2"')
    ]


# --- a served kind the webhook does not judge ----------------------------------------------------------


def test_a_served_kind_not_judged_fails_the_run_saying_so(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    served, text = unjudged_manifest()
    manifest = write(tmp_path, "unjudged.yaml", text)
    code, out, _ = validate(["--summary", str(manifest)], capsys)
    assert code == 1
    assert out.splitlines() == [
        f"{manifest}: {served.kind} x: resource.k8s.io/{served.version}, Kind={served.kind} ({served.releases}) "
        "is not validated by dra-webhook (--ignore-missing-schemas accepts it, --skip-kinds leaves the kind out)",
        "Summary: 1 object in 1 file: 0 valid, 0 invalid, 1 not validated, 0 skipped, 0 errors",
    ]


def test_ignore_missing_schemas_skips_a_served_kind_not_judged(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    served, text = unjudged_manifest()
    manifest = write(tmp_path, "unjudged.yaml", text)
    code, out, _ = validate(["--ignore-missing-schemas", "-v", str(manifest)], capsys)
    assert code == 0
    assert out == (
        f"{manifest}: {served.kind} x skipped: resource.k8s.io/{served.version}, Kind={served.kind} "
        f"({served.releases}) is not validated by dra-webhook (--ignore-missing-schemas)\n"
    )


def test_the_unknown_kind_policy_deny_fails_a_kind_not_judged_as_the_server_denies_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    served, text = unjudged_manifest()
    manifest = write(tmp_path, "unjudged.yaml", text)
    code, found = results(["--unknown-kind", "deny", "--ignore-missing-schemas", str(manifest)], capsys)
    assert code == 1
    assert [(result["status"], result["message"]) for result in found] == [
        (
            "invalid",
            f"dra-webhook does not validate resource.k8s.io/{served.version}, Kind={served.kind} and its "
            "unknown-kind policy is deny",
        )
    ]


@pytest.mark.parametrize("skip", ["{kind}", "resource.k8s.io/{version}/{kind}", "Deployment,{kind}"])
def test_skip_kinds_leaves_a_kind_out(skip: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    served, text = unjudged_manifest()
    manifest = write(tmp_path, "unjudged.yaml", text)
    code, found = results(
        ["--skip-kinds", skip.format(kind=served.kind, version=served.version), str(manifest)], capsys
    )
    assert code == 0
    assert [(result["status"], result["message"]) for result in found] == [
        ("skipped", f"resource.k8s.io/{served.version}/{served.kind} is in --skip-kinds")
    ]


# --- strict like kubectl: unknown and duplicate fields ---------------------------------------------------

TYPO = f"{CLAIM}metadata: {{name: gpu}}\nspec: {{resourceClassName: gpu.example.com, alocationMode: Immediate}}\n"
TWICE = f"{CLAIM}metadata: {{name: gpu}}\nspec:\n  resourceClassName: a.example.com\n  resourceClassName: gpu.example.com\n"


@pytest.mark.parametrize("flags", [[], ["--validate=strict"], ["--validate", "true"], ["--strict"]])
def test_an_unknown_field_fails_with_the_api_servers_strict_decoding_error(
    flags: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    manifest = write(tmp_path, "typo.yaml", TYPO)
    code, out, _ = validate([*flags, str(manifest)], capsys)
    assert code == 1
    # kubectl: Error from server (BadRequest): error when creating "typo.yaml": <this message>
    assert out == (
        f'{manifest}: ResourceClaim default/gpu: ResourceClaim in version "v1alpha2" cannot be handled as a '
        f'ResourceClaim: strict decoding error: unknown field "spec.alocationMode"{JUDGED_AS_1_30}\n'
    )


def test_a_duplicate_field_fails_strict_decoding_too(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    manifest = write(tmp_path, "twice.yaml", TWICE)
    code, found = results([str(manifest)], capsys)
    assert code == 1
    assert found[0]["message"] == (
        'ResourceClaim in version "v1alpha2" cannot be handled as a ResourceClaim: strict decoding error: '
        'duplicate field "spec.resourceClassName"'
    )


def test_every_unknown_and_duplicate_field_is_in_one_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    manifest = write(
        tmp_path,
        "both.json",
        json.dumps({"apiVersion": "resource.k8s.io/v1alpha2"})[:-1]
        + ', "kind": "ResourceClaim", "kind": "ResourceClaim", "metadata": {"name": "gpu", "colour": 1},'
        ' "spec": {"resourceClassName": "gpu.example.com", "size": 2}}',
    )
    code, found = results([str(manifest)], capsys)
    assert code == 1
    assert found[0]["message"].endswith(
        'strict decoding error: unknown field "metadata.colour", unknown field "spec.size", duplicate field "kind"'
    )


def test_warn_makes_unknown_and_duplicate_fields_warnings(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    typo, twice = write(tmp_path, "a-typo.yaml", TYPO), write(tmp_path, "b-twice.yaml", TWICE)
    code, out, _ = validate(["--validate=warn", str(tmp_path)], capsys)
    assert code == 0
    assert out.splitlines() == [
        f'{typo}: ResourceClaim default/gpu: Warning: unknown field "spec.alocationMode"',
        f'{twice}: ResourceClaim default/gpu: Warning: duplicate field "spec.resourceClassName"',
    ]


@pytest.mark.parametrize("mode", ["ignore", "false"])
def test_ignore_drops_unknown_and_duplicate_fields(
    mode: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    write(tmp_path, "a-typo.yaml", TYPO)
    write(tmp_path, "b-twice.yaml", TWICE)
    assert validate([f"--validate={mode}", str(tmp_path)], capsys)[:2] == (0, "")


def test_a_type_error_is_answered_by_the_webhook_not_by_strict_decoding(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Go reports strict errors only when the body otherwise decodes.
    manifest = write(
        tmp_path, "types.yaml", f"{CLAIM}metadata: {{name: gpu}}\nspec: {{resourceClassName: 3, extra: 1}}\n"
    )
    code, found = results([str(manifest)], capsys)
    assert code == 1
    assert [cause["reason"] for cause in found[0]["causes"]] == ["FieldValueTypeInvalid"]
    assert found[0]["warnings"] == ['unknown field "spec.extra"']


def test_a_bad_validate_value_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["validate", "--validate=loose", "x.yaml"])
    assert exit_info.value.code == 2
    assert "must be one of strict (or true), warn, ignore (or false)" in capsys.readouterr().err


# --- what the API server fills in before validation -------------------------------------------------------


def test_generate_name_gets_a_name_before_validation(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    manifest = write(
        tmp_path,
        "generated.yaml",
        f"{CLAIM}metadata: {{generateName: gpu-}}\nspec: {{resourceClassName: gpu.example.com}}\n",
    )
    code, out, _ = validate(["-v", str(manifest)], capsys)
    assert code == 0
    assert out == f'{manifest}: ResourceClaim.resource.k8s.io "gpu-xxxxx" is valid{JUDGED_AS_1_30}\n'


def test_a_generated_name_is_cut_as_the_api_server_cuts_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    manifest = write(
        tmp_path,
        "long.yaml",
        f"{CLAIM}metadata: {{generateName: {'a' * 70}}}\nspec: {{resourceClassName: gpu.example.com}}\n",
    )
    code, found = results([str(manifest)], capsys)
    assert (code, found[0]["name"]) == (0, "a" * 58 + "xxxxx")


def test_a_manifest_without_metadata_gets_only_the_name_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    manifest = write(tmp_path, "bare.yaml", f"{CLAIM}spec: {{resourceClassName: gpu.example.com}}\n")
    code, out, _ = validate([str(manifest)], capsys)
    assert code == 1
    assert out == (
        f'{manifest}: ResourceClaim.resource.k8s.io "" is invalid: metadata.name: Required value: name or '
        f"generateName is required{JUDGED_AS_1_30}\n"
    )


# --- the server's policy, offline ----------------------------------------------------------------------------

BROKEN = f"{CLAIM}metadata: {{name: broken}}\nspec: {{resourceClassName: gpu.example.com, allocationMode: Sometimes}}\n"


@pytest.mark.parametrize(
    "config",
    [
        "enforcement: {default: warn}\n",
        "enforcement: {kinds: {ResourceClaim: warn}}\n",
        "enforcement: {kinds: {ResourceClaim.v1alpha2.resource.k8s.io: warn}}\n",
    ],
)
def test_enforcement_warn_in_the_configuration_file_allows_with_the_errors_as_warnings(
    config: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    manifest = write(tmp_path, "broken.yaml", BROKEN)
    config_file = write(tmp_path, "config.yaml", config)
    code, out, _ = validate(["--config", str(config_file), str(manifest)], capsys)
    assert code == 0
    assert out == (
        f"{manifest}: ResourceClaim default/broken: Warning: ResourceClaim 'broken' would be denied: "
        'spec.allocationMode: Unsupported value: "Sometimes": supported values: "Immediate", '
        '"WaitForFirstConsumer"\n'
    )
    found = json.loads(validate(["-o", "json", "--config", str(config_file), str(manifest)], capsys)[1])
    assert found["results"][0]["enforcement"] == "warn"
    assert found["results"][0]["causes"][0]["field"] == "spec.allocationMode"


def test_enforcement_of_another_kind_leaves_this_one_denied(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    manifest = write(tmp_path, "broken.yaml", BROKEN)
    config_file = write(tmp_path, "config.yaml", "enforcement: {kinds: {ResourceClaimTemplate: warn}}\n")
    code, out, _ = validate(["--config", str(config_file), str(manifest)], capsys)
    assert (code, out) == (1, f"{manifest}: {BAD_MODE}{JUDGED_AS_1_30}\n")


def test_the_unknown_kind_policy_of_the_configuration_file_applies(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _, text = unjudged_manifest()
    manifest = write(tmp_path, "unjudged.yaml", text)
    config_file = write(tmp_path, "config.yaml", "unknownKind: deny\n")
    code, found = results(["--config", str(config_file), "--ignore-missing-schemas", str(manifest)], capsys)
    assert code == 1 and found[0]["status"] == "invalid"


def test_the_namespace_rules_apply_and_can_be_switched_off(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    manifest = write(
        tmp_path,
        "class.yaml",
        "apiVersion: resource.k8s.io/v1alpha2\nkind: ResourceClass\nmetadata: {name: gpu}\n"
        "driverName: driver.example.com\nparametersRef: {kind: ConfigMap, name: params}\n",
    )
    code, found = results([str(manifest)], capsys)
    assert code == 1
    assert [cause["field"] for cause in found[0]["causes"]] == ["parametersRef.namespace"]
    assert validate(["--no-namespace-rules", str(manifest)], capsys)[:2] == (0, "")


# --- a repository pointed at as a whole --------------------------------------------------------------------


def repository(root: Path) -> Path:
    """A repository as a user has one: CI workflows, a Helm chart, plain manifests, docs."""
    write(root, ".github/workflows/ci.yaml", "on: push\njobs: {test: {runs-on: ubuntu-latest}}\n")
    write(root, "ci/pipeline.yml", "stages: [test]\ntest: {script: make test}\n")
    write(root, "playbook.yaml", "- hosts: all\n  tasks: []\n")
    write(root, "charts/gpu/Chart.yaml", "apiVersion: v2\nname: gpu\nversion: 0.1.0\n")
    write(root, "charts/gpu/values.yaml", "image: {repository: gpu, tag: v1}\nreplicas: 2\n")
    write(
        root,
        "charts/gpu/templates/claim.yaml",
        "apiVersion: resource.k8s.io/v1alpha2\nkind: ResourceClaim\nmetadata:\n  name: {{ .Values.name }}\n",
    )
    write(
        root,
        "charts/gpu/templates/service.yaml",
        "apiVersion: v1\nkind: Service\nmetadata: {name: {{ .Release.Name }}}\n",
    )
    write(
        root,
        "deploy/claim.yaml",
        f"{CLAIM}metadata: {{name: gpu}}\nspec: {{resourceClassName: gpu.example.com}}\n",
    )
    write(root, "deploy/app.yaml", "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\nspec: {}\n")
    write(root, "mkdocs.yml", "site_name: docs\n")
    return root


def test_a_repository_fails_only_for_its_dra_objects_saying_why(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = repository(tmp_path)
    code, out, _ = validate(["--summary", str(root)], capsys)
    assert code == 1  # the chart's template holds a ResourceClaim that is not validated
    assert out.splitlines() == [
        f"{root}/charts/gpu/templates/claim.yaml:4: a template ({{{{ ... }}}}), not a manifest: "
        "its resource.k8s.io objects are not validated (render it first, e.g. helm template CHART | "
        "dra-webhook validate -, or leave it out with --exclude)",
        "Summary: 9 objects in 9 files: 1 valid, 0 invalid, 1 not validated, 7 skipped, 0 errors",
    ]


def test_excluding_the_templates_leaves_a_green_run(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = repository(tmp_path)
    code, out, _ = validate(["--exclude", "templates", "-v", str(root)], capsys)
    assert code == 0
    assert out.splitlines() == [  # a directory's files, then its directories, each in name order
        f"{root}/mkdocs.yml:1: skipped: not a Kubernetes object (no apiVersion, no kind)",
        f"{root}/playbook.yaml:1: skipped: a list, not a Kubernetes object",
        f"{root}/charts/gpu/Chart.yaml:1: skipped: not a Kubernetes object (no kind)",
        f"{root}/charts/gpu/values.yaml:1: skipped: not a Kubernetes object (no apiVersion, no kind)",
        f"{root}/ci/pipeline.yml:1: skipped: not a Kubernetes object (no apiVersion, no kind)",
        f"{root}/deploy/app.yaml: Deployment web skipped: apps/v1, Kind=Deployment is not a "
        "resource.k8s.io object",
        f'{root}/deploy/claim.yaml: ResourceClaim.resource.k8s.io "gpu" is valid{JUDGED_AS_1_30}',
    ]


@pytest.mark.parametrize(
    ("pattern", "left"),
    [
        ("charts/*/templates", ["charts/gpu/templates/claim.yaml", "charts/gpu/templates/service.yaml"]),
        ("*.yml", ["ci/pipeline.yml", "mkdocs.yml"]),
        ("deploy/claim.yaml", ["deploy/claim.yaml"]),
        (
            "charts",
            [
                name
                for name in (
                    "charts/gpu/Chart.yaml",
                    "charts/gpu/values.yaml",
                    "charts/gpu/templates/claim.yaml",
                    "charts/gpu/templates/service.yaml",
                )
            ],
        ),
    ],
)
def test_exclude_leaves_out_matching_files_and_directories(
    pattern: str, left: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = repository(tmp_path)
    _, everything = results([str(root)], capsys)
    _, some = results(["--exclude", pattern, str(root)], capsys)
    read = {str(Path(result["source"]).relative_to(root)) for result in everything}
    assert read - {str(Path(result["source"]).relative_to(root)) for result in some} == set(left)


def test_include_replaces_the_suffixes_of_a_walk(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = repository(tmp_path)
    write(
        root,
        "deploy/claim.manifest",
        f"{CLAIM}metadata: {{name: other}}\nspec: {{resourceClassName: gpu.example.com}}\n",
    )
    _, found = results(["--include", "deploy/*", str(root)], capsys)
    assert sorted(Path(result["source"]).name for result in found) == [
        "app.yaml",
        "claim.manifest",
        "claim.yaml",
    ]


def test_exclude_applies_to_files_named_on_the_command_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = repository(tmp_path)
    named = [str(root / "deploy" / "claim.yaml"), str(root / "charts" / "gpu" / "templates" / "claim.yaml")]
    code, found = results(["--exclude", "templates", *named], capsys)
    assert (code, [result["name"] for result in found]) == (0, ["gpu"])


def test_a_template_without_the_group_is_skipped_with_the_way_to_check_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = repository(tmp_path)
    code, out, _ = validate(["-v", str(root / "charts" / "gpu" / "templates" / "service.yaml")], capsys)
    assert code == 0
    assert out == (
        f"{root}/charts/gpu/templates/service.yaml:3: skipped: a template ({{{{ ... }}}}), not a "
        "manifest; render it first, e.g. helm template CHART | dra-webhook validate -\n"
    )


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("kind: ResourceClaim\nmetadata: {name: gpu}\n", "apiVersion not set"),
        ("apiVersion: resource.k8s.io/v1alpha2\nmetadata: {name: gpu}\n", "kind not set"),
    ],
)
def test_a_dra_object_missing_its_kind_or_api_version_is_invalid(
    text: str, message: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    manifest = write(tmp_path, "half.yaml", text)
    code, found = results([str(manifest)], capsys)
    assert (code, found[0]["status"], found[0]["message"]) == (1, "invalid", message)


def test_a_syntax_error_is_still_unreadable_input(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = repository(tmp_path)
    write(root, "deploy/broken.yaml", "a: b: c\n")
    code, out, _ = validate([str(root / "deploy")], capsys)
    assert code == 2
    assert (
        out
        == f"{root}/deploy/broken.yaml:1:5: invalid YAML: mapping values are not allowed in this context\n"
    )


def test_exclude_applies_to_directories_named_on_the_command_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = repository(tmp_path)
    code, out, _ = validate(
        ["--exclude", "charts", "--summary", str(root / "charts"), str(root / "deploy")], capsys
    )
    assert (code, out) == (
        0,
        "Summary: 2 objects in 2 files: 1 valid, 0 invalid, 0 not validated, 1 skipped, 0 errors\n",
    )
