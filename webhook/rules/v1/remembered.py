"""Values a check found nothing wrong with, remembered, so that the next object that carries them is not
checked again: a device, attribute or capacity name, a version, repeats on every device of a
slice.

A check of a name is a pure function of the name, and whether it finds anything does not depend on
the path its errors would be reported at: a value valid once is valid always, and an invalid one is
never remembered (its errors are worded from scratch each time). The sets are bounded, module state
on purpose, as webhook/cel.py's cache of compiled selectors.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from webhook.field import ROOT, ErrorList, FieldPath

# At most this many values per check, each at most this many characters (a name of resource.k8s.io is
# at most 253 bytes; a longer value is checked each time).
REMEMBERED_VALUES_MAX: Final = 4096
REMEMBERED_VALUE_MAX_LENGTH: Final = 256

Check = Callable[[str, FieldPath], ErrorList]


class ValidValues:
    """The values in which `check` found no error. `known` holds those remembered: a loop over many
    values asks `value in known or holds(value)`, a set look-up before a call."""

    def __init__(self, check: Check) -> None:
        self._check = check
        self.known: Final[set[str]] = set()

    def holds(self, value: str) -> bool:
        """Whether `check(value, path)` finds nothing, at any path: asked before a path is made."""
        if value in self.known:
            return True
        if self._check(value, ROOT):
            return False
        if len(self.known) < REMEMBERED_VALUES_MAX and len(value) <= REMEMBERED_VALUE_MAX_LENGTH:
            self.known.add(value)
        return True

    def __contains__(self, value: str) -> bool:
        """Whether `value` is remembered (for tests: never an invalid one)."""
        return value in self.known
