"""Validate logs against the rules, one or many (with worker processes)."""

from __future__ import annotations

import itertools
import os
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from vwlog.engine.replay import ValidationReport, Validator, ViolationPolicy, replay
from vwlog.io.integritypass import IntegrityPass
from vwlog.io.logfile import open_log
from vwlog.model.cards import Ruleset
from vwlog.model.errors import IllegalEventError, LogFormatError
from vwlog.model.text import Msg, msg
from vwlog.rules.published import house_rules_text
from vwlog.services.collection import fewer_collections, keep_fewer_collections
from vwlog.services.sharing import ordered_map
from vwlog.services.trust import TrustFindings, TrustOptions, findings_of

if TYPE_CHECKING:
    from collections.abc import Iterator, Sequence

    from vwlog.model.violation import Violation

from vwlog.services.rulesets import RulesetFile, judged_under
from vwlog.services.verdict import judged

# -- validation ------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ValidationOptions:
    """How to validate: a replacement ruleset, flag overrides, what to do at a violation."""

    ruleset: Ruleset | None = None
    overrides: tuple[tuple[str, Any], ...] = ()
    policy: ViolationPolicy = ViolationPolicy.COLLECT
    trust: TrustOptions | None = None
    """What the log is held to (published pool and ruleset, keyring); ``None``: the built-in
    pool and ruleset, no keyring."""
    ruleset_file: RulesetFile | None = None
    """The replacement as read, for a match of a game whose ruleset ``ruleset`` is not."""

    def judged_under(self, named: Any | None) -> Any | None:
        """The ruleset a match naming ``named`` is judged under (``None``: none named, no
        replacement).

        Raises:
            RulesetFileError: the replacement is not a ruleset of the match's game.
            RulesetOverrideError: an override does not fit the ruleset.
        """
        return judged_under(named, self.ruleset, self.ruleset_file, self.overrides)


@dataclass(frozen=True, slots=True)
class InputProblem:
    """A file that could not be read as a log."""

    path: str
    error: str
    """The English message; it remembers its template (`vwlog.model.text.SaidText`) where the
    error had one, so the parent process says it in the user's language."""


def validate_log(path: str | Path, options: ValidationOptions | None = None) -> ValidationReport:
    """Validate one log file, streaming it line by line (memory flat in file length).

    The file is read once: the hash chain, seal and signatures are checked on the lines the
    replay reads (and on the rest of the file, when the replay stops early), and the report
    carries that integrity result beside the rules result (one verdict).

    With `ViolationPolicy.STOP_AT_FIRST` validation stops at the first illegal event: the
    report holds its violations and ``stopped_at`` names its seq.

    While it runs, the garbage collector's young generation collects less often
    (`vwlog.services.collection`).

    Raises:
        LogFormatError: the file is unreadable or malformed (names file, line and field).
        RulesetOverrideError: an override does not fit the ruleset.
        NotPublishedError: the options name a pool or ruleset that is not published.
    """
    report, _ = validate_and_verify(path, options)
    return report


def validate_and_verify(
    path: str | Path, options: ValidationOptions | None = None
) -> tuple[ValidationReport, TrustFindings]:
    """`validate_log`, and the integrity findings it judged from (their ``chain`` is the hash
    chain and deck commitments as `vwlog verify` shows them), from the same one read.

    Raises:
        LogFormatError: the file is unreadable or malformed (names file, line and field).
        RulesetOverrideError: an override does not fit the ruleset.
        NotPublishedError: the options name a pool or ruleset that is not published.
    """
    opts = options or ValidationOptions()
    validator = Validator(source=str(path))
    with fewer_collections(), open_log(path) as reader:
        gathered = IntegrityPass.of(reader)
        lines = gathered.tee(reader.lines())
        first = next(lines, None)
        game = reader.game
        named = None
        if first is not None and type(first[2].event) is game.start_type:
            named = game.start_ruleset(first[2].event)
        ruleset = opts.judged_under(named)
        items = itertools.chain(() if first is None else (first,), lines)
        try:
            report = replay(
                items,
                validator,
                header=reader.header,
                ruleset=ruleset,
                policy=opts.policy,
            )
        except IllegalEventError as err:
            report = validator.result()
            report.violations.extend(err.violations)
            report.stopped_at = err.seq
            report.turns = max((v.turn or 0 for v in err.violations), default=0)
        # what the replay did not read (it stopped early): the chain and seal still count
        for line_no, raw in reader.raw_lines():
            gathered.feed(line_no, raw)
    findings = findings_of(
        gathered, opts.trust, trusted=report.trusted, judged_under=ruleset, owed=report.owed
    )
    return with_findings(report, findings), findings


