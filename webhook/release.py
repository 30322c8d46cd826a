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

from collections.abc import Callable
from dataclasses import dataclass
from typing import Final


@dataclass(frozen=True, slots=True)
class Release:
    """One Kubernetes release whose kube-apiserver validation the webhook reproduces."""

    version: str  # "1.30": what offline output, the decision log and the docs call it

    # `field.TooLong` (apimachinery): "must have at most N bytes" up to 1.31, "may not be more than
    # N bytes" (value never shown) from 1.32 on.
    too_long_may_not_be_more: bool = False
    # Label keys and values are checked by apimachinery's `validate/content` package from 1.35 on
    # (`IsQualifiedName = content.IsLabelKey`): lengths in bytes, a key with two slashes "a valid label
    # key ...". Before, `util/validation`: lengths in characters, "a qualified name ...".
    content_label_checks: bool = False
    # ObjectMeta as apimachinery 0.36+ checks it: owner reference fields Required at their index,
    # managed-field operations NotSupported, generation non-negative on update too, error values
    # printed as JSON (`field.Error.ErrorBody`, 0.34+).
    object_meta_1_36: bool = False
    # NodeSelector label values in matchExpressions are validated (`ValidateNodeSelector(selector,
    # allowInvalidLabelValueInRequiredNodeAffinity=false, ...)`, 1.31 on).
    node_selector_label_values: bool = False

    def __str__(self) -> str:
        return f"Kubernetes {self.version}"

    def __reduce__(self) -> tuple[Callable[[str], Release], tuple[str]]:
        """Pickled as its name: a Release that crosses to another process (`validate --jobs`) is the
        same constant there. (A frozen class compiled by mypyc cannot be rebuilt field by field.)"""
        return release_named, (self.version,)


KUBERNETES_1_30: Final = Release(version="1.30")
KUBERNETES_1_31: Final = Release(version="1.31")
KUBERNETES_1_37: Final = Release(
    version="1.37",
    too_long_may_not_be_more=True,
    content_label_checks=True,
    object_meta_1_36=True,
    node_selector_label_values=True,
)

RELEASES: Final = (KUBERNETES_1_30, KUBERNETES_1_31, KUBERNETES_1_37)


def release_named(version: str) -> Release:
    """The Release of this version ("1.31"); KeyError for one the webhook does not judge as."""
    for release in RELEASES:
        if release.version == version:
            return release
    raise KeyError(f"no release {version!r}")
