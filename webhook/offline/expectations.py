"""What a review's answer must say: the expectations of suites and of `--expect` files, and the
problems an answer has against them. The format is documented in docs/offline.md."""

from __future__ import annotations

import fnmatch
import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

from webhook.offline.inputs import read_documents
from webhook.rules.values import mapping, text

_EXPECTATION_KEYS: Final = frozenset(
    {
        "allowed",
        "code",
        "reason",
        "message",
        "message_contains",
        "causes",
        "causes_exact",
        "warnings_contain",
    }
)
_CAUSE_KEYS: Final = frozenset({"field", "reason", "message"})
_EXPECT_SELECTOR_KEYS: Final = frozenset({"file", "uid"})


class SuiteError(ValueError):
    """A suite or expectation file that does not follow the documented format."""


@dataclass(frozen=True, slots=True)
class CauseExpectation:
    field: str | None = None
    reason: str | None = None
    message: str | None = None

    def matches(self, cause: Mapping[str, Any]) -> bool:
        return all(
            expected is None or cause.get(key) == expected
            for key, expected in (("field", self.field), ("reason", self.reason), ("message", self.message))
        )

    def __str__(self) -> str:
        parts = [
            f"{key}={value!r}"
            for key, value in (("field", self.field), ("reason", self.reason), ("message", self.message))
            if value is not None
        ]
        return "{" + ", ".join(parts) + "}"


@dataclass(frozen=True, slots=True)
class Expectation:
    """What a review's answer must say. Only the keys that are given are checked."""

    allowed: bool | None = None
    code: int | None = None
    reason: str | None = None
    message: str | None = None
    message_contains: tuple[str, ...] = ()
    causes: tuple[CauseExpectation, ...] = ()
    causes_exact: bool = False
    warnings_contain: tuple[str, ...] = ()

    def problems(self, response: Mapping[str, Any]) -> list[str]:
        """Every way the AdmissionReview `response` misses this expectation (none: met)."""
        status = mapping(response.get("status"))
        allowed = response.get("allowed") is True
        code = int(status.get("code", 200)) if status else 200
        message = text(status.get("message"))
        details = mapping(status.get("details"))
        causes = [cause for cause in details.get("causes") or () if isinstance(cause, Mapping)]
        warnings = [warning for warning in response.get("warnings") or () if isinstance(warning, str)]

        problems = []
        if self.allowed is not None and self.allowed != allowed:
            said = f": {message}" if message else ""
            problems.append(f"allowed: expected {_yaml_bool(self.allowed)}, got {_yaml_bool(allowed)}{said}")
        if self.code is not None and self.code != code:
            problems.append(f"code: expected {self.code}, got {code}")
        if self.reason is not None and self.reason != text(status.get("reason")):
            problems.append(f"reason: expected {self.reason!r}, got {text(status.get('reason'))!r}")
        if self.message is not None and self.message != message:
            problems.append(f"message: expected {self.message!r}, got {message!r}")
        problems.extend(
            f"message does not contain {part!r}: {message!r}"
            for part in self.message_contains
            if part not in message
        )
        problems.extend(self._cause_problems(causes))
        problems.extend(
            f"no warning contains {part!r}"
            for part in self.warnings_contain
            if not any(part in w for w in warnings)
        )
        return problems

    def _cause_problems(self, causes: Sequence[Mapping[str, Any]]) -> list[str]:
        got = ", ".join(f"{cause.get('field')} ({cause.get('reason')})" for cause in causes) or "none"
        if self.causes_exact:
            if len(causes) != len(self.causes) or not all(
                expected.matches(cause) for expected, cause in zip(self.causes, causes, strict=False)
            ):
                wanted = ", ".join(str(expected) for expected in self.causes) or "none"
                return [f"causes: expected exactly [{wanted}], got [{got}]"]
            return []
        return [
            f"no cause matches {expected}; causes: [{got}]"
            for expected in self.causes
            if not any(expected.matches(cause) for cause in causes)
        ]


ALLOWED: Final = Expectation(allowed=True)


def _yaml_bool(value: bool) -> str:
    return "true" if value else "false"


