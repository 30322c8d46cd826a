"""The deployment: manifests/ (kustomize base and overlays), webhook/manifests/, the Dockerfile.

Every rendering is checked the same way: its objects are valid objects of the oldest and the newest
Kubernetes release of its era (the JSON Schemas of `kubernetes-validate`; cert-manager's kinds against
a strict subset of their CRD schema), its webhook configuration names exactly what the webhook judges
on the releases of its era (`webhook.eras`, from the rule registry), and every container passes the
hardening checks a scanner (kube-score, kubesec, Polaris, checkov) would run. The renderings are the
folders of manifests/ (base: the newest era), the base and its overlays with the component of each
older era (manifests/eras), and the Python rendering of every era.

The kustomize renderings come from `kubectl kustomize`. Where kubectl is missing, a small Python
stand-in for kustomize (below; held equal to kubectl wherever kubectl is there) builds them, with a
warning saying so: the checks never pass by skipping.
"""

from __future__ import annotations

import base64
import contextlib
import copy
import io
import ipaddress
import os
import re
import shutil
import ssl
import subprocess
import tomllib
import warnings
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import jsonschema  # type: ignore[import-untyped,unused-ignore]
import kubernetes_validate  # type: ignore[import-untyped,unused-ignore]
import pytest
import yaml
from cryptography import x509
from cryptography.x509 import verification
from kubernetes_validate import utils as kubernetes_validate_utils  # type: ignore[import-untyped,unused-ignore]

from webhook import manifests, tls
from webhook.cli import main
from webhook.eras import ERAS, NEWEST_ERA, Era, era_of, parse_release, webhook_kinds
from webhook.manifests import (
    DEFAULT_IMAGE,
    IMAGE_TAG,
    RUN_AS_ID,
    era_resources,
    generated_files,
    read_ca_bundle,
    registry_resources,
    release_notes,
    render_objects,
    render_yaml,
    rule_resources,
)
from webhook.manifests import objects as manifest_objects
from webhook.registry import REGISTRY

ROOT = Path(__file__).resolve().parent.parent
MANIFESTS = ROOT / "manifests"
KUSTOMIZATIONS = (
    "base",
    "overlays/cert-manager",
    "overlays/sidecar",
    "examples/other-namespace",
    "examples/older-cluster",
)
# The era each committed kustomization is for: the base's (the newest) unless its own kustomization
# adds the component of another.
KUSTOMIZATION_ERA = {folder: NEWEST_ERA for folder in KUSTOMIZATIONS} | {"examples/older-cluster": ERAS[0]}
# The base and its overlays with the component of each older era, in a kustomization of the test's.
ERA_FOLDERS = ("base", "overlays/cert-manager", "overlays/sidecar")
OLDER_ERAS = ERAS[:-1]
ERA_KUSTOMIZATIONS = {
    f"{folder} + eras/{era.name}": (folder, era) for era in OLDER_ERAS for folder in ERA_FOLDERS
}
KUBECTL = shutil.which("kubectl")

Obj = dict[str, Any]

# What the static webhook configuration must name whatever the registry holds at the moment: all
# seven v1alpha2 kinds and the two status subresources (pkg/registry/resource/*/storage in 1.30).
V1ALPHA2_RESOURCES = {
    "podschedulingcontexts",
    "podschedulingcontexts/status",
    "resourceclaimparameters",
    "resourceclaims",
    "resourceclaims/status",
    "resourceclaimtemplates",
    "resourceclasses",
    "resourceclassparameters",
    "resourceslices",
}


# --- renderings -------------------------------------------------------------------------------------


def load_documents(text: str) -> list[Obj]:
    return [document for document in yaml.safe_load_all(text) if document]


def kustomize(folder: str | Path) -> list[Obj]:
    """A folder of manifests/ (by its name there) or any kustomization directory, built."""
    if KUBECTL is not None:
        return kubectl_kustomize(folder)
    warnings.warn(
        f"kubectl not found: {folder} is built by the Python stand-in for kustomize in this file",
        stacklevel=2,
    )
    return build_kustomization(MANIFESTS / folder)


def kubectl_kustomize(folder: str | Path) -> list[Obj]:
    assert KUBECTL is not None
    built = subprocess.run(
        [KUBECTL, "kustomize", str(MANIFESTS / folder)], capture_output=True, text=True, timeout=120
    )
    assert built.returncode == 0, built.stderr
    return load_documents(built.stdout)


def era_kustomization(directory: Path, folder: str, era: Era) -> Path:
    """A kustomization in `directory` that adds the component of `era` to a folder of manifests/, as a
    user's own would (kustomize takes only relative paths)."""
    directory.mkdir(parents=True, exist_ok=True)
    kustomization = {
        "apiVersion": "kustomize.config.k8s.io/v1beta1",
        "kind": "Kustomization",
        "resources": [os.path.relpath(MANIFESTS / folder, directory)],
        "components": [os.path.relpath(MANIFESTS / "eras" / era.name, directory)],
    }
    (directory / "kustomization.yaml").write_text(yaml.safe_dump(kustomization))
    return directory


# A stand-in for `kubectl kustomize`, for machines without kubectl: only the features manifests/
# uses (resources, components, namespace, images, strategic-merge and JSON 6902 patches). Where
# kubectl is present a test holds it equal to kustomize on every folder.
CLUSTER_SCOPED_KINDS = {"Namespace", "ValidatingWebhookConfiguration", "MutatingWebhookConfiguration"}


def build_kustomization(folder: Path) -> list[Obj]:
    kustomization = yaml.safe_load((folder / "kustomization.yaml").read_text())
    objects: list[Obj] = []
    for resource in kustomization.get("resources", []):
        path = folder / resource
        objects += build_kustomization(path) if path.is_dir() else load_documents(path.read_text())
    # A component's patches apply to what the resources made, before the kustomization's own.
    for component in kustomization.get("components", []):
        component_kustomization = yaml.safe_load((folder / component / "kustomization.yaml").read_text())
        assert component_kustomization["kind"] == "Component"
        for patch in component_kustomization.get("patches", []):
            objects = apply_patch(objects, yaml.safe_load(patch["patch"]), patch.get("target"))
    for patch in kustomization.get("patches", []):
        objects = apply_patch(objects, yaml.safe_load(patch["patch"]), patch.get("target"))
    if "namespace" in kustomization:
        move_to_namespace(objects, kustomization["namespace"])
    for image in kustomization.get("images", []):
        retag_image(objects, image)
    return objects


def apply_patch(objects: list[Obj], patch: Any, target: Mapping[str, str] | None) -> list[Obj]:
    if isinstance(patch, list):  # JSON 6902 operations on every object the target selects
        assert target is not None
        for obj in objects:
            if obj["kind"] == target["kind"] and obj["metadata"]["name"] == target["name"]:
                for operation in patch:
                    apply_json_patch_operation(obj, operation)
        return objects
    identity = (patch["kind"], patch["metadata"]["name"])
    matched = [obj for obj in objects if (obj["kind"], obj["metadata"]["name"]) == identity]
    assert len(matched) == 1, f"strategic merge patch for {identity} matches {len(matched)} objects"
    if patch.get("$patch") == "delete":
        return [obj for obj in objects if obj is not matched[0]]
    merge_maps(matched[0], patch)
    return objects


def merge_maps(into: dict[str, Any], patch: Mapping[str, Any]) -> None:
    for key, value in patch.items():
        if isinstance(value, Mapping) and isinstance(into.get(key), dict):
            merge_maps(into[key], value)
        else:
            into[key] = value


