"""dra-webhook: a validating admission webhook for Kubernetes Dynamic Resource Allocation.

It judges `resource.k8s.io` objects exactly as the built-in validation of the kube-apiserver
release each apiVersion belongs to does (`v1`, `v1beta2`, `v1beta1`: 1.37; `v1alpha3`: 1.31, its
DeviceTaintRule and ResourcePoolStatusRequest 1.37; `v1alpha2`: 1.30, plus the namespace rules for
`parametersRef` that the API server cannot check; docs/versions.md). The same judgement is served
over HTTPS (`dra-webhook serve`), offline on files (`dra-webhook review`, `dra-webhook validate`)
and as Python functions, on an AdmissionReview or on a manifest:

    >>> from webhook import review, review_manifest
    >>> review({"apiVersion": "admission.k8s.io/v1", "kind": "AdmissionReview", "request": {...}})
    >>> review_manifest(yaml.safe_load(open("claim.yaml")))["allowed"]
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from webhook.native import choose_build

# The compiled modules if they were built from these very sources, else the sources (webhook/native.py).
BUILD = choose_build()

if TYPE_CHECKING:
    # Not webhook.offline: the mypy run that compiles the rules at install would follow it into the
    # offline readers (PyYAML, whose stubs a build environment does not have); review_manifest is
    # typed where it is defined, webhook/offline/manifest_review.py.
    from webhook.admission import review

__all__ = ["review", "review_manifest"]


def __getattr__(name: str) -> Any:
    # Imported on first use, so that `import webhook.field` does not load the whole service.
    if name == "review":
        from webhook.admission import review

        return review
    if name == "review_manifest":
        # Imported by name: mypy follows an import statement even inside a function, and the mypy run
        # that compiles the rules at install must not reach the offline package (see above).
        return importlib.import_module("webhook.offline.manifest_review").review_manifest
    raise AttributeError(f"module 'webhook' has no attribute {name!r}")
