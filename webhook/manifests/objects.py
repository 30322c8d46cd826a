"""The objects of manifests/base (Namespace, ServiceAccount, Service, Deployment,
PodDisruptionBudget, NetworkPolicy, ValidatingWebhookConfiguration), rendered for any namespace and
Service name, with the caBundle filled in."""

from __future__ import annotations

import base64
import binascii
import re
from collections.abc import Iterable
from pathlib import Path

import yaml
from cryptography import x509
from cryptography.hazmat.primitives.serialization import Encoding

from webhook.eras import NEWEST_ERA, Era
from webhook.manifests.rules import Manifest, era_rules
from webhook.registry import REGISTRY, KindRegistry
from webhook.rules.names import is_dns1123_label

APP_NAME = "dra-webhook"
DEFAULT_NAMESPACE = "dra-webhook"
DEFAULT_SERVICE = "dra-webhook"
# The image tag is the project's version (pyproject.toml); the tests keep the three in step.
IMAGE_TAG = "0.1.0"
DEFAULT_IMAGE = f"dra-webhook:{IMAGE_TAG}"
TLS_SECRET = "dra-webhook-tls"
CERT_DIR = "/certs"
# A webhook name must be a DNS subdomain of at least three segments (ValidateValidatingWebhookConfiguration).
WEBHOOK_NAME = "resource.dra-webhook.io"
WEBHOOK_PATH = "/validate"
SERVING_PORT = 8443
METRICS_PORT = 9090
# Each worker holds its own rules and schemas; two fit the memory limit and use a pod's CPU request.
WORKERS_PER_POD = 2
SERVICE_PORT = 443
# The API server's default is 10 s; a healthy review takes milliseconds.
TIMEOUT_SECONDS = 5
# The non-root uid and gid of the image (Dockerfile `USER 65532:65532`).
RUN_AS_ID = 65532
# Namespaces Kubernetes creates itself: `manifests` never emits a Namespace object for them, since
# applying one would stamp the restricted Pod Security labels onto, say, kube-system.
KUBERNETES_NAMESPACES = frozenset({"default", "kube-system", "kube-public", "kube-node-lease"})
CONTROL_PLANE_NAMESPACE = "kube-system"

# Service names are DNS-1035 labels (ValidateServiceName): like a DNS-1123 label, but a letter first.
_DNS1035_LABEL_RE = re.compile(r"[a-z]([-a-z0-9]*[a-z0-9])?")
_DNS1035_LABEL_MAX = 63


def render_objects(
    *,
    namespace: str = DEFAULT_NAMESPACE,
    service: str = DEFAULT_SERVICE,
    image: str = DEFAULT_IMAGE,
    ca_bundle: bytes | None = None,
    registry: KindRegistry = REGISTRY,
    era: Era = NEWEST_ERA,
) -> list[Manifest]:
    """Every object of manifests/base, for `namespace` and `service`, in the base's order, the webhook
    configuration's rules those of `era` (the base's: the newest).

    `ca_bundle` is the PEM of the CA(s) that signed the serving certificate (see `read_ca_bundle`);
    without it the configuration carries no caBundle, as in the base.
    """
    _check_names(namespace=namespace, service=service, image=image)
    objects: list[Manifest] = []
    if namespace not in KUBERNETES_NAMESPACES:
        objects.append(namespace_object(namespace))
    objects += [
        service_account(namespace),
        service_object(namespace, service),
        deployment(namespace, image),
        pod_disruption_budget(namespace),
        network_policy(namespace),
        validating_webhook_configuration(
            namespace=namespace, service=service, ca_bundle=ca_bundle, registry=registry, era=era
        ),
    ]
    return objects


def render_yaml(objects: Iterable[Manifest]) -> str:
    """Multi-document YAML, the way `kubectl apply -f -` reads it."""
    return yaml.safe_dump_all(list(objects), sort_keys=False, default_flow_style=False, explicit_start=True)


def read_ca_bundle(path: Path) -> bytes:
    """The PEM certificates in `path`, which may hold PEM or the base64 of PEM (a printed caBundle).

    Raises ValueError when the file holds no certificate, so a wrong file fails before it reaches
    the cluster (where it would make every review fail with a TLS error).
    """
    raw = path.read_bytes()
    if not raw.strip():
        raise ValueError(f"{path} is empty: expected the PEM of the CA that signed the serving certificate")
    pem = raw if b"-----BEGIN" in raw else _decode_base64(raw, path)
    try:
        certificates = x509.load_pem_x509_certificates(pem)
    except ValueError as err:
        raise ValueError(f"{path}: not a PEM certificate bundle: {err}") from err
    return b"".join(certificate.public_bytes(Encoding.PEM) for certificate in certificates)


def namespace_object(namespace: str) -> Manifest:
    return {
        "apiVersion": "v1",
        "kind": "Namespace",
        "metadata": {
            "name": namespace,
            "labels": {
                **_labels(),
                # The webhook's pods meet the restricted Pod Security Standard; enforcing it keeps them so.
                "pod-security.kubernetes.io/enforce": "restricted",
                "pod-security.kubernetes.io/enforce-version": "v1.30",
            },
        },
    }