def apply_json_patch_operation(obj: Obj, operation: Mapping[str, Any]) -> None:
    *parents, last = [part.replace("~1", "/").replace("~0", "~") for part in operation["path"].split("/")[1:]]
    container: Any = obj
    for part in parents:
        container = container[int(part)] if isinstance(container, list) else container[part]
    key: Any = int(last) if isinstance(container, list) and last != "-" else last
    if operation["op"] == "remove":
        del container[key]
    elif operation["op"] == "add" and isinstance(container, list):
        container.insert(len(container) if key == "-" else key, operation["value"])
    elif operation["op"] in ("add", "replace"):
        assert operation["op"] == "add" or (key in container if isinstance(container, dict) else True)
        container[key] = operation["value"]
    else:
        raise AssertionError(f"unsupported JSON patch operation {operation}")


def move_to_namespace(objects: list[Obj], namespace: str) -> None:
    for obj in objects:
        if obj["kind"] == "Namespace":
            obj["metadata"]["name"] = namespace
        elif obj["kind"] not in CLUSTER_SCOPED_KINDS:
            obj["metadata"]["namespace"] = namespace
        for webhook in obj.get("webhooks", []) if obj["kind"] in CLUSTER_SCOPED_KINDS else []:
            if "service" in webhook.get("clientConfig", {}):
                webhook["clientConfig"]["service"]["namespace"] = namespace


def retag_image(objects: list[Obj], image: Mapping[str, str]) -> None:
    for _, pod in pod_specs(objects):
        for container in containers(pod):
            name, _, tag = container["image"].partition(":")
            if name == image["name"]:
                container["image"] = f"{image.get('newName', name)}:{image.get('newTag', tag)}"


@pytest.mark.parametrize("folder", KUSTOMIZATIONS)
def test_the_kustomize_stand_in_builds_what_kubectl_builds(folder: str) -> None:
    if KUBECTL is None:
        pytest.skip("kubectl not found: the stand-in cannot be compared with kustomize on this machine")
    assert by_identity(build_kustomization(MANIFESTS / folder)) == by_identity(kubectl_kustomize(folder))


@pytest.mark.parametrize("name", ERA_KUSTOMIZATIONS)
def test_the_kustomize_stand_in_adds_an_era_component_as_kubectl_does(name: str, tmp_path: Path) -> None:
    if KUBECTL is None:
        pytest.skip("kubectl not found: the stand-in cannot be compared with kustomize on this machine")
    directory = era_kustomization(tmp_path / "era", *ERA_KUSTOMIZATIONS[name])
    assert by_identity(build_kustomization(directory)) == by_identity(kubectl_kustomize(directory))


@pytest.fixture(scope="module")
def certificate_authority() -> tls.IssuedCertificate:
    return tls.issue_ca()


@pytest.fixture(scope="module")
def renderings(
    certificate_authority: tls.IssuedCertificate, tmp_path_factory: pytest.TempPathFactory
) -> dict[str, list[Obj]]:
    rendered = {folder: kustomize(folder) for folder in KUSTOMIZATIONS}
    eras = tmp_path_factory.mktemp("eras")
    for index, (name, (folder, era)) in enumerate(ERA_KUSTOMIZATIONS.items()):
        rendered[name] = kustomize(era_kustomization(eras / str(index), folder, era))
    rendered["python"] = render_objects()
    rendered["python (team-a, caBundle)"] = render_objects(
        namespace="team-a",
        service="validator",
        image="registry.example:5000/dra-webhook@sha256:" + "0" * 64,
        ca_bundle=certificate_authority.cert_pem,
    )
    for name, era in PYTHON_ERAS.items():
        rendered[name] = render_objects(era=era)
    return rendered


PYTHON_ERAS = {f"python ({era.name})": era for era in OLDER_ERAS}
RENDERINGS = (*KUSTOMIZATIONS, *ERA_KUSTOMIZATIONS, "python", "python (team-a, caBundle)", *PYTHON_ERAS)
RENDERING_ERA: dict[str, Era] = {
    **KUSTOMIZATION_ERA,
    **{name: era for name, (_, era) in ERA_KUSTOMIZATIONS.items()},
    "python": NEWEST_ERA,
    "python (team-a, caBundle)": NEWEST_ERA,
    **PYTHON_ERAS,
}


def by_identity(objects: list[Obj]) -> dict[tuple[str, str], Obj]:
    return {(obj["kind"], obj["metadata"]["name"]): obj for obj in objects}


def one(objects: Sequence[Obj], kind: str, name: str | None = None) -> Obj:
    found = [
        obj for obj in objects if obj["kind"] == kind and (name is None or obj["metadata"]["name"] == name)
    ]
    assert len(found) == 1, f"expected one {kind} {name or ''}, found {len(found)}"
    return found[0]


def workloads(objects: Sequence[Obj]) -> list[Obj]:
    return [obj for obj in objects if obj["kind"] in ("Deployment", "DaemonSet", "StatefulSet", "Job")]


def pod_specs(objects: Sequence[Obj]) -> list[tuple[Obj, Obj]]:
    """(pod template metadata, pod spec) of every workload."""
    return [
        (workload["spec"]["template"]["metadata"], workload["spec"]["template"]["spec"])
        for workload in workloads(objects)
    ]


def containers(pod_spec: Mapping[str, Any]) -> list[Obj]:
    return [*pod_spec.get("initContainers", []), *pod_spec["containers"]]


def arg_value(container: Mapping[str, Any], flag: str) -> str:
    args = container["args"]
    return str(args[args.index(flag) + 1])


# --- valid objects for Kubernetes 1.30 ---------------------------------------------------------------

# cert-manager's kinds are not in Kubernetes' schemas. This is a strict subset of the cert-manager.io/v1
# CRD schemas (the fields these manifests use, with the CRD's types and enums): an object valid here is
# valid for cert-manager, and a misspelt field fails.
_STRINGS = {"type": "array", "items": {"type": "string"}}
_GO_DURATION = {"type": "string", "pattern": r"^([0-9]+(\.[0-9]+)?(ns|us|µs|ms|s|m|h))+$"}
_OBJECT_META = {
    "type": "object",
    "required": ["name"],
    "additionalProperties": False,
    "properties": {
        "name": {"type": "string"},
        "namespace": {"type": "string"},
        "labels": {"type": "object", "additionalProperties": {"type": "string"}},
        "annotations": {"type": "object", "additionalProperties": {"type": "string"}},
    },
}


def _cert_manager_kind(kind: str, spec: Mapping[str, Any]) -> dict[str, Any]:
    return {
        "type": "object",
        "required": ["apiVersion", "kind", "metadata", "spec"],
        "additionalProperties": False,
        "properties": {
            "apiVersion": {"const": "cert-manager.io/v1"},
            "kind": {"const": kind},
            "metadata": _OBJECT_META,
            "spec": spec,
        },
    }


CERT_MANAGER_SCHEMAS = {
    "Issuer": _cert_manager_kind(
        "Issuer",
        {
            "type": "object",
            "additionalProperties": False,
            "minProperties": 1,
            "maxProperties": 1,  # an Issuer is exactly one kind of issuer
            "properties": {
                "selfSigned": {
                    "type": "object",
                    "additionalProperties": False,
                    "properties": {"crlDistributionPoints": _STRINGS},
                },
                "ca": {
                    "type": "object",
                    "required": ["secretName"],
                    "additionalProperties": False,
                    "properties": {
                        "secretName": {"type": "string", "minLength": 1},
                        "crlDistributionPoints": _STRINGS,
                        "ocspServers": _STRINGS,
                        "issuingCertificateURLs": _STRINGS,
                    },
                },
            },
        },
    ),
    "Certificate": _cert_manager_kind(
        "Certificate",
        {
            "type": "object",
            "required": ["secretName", "issuerRef"],
            "additionalProperties": False,
            "properties": {
                "secretName": {"type": "string", "minLength": 1},
                "issuerRef": {
                    "type": "object",
                    "required": ["name"],
                    "additionalProperties": False,
                    "properties": {
                        "name": {"type": "string"},
                        "kind": {"type": "string"},
                        "group": {"type": "string"},
                    },
                },
                "commonName": {"type": "string", "maxLength": 64},
                "dnsNames": _STRINGS,
                "ipAddresses": _STRINGS,
                "isCA": {"type": "boolean"},
                "duration": _GO_DURATION,
                "renewBefore": _GO_DURATION,
                "usages": {
                    "type": "array",
                    "items": {
                        "enum": [
                            "signing",
                            "digital signature",
                            "content commitment",
                            "key encipherment",
                            "key agreement",
                            "data encipherment",
                            "cert sign",
                            "crl sign",
                            "encipher only",
                            "decipher only",
                            "any",
                            "server auth",
                            "client auth",
                            "code signing",
                            "email protection",
                            "s/mime",
                            "ipsec end system",
                            "ipsec tunnel",
                            "ipsec user",
                            "timestamping",
                            "ocsp signing",
                            "microsoft sgc",
                            "netscape sgc",
                        ]
                    },
                },
                "privateKey": {
                    "type": "object",
                    "additionalProperties": False,
                    "properties": {
                        "algorithm": {"enum": ["RSA", "ECDSA", "Ed25519"]},
                        "size": {"type": "integer"},
                        "encoding": {"enum": ["PKCS1", "PKCS8"]},
                        "rotationPolicy": {"enum": ["Never", "Always"]},
                    },
                },
            },
        },
    ),
}


