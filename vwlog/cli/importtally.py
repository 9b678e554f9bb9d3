"""What ``vwlog import`` did, counted as the logs arrive: the outcomes (stored, unchanged,
rejected, failed), and the verdicts of the logs the store keeps, so that the summary, which
``--quiet`` keeps, says how many of them are illegal, untrusted or incomplete, and the exit
status says whether any was flagged.

The verdicts are the ones `vwlog.services.verdict.judge` gave each log (kept in the catalog
entry of a log stored before): nothing is judged again here.
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from typing import TYPE_CHECKING

from vwlog.io.i18n import gettext as _
from vwlog.model.verdict import Verdict
from vwlog.render.text import counted

if TYPE_CHECKING:
    from vwlog.services.storing import ImportResult

KEPT = ("stored", "unchanged")
"""The outcomes of a log the store holds after the import."""


@dataclasses.dataclass
class ImportTally:
    """The outcomes and verdicts of an import, one log at a time (`add`)."""

    outcomes: Counter[str] = dataclasses.field(default_factory=Counter)
    """Logs by outcome (``stored``, ``unchanged``, ``rejected``, ``error``)."""
    events: Counter[str] = dataclasses.field(default_factory=Counter)
    """Events by outcome."""
    verdicts: Counter[str] = dataclasses.field(default_factory=Counter)
    """The logs kept (stored or unchanged), by their one verdict."""
    flagged: int = 0
    """The logs kept flagged: a rule is broken, or the record is not intact (the catalog
    entry's ``flagged``, `vwlog.services.importing.judged_meta`)."""

    def add(self, result: ImportResult) -> None:
        """Count one log's result."""
        self.outcomes[result.outcome] += 1
        self.events[result.outcome] += result.events
        if result.outcome not in KEPT:
            return
        if result.verdict is not None:
            self.verdicts[result.verdict] += 1
        if result.violations or result.intact is False:
            self.flagged += 1

    @property
    def status(self) -> int:
        """The exit status so far: 2 a log failed (unreadable, a broken chain, a conflict),
        1 a log breaks rules or is not intact (stored flagged, or refused as illegal), 0
        every log stored or unchanged, none flagged."""
        if self.outcomes["error"]:
            return 2
        if self.outcomes["rejected"] or self.flagged:
            return 1
        return 0

    def verdict_line(self) -> str | None:
        """The verdicts of the logs kept, when any is not legal (``None``: all are legal,
        or none was kept)::

            verdicts of the 17 logs kept: 0 legal, 17 illegal, 0 untrusted, 0 incomplete;
            17 flagged
        """
        kept = sum(self.verdicts.values())
        legal = self.verdicts[Verdict.OK.value]
        if not kept or legal == kept:
            return None
        unverified = self.verdicts[Verdict.UNVERIFIED.value]
        line = _(
            "verdicts of the {logs} kept: {legal} legal, {illegal} illegal, {untrusted} "
            "untrusted, {incomplete} incomplete{unverified}; {flagged} flagged"
        )
        return line.format(
            logs=counted(kept, "log"),
            legal=legal,
            illegal=self.verdicts[Verdict.ILLEGAL.value],
            untrusted=self.verdicts[Verdict.UNTRUSTED.value],
            incomplete=self.verdicts[Verdict.INCOMPLETE.value],
            unverified=(_(", {count} unverified").format(count=unverified) if unverified else ""),
            flagged=self.flagged,
        )


__all__ = ["KEPT", "ImportTally"]
