"""Nothing a seat may not know reaches it, through any answer.

Attacked as a cheating player would, over real HTTP on both servers: at its own priority, a
player's token probes every card of the match its view does not show (the other seat's hand,
deck and subdeck, and its own deck: the full record, read by the organiser, is the oracle)
with every verb of the notation and every decision event that names a card. Every response body
is searched automatically for any id, name or card id the seat's own view lacks, and the answer
for a hidden id must be byte for byte the answer for an id that does not exist. The player's
read endpoints (events, board, awaited, timeline, the stream) and the receipt of its own append
are searched the same way.
"""

from __future__ import annotations

import json
import secrets
from typing import TYPE_CHECKING, Any

import pytest

from tests.api.server import SAMPLES
from tests.security.conftest import live_until
from tests.security.seatview import (
    Secrets,
    cards_of,
    drive,
    head,
    in_main_phase,
    secrets_of,
)
from vwlog.engine.seek import state_at
from vwlog.games.seats import SeatError, UnseenError
from vwlog.games.vw.notation import DecisionSyntaxError
from vwlog.games.vw.seats import authorize, seat_view
from vwlog.io.logfile import read_log

if TYPE_CHECKING:
    from collections.abc import Callable

    import httpx

    from tests.api.server import Server
    from vwlog.model.state import MatchState


def _json(**fields: Any) -> str:
    return json.dumps(fields, separators=(",", ":"))


def probes(seat: str, seen: str) -> dict[str, Callable[[str], str]]:
    """Every decision that names a card, as words and as events, naming ``x`` (the probed id)
    where it names a card, and ``seen`` (a card the seat sees) elsewhere."""
    return {
        "summon": lambda x: f"summon {x}",
        "summon into": lambda x: f"summon {seen} {x}",
        "pay": lambda x: f"pay {x}",
        "pay skill": lambda x: f"pay {x} s1",
        "skill": lambda x: f"skill {x} s1",
        "skill target": lambda x: f"skill {seen} s1 {x}",
        "place": lambda x: f"place {x} {seen}",
        "place onto": lambda x: f"place {seen} {x}",
        "attackers": lambda x: f"attackers {x}",
        "declare": lambda x: f"declare {x}:{seen}",
        "declare target": lambda x: f"declare {seen}:{x}",
        "blockers": lambda x: f"blockers {x}",
        "blocks": lambda x: f"blocks {x}:{seen}",
        "blocks attacker": lambda x: f"blocks {seen}:{x}",
        "damage": lambda x: f"damage {x}:{seen}:1",
        "damage recipient": lambda x: f"damage {seen}:{x}:1",
        "discard": lambda x: f"discard {x}",
        "own prefix": lambda x: f"{seat}: summon {x}",
        "card_summoned": lambda x: _json(
            type="card_summoned", player=seat, card=x, object_id="o999"
        ),
        "cost_paid": lambda x: _json(type="cost_paid", player=seat, card=x, gold=0),
        "skill_registered": lambda x: _json(
            type="skill_registered",
            player=seat,
            card=seen,
            skill="s1",
            object_id="o999",
            target=x,
        ),
        "property_placed": lambda x: _json(
            type="property_placed", player=seat, card=x, territory=seen, reason="DEPLOY_PHASE"
        ),
        "attack_declared": lambda x: _json(
            type="attack_declared", player=seat, attacks=[{"follower": seen, "target": x}]
        ),
        "blocks_assigned": lambda x: _json(
            type="blocks_assigned", player=seat, blocks=[{"blocker": seen, "attacker": x}]
        ),
        "follower_damage_assigned": lambda x: _json(
            type="follower_damage_assigned",
            player=seat,
            allocations=[{"source": seen, "recipient": x, "amount": 1}],
        ),
        "hand_limit_discarded": lambda x: _json(
            type="hand_limit_discarded", player=seat, cards=[x]
        ),
        "attackers_entered_battle": lambda x: _json(
            type="attackers_entered_battle", player=seat, followers=[x]
        ),
        "blockers_entered_battle": lambda x: _json(
            type="blockers_entered_battle", player=seat, followers=[x]
        ),
    }


def _made_up(known: set[str]) -> str:
    while True:
        word = f"zz{secrets.token_hex(5)}"
        if word not in known:
            return word


