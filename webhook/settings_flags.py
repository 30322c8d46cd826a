"""How a setting declares its flag: the vocabulary of webhook/settings.py, and the reading back.

A field of a settings dataclass that the command line sets carries a `Flag` in its metadata
(``field(default=..., metadata={FLAG: Flag(...)})``): the flag's name, which also names its
environment variable (`env_name`), its help, the `--help` heading it is listed under, and how its
text becomes the value (`Flag.read`; the readers of common values are here). `declared_settings`
lists the declarations of a dataclass and of the dataclasses it holds; `build_settings` builds one
from values by their paths. `webhook.cli.flags` turns them into argparse options; nothing here reads
the environment or knows argparse.
"""

from __future__ import annotations

import dataclasses
import enum
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any, Final, TypeVar

ENV_PREFIX: Final = "DRA_WEBHOOK_"


@dataclass(frozen=True, slots=True)
class FlagGroup:
    """A heading of `dra-webhook serve --help`, under which its flags are listed."""

    title: str
    description: str | None = None


# The key of a field's metadata that holds its `Flag`.
FLAG: Final = "flag"


@dataclass(frozen=True, slots=True)
class Flag:
    """How one setting is given to `dra-webhook serve`: as the flag `name` or as its environment
    variable `env_name(name)` (a flag on the command line wins).

    A flag with `parse` takes a value, the text of the flag or of the variable: `parse` turns it into
    the setting's value or raises ValueError saying why not (a usage error). With `choices`, the text
    is first lower-cased and must be one of them. A flag without `parse` is a switch: given (or its
    variable true) it sets the setting to `when_given`, else the setting keeps its default.
    """

    name: str
    help: str
    group: FlagGroup
    parse: Callable[[str], Any] | None = None
    metavar: str | None = None
    choices: tuple[str, ...] = ()
    when_given: bool = True
    # The default of the command line, as text, where it is not the field's default.
    default_text: Callable[[], str] | None = None
    # Also a flag of `review` and `validate`: the policy switches, so that an offline judgement is
    # the server's.
    offline: bool = False

    @property
    def env(self) -> str:
        return env_name(self.name)

    @property
    def is_switch(self) -> bool:
        return self.parse is None

    def read(self, text: str) -> Any:
        """The setting's value written `text`; ValueError with the reason when it has none."""
        if self.parse is None:
            raise TypeError(f"{self.name} is a switch: it takes no value")
        if self.choices:
            if text.lower() not in self.choices:
                raise ValueError(f"{text!r}: choose from {', '.join(self.choices)}")
            text = text.lower()
        return self.parse(text)


def env_name(flag: str) -> str:
    """The environment variable of a flag: ``--grace-period`` -> ``DRA_WEBHOOK_GRACE_PERIOD``."""
    return ENV_PREFIX + flag.lstrip("-").upper().replace("-", "_")


def positive_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise ValueError(f"{text!r} is not a whole number") from None
    if value < 1:
        raise ValueError(f"{text!r}: must be at least 1")
    return value


def port_number(text: str) -> int:
    value = positive_int(text)
    if value > 65535:
        raise ValueError(f"{text!r}: a port is at most 65535")
    return value


def seconds(text: str) -> float:
    """A duration in seconds, zero or more (finite)."""
    try:
        value = float(text)
    except ValueError:
        raise ValueError(f"{text!r} is not a number of seconds") from None
    if not 0 <= value < float("inf"):
        raise ValueError(f"{text!r}: must be zero or more")
    return value


def positive_seconds(text: str) -> float:
    value = seconds(text)
    if value == 0:
        raise ValueError(f"{text!r}: must be more than zero")
    return value


# --- the declarations, read back ------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class DeclaredSetting:
    """A field that carries a `Flag`: where it sits (``port``, ``limits.max_connections``), its
    default, and its flag."""

    path: str
    default: Any
    flag: Flag

    def default_text(self) -> str | None:
        """The flag's default as the command line writes it: the field's default, unless the flag
        says otherwise (None: no default)."""
        if self.flag.default_text is not None:
            return self.flag.default_text()
        if self.default is None:
            return None
        return str(self.default.value if isinstance(self.default, enum.Enum) else self.default)


def declared_settings(of: type[Any]) -> tuple[DeclaredSetting, ...]:
    """The fields of the dataclass `of` that carry a `Flag`, and those of the dataclasses it holds
    (`Settings.limits`, `Settings.policy`), in the order of the fields."""
    return tuple(_declared(of, prefix=""))


def _declared(of: Any, *, prefix: str) -> Iterator[DeclaredSetting]:
    for item in dataclasses.fields(of):
        flag = item.metadata.get(FLAG)
        if flag is not None:
            yield DeclaredSetting(prefix + item.name, item.default, flag)
        elif _holds_settings(item):
            yield from _declared(item.default_factory, prefix=f"{prefix}{item.name}.")


T = TypeVar("T")


def build_settings(of: type[T], values: Mapping[str, Any]) -> T:
    """An `of` whose declared settings named in `values` (by path) have those values, and every other
    field its default."""
    undeclared = set(values) - {setting.path for setting in declared_settings(of)}
    if undeclared:
        raise ValueError(f"no declared settings of {of.__name__}: {', '.join(sorted(undeclared))}")
    settings: T = _build(of, values, prefix="")
    return settings


def _build(of: Any, values: Mapping[str, Any], *, prefix: str) -> Any:
    arguments: dict[str, Any] = {}
    for item in dataclasses.fields(of):
        path = prefix + item.name
        if path in values:
            arguments[item.name] = values[path]
        elif _holds_settings(item) and any(key.startswith(f"{path}.") for key in values):
            arguments[item.name] = _build(item.default_factory, values, prefix=f"{path}.")
    return of(**arguments)


def _holds_settings(item: dataclasses.Field[Any]) -> bool:
    """A field whose default is a dataclass of settings (`Settings.limits`)."""
    return isinstance(item.default_factory, type) and dataclasses.is_dataclass(item.default_factory)
