"""What differs between the Kubernetes releases the webhook judges as: one value per release.

The rules differ by Kubernetes *release*; the wire shape and the field paths differ by *apiVersion*.
A version package under `webhook/rules/` writes the rules of its kinds in its apiVersion's shape and
names the release they are exact to; the shared building blocks (`meta`, `names`, `field`, ...) take
the `Release` where their behaviour changed between releases (a limit, a message text, a name check),
so one building block serves every release and the difference is written once, here.

A field is added here only for a difference a building block needs; rules that exist in one release
only live in that release's version package.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final


@dataclass(frozen=True, slots=True)
class Release:
    """One Kubernetes release whose kube-apiserver validation the webhook reproduces."""

    version: str  # "1.30": what offline output, the decision log and the docs call it

    def __str__(self) -> str:
        return f"Kubernetes {self.version}"


KUBERNETES_1_30: Final = Release(version="1.30")
KUBERNETES_1_31: Final = Release(version="1.31")
KUBERNETES_1_37: Final = Release(version="1.37")

RELEASES: Final = (KUBERNETES_1_30, KUBERNETES_1_31, KUBERNETES_1_37)