def _send(c: httpx.Client, match_id: str, decision: str) -> httpx.Response:
    return c.post(f"/matches/{match_id}/decisions", json={"decisions": [decision]})


@pytest.mark.parametrize("holder", ["p1", "p2"], ids=["own-priority", "their-priority"])
def test_probing_every_hidden_card_with_every_decision_tells_nothing(
    server: Server, holder: str
) -> None:
    """p1 probes, in its own Main Phase at its priority, or while p2 holds priority in p2's."""
    main = in_main_phase(holder)
    match_id, seats, _, _ = live_until(server, lambda a, b: main(a, b) and bool(cards_of(b, "p2")))
    token = seats["p1"]
    secret = secrets_of(server, match_id, token, "p1")
    theirs = {i for i, seat in secret.owners.items() if seat == "p2"}
    assert theirs - secret.ids, "some of the other seat's cards are in play"
    assert theirs & secret.ids, "some of the other seat's cards are hidden"
    hidden = sorted(secret.ids)
    seen = sorted(set(secret.owners) - secret.ids)[0]
    before = head(server, match_id)
    with server.client(token) as c:
        for name, probe in probes("p1", seen).items():
            made_up = _send(c, match_id, probe(_made_up(set(secret.owners))))
            assert made_up.status_code in (400, 403, 422), (name, made_up.text)
            secret.check(made_up.text, f"{name} with a made-up id")
            for x in hidden:
                r = _send(c, match_id, probe(x))
                secret.check(r.text, f"{name} {x}")
                assert (r.status_code, r.text) == (made_up.status_code, made_up.text), (
                    f"{name}: a hidden id is answered unlike an id that does not exist"
                )
    assert head(server, match_id) == before, "a probe was stored"


def _read_everything(server: Server, match_id: str, token: str, secret: Secrets, what: str) -> None:
    """Every read endpoint a player's token has, searched for secrets."""
    with server.client(token) as c:
        after = 0
        while True:
            r = c.get(f"/matches/{match_id}/events", params={"after": after, "limit": 50})
            assert r.status_code == 200, r.text
            secret.check(r.text, f"{what}: /events after {after}")
            page = r.json()["events"]
            if not page:
                break
            after = page[-1]["seq"]
        for path in ("board", "awaited", "timeline", ""):
            r = c.get(f"/matches/{match_id}/{path}".rstrip("/"))
            assert r.status_code == 200, (path, r.text)
            secret.check(r.text, f"{what}: /{path}")
        # the stream ends by itself (the match goes on): every record, then ``end``
        with c.stream(
            "GET", f"/matches/{match_id}/stream", params={"seconds": 0.5}, timeout=60
        ) as s:
            assert s.status_code == 200
            body = "".join(s.iter_text())
        assert "event: end" in body
        assert body.count("event: record") == after
        secret.check(body, f"{what}: /stream")


def test_a_players_reads_and_receipts_tell_nothing(server: Server) -> None:
    main = in_main_phase("p1")
    match_id, seats, _, _ = live_until(server, lambda a, b: main(a, b) and bool(cards_of(b, "p2")))
    for seat in ("p1", "p2"):
        _read_everything(
            server, match_id, seats[seat], secrets_of(server, match_id, seats[seat], seat), seat
        )
    # p1's own decisions: their receipts, and the refusals the rules give
    token = seats["p1"]
    secret = secrets_of(server, match_id, token, "p1")
    with server.client(token) as c:
        legal = c.get(f"/matches/{match_id}/awaited").json()["options"]
        secret.check(json.dumps(legal), "p1's options")
        words = [o["words"] for o in legal]
        assert "pass" in words
        for w in words:
            if w != "pass":
                # a legal decision of p1's own, refused only when the head moved
                r = _send(c, match_id, w)
                assert r.status_code == 200, r.text
                secret.check(r.text, f"the receipt of {w!r}")
                break
    drive(server, match_id, in_main_phase("p1"))
    secret = secrets_of(server, match_id, token, "p1")
    with server.client(token) as c:
        r = _send(c, match_id, "pass")
        assert r.status_code == 200, r.text
        secret.check(r.text, "the receipt of a pass")
    for seat in ("p1", "p2"):
        _read_everything(
            server, match_id, seats[seat], secrets_of(server, match_id, seats[seat], seat), seat
        )


