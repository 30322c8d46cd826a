"""The cases of the v1alpha3 corpus whose expectations need a CEL compiler (`"cel": true`): device
selectors compiled in 1.31's environment, with 1.31's messages (`webhook.cel.validate_device_selector`).

They are skipped while that function is the placeholder that finds nothing, and run as they are once
the CEL compiler for device selectors is in.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pytest

from tests.corpus.test_corpus_v1alpha3 import check_answer, corpus_cases
from webhook.cel import validate_device_selector
from webhook.field import ROOT
from webhook.rules.release import KUBERNETES_1_31

# An expression every CEL compiler refuses: a compiler that finds nothing here is the placeholder.
COMPILES_DEVICE_SELECTORS = bool(validate_device_selector("device.", ROOT, release=KUBERNETES_1_31))

pytestmark = pytest.mark.skipif(
    not COMPILES_DEVICE_SELECTORS, reason="device selectors are not compiled yet (webhook.cel placeholder)"
)


def test_there_are_cel_cases() -> None:
    assert len(corpus_cases(cel=True)) >= 1


@pytest.mark.parametrize("entry", corpus_cases(cel=True))
def test_the_webhook_compiles_selectors_as_kube_apiserver_1_31(entry: Mapping[str, Any]) -> None:
    check_answer(entry)