def schema_errors(obj: Mapping[str, Any], release: str = "1.30") -> list[str]:
    """Why `obj` is not a valid object for Kubernetes `release` (or for cert-manager v1); [] when it is."""
    if obj.get("apiVersion") == "cert-manager.io/v1":
        schema = CERT_MANAGER_SCHEMAS.get(obj.get("kind", ""))
        if schema is None:
            return [f"no schema for cert-manager kind {obj.get('kind')!r}"]
        validator = jsonschema.Draft202012Validator(schema)
        problems = [f"{'.'.join(map(str, e.path))}: {e.message}" for e in validator.iter_errors(obj)]
        return problems + certificate_rule_errors(obj)
    try:
        used = kubernetes_validate.validate(dict(obj), f"{release}.0", strict=True)
    except kubernetes_validate.ValidationError as error:
        return [f"{'.'.join(map(str, error.path))}: {error.message}"]
    except kubernetes_validate.SchemaNotFoundError as error:
        return [error.message]
    # validate() falls back to an older schema set when it has not the release's: a false pass.
    return [] if used == release else [f"validated against Kubernetes {used}, not {release}"]


def certificate_rule_errors(obj: Mapping[str, Any]) -> list[str]:
    """cert-manager's own admission checks of a Certificate that a schema cannot express."""
    if obj["kind"] != "Certificate":
        return []
    spec, problems = obj["spec"], []
    if not any(
        spec.get(field) for field in ("commonName", "dnsNames", "ipAddresses", "uris", "emailAddresses")
    ):
        problems.append(
            "at least one of commonName, dnsNames, uris, ipAddresses or emailAddresses must be set"
        )
    key = spec.get("privateKey", {})
    if key.get("algorithm") == "ECDSA" and key.get("size", 256) not in (256, 384, 521):
        problems.append("ECDSA keys are 256, 384 or 521 bits")
    for address in spec.get("ipAddresses", []):
        try:
            ipaddress.ip_address(address)
        except ValueError:
            problems.append(f"not an IP address: {address}")
    hours = {field: go_duration_hours(spec[field]) for field in ("duration", "renewBefore") if field in spec}
    if hours.get("duration", 2160) < 1:
        problems.append("duration must be at least 1h")
    if "renewBefore" in hours and not 5 / 60 <= hours["renewBefore"] < hours.get("duration", 2160):
        problems.append("renewBefore must be at least 5m and shorter than the duration")
    return problems


def go_duration_hours(text: str) -> float:
    units = {"h": 1.0, "m": 1 / 60, "s": 1 / 3600, "ms": 1 / 3_600_000}
    return sum(float(number) * units[unit] for number, unit in re.findall(r"([0-9.]+)(ms|h|m|s)", text))


@pytest.mark.parametrize("release", [release for era in ERAS for release in era.releases])
def test_kubernetes_validate_has_the_schemas_of_every_release_of_an_era(release: str) -> None:
    assert f"{release}.0" in kubernetes_validate_utils.all_versions()


@pytest.mark.parametrize(
    ("obj", "complaint"),
    [
        (
            {
                "apiVersion": "apps/v1",
                "kind": "Deployment",
                "metadata": {"name": "x"},
                "spec": {"replicas": "two"},
            },
            "spec.replicas: 'two' is not of type 'integer'",
        ),
        (
            {
                "apiVersion": "v1",
                "kind": "Service",
                "metadata": {"name": "x"},
                "spec": {"type": "ClusterIP", "prots": []},
            },
            "Additional properties are not allowed ('prots' was unexpected)",
        ),
        (
            {
                "apiVersion": "cert-manager.io/v1",
                "kind": "Certificate",
                "metadata": {"name": "x"},
                "spec": {"secretName": "s", "issuerRef": {"name": "i"}, "dnsName": ["a"]},
            },
            "Additional properties are not allowed ('dnsName' was unexpected)",
        ),
        (
            {
                "apiVersion": "cert-manager.io/v1",
                "kind": "Certificate",
                "metadata": {"name": "x"},
                "spec": {"secretName": "s", "issuerRef": {"name": "i"}},
            },
            "at least one of commonName",
        ),
        (
            {
                "apiVersion": "cert-manager.io/v1",
                "kind": "ClusterIssuer",
                "metadata": {"name": "x"},
                "spec": {},
            },
            "no schema for cert-manager kind 'ClusterIssuer'",
        ),
        (
            {"apiVersion": "example.com/v1", "kind": "Widget", "metadata": {"name": "x"}},
            "Couldn't find schema for kind Widget",
        ),
    ],
)
def test_the_schema_check_rejects_a_broken_object(obj: Obj, complaint: str) -> None:
    problems = schema_errors(obj)
    assert any(complaint in problem for problem in problems), problems


@pytest.mark.parametrize("rendering", RENDERINGS)
def test_every_object_is_valid_for_the_oldest_and_newest_release_of_its_era(
    renderings: dict[str, list[Obj]], rendering: str
) -> None:
    objects = renderings[rendering]
    assert objects
    era = RENDERING_ERA[rendering]
    problems = {
        f"{obj['kind']}/{obj['metadata']['name']} on {release}": schema_errors(obj, release)
        for release in dict.fromkeys((era.releases[0], era.releases[-1]))
        for obj in objects
    }
    assert {name: found for name, found in problems.items() if found} == {}


def test_the_python_rendering_is_the_kustomize_base(renderings: dict[str, list[Obj]]) -> None:
    # The webhook rules are compared with the registry on their own (below), so that a registry that
    # grew a kind fails there, by name, and every other field is still compared here.
    def without_rules(objects: list[Obj]) -> dict[tuple[str, str], Obj]:
        copied = copy.deepcopy(by_identity(objects))
        for webhook in copied[("ValidatingWebhookConfiguration", "dra-webhook")]["webhooks"]:
            del webhook["rules"]
        return copied

    assert without_rules(renderings["python"]) == without_rules(renderings["base"])


@pytest.mark.parametrize("era", OLDER_ERAS, ids=str)
def test_the_python_rendering_of_an_era_is_the_base_with_its_component(
    renderings: dict[str, list[Obj]], era: Era
) -> None:
    assert by_identity(renderings[f"python ({era.name})"]) == by_identity(
        renderings[f"base + eras/{era.name}"]
    )


# --- the webhook configuration ----------------------------------------------------------------------


@pytest.mark.parametrize("rendering", RENDERINGS)
def test_the_webhook_configuration_names_exactly_what_the_webhook_judges_in_its_era(
    renderings: dict[str, list[Obj]], rendering: str
) -> None:
    configuration = one(renderings[rendering], "ValidatingWebhookConfiguration")
    assert rule_resources(configuration) == era_resources(RENDERING_ERA[rendering])


