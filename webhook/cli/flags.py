"""The settings declared in webhook/settings.py as argparse flags: each `Flag` becomes an option
whose default is its `DRA_WEBHOOK_*` environment variable, and the parsed options become `Settings`.

Nothing here names a setting: a new field of `Settings` with a `Flag` in its metadata is a new flag
of serve and a new environment variable (and, when the flag is `offline`, of review and validate).
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable, Sequence
from typing import Any, Final

from webhook.cli.command import EXIT_UNREADABLE
from webhook.settings import PolicySettings, Settings
from webhook.settings_flags import DeclaredSetting, Flag, FlagGroup, build_settings, declared_settings

# The flags of serve: every declared setting.
SERVE: Final = declared_settings(Settings)
# The flags of review and validate: the policy switches, so that an offline judgement is the server's.
OFFLINE: Final = tuple(setting for setting in SERVE if setting.flag.offline)

_TRUE_WORDS: Final = ("1", "true", "yes", "on")
_FALSE_WORDS: Final = ("", "0", "false", "no", "off")


def add_setting_flags(parser: Any, settings: Sequence[DeclaredSetting], *, grouped: bool) -> None:
    """The flags of `settings`, under the headings of their groups when `grouped`. A switch's
    environment variable that is neither true nor false stops the command here, as a usage error."""
    groups: dict[FlagGroup, Any] = {}
    for setting in settings:
        group = setting.flag.group
        if grouped and group not in groups:
            groups[group] = parser.add_argument_group(group.title, group.description)
        target = groups[group] if grouped else parser
        if setting.flag.is_switch:
            _add_switch(target, setting.flag)
        else:
            _add_option(target, setting)


def _add_option(parser: Any, setting: DeclaredSetting) -> None:
    """A flag whose default is its environment variable, else the setting's default. Both are text that
    argparse reads with the flag's `read` (a bad environment value is a usage error, as a bad flag is)."""
    flag = setting.flag
    parser.add_argument(
        flag.name,
        dest=_dest(flag),
        default=os.environ.get(flag.env) or setting.default_text(),
        help=f"{flag.help} [{flag.env}]",
        type=_argument_type(flag),
        # argparse's own `choices` would be checked against the value read, not against the text.
        metavar=f"{{{','.join(flag.choices)}}}" if flag.choices else flag.metavar,
    )


def _add_switch(parser: Any, flag: Flag) -> None:
    """An on/off flag; its environment variable takes 1/true/yes/on or 0/false/no/off."""
    raw = os.environ.get(flag.env, "")
    if raw.lower() not in (*_TRUE_WORDS, *_FALSE_WORDS):
        print(f"dra-webhook: {flag.env}={raw!r}: expected true or false", file=sys.stderr)
        raise SystemExit(EXIT_UNREADABLE)  # the status of a usage error
    parser.add_argument(
        flag.name,
        dest=_dest(flag),
        action="store_true",
        default=raw.lower() in _TRUE_WORDS,
        help=f"{flag.help} [{flag.env}]",
    )


def _argument_type(flag: Flag) -> Callable[[str], Any]:
    """The flag's `read` as an argparse `type`: its ValueError becomes argparse's message."""

    def argument(text: str) -> Any:
        try:
            return flag.read(text)
        except ValueError as error:
            raise argparse.ArgumentTypeError(str(error)) from None

    return argument


def _dest(flag: Flag) -> str:
    """The attribute of the parsed arguments that holds the flag (argparse's own name for it)."""
    return flag.name.lstrip("-").replace("-", "_")


def settings_from(args: argparse.Namespace, settings: Sequence[DeclaredSetting] = SERVE) -> Settings:
    """The `Settings` the parsed flags of `settings` say; the settings not among them keep their
    defaults."""
    return build_settings(Settings, flag_values(args, settings))


def flag_values(args: argparse.Namespace, settings: Sequence[DeclaredSetting]) -> dict[str, Any]:
    """The values the parsed flags of `settings` give them, by their paths (``limits.max_connections``).
    A switch not given leaves its setting at the default."""
    values = {}
    for setting in settings:
        given = getattr(args, _dest(setting.flag))
        if setting.flag.is_switch:
            values[setting.path] = setting.flag.when_given if given else setting.default
        else:
            values[setting.path] = given
    return values


def policy_from(args: argparse.Namespace) -> PolicySettings:
    """The policy of the flags with the --config file applied (for the offline commands; serve
    applies and watches the file itself)."""
    flags = settings_from(args, OFFLINE)
    if flags.config_file is None:
        return flags.policy
    from webhook.config import ConfigError, load_config
    from webhook.registry import REGISTRY

    try:
        return load_config(flags.config_file, base=flags.policy, known_kinds=set(REGISTRY))
    except ConfigError as error:
        print(f"dra-webhook: {error}", file=sys.stderr)
        raise SystemExit(EXIT_UNREADABLE) from None
