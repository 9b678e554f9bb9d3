"""Rebase: the parent's remaining decisions re-applied onto a fork, stopping at the first that
is no longer legal."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from vwlog.events import TRAILER_TYPES, CardSummoned, CostPaid, MatchForked
from vwlog.games.vw.play import play
from vwlog.model.errors import MatchNotFoundError, UsageError
from vwlog.rules import legal_decisions
from vwlog.rules.catalog import RULES
from vwlog.services import validate_log, verify_log
from vwlog.services.forks import fork_match
from vwlog.services.importing import import_log
from vwlog.services.matches import export_match, state_at, verify_match
from vwlog.services.play import play_decisions
from vwlog.services.rebase import rebase

from .support import generated_log, priority_points, records_of, resealed

if TYPE_CHECKING:
    from vwlog.events import AnyEvent, EventRecord
    from vwlog.store import MatchStore

SAMPLES = Path(__file__).parents[2] / "samples"


@pytest.fixture(scope="module")
def small(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[EventRecord]]:
    """A two-turn generated match (about 150 events) and its records."""
    path = generated_log(tmp_path_factory.mktemp("rebase"), 5, 2)
    # the game records: the seal the generator wrote is not part of what forks re-play
    return path, [r for r in records_of(path)[1] if not isinstance(r.event, TRAILER_TYPES)]


@pytest.fixture
def stored(store: MatchStore, small: tuple[Path, list[EventRecord]]) -> str:
    """The small match, imported into ``store``; its id."""
    import_log(store, small[0])
    return records_of(small[0])[0].match_id


def unchanged(store: MatchStore, match_id: str) -> tuple[object, ...]:
    """Everything a rebase that stores nothing must leave as it was."""
    return store.head(match_id), store.meta(match_id), list(store.raw_lines(match_id))


def exported_ok(store: MatchStore, match_id: str, out: Path) -> list[EventRecord]:
    """Export a match; assert it validates clean and its chains verify; its records."""
    export_match(store, match_id, out)
    report = validate_log(out)
    assert report.violations == [], [str(v) for v in report.violations[:3]]
    assert report.integrity is not None
    # an unfinished fork is unsealed (incomplete); nothing else may be wrong
    assert all(p.startswith("unsealed") for p in report.integrity.problems)
    assert verify_log(out).ok
    assert verify_match(store, match_id).ok
    return records_of(out)[1]


def decisions_after(records: list[EventRecord], at: int) -> list[int]:
    """Seqs of the decisions after ``at``."""
    return [r.seq for r in records[at:] if r.event.DECISION]


def test_an_untouched_fork_rebased_plays_the_parent_to_its_end(
    store: MatchStore, stored: str, small: tuple[Path, list[EventRecord]], tmp_path: Path
) -> None:
    parent = small[1]
    for at in priority_points(parent)[::20]:
        fork_id = fork_match(store, stored, at)

        result = rebase(store, fork_id)

        assert (result.stopped, result.stopped_at, result.broken) == ("done", None, None)
        assert result.considered == result.reapplied == len(decisions_after(parent, at))
        assert (result.parent_id, result.fork_at, result.already) == (stored, at, 0)
        assert result.appended == len(parent) - at == len(result.events)
        assert result.head_seq == store.head(fork_id).seq == len(parent) + 1
        records = exported_ok(store, fork_id, tmp_path / f"fork-{at}.jsonl")
        assert records[at].event == MatchForked(parent=stored, at=at)
        without_marker = [r.event for r in records[:at] + records[at + 1 :]]
        assert without_marker == [r.event for r in parent]
        meta, parent_meta = store.meta(fork_id), store.meta(stored)
        assert (meta.events, meta.head_hash) == (result.head_seq, records[-1].hash)
        assert (meta.turns, meta.winner) == (parent_meta.turns, parent_meta.winner)


def test_rebasing_again_applies_nothing_twice(store: MatchStore, stored: str) -> None:
    at = priority_points(list(store.records(stored)))[3]
    fork_id = fork_match(store, stored, at)
    first = rebase(store, fork_id)
    before = unchanged(store, fork_id)

    again = rebase(store, fork_id)

    assert (again.stopped, again.already, again.reapplied) == ("done", first.reapplied, 0)
    assert again.appended == 0
    assert unchanged(store, fork_id) == before


def _first_summon_point(records: list[EventRecord]) -> int:
    """A priority point whose next decision in the parent pays for a summon."""
    return next(
        at
        for at in priority_points(records)
        if isinstance(records[at].event, CostPaid)
        and isinstance(records[at + 1].event, CardSummoned)
    )


def test_a_pass_where_the_parent_summoned_breaks_the_summon_citing_its_rule(
    store: MatchStore, stored: str, small: tuple[Path, list[EventRecord]], tmp_path: Path
) -> None:
    parent = small[1]
    at = _first_summon_point(parent)
    fork_id = fork_match(store, stored, at, name="pass")
    played = play_decisions(store, fork_id, ["pass"])

    result = rebase(store, fork_id)

    assert (result.stopped, result.stopped_at) == ("broken", at + 1)
    assert (result.reapplied, result.appended, result.already) == (0, 0, 0)
    broken = result.broken
    assert broken is not None
    assert (broken.parent_seq, broken.fork_seq) == (at + 1, played.head_seq + 1)
    assert (broken.event_type, broken.withdrawn) == ("cost_paid", ())
    assert broken.player == parent[at].event.player  # type: ignore[union-attr]
    assert broken.rules
    assert all(rule in RULES for rule in broken.rules)
    assert broken.message.startswith(f"{broken.rules[0]} ")
    assert " pays " in broken.description
    assert store.head(fork_id).seq == played.head_seq
    exported_ok(store, fork_id, tmp_path / "pass.jsonl")


def _extra_registration(store: MatchStore, match_id: str, at: int) -> list[AnyEvent]:
    """The first summon or skill the player holding priority at ``at`` may pay for there (the
    cost, then what it pays for); empty if there is none."""
    state = state_at(store, match_id, at)
    ruleset, holder = state.ruleset, state.priority
    assert ruleset is not None
    assert holder is not None
    for cost in legal_decisions(ruleset, state, holder):
        if isinstance(cost, CostPaid):
            paid, _ = play(ruleset, state, cost)
            return [cost, next(legal_decisions(ruleset, paid, holder))]
    return []


def test_decisions_still_legal_are_kept_before_the_first_broken_one(
    store: MatchStore, tmp_path: Path
) -> None:
    path = generated_log(tmp_path, 21, 2)
    match_id, parent = records_of(path)[0].match_id, records_of(path)[1]
    import_log(store, path)
    # a summon or skill more where the parent passed: the parent's later decisions go on
    # until one meets the board it changed
    for at in priority_points(parent):
        extra = _extra_registration(store, match_id, at)
        if not extra:
            continue
        fork_id = fork_match(store, match_id, at, name=f"extra-{at}")
        played = play_decisions(store, fork_id, extra)
        probe = rebase(store, fork_id, dry_run=True)
        if probe.already == 0 and probe.reapplied > 0 and probe.broken is not None:
            break
    else:
        pytest.fail("no extra registration lets some parent decisions be re-applied, not all")

    result = rebase(store, fork_id)

    broken = result.broken
    assert result.stopped == "broken"
    assert broken is not None
    assert 0 < result.reapplied < result.considered == len(decisions_after(parent, at))
    assert broken.parent_seq == decisions_after(parent, at)[result.reapplied]
    assert broken.parent_seq == result.stopped_at
    assert broken.fork_seq == result.head_seq + 1 == played.head_seq + result.appended + 1
    assert all(rule in RULES for rule in broken.rules)
    records = exported_ok(store, fork_id, tmp_path / "extra.jsonl")
    assert [r.event for r in records[played.head_seq :]] == result.events
    assert state_at(store, fork_id).turn == store.meta(fork_id).turns

    again = rebase(store, fork_id, dry_run=True)
    assert again.broken == broken
    assert (again.already, again.reapplied, again.appended) == (result.reapplied, 0, 0)


def test_a_cost_paid_for_a_summon_that_breaks_is_not_kept(
    store: MatchStore, small: tuple[Path, list[EventRecord]], tmp_path: Path
) -> None:
    parent = small[1]
    at = _first_summon_point(parent)
    summon = parent[at + 1]
    assert isinstance(summon.event, CardSummoned)
    other = "p2" if summon.event.player == "p1" else "p1"
    altered = [*parent]
    altered[at + 1] = summon.model_copy(
        update={"event": summon.event.model_copy(update={"player": other})}
    )
    path = resealed(small[0], tmp_path / "flagged.jsonl", altered)
    assert import_log(store, path).violations  # stored flagged
    match_id = records_of(path)[0].match_id
    fork_id = fork_match(store, match_id, at)
    before = unchanged(store, fork_id)

    result = rebase(store, fork_id)

    broken = result.broken
    assert broken is not None
    assert (broken.parent_seq, broken.withdrawn, result.stopped_at) == (at + 2, (at + 1,), at + 1)
    assert broken.fork_seq == at + 3  # after the marker and the cost that is not kept
    assert (result.reapplied, result.appended, result.events) == (0, 0, [])
    assert all(rule in RULES for rule in broken.rules)
    assert unchanged(store, fork_id) == before


def test_a_dry_run_reports_the_same_and_stores_nothing(
    store: MatchStore, stored: str, small: tuple[Path, list[EventRecord]]
) -> None:
    for at, decisions in (
        (priority_points(small[1])[2], []),
        (_first_summon_point(small[1]), ["pass"]),
    ):
        fork_id = fork_match(store, stored, at)
        play_decisions(store, fork_id, decisions)
        before = unchanged(store, fork_id)

        dry = rebase(store, fork_id, dry_run=True)

        assert dry.dry_run
        assert unchanged(store, fork_id) == before
        real = rebase(store, fork_id)
        assert (dry.stopped, dry.reapplied, dry.appended, dry.head_seq, dry.broken) == (
            real.stopped,
            real.reapplied,
            real.appended,
            real.head_seq,
            real.broken,
        )
        assert dry.events == real.events


def test_a_fork_won_first_stops_cleanly(
    store: MatchStore, stored: str, small: tuple[Path, list[EventRecord]]
) -> None:
    at = priority_points(small[1])[0]
    fork_id = fork_match(store, stored, at, name="conceded")
    play_decisions(store, fork_id, ["concede"])
    before = unchanged(store, fork_id)

    result = rebase(store, fork_id)

    assert (result.stopped, result.stopped_at, result.broken) == ("over", at + 1, None)
    assert (result.winner, result.victory) == (store.meta(fork_id).winner, "CONCESSION")
    assert result.left == result.considered > 0
    assert unchanged(store, fork_id) == before


def test_a_judge_ruling_of_the_parent_stops_the_rebase_before_it(
    store: MatchStore, tmp_path: Path
) -> None:
    import_log(store, SAMPLES / "judge-backup.jsonl")
    fork_id = fork_match(store, "sample-judge-backup", 19)

    result = rebase(store, fork_id)

    assert (result.stopped, result.stopped_at, result.broken) == ("ruling", 25, None)
    assert result.reapplied == 4  # the summon, paid and registered, and both passes
    exported_ok(store, fork_id, tmp_path / "ruling.jsonl")


def test_only_a_stored_fork_can_be_rebased(store: MatchStore, stored: str) -> None:
    with pytest.raises(UsageError, match=rf"match {stored!r} is not a fork"):
        rebase(store, stored)
    with pytest.raises(MatchNotFoundError):
        rebase(store, "no-such-match")
