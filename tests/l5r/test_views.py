"""L5R's views: a sentence for every battle event of the game's union (never the fallback of
its type and fields), values kept as they are (the renderers escape them), the battlefields as
a player may know them, and both through the real ``vwlog replay``."""

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
from vwlog.games.l5r import events as ev
from vwlog.games.l5r import views
from vwlog.games.l5r.state import Board, evolve
from vwlog.io.logfile import read_log
from vwlog.model.errors import UnknownPlayerError
from vwlog.model.text import Msg

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = ROOT / "samples" / "l5r"
START = ev.L5rStarted(
    players=("p1", "p2"),
    cards=(
        ev.CardDef(id="a1", owner="p1", kind="PERSONALITY", force=4),
        ev.CardDef(id="a2", owner="p1", kind="FOLLOWER", force=3, bowed=True),
        ev.CardDef(id="sw", owner="p1", kind="ATTACHMENT", attached_to="a1"),
        ev.CardDef(id="d1", owner="p2", kind="PERSONALITY", force=2),
        ev.CardDef(id="d2", owner="p2", kind="PERSONALITY", force=3),
    ),
    provinces=(
        ev.ProvinceDef(id="prov1", owner="p2", strength=4, battlefield="b1", cards=("h1",)),
        ev.ProvinceDef(id="prov3", owner="p1", strength=5, battlefield="b3"),
    ),
)
ONE_OF_EACH: list[Any] = [
    START,
    ev.AttackPhaseStarted(turn=1, attacker="p1", defender="p2"),
    ev.ArmiesDeclared(assignments=()),
    ev.ArmiesDeclared(
        assignments=(
            ev.Assignment(unit="a1", side="ATTACKER", battlefield="b1"),
            ev.Assignment(unit="d1", side="DEFENDER", battlefield="b1"),
            ev.Assignment(unit="a2", side="ATTACKER", battlefield="b2"),
            ev.Assignment(unit="d2", side="DEFENDER", battlefield="b4"),
        )
    ),
    ev.BattlefieldChosen(player="p1", battlefield="b1"),
    ev.BattlefieldChosen(player="p1", battlefield="b9", cause="r1"),
    ev.BattleStarted(battle=1, battlefield="b1", attacker="p1", defender="p2"),
    ev.BattleActionTaken(player="p2", card="k1", ability="bow"),
    ev.BattleActionTaken(
        player="p2",
        card="k2",
        ability="reinforce",
        source_unit="d1",
        targets=("a1",),
        brings=("d2",),
    ),
    ev.BattleActionResolved(card="k1", ability="bow"),
    ev.BattleActionResolved(
        card="k2",
        ability="reinforce",
        effects=(
            ev.Effect(kind="unit_entered_battle", unit="d2"),
            ev.Effect(kind="unit_bowed", unit="a1"),
            ev.Effect(kind="unit_unbowed", unit="d1"),
            ev.Effect(kind="force_changed", unit="d1", delta=2),
            ev.Effect(kind="force_changed", unit="a1", delta=-1),
        ),
    ),
    ev.OpportunityPassed(player="p1"),
    ev.ResolutionStarted(battle=1, attacker_force=7, defender_force=2),
    ev.ArmyDestroyed(battle=1, side="DEFENDER", cards=("d1",)),
    ev.ArmyDestroyed(battle=1, side="ATTACKER", cards=("a1", "sw")),
    ev.ProvinceDestroyed(province="prov1", discarded=("h1",), regions=("reg1",)),
    ev.ProvinceDestroyed(province="prov9"),
    ev.HonorGained(player="p1", amount=2, cards_destroyed=1),
    ev.HonorGained(player="p2", amount=4, cards_destroyed=2),
    ev.BattleWithoutOutcome(battle=1),
    ev.ResolutionEnded(battle=1),
    ev.AttackersSentHome(units=()),
    ev.AttackersSentHome(units=("a1",)),
    ev.BattleEnded(battle=1),
    ev.DefendersSentHome(units=()),
    ev.DefendersSentHome(units=("d1", "d2")),
    ev.AttackPhaseEnded(turn=1),
    MatchForked(parent="m-0", at=6),
    MatchForked(parent="m-0", at=6, name="what if"),
    MatchSealed(events=15, head="ab" * 32),
    RecordSigned(signer="judge", key="cd" * 32, seal=15, signature="ef" * 64),
]
"""At least one event of every type, and each way a sentence says it."""


def _board(upto: int = 7) -> Board:
    """A board of the first ``upto`` events of ``legal_province_falls`` (7: the Combat of
    battle 1 is over, its Resolution planned)."""
    _header, records = read_log(SAMPLES / "legal_province_falls.jsonl")
    s = Board()
    for rec in records[:upto]:
        s = evolve(s, rec.event)
    return s


