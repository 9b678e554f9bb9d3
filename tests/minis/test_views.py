"""The miniatures views: every event type has a sentence of its own; the turn-order board
(round, turn order, roles, phase, the Sequence's step, AP) as data and as text; an unknown
player is refused; and the service on real HTTP on loopback serves a stored match's events in
these sentences and its turn-order board, and the viewer's page."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.minis.logs import SAMPLES, B
from vwlog.games.minis import events as ev
from vwlog.games.minis import views
from vwlog.games.minis.state import Board, evolve
from vwlog.model.errors import UnknownPlayerError

FOLDER = Path(__file__).resolve().parents[2] / "samples" / "minis"


def _boards(events: list[Any]) -> list[tuple[Any, Board]]:
    out, s = [], Board()
    for e in events:
        out.append((e, s))
        s = evolve(s, e)
    return out


def test_every_event_type_has_a_sentence_of_its_own() -> None:
    said: dict[str, set[str]] = {}
    for name in sorted(SAMPLES):
        for e, before in _boards(SAMPLES[name]):
            text = str(views.description(e, before))
            assert text, e
            assert text != e.type, e
            said.setdefault(e.type, set()).add(text)
    game_types = {
        t for t in ev.EVENT_TYPES if t not in ("match_forked", "match_sealed", "record_signed")
    }
    assert game_types <= set(said) | {"crouched_changed"} | {"resolution_ordered"}


def test_a_roll_is_said_with_its_dice() -> None:
    e = ev.Roll(player="p1", model="m1", purpose="DAMAGE", dice=2, results=(4, 6))
    assert str(views.description(e, Board())) == "p1 rolls 2d6 for m1 (damage): 4 6, 0 Hits"


def test_the_turn_order_board() -> None:
    s = Board()
    for e in B[:12]:
        s = evolve(s, e)
    b = views.board(s, seq=12)
    assert (b["round"], b["turn"], b["active"], b["reactive"], b["phase"]) == (
        1,
        1,
        "p1",
        ["p2"],
        "TACTICAL",
    )
    assert (b["order"], b["done"], b["activating"], b["step"]) == (
        ["p1", "p2"],
        ["p1"],
        "m1",
        "RESOLUTION",
    )
    assert {m["id"]: m["ap"] for m in b["models"]} == {"m1": 1, "m2": 1, "r1": 1, "r2": 1}
    assert [c["what"] for c in b["claims"]] == ["los"]
    lines = [str(line) for line in views.board_lines(s)]
    assert lines[:3] == [
        "Round 1 · turn order p1, p2 · done p1",
        "Turn 1 · Active p1 · Reactive p2 · Tactical Phase",
        "Activation Sequence of m1 · step RESOLUTION",
    ]
    assert views.board(s, player="p2")["viewer"] == "p2"
    with pytest.raises(UnknownPlayerError):
        views.board(s, player="p9")


@pytest.mark.slow
def test_the_service_serves_a_stored_match_in_the_games_words(tmp_path: Path) -> None:
    from tests.api.server import serving, vwlog
    from vwlog.store.tokens import Role

    with serving(tmp_path) as server:
        vwlog(server.store, "import", "-q", str(FOLDER / "legal_one_round.jsonl"))
        server.token("judge", Role.JUDGE)
        with server.client("judge") as c:
            events = c.get("/matches/minis-legal-one-round/events", params={"limit": 20}).json()
            board = c.get("/matches/minis-legal-one-round/board", params={"seq": 12}).json()
            page = c.get("/m/minis-legal-one-round")
    assert events["events"][12]["event"]["type"] == "roll"
    assert board["game"] == "minis"
    assert board["fields"]["activating"] == "m1"
    assert board["fields"]["step"] == "RESOLUTION"
    assert page.status_code == 200