@pytest.mark.parametrize("era", ERAS, ids=str)
def test_an_era_names_every_served_resource_and_status_subresource_the_webhook_judges_there(era: Era) -> None:
    # Each release's kinds in the version whose rules stand for it: the API server sends the kind's
    # other versions converted to it (matchPolicy Equivalent).
    expected = set()
    for release in era.releases:
        for kind in webhook_kinds(release, REGISTRY):
            expected.add((kind.gvk.group, kind.gvk.version, kind.resource))
            expected.update(
                (kind.gvk.group, kind.gvk.version, f"{kind.resource}/{sub}") for sub in kind.subresources
            )
    assert era_resources(era) == expected
    assert era_resources(era) <= registry_resources()


def test_every_registered_kind_is_named_by_some_era() -> None:
    assert set().union(*(era_resources(era) for era in ERAS)) == registry_resources()


def test_the_committed_era_components_are_what_the_registry_renders() -> None:
    stale = [
        relative
        for relative, text in generated_files().items()
        if not (MANIFESTS / relative).is_file() or (MANIFESTS / relative).read_text() != text
    ]
    assert stale == [], "run `make manifests` (python -m webhook.manifests) and commit the result"
    assert sorted(path.name for path in (MANIFESTS / "eras").iterdir()) == sorted(era.name for era in ERAS)


def test_the_base_is_for_the_newest_era() -> None:
    base = yaml.safe_load((MANIFESTS / "base" / "kustomization.yaml").read_text())
    assert base["components"] == [f"../eras/{NEWEST_ERA.name}"]


def test_the_registry_derived_rules_name_every_kind_and_its_status_subresource() -> None:
    expected = set()
    for kind in REGISTRY.values():
        expected.add((kind.gvk.group, kind.gvk.version, kind.resource))
        expected.update(
            (kind.gvk.group, kind.gvk.version, f"{kind.resource}/{sub}") for sub in kind.subresources
        )
    assert registry_resources() == expected
    assert all(rule["operations"] == ["CREATE", "UPDATE"] for rule in manifests.webhook_rules())


def test_the_component_of_1_27_to_1_30_lists_all_seven_v1alpha2_kinds() -> None:
    component = yaml.safe_load((MANIFESTS / "eras" / "1.27-1.30" / "kustomization.yaml").read_text())
    ((patch,),) = [yaml.safe_load(entry["patch"]) for entry in component["patches"]]
    assert patch["path"] == "/webhooks/0/rules"
    assert rule_resources({"webhooks": [{"rules": patch["value"]}]}) == {
        ("resource.k8s.io", "v1alpha2", name) for name in V1ALPHA2_RESOURCES
    }


def test_the_base_configuration_leaves_its_rules_to_the_era_component() -> None:
    configuration = one(
        load_documents((MANIFESTS / "base" / "validatingwebhookconfiguration.yaml").read_text()),
        "ValidatingWebhookConfiguration",
    )
    assert configuration["webhooks"][0]["rules"] == []


@pytest.mark.parametrize("rendering", RENDERINGS)
def test_the_webhook_is_registered_as_the_api_server_needs(
    renderings: dict[str, list[Obj]], rendering: str
) -> None:
    (webhook,) = one(renderings[rendering], "ValidatingWebhookConfiguration")["webhooks"]
    assert webhook["name"] == "resource.dra-webhook.io"
    assert len(webhook["name"].split(".")) >= 3  # the API server wants a fully qualified name
    assert webhook["sideEffects"] == "None"
    assert webhook["admissionReviewVersions"] == ["v1", "v1beta1"]
    assert webhook["matchPolicy"] == "Equivalent"
    assert webhook["failurePolicy"] == "Fail"
    assert 1 <= webhook["timeoutSeconds"] <= 5
    assert all(rule["scope"] == "*" for rule in webhook["rules"])


@pytest.mark.parametrize("rendering", RENDERINGS)
def test_the_namespace_selector_never_blocks_kube_system_nor_the_webhooks_own_namespace(
    renderings: dict[str, list[Obj]], rendering: str
) -> None:
    objects = renderings[rendering]
    (webhook,) = one(objects, "ValidatingWebhookConfiguration")["webhooks"]
    own_namespace = workloads(objects)[0]["metadata"]["namespace"]
    selector = webhook["namespaceSelector"]
    assert not selects(selector, namespace_labels("kube-system"))
    assert not selects(selector, namespace_labels(own_namespace))
    assert selects(selector, namespace_labels("default"))
    assert selects(selector, namespace_labels("team-b", {"pod-security.kubernetes.io/enforce": "baseline"}))


def namespace_labels(name: str, extra: Mapping[str, str] | None = None) -> dict[str, str]:
    # The API server labels every namespace with its own name (NamespaceDefaultLabelName, GA in 1.22).
    return {"kubernetes.io/metadata.name": name, **(extra or {})}


def selects(selector: Mapping[str, Any], labels: Mapping[str, str]) -> bool:
    """metav1.LabelSelector semantics."""
    if any(labels.get(key) != value for key, value in selector.get("matchLabels", {}).items()):
        return False
    for requirement in selector.get("matchExpressions", []):
        key, operator, values = requirement["key"], requirement["operator"], requirement.get("values", [])
        matched = {
            "In": key in labels and labels[key] in values,
            "NotIn": key not in labels or labels[key] not in values,
            "Exists": key in labels,
            "DoesNotExist": key not in labels,
        }[operator]
        if not matched:
            return False
    return True


def test_a_label_selector_reads_as_kubernetes_reads_it() -> None:
    selector = {
        "matchLabels": {"a": "1"},
        "matchExpressions": [{"key": "b", "operator": "In", "values": ["x"]}],
    }
    assert selects(selector, {"a": "1", "b": "x"})
    assert not selects(selector, {"a": "1", "b": "y"})
    assert not selects(selector, {"b": "x"})
    assert selects({"matchExpressions": [{"key": "c", "operator": "DoesNotExist"}]}, {"a": "1"})


@pytest.mark.parametrize(
    "rendering",
    ["base", "overlays/cert-manager", "examples/other-namespace", "python", "python (team-a, caBundle)"],
)
def test_the_api_server_reaches_the_webhook_through_its_service(
    renderings: dict[str, list[Obj]], rendering: str
) -> None:
    objects = renderings[rendering]
    (webhook,) = one(objects, "ValidatingWebhookConfiguration")["webhooks"]
    reference = webhook["clientConfig"]["service"]
    assert reference["path"] == "/validate"
    service = one(objects, "Service", reference["name"])
    assert service["metadata"]["namespace"] == reference["namespace"]
    (port,) = [port for port in service["spec"]["ports"] if port["port"] == reference["port"]]
    (workload,) = workloads(objects)
    pod = workload["spec"]["template"]
    assert selects({"matchLabels": service["spec"]["selector"]}, pod["metadata"]["labels"])
    (container,) = pod["spec"]["containers"]
    (container_port,) = [p for p in container["ports"] if p["name"] == port["targetPort"]]
    assert int(arg_value(container, "--port")) == container_port["containerPort"] == 8443
    assert arg_value(container, "--host") == "0.0.0.0"


SIDECARS = ["overlays/sidecar", *(f"overlays/sidecar + eras/{era.name}" for era in OLDER_ERAS)]
CERT_MANAGED = [
    "overlays/cert-manager",
    "examples/other-namespace",
    "examples/older-cluster",
    *(f"overlays/cert-manager + eras/{era.name}" for era in OLDER_ERAS),
]


