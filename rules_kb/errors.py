"""Typed errors. Library code raises these; only the CLI turns them into messages."""

from __future__ import annotations


class RulesKbError(Exception):
    """Root of every error the library raises on purpose."""


class SourceError(RulesKbError):
    """A document cannot be read: missing, corrupt, wrong encoding, checksum mismatch."""

    def __init__(self, document: str, problem: str, position: int | None = None) -> None:
        self.document = document
        self.problem = problem
        self.position = position
        super().__init__(self.describe())

    def describe(self) -> str:
        where = f"{self.document}" if self.position is None else f"{self.document}:{self.position}"
        return f"{where}: {self.problem}"


class ManifestError(SourceError):
    """The corpus manifest is missing, malformed or disagrees with the files."""


class ParseError(SourceError):
    """A decoded document cannot be parsed at all (a format mismatch, not a defect)."""


class UsageError(RulesKbError):
    """A request that cannot be answered as asked (same version twice, versions reversed)."""


class OutputError(RulesKbError):
    """An output file cannot be written (missing folder, permissions, full disk)."""

    def __init__(self, path: str, problem: str) -> None:
        self.path = path
        self.problem = problem
        super().__init__(f"{path}: cannot write: {problem}")


class ExportError(RulesKbError):
    """The graph holds something the export format cannot write (a character XML 1.0 forbids)."""


class StoreUnusable(RulesKbError):
    """The store fails its own check even right after it was rebuilt (a disk fault or a bug)."""


class MalformedRuleNumber(RulesKbError, ValueError):
    """A string that is not a rule number. Parsers turn this into an anomaly."""

    def __init__(self, raw: str, reason: str) -> None:
        self.raw = raw
        self.reason = reason
        super().__init__(f"malformed rule number {raw!r}: {reason}")


class RuleNotFound(RulesKbError):
    """A rule number asked for does not exist; carries the nearest existing ones."""

    def __init__(self, number: str, nearest: list[str]) -> None:
        self.number = number
        self.nearest = nearest
        hint = f" (nearest: {', '.join(nearest)})" if nearest else ""
        super().__init__(f"no rule {number}{hint}")
