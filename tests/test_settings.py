"""Every setting declared once: the `Flag` on a field of `Settings` is its flag of `dra-webhook serve`,
its `DRA_WEBHOOK_*` environment variable, its mapping onto `Settings` and its line in the docs."""

from __future__ import annotations

import argparse
import dataclasses
import io
import os
import re
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from webhook.cli import build_parser, main
from webhook.cli.flags import OFFLINE, SERVE, add_setting_flags, flag_values, policy_from, settings_from
from webhook.settings import (
    LISTENING,
    LOGGING,
    ConnectionLimits,
    ListenAddress,
    LogFormat,
    PolicySettings,
    Settings,
    UnknownKindPolicy,
    available_cpus,
)
from webhook.settings_flags import FLAG, Flag, build_settings, declared_settings, positive_int

ROOT = Path(__file__).parent.parent


@pytest.fixture(autouse=True)
def no_webhook_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each test starts from an environment without the serve flags' variables."""
    for setting in SERVE:
        monkeypatch.delenv(setting.flag.env, raising=False)


def serve(*argv: str) -> Settings:
    """The Settings `dra-webhook serve ARGV` runs with."""
    return settings_from(build_parser().parse_args(["serve", *argv]))


def help_of(command: str, capsys: pytest.CaptureFixture[str]) -> str:
    with pytest.raises(SystemExit):
        main([command, "--help"])
    return capsys.readouterr().out


def setting_of(settings: Any, path: str) -> Any:
    for name in path.split("."):
        settings = getattr(settings, name)
    return settings


# --- one declaration: one flag, one variable, one field ---------------------------------------------


def test_every_declared_setting_is_one_flag_of_serve_with_one_environment_variable(
    capsys: pytest.CaptureFixture[str],
) -> None:
    text = help_of("serve", capsys)
    usage = text.split("\n\n")[0]
    assert re.findall(r"\[(--[a-z-]+)", usage) == [setting.flag.name for setting in SERVE]
    for setting in SERVE:
        assert text.count(f"[{setting.flag.env}]") == 1, setting.flag.name
    assert len({setting.flag.env for setting in SERVE}) == len(SERVE)


def test_every_field_of_settings_and_of_its_connection_limits_is_a_flag() -> None:
    declared = {setting.path for setting in SERVE}
    fields = [item.name for item in dataclasses.fields(Settings) if item.name not in ("limits", "policy")]
    fields += [f"limits.{item.name}" for item in dataclasses.fields(ConnectionLimits)]
    assert [path for path in fields if path not in declared] == []


def test_every_switch_changes_its_setting_from_the_default() -> None:
    switches = [setting for setting in SERVE if setting.flag.is_switch]
    assert switches
    for setting in switches:
        assert setting_of(serve(), setting.path) == setting.default, setting.flag.name
        assert (
            setting_of(serve(setting.flag.name), setting.path) == setting.flag.when_given != setting.default
        )


# A made-up group of settings: what a new declaration brings with it.
@dataclass(frozen=True)
class Pacing:
    retries: int = field(
        default=3,
        metadata={FLAG: Flag("--retries", "attempts per call", LISTENING, parse=positive_int, metavar="N")},
    )


@dataclass(frozen=True)
class Knobs:
    quiet: bool = field(default=False, metadata={FLAG: Flag("--quiet", "say less", LOGGING)})
    pacing: Pacing = field(default_factory=Pacing)
    note: str = "no flag"


