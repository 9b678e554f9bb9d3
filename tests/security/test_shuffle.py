"""Unpredictable, provable shuffles, attacked as a cheating player would over real HTTP.

A live match started without a seed is shuffled by a CSPRNG, its instance ids are random, and
each seat's order is committed with a salt that sits inside ``match_started`` (so the chain
hash of seq 1 cannot be recomputed from a guess of the record; a player's own ``/events`` does
not show it either, see test_hashes.py) and opened when the match ends. A seeded start is
reproducible and says so.
"""

from __future__ import annotations

import json
import random
import re
import subprocess
import sys
from typing import TYPE_CHECKING, Any

import pytest

from tests.security.conftest import new_live
from vwlog.events import DeckRevealed, EventRecord, LogHeader, MatchSealed, MatchStarted
from vwlog.games.vw.simulate import build_start, simulate
from vwlog.io import codec
from vwlog.io.logfile import write_log
from vwlog.io.pools import load_deck, load_pool
from vwlog.model.cards import DEFAULT_RULESET
from vwlog.services.trust import close_records, packaged_pool
from vwlog.store.tokens import Role

if TYPE_CHECKING:
    from pathlib import Path

    from tests.api.server import Server

DECKS = ("order-aggro", "mystic-reigner")
OLD_ID = re.compile(r"^p\d+-\d{3}$")
"""The instance ids of a seeded shuffle, numbered in deck order."""
SECRET_ID = re.compile(r"^p\d+-[0-9a-f]{12}$")
"""The instance ids of a secret shuffle: random."""
HEX64 = re.compile(r"^[0-9a-f]{64}$")
ANY_SECRET_ID = re.compile(r"\bp\d+-[0-9a-f]{12}\b")


# -- reading what a seat can read ----------------------------------------------------------


def export(
    server: Server, match_id: str, token: str = "organiser"
) -> tuple[LogHeader, list[EventRecord]]:
    """The full record of a match, as ``token`` exports it."""
    with server.client(token) as c:
        r = c.get(f"/matches/{match_id}/export")
    assert r.status_code == 200, r.text
    lines = r.content.splitlines()
    header = LogHeader.model_validate_json(lines[0])
    return header, [codec.parse_record(line, strict=True) for line in lines[1:]]


def started(records: list[EventRecord]) -> MatchStarted:
    start = records[0].event
    assert isinstance(start, MatchStarted)
    return start


def awaited_player(server: Server, match_id: str) -> str:
    with server.client("organiser") as c:
        r = c.get(f"/matches/{match_id}/awaited")
    assert r.status_code == 200, r.text
    player: str = r.json()["player"]
    return player


def stream_bodies(server: Server, token: str, match_id: str, head: int) -> list[str]:
    """The SSE stream a seat follows, read up to the record ``head`` (then left)."""
    bodies: list[str] = []
    with (
        server.client(token) as c,
        c.stream("GET", f"/matches/{match_id}/stream", params={"after": 0}) as r,
    ):
        assert r.status_code == 200
        for line in r.iter_lines():
            bodies.append(line)
            if line.startswith("data:") and json.loads(line[5:]).get("seq") == head:
                break
            if line.startswith("event: end"):
                break
    return bodies


def seat_bodies(server: Server, token: str, match_id: str) -> tuple[list[str], dict[int, str]]:
    """Every body a seat's token reads about its match (refusals included), and the chain
    hashes it was shown, by seq."""
    bodies: list[str] = []
    hashes: dict[int, str] = {}
    with server.client(token) as c:
        for path in (
            "",
            "/board",
            "/board?seq=1",
            "/awaited",
            "/timeline",
            "/integrity",
            "/validation",
            "/rulings",
            "/stats",
            "/export",
            "/lineage",
        ):
            bodies.append(c.get(f"/matches/{match_id}{path}").text)
        after = 0
        while True:
            r = c.get(f"/matches/{match_id}/events", params={"after": after, "limit": 1000})
            assert r.status_code == 200, r.text
            bodies.append(r.text)
            page = r.json()
            for e in page["events"]:
                assert e["event"] is None  # a seat is never shown the recorded events
                hashes[e["seq"]] = e["hash"]
            if not page["events"] or page["events"][-1]["seq"] >= page["head_seq"]:
                head = page["head_seq"]
                break
            after = page["events"][-1]["seq"]
    bodies.extend(stream_bodies(server, token, match_id, head))
    return bodies, hashes


