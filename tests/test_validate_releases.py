"""`dra-webhook validate --kubernetes-version X.Y`: manifests judged as a cluster of release X.Y would
take them (webhook/offline/releases.py, webhook/eras.py); without the flag nothing changes."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import yaml

from tests.test_eras import EVERY_VERSION
from webhook.cli import main
from webhook.offline.releases import release_verdict
from webhook.rules.kinds import GroupVersionKind

GROUP = "resource.k8s.io"


def claim(version: str = "v1alpha2") -> dict[str, Any]:
    return {
        "apiVersion": f"{GROUP}/{version}",
        "kind": "ResourceClaim",
        "metadata": {"name": "gpu", "namespace": "default"},
        "spec": {"resourceClassName": "gpu.example.com"},
    }


def slice_v1alpha2() -> dict[str, Any]:
    return {
        "apiVersion": f"{GROUP}/v1alpha2",
        "kind": "ResourceSlice",
        "metadata": {"name": "s"},
        "nodeName": "worker",
        "driverName": "gpu.example.com",
        "namedResources": {"instances": []},
    }


def validate(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], *flags: str, objects: list[Any]
) -> tuple[int, str, str]:
    manifest = tmp_path / "manifest.yaml"
    manifest.write_text(yaml.safe_dump_all(objects))
    code = main(["validate", "-v", *flags, str(manifest)])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_without_the_flag_each_api_version_is_judged_as_its_own_release(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = validate(tmp_path, capsys, objects=[claim()])
    assert code == 0
    assert out.endswith(
        'ResourceClaim.resource.k8s.io "gpu" is valid (resource.k8s.io/v1alpha2, judged as Kubernetes 1.30)\n'
    )


def test_an_api_version_the_release_does_not_serve_is_invalid_as_kubectl_says_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = validate(tmp_path, capsys, "--kubernetes-version", "1.37", objects=[claim()])
    assert code == 1
    assert out.endswith(
        'manifest.yaml: ResourceClaim default/gpu: no matches for kind "ResourceClaim" in version '
        '"resource.k8s.io/v1alpha2" (Kubernetes 1.37 does not serve it; resource.k8s.io/v1alpha2 ResourceClaim '
        "is served by Kubernetes 1.27-1.30; Kubernetes 1.37 serves ResourceClaim in resource.k8s.io/v1, "
        "resource.k8s.io/v1beta2, resource.k8s.io/v1beta1)\n"
    )


@pytest.mark.parametrize(("version", "code"), [("1.27", 0), ("v1.29.4", 0), ("1.30", 0), ("1.31", 1)])
def test_a_served_api_version_is_judged_as_the_webhook_judges_it_there(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], version: str, code: int
) -> None:
    assert validate(tmp_path, capsys, "--kubernetes-version", version, objects=[claim()])[0] == code


def test_a_kind_is_served_only_by_the_releases_that_have_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = validate(
        tmp_path, capsys, "--kubernetes-version", "1.29", "-o", "json", objects=[slice_v1alpha2()]
    )
    (result,) = json.loads(out)["results"]
    assert (code, result["status"]) == (1, "invalid")
    assert "release" not in result  # not judged
    assert result["message"].startswith(
        'no matches for kind "ResourceSlice" in version "resource.k8s.io/v1alpha2"'
    )
    assert "served by Kubernetes 1.30" in result["message"]
    code, out, _ = validate(
        tmp_path, capsys, "--kubernetes-version", "1.30", "-o", "json", objects=[slice_v1alpha2()]
    )
    (result,) = json.loads(out)["results"]
    assert (result["status"], result["release"]) == ("valid", "1.30")


def test_other_groups_are_skipped_as_without_the_flag(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config_map = {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "x"}}
    code, out, _ = validate(tmp_path, capsys, "--kubernetes-version", "1.37", objects=[config_map])
    assert code == 0
    assert "ConfigMap x skipped: v1, Kind=ConfigMap is not a resource.k8s.io object" in out


@pytest.mark.parametrize(
    ("flag", "complaint"),
    [
        ("1.99", "Kubernetes 1.99 is not a release this build knows: it knows 1.26 to 1.37"),
        ("latest", "'latest' is not a Kubernetes version"),
    ],
)
def test_an_unknown_release_is_a_usage_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], flag: str, complaint: str
) -> None:
    with pytest.raises(SystemExit) as exit_info:
        validate(tmp_path, capsys, "--kubernetes-version", flag, objects=[claim()])
    assert exit_info.value.code == 2
    assert complaint in capsys.readouterr().err


# --- with every version the project judges (a registry of the test's) ----------------------------------


@pytest.mark.parametrize(
    ("release", "version", "kind", "verdict"),
    [
        ("1.33", "v1beta1", "ResourceClaim", None),  # served, judged as 1.37, which stands for 1.33
        ("1.37", "v1alpha3", "DeviceTaintRule", None),
        ("1.31", "v1alpha3", "DeviceClass", None),
        ("1.30", "v1", "ResourceClaim", "invalid"),
        ("1.34", "v1alpha3", "DeviceClass", "invalid"),
        # Served by 1.32, but the webhook's v1alpha3 rules are 1.31's: not validated, which fails the
        # run unless --ignore-missing-schemas, like any served kind the webhook does not judge.
        ("1.32", "v1alpha3", "DeviceClass", "not-validated"),
        ("1.36", "v1alpha3", "ResourcePoolStatusRequest", None),  # served, not registered: as usual
    ],
)
def test_the_verdict_of_a_release(release: str, version: str, kind: str, verdict: str | None) -> None:
    found = release_verdict(GroupVersionKind(GROUP, version, kind), release, EVERY_VERSION)
    assert (found[0] if found else None) == verdict


def test_a_version_whose_rules_are_another_releases_says_which() -> None:
    found = release_verdict(GroupVersionKind(GROUP, "v1alpha3", "DeviceClass"), "1.33", EVERY_VERSION)
    assert found == (
        "not-validated",
        "resource.k8s.io/v1alpha3, Kind=DeviceClass is served by Kubernetes 1.33, but this webhook judges it "
        "only as Kubernetes 1.31 (for Kubernetes 1.31)",
    )
