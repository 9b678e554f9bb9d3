"""L5R match logs for the tests, built from a few lines each: a common table (the digest's
acceptance setup: attacker p1, defender p2, battlefield b1 at prov1 of strength 4, ...), the
legal scenarios, and `twin`, which makes the illegal twin of a legal log by one edit.

``python -m tests.l5r.logs samples/l5r`` writes the sample logs (`SAMPLES`).
"""

from __future__ import annotations

import copy
import json
import sys
from pathlib import Path
from typing import Any

from vwlog.engine.replay import Validator, replay
from vwlog.events.base import LogHeader
from vwlog.games.l5r import GAME
from vwlog.io.logfile import write_log
from vwlog.model.violation import Violation

Event = dict[str, Any]


def card(cid: str, owner: str, kind: str, force: int = 0, **more: Any) -> Event:
    return {"id": cid, "owner": owner, "kind": kind, "force": force, **more}


CARDS = [
    card("a1", "p1", "PERSONALITY", 4),
    card("a2", "p1", "FOLLOWER", 3),
    card("a3", "p1", "PERSONALITY", 5, bowed=True),
    card("a4", "p1", "PERSONALITY", 2),
    card("sw", "p1", "ATTACHMENT", attached_to="a1"),
    card("d1", "p2", "PERSONALITY", 2),
    card("d2", "p2", "PERSONALITY", 3),
    card("d3", "p2", "PERSONALITY", 2, bowed=True),
    card("d9", "p2", "FOLLOWER", 1),
    card("k1", "p2", "STRATEGY", actions=[{"name": "bow"}]),
    card("k2", "p2", "STRATEGY", actions=[{"name": "reinforce", "brings_unit": True}]),
    card("k3", "p2", "STRATEGY", actions=[{"name": "muster", "battle": False}]),
    card("r1", "p1", "STRATEGY", actions=[{"name": "strike"}]),
    card("r2", "p1", "STRATEGY", actions=[{"name": "charge", "brings_unit": True}]),
]
PROVINCES = [
    {"id": "prov1", "owner": "p2", "strength": 4, "battlefield": "b1", "cards": ["h1"],
     "regions": ["reg1"]},
    {"id": "prov2", "owner": "p2", "strength": 6, "battlefield": "b2"},
    {"id": "prov3", "owner": "p1", "strength": 5, "battlefield": "b3"},
]  # fmt: skip


def start(**flags: Any) -> Event:
    e: Event = {"type": "match_started", "players": ["p1", "p2"], "cards": CARDS,
                "provinces": PROVINCES}  # fmt: skip
    if flags:
        e["ruleset"] = flags
    return e


def phase(turn: int = 1, attacker: str = "p1", defender: str = "p2") -> Event:
    return {"type": "attack_phase_started", "turn": turn, "attacker": attacker,
            "defender": defender}  # fmt: skip


def armies(*assigned: tuple[str, str, str]) -> Event:
    return {"type": "armies_declared", "assignments": [
        {"unit": u, "side": s, "battlefield": b} for u, s, b in assigned]}  # fmt: skip


def chosen(bf: str, player: str = "p1", cause: str | None = None) -> Event:
    e: Event = {"type": "battlefield_chosen", "player": player, "battlefield": bf}
    if cause:
        e["cause"] = cause
    return e


def started(n: int, bf: str, att: str = "p1", dfn: str = "p2", cause: str | None = None) -> Event:
    e: Event = {"type": "battle_started", "battle": n, "battlefield": bf, "attacker": att,
                "defender": dfn}  # fmt: skip
    if cause:
        e["cause"] = cause
    return e


def pas(player: str) -> Event:
    return {"type": "opportunity_passed", "player": player}


def act(player: str, c: str, ability: str, source: str | None = None,
        targets: tuple[str, ...] = (), brings: tuple[str, ...] = ()) -> Event:  # fmt: skip
    e: Event = {"type": "battle_action_taken", "player": player, "card": c, "ability": ability}
    if source:
        e["source_unit"] = source
    if targets:
        e["targets"] = list(targets)
    if brings:
        e["brings"] = list(brings)
    return e