def ids_in(value: Any) -> set[str]:
    """Every ``id`` a JSON document names."""
    found: set[str] = set()
    if isinstance(value, dict):
        for key, item in value.items():
            if key == "id" and isinstance(item, str):
                found.add(item)
            found |= ids_in(item)
    elif isinstance(value, list):
        for item in value:
            found |= ids_in(item)
    return found


def hidden_from(server: Server, match_id: str, start: MatchStarted, seat: str) -> set[str]:
    """The instance ids ``seat`` may not know now: the other seats' cards in a hand or a Fate
    Deck, and its own undrawn cards (from the full board, read by the organiser)."""
    with server.client("organiser") as c:
        board = c.get(f"/matches/{match_id}/board").json()
    public = set()
    for player in board["players"]:
        shown = {**player, "hand": None} if player["id"] != seat else player
        public |= ids_in(shown)
    public |= ids_in(board["register"])
    every = {c.id for s in start.seats for c in (*s.deck, *s.subdeck)}
    return every - public


# -- the tests ----------------------------------------------------------------------------


def test_two_live_matches_without_a_seed_differ_and_their_ids_carry_no_order(
    server: Server,
) -> None:
    starts = [started(export(server, new_live(server, DECKS)[0])[1]) for _ in range(2)]
    for start in starts:
        assert start.shuffle == "secret"
        assert start.seed is None
        every = [c.id for s in start.seats for c in s.deck]
        assert len(set(every)) == len(every)  # unique in the match
        for seat in start.seats:
            ids = [c.id for c in seat.deck]
            assert all(SECRET_ID.match(i) and i.startswith(f"{seat.player}-") for i in ids), ids
            assert not any(OLD_ID.match(i) for i in ids)
            # sorting the ids does not give back the deck order (1 chance in 40!)
            assert sorted(ids) != ids
            assert seat.salt is not None
            assert HEX64.match(seat.salt)
            assert seat.deck_commitment == codec.deck_commitment(seat.salt, ids)
    a, b = starts
    assert {c.id for s in a.seats for c in s.deck}.isdisjoint(c.id for s in b.seats for c in s.deck)
    orders = [tuple(tuple(c.card for c in s.deck) for s in start.seats) for start in starts]
    assert orders[0] != orders[1]
    assert [s.salt for s in a.seats] != [s.salt for s in b.seats]


def test_random_ids_are_typed_in_the_notation_like_any_other(server: Server) -> None:
    """The seats play their own decisions in words; a decision that names a card by its random
    id (a summon, a payment, an attack) is parsed, accepted and said back with that id."""
    match_id, seats = new_live(server, DECKS)
    named: list[str] = []
    for _ in range(200):
        seat = awaited_player(server, match_id)
        with server.client(seats[seat]) as c:
            now = c.get(f"/matches/{match_id}/awaited").json()
            words = [o["words"] for o in now["options"]]
            carded = [w for w in words if ANY_SECRET_ID.search(w)]
            chosen = carded[0] if carded else words[0]
            r = c.post(
                f"/matches/{match_id}/decisions",
                json={"decisions": [chosen], "expected_seq": now["seq"]},
            )
            assert r.status_code == 200, (chosen, r.text)
            if carded:
                named.extend(ANY_SECRET_ID.findall(chosen))
                events = c.get(f"/matches/{match_id}/events", params={"after": now["seq"]}).json()[
                    "events"
                ]
                said = " ".join(e["description"] for e in events)
                assert any(i in said for i in ANY_SECRET_ID.findall(chosen)), said
                break
    assert named, "no decision named a card in 200 decisions"
    start = started(export(server, match_id)[1])
    assert set(named) <= {c.id for s in start.seats for c in s.deck}


