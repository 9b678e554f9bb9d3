"""Descriptions of events and the board as JSON (`vwlog.games.vw.describe`)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, get_args

import jsonschema
import pytest

from vwlog.engine.replay import Collect, Step, replay
from vwlog.events import (
    EVENT_TYPES,
    AnyEvent,
    Block,
    BlocksAssigned,
    CardMoved,
    Conceded,
    DeckReordered,
    DeckRevealed,
    Effect,
    FollowersDestroyed,
    HonorChanged,
    JudgeRulingIssued,
    MatchForked,
    ObjectResulted,
    OpeningHandDrawn,
    PriorityPassed,
    RecordSigned,
    StatusChanged,
    StepStarted,
    event_type,
)
from vwlog.games.vw.describe import (
    BoardView,
    board_view,
    card_name,
    describe,
    describe_effect,
    state_json,
)
from vwlog.io.logfile import read_log
from vwlog.model.errors import UsageError
from vwlog.model.types import CardType, RulingKind, Zone
from vwlog.model.types import Step as StepName
from vwlog.projections import INITIAL

if TYPE_CHECKING:
    from pathlib import Path

    from vwlog.model.state import MatchState


@pytest.fixture(scope="module")
def steps(duel_log: Path, team_log: Path, random_log: Path) -> list[Step]:
    """Every step of three generated matches."""
    out: list[Step] = []
    for path in (duel_log, team_log, random_log):
        out.extend(replay(read_log(path)[1], Collect()))
    return out


def _constructed() -> list[AnyEvent]:
    """Events that generated matches do not contain, with players and cards of ``state``."""
    return [
        Conceded(player="p2"),
        DeckRevealed(player="p1", salt="c2FsdA"),
        MatchForked(parent="sim-7-00000", at=412, name="block"),
        RecordSigned(signer="alice", key="ab" * 32, signature="cd" * 64, seal=900),
        *(
            JudgeRulingIssued(judge="Ana", kind=kind, reason="slow play", back_to=57, loser="p2")
            for kind in RulingKind
        ),
    ]


@pytest.fixture(scope="module")
def samples(steps: list[Step]) -> dict[str, list[tuple[AnyEvent, MatchState]]]:
    """Up to 50 (event, board before it) pairs of every event type."""
    by_type: dict[str, list[tuple[AnyEvent, MatchState]]] = {}
    for step in steps:
        found = by_type.setdefault(event_type(step.record.event), [])
        if len(found) < 50:
            found.append((step.record.event, step.before))
    board = steps[500].after
    for event in _constructed():
        by_type.setdefault(event_type(event), []).append((event, board))
    return by_type


@pytest.mark.parametrize("tag", sorted(EVENT_TYPES))
def test_every_event_type_has_a_one_line_description(
    samples: dict[str, list[tuple[AnyEvent, MatchState]]], tag: str
) -> None:
    assert samples.get(tag), f"no sample of {tag}"
    for event, before in samples[tag]:
        text = describe(event, before)
        assert text.strip() == text
        assert text
        assert "\n" not in text
        assert "None" not in text
        assert "<" not in text  # no object reprs
        player = getattr(event, "player", None)
        if isinstance(player, str):
            assert player in text


def test_descriptions_name_cards_by_name_and_instance(
    samples: dict[str, list[tuple[AnyEvent, MatchState]]],
) -> None:
    event, before = samples["card_summoned"][0]
    card = getattr(event, "card", "")
    assert f"{before.defn(card).name} ({card})" in describe(event, before)


def test_a_summon_says_what_it_cost(samples: dict[str, list[tuple[AnyEvent, MatchState]]]) -> None:
    for event, before in samples["card_summoned"]:
        cost = before.pending_cost
        assert cost is not None
        text = describe(event, before)
        assert text.startswith(f"{cost.player} summons ")
        assert f" for {cost.gold} gold" in text


def test_blocks_name_attacker_and_blocker(steps: list[Step]) -> None:
    step = next(
        s for s in steps if isinstance(s.record.event, BlocksAssigned) and s.record.event.blocks
    )
    event = step.record.event
    assert isinstance(event, BlocksAssigned)
    block = event.blocks[0]
    text = describe(event, step.before)
    assert text.startswith(f"{event.player} blocks {card_name(step.before, block.attacker)} with ")
    assert card_name(step.before, block.blocker) in text


def test_a_single_block_reads_as_a_sentence(steps: list[Step]) -> None:
    board = next(
        s.after
        for s in steps
        if sum(1 for c in s.after.permanents.values() if c.controller == "p1") >= 1
        and sum(1 for c in s.after.permanents.values() if c.controller == "p2") >= 1
    )
    mine = next(c.id for c in board.permanents.values() if c.controller == "p1")
    theirs = next(c.id for c in board.permanents.values() if c.controller == "p2")
    event = BlocksAssigned(player="p2", blocks=(Block(blocker=theirs, attacker=mine),))
    assert describe(event, board) == (
        f"p2 blocks {board.defn(mine).name} ({mine}) with {board.defn(theirs).name} ({theirs})"
    )


def test_simple_events_read_plainly() -> None:
    assert describe(PriorityPassed(player="p1"), INITIAL) == "p1 passes priority"
    assert describe(StepStarted(step=StepName.C7), INITIAL) == "Combat step 7 begins"
    assert describe(FollowersDestroyed(cards=("x-1",)), INITIAL) == "Followers destroyed: x-1"


def test_an_object_result_says_what_it_did(steps: list[Step]) -> None:
    step = next(
        s
        for s in steps
        if isinstance(s.record.event, ObjectResulted)
        and any(isinstance(e, HonorChanged) for e in s.record.event.effects)
    )
    event = step.record.event
    assert isinstance(event, ObjectResulted)
    honor = next(e for e in event.effects if isinstance(e, HonorChanged))
    text = describe(event, step.before)
    assert text.startswith(f"{event.object_id} results: ")
    verb = "gains" if honor.delta >= 0 else "loses"
    assert f"{honor.player} {verb} {abs(honor.delta)} honor" in text


def test_a_territory_summon_result_says_it_enters_play(steps: list[Step]) -> None:
    for s in steps:
        event = s.record.event
        if not isinstance(event, ObjectResulted):
            continue
        obj = next(o for o in s.before.register if o.id == event.object_id)
        if obj.card and s.before.defn(obj.card).type == CardType.TERRITORY and obj.kind == "SUMMON":
            text = describe(event, s.before)
            assert text == f"{obj.id} results: {card_name(s.before, obj.card)} enters play for " + (
                obj.controller
            )
            return
    pytest.fail("no Territory summon in the generated matches")


@pytest.mark.parametrize(
    "tag", sorted(cls.model_fields["type"].default for cls in get_args(get_args(Effect)[0]))
)
def test_every_effect_type_has_a_description(steps: list[Step], tag: str) -> None:
    board = steps[800].after
    card = next(iter(board.permanents))
    constructed: dict[str, Any] = {
        "card_moved": CardMoved(card=card, to_zone=Zone.HAND),
        "status_changed": StatusChanged(card=card, slid=True),
        "deck_reordered": DeckReordered(
            player=board.players[0].id, cards=board.players[0].deck[:2][::-1]
        ),
    }
    found = [
        (e, s.before)
        for s in steps
        if isinstance(s.record.event, ObjectResulted)
        for e in s.record.event.effects
        if e.type == tag
    ]
    if tag in constructed:
        found.append((constructed[tag], board))
    assert found, f"no sample of {tag}"
    for effect, before in found[:50]:
        text = describe_effect(effect, before)
        assert text
        assert "\n" not in text
        assert "None" not in text


def test_a_viewer_does_not_learn_the_cards_another_player_draws(steps: list[Step]) -> None:
    step = next(s for s in steps if isinstance(s.record.event, OpeningHandDrawn))
    event = step.record.event
    assert isinstance(event, OpeningHandDrawn)
    other = next(p.id for p in step.after.players if p.id != event.player)
    named = describe(event, step.before)
    hidden = describe(event, step.before, viewer=other)
    own = describe(event, step.before, viewer=event.player)
    first = card_name(step.after, event.cards[0])
    assert first in named
    assert first in own
    assert first not in hidden
    assert f"{len(event.cards)} cards" in hidden


# -- the board as JSON -----------------------------------------------------------------------


@pytest.fixture(scope="module")
def board(steps: list[Step]) -> MatchState:
    """A board with Territories, guards and cards in both hands."""
    return next(
        s.after
        for s in steps
        if len(s.after.permanents) >= 4 and all(p.hand for p in s.after.players)
    )


def test_the_board_json_names_every_zone(board: MatchState) -> None:
    data = state_json(board, seq=42)
    assert data["view_version"] == 1
    assert data["seq"] == 42
    assert data["viewer"] is None
    assert data["turn"] == board.turn
    assert data["phase"] == (str(board.phase) if board.phase else None)
    assert "register" in data
    assert [p["id"] for p in data["players"]] == [p.id for p in board.players]
    for p, state in zip(data["players"], board.players, strict=True):
        assert p["gold"] == state.gold
        assert p["honor"] == state.honor
        assert p["vp"] == state.vp
        assert p["hand_size"] == len(state.hand)
        assert [c["id"] for c in p["hand"]] == list(state.hand)
        assert p["deck_size"] == len(state.deck)
        assert [c["id"] for c in p["graveyard"]] == list(state.graveyard)
        assert [t["id"] for t in p["territories"]] == [t.id for t in board.territories(p["id"])]
        for t in p["territories"]:
            assert [g["id"] for g in t["guards"]] == [g.id for g in board.guards(t["id"])]


def test_a_player_view_hides_the_other_hands_and_keeps_their_sizes(board: MatchState) -> None:
    data = state_json(board, player="p1")
    assert data["viewer"] == "p1"
    for p, state in zip(data["players"], board.players, strict=True):
        assert p["hand_size"] == len(state.hand)
        if p["id"] == "p1":
            assert [c["id"] for c in p["hand"]] == list(state.hand)
        else:
            assert p["hand"] is None
        assert "deck" not in p


def test_an_unknown_player_view_is_a_usage_error(board: MatchState) -> None:
    with pytest.raises(UsageError, match="no player 'p9' in this match"):
        state_json(board, player="p9")


def test_the_board_json_follows_the_board_view_schema(steps: list[Step]) -> None:
    schema = BoardView.model_json_schema(mode="serialization", by_alias=True)
    validator = jsonschema.Draft202012Validator(schema)
    for step in steps[::97]:
        data = state_json(step.after, player="p2")
        validator.validate(data)
        assert BoardView.model_validate(data) == board_view(step.after, player="p2")


def test_the_board_of_an_empty_match_is_valid_json() -> None:
    data = state_json(INITIAL)
    assert data["started"] is False
    assert data["players"] == []
