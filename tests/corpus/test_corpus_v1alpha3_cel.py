"""The cases of the v1alpha3 corpus whose expectations need a CEL compiler (`"cel": true`): device
selectors compiled in 1.31's environment, with 1.31's messages (`webhook.cel.validate_device_selector`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pytest

from tests.corpus.test_corpus_v1alpha3 import check_answer, corpus_cases


def test_there_are_cel_cases() -> None:
    assert len(corpus_cases(cel=True)) >= 1


@pytest.mark.parametrize("entry", corpus_cases(cel=True))
def test_the_webhook_compiles_selectors_as_kube_apiserver_1_31(entry: Mapping[str, Any]) -> None:
    check_answer(entry)