def test_a_seat_cannot_confirm_a_correct_guess_of_the_other_order(server: Server) -> None:
    match_id, seats = new_live(server, DECKS)
    me = awaited_player(server, match_id)  # the seat whose decision the match waits for
    token = seats[me]
    # the seat makes its own decision, as it may: its receipt is a body it reads
    with server.client(token) as c:
        awaited = c.get(f"/matches/{match_id}/awaited").json()
        words = awaited["options"][0]["words"]
        r = c.post(
            f"/matches/{match_id}/decisions",
            json={"decisions": [words], "expected_seq": awaited["seq"]},
        )
    assert r.status_code == 200, r.text
    bodies, shown = seat_bodies(server, token, match_id)
    bodies.append(r.text)
    header, records = export(server, match_id)
    start = started(records)
    other = next(s for s in start.seats if s.player != me)

    # the commitments are public from the start: the seat's own board at seq 1 names them
    with server.client(token) as c:
        board = c.get(f"/matches/{match_id}/board", params={"seq": 1}).json()
    assert {p["id"]: p["deck_commitment"] for p in board["players"]} == {
        s.player: s.deck_commitment for s in start.seats
    }

    # no salt, and no card the seat may not know (the other seat's order), in anything read
    secrets_ = [s.salt for s in start.seats]
    hidden = hidden_from(server, match_id, start, me)
    assert {c.id for c in other.deck} & hidden  # the other seat has cards to hide
    for body in bodies:
        for salt in secrets_:
            assert salt is not None
            assert salt not in body
        leaked = [i for i in hidden if i in body]
        assert not leaked, (leaked[:3], body[:300])

    # the seat is shown no chain hash while the match is in progress (tests/security/
    # test_hashes.py): nothing it reads tests a guess. Had it seq 1's hash (the organiser's):
    assert set(shown.values()) == {None}
    assert header.hash is not None
    seq1 = records[0].hash

    # the attack that worked before: recompute seq 1's hash from a guess of match_started.
    # The guess is the TRUE record (the other order guessed right, even its random instance
    # ids, the commitments copied from what the seat can read, the header's hash given), without
    # the salts only the record's readers know: no match.
    guess = start.model_copy(
        update={"seats": tuple(s.model_copy(update={"salt": None}) for s in start.seats)}
    )
    guessed = codec.record_body(EventRecord(seq=1, event=guess))
    assert codec.chain_hash(header.hash, guessed) != seq1
    # only the salts are missing: with them the same guess gives the hash the seat saw
    true_body = codec.record_body(EventRecord(seq=1, event=start))
    assert codec.chain_hash(header.hash, true_body) == seq1
    # nor does the public commitment confirm the guessed order without the salt
    assert codec.deck_commitment("", [c.id for c in other.deck]) != other.deck_commitment
    assert other.salt is not None
    assert codec.deck_commitment(other.salt, [c.id for c in other.deck]) == other.deck_commitment


def test_the_same_attack_confirms_a_seeded_start(server: Server) -> None:
    """A seeded start (tests only) is what the attack above breaks: the seed is found from a
    small range and the guessed start gives seq 1's hash, so the record must say it."""
    match_id = f"seeded-{random.randrange(1 << 30):x}"
    with server.client("organiser") as c:
        r = c.post("/live", json={"match_id": match_id, "decks": list(DECKS), "seed": 11})
    assert r.status_code == 201, r.text
    server.token(f"{match_id}:p1", Role.PLAYER, match_id=match_id, seat="p1")
    _, shown = seat_bodies(server, f"{match_id}:p1", match_id)
    assert set(shown.values()) == {None}  # nor is the seat shown its hash: the organiser's
    header, records = export(server, match_id)
    assert header.hash is not None
    pool = load_pool()
    lists = [load_deck(name, pool=pool).expand() for name in DECKS]
    found = [
        seed
        for seed in range(32)
        if codec.chain_hash(
            header.hash,
            codec.record_body(
                EventRecord(
                    seq=1,
                    event=build_start(
                        pool, lists, random.Random(seed), ruleset=DEFAULT_RULESET, seed=seed
                    ),
                )
            ),
        )
        == records[0].hash
    ]
    assert found == [11]


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "vwlog", *args],
        capture_output=True,
        text=True,
        check=False,
        timeout=300,
    )


