"""Judging files without a cluster: `dra-webhook validate` (manifests) and `dra-webhook review`
(AdmissionReviews and regression suites of them).

Both commands hand the same `Judge` the server uses what the API server would hand the webhook, so an
offline verdict is the verdict a cluster would give. Nothing here prints on its own: the runners
write to the streams they are given, and return the exit code (0 valid/allowed/met, 1
invalid/not validated/denied/unmet, 2 unreadable input).

The modules, in the order an input meets them:

* `inputs`: files, directories walked, stdin read once; JSON or YAML by the first character.
* `jsonstream`, `goyaml`: the two syntaxes as kubectl reads them (sigs.k8s.io/yaml for YAML), into
  the `documents` of an input, or an `UnreadableInput`.
* `objects`: the objects of a document, Lists flattened as kubectl flattens them, and the documents
  that are no Kubernetes objects.
* `apiserver`: what the API server fills in before validation (the request namespace, a generated
  name, and what `BeforeUpdate` copies from the stored object); `old_objects`: the `--old` objects
  updates match.
* `manifest_judge` and `validate`: `dra-webhook validate`.
* `expectations`, `suites`, `review_judge` and `review`: `dra-webhook review`.
* `workers` (`-j N` processes, results in input order), `progress` (the line on a terminal) and
  `reports` (text, JSON, TAP, JUnit; the tally behind the summary and the exit code): shared by both.
"""

from webhook.offline.apiserver import server_filled_update
from webhook.offline.documents import Document
from webhook.offline.expectations import CauseExpectation, Expectation, SuiteError, parse_expectation
from webhook.offline.goyaml import go_yaml_float_key
from webhook.offline.inputs import PathFilter, read_documents
from webhook.offline.manifest_judge import ValidateOptions
from webhook.offline.objects import ManifestObject, NotAnObject, objects_of
from webhook.offline.progress import Progress
from webhook.offline.review import ReviewRun, run_review
from webhook.offline.validate import ValidateRun, run_validate

__all__ = [
    "CauseExpectation",
    "Document",
    "Expectation",
    "ManifestObject",
    "NotAnObject",
    "PathFilter",
    "Progress",
    "ReviewRun",
    "SuiteError",
    "ValidateOptions",
    "ValidateRun",
    "go_yaml_float_key",
    "objects_of",
    "parse_expectation",
    "read_documents",
    "run_review",
    "run_validate",
    "server_filled_update",
]