@pytest.mark.parametrize("rendering", SIDECARS)
def test_the_sidecar_is_called_on_loopback_with_an_ip_san_certificate(
    renderings: dict[str, list[Obj]], rendering: str
) -> None:
    objects = renderings[rendering]
    (webhook,) = one(objects, "ValidatingWebhookConfiguration")["webhooks"]
    assert "service" not in webhook["clientConfig"]
    url = urlsplit(webhook["clientConfig"]["url"])
    assert (url.scheme, url.hostname, url.path) == ("https", "127.0.0.1", "/validate")
    (daemon_set,) = workloads(objects)
    assert daemon_set["kind"] == "DaemonSet"
    pod = daemon_set["spec"]["template"]["spec"]
    assert pod["hostNetwork"] is True  # the API server's loopback is the node's
    (container,) = pod["containers"]
    assert arg_value(container, "--host") == "127.0.0.1"
    assert int(arg_value(container, "--port")) == url.port
    for probe in (container["readinessProbe"], container["livenessProbe"]):
        assert probe["httpGet"]["host"] == "127.0.0.1"
    serving = serving_certificate(objects, pod)
    assert serving["spec"]["ipAddresses"] == ["127.0.0.1"]
    assert not [obj for obj in objects if obj["kind"] in ("Service", "Deployment", "PodDisruptionBudget")]


def serving_certificate(objects: Sequence[Obj], pod_spec: Mapping[str, Any]) -> Obj:
    (mount,) = [m for m in containers(pod_spec)[0]["volumeMounts"] if m["mountPath"] == "/certs"]
    (volume,) = [v for v in pod_spec["volumes"] if v["name"] == mount["name"]]
    return one(
        [
            obj
            for obj in objects
            if obj["kind"] == "Certificate" and obj["spec"]["secretName"] == volume["secret"]["secretName"]
        ],
        "Certificate",
    )


@pytest.mark.parametrize("rendering", [*CERT_MANAGED, *SIDECARS])
def test_cert_manager_issues_the_mounted_secret_and_injects_its_ca(
    renderings: dict[str, list[Obj]], rendering: str
) -> None:
    objects = renderings[rendering]
    configuration = one(objects, "ValidatingWebhookConfiguration")
    (workload,) = workloads(objects)
    serving = serving_certificate(objects, workload["spec"]["template"]["spec"])
    injected_from = configuration["metadata"]["annotations"]["cert-manager.io/inject-ca-from"]
    assert injected_from == f"{serving['metadata']['namespace']}/{serving['metadata']['name']}"
    assert "caBundle" not in configuration["webhooks"][0]["clientConfig"]
    # The serving certificate comes from a CA Issuer whose CA a self-signed Issuer made.
    ca_issuer = one(objects, "Issuer", serving["spec"]["issuerRef"]["name"])
    ca_certificate = one(
        [
            obj
            for obj in objects
            if obj["kind"] == "Certificate"
            and obj["spec"]["secretName"] == ca_issuer["spec"]["ca"]["secretName"]
        ],
        "Certificate",
    )
    assert ca_certificate["spec"]["isCA"] is True
    assert ca_certificate["spec"]["privateKey"]["rotationPolicy"] == "Never"  # renewals keep the CA key
    assert "selfSigned" in one(objects, "Issuer", ca_certificate["spec"]["issuerRef"]["name"])["spec"]
    # A CA renewal happens more than one serving-certificate lifetime before the CA expires.
    assert go_duration_hours(ca_certificate["spec"]["renewBefore"]) > go_duration_hours(
        serving["spec"]["duration"]
    )
    namespaces = {obj["metadata"]["namespace"] for obj in objects if obj["kind"] in ("Issuer", "Certificate")}
    assert namespaces == {workload["metadata"]["namespace"]}


@pytest.mark.parametrize("rendering", CERT_MANAGED)
def test_the_cert_manager_certificate_names_the_service_as_the_api_server_dials_it(
    renderings: dict[str, list[Obj]], rendering: str
) -> None:
    objects = renderings[rendering]
    (webhook,) = one(objects, "ValidatingWebhookConfiguration")["webhooks"]
    service = webhook["clientConfig"]["service"]
    (workload,) = workloads(objects)
    serving = serving_certificate(objects, workload["spec"]["template"]["spec"])
    assert f"{service['name']}.{service['namespace']}.svc" in serving["spec"]["dnsNames"]


# --- hardening --------------------------------------------------------------------------------------

# The one exception, with its reason: the sidecar shares the node's network namespace with the API server.
HOST_NETWORK_ALLOWED = {"overlays/sidecar", *(f"overlays/sidecar + eras/{era.name}" for era in OLDER_ERAS)}


@pytest.mark.parametrize("rendering", sorted(set(RENDERINGS) - HOST_NETWORK_ALLOWED))
def test_a_network_policy_opens_only_the_webhook_ports_and_lets_nothing_out(
    renderings: dict[str, list[Obj]], rendering: str
) -> None:
    objects = renderings[rendering]
    (policy,) = [obj for obj in objects if obj["kind"] == "NetworkPolicy"]
    ((_, pod),) = pod_specs(objects)
    (workload,) = workloads(objects)
    pod_labels = workload["spec"]["template"]["metadata"]["labels"]
    spec = policy["spec"]
    assert spec["podSelector"]["matchLabels"].items() <= pod_labels.items()
    assert sorted(spec["policyTypes"]) == ["Egress", "Ingress"]
    assert spec["egress"] == []  # the webhook calls nothing, not even DNS
    container_ports = {port["name"] for container in pod["containers"] for port in container["ports"]}
    (rule,) = spec["ingress"]
    assert {port["port"] for port in rule["ports"]} == container_ports == {"https", "metrics"}


@pytest.mark.parametrize("rendering", SIDECARS)
def test_the_sidecar_overlay_drops_the_network_policy_its_host_network_pods_ignore(
    renderings: dict[str, list[Obj]], rendering: str
) -> None:
    assert [obj for obj in renderings[rendering] if obj["kind"] == "NetworkPolicy"] == []


@pytest.mark.parametrize("rendering", RENDERINGS)
def test_every_container_is_hardened(renderings: dict[str, list[Obj]], rendering: str) -> None:
    specs = pod_specs(renderings[rendering])
    assert specs, "no workload rendered"
    for _, pod in specs:
        pod_security = pod.get("securityContext", {})
        assert pod["automountServiceAccountToken"] is False
        assert not pod.get("hostPID") and not pod.get("hostIPC")
        assert bool(pod.get("hostNetwork")) == (rendering in HOST_NETWORK_ALLOWED)
        for container in containers(pod):
            problems = container_hardening_problems(container, pod_security)
            assert problems == [], f"{rendering}: {container['name']}: {problems}"


def container_hardening_problems(container: Mapping[str, Any], pod_security: Mapping[str, Any]) -> list[str]:
    security = {**pod_security, **container.get("securityContext", {})}
    checks = {
        "runAsNonRoot": security.get("runAsNonRoot") is True,
        "runAsUser is not root": security.get("runAsUser", -1) > 0,
        "readOnlyRootFilesystem": security.get("readOnlyRootFilesystem") is True,
        "allowPrivilegeEscalation false": security.get("allowPrivilegeEscalation") is False,
        "not privileged": not security.get("privileged", False),
        "drops ALL capabilities": "ALL" in security.get("capabilities", {}).get("drop", []),
        "adds no capability": not security.get("capabilities", {}).get("add"),
        "seccomp RuntimeDefault": security.get("seccompProfile", {}).get("type") == "RuntimeDefault",
        "cpu request": "cpu" in container.get("resources", {}).get("requests", {}),
        "memory request": "memory" in container.get("resources", {}).get("requests", {}),
        "memory limit": "memory" in container.get("resources", {}).get("limits", {}),
        "readiness probe": "readinessProbe" in container,
        "liveness probe": "livenessProbe" in container,
        "pinned image": manifest_objects._is_pinned_image(container.get("image", "")),
    }
    return [check for check, passed in checks.items() if not passed]


