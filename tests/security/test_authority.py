"""A player's token makes exactly its own seat's decisions, whatever their kind.

Attacked as a cheating player would, over real HTTP on both servers: every decision kind, as
words and as a JSON event, sent for the other seat by a player's token, at its own priority and
at the other seat's, is refused with 403, nothing is stored (the organiser's head does not
move) and the refusal names nothing the seat may not know. Acting with the other seat's cards
is refused alike. A concession for another seat comes only from a judge's ruling.
"""

from __future__ import annotations

import json
import random
from typing import TYPE_CHECKING, Any

import pytest

from tests.security.conftest import live_until, new_live
from tests.security.seatview import (
    cards_of,
    drive,
    head,
    in_main_phase,
    priority_of,
    secrets_of,
)
from vwlog.events import EVENT_TYPES
from vwlog.games.vw.seats import AUTHORITY, decision_classes

if TYPE_CHECKING:
    from tests.api.server import Server


def _tag(cls: type[Any]) -> str:
    tag: str = cls.model_fields["type"].default
    return tag


def decisions_for(seat: str, card: str, territory: str) -> dict[str, dict[str, Any]]:
    """A JSON event of every decision kind, made by ``seat`` (``card`` and ``territory`` for
    the ids a kind names)."""
    return {
        "priority_passed": {"player": seat},
        "supply_chosen": {"player": seat, "option": "GOLD_2"},
        "property_placed": {
            "player": seat,
            "card": card,
            "territory": territory,
            "reason": "DEPLOY_PHASE",
        },
        "deployment_finished": {"player": seat},
        "cost_paid": {"player": seat, "card": card, "gold": 0},
        "card_summoned": {"player": seat, "card": card, "object_id": "o99"},
        "skill_registered": {
            "player": seat,
            "card": card,
            "skill": "s1",
            "object_id": "o99",
            "target": territory,
        },
        "attackers_entered_battle": {"player": seat, "followers": [card]},
        "attack_declared": {"player": seat, "attacks": [{"follower": card, "target": territory}]},
        "blockers_entered_battle": {"player": seat, "followers": [card]},
        "blocks_assigned": {"player": seat, "blocks": [{"blocker": card, "attacker": territory}]},
        "follower_damage_assigned": {
            "player": seat,
            "allocations": [{"source": card, "recipient": territory, "amount": 1}],
        },
        "hand_limit_discarded": {"player": seat, "cards": [card]},
        "deck_revealed": {"player": seat, "salt": "00" * 16},
        "conceded": {"player": seat},
        "judge_ruling_issued": {
            "judge": "me",
            "kind": "GAME_LOSS",
            "reason": "they lose",
            "loser": seat,
        },
        "match_forked": {"parent": "x", "at": 1},
    }


def words_for(seat: str, card: str, territory: str) -> list[str]:
    """Every verb of the notation, for ``seat``."""
    return [
        f"{seat}: {w}"
        for w in (
            "pass",
            "supply GOLD_2",
            f"summon {card}",
            f"skill {card} s1 {territory}",
            f"pay {card}",
            f"place {card} {territory}",
            "done",
            f"attackers {card}",
            f"declare {card}:{territory}",
            f"blockers {card}",
            f"blocks {card}:{territory}",
            f"damage {card}:{territory}:1",
            f"discard {card}",
            "concede",
            "reveal 00",
        )
    ]


def test_the_table_covers_every_decision_kind() -> None:
    """Every class deriving from `Decision` has its row: a new decision kind fails here until
    the table says who makes it."""
    assert decision_classes() == set(AUTHORITY)
    for cls, rule in AUTHORITY.items():
        # the seat is the engine's own actor: every decision naming a player is bound to it
        if "player" in cls.model_fields:
            assert "player" in rule.seat, cls
        else:
            assert not rule.seat, cls
            assert rule.judge_only or rule.organiser_only, cls
        for path in (*rule.seat, *rule.acts_with, *rule.names):
            assert path.split("[")[0].split(".")[0] in cls.model_fields, (cls, path)


def test_the_probes_cover_every_decision_kind() -> None:
    """The attacks below send every decision kind the event vocabulary has."""
    kinds = {_tag(cls) for cls in decision_classes()}
    assert set(decisions_for("p2", "c", "t")) == kinds
    assert kinds <= set(EVENT_TYPES)


def _attack_other_seat(server: Server, match_id: str, seats: dict[str, str], me: str) -> None:
    other = "p2" if me == "p1" else "p1"
    token = seats[me]
    before = head(server, match_id)
    secrets = secrets_of(server, match_id, token, me)
    shown = drive(server, match_id, lambda a, b: True)[1]
    theirs = cards_of(shown, other)
    card = theirs[0] if theirs else "nothing"
    territory = theirs[-1] if theirs else "nothing"
    probes: list[str] = [
        json.dumps({"type": tag, **fields}, separators=(",", ":"))
        for tag, fields in decisions_for(other, card, territory).items()
    ]
    probes += words_for(other, card, territory)
    with server.client(token) as c:
        for probe in probes:
            r = c.post(f"/matches/{match_id}/decisions", json={"decisions": [probe]})
            assert r.status_code == 403, (probe, r.status_code, r.text)
            secrets.check(r.text, f"the refusal of {probe!r}")
            assert "error" in r.json()
    assert head(server, match_id) == before, "a refused decision was stored"


def test_no_decision_for_the_other_seat_at_ones_own_priority(server: Server) -> None:
    match_id, seats = new_live(server)
    drive(server, match_id, in_main_phase("p1"))
    _attack_other_seat(server, match_id, seats, "p1")


