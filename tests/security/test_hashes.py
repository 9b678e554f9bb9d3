"""No chain hash a seat reads confirms a guess of what it may not see.

A record's chain hash is SHA-256 of the previous hash and the record, so a hash is a test of a
guess: once a card of the other seat is played, its random instance id is public, and a seat
that read the hash before and after the other seat's draw could recompute the draw from a
guess and learn when the card was drawn. Nor is it enough to withhold the draw's own hash: the
hash of any later record the seat reads in full chains over the draw, and a receipt's
signature over a later head verifies a guessed head hash.

Attacked as a cheating player would, over real HTTP on both servers: the organiser plays a live
match (automatic decisions) until the other seat has played a card it drew, the seat makes its
own decision (its receipt, and a 409 for a stale one) and reads everything it may (events
pages, the stream, the summary and the list, awaited, integrity, lineage). The attack then
recomputes every draw of the other seat from the now-public ids, generously given every other
record as it truly is (all but the secret salts), chains it on from every hash the seat read
and checks it against every hash and signature the seat read: nothing matches, while the same
attack against the organiser's hashes confirms the draw. Organisers' answers, and the seat's
once the match is finished, carry the full chain.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from tests.security.conftest import new_live
from tests.security.seatview import awaited, strings
from vwlog.api.signing import verify
from vwlog.engine.replay import BaseVisitor, replay
from vwlog.events import EventRecord, LogHeader, MatchStarted
from vwlog.io import codec
from vwlog.services.hashes import HashGate, readable

if TYPE_CHECKING:
    import httpx

    from tests.api.server import Server
    from vwlog.engine.replay import Step

ME, OTHER = "p1", "p2"
DRAWS = ("opening_hand_drawn", "supply_taken", "cards_drawn")
"""Records that put cards from a Fate Deck into a hand."""
PLAYS = ("card_summoned", "property_placed")
"""Records that put a card of a hand into play."""
BATCH = 8
"""Automatic decisions per organiser's append while driving the match."""
MAX_BATCHES = 120
ATTEMPTS = 8
"""Live matches started at most, until one reaches a played drawn card before it ends."""


# -- the full record, as the organiser exports it -----------------------------------------------


def export(server: Server, match_id: str) -> tuple[LogHeader, list[EventRecord]]:
    with server.client("organiser") as c:
        r = c.get(f"/matches/{match_id}/export")
    assert r.status_code == 200, r.text
    lines = r.content.splitlines()
    header = LogHeader.model_validate_json(lines[0])
    return header, [codec.parse_record(line, strict=True) for line in lines[1:]]


def drawn_then_played(records: list[EventRecord]) -> dict[str, int]:
    """The other seat's cards drawn after its opening hand and later played: id → the seq of
    the record that drew it."""
    drawn: dict[str, int] = {}
    played: dict[str, int] = {}
    for r in records:
        e = r.event.model_dump(mode="json")
        if e["type"] in DRAWS[1:] and e.get("player") == OTHER:
            for card in e.get("cards") or ():
                drawn.setdefault(card, r.seq)
        if e["type"] in PLAYS and e.get("player") == OTHER and e.get("card") in drawn:
            played.setdefault(e["card"], r.seq)
    return {card: drawn[card] for card in played}


def play_until_a_drawn_card_is_played(server: Server, match_id: str) -> bool:
    """The organiser's automatic decisions, a few at a time, until the other seat has played a
    card it drew after its opening hand, and then until the seat's own decision is awaited;
    ``False`` if the match ended first (the shuffle is the service's, unpredictable: some
    matches end before)."""
    for _ in range(MAX_BATCHES):
        _, records = export(server, match_id)
        now = awaited(server, match_id)
        if drawn_then_played(records) and now["player"] == ME:
            return True
        if now["over"]:
            return False
        size = 1 if drawn_then_played(records) else BATCH
        with server.client("organiser") as c:
            r = c.post(f"/matches/{match_id}/decisions", json={"decisions": [], "auto": size})
        assert r.status_code == 200, r.text
    raise AssertionError("the other seat never played a card it drew")