@pytest.mark.parametrize(
    ("change", "failed_check"),
    [
        ({"securityContext": {"runAsNonRoot": False}}, "runAsNonRoot"),
        ({"securityContext": {"readOnlyRootFilesystem": False}}, "readOnlyRootFilesystem"),
        ({"securityContext": {"capabilities": {"drop": ["NET_RAW"]}}}, "drops ALL capabilities"),
        (
            {"securityContext": {"capabilities": {"drop": ["ALL"], "add": ["NET_ADMIN"]}}},
            "adds no capability",
        ),
        ({"securityContext": {"allowPrivilegeEscalation": True}}, "allowPrivilegeEscalation false"),
        ({"securityContext": {"seccompProfile": {"type": "Unconfined"}}}, "seccomp RuntimeDefault"),
        ({"securityContext": {"runAsUser": 0}}, "runAsUser is not root"),
        ({"resources": {"requests": {"cpu": "1"}, "limits": {"memory": "1Gi"}}}, "memory request"),
        ({"image": "dra-webhook:latest"}, "pinned image"),
        ({"image": "dra-webhook"}, "pinned image"),
        ({"readinessProbe": None}, "readiness probe"),
    ],
)
def test_the_hardening_check_catches_each_weakness(change: Obj, failed_check: str) -> None:
    container = manifest_objects._webhook_container(DEFAULT_IMAGE)
    for field, value in change.items():
        if value is None:
            del container[field]
        elif isinstance(value, dict) and field == "securityContext":
            container[field] = {**container[field], **value}
        else:
            container[field] = value
    assert container_hardening_problems(container, {}) == [failed_check]


@pytest.mark.parametrize(
    "rendering",
    ["base", "overlays/cert-manager", "examples/other-namespace", "python", "python (team-a, caBundle)"],
)
def test_the_deployment_survives_a_node_drain(renderings: dict[str, list[Obj]], rendering: str) -> None:
    objects = renderings[rendering]
    deployment = one(objects, "Deployment")
    assert deployment["spec"]["replicas"] >= 2
    assert deployment["spec"]["strategy"]["rollingUpdate"]["maxUnavailable"] == 0
    template = deployment["spec"]["template"]
    spread = {c["topologyKey"] for c in template["spec"]["topologySpreadConstraints"]}
    assert "kubernetes.io/hostname" in spread
    budget = one(objects, "PodDisruptionBudget")
    assert budget["metadata"]["namespace"] == deployment["metadata"]["namespace"]
    assert selects(budget["spec"]["selector"], template["metadata"]["labels"])
    assert 1 <= budget["spec"]["minAvailable"] < deployment["spec"]["replicas"]


@pytest.mark.parametrize("rendering", RENDERINGS)
def test_the_service_account_carries_no_token(renderings: dict[str, list[Obj]], rendering: str) -> None:
    objects = renderings[rendering]
    account = one(objects, "ServiceAccount")
    assert account["automountServiceAccountToken"] is False
    for _, pod in pod_specs(objects):
        assert pod["serviceAccountName"] == account["metadata"]["name"]


@pytest.mark.parametrize("rendering", RENDERINGS)
def test_the_tls_secret_is_mounted_read_only_at_certs(
    renderings: dict[str, list[Obj]], rendering: str
) -> None:
    for _, pod in pod_specs(renderings[rendering]):
        (container,) = pod["containers"]
        assert arg_value(container, "--cert-dir") == "/certs"
        (mount,) = [m for m in container["volumeMounts"] if m["mountPath"] == "/certs"]
        assert mount["readOnly"] is True
        (volume,) = [v for v in pod["volumes"] if v["name"] == mount["name"]]
        assert volume["secret"]["secretName"] == "dra-webhook-tls"
        assert volume["secret"]["defaultMode"] == 0o440
        assert pod["securityContext"]["fsGroup"] == container["securityContext"]["runAsUser"] == RUN_AS_ID


@pytest.mark.parametrize("rendering", RENDERINGS)
def test_probes_ask_the_servers_health_endpoints_over_https(
    renderings: dict[str, list[Obj]], rendering: str
) -> None:
    for _, pod in pod_specs(renderings[rendering]):
        (container,) = pod["containers"]
        readiness, liveness = container["readinessProbe"]["httpGet"], container["livenessProbe"]["httpGet"]
        assert (readiness["path"], readiness["scheme"]) == ("/readyz", "HTTPS")
        assert (liveness["path"], liveness["scheme"]) == ("/healthz", "HTTPS")
        assert {readiness["port"], liveness["port"]} == {"https"}
        assert [p["containerPort"] for p in container["ports"] if p["name"] == "https"] == [
            int(arg_value(container, "--port"))
        ]


# --- the caBundle -----------------------------------------------------------------------------------


def ca_bundle_of(objects: Sequence[Obj]) -> bytes:
    (webhook,) = one(objects, "ValidatingWebhookConfiguration")["webhooks"]
    return base64.b64decode(webhook["clientConfig"]["caBundle"], validate=True)


def verifies(ca_bundle_pem: bytes, leaf: x509.Certificate, subject: x509.verification.Subject) -> bool:
    """What kube-apiserver's Go client does with the caBundle: build a chain to it for the server name."""
    store = verification.Store(x509.load_pem_x509_certificates(ca_bundle_pem))
    verifier = verification.PolicyBuilder().store(store).build_server_verifier(subject)
    try:
        verifier.verify(leaf, [])
    except verification.VerificationError:
        return False
    return True


def test_the_rendered_ca_bundle_verifies_the_serving_certificate(
    certificate_authority: tls.IssuedCertificate, tmp_path: Path
) -> None:
    serving = tls.issue_serving_certificate(
        certificate_authority, dns_names=tls.service_dns_names("validator", "team-a")
    )
    ca_file = tmp_path / "ca.crt"
    ca_file.write_bytes(certificate_authority.cert_pem)
    objects = render_objects(namespace="team-a", service="validator", ca_bundle=read_ca_bundle(ca_file))
    bundle = ca_bundle_of(objects)
    (webhook,) = one(objects, "ValidatingWebhookConfiguration")["webhooks"]
    service = webhook["clientConfig"]["service"]
    server_name = f"{service['name']}.{service['namespace']}.svc"  # what the API server dials
    assert server_name == "validator.team-a.svc"
    assert verifies(bundle, serving.certificate, x509.DNSName(server_name))
    assert not verifies(bundle, serving.certificate, x509.DNSName("validator.team-b.svc"))
    assert not verifies(tls.issue_ca().cert_pem, serving.certificate, x509.DNSName(server_name))


def test_a_tls_client_trusting_the_ca_bundle_completes_a_handshake_with_the_webhook(
    certificate_authority: tls.IssuedCertificate, tmp_path: Path
) -> None:
    serving = tls.issue_serving_certificate(certificate_authority, ip_addresses=["127.0.0.1"])
    (tmp_path / "tls.crt").write_bytes(serving.cert_pem)
    (tmp_path / "tls.key").write_bytes(serving.key_pem)
    (tmp_path / "ca.crt").write_bytes(certificate_authority.cert_pem)
    bundle = ca_bundle_of(render_objects(ca_bundle=read_ca_bundle(tmp_path / "ca.crt")))
    server = tls.build_server_context(tmp_path / "tls.crt", tmp_path / "tls.key")
    client = ssl.create_default_context(cadata=bundle.decode("ascii"))
    assert memory_handshake(client, server, server_hostname="127.0.0.1") is None
    failure = memory_handshake(client, server, server_hostname="127.0.0.2")
    assert failure is not None and "IP address mismatch" in failure


def memory_handshake(client: ssl.SSLContext, server: ssl.SSLContext, *, server_hostname: str) -> str | None:
    """A TLS handshake through memory buffers; None when it succeeds, else the client's complaint."""
    client_in, client_out, server_in, server_out = (ssl.MemoryBIO() for _ in range(4))
    client_side = client.wrap_bio(client_in, client_out, server_hostname=server_hostname)
    server_side = server.wrap_bio(server_in, server_out, server_side=True)
    done = {"client": False, "server": False}
    for _ in range(20):
        for name, side, outgoing, incoming in (
            ("client", client_side, client_out, server_in),
            ("server", server_side, server_out, client_in),
        ):
            if not done[name]:
                try:
                    side.do_handshake()
                    done[name] = True
                except ssl.SSLWantReadError:
                    pass
                except ssl.SSLError as error:
                    if name == "client":
                        return str(error)
                    raise
            incoming.write(outgoing.read())
        if all(done.values()):
            return None
    raise AssertionError("the handshake did not finish")