def test_every_event_type_of_the_union_is_among_the_events_said() -> None:
    union = set(typing.get_args(ev.L5rEvent))
    assert union == set(ev.EVENT_TYPES.values())
    assert union == {type(e) for e in ONE_OF_EACH}


@pytest.mark.parametrize("event", ONE_OF_EACH, ids=lambda e: event_text(e)[:60])
@pytest.mark.parametrize("upto", [0, 7])
def test_each_event_has_a_sentence_of_its_own(event: Any, upto: int) -> None:
    said = views.description(event, _board(upto))
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
    assert seen > 200


def test_whole_sentences() -> None:
    s = _board(7)
    said = [str(views.description(e, s)) for e in ONE_OF_EACH]
    assert (
        "Armies declared: b1: attacking a1, defending d1; b2: attacking a2, defending none; "
        "b4: attacking none, defending d2"
    ) in said
    assert "Armies declared: no unit goes to battle" in said
    assert "p1 chooses the battlefield b1 (Province prov1 of p2)" in said
    assert "p1 chooses b9 for the battle r1 creates" in said
    assert (
        "p2 takes an opportunity: reinforce of k2, with d1, targeting a1, bringing d2 into the "
        "battle"
    ) in said
    assert (
        "reinforce of k2 resolves: d2 enters the battle; a1 bows; d1 unbows; d1 gains 2 Force; "
        "a1 loses 1 Force"
    ) in said
    assert "bow of k1 resolves: no effect" in said
    assert "Resolution of battle 1: p1 attacks with Force 7, p2 defends with Force 2" in said
    assert "The defending army of p2 is destroyed: d1" in said
    assert "The attacking army of p1 is destroyed: a1, sw" in said
    assert "The Province prov1 of p2 falls; discarded: h1, reg1" in said
    assert "The Province prov9 falls" in said
    assert "p1 gains 2 Honor; cards destroyed: 1" in said
    assert "p2 gains 4 Honor; cards destroyed: 2" in said
    assert "The attacking units bow and go Home: a1" in said
    assert "The defending units go Home: d1, d2" in said
    assert "The defending units go Home: none" in said


def test_without_a_battle_the_sides_are_not_named() -> None:
    s = Board()
    resolution = ev.ResolutionStarted(battle=1, attacker_force=3, defender_force=5)
    assert str(views.description(resolution, s)) == (
        "Resolution of battle 1: the attacker's Force is 3, the defender's 5"
    )
    destroyed = ev.ArmyDestroyed(battle=1, side="ATTACKER", cards=("a1",))
    assert str(views.description(destroyed, s)) == "The attacking army is destroyed: a1"


def test_names_go_into_the_sentence_as_they_are() -> None:
    odd = "p1\n!! FORGED\x1b[2J\u202e"
    said = views.description(ev.OpportunityPassed(player=odd), Board())
    assert str(said) == f"{odd} passes the opportunity"
    assert dict(said.params)["player"] == odd


def test_the_battlefields_in_full() -> None:
    data = views.board(_board(6), seq=6)
    assert data["seq"] == 6
    assert data["viewer"] is None
    assert data["view"] == "judge"
    assert data["game"] == "l5r"
    assert (data["turn"], data["attacker"], data["defender"]) == (1, "p1", "p2")
    assert data["battle"]["segment"] == "COMBAT"
    assert data["opportunity"] == "p1"  # the defender passed first
    b1, b2, b3 = data["battlefields"]
    assert b1["province"]["id"] == "prov1"
    assert (b1["attacker"], b1["defender"]) == ("p1", "p2")
    assert [(u["id"], u["bowed"], u["force"]) for u in b1["attackers"]] == [
        ("a1", False, 4),
        ("a2", False, 3),
        ("a3", True, 5),
    ]
    assert b1["attackers"][0]["attachments"] == ["sw"]
    assert [u["id"] for u in b1["defenders"]] == ["d1"]
    assert (b1["attacker_force"], b1["defender_force"]) == (7, 2)  # a3 is bowed
    assert (b2["attackers"], b2["defenders"]) == ([], [])
    assert (b3["province"]["owner"], b3["defender"], b3["attacker"]) == ("p1", "p1", "p2")
    assert [p["honor"] for p in data["players"]] == [0, 0]
    assert json.loads(json.dumps(data)) == data


def test_after_the_resolution() -> None:
    data = views.board(_board(15))
    assert data["battle"] is None
    assert data["opportunity"] is None
    b1 = data["battlefields"][0]
    assert b1["province"]["destroyed"] is True
    assert b1["fought"] is True
    assert (b1["attackers"], b1["defenders"]) == ([], [])
    p1, p2 = data["players"]
    assert p1["honor"] == 2
    assert [(u["id"], u["bowed"]) for u in p1["home"]][:3] == [
        ("a1", True),
        ("a2", True),
        ("a3", True),
    ]
    assert p2["discard"] == ["d1"]