@pytest.mark.parametrize("ending", ["concession", "auto"])
def test_the_commitments_are_opened_at_the_end_and_checked(
    server: Server, tmp_path: Path, ending: str
) -> None:
    match_id, seats = new_live(server, DECKS)
    with server.client(seats["p1"]) as c:
        at_start = c.get(f"/matches/{match_id}/board", params={"seq": 1}).json()
    committed = {p["id"]: p["deck_commitment"] for p in at_start["players"]}
    assert all(HEX64.match(v) for v in committed.values())
    if ending == "concession":
        with server.client("organiser") as c:
            r = c.post(f"/matches/{match_id}/decisions", json={"decisions": ["p2: concede"]})
    else:  # played to the end by the organiser's automatic decisions
        with server.client("organiser", timeout=600) as c:
            while True:
                r = c.post(f"/matches/{match_id}/decisions", json={"auto": 1000})
                assert r.status_code == 200, r.text
                if r.json()["winner"] is not None:
                    break
    assert r.status_code == 200, r.text
    assert r.json()["winner"] in ("p1", "p2")

    header, records = export(server, match_id)
    start = started(records)
    *_, reveal1, reveal2, seal = records
    assert isinstance(seal.event, MatchSealed)
    reveals = {
        e.player: e.salt for e in (reveal1.event, reveal2.event) if isinstance(e, DeckRevealed)
    }
    assert reveals == {s.player: s.salt for s in start.seats}
    # what the seat saw committed at the start is what the record opens
    for seat in start.seats:
        assert committed[seat.player] == seat.deck_commitment
        assert (
            codec.deck_commitment(reveals[seat.player], [c.id for c in seat.deck])
            == (committed[seat.player])
        )
    # the match is over and public: the seat itself can now export and check the record
    assert export(server, match_id, seats["p1"])[1] == records

    log = tmp_path / "match.jsonl"
    write_log(log, header, records)
    done = _run("verify", str(log))
    assert done.returncode == 0, done.stdout + done.stderr
    assert "deck commitment of p1: verified" in done.stdout
    assert "deck commitment of p2: verified" in done.stdout
    done = _run("verify", "--format", "json", str(log))
    assert done.returncode == 0, done.stdout + done.stderr
    verified = json.loads(done.stdout)
    verified = verified[0] if isinstance(verified, list) else verified
    assert {c["player"]: c["status"] for c in verified["commitments"]} == {
        "p1": "verified",
        "p2": "verified",
    }
    done = _run("validate", str(log))
    assert done.returncode == 0, done.stdout + done.stderr
    assert "R-ZONE-2" not in done.stdout

    # a forged opening, re-hashed and sealed again: validate flags it with R-ZONE-2
    forged = [
        r.model_copy(update={"event": DeckRevealed(player="p2", salt="0" * 64)})
        if isinstance(r.event, DeckRevealed) and r.event.player == "p2"
        else r
        for r in records
    ]
    bad = tmp_path / "forged-opening.jsonl"
    write_log(bad, *close_records(header, forged, packaged_pool()))
    done = _run("validate", str(bad))
    assert done.returncode == 1, done.stdout + done.stderr
    assert "R-ZONE-2" in done.stdout
    assert "deck commitment of p2: mismatch" in _run("verify", str(bad)).stdout

    # a deck order changed after committing (two cards swapped), re-hashed: flagged at seq 1
    p2 = start.seats[1]
    swapped = p2.model_copy(update={"deck": (p2.deck[1], p2.deck[0], *p2.deck[2:])})
    changed = [
        records[0].model_copy(
            update={"event": start.model_copy(update={"seats": (start.seats[0], swapped)})}
        ),
        *records[1:],
    ]
    bad = tmp_path / "forged-deck.jsonl"
    write_log(bad, *close_records(header, changed, packaged_pool()))
    done = _run("validate", "--format", "json", str(bad))
    assert done.returncode == 1, done.stdout + done.stderr
    assert "R-ZONE-2" in done.stdout