def test_read_ca_bundle_takes_pem_or_the_printed_base64_caBundle(
    certificate_authority: tls.IssuedCertificate, tmp_path: Path
) -> None:
    second_ca = tls.issue_ca()
    pem = certificate_authority.cert_pem + second_ca.cert_pem  # a CA rotation keeps both
    (tmp_path / "bundle.pem").write_bytes(b"# old and new\n" + pem)
    (tmp_path / "bundle.b64").write_bytes(base64.b64encode(pem) + b"\n")
    assert read_ca_bundle(tmp_path / "bundle.pem") == pem
    assert read_ca_bundle(tmp_path / "bundle.b64") == pem


@pytest.mark.parametrize(
    ("content", "complaint"),
    [
        (b"", "is empty"),
        (b" \n", "is empty"),
        (b"not a certificate at all!", "neither PEM nor base64-encoded PEM"),
        (base64.b64encode(b"hello"), "not a PEM certificate bundle"),
        (b"-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n", "not a PEM certificate bundle"),
    ],
)
def test_read_ca_bundle_refuses_a_file_without_certificates(
    tmp_path: Path, content: bytes, complaint: str
) -> None:
    (tmp_path / "ca.crt").write_bytes(content)
    with pytest.raises(ValueError, match=complaint):
        read_ca_bundle(tmp_path / "ca.crt")


# --- render_objects arguments -----------------------------------------------------------------------


def test_the_webhook_in_kube_system_emits_no_namespace_and_exempts_kube_system_once() -> None:
    objects = render_objects(namespace="kube-system")
    assert "Namespace" not in {obj["kind"] for obj in objects}
    (webhook,) = one(objects, "ValidatingWebhookConfiguration")["webhooks"]
    assert webhook["namespaceSelector"]["matchExpressions"][0]["values"] == ["kube-system"]
    assert {obj["metadata"].get("namespace") for obj in objects} == {"kube-system", None}


@pytest.mark.parametrize(
    ("arguments", "complaint"),
    [
        ({"namespace": "Team-A"}, "namespace 'Team-A'"),
        ({"namespace": "a" * 64}, "must be no more than 63 characters"),
        ({"service": "1validator"}, "service '1validator': a Service name must be a DNS-1035 label"),
        ({"image": "dra-webhook:latest"}, "image 'dra-webhook:latest': give a pinned image reference"),
        ({"image": "registry.example:5000/dra-webhook"}, "give a pinned image reference"),
    ],
)
def test_render_objects_refuses_names_kubernetes_would_refuse(
    arguments: dict[str, Any], complaint: str
) -> None:
    with pytest.raises(ValueError, match=re.escape(complaint)):
        render_objects(**arguments)


def test_render_yaml_round_trips() -> None:
    objects = render_objects(namespace="team-a")
    assert load_documents(render_yaml(objects)) == objects


# --- dra-webhook manifests --------------------------------------------------------------------------


def run_cli(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = main(list(argv))
        except SystemExit as exit_:
            code = int(exit_.code or 0)
    return code, out.getvalue(), err.getvalue()


def test_manifests_prints_the_whole_set_with_the_ca_bundle_filled_in(
    certificate_authority: tls.IssuedCertificate, tmp_path: Path
) -> None:
    (tmp_path / "ca.crt").write_bytes(certificate_authority.cert_pem)
    code, out, _ = run_cli(
        "manifests",
        "--namespace",
        "team-a",
        "--service",
        "validator",
        "--ca-bundle",
        str(tmp_path / "ca.crt"),
        "--image",
        "dra-webhook:0.1.0",
    )
    assert code == 0
    objects = load_documents(out)
    assert [obj["kind"] for obj in objects] == [
        "Namespace",
        "ServiceAccount",
        "Service",
        "Deployment",
        "PodDisruptionBudget",
        "NetworkPolicy",
        "ValidatingWebhookConfiguration",
    ]
    assert {obj["kind"]: schema_errors(obj) for obj in objects} == {obj["kind"]: [] for obj in objects}
    assert ca_bundle_of(objects) == certificate_authority.cert_pem
    assert objects == render_objects(
        namespace="team-a", service="validator", ca_bundle=certificate_authority.cert_pem
    )


def test_manifests_without_a_namespace_prints_the_base_in_its_namespace() -> None:
    code, out, _ = run_cli("manifests")
    assert code == 0
    assert load_documents(out) == render_objects(namespace="dra-webhook")


def test_manifests_without_a_ca_bundle_says_what_is_missing() -> None:
    code, out, err = run_cli("manifests", "--namespace", "team-a")
    assert code == 0
    assert "caBundle" not in out
    assert "no --ca-bundle" in err
    assert load_documents(out) == render_objects(namespace="team-a")


@pytest.mark.parametrize(
    ("argv", "complaint"),
    [
        (["--namespace", "Team-A"], "namespace 'Team-A'"),
        (["--namespace", "team-a", "--image", "dra-webhook:latest"], "give a pinned image reference"),
        (["--namespace", "team-a", "--ca-bundle", "/nonexistent/ca.crt"], "/nonexistent/ca.crt"),
    ],
)
def test_manifests_refuses_bad_input_with_exit_status_2(argv: list[str], complaint: str) -> None:
    code, out, err = run_cli("manifests", *argv)
    assert (code, out) == (2, "")
    assert complaint in err


# --- the image --------------------------------------------------------------------------------------


def dockerfile_instructions(text: str) -> list[tuple[str, str]]:
    """(INSTRUCTION, arguments) with continuation lines joined and comments dropped."""
    instructions: list[tuple[str, str]] = []
    pending = ""
    for line in text.splitlines():
        if not pending and (not line.strip() or line.lstrip().startswith("#")):
            continue
        if line.endswith("\\"):
            pending += line[:-1] + " "
            continue
        keyword, _, arguments = (pending + line).strip().partition(" ")
        instructions.append((keyword.upper(), arguments.strip()))
        pending = ""
    return instructions


DOCKERFILE = dockerfile_instructions((ROOT / "Dockerfile").read_text())


def final_stage() -> list[tuple[str, str]]:
    last_from = max(i for i, (keyword, _) in enumerate(DOCKERFILE) if keyword == "FROM")
    return DOCKERFILE[last_from:]


def copy_sources() -> list[str]:
    """The build-context paths the Dockerfile copies (COPY without --from)."""
    sources = []
    for keyword, arguments in DOCKERFILE:
        if keyword == "COPY" and "--from=" not in arguments:
            words = [word for word in arguments.split() if not word.startswith("--")]
            sources += [word.rstrip("/") for word in words[:-1]]
    return sources


def docker_ignores(path: str, patterns: Sequence[str]) -> bool:
    """.dockerignore semantics: the last pattern matching the path or one of its parents decides."""
    parts = path.split("/")
    candidates = ["/".join(parts[: i + 1]) for i in range(len(parts))]
    ignored = False
    for pattern in patterns:
        negated = pattern.startswith("!")
        regex = re.compile(_docker_pattern_regex(pattern.lstrip("!").rstrip("/")))
        if any(regex.fullmatch(candidate) for candidate in candidates):
            ignored = not negated
    return ignored


def _docker_pattern_regex(pattern: str) -> str:
    regex = ""
    for token in re.split(r"(\*\*/|\*\*|\*|\?)", pattern):
        regex += {"**/": "(.*/)?", "**": ".*", "*": "[^/]*", "?": "[^/]"}.get(token, re.escape(token))
    return regex


DOCKER_IGNORE = [
    line.strip()
    for line in (ROOT / ".dockerignore").read_text().splitlines()
    if line.strip() and not line.startswith("#")
]


def test_the_dockerignore_reading_follows_docker() -> None:
    patterns = ["*", "!webhook/", "**/__pycache__"]
    assert docker_ignores("tests/test_x.py", patterns)
    assert not docker_ignores("webhook/cli.py", patterns)
    assert docker_ignores("webhook/__pycache__/cli.cpython-311.pyc", patterns)


def test_the_image_is_built_in_two_stages_on_python_3_11_slim() -> None:
    stages = [arguments for keyword, arguments in DOCKERFILE if keyword == "FROM"]
    assert len(stages) >= 2
    assert ("ARG", "PYTHON_IMAGE=python:3.11-slim") in DOCKERFILE
    assert all(stage.split()[0] == "${PYTHON_IMAGE}" for stage in stages)
    # The project goes in as a user installs it: `pip install .` into a virtual environment.
    assert any(
        re.search(r"\bpip .*install \.( |$)", arguments)
        for keyword, arguments in DOCKERFILE
        if keyword == "RUN"
    )


def test_the_image_copies_files_that_exist_and_that_the_build_context_keeps() -> None:
    sources = copy_sources()
    assert sources
    for source in sources:
        assert (ROOT / source).exists(), f"COPY {source}: no such file in the repository"
        assert not docker_ignores(source, DOCKER_IGNORE), f"COPY {source}: excluded by .dockerignore"
    for path in (ROOT / "webhook").rglob("*.py"):
        assert not docker_ignores(path.relative_to(ROOT).as_posix(), DOCKER_IGNORE)
    assert docker_ignores(".venv/bin/python", DOCKER_IGNORE)
    assert docker_ignores("tests/test_manifests.py", DOCKER_IGNORE)


def test_the_image_copies_everything_the_wheel_is_built_from() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())
    sources = set(copy_sources())
    assert {"pyproject.toml", project["project"]["readme"]} <= sources
    for pattern in project["tool"]["setuptools"]["packages"]["find"]["include"]:
        assert pattern.rstrip("*").rstrip(".") in sources
    # The wheel carries the JSON Schemas through the symlink webhook/schema_files -> ../schemas: a
    # symlink inside a copied folder must point at something the image copies too.
    for source in sources:
        for link in [path for path in (ROOT / source).rglob("*") if path.is_symlink()]:
            target = link.resolve().relative_to(ROOT).as_posix()
            assert any(target == s or target.startswith(f"{s}/") for s in sources), f"{link} -> {target}"
    assert "schemas" in sources


