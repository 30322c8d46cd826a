"""dra-webhook: a validating admission webhook for Kubernetes Dynamic Resource Allocation.

It judges `resource.k8s.io/v1alpha2` objects exactly as kube-apiserver 1.30's built-in validation
does, plus the namespace rules for `parametersRef` that the API server cannot check. The same
judgement is served over HTTPS (`dra-webhook serve`), offline on files (`dra-webhook review`,
`dra-webhook validate`) and as a Python function:

    >>> from webhook import review
    >>> review({"apiVersion": "admission.k8s.io/v1", "kind": "AdmissionReview", "request": {...}})
"""

from webhook.admission import review

__all__ = ["review"]