def resolved(c: str, ability: str, *fx: tuple[Any, ...]) -> Event:
    return {"type": "battle_action_resolved", "card": c, "ability": ability,
            "effects": [dict(zip(("kind", "unit", "delta"), f, strict=False))
                        for f in fx]}  # fmt: skip


def res(n: int, a: int, d: int) -> Event:
    return {"type": "resolution_started", "battle": n, "attacker_force": a, "defender_force": d}


def destroyed(n: int, side: str, *cards: str) -> Event:
    return {"type": "army_destroyed", "battle": n, "side": side, "cards": list(cards)}


def fell(p: str, discarded: tuple[str, ...] = (), regions: tuple[str, ...] = ()) -> Event:
    return {"type": "province_destroyed", "province": p, "discarded": list(discarded),
            "regions": list(regions)}  # fmt: skip


def honor(player: str, amount: int, n: int) -> Event:
    return {"type": "honor_gained", "player": player, "amount": amount, "cards_destroyed": n}


def noout(n: int) -> Event:
    return {"type": "battle_without_outcome", "battle": n}


def rend(n: int) -> Event:
    return {"type": "resolution_ended", "battle": n}


def home(*units: str) -> Event:
    return {"type": "attackers_sent_home", "units": list(units)}


def bend(n: int) -> Event:
    return {"type": "battle_ended", "battle": n}


def dhome(*units: str) -> Event:
    return {"type": "defenders_sent_home", "units": list(units)}


def pend(turn: int = 1) -> Event:
    return {"type": "attack_phase_ended", "turn": turn}


A, D = "ATTACKER", "DEFENDER"

PROVINCE = [
    start(), phase(), armies(("a1", A, "b1"), ("a2", A, "b1"), ("a3", A, "b1"), ("d1", D, "b1")),
    chosen("b1"), started(1, "b1"), pas("p2"), pas("p1"), res(1, 7, 2), destroyed(1, D, "d1"),
    fell("prov1", ("h1",), ("reg1",)), honor("p1", 2, 1), rend(1), home("a1", "a2", "a3"),
    bend(1), pend(),
]  # fmt: skip
"""The digest's S3: 7 against 2 at a Province of strength 4: the Province falls."""

TWO = [
    start(), phase(), armies(("a1", A, "b1"), ("a2", A, "b2"), ("d1", D, "b1"), ("d2", D, "b2")),
    chosen("b1"), started(1, "b1"),
    act("p2", "k1", "bow", source="d1", targets=("a1",)),
    resolved("k1", "bow", ("unit_bowed", "a1")),
    pas("p1"), pas("p2"),
    res(1, 0, 2), destroyed(1, A, "a1", "sw"), honor("p2", 4, 2), rend(1), bend(1),
    chosen("b2"), started(2, "b2"), pas("p2"),
    act("p1", "r1", "strike", targets=("d2",)),
    resolved("r1", "strike", ("force_changed", "d2", -1)),
    pas("p2"), pas("p1"),
    res(2, 3, 2), destroyed(2, D, "d2"), honor("p1", 2, 1), rend(2), home("a2"), bend(2),
    dhome("d1"), pend(),
]  # fmt: skip
"""Two battlefields: the defender bows the attacker and wins the first (the attachment sw is
destroyed with a1: 2 cards, 4 honor); the attacker wins the second, the Province holds."""

TIE = [
    start(), phase(), armies(("a2", A, "b2"), ("d2", D, "b2")),
    chosen("b2"), started(1, "b2"), pas("p2"), pas("p1"),
    res(1, 3, 3), destroyed(1, D, "d2"), destroyed(1, A, "a2"), honor("p2", 1, 1),
    honor("p1", 1, 1), rend(1), bend(1), pend(),
]  # fmt: skip
"""A tie, 3 to 3: both armies destroyed (in either order), one honor per card."""