def test_the_image_runs_as_the_non_root_user_the_manifests_require() -> None:
    users = [arguments for keyword, arguments in final_stage() if keyword == "USER"]
    assert users, "the final stage sets no USER: it would run as root"
    user, _, group = users[-1].partition(":")
    assert user.isdigit() and int(user) == RUN_AS_ID != 0  # numeric: runAsNonRoot can check it
    assert group.isdigit() and int(group) != 0


def test_the_image_entry_point_is_the_cli_and_its_default_command_matches_the_deployment() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())
    entrypoint = yaml.safe_load([a for k, a in final_stage() if k == "ENTRYPOINT"][-1])
    command = yaml.safe_load([a for k, a in final_stage() if k == "CMD"][-1])
    assert entrypoint == ["dra-webhook"] and "dra-webhook" in project["project"]["scripts"]
    assert command == one(render_objects(), "Deployment")["spec"]["template"]["spec"]["containers"][0]["args"]
    assert ("EXPOSE", "8443 9090") in final_stage()


def test_the_image_tag_is_the_project_version_everywhere() -> None:
    version = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["version"]
    assert version == IMAGE_TAG
    assert f"dra-webhook:{version}" == DEFAULT_IMAGE
    assert f'org.opencontainers.image.version="{version}"' in dict(final_stage())["LABEL"]
    for path in MANIFESTS.rglob("*.yaml"):
        text = path.read_text()
        for image in re.findall(r"^\s*image:\s*(\S+)", text, flags=re.MULTILINE):
            assert image == DEFAULT_IMAGE, f"{path.relative_to(ROOT)} names {image}"
        for tag in re.findall(r"^\s*newTag:\s*(\S+)", text, flags=re.MULTILINE):
            assert tag == IMAGE_TAG, f"{path.relative_to(ROOT)} retags to {tag}"


# --- docs/deploy.md ---------------------------------------------------------------------------------


def _smoke_tests_of_the_deploy_guide() -> dict[str, Obj]:
    """The objects the deploy guide's smoke tests create with `kubectl create --dry-run=server`, by
    apiVersion."""
    guide = (ROOT / "docs" / "deploy.md").read_text()
    manifests = re.findall(r"kubectl create --dry-run=server -f - <<'EOF'\n(.*?)\nEOF\n", guide, flags=re.S)
    objects = [yaml.safe_load(manifest) for manifest in manifests]
    return {obj["apiVersion"]: obj for obj in objects}


def _reviewed_as_created(obj: Obj, resource: str) -> dict[str, Any]:
    from webhook import review

    group, version = obj["apiVersion"].split("/")
    request = {
        "uid": "smoke-test",
        "kind": {"group": group, "version": version, "kind": obj["kind"]},
        "resource": {"group": group, "version": version, "resource": resource},
        "operation": "CREATE",
        "name": obj["metadata"]["name"],
        "namespace": obj["metadata"].get("namespace", ""),
        "object": obj,
    }
    answer = review({"apiVersion": "admission.k8s.io/v1", "kind": "AdmissionReview", "request": request})
    response: dict[str, Any] = answer["response"]
    return response


def test_the_deploy_guides_smoke_test_for_current_clusters_is_a_claim_the_webhook_allows() -> None:
    claim = _smoke_tests_of_the_deploy_guide()["resource.k8s.io/v1"]
    assert _reviewed_as_created(claim, "resourceclaims")["allowed"] is True


def test_the_deploy_guides_smoke_test_for_1_30_clusters_is_denied_by_the_webhook() -> None:
    resource_class = _smoke_tests_of_the_deploy_guide()["resource.k8s.io/v1alpha2"]
    answer = _reviewed_as_created(resource_class, "resourceclasses")
    assert answer["allowed"] is False
    assert [cause["field"] for cause in answer["status"]["details"]["causes"]] == ["parametersRef.namespace"]
    assert "(parametersRef.namespace: Required value)" in (ROOT / "docs" / "deploy.md").read_text()


@pytest.mark.parametrize("version", ["1.29", "v1.31.2", "1.33", "1.37"])
def test_manifests_for_a_kubernetes_version_prints_the_configuration_of_its_era(version: str) -> None:
    code, out, err = run_cli("manifests", "--namespace", "team-a", "--kubernetes-version", version)
    assert code == 0
    era = era_of(parse_release(version))
    assert load_documents(out) == render_objects(namespace="team-a", era=era)
    for note in release_notes(parse_release(version)):
        assert f"dra-webhook manifests: {note}\n" in err


def test_manifests_names_the_release_the_objects_of_an_older_cluster_are_judged_as() -> None:
    _, _, err = run_cli("manifests", "--namespace", "team-a", "--kubernetes-version", "1.28")
    assert "resource.k8s.io/v1alpha2 judged as Kubernetes 1.30" in err


@pytest.mark.parametrize(
    ("version", "complaint"),
    [
        ("1.26", "no webhook configuration for Kubernetes 1.26"),
        ("1.40", "Kubernetes 1.40 is not a release this build knows: it knows 1.26 to 1.37"),
        ("one", "'one' is not a Kubernetes version"),
        ("", "'' is not a Kubernetes version"),
    ],
)
def test_manifests_refuses_a_release_without_an_era(version: str, complaint: str) -> None:
    code, out, err = run_cli("manifests", "--namespace", "team-a", "--kubernetes-version", version)
    assert (code, out) == (2, "")
    assert f"--kubernetes-version: {complaint}" in err