def service_account(namespace: str) -> Manifest:
    return {
        "apiVersion": "v1",
        "kind": "ServiceAccount",
        "metadata": {"name": APP_NAME, "namespace": namespace, "labels": _labels()},
        # The webhook never calls the API server.
        "automountServiceAccountToken": False,
    }


def service_object(namespace: str, service: str) -> Manifest:
    return {
        "apiVersion": "v1",
        "kind": "Service",
        "metadata": {"name": service, "namespace": namespace, "labels": _labels()},
        "spec": {
            "type": "ClusterIP",
            "selector": _selector_labels(),
            "ports": [{"name": "https", "port": SERVICE_PORT, "targetPort": "https", "protocol": "TCP"}],
        },
    }


def deployment(namespace: str, image: str) -> Manifest:
    return {
        "apiVersion": "apps/v1",
        "kind": "Deployment",
        "metadata": {"name": APP_NAME, "namespace": namespace, "labels": _workload_labels()},
        "spec": {
            # With failurePolicy Fail one replica must always be there to answer.
            "replicas": 2,
            "revisionHistoryLimit": 3,
            "selector": {"matchLabels": _selector_labels()},
            # Start the new replica before stopping an old one: never fewer than two serving.
            "strategy": {"type": "RollingUpdate", "rollingUpdate": {"maxSurge": 1, "maxUnavailable": 0}},
            "template": {
                "metadata": {"labels": _workload_labels(), "annotations": _scrape_annotations()},
                "spec": _pod_spec(image),
            },
        },
    }


def pod_disruption_budget(namespace: str) -> Manifest:
    return {
        "apiVersion": "policy/v1",
        "kind": "PodDisruptionBudget",
        "metadata": {"name": APP_NAME, "namespace": namespace, "labels": _labels()},
        "spec": {
            "minAvailable": 1,
            "unhealthyPodEvictionPolicy": "AlwaysAllow",
            "selector": {"matchLabels": _selector_labels()},
        },
    }


def network_policy(namespace: str) -> Manifest:
    """Only the webhook's two ports may be reached (from anywhere: kube-apiserver's address differs by
    cluster), and the webhook reaches nothing: it calls no API and needs no DNS."""
    return {
        "apiVersion": "networking.k8s.io/v1",
        "kind": "NetworkPolicy",
        "metadata": {"name": APP_NAME, "namespace": namespace, "labels": _labels()},
        "spec": {
            "podSelector": {"matchLabels": _selector_labels()},
            "policyTypes": ["Ingress", "Egress"],
            "ingress": [
                {
                    "ports": [
                        {"port": "https", "protocol": "TCP"},
                        {"port": "metrics", "protocol": "TCP"},
                    ]
                }
            ],
            "egress": [],
        },
    }


def validating_webhook_configuration(
    *,
    namespace: str,
    service: str,
    ca_bundle: bytes | None = None,
    registry: KindRegistry = REGISTRY,
    era: Era = NEWEST_ERA,
) -> Manifest:
    client_config: Manifest = {
        "service": {"name": service, "namespace": namespace, "path": WEBHOOK_PATH, "port": SERVICE_PORT}
    }
    if ca_bundle is not None:
        client_config["caBundle"] = base64.b64encode(ca_bundle).decode("ascii")
    # The control plane's namespace and the webhook's own are never blocked (the webhook can always
    # be repaired); failurePolicy Fail is explained in manifests/base and docs/deploy.md.
    exempt_namespaces = list(dict.fromkeys([CONTROL_PLANE_NAMESPACE, namespace]))
    return {
        "apiVersion": "admissionregistration.k8s.io/v1",
        "kind": "ValidatingWebhookConfiguration",
        "metadata": {"name": APP_NAME, "labels": _labels()},
        "webhooks": [
            {
                "name": WEBHOOK_NAME,
                "clientConfig": client_config,
                "rules": era_rules(era, registry),
                "failurePolicy": "Fail",
                "matchPolicy": "Equivalent",
                "sideEffects": "None",
                "timeoutSeconds": TIMEOUT_SECONDS,
                "admissionReviewVersions": ["v1", "v1beta1"],
                "namespaceSelector": {
                    "matchExpressions": [
                        {
                            "key": "kubernetes.io/metadata.name",
                            "operator": "NotIn",
                            "values": exempt_namespaces,
                        }
                    ]
                },
            }
        ],
    }


def _pod_spec(image: str) -> Manifest:
    return {
        "serviceAccountName": APP_NAME,
        "automountServiceAccountToken": False,
        "enableServiceLinks": False,
        # ScheduleAnyway: a replica whose node is lost must still find a new place.
        "topologySpreadConstraints": [
            {
                "maxSkew": 1,
                "topologyKey": topology_key,
                "whenUnsatisfiable": "ScheduleAnyway",
                "labelSelector": {"matchLabels": _selector_labels()},
            }
            for topology_key in ("kubernetes.io/hostname", "topology.kubernetes.io/zone")
        ],
        "securityContext": {
            "runAsNonRoot": True,
            "runAsUser": RUN_AS_ID,
            "runAsGroup": RUN_AS_ID,
            # The kubelet gives the mounted Secret's files this group, so the key can be 0440.
            "fsGroup": RUN_AS_ID,
            "seccompProfile": {"type": "RuntimeDefault"},
        },
        "terminationGracePeriodSeconds": 30,
        "containers": [_webhook_container(image)],
        "volumes": [
            {"name": "tls", "secret": {"secretName": TLS_SECRET, "defaultMode": 0o440}},
            {"name": "tmp", "emptyDir": {"sizeLimit": "16Mi"}},
        ],
    }