def test_no_decision_for_the_other_seat_at_its_priority(server: Server) -> None:
    match_id, seats = new_live(server)
    drive(server, match_id, priority_of("p2"))
    _attack_other_seat(server, match_id, seats, "p1")


def test_no_decision_with_the_other_seats_cards(server: Server) -> None:
    """At its own priority, in its own name, a seat still may not act with the other seat's
    cards in play: 403, nothing stored."""
    main = in_main_phase("p1")
    match_id, seats, _, shown = live_until(
        server, lambda a, b: main(a, b) and bool(cards_of(b, "p2"))
    )
    theirs = cards_of(shown, "p2")
    before = head(server, match_id)
    card = theirs[0]
    own = (cards_of(shown, "p1") or theirs)[-1]
    probes = [
        f"pay {card}",
        f"summon {card}",
        json.dumps(
            {"type": "skill_registered", "player": "p1", "card": card, "skill": "s1"}
            | {"object_id": "o99"}
        ),
        f"attackers {card}",
        f"declare {card}:{own}",
        f"blockers {card}",
        f"blocks {card}:{own}",
        f"damage {card}:{own}:1",
        f"discard {card}",
        f"place {card} {own}",
        json.dumps({"type": "cost_paid", "player": "p1", "card": card, "gold": 0}),
    ]
    with server.client(seats["p1"]) as c:
        for probe in probes:
            r = c.post(f"/matches/{match_id}/decisions", json={"decisions": [probe]})
            assert r.status_code == 403, (probe, r.status_code, r.text)
    assert head(server, match_id) == before


def test_only_a_judge_concedes_for_another_seat(server: Server) -> None:
    """``p2: concede`` from p1's token, as words or as an event, and a ruling asked for by a
    player's token, are refused; the judge's ruling is recorded."""
    match_id, seats = new_live(server)
    drive(server, match_id, priority_of("p1"))
    before = head(server, match_id)
    with server.client(seats["p1"]) as c:
        words = c.post(f"/matches/{match_id}/decisions", json={"decisions": ["p2: concede"]})
        event = c.post(
            f"/matches/{match_id}/decisions",
            json={"decisions": ['{"type":"conceded","player":"p2"}']},
        )
        ruling = c.post(
            f"/matches/{match_id}/rulings",
            json={"kind": "GAME_LOSS", "reason": "I say so", "loser": "p2"},
        )
    assert (words.status_code, event.status_code, ruling.status_code) == (403, 403, 403)
    assert head(server, match_id) == before
    with server.client("judge") as c:
        ruled = c.post(
            f"/matches/{match_id}/rulings",
            json={"kind": "GAME_LOSS", "reason": "slow play", "loser": "p2"},
        )
    assert ruled.status_code == 201, ruled.text
    assert head(server, match_id) == before + 1
    with server.client("organiser") as c:
        rulings = c.get(f"/matches/{match_id}/rulings").json()
    assert [(r["kind"], r["loser"]) for r in rulings] == [("GAME_LOSS", "p2")]


def test_a_seat_concedes_for_itself_even_out_of_turn(server: Server) -> None:
    match_id, seats = new_live(server)
    drive(server, match_id, priority_of("p1"))
    with server.client(seats["p2"]) as c:
        r = c.post(f"/matches/{match_id}/decisions", json={"decisions": ["concede"]})
    assert r.status_code == 200, r.text
    assert r.json()["winner"] == "p1"


@pytest.mark.parametrize("role", ["organiser", "judge"])
def test_organisers_and_judges_append_any_seats_decision(server: Server, role: str) -> None:
    match_id, _ = new_live(server)
    drive(server, match_id, priority_of("p2"))
    with server.client(role) as c:
        r = c.post(f"/matches/{match_id}/decisions", json={"decisions": ["p2: pass"]})
    assert r.status_code == 200, r.text
    assert r.json()["decisions"] == 1


def test_players_make_their_own_legal_decisions_of_every_kind(server: Server) -> None:
    """The seat rule refuses no legal decision: two players' tokens play a match on their own,
    each taking one of the decisions ``/awaited`` offers it (as words, or as the event when
    the words cannot say it), until the match ends or 300 decisions were made; each is
    accepted, and between them they make most decision kinds."""
    match_id, seats = new_live(server)
    rng = random.Random(20261206)
    kinds: set[str] = set()
    clients = {seat: server.client(token) for seat, token in seats.items()}
    try:
        for _ in range(300):
            now = drive(server, match_id, lambda a, b: True)[0]
            if now["over"] or now["player"] is None:
                break
            c = clients[now["player"]]
            offered = c.get(f"/matches/{match_id}/awaited", params={"limit": 40}).json()
            assert offered["options"], offered
            passes = [i for i, o in enumerate(offered["legal"]) if o["type"] == "priority_passed"]
            others = [i for i in range(len(offered["legal"])) if i not in passes]
            pick = (
                rng.choice(others)
                if others and rng.random() < 0.5
                else rng.choice(passes or others)
            )
            words = offered["options"][pick]["words"]
            r = c.post(f"/matches/{match_id}/decisions", json={"decisions": [words]})
            assert r.status_code == 200, (words, r.text)
            kinds.add(offered["legal"][pick]["type"])
    finally:
        for c in clients.values():
            c.close()
    assert {"priority_passed", "supply_chosen", "cost_paid"} <= kinds, kinds
    assert len(kinds) >= 6, kinds
