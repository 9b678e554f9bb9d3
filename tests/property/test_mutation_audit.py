"""The mutation audit, small: every single edit that makes a generated log illegal (an event,
an effect of a result, a card definition in ``match_started``, a header field) is caught at
the edited event, and legal edits are judged clean (`audit.py`; the large run is
``bench/mutation_audit.py``)."""

from __future__ import annotations

from functools import cache

import pytest
from audit import ALL_KINDS, EVENT_KINDS, FILE_KINDS, Source, run_audit, sources


@cache
def _sources() -> tuple[list[Source], list[Source]]:
    return sources(5, turns=6), sources(5, turns=2, seed=38)


@pytest.mark.slow
def test_single_edits_are_caught_at_the_edited_event() -> None:
    events, files = _sources()
    audit = run_audit(events, dict.fromkeys(EVENT_KINDS, 25), seed=7)
    on_file = run_audit(files, dict.fromkeys(FILE_KINDS, 12), seed=8)
    for name in ("total", "illegal", "at_event", "late", "missed", "false_alarms", "crashes"):
        getattr(audit, name).update(getattr(on_file, name))
    for what, found in on_file.examples.items():
        audit.examples.setdefault(what, []).extend(found)
    assert set(audit.total) == set(ALL_KINDS)
    assert sum(audit.crashes.values()) == 0, audit.examples
    assert sum(audit.false_alarms.values()) == 0, audit.examples
    assert sum(audit.missed.values()) == 0, audit.examples
    assert sum(audit.late.values()) == 0, audit.examples
    assert audit.illegal["card"] == audit.total["card"]
    assert audit.rate() == 1.0
