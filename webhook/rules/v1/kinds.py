"""The kinds of resource.k8s.io/v1 this package judges (what the registry reads)."""

from __future__ import annotations

from typing import Final

from webhook.rules.kinds import KindRules
from webhook.rules.v1.deviceclass import DEVICE_CLASS

KINDS: Final[tuple[KindRules, ...]] = (DEVICE_CLASS,)