BRING = [
    start(), phase(), armies(("a1", A, "b2")),
    chosen("b2"), started(1, "b2"),
    act("p2", "k2", "reinforce", brings=("d9",)),
    resolved("k2", "reinforce", ("unit_entered_battle", "d9")),
    pas("p1"), pas("p2"),
    res(1, 4, 1), destroyed(1, D, "d9"), honor("p1", 2, 1), rend(1), home("a1"), bend(1), pend(),
]  # fmt: skip
"""The defender has no unit in the battle and brings one in (the exemption of L5R-CMB-7)."""

NONE = [
    start(), phase(), armies(("a3", A, "b1")),
    chosen("b1"), started(1, "b1"), pas("p2"), pas("p1"),
    res(1, 0, 0), noout(1), rend(1), home("a3"), bend(1), pend(),
]  # fmt: skip
"""Only a bowed attacker and no defender: 0 to 0, a side without units: no outcome."""

ZERO = [
    start(), phase(), armies(("a3", A, "b1"), ("d3", D, "b1")),
    chosen("b1"), started(1, "b1"), pas("p2"), pas("p1"),
    res(1, 0, 0), destroyed(1, A, "a3"), destroyed(1, D, "d3"), honor("p1", 1, 1),
    honor("p2", 1, 1), rend(1), bend(1), pend(),
]  # fmt: skip
"""Both sides have units, all bowed: 0 to 0 is a tie by default (L5R-OQ-9)."""

EFFECT = [
    start(), chosen("b1", "p1", cause="r1"), started(1, "b1", cause="r1"), pas("p2"), pas("p1"),
    res(1, 0, 0), noout(1), rend(1), bend(1),
]  # fmt: skip
"""A battle an effect creates outside the Attack phase (nobody is there: no outcome)."""

OWED = [
    start(), phase(), armies(("a1", A, "b1"), ("a2", A, "b1"), ("a3", A, "b1"), ("a4", A, "b2"),
                             ("d1", D, "b1")),
    chosen("b1"), started(1, "b1"), pas("p2"), pas("p1"), res(1, 7, 2), destroyed(1, D, "d1"),
    fell("prov1", ("h1",), ("reg1",)), honor("p1", 2, 1), rend(1), home("a1", "a2", "a3"),
    bend(1),
    chosen("b2"), started(2, "b2"), pas("p2"), pas("p1"), res(2, 2, 0), rend(2), home("a4"),
    bend(2), pend(),
]  # fmt: skip
"""The attacker assigned units to b1 and b2: both battles are owed (L5R-OQ-11)."""

ROUNDS = [
    start(), phase(), armies(("a4", A, "b2"), ("d2", D, "b2")),
    chosen("b2"), started(1, "b2"), pas("p2"), pas("p1"),
    res(1, 2, 3), destroyed(1, A, "a4"), honor("p2", 2, 1), rend(1), bend(1), dhome("d2"), pend(),
    phase(2, "p2", "p1"), armies(("d2", A, "b3"), ("a2", D, "b3")),
    chosen("b3", "p2"), started(2, "b3", "p2", "p1"), pas("p1"), pas("p2"),
    res(2, 3, 3), destroyed(2, A, "d2"), destroyed(2, D, "a2"), honor("p2", 1, 1),
    honor("p1", 1, 1), rend(2), bend(2), pend(2),
]  # fmt: skip
"""d2 defends in turn 1 and attacks in turn 2: counted twice in one round (L5R-OQ-2)."""

AGAIN = [
    start(), phase(), armies(("a2", A, "b1"), ("a3", A, "b1"), ("a4", A, "b2"), ("d1", D, "b1"),
                             ("d2", D, "b2")),
    chosen("b1"), started(1, "b1"), pas("p2"), pas("p1"),
    res(1, 3, 2), destroyed(1, D, "d1"), honor("p1", 2, 1), rend(1), home("a2", "a3"), bend(1),
    chosen("b2"), started(2, "b2"), pas("p2"),
    act("p1", "r2", "charge", brings=("a3",)),
    resolved("r2", "charge", ("unit_entered_battle", "a3")),
    pas("p2"), pas("p1"),
    res(2, 2, 3), destroyed(2, A, "a3", "a4"), honor("p2", 4, 2), rend(2), bend(2), dhome("d2"),
    pend(),
]  # fmt: skip
"""a3, bowed in the first battle's army, is brought into the second (L5R-OQ-3)."""

