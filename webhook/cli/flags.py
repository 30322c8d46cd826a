"""Flags whose default is their `DRA_WEBHOOK_*` environment variable, the argument types that check
their values, and the policy flags that serve, review and validate share."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any, Final

from webhook.cli.command import EXIT_UNREADABLE
from webhook.settings import ListenAddress, PolicySettings, UnknownKindPolicy, env_name

_TRUE_WORDS: Final = ("1", "true", "yes", "on")
_FALSE_WORDS: Final = ("", "0", "false", "no", "off")


def env_option(parser: Any, flag: str, default: str | None, help: str, **options: Any) -> None:
    """A flag whose default is its environment variable, else `default`. Both are strings that argparse
    converts and checks with `type` (a bad environment value is a usage error, as a bad flag is)."""
    env = env_name(flag)
    parser.add_argument(flag, default=os.environ.get(env) or default, help=f"{help} [{env}]", **options)


def env_switch(parser: Any, flag: str, help: str) -> None:
    """An on/off flag; its environment variable takes 1/true/yes/on or 0/false/no/off."""
    env = env_name(flag)
    raw = os.environ.get(env, "")
    if raw.lower() not in (*_TRUE_WORDS, *_FALSE_WORDS):
        print(f"dra-webhook: {env}={raw!r}: expected true or false", file=sys.stderr)
        raise SystemExit(EXIT_UNREADABLE)  # the status of a usage error
    parser.add_argument(flag, action="store_true", default=raw.lower() in _TRUE_WORDS, help=f"{help} [{env}]")


def positive_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"{text!r}: must be at least 1")
    return value


def port(text: str) -> int:
    value = positive_int(text)
    if value > 65535:
        raise argparse.ArgumentTypeError(f"{text!r}: a port is at most 65535")
    return value


def non_negative_float(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds") from None
    if not 0 <= value < float("inf"):
        raise argparse.ArgumentTypeError(f"{text!r}: must be zero or more")
    return value


def positive_float(text: str) -> float:
    value = non_negative_float(text)
    if value == 0:
        raise argparse.ArgumentTypeError(f"{text!r}: must be more than zero")
    return value


def listen_address(text: str) -> ListenAddress:
    try:
        return ListenAddress.parse(text)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def one_of(*choices: str) -> Callable[[str], str]:
    """A `type` that checks a value against `choices` (argparse checks `choices` only on the command
    line, not on a default taken from the environment)."""

    def choice(text: str) -> str:
        if text.lower() not in choices:
            raise argparse.ArgumentTypeError(f"{text!r}: choose from {', '.join(choices)}")
        return text.lower()

    return choice


# --- the policy flags -------------------------------------------------------------------------------


def add_policy_flags(parser: Any) -> None:
    """The policy switches: flags of serve, review and validate (same judgement everywhere)."""
    kinds = [policy.value for policy in UnknownKindPolicy]
    env_option(
        parser,
        "--unknown-kind",
        UnknownKindPolicy.ALLOW.value,
        "answer for kinds this webhook does not validate: allow (with a warning) or deny",
        type=one_of(*kinds),
        choices=kinds,
    )
    env_switch(
        parser,
        "--no-namespace-rules",
        "turn off the webhook's own namespace rules for parametersRef (README.md, What it checks)",
    )
    env_option(
        parser,
        "--config",
        None,
        "YAML file of policy switches (unknownKind, namespaceRules, enforcement per kind); what it sets "
        "overrides the flags; serve re-reads it when it changes and keeps the old one if it is broken",
        type=Path,
        metavar="FILE",
    )


def flag_policy(args: argparse.Namespace) -> PolicySettings:
    """The policy the flags (and their environment variables) say, without the --config file."""
    return PolicySettings(
        namespace_rules=not args.no_namespace_rules,
        unknown_kind=UnknownKindPolicy(args.unknown_kind),
    )


def policy_from(args: argparse.Namespace) -> PolicySettings:
    """The policy of the flags with the --config file applied (for the offline commands; serve
    applies and watches the file itself)."""
    policy = flag_policy(args)
    if args.config is None:
        return policy
    from webhook.config import ConfigError, load_config
    from webhook.registry import REGISTRY

    try:
        return load_config(args.config, base=policy, known_kinds=set(REGISTRY))
    except ConfigError as error:
        print(f"dra-webhook: {error}", file=sys.stderr)
        raise SystemExit(EXIT_UNREADABLE) from None
