"""The one verdict of a record, asked by each door: a stored match (`judge_stored`), a log
file (`judge_file`) and a dispute report (`judge_document`, `judge_document_file`). Each reads
its record once for the rules and once for its integrity, and `vwlog.services.verdict` judges
the two together.
"""

from __future__ import annotations

import copy
from typing import TYPE_CHECKING, Any

from vwlog.engine.replay import ValidationReport, Validator, replay
from vwlog.games import rules_for
from vwlog.model.errors import StoreError
from vwlog.services.matches import verify_stored
from vwlog.services.trust import check_integrity
from vwlog.services.validate import ValidationOptions, validate_and_verify, with_findings

if TYPE_CHECKING:
    from collections.abc import Iterator
    from pathlib import Path

    from vwlog.audit.report import DisputeReport
    from vwlog.io.chain import VerifyReport
    from vwlog.services.trust import TrustFindings, TrustOptions
    from vwlog.store import MatchStore


def judge_stored(
    store: MatchStore,
    match_id: str,
    options: TrustOptions | None = None,
    *,
    repair: bool = False,
    derived: bool = True,
) -> tuple[VerifyReport, ValidationReport]:
    """Validate a stored match and judge it: the rules from one replay of its records; the
    chain, seal and signatures from one pass over its stored lines (the bytes its export
    writes), which also checks the catalog entry and, with ``derived``, the derived data
    (rebuilt with ``repair``); the verdict rests on the records alone.
    The `VerifyReport` of the chain, and the judged report.

    Raises:
        MatchNotFoundError: no such match.
        SequenceConflictError: with ``repair``, records were appended meanwhile.
        NotPublishedError: the options name a pool or ruleset that is not published.
    """
    header = store.header(match_id)
    report: ValidationReport = replay(
        _readable(store.records(match_id)), Validator(source=f"store:{match_id}"), header=header
    )
    game = rules_for(header.game)
    first = next(iter(store.records(match_id, lte=1)), None)
    start = first.event if first is not None else None
    # what a ruleset is held to: only a game whose matches name published ones has any
    judged_under = (
        game.start_ruleset(start) if game.publishes and isinstance(start, game.start_type) else None
    )
    chain, findings = verify_stored(
        store,
        match_id,
        options,
        repair=repair,
        trusted=report.trusted,
        judged_under=judged_under,
        owed=report.owed,
        derived=derived,
    )
    return chain, with_findings(report, findings)


def _readable(records: Iterator[Any]) -> Iterator[Any]:
    """The stored records up to the first that can no longer be read (an altered row): the
    chain check names that one, and the verdict rests on it."""
    try:
        yield from records
    except StoreError:
        return


def judge_file(
    path: str | Path, options: TrustOptions | None = None
) -> tuple[VerifyReport, ValidationReport]:
    """Validate a log file and judge it, in one read: the `VerifyReport` of its chain and
    deck commitments, and the judged report.

    Raises:
        LogFormatError: the file is unreadable or malformed.
        NotPublishedError: the options name a pool or ruleset that is not published.
    """
    report, findings = validate_and_verify(path, ValidationOptions(trust=options))
    assert findings.chain is not None
    return findings.chain, report


def judge_document(
    document: DisputeReport,
    findings: TrustFindings,
) -> ValidationReport:
    """Judge a dispute report from the integrity findings of its record: its validation (the
    report's own replay) gets the findings and the one verdict, and is kept in the report, so
    that every section of it shows that verdict. The judged validation.
    """
    document.validation = with_findings(copy.copy(document.validation), findings)
    return document.validation


def judge_document_file(
    document: DisputeReport, path: str | Path, options: TrustOptions | None = None
) -> tuple[VerifyReport, ValidationReport]:
    """`judge_document` for a report built from the log file at ``path`` (one integrity pass
    over the file): the chain's `VerifyReport`, and the judged validation.

    Raises:
        LogFormatError: the file cannot be read as a log.
        NotPublishedError: the options name a pool or ruleset that is not published.
    """
    validation = document.validation
    started = document.started
    findings = check_integrity(
        path,
        options,
        trusted=validation.trusted,
        judged_under=started.ruleset if started is not None else None,
        owed=validation.owed,
    )
    assert findings.chain is not None
    return findings.chain, judge_document(document, findings)


__all__ = ["judge_document", "judge_document_file", "judge_file", "judge_stored"]
