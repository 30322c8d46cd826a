"""Validation of resource.k8s.io/v1alpha2 as kube-apiserver 1.30 runs it (pkg/apis/resource/validation)."""