def test_the_rules_refusals_name_no_hidden_card(server: Server) -> None:
    """Decisions that name only cards the seat sees, refused by the rules (422 with rule ids):
    the violations name nothing the seat may not know."""
    main = in_main_phase("p1")
    match_id, seats, _, board = live_until(
        server, lambda a, b: main(a, b) and bool(cards_of(b, "p2"))
    )
    token = seats["p1"]
    secret = secrets_of(server, match_id, token, "p1")
    mine = sorted(i for i, s in secret.owners.items() if s == "p1" and i not in secret.ids)
    theirs = cards_of(board, "p2")
    refused = 0
    with server.client(token) as c:
        for card in mine:
            for probe in (
                f"summon {card} {theirs[0]}",
                f"place {card} {theirs[0]}",
                f"attackers {card}",
                f"declare {card}:{theirs[-1]}",
                f"discard {card}",
            ):
                r = _send(c, match_id, probe)
                secret.check(r.text, probe)
                if r.status_code == 422 and r.json().get("rules"):
                    refused += 1
                assert r.status_code != 200 or probe.startswith("summon"), r.text
                if r.status_code == 200:
                    return
    assert refused, "the rules refused some of these decisions"


# -- the seat's view itself, without a server --------------------------------------------------


def _sample_state() -> tuple[MatchState, int]:
    """A sample match at its middle, where the other seat holds cards in hand."""
    _, records = read_log(SAMPLES / "full-combat.jsonl")
    for r in records[len(records) // 2 :]:
        state = state_at(records, r.seq)
        if state.player("p2").hand and state.player("p1").hand:
            return state, r.seq
    raise AssertionError("the sample never has cards in both hands")


def test_the_seat_view_hides_the_other_hand_and_every_deck() -> None:
    state, _ = _sample_state()
    view = seat_view(state, "p1")
    p1, p2 = state.player("p1"), state.player("p2")
    assert set(p1.hand) <= view.visible
    assert not set(p2.hand) & view.visible
    assert set(p2.hand) | set(p2.deck) | set(p1.deck) <= view.hidden
    assert set(state.permanents) <= view.visible
    hidden = p2.hand[0]
    name = state.defn(hidden).name
    told = view.mask(f"R-ZONE-1 {hidden} {name} is not in their hand", "a hidden card")
    assert told == "R-ZONE-1 a hidden card is not in their hand"
    # what the player wrote comes back as written, as a made-up id would
    assert view.mask(f"not {hidden}", "a hidden card", sent=[hidden]) == f"not {hidden}"
    mine = p1.hand[0]
    assert view.mask(f"{mine} is fine", "a hidden card") == f"{mine} is fine"


def test_a_hidden_id_is_refused_as_an_id_that_does_not_exist() -> None:
    state, _ = _sample_state()
    hidden = state.player("p2").hand[0]
    for words in (f"summon {hidden}", "summon no-such-card"):
        with pytest.raises(UnseenError):
            authorize(state, "p1", [words])
    for decision in (
        f'{{"type":"hand_limit_discarded","player":"p1","cards":["{hidden}"]}}',
        '{"type":"hand_limit_discarded","player":"p1","cards":["no-such-card"]}',
    ):
        with pytest.raises(UnseenError):
            authorize(state, "p1", [decision])
    for other in ("p2: concede", '{"type":"conceded","player":"p2"}', f"p2: summon {hidden}"):
        with pytest.raises(SeatError):
            authorize(state, "p1", [other])


def test_a_json_decision_that_is_no_json_value_is_refused_in_one_sentence() -> None:
    # not a number of JSON, a lone surrogate, text after the object, nesting past the limit:
    # each a refusal of the decision, never an error of the service
    state, _ = _sample_state()
    deep = '{"type":"conceded","player":"p1","x":' + "[" * 2000 + "]" * 2000 + "}"
    for text in (
        '{"type":"conceded","player":"p1","x":NaN}',
        '{"type":"conceded","player":"p1","x":Infinity}',
        '{"type":"conceded","player":"\ud800"}',
        '{"type":"conceded","player":"\\ud800"}',
        '{"type":"conceded","player":"p1"} and more',
        deep,
    ):
        with pytest.raises(
            DecisionSyntaxError, match="a decision in JSON must be one event object"
        ):
            authorize(state, "p1", [text])
