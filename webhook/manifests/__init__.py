"""The Kubernetes objects that deploy the webhook, rendered in Python.

`manifests/base` is the same set as a kustomize base, written by hand with its comments; this package
renders it (`objects`) for any namespace and Service name with the caBundle filled in, for `dra-webhook
manifests` and for clusters without kustomize or cert-manager. tests/test_manifests.py holds the two
equal, so a change to one that is not made to the other fails the tests.

The webhook configuration's rules are not written anywhere by hand: they are derived (`rules`) from the rule
registry (`webhook.registry.REGISTRY`) and the release table (`webhook.eras`), so the API server of
each era of Kubernetes sends the webhook exactly the kinds and subresources it judges there, each in
the apiVersion its rules are for (`matchPolicy: Equivalent` converts the other versions to it).
`manifests/base` holds the newest era's; the kustomize components `manifests/eras/<era>` replace them
for older clusters. They are generated (`components`) by `python -m webhook.manifests` (`make manifests`), and
tests/test_manifests.py fails when a committed one differs from what this package renders.
"""

from webhook.manifests.components import era_component, generated_files, write_generated_files
from webhook.manifests.objects import (
    DEFAULT_IMAGE,
    DEFAULT_NAMESPACE,
    DEFAULT_SERVICE,
    IMAGE_TAG,
    RUN_AS_ID,
    read_ca_bundle,
    render_objects,
    render_yaml,
)
from webhook.manifests.rules import (
    Manifest,
    era_resources,
    era_rules,
    registry_resources,
    release_notes,
    rule_resources,
    rules_of,
    webhook_rules,
)

__all__ = [
    "DEFAULT_IMAGE",
    "DEFAULT_NAMESPACE",
    "DEFAULT_SERVICE",
    "IMAGE_TAG",
    "RUN_AS_ID",
    "Manifest",
    "era_component",
    "era_resources",
    "era_rules",
    "generated_files",
    "read_ca_bundle",
    "registry_resources",
    "release_notes",
    "render_objects",
    "render_yaml",
    "rule_resources",
    "rules_of",
    "webhook_rules",
    "write_generated_files",
]