def _webhook_container(image: str) -> Manifest:
    return {
        "name": "webhook",
        "image": image,
        "imagePullPolicy": "IfNotPresent",
        # --no-generate-certs: a missing certificate is an error, never a cue for a development one.
        "args": [
            "serve",
            "--host",
            "0.0.0.0",
            "--port",
            str(SERVING_PORT),
            "--cert-dir",
            CERT_DIR,
            "--no-generate-certs",
            # Two workers per pod, one per core of the CPU limit.
            "--workers",
            str(WORKERS_PER_POD),
            "--metrics-address",
            f"0.0.0.0:{METRICS_PORT}",
        ],
        "ports": [
            {"name": "https", "containerPort": SERVING_PORT, "protocol": "TCP"},
            {"name": "metrics", "containerPort": METRICS_PORT, "protocol": "TCP"},
        ],
        "readinessProbe": {
            "httpGet": {"path": "/readyz", "port": "https", "scheme": "HTTPS"},
            "periodSeconds": 5,
            "timeoutSeconds": 2,
            "failureThreshold": 2,
        },
        "livenessProbe": {
            "httpGet": {"path": "/healthz", "port": "https", "scheme": "HTTPS"},
            "initialDelaySeconds": 5,
            "periodSeconds": 10,
            "timeoutSeconds": 3,
            "failureThreshold": 3,
        },
        # Serve on while the endpoint leaves the Service; SIGTERM comes after this pause.
        "lifecycle": {"preStop": {"exec": {"command": ["sleep", "5"]}}},
        # Sized from the memory and CPU per review measured in docs/performance.md ("Sizing a pod");
        # the CPU limit is one core per single-threaded worker.
        "resources": {
            "requests": {"cpu": "100m", "memory": "224Mi"},
            "limits": {"cpu": str(WORKERS_PER_POD), "memory": "384Mi"},
        },
        "securityContext": {
            "runAsNonRoot": True,
            "runAsUser": RUN_AS_ID,
            "runAsGroup": RUN_AS_ID,
            "readOnlyRootFilesystem": True,
            "allowPrivilegeEscalation": False,
            "privileged": False,
            "capabilities": {"drop": ["ALL"]},
            "seccompProfile": {"type": "RuntimeDefault"},
        },
        "volumeMounts": [
            {"name": "tls", "mountPath": CERT_DIR, "readOnly": True},
            {"name": "tmp", "mountPath": "/tmp"},
        ],
    }


def _scrape_annotations() -> dict[str, str]:
    # Metrics are plain HTTP on their own port: scraping needs neither the TLS nor the client CA.
    return {
        "prometheus.io/scrape": "true",
        "prometheus.io/port": str(METRICS_PORT),
        "prometheus.io/path": "/metrics",
    }


def _labels() -> dict[str, str]:
    return {"app.kubernetes.io/name": APP_NAME, "app.kubernetes.io/part-of": APP_NAME}


def _selector_labels() -> dict[str, str]:
    return {"app.kubernetes.io/name": APP_NAME, "app.kubernetes.io/component": "admission-webhook"}


def _workload_labels() -> dict[str, str]:
    return {**_selector_labels(), "app.kubernetes.io/part-of": APP_NAME}


def _check_names(*, namespace: str, service: str, image: str) -> None:
    if problems := is_dns1123_label(namespace):
        raise ValueError(f"namespace {namespace!r}: {'; '.join(problems)}")
    if len(service) > _DNS1035_LABEL_MAX or not _DNS1035_LABEL_RE.fullmatch(service):
        raise ValueError(
            f"service {service!r}: a Service name must be a DNS-1035 label: at most 63 lowercase "
            "letters, digits and '-', starting with a letter and ending with a letter or digit"
        )
    if not _is_pinned_image(image):
        raise ValueError(f"image {image!r}: give a pinned image reference (a version tag or a digest)")


def _is_pinned_image(image: str) -> bool:
    """A digest, or a tag other than `latest` (an image with no tag means `latest`)."""
    if not image or any(character.isspace() for character in image):
        return False
    if "@" in image:
        return True
    last_segment = image.rsplit("/", 1)[-1]  # a registry host may carry a port: host:5000/name
    name, _, tag = last_segment.partition(":")
    return bool(name) and bool(tag) and tag != "latest"


def _decode_base64(raw: bytes, path: Path) -> bytes:
    try:
        return base64.b64decode(b"".join(raw.split()), validate=True)
    except (binascii.Error, ValueError) as err:
        raise ValueError(f"{path}: neither PEM nor base64-encoded PEM") from err