def with_findings(report: ValidationReport, findings: TrustFindings) -> ValidationReport:
    """The report with the integrity result and the R-TRUST violations added, and judged: its
    one verdict attached (`vwlog.services.verdict.judge`)."""
    report.integrity = findings.integrity
    if findings.integrity.house_rules:
        house = findings.integrity.house_rules
        report.violations = [house_labelled(v, house) for v in report.violations]
    if findings.violations:
        report.violations = sorted(
            [*findings.violations, *report.violations], key=lambda v: v.seq or 0
        )
    return judged(report)


_BY_DEFAULT = ("{message} (by default)", "{message} (by default; ruleset flag {flag})")
"""The templates `vwlog.rules.common.violation` wraps a default rule's message in."""


def house_labelled(v: Violation, house: Sequence[tuple[str, Any]]) -> Violation:
    """``v`` said under house rules: a violation of a rule that reads a flag the reader set
    says so, with the value (``(house rule hand_limit=2)``), instead of "by default"; any
    other violation as it is."""
    from vwlog.rules.enforcement import rule_flags

    text = v.text
    if text is None:
        return v
    inner = dict(text.params).get("message", text) if text.template in _BY_DEFAULT else text
    read = {*rule_flags(v.rule), *([v.flag] if v.flag else [])}
    if isinstance(inner, Msg):
        read |= {name for name, _ in inner.params}
    chosen = [(name, value) for name, value in house if name in read]
    if not chosen:
        return v
    said = msg("{message} (house rule {flags})", message=inner, flags=house_rules_text(chosen))
    return replace(v, message=str(said), text=said)


def _validate_one(
    args: tuple[str, ValidationOptions],
) -> ValidationReport | InputProblem:
    path, options = args
    try:
        return validate_log(path, options)
    except LogFormatError as err:
        return InputProblem(path, err.said())


def validate_logs(
    paths: Sequence[str | Path], options: ValidationOptions | None = None, *, jobs: int = 1
) -> Iterator[ValidationReport | InputProblem]:
    """Validate many logs, in order, in ``jobs`` processes (`ordered_map`: where processes can
    be forked, this one and ``jobs - 1`` forked ones, each taking the next log when it is done
    with one).

    A file that cannot be read yields an `InputProblem`; the others are still validated.

    Raises:
        RulesetOverrideError: an override does not fit the ruleset.
    """
    opts = options or ValidationOptions()
    work = [(str(p), opts) for p in paths]
    # one raised threshold for the whole batch: restoring it after every log would start a
    # young collection at once (the count stands far above the default threshold)
    with fewer_collections():
        yield from ordered_map(
            _validate_one, work, jobs, initializer=_worker_started, cost=_file_size
        )


def _file_size(item: tuple[str, ValidationOptions]) -> float:
    """How much validating a log costs, roughly: its size (0 if it cannot be read)."""
    try:
        return float(os.stat(item[0]).st_size)
    except OSError:
        return 0.0


def _worker_started() -> None:
    """A forked or pooled process validates and nothing else: its young generation collects every
    `vwlog.services.collection.YOUNG_THRESHOLD` allocations for as long as it lives."""
    keep_fewer_collections()


__all__ = [
    "InputProblem",
    "ValidationOptions",
    "house_labelled",
    "validate_and_verify",
    "validate_log",
    "validate_logs",
    "with_findings",
]