def test_a_new_declaration_is_a_flag_an_environment_variable_and_a_setting(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    declared = declared_settings(Knobs)
    assert [(setting.path, setting.flag.env) for setting in declared] == [
        ("quiet", "DRA_WEBHOOK_QUIET"),
        ("pacing.retries", "DRA_WEBHOOK_RETRIES"),
    ]
    monkeypatch.setenv("DRA_WEBHOOK_RETRIES", "5")
    parser = argparse.ArgumentParser(prog="knobs", formatter_class=argparse.ArgumentDefaultsHelpFormatter)
    add_setting_flags(parser, declared, grouped=True)
    assert re.search(
        r"--retries N +attempts per call \[DRA_WEBHOOK_RETRIES\] \(default: 5\)", parser.format_help()
    )
    args = parser.parse_args(["--quiet"])
    assert build_settings(Knobs, flag_values(args, declared)) == Knobs(quiet=True, pacing=Pacing(retries=5))
    assert build_settings(Knobs, {}) == Knobs()


def test_only_declared_settings_are_built() -> None:
    with pytest.raises(ValueError, match="no declared settings of Knobs: note"):
        build_settings(Knobs, {"note": "set"})


# --- what serve runs with ----------------------------------------------------------------------------


def test_without_flags_or_environment_serve_runs_with_the_defaults_and_one_worker_per_cpu(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(sys, "stderr", io.StringIO())  # no terminal: --log-format auto is json
    assert serve() == Settings(workers=available_cpus())


def test_environment_variables_set_the_serve_settings(monkeypatch: pytest.MonkeyPatch) -> None:
    environment = {
        "DRA_WEBHOOK_HOST": "0.0.0.0",
        "DRA_WEBHOOK_PORT": "9443",
        "DRA_WEBHOOK_WORKERS": "3",
        "DRA_WEBHOOK_METRICS_ADDRESS": ":9090",
        "DRA_WEBHOOK_CERT_DIR": "/etc/webhook/certs",
        "DRA_WEBHOOK_CLIENT_CA": "/etc/webhook/client-ca.crt",
        "DRA_WEBHOOK_NO_GENERATE_CERTS": "true",
        "DRA_WEBHOOK_CERT_RELOAD_INTERVAL": "30",
        "DRA_WEBHOOK_GRACE_PERIOD": "2.5",
        "DRA_WEBHOOK_SHUTDOWN_DELAY": "5",
        "DRA_WEBHOOK_LOG_LEVEL": "WARNING",
        "DRA_WEBHOOK_LOG_FORMAT": "text",
        "DRA_WEBHOOK_ACCESS_LOG": "on",
        "DRA_WEBHOOK_UNKNOWN_KIND": "deny",
        "DRA_WEBHOOK_NO_NAMESPACE_RULES": "1",
        "DRA_WEBHOOK_CONFIG": "/etc/webhook/config.yaml",
        "DRA_WEBHOOK_CONFIG_RELOAD_INTERVAL": "10",
        "DRA_WEBHOOK_MAX_BODY_BYTES": "1048576",
    }
    for name, value in environment.items():
        monkeypatch.setenv(name, value)
    assert serve() == Settings(
        host="0.0.0.0",
        port=9443,
        workers=3,
        metrics_address=ListenAddress("0.0.0.0", 9090),
        cert_dir=Path("/etc/webhook/certs"),
        client_ca_file=Path("/etc/webhook/client-ca.crt"),
        generate_dev_certs=False,
        cert_reload_interval_seconds=30.0,
        grace_period_seconds=2.5,
        shutdown_delay_seconds=5.0,
        log_level="warning",
        log_format=LogFormat.TEXT,
        access_log=True,
        policy=PolicySettings(unknown_kind=UnknownKindPolicy.DENY, namespace_rules=False),
        config_file=Path("/etc/webhook/config.yaml"),
        config_reload_interval_seconds=10.0,
        max_body_bytes=1048576,
    )
    # A flag on the command line wins over its variable.
    assert serve("--workers", "1", "--port", "8443").workers == 1


def test_the_client_limits_come_from_flags_or_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DRA_WEBHOOK_HEADER_TIMEOUT", "3")
    monkeypatch.setenv("DRA_WEBHOOK_MAX_CONNECTIONS", "50")
    limits = serve("--body-timeout", "4", "--idle-timeout", "95", "--write-timeout", "6").limits
    assert limits == ConnectionLimits(
        header_timeout_seconds=3.0,
        body_timeout_seconds=4.0,
        idle_timeout_seconds=95.0,
        write_timeout_seconds=6.0,
        max_connections=50,
    )


@pytest.mark.parametrize(
    ("name", "value", "message"),
    [
        ("DRA_WEBHOOK_PORT", "https", "argument --port: 'https' is not a whole number"),
        ("DRA_WEBHOOK_WORKERS", "0", "argument --workers: '0': must be at least 1"),
        ("DRA_WEBHOOK_GRACE_PERIOD", "-1", "argument --grace-period: '-1': must be zero or more"),
        ("DRA_WEBHOOK_METRICS_ADDRESS", "9090", "argument --metrics-address: '9090' is not HOST:PORT"),
        ("DRA_WEBHOOK_LOG_FORMAT", "xml", "argument --log-format: 'xml': choose from auto, json, text"),
        ("DRA_WEBHOOK_UNKNOWN_KIND", "maybe", "argument --unknown-kind: 'maybe': choose from allow, deny"),
        ("DRA_WEBHOOK_ACCESS_LOG", "maybe", "DRA_WEBHOOK_ACCESS_LOG='maybe': expected true or false"),
    ],
)
def test_a_bad_environment_value_is_a_usage_error(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], name: str, value: str, message: str
) -> None:
    monkeypatch.setenv(name, value)
    with pytest.raises(SystemExit) as exited:
        serve()
    assert exited.value.code == 2
    assert message in capsys.readouterr().err


def test_review_and_validate_take_the_policy_flags_and_their_variables(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    offline = [setting.flag.name for setting in OFFLINE]
    for command in ("review", "validate"):
        usage = help_of(command, capsys).split("\n\n")[0]
        assert [flag for flag in re.findall(r"\[(--[a-z-]+)", usage) if flag in offline] == offline
    monkeypatch.setenv("DRA_WEBHOOK_UNKNOWN_KIND", "deny")
    args = build_parser().parse_args(["validate", "--no-namespace-rules", "claims.yaml"])
    assert policy_from(args) == PolicySettings(unknown_kind=UnknownKindPolicy.DENY, namespace_rules=False)


def test_the_settings_import_without_the_command_line() -> None:
    code = "import sys, webhook.settings; print(sorted({'argparse', 'webhook.cli'} & set(sys.modules)))"
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, env=dict(os.environ)
    )
    assert result.stdout == "[]\n"


# --- the documents list the declared flags -----------------------------------------------------------

OPERATIONS = ROOT / "docs" / "operations.md"
# | `--port` | `DRA_WEBHOOK_PORT` | `8443` | HTTPS port |
FLAG_ROW = re.compile(r"^\| `(--[a-z-]+)` \| `(DRA_WEBHOOK_[A-Z_]+)` \| ([^|]*) \|", re.MULTILINE)


def test_docs_operations_lists_every_flag_of_serve_with_its_variable() -> None:
    rows = FLAG_ROW.findall(OPERATIONS.read_text())
    assert [(flag, env) for flag, env, _ in rows] == [
        (setting.flag.name, setting.flag.env) for setting in SERVE
    ]


def test_docs_operations_gives_the_declared_defaults() -> None:
    for (flag, _, written), setting in zip(FLAG_ROW.findall(OPERATIONS.read_text()), SERVE, strict=True):
        default = re.fullmatch(r"`([^`]+)`(?: s)?", written.strip())
        if setting.flag.is_switch or setting.default_text() is None:
            assert written.strip() in ("off", "none"), flag
        elif default is not None:
            assert setting.flag.read(default[1]) == setting.flag.read(str(setting.default_text())), flag
        else:  # a default of the machine it runs on, in words (--workers: one per CPU)
            assert setting.flag.default_text is not None, flag


def test_docs_operations_names_the_policy_flags_of_review_and_validate() -> None:
    sentence = re.search(
        r"`review` and `validate` take the policy flags too \(([^)]*)\)", OPERATIONS.read_text()
    )
    assert sentence is not None
    assert re.findall(r"`(--[a-z-]+)`", sentence[1]) == [setting.flag.name for setting in OFFLINE]


def test_the_readme_names_only_flags_serve_has() -> None:
    readme = (ROOT / "README.md").read_text()
    paragraph = readme[readme.index("`dra-webhook serve --help` lists every flag") :].split("\n\n")[0]
    named = re.findall(r"`(--[a-z-]+)", paragraph)
    assert len(named) >= 10
    assert set(named) - {"--help"} <= {setting.flag.name for setting in SERVE}