def live_with_a_drawn_card_played(server: Server) -> tuple[str, dict[str, str]]:
    """A live match played until the other seat has played a card it drew, and the seat's
    decision is awaited; a new match is started where one ends before (at most `ATTEMPTS`)."""
    for _ in range(ATTEMPTS):
        match_id, seats = new_live(server)
        if play_until_a_drawn_card_is_played(server, match_id):
            return match_id, seats
    raise AssertionError(f"{ATTEMPTS} live matches ended before the other seat played a drawn card")


def own_decision(now: dict[str, Any]) -> str:
    """A legal decision of the seat that does not end the match."""
    words: str = next(o["words"] for o in now["options"] if "concede" not in o["words"])
    return words


# -- what the seat reads --------------------------------------------------------------------------


@dataclass
class Read:
    """Every hash, head hash and signature one token read."""

    hashes: dict[int, str | None] = field(default_factory=dict)
    """Record hashes by seq (events pages and the stream)."""
    heads: list[tuple[str, int, str | None]] = field(default_factory=list)
    """(where, seq, head hash) of every head hash read."""
    signed: list[tuple[int, str]] = field(default_factory=list)
    """(head seq, signature) of every receipt."""
    bodies: list[str] = field(default_factory=list)

    def shown(self) -> dict[int, str]:
        """Every hash read, by seq (record hashes and head hashes)."""
        out = {seq: h for seq, h in self.hashes.items() if h is not None}
        out.update({seq: h for _, seq, h in self.heads if h is not None})
        return out


def read_events(c: httpx.Client, match_id: str, into: Read) -> int:
    """Every events page; the head seq."""
    after = 0
    while True:
        r = c.get(f"/matches/{match_id}/events", params={"after": after, "limit": 37})
        assert r.status_code == 200, r.text
        into.bodies.append(r.text)
        page = r.json()
        for e in page["events"]:
            assert "hash" in e
            into.hashes[e["seq"]] = e["hash"]
        if not page["events"] or page["events"][-1]["seq"] >= page["head_seq"]:
            head: int = page["head_seq"]
            return head
        after = page["events"][-1]["seq"]


def read_stream(c: httpx.Client, match_id: str, head: int, into: Read) -> None:
    """The SSE stream from the start, left at the record ``head``."""
    seen: list[int] = []
    with c.stream("GET", f"/matches/{match_id}/stream", params={"after": 0, "seconds": 30}) as r:
        assert r.status_code == 200
        for line in r.iter_lines():
            into.bodies.append(line)
            if line.startswith("event: end"):
                break
            if line.startswith("data:"):
                data = json.loads(line[5:])
                if "seq" in data:
                    seen.append(data["seq"])
                    assert into.hashes.get(data["seq"], data["hash"]) == data["hash"]
                    into.hashes[data["seq"]] = data["hash"]
                    if data["seq"] >= head:
                        break
    assert seen == list(range(1, head + 1))


def read_all(c: httpx.Client, match_id: str, into: Read) -> int:
    """Everything ``c``'s token reads about the match that may carry a hash; the head seq."""
    head = read_events(c, match_id, into)
    read_stream(c, match_id, head, into)
    r = c.get(f"/matches/{match_id}")
    assert r.status_code == 200, r.text
    into.bodies.append(r.text)
    into.heads.append(("summary", r.json()["events"], r.json()["head_hash"]))
    r = c.get(f"/matches/{match_id}/awaited")
    assert r.status_code == 200, r.text
    into.bodies.append(r.text)
    into.heads.append(("awaited", r.json()["seq"], r.json()["head_hash"]))
    r = c.get(f"/matches/{match_id}/awaited", params={"at": head - 1})
    assert r.status_code == 200, r.text
    into.heads.append(("awaited at", head, r.json()["head_hash"]))  # always the head's
    r = c.get(f"/matches/{match_id}/integrity")
    if r.status_code == 200:
        into.bodies.append(r.text)
        into.heads.append(("integrity", r.json()["records"], r.json()["head_hash"]))
        broken = r.json()["broken"]
        assert broken is None or (broken["expected"], broken["found"]) == (None, None)
    r = c.get(f"/matches/{match_id}/lineage")
    assert r.status_code == 200, r.text
    into.bodies.append(r.text)
    into.heads.append(("lineage", r.json()["match"]["events"], r.json()["match"]["head_hash"]))
    r = c.get("/matches", params={"limit": 1000})
    assert r.status_code == 200, r.text
    into.bodies.append(r.text)
    listed = next(m for m in r.json()["matches"] if m["match_id"] == match_id)
    into.heads.append(("list", listed["events"], listed["head_hash"]))
    return head