def test_the_board_as_a_player_hides_nothing_public() -> None:
    s = _board(6)
    mine = views.board(s, player="p2")
    assert mine["viewer"] == "p2"
    assert mine["view"] == "player"
    assert {**mine, "viewer": None, "view": "judge"} == views.board(s)


def test_an_unknown_player_is_refused() -> None:
    with pytest.raises(UnknownPlayerError) as raised:
        views.board(_board(6), player="p3")
    assert raised.value.player == "p3"
    with pytest.raises(UnknownPlayerError):
        views.board(Board(), player="p1")


def test_the_views_are_loaded_only_when_asked_for() -> None:
    code = (
        "import sys\n"
        "from vwlog.games import rules_for\n"
        "game = rules_for('l5r')\n"
        "assert 'vwlog.games.l5r.views' not in sys.modules\n"
        "if game.views is not None:\n"
        "    said = game.views()\n"
        "    assert said.description is not None and said.board is not None\n"
        "    assert 'vwlog.games.l5r.views' in sys.modules\n"
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
    done = _vwlog("replay", str(SAMPLES / "legal_province_falls.jsonl"))
    assert done.returncode == 0
    assert done.stdout.splitlines()[7:11] == [
        "    8  Resolution of battle 1: p1 attacks with Force 7, p2 defends with Force 2",
        "    9  The defending army of p2 is destroyed: d1",
        "   10  The Province prov1 of p2 falls; discarded: h1, reg1",
        "   11  p1 gains 2 Honor; cards destroyed: 1",
    ]
    assert done.stdout.splitlines()[4:6] == [
        "    5  Battle 1 begins at b1: p1 attacks, p2 defends ◆",
        "    6  p2 passes the opportunity ◆",
    ]


def test_replay_of_an_illegal_sample_exits_1_with_its_sentences() -> None:
    done = _vwlog("replay", str(SAMPLES / "illegal_wrong_force.jsonl"))
    assert done.returncode == 1
    assert "Resolution of battle 1: " in done.stdout
    assert "!! L5R-" in done.stdout


def test_replay_json_with_the_board() -> None:
    sample = str(SAMPLES / "legal_province_falls.jsonl")
    done = _vwlog("replay", sample, "--format", "json", "--board", "--from", "6", "--to", "6")
    (step,) = json.loads(done.stdout)
    assert step["description"] == "p2 passes the opportunity"
    board = step["board"]
    assert board["seq"] == 6
    assert board["opportunity"] == "p1"
    assert board["battlefields"][0]["attacker_force"] == 7
    seated = _vwlog("replay", sample, "--format", "jsonl", "--board", "--as", "p1", "--to", "2")
    assert [json.loads(line)["board"]["viewer"] for line in seated.stdout.splitlines()] == [
        "p1",
        "p1",
    ]


def test_the_text_board() -> None:
    lines = [str(line) for line in views.board_lines(_board(6))]
    assert lines == [
        "Turn 1 · Attack phase: p1 attacks p2",
        "battle 1 at b1 · Combat · opportunity p1",
        "[b1] Province prov1 of p2, strength 4",
        "    attacking p1 · Force 7: a1 (Force 4); a2 (Force 3); a3 (Force 5, bowed)",
        "    defending p2 · Force 2: d1 (Force 2)",
        "[b2] Province prov2 of p2, strength 6",
        "[b3] Province prov3 of p1, strength 5",
        "p1: honor 0 · at Home: a4 (Force 2)",
        "p2: honor 0 · at Home: d2 (Force 3); d3 (Force 2, bowed); d9 (Force 1)",
    ]
    after = [str(line) for line in views.board_lines(_board(15))]
    assert after[:2] == [
        "Turn 1 · no Attack phase under way",
        "[b1] Province prov1 of p2, strength 4 (fallen)",
    ]
    assert [str(line) for line in views.board_lines(Board())] == ["(no match started)"]


def test_replay_text_with_the_board() -> None:
    sample = str(SAMPLES / "legal_province_falls.jsonl")
    done = _vwlog("replay", sample, "--board", "--from", "6", "--to", "6")
    assert done.stdout.splitlines()[:5] == [
        "    6  p2 passes the opportunity ◆",
        "       Turn 1 · Attack phase: p1 attacks p2",
        "       battle 1 at b1 · Combat · opportunity p1",
        "       [b1] Province prov1 of p2, strength 4",
        "           attacking p1 · Force 7: a1 (Force 4); a2 (Force 3); a3 (Force 5, bowed)",
    ]
