"""WoW TCG's views: a sentence for every event of the game's union (never the fallback of its
type and fields), values kept as they are (the renderers escape them), the board as a player
may know it, and both through the real ``vwlog replay``."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import typing
from pathlib import Path
from typing import Any

import pytest

from vwlog.events.core import MatchForked, MatchSealed, RecordSigned
from vwlog.games import event_text
from vwlog.games.wowtcg import events as ev
from vwlog.games.wowtcg import views
from vwlog.games.wowtcg.board import Board
from vwlog.games.wowtcg.fold import evolve
from vwlog.io.logfile import read_log
from vwlog.model.errors import UnknownPlayerError
from vwlog.model.text import Msg

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = ROOT / "samples" / "wowtcg"
HEROES = (
    ev.CardSpec(id="thrall", controller="ana", kind="hero"),
    ev.CardSpec(id="jaina", controller="budi", kind="hero", exhausted=True, inspire="ally"),
)
START = ev.MatchStarted(players=("ana", "budi"), hands=(7, 6), decks=(30, 29), cards=HEROES)

ONE_OF_EACH: list[Any] = [
    START,
    ev.TurnStarted(turn=1, player="ana"),
    ev.TurnStarted(turn=2, player="ana", extra=True),
    ev.TurnSkipped(player="budi"),
    ev.TurnSkipped(player="budi", by="hex"),
    ev.ExtraTurnCreated(player="ana"),
    ev.ExtraTurnCreated(player="ana", by="time-warp"),
    ev.PhaseStarted(phase="START"),
    ev.PhaseStarted(phase="ACTION"),
    ev.PhaseStarted(phase="END"),
    ev.StepStarted(step="READY"),
    ev.StepStarted(step="DRAW"),
    ev.StepStarted(step="COMBAT"),
    ev.StepStarted(step="FINAL"),
    ev.CardsReadied(player="ana"),
    ev.CardsReadied(player="budi", cards=("jaina",)),
    ev.InspireReadied(player="budi", cards=("jaina",), sources=("kaldel",)),
    ev.ModifierCreated(id="m1"),
    ev.ModifierCreated(id="m2", kind="SKIP_NEXT_TURN", player="budi", source="hex"),
    ev.ModifierCreated(id="m3", kind="MAX_HAND_SIZE", player="ana", amount=8),
    ev.ModifierCreated(id="m4", kind="WHEN_TURN_BEGINS", duration="UNTIL_END_OF_TURN"),
    ev.AbilityTriggered(trigger="t1", player="ana", when="TURN_START"),
    ev.AbilityTriggered(trigger="t2", player="ana", card="thrall", ability="rage", when="OTHER"),
    ev.PriorityWindowOpened(),
    ev.PriorityWindowClosed(),
    ev.TriggerAdded(trigger="t1"),
    ev.LinkAdded(player="ana", link="l1", card="grunt", instant=False),
    ev.LinkAdded(player="budi", link="l2", kind="POWER", card="jaina", ability="blink"),
    ev.LinkAdded(player="budi", link="l3", card="frostbolt", targets=("thrall",)),
    ev.PriorityPassed(player="ana"),
    ev.LinkResolved(link="l2"),
    ev.LinkResolved(link="l1", effects=("grunt hits",), enters_play=(HEROES[0],)),
    ev.CardsExhausted(cards=("thrall",)),
    ev.CardDrawn(player="ana"),
    ev.CardDrawn(player="ana", card="c7"),
    ev.ResourcePlaced(player="ana", card="r1"),
    ev.CombatDeclared(player="ana", attacker="thrall", target="jaina"),
    ev.CombatStepEnded(),
    ev.HandLimitDiscarded(player="ana", cards=("c1", "c2")),
    ev.ModifiersExpired(modifiers=()),
    ev.ModifiersExpired(modifiers=("m1",)),
    ev.TurnEnded(turn=1),
    ev.Conceded(player="budi"),
    ev.PlayerLost(player="budi"),
    MatchForked(parent="m-0", at=12),
    MatchForked(parent="m-0", at=12, name="what if"),
    MatchSealed(events=40, head="ab" * 32),
    RecordSigned(signer="judge", key="cd" * 32, seal=40, signature="ef" * 64),
]
"""At least one event of every type, and each way a sentence says it."""


def _board() -> Board:
    """A board in an open window of the first turn, with a link on the chain and a trigger
    waiting."""
    s = Board()
    for e in (
        START,
        ev.TurnStarted(turn=1, player="ana"),
        ev.PhaseStarted(phase="ACTION"),
        ev.AbilityTriggered(trigger="t1", player="budi", card="jaina", when="PHASE_START"),
        ev.PriorityWindowOpened(),
        ev.TriggerAdded(trigger="t1"),
        ev.LinkAdded(player="ana", link="l1", card="grunt", instant=True),
    ):
        s = evolve(s, e)
    return s


def test_every_event_type_of_the_union_is_among_the_events_said() -> None:
    union = set(typing.get_args(ev.WowEvent))
    assert union == set(ev.EVENTS.values())
    assert union == {type(e) for e in ONE_OF_EACH}


@pytest.mark.parametrize("event", ONE_OF_EACH, ids=lambda e: event_text(e)[:60])
def test_each_event_has_a_sentence_of_its_own(event: Any) -> None:
    said = views.description(event, _board())
    assert isinstance(said, Msg)
    text = str(said)
    assert text
    assert text != event_text(event)
    assert not text.startswith(event.type), text
    assert "{" not in text


def test_each_sentence_of_the_samples_is_the_games_own() -> None:
    seen = 0
    for path in sorted(SAMPLES.glob("*.jsonl")):
        _header, records = read_log(path)
        s = Board()
        for rec in records:
            text = str(views.description(rec.event, s))
            assert text != event_text(rec.event)
            assert not text.startswith(rec.event.type)
            s = evolve(s, rec.event)
            seen += 1
    assert seen > 500


def test_sentences_read_the_board_before_the_event() -> None:
    s = _board()
    assert str(views.description(ev.PriorityWindowOpened(), s)) == (
        "A priority window opens: ana holds priority"
    )
    waiting = evolve(s, ev.AbilityTriggered(trigger="t9", player="budi", when="OTHER"))
    assert str(views.description(ev.PriorityWindowOpened(), waiting)) == (
        "A priority window opens; 1 triggered effects wait to go onto the chain"
    )
    assert str(views.description(ev.TriggerAdded(trigger="t9"), waiting)) == (
        "Triggered effect t9 of budi goes onto the chain"
    )
    assert str(views.description(ev.TriggerAdded(trigger="t0"), s)) == (
        "Triggered effect t0 goes onto the chain"
    )


def test_whole_sentences_of_the_chain_and_of_turns() -> None:
    s = _board()
    said = [str(views.description(e, s)) for e in ONE_OF_EACH]
    assert "budi uses blink of jaina as link l2" in said
    assert "budi plays frostbolt as link l3, targeting thrall" in said
    assert "ana plays grunt as link l1 (not an instant)" in said
    assert "Link l1 resolves: grunt hits; thrall enters play" in said
    assert "Turn 2 begins: an extra turn for ana" in said
    assert "budi skips a turn because of hex" in said
    assert "Modifier m2: budi skips their next turn (from hex)" in said
    assert "rage of thrall triggers for ana as t2" in said
    assert "t1 triggers" not in " ".join(said)
    assert "An effect triggers for ana as t1 at the start of the turn" in said
    assert "budi readies jaina with Inspire from kaldel" in said
    assert "ana discards down to the maximum hand size: c1, c2" in said


def test_a_card_drawn_or_placed_as_a_resource_is_named_only_to_its_player() -> None:
    drawn = ev.CardDrawn(player="ana", card="c7")
    placed = ev.ResourcePlaced(player="ana", card="r1")
    s = _board()
    assert str(views.description(drawn, s)) == "ana draws c7"
    assert str(views.description(drawn, s, viewer="ana")) == "ana draws c7"
    assert str(views.description(drawn, s, viewer="budi")) == "ana draws a card"
    assert str(views.description(placed, s, viewer="ana")) == "ana places r1 as a resource"
    assert str(views.description(placed, s, viewer="budi")) == "ana places a card as a resource"


def test_names_go_into_the_sentence_as_they_are() -> None:
    odd = "ana\n!! FORGED\x1b[2J\u202e"
    said = views.description(ev.PriorityPassed(player=odd), Board())
    assert str(said) == f"{odd} passes priority"
    assert dict(said.params)["player"] == odd


def test_the_board_in_full() -> None:
    data = views.board(_board(), seq=7)
    assert data["seq"] == 7
    assert data["viewer"] is None
    assert data["view"] == "judge"
    assert data["game"] == "wowtcg"
    assert (data["turn"], data["active"], data["phase"], data["step"]) == (1, "ana", "ACTION", None)
    assert data["priority"] == "ana"
    # the chain top first: the link added last resolves first
    assert [k["id"] for k in data["chain"]] == ["l1", "t1"]
    assert [k["controller"] for k in data["chain"]] == ["ana", "budi"]
    ana, budi = data["players"]
    assert ana["cards"] == [{"id": "thrall", "kind": "hero", "exhausted": False, "inspire": None}]
    assert budi["cards"] == [{"id": "jaina", "kind": "hero", "exhausted": True, "inspire": "ally"}]
    assert (ana["hand_size"], ana["library_size"]) == (6, 30)  # grunt left the hand
    assert (budi["hand_size"], budi["library_size"]) == (6, 29)
    assert json.loads(json.dumps(data)) == data


def test_the_board_as_a_player_shows_the_other_hand_as_a_count() -> None:
    s = _board()
    mine = views.board(s, player="budi")
    assert mine["viewer"] == "budi"
    assert mine["view"] == "player"
    for seat in mine["players"]:
        assert "hand" not in seat  # the board keeps hands as counts only
    assert [p["hand_size"] for p in mine["players"]] == [6, 6]
    full = views.board(s)
    assert {**mine, "viewer": None, "view": "judge"} == full


def test_an_unknown_player_is_refused() -> None:
    with pytest.raises(UnknownPlayerError) as raised:
        views.board(_board(), player="anna")
    assert raised.value.player == "anna"
    assert "ana" in str(raised.value)
    with pytest.raises(UnknownPlayerError):
        views.board(Board(), player="ana")


def test_the_views_are_loaded_only_when_asked_for() -> None:
    code = (
        "import sys\n"
        "from vwlog.games import rules_for\n"
        "game = rules_for('wowtcg')\n"
        "assert 'vwlog.games.wowtcg.views' not in sys.modules\n"
        "if game.views is not None:\n"
        "    said = game.views()\n"
        "    assert said.description is not None and said.board is not None\n"
        "    assert 'vwlog.games.wowtcg.views' in sys.modules\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=False, cwd=ROOT
    )
    assert done.returncode == 0, done.stderr


# -- through the command line ----------------------------------------------------------------

_LAUNCH = ("-m", "vwlog")
"""How the tests start the command line."""


def _vwlog(*args: str) -> subprocess.CompletedProcess[str]:
    done = subprocess.run(
        [sys.executable, *_LAUNCH, *args, "--lang", "en"],
        capture_output=True,
        text=True,
        check=False,
        cwd=ROOT,
        timeout=180,
        env={**os.environ, "VWLOG_ENGINE": "pure"},
    )
    assert "Traceback" not in done.stderr, done.stderr
    assert done.returncode in (0, 1), done.stderr
    return done


def test_replay_says_each_event_in_a_sentence() -> None:
    done = _vwlog("replay", str(SAMPLES / "extra-turn.jsonl"))
    lines = done.stdout.splitlines()
    assert lines[11:16] == [
        "   12  ana plays time-warp as link l1 (not an instant) ◆",
        "   13  ana passes priority ◆",
        "   14  budi passes priority",
        "   15  Link l1 resolves: ana takes an extra turn ◆",
        "   16  ana gets an extra turn from time-warp ◆",
    ]
    assert "   27  Turn 2 begins: an extra turn for ana" in lines
    assert not any("_" in line.split("  ", 2)[-1] for line in lines[1:]), done.stdout


def test_replay_as_a_player_hides_the_resource_placed() -> None:
    sample = str(SAMPLES / "combat-and-responses.jsonl")
    mine = _vwlog("replay", sample, "--as", "ana", "--from", "12", "--to", "12").stdout
    theirs = _vwlog("replay", sample, "--as", "budi", "--from", "12", "--to", "12").stdout
    assert mine == "   12  ana places ana-res-1 as a resource ◆\n"
    assert theirs == "   12  ana places a card as a resource ◆\n"


def test_replay_json_with_the_board() -> None:
    sample = str(SAMPLES / "extra-turn.jsonl")
    done = _vwlog("replay", sample, "--format", "json", "--board", "--from", "12", "--to", "12")
    (step,) = json.loads(done.stdout)
    assert step["description"] == "ana plays time-warp as link l1 (not an instant)"
    board = step["board"]
    assert board["seq"] == 12
    assert board["game"] == "wowtcg"
    assert board["chain"] == [{"id": "l1", "controller": "ana", "instant": False}]
    assert board["priority"] == "ana"
    assert [(p["id"], p["hand_size"], p["library_size"]) for p in board["players"]] == [
        ("ana", 6, 30),
        ("budi", 7, 30),
    ]
    seated = _vwlog("replay", sample, "--format", "jsonl", "--board", "--as", "budi", "--to", "3")
    boards = [json.loads(line)["board"] for line in seated.stdout.splitlines()]
    assert [b["viewer"] for b in boards] == ["budi"] * 3


def test_replay_as_someone_not_at_the_match_is_a_usage_error() -> None:
    done = subprocess.run(
        [sys.executable, *_LAUNCH, "replay", str(SAMPLES / "extra-turn.jsonl"), "--as", "x"],
        capture_output=True,
        text=True,
        check=False,
        cwd=ROOT,
        timeout=180,
        env={**os.environ, "VWLOG_ENGINE": "pure"},
    )
    assert done.returncode == 2
    assert "Traceback" not in done.stderr
    assert "no player 'x' in this match" in done.stderr


def test_the_text_board() -> None:
    s = evolve(_board(), ev.ModifierCreated(id="m1", kind="MAX_HAND_SIZE", player="ana", amount=8))
    s = evolve(s, ev.AbilityTriggered(trigger="t9", player="budi", when="OTHER"))
    assert [str(line) for line in views.board_lines(s)] == [
        "Turn 1 · ana · Action Phase",
        "priority ana · passes 0",
        "chain (top first): l1 (ana), t1 (budi)",
        "waiting triggers: t9",
        "modifiers: m1",
        "*ana: hand 6 (max 8) · library 30",
        "    thrall (hero, ready)",
        " budi: hand 6 (max 7) · library 29",
        "    jaina (hero, exhausted)",
        "resources placed this turn: 0",
    ]
    over = evolve(s, ev.Conceded(player="budi"))
    assert str(views.board_lines(over)[-1]) == "ana wins: concession"
    assert [str(line) for line in views.board_lines(Board())] == ["(no match started)"]


def test_replay_text_with_the_board() -> None:
    done = _vwlog(
        "replay", str(SAMPLES / "extra-turn.jsonl"), "--board", "--from", "29", "--to", "29"
    )
    assert done.stdout.splitlines() == [
        "   29  Ready Step begins",
        "       Turn 2 · ana (extra turn) · Start Phase, Ready Step",
        "       priority - · passes 0",
        "       chain (top first): -",
        "       *ana: hand 6 (max 7) · library 30",
        "           thrall (hero, ready)",
        "        budi: hand 7 (max 7) · library 30",
        "           jaina (hero, ready)",
        "       resources placed this turn: 0",
        "",
    ]