# -- the attack ------------------------------------------------------------------------------------


def best_guesses(records: list[EventRecord]) -> list[bytes]:
    """The body of every record as a seat guesses it at best: every record exactly as it is
    (the other seat's draws and hand guessed right), but the secret salts of ``match_started``,
    which nothing the seat reads gives away."""
    out: list[bytes] = []
    for r in records:
        event = r.event
        if isinstance(event, MatchStarted):
            event = event.model_copy(
                update={"seats": tuple(s.model_copy(update={"salt": None}) for s in event.seats)}
            )
        out.append(codec.record_body(EventRecord(seq=r.seq, event=event)))
    return out


def confirmed(
    match_id: str,
    header: LogHeader,
    records: list[EventRecord],
    guesses: list[bytes],
    read: Read,
    key: str,
    draw: int,
) -> list[str]:
    """Every hash or signature ``read`` holds that confirms the guessed draw record ``draw``:
    from every hash the seat could start from (the header's, every hash it read before the
    draw), the guessed records are chained on past the draw up to the head; a match with a
    hash read there, or a signature that verifies over it, confirms the guess."""
    assert header.hash is not None
    anchors = {0: header.hash} | {s: h for s, h in read.shown().items() if s < draw}
    found: list[str] = []
    shown = read.shown()
    for start, h in sorted(anchors.items()):
        for seq in range(start + 1, len(records) + 1):
            h = codec.chain_hash(h, guesses[seq - 1])
            if seq < draw:
                continue
            if shown.get(seq) == h:
                found.append(f"hash of seq {seq} from seq {start}")
            for head_seq, signature in read.signed:
                payload = {"match_id": match_id, "head_seq": head_seq, "head_hash": h}
                if head_seq == seq and verify(key, payload, signature):
                    found.append(f"signature at seq {seq} from seq {start}")
    return found


def names_hidden(c: httpx.Client, match_id: str, record: EventRecord) -> list[str]:
    """The cards ``record`` names that the seat's own board (its token's view) showed
    neither before nor after it."""
    named = set(strings(record.event.model_dump(mode="json")))
    seen: set[str] = set()
    for seq in (record.seq - 1, record.seq):
        r = c.get(f"/matches/{match_id}/board", params={"seq": seq})
        assert r.status_code == 200, r.text
        seen |= set(strings(r.json()))
    return sorted(n for n in named - seen if n.startswith(f"{OTHER}-"))


# -- the tests -------------------------------------------------------------------------------------