LEGAL = {
    "legal_province_falls": PROVINCE,
    "legal_two_battlefields": TWO,
    "legal_tie": TIE,
    "legal_bring_in": BRING,
    "legal_no_outcome": NONE,
    "legal_zero_tie": ZERO,
    "legal_effect_battle": EFFECT,
    "legal_every_battlefield": OWED,
}


def twin(base: list[Event], *edits: tuple[Any, ...]) -> list[Event]:
    """``base`` with edits: ``(seq, event)`` replaces, ``(seq, None)`` drops,
    ``(seq, event, "before")`` inserts before the event now at ``seq``."""
    events = copy.deepcopy(base)
    for edit in sorted(edits, key=lambda x: -x[0]):
        seq, new = edit[0], edit[1]
        if len(edit) == 3:
            events.insert(seq - 1, new)
        elif new is None:
            del events[seq - 1]
        else:
            events[seq - 1] = new
    return events


def with_flags(events: list[Event], **flags: Any) -> list[Event]:
    """``events`` judged under a ruleset with ``flags``."""
    return [start(**flags), *copy.deepcopy(events[1:])]


ILLEGAL: dict[str, list[Event]] = {
    "illegal_attacker_first": twin(PROVINCE, (6, pas("p1")), (7, pas("p2"))),
    "illegal_alternation": twin(PROVINCE, (7, pas("p2"))),
    "illegal_wrong_force": twin(PROVINCE, (8, res(1, 9, 2))),
    "illegal_province_fall_omitted": twin(PROVINCE, (10, None)),
    "illegal_province_falsely_destroyed": twin(TWO, (24, fell("prov2"), "before")),
    "illegal_honor_once": twin(PROVINCE, (11, honor("p1", 1, 1))),
    "illegal_location": twin(TWO, (6, act("p2", "k1", "bow", source="d9", targets=("a1",)))),
    "illegal_not_battle_action": twin(
        TWO, (6, act("p2", "k3", "muster")), (7, resolved("k3", "muster", ("unit_bowed", "a1")))
    ),
    "illegal_wrong_side_destroyed": twin(TWO, (23, destroyed(2, A, "a2"))),
    "illegal_phase_ends_early": twin(OWED, *((s, None) for s in range(15, 23))),
    "illegal_tie_no_destruction": twin(TIE, (9, None), (10, None)),
    "illegal_resolution_early": twin(TWO, (9, None)),
}


def records(events: list[Event]) -> list[Any]:
    """The records of ``events``, as the reader would make them."""
    return [GAME.record.validate_python({"seq": i, "event": e}) for i, e in enumerate(events, 1)]


def judged(events: list[Event]) -> list[Violation]:
    """The violations the replay finds in ``events``."""
    header = LogHeader(game="l5r", match_id="test")
    report = replay(records(events), Validator(), header=header)
    return list(report.violations)


def cited(events: list[Event]) -> list[tuple[str, int | None]]:
    """The rules ``events`` break, each with the seq of its event."""
    return [(str(v.rule), v.seq) for v in judged(events)]


def write(folder: Path, name: str, events: list[Event]) -> None:
    """Write ``events`` as the log ``folder/name.jsonl``, in canonical lines (reading it and
    writing it back gives the same bytes)."""
    write_log(folder / f"{name}.jsonl", LogHeader(game="l5r", match_id=name), records(events))


SAMPLES = {**LEGAL, **ILLEGAL}
"""The sample logs of samples/l5r, by name."""

if __name__ == "__main__":
    out = Path(sys.argv[1])
    verdicts = {}
    for name, events in SAMPLES.items():
        write(out, name, events)
        verdicts[f"{name}.jsonl"] = [list(c) for c in cited(events)]
    (out / "expected.json").write_text(json.dumps(verdicts, indent=1) + "\n")