def parse_expectation(raw: Any, where: str, *, extra_keys: frozenset[str] = frozenset()) -> Expectation:
    if not isinstance(raw, Mapping):
        raise SuiteError(f"{where}: expected a mapping of expectations")
    unknown = sorted(set(raw) - _EXPECTATION_KEYS - extra_keys)
    if unknown:
        raise SuiteError(
            f"{where}: unknown key {unknown[0]!r} (known: {', '.join(sorted(_EXPECTATION_KEYS))})"
        )
    return Expectation(
        allowed=typed_field(raw, "allowed", bool, where),
        code=typed_field(raw, "code", int, where),
        reason=typed_field(raw, "reason", str, where),
        message=typed_field(raw, "message", str, where),
        message_contains=_strings(raw.get("message_contains"), f"{where}.message_contains"),
        causes=tuple(
            _parse_cause(cause, f"{where}.causes[{index}]")
            for index, cause in enumerate(_list(raw.get("causes"), f"{where}.causes"))
        ),
        causes_exact=typed_field(raw, "causes_exact", bool, where) or False,
        warnings_contain=_strings(raw.get("warnings_contain"), f"{where}.warnings_contain"),
    )


def _parse_cause(raw: Any, where: str) -> CauseExpectation:
    if not isinstance(raw, Mapping) or not raw:
        raise SuiteError(f"{where}: expected a mapping with field, reason and/or message")
    unknown = sorted(set(raw) - _CAUSE_KEYS)
    if unknown:
        raise SuiteError(f"{where}: unknown key {unknown[0]!r} (known: field, message, reason)")
    return CauseExpectation(
        field=typed_field(raw, "field", str, where),
        reason=typed_field(raw, "reason", str, where),
        message=typed_field(raw, "message", str, where),
    )


def typed_field(raw: Mapping[str, Any], key: str, kind: type, where: str) -> Any:
    """`raw[key]` when it is a `kind`, None when absent or null; anything else is a `SuiteError`."""
    value = raw.get(key)
    if value is None:
        return None
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise SuiteError(f"{where}.{key}: expected {kind.__name__}, got {value!r}")
    return value


def _strings(value: Any, where: str) -> tuple[str, ...]:
    if value is None:
        return ()
    if isinstance(value, str):
        return (value,)
    if isinstance(value, list) and all(isinstance(item, str) for item in value):
        return tuple(value)
    raise SuiteError(f"{where}: expected a string or a list of strings")


def _list(value: Any, where: str) -> list[Any]:
    if value is None:
        return []
    if not isinstance(value, list):
        raise SuiteError(f"{where}: expected a list")
    return value


@dataclass(frozen=True, slots=True)
class ExpectationRule:
    """One entry of an `--expect` file: which reviews it is for, and what they must get."""

    origin: str
    expect: Expectation
    file: str | None = None
    uid: str | None = None

    def matches(self, source: str, uid: str) -> bool:
        if self.uid is not None and self.uid != uid:
            return False
        if self.file is not None:
            return fnmatch.fnmatchcase(source, self.file) or fnmatch.fnmatchcase(
                os.path.basename(source), self.file
            )
        return True


def load_expectation_rules(path: str, content: bytes) -> list[ExpectationRule]:
    """An `--expect` file: `expect: [{file: GLOB, uid: UID, <expectation keys>}, ...]`."""
    read = read_documents(path, content)
    if read.error is not None:
        raise SuiteError(str(read.error))
    rules: list[ExpectationRule] = []
    for document in read.documents:
        if document.data is None:
            continue
        if not isinstance(document.data, Mapping) or set(document.data) != {"expect"}:
            raise SuiteError(f"{path}:{document.line}: an expectation file holds one key, expect: [...]")
        for index, entry in enumerate(_list(document.data["expect"], f"{path}: expect")):
            where = f"{path}: expect[{index}]"
            if not isinstance(entry, Mapping):
                raise SuiteError(f"{where}: expected a mapping")
            if not _EXPECT_SELECTOR_KEYS & set(entry):
                raise SuiteError(f"{where}: needs file (a glob) or uid to say which reviews it is for")
            rules.append(
                ExpectationRule(
                    origin=where,
                    expect=parse_expectation(entry, where, extra_keys=_EXPECT_SELECTOR_KEYS),
                    file=typed_field(entry, "file", str, where),
                    uid=typed_field(entry, "uid", str, where),
                )
            )
    return rules