def test_no_hash_a_seat_reads_confirms_when_the_other_seat_drew_a_card(server: Server) -> None:
    match_id, seats = live_with_a_drawn_card_played(server)
    token = seats[ME]
    seat = Read()
    with server.client(token) as c:
        key = c.get("/service/key").json()["public_key"]
        # the seat's own decision: its receipt
        now = c.get(f"/matches/{match_id}/awaited").json()
        assert now["player"] == ME
        r = c.post(
            f"/matches/{match_id}/decisions",
            json={"decisions": [own_decision(now)], "expected_seq": now["seq"]},
        )
        assert r.status_code == 200, r.text
        receipt = r.json()
        seat.bodies.append(r.text)
        seat.heads.append(("receipt", receipt["head_seq"], receipt["head_hash"]))
        seat.signed.append((receipt["head_seq"], receipt["signature"]))
        # a stale append: the 409 names the head
        r = c.post(
            f"/matches/{match_id}/decisions",
            json={"decisions": ["pass"], "expected_seq": now["seq"]},
        )
        assert r.status_code == 409, r.text
        seat.bodies.append(r.text)
        seat.heads.append(("conflict", r.json()["head_seq"], r.json()["head_hash"]))
        # the validation report is the full record's: refused to a seat in progress
        assert c.get(f"/matches/{match_id}/validation").status_code == 403
        head = read_all(c, match_id, seat)
        # the list without a token: no head hash of a match in progress either
        with server.client() as anyone:
            listed = anyone.get("/matches", params={"limit": 1000}).json()["matches"]
        seat.heads.extend(
            ("public list", m["events"], m["head_hash"])
            for m in listed
            if m["match_id"] == match_id
        )

        header, records = export(server, match_id)
        assert len(records) == head
        assert awaited(server, match_id)["over"] is False  # still in progress
        assert seat.hashes.keys() == set(range(1, head + 1))

        # the other seat's draws name cards the seat could not see when they were recorded,
        # and the seat is shown none of their hashes
        targets = drawn_then_played(records)
        assert targets
        draws = sorted(set(targets.values()))
        for seq in draws:
            assert names_hidden(c, match_id, records[seq - 1]), records[seq - 1]
            assert seat.hashes[seq] is None
        # the card is public now: the seat's own board shows it
        board = c.get(f"/matches/{match_id}/board").json()
        assert set(targets) & set(strings(board))

    # every hash the seat was shown, it could compute itself: no record up to it named a card
    # hidden from it (match_started names every deck, so in a live match there is none)
    assert records[0].event.type == "match_started"
    assert seat.shown() == {}, seat.shown()
    assert {where for where, _, h in seat.heads if h is None} >= {
        "receipt",
        "conflict",
        "summary",
        "awaited",
        "lineage",
        "list",
        "public list",
    }
    # the receipt is signed as anyone's: over the real head hash, checked against the record
    assert receipt["events"] == []
    real = {"match_id": match_id, "head_seq": receipt["head_seq"]}
    real["head_hash"] = records[receipt["head_seq"] - 1].hash
    assert verify(key, real, receipt["signature"])

    # the attack: every draw of the now-public cards, guessed right, chained on to every hash
    # and signature the seat read, from every hash it could start from
    guesses = best_guesses(records)
    for seq in draws:
        assert not confirmed(match_id, header, records, guesses, seat, key, seq)

    # the same attack on the organiser's answers confirms every draw: the attack is sound
    organiser = Read()
    with server.client("organiser") as c:
        read_events(c, match_id, organiser)
        r = c.get(f"/matches/{match_id}")
        organiser.heads.append(("summary", r.json()["events"], r.json()["head_hash"]))
    assert organiser.hashes == {r.seq: r.hash for r in records}
    for seq in draws:
        assert confirmed(match_id, header, records, guesses, organiser, key, seq)
    # and a seat that knew the salts (only the record's readers do) would confirm it through
    # the signature of its own receipt: the salts are all that protect it
    with_salts = [codec.record_body(EventRecord(seq=r.seq, event=r.event)) for r in records]
    told = Read(signed=seat.signed)
    assert confirmed(match_id, header, records, with_salts, told, key, draws[0])


