"""Deck-order commitments: ``match_started`` commits to each deck's order (SHA-256 over a salt
and the card ids), ``deck_revealed`` opens it, and verify says, per player, whether the reveal
matches: verified, mismatch (exit 1) or not revealed."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from vwlog.cli import main
from vwlog.events import DeckRevealed, EventRecord, MatchSealed, MatchStarted
from vwlog.io import codec
from vwlog.io.logfile import read_log, write_log
from vwlog.services import validate_log, verify_log
from vwlog.services.importing import import_log
from vwlog.services.matches import verify_match
from vwlog.services.trust import close_records, packaged_pool
from vwlog.store import MatchStore

if TYPE_CHECKING:
    from click.testing import CliRunner

SAMPLE = Path(__file__).parents[2] / "samples" / "full-combat.jsonl"
SALTS = {"p1": "salt-one", "p2": "salt-two"}


def committed_log(out: Path, reveals: dict[str, str]) -> Path:
    """The sample with both decks committed under `SALTS`, and ``reveals`` (player → salt)
    appended as deck_revealed events; sealed again."""
    header, records = read_log(SAMPLE)
    start = records[0].event
    assert isinstance(start, MatchStarted)
    seats = tuple(
        seat.model_copy(
            update={
                "deck_commitment": codec.deck_commitment(
                    SALTS[seat.player], [c.id for c in seat.deck]
                )
            }
        )
        for seat in start.seats
    )
    events = [
        start.model_copy(update={"seats": seats}),
        *(r.event for r in records[1:] if not isinstance(r.event, MatchSealed)),
        *(DeckRevealed(player=p, salt=salt) for p, salt in reveals.items()),
    ]
    numbered = [EventRecord(seq=i, event=e) for i, e in enumerate(events, 1)]
    head, sealed = close_records(header, numbered, packaged_pool())
    write_log(out, head, sealed)
    return out


def statuses(path: Path) -> dict[str, str]:
    return {c.player: c.status for c in verify_log(path).commitments}


def test_matching_reveals_verify(tmp_path: Path) -> None:
    log = committed_log(tmp_path / "ok.jsonl", SALTS)
    assert statuses(log) == {"p1": "verified", "p2": "verified"}
    assert verify_log(log).ok
    assert validate_log(log).ok  # revealing is always legal, even after the last event


def test_a_wrong_salt_is_a_mismatch_and_fails_verification(tmp_path: Path) -> None:
    log = committed_log(tmp_path / "bad.jsonl", {"p1": SALTS["p1"], "p2": "not-the-salt"})
    report = verify_log(log)
    assert statuses(log) == {"p1": "verified", "p2": "mismatch"}
    assert report.broken is None  # the chain itself holds
    assert not report.ok


def test_a_commitment_never_opened_is_not_revealed_and_does_not_fail(tmp_path: Path) -> None:
    log = committed_log(tmp_path / "half.jsonl", {"p1": SALTS["p1"]})
    assert statuses(log) == {"p1": "verified", "p2": "not revealed"}
    assert verify_log(log).ok


def test_a_deck_order_changed_after_committing_is_a_mismatch(tmp_path: Path) -> None:
    log = committed_log(tmp_path / "ok.jsonl", SALTS)
    header, records = read_log(log)
    start = records[0].event
    assert isinstance(start, MatchStarted)
    p1 = start.seats[0]
    swapped = p1.model_copy(update={"deck": (p1.deck[1], p1.deck[0], *p1.deck[2:])})
    events = [
        start.model_copy(update={"seats": (swapped, *start.seats[1:])}),
        *(r.event for r in records[1:]),
    ]
    assert header.hash is not None
    sealed = codec.seal(header.hash, (EventRecord(seq=i, event=e) for i, e in enumerate(events, 1)))
    write_log(tmp_path / "swapped.jsonl", header, sealed)
    assert statuses(tmp_path / "swapped.jsonl")["p1"] == "mismatch"


def test_verify_prints_each_commitment_and_exits_1_on_a_mismatch(
    runner: CliRunner, tmp_path: Path
) -> None:
    good = committed_log(tmp_path / "ok.jsonl", SALTS)
    bad = committed_log(tmp_path / "bad.jsonl", {"p1": SALTS["p1"], "p2": "nope"})
    ok = runner.invoke(main, ["verify", str(good)])
    assert ok.exit_code == 0, ok.output
    assert "deck commitment of p1: verified" in ok.stdout
    failed = runner.invoke(main, ["verify", str(bad)])
    assert failed.exit_code == 1
    assert "deck commitment of p2: mismatch" in failed.stdout


@pytest.mark.parametrize("reveals", [SALTS, {"p1": SALTS["p1"], "p2": "nope"}])
def test_a_stored_match_keeps_its_commitments(tmp_path: Path, reveals: dict[str, str]) -> None:
    log = committed_log(tmp_path / "m.jsonl", reveals)
    with MatchStore.open(f"sqlite:///{tmp_path / 'store.db'}") as store:
        result = import_log(store, log)
        assert result.match_id is not None
        stored = verify_match(store, result.match_id)
    assert {c.player: c.status for c in stored.commitments} == statuses(log)


def test_validate_cites_r_zone_2_for_a_reveal_that_does_not_open_its_commitment(
    tmp_path: Path,
) -> None:
    log = committed_log(tmp_path / "bad.jsonl", {"p1": SALTS["p1"], "p2": "not-the-salt"})
    report = validate_log(log)
    assert not report.ok
    _, records = read_log(log)
    reveal = next(
        r.seq for r in records if isinstance(r.event, DeckRevealed) and r.event.player == "p2"
    )
    assert [(v.rule, v.seq) for v in report.violations] == [("R-ZONE-2", reveal)]
    assert "p2" in str(report.violations[0].message)


def test_validate_cites_r_zone_2_for_a_salt_in_the_start_that_does_not_open(
    tmp_path: Path,
) -> None:
    """A secretly shuffled start keeps each seat's salt: a deck recorded in another order than
    the one committed to is found at seq 1, before any reveal."""
    log = committed_log(tmp_path / "ok.jsonl", {})
    header, records = read_log(log)
    start = records[0].event
    assert isinstance(start, MatchStarted)
    salted = tuple(s.model_copy(update={"salt": SALTS[s.player]}) for s in start.seats)
    p1 = salted[0]
    # the two bottom cards, which the match never draws
    swapped = p1.model_copy(update={"deck": (*p1.deck[:-2], p1.deck[-1], p1.deck[-2])})
    for seats, expected in (
        (salted, []),
        ((swapped, salted[1]), [("R-ZONE-2", 1)]),
    ):
        events = [
            start.model_copy(update={"seats": seats}),
            *(r.event for r in records[1:] if not isinstance(r.event, MatchSealed)),
        ]
        numbered = [EventRecord(seq=i, event=e) for i, e in enumerate(events, 1)]
        head, sealed = close_records(header, numbered, packaged_pool())
        write_log(tmp_path / "salted.jsonl", head, sealed)
        report = validate_log(tmp_path / "salted.jsonl")
        assert [(v.rule, v.seq) for v in report.violations] == expected
