"""dra-webhook: a validating admission webhook for Kubernetes Dynamic Resource Allocation.

It judges `resource.k8s.io/v1alpha2` objects exactly as kube-apiserver 1.30's built-in validation
does, plus the namespace rules for `parametersRef` that the API server cannot check. The same
judgement is served over HTTPS (`dra-webhook serve`), offline on files (`dra-webhook review`,
`dra-webhook validate`) and as a Python function:

    >>> from webhook import review
    >>> review({"apiVersion": "admission.k8s.io/v1", "kind": "AdmissionReview", "request": {...}})
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from webhook.native import choose_build

# The compiled modules if they were built from these very sources, else the sources (webhook/native.py).
BUILD = choose_build()

if TYPE_CHECKING:
    from webhook.admission import review

__all__ = ["review"]


def __getattr__(name: str) -> Any:
    # Imported on first use, so that `import webhook.field` does not load the whole service.
    if name == "review":
        from webhook.admission import review

        return review
    raise AttributeError(f"module 'webhook' has no attribute {name!r}")