def test_organiser_answers_keep_the_chain_and_a_finished_match_shows_it_to_the_seat(
    server: Server,
) -> None:
    match_id, seats = new_live(server)
    with server.client("organiser") as c:
        r = c.post(f"/matches/{match_id}/decisions", json={"decisions": [], "auto": 40})
        assert r.status_code == 200, r.text
        organiser_receipt = r.json()
        key = c.get("/service/key").json()["public_key"]
    _, records = export(server, match_id)
    stored = {r.seq: r.hash for r in records}
    assert organiser_receipt["head_hash"] == stored[organiser_receipt["head_seq"]]

    organiser = Read()
    with server.client("organiser") as c:
        head = read_all(c, match_id, organiser)
    assert head == len(records)
    assert organiser.hashes == stored
    for where, seq, h in organiser.heads:
        assert h == stored[head], (where, seq, h)

    # a seat's receipt while the match is in progress: no head hash, the same signature
    with server.client(seats[ME]) as c:
        now = c.get(f"/matches/{match_id}/awaited").json()
        if now["player"] != ME:
            with server.client("organiser") as o:
                while awaited(server, match_id)["player"] != ME:
                    assert (
                        o.post(
                            f"/matches/{match_id}/decisions", json={"decisions": [], "auto": 1}
                        ).status_code
                        == 200
                    )
            now = c.get(f"/matches/{match_id}/awaited").json()
        r = c.post(
            f"/matches/{match_id}/decisions",
            json={"decisions": [own_decision(now)], "expected_seq": now["seq"]},
        )
        assert r.status_code == 200, r.text
        early = r.json()
        assert early["head_hash"] is None
        # the seat concedes: the match is finished, and public
        r = c.post(f"/matches/{match_id}/decisions", json={"decisions": ["concede"]})
        assert r.status_code == 200, r.text
        last = r.json()
    assert last["winner"] == OTHER
    _, records = export(server, match_id)
    stored = {r.seq: r.hash for r in records}
    # the receipt of the append that finished the match carries its head hash
    assert last["head_hash"] == stored[last["head_seq"]]
    # the early receipt is checked against the exported (public) record
    payload = {
        "match_id": match_id,
        "head_seq": early["head_seq"],
        "head_hash": stored[early["head_seq"]],
    }
    assert verify(key, payload, early["signature"])

    # the seat's token now reads the full chain, as the public does
    seat = Read()
    with server.client(seats[ME]) as c:
        head = read_events(c, match_id, seat)
        summary = c.get(f"/matches/{match_id}").json()
        integrity = c.get(f"/matches/{match_id}/integrity").json()
    assert seat.hashes == stored
    assert summary["head_hash"] == integrity["head_hash"] == stored[head]
    public = Read()
    with server.client() as c:
        read_events(c, match_id, public)
    assert public.hashes == stored


class _Gated(BaseVisitor[list[tuple[int, str | None, bool]]]):
    """The gate's answer and `readable` for every record after ``begin``."""

    def __init__(self, gate: HashGate, begin: int) -> None:
        self.gate = gate
        self.begin = begin
        self.out: list[tuple[int, str | None, bool]] = []

    def visit(self, step: Step) -> None:
        if step.record.seq > self.begin:
            seat = self.gate.seat
            self.out.append((step.record.seq, self.gate.shown(step), readable(step, seat)))

    def result(self) -> list[tuple[int, str | None, bool]]:
        return self.out


def test_the_rule_shows_hashes_the_seat_could_compute_and_none_after_a_hidden_record(
    server: Server,
) -> None:
    """The rule itself, over the records of a live match played over HTTP: from a point where
    the seat knew the hash (as if it did), the hashes of the records it reads in full are
    shown, up to the first record naming a card hidden from it; from there on none (they
    chain over it). The first record withheld names a card the seat's board does not show."""
    match_id, seats = new_live(server)
    with server.client("organiser") as c:
        r = c.post(f"/matches/{match_id}/decisions", json={"decisions": [], "auto": 120})
        assert r.status_code == 200, r.text
    _, records = export(server, match_id)
    # the seat's gate from the end of the opening hands (seq 3) on, as if it knew that hash
    start = 3
    gated = replay(records, _Gated(HashGate(ME), start))
    shown = [seq for seq, h, _ in gated if h is not None]
    withheld = [seq for seq, h, _ in gated if h is None]
    assert shown
    assert withheld
    assert shown == list(range(start + 1, withheld[0]))  # a prefix, then nothing
    assert all(records[s - 1].hash == h for s, h, _ in gated if h is not None)
    first = records[withheld[0] - 1]
    assert not next(ok for seq, _, ok in gated if seq == first.seq)
    with server.client(seats[ME]) as c:
        assert names_hidden(c, match_id, first), first
    # a record the seat reads in full after it is still withheld: it chains over the hidden one
    assert any(ok for seq, _, ok in gated if seq > first.seq)
