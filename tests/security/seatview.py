"""The oracle of the hidden-information tests: what one seat may not know, computed from the
organiser's full record and the seat's own view, and a check that a response body names none
of it; and a way to drive a live match to a point where a seat holds priority.

Nothing here knows how instance ids are spelt: ids are read from the record's
``match_started`` (every card of every seat), names from its card definitions.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from collections.abc import Callable, Iterator

    from tests.api.server import Server


def record(server: Server, match_id: str) -> list[dict[str, Any]]:
    """The match's full record (the organiser's export): its records, without the header."""
    with server.client("organiser") as c:
        r = c.get(f"/matches/{match_id}/export")
    assert r.status_code == 200, r.text
    return [json.loads(line) for line in r.text.splitlines()[1:] if line.strip()]


def head(server: Server, match_id: str) -> int:
    """The seq the match ends at, as the organiser reads it."""
    with server.client("organiser") as c:
        r = c.get(f"/matches/{match_id}/awaited")
    assert r.status_code == 200, r.text
    seq: int = r.json()["seq"]
    return seq


def strings(value: Any) -> Iterator[str]:
    """Every string in a JSON value (keys too)."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for k, v in value.items():
            yield k
            yield from strings(v)
    elif isinstance(value, list):
        for v in value:
            yield from strings(v)


@dataclass(frozen=True)
class Secrets:
    """What one seat may not know at one moment."""

    seat: str
    ids: frozenset[str]
    """Instance ids of cards the seat's view does not show."""
    words: frozenset[str]
    """Names and card ids of those cards that no card in the view shares, and the salts of
    deck commitments not opened yet."""
    owners: dict[str, str]
    """Every instance id of the match → its seat."""

    def found_in(self, body: str) -> list[str]:
        """The secrets a response body names."""
        if not self.ids and not self.words:
            return []
        alternatives = "|".join(
            re.escape(w) for w in sorted(self.ids | self.words, key=len, reverse=True)
        )
        return sorted(set(re.findall(rf"(?<![\w-])(?:{alternatives})(?![\w-])", body)))

    def check(self, body: str, what: str) -> None:
        """Fail if ``body`` names anything the seat may not know."""
        found = self.found_in(body)
        assert not found, f"{what} names what seat {self.seat} may not know: {found}: {body[:600]}"


def secrets_of(server: Server, match_id: str, token: str, seat: str) -> Secrets:
    """What ``seat`` (reading with ``token``) may not know now: every card of the full record
    that its own board view (``/board``) does not show."""
    records = record(server, match_id)
    started = records[0]["event"]
    assert started["type"] == "match_started"
    names = {c["id"]: c["name"] for c in started["cards"]}
    owners: dict[str, str] = {}
    definition: dict[str, str] = {}
    salts: set[str] = set()
    for s in started["seats"]:
        for inst in [*s["deck"], *s.get("subdeck", [])]:
            owners[inst["id"]] = s["player"]
            definition[inst["id"]] = inst["card"]
        if s.get("salt"):
            salts.add(s["salt"])
    with server.client(token) as c:
        r = c.get(f"/matches/{match_id}/board")
    assert r.status_code == 200, r.text
    shown = set(strings(r.json()))
    visible = {i for i in owners if i in shown}
    lacking = set(owners) - visible
    seen_words = {w for i in visible for w in (definition[i], names.get(definition[i], ""))}
    words = {
        w for i in lacking for w in (definition[i], names.get(definition[i], "")) if w
    } - seen_words
    return Secrets(seat, frozenset(lacking), frozenset(words | salts), owners)


def awaited(server: Server, match_id: str) -> dict[str, Any]:
    """What the match waits for (the organiser's full answer)."""
    with server.client("organiser") as c:
        r = c.get(f"/matches/{match_id}/awaited", params={"limit": 0})
    assert r.status_code == 200, r.text
    found: dict[str, Any] = r.json()
    return found


def board(server: Server, match_id: str) -> dict[str, Any]:
    """The full board (the organiser's)."""
    with server.client("organiser") as c:
        r = c.get(f"/matches/{match_id}/board")
    assert r.status_code == 200, r.text
    found: dict[str, Any] = r.json()
    return found


def reach(
    server: Server,
    match_id: str,
    until: Callable[[dict[str, Any], dict[str, Any]], bool],
    *,
    limit: int = 400,
) -> tuple[dict[str, Any], dict[str, Any]] | None:
    """Let the organiser append automatic decisions one at a time until ``until(awaited,
    board)`` holds; the awaited decision and the board then, or ``None`` if the match ended
    first."""
    for _ in range(limit):
        now, shown = awaited(server, match_id), board(server, match_id)
        if until(now, shown):
            return now, shown
        if now["over"]:
            return None
        with server.client("organiser") as c:
            r = c.post(f"/matches/{match_id}/decisions", json={"decisions": [], "auto": 1})
        assert r.status_code == 200, r.text
    raise AssertionError("the match never reached the point the test needs")


def drive(
    server: Server,
    match_id: str,
    until: Callable[[dict[str, Any], dict[str, Any]], bool],
    *,
    limit: int = 400,
) -> tuple[dict[str, Any], dict[str, Any]]:
    """`reach` a point the match cannot end before (the test fails if it does)."""
    reached = reach(server, match_id, until, limit=limit)
    assert reached is not None, "the match ended before the point the test needs"
    return reached


def in_main_phase(seat: str) -> Callable[[dict[str, Any], dict[str, Any]], bool]:
    """``seat`` holds priority in its own Main Phase with an empty register."""

    def holds(now: dict[str, Any], shown: dict[str, Any]) -> bool:
        return (
            now["player"] == seat
            and now["kind"] == "priority"
            and shown["active"] == seat
            and str(shown["phase"]).startswith("MAIN")
            and not shown["register"]
        )

    return holds


def priority_of(seat: str) -> Callable[[dict[str, Any], dict[str, Any]], bool]:
    """``seat`` holds priority (any phase)."""

    def holds(now: dict[str, Any], shown: dict[str, Any]) -> bool:
        return bool(now["player"] == seat and now["kind"] == "priority")

    return holds


def cards_of(shown: dict[str, Any], seat: str) -> list[str]:
    """Instance ids of ``seat``'s cards in play (Territories and their guards) on a board."""
    player = next(p for p in shown["players"] if p["id"] == seat)
    out: list[str] = []
    for t in player["territories"]:
        out.append(t["id"])
        out.extend(g["id"] for g in t["guards"])
    return out
