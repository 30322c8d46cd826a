"""The cases of the resource.k8s.io/v1 corpus whose expectations hold CEL errors: they need the CEL
environment of 1.37 (`webhook.cel.validate_device_selector`, from the cel branch)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pytest

from tests.corpus.v1_corpus import check_answer, corpus_cases


@pytest.mark.parametrize("entry", list(corpus_cases(cel=True)))
def test_the_webhook_answers_cel_cases_as_kube_apiserver_1_37(entry: Mapping[str, Any]) -> None:
    check_answer(entry)