def test_a_seeded_record_says_it_was_seeded(server: Server) -> None:
    # vwlog simulate: the header names the seed; the bytes are what they always were
    pool = load_pool()
    one, two = (simulate(pool, seed=5, max_turns=2) for _ in range(2))
    assert one.header.generator is not None
    assert "--seed 5" in one.header.generator
    assert one.records == two.records
    first = one.records[0].event
    assert isinstance(first, MatchStarted)
    assert all(OLD_ID.match(c.id) for s in first.seats for c in s.deck)
    assert all(s.salt is None and s.deck_commitment is None for s in first.seats)

    # a live match started from a seed: match_started says so, and so does every seat's view
    starts = []
    for n in range(2):
        match_id = f"seeded-{n}-{random.randrange(1 << 30):x}"
        with server.client("organiser") as c:
            r = c.post("/live", json={"match_id": match_id, "decks": list(DECKS), "seed": 5})
        assert r.status_code == 201, r.text
        start = started(export(server, match_id)[1])
        assert start.shuffle == "seeded"
        assert start.seed == 5
        assert all(s.salt is None for s in start.seats)
        starts.append(start)
        server.token(f"{match_id}:p2", Role.PLAYER, match_id=match_id, seat="p2")
        with server.client(f"{match_id}:p2") as c:
            page = c.get(f"/matches/{match_id}/events", params={"limit": 1}).json()
        assert "seed 5" in page["events"][0]["description"]
        assert "not secret" in page["events"][0]["description"]
    assert starts[0] == starts[1]  # reproducible
    # and a secret start says that it is one
    match_id, seats = new_live(server, DECKS)
    with server.client(seats["p2"]) as c:
        page = c.get(f"/matches/{match_id}/events", params={"limit": 1}).json()
    assert "shuffled in secret" in page["events"][0]["description"]
    assert "seed" not in page["events"][0]["description"]


# -- the shuffle itself, without a server ------------------------------------------------------


def test_the_secret_shuffle_never_uses_a_seeded_generator(monkeypatch: pytest.MonkeyPatch) -> None:
    """`build_start` without a generator draws from the operating system's CSPRNG only: no
    `random.Random` is made, no Mersenne Twister method runs."""
    import os

    def refuse(*args: object, **kwargs: object) -> Any:
        raise AssertionError("a seeded generator was used")

    draws = []
    urandom = os.urandom  # what SystemRandom draws from (random binds it as _urandom)

    def counted(n: int) -> bytes:
        draws.append(n)
        return urandom(n)

    for name in ("seed", "random", "getrandbits", "getstate", "setstate"):
        monkeypatch.setattr(random.Random, name, refuse)
    monkeypatch.setattr(random, "Random", refuse)
    monkeypatch.setattr(random, "_urandom", counted)
    pool = load_pool()
    lists = [load_deck(name, pool=pool).expand() for name in DECKS]
    one = build_start(pool, lists, None)
    assert draws  # every draw came from the operating system
    two = build_start(pool, lists, None)
    assert one.shuffle == two.shuffle == "secret"
    assert [c.card for c in one.seats[0].deck] != [c.card for c in two.seats[0].deck]
    for seat in (*one.seats, *two.seats):
        assert seat.salt is not None
        assert seat.opens(seat.salt)
        assert not seat.opens("")
