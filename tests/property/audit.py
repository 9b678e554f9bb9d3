"""The mutation audit: is every single edit that changes a record's legality caught at the
edited event?

Three families of single edits of generated legal matches (every format, choices drawn):

* **events** (`mutations.KINDS` and ``effect``): one event dropped, duplicated, swapped,
  moved, a number or a player changed, or one effect of a result changed (dropped,
  duplicated, reordered, its number or a card or player it names changed, or an effect of
  another result added). Play mode (`mutations.oracle_first_illegal`) says whether the edited
  log is legal and, if not, which event it first refuses; the validator must report its
  first violation at that event's seq. Judged in memory, from the state before the edit.
* **card definitions**: one field of one card the log embeds in ``match_started`` (a number,
  a keyword, a faction, a skill's effect, …), the chain sealed again. Under the published
  pool every such edit is illegal (R-TRUST-1), at seq 1. Judged as ``vwlog validate`` judges
  the file.
* **header**: one field of the header line edited as is (the chain no longer holds: it must
  break at line 1), or edited and the whole chain sealed again (legal, unless the edit makes
  the file unreadable: then the reader must name line 1). Judged as a file.

A mutation is *caught at the edited event* when the first violation (or the broken link, or
the reader's error) is at the event play mode first refuses; *caught late* when something is
reported, but later; *missed* when nothing is. Legal edits must be reported clean (a false
alarm otherwise).
"""

from __future__ import annotations

import io
import json
import random
import tempfile
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from mutations import KINDS, Mutation, Original, mutate, oracle_first_illegal, validator_verdict

from vwlog.engine.replay import ViolationPolicy
from vwlog.events import (
    FORMAT_VERSION,
    AnyEvent,
    EventRecord,
    LogHeader,
    MatchStarted,
    ObjectResulted,
)
from vwlog.events.upcast import OLDEST_VERSION
from vwlog.games.vw.simulate import GeneratedMatch, PolicyName, simulate
from vwlog.io.logfile import write_log
from vwlog.io.pools import load_pool
from vwlog.model.cards import CardDef, CardPool
from vwlog.model.errors import LogFormatError
from vwlog.rules.published import card_fields
from vwlog.services.trust import close_records, published_for
from vwlog.services.validate import ValidationOptions, validate_log

EVENT_KINDS = (*KINDS, "effect")
FILE_KINDS = ("card", "header", "header resealed")
ALL_KINDS = (*EVENT_KINDS, *FILE_KINDS)

SEATINGS = ((2, None), (4, 2), (6, 2), (3, None), (4, None))
"""Duel, Tag Team, 3 on 3, Battle Royal of three and of four."""

CARD_FIELDS = ("card", "recipient", "source")
PLAYER_FIELDS = ("player",)
STRICT = ValidationOptions(policy=ViolationPolicy.STOP_AT_FIRST)
OLDER_VERSIONS = tuple(range(OLDEST_VERSION, FORMAT_VERSION))
"""Format versions the reader reads by upcasting them to the current one."""


@dataclass(frozen=True)
class Source:
    """A generated legal match: its events (with the states) and its header."""

    log: Original
    header: LogHeader
    pool: CardPool


def sources(count: int, *, seed: int = 37, turns: int = 8) -> list[Source]:
    """``count`` generated matches of ``turns`` turns, every seating in turn, random and greedy
    policies alternating, every choice drawn from the seed."""
    pool = load_pool()
    out: list[Source] = []
    for i in range(count):
        players, teams = SEATINGS[i % len(SEATINGS)]
        policy: PolicyName = "random" if (i // len(SEATINGS)) % 2 == 0 else "greedy"
        match: GeneratedMatch = simulate(
            pool,
            seed=seed,
            index=i,
            players=players,
            teams=teams,
            policy=policy,
            max_turns=turns,
        )
        events = tuple(r.event for r in match.records)
        name = f"{match.header.match_id} {players}p/{teams or '-'} {policy}"
        out.append(Source(Original.of(name, events), match.header, pool))
    return out


# -- effect edits ------------------------------------------------------------------------------


def mutate_effect(log: Original, rng: random.Random) -> Mutation | None:
    """One edit of one result's effects, or ``None`` when the draw found nothing to edit."""
    results = [i for i, e in enumerate(log.events) if isinstance(e, ObjectResulted)]
    with_effects = [i for i in results if log.events[i].effects]  # type: ignore[union-attr]
    if not results:
        return None
    op = rng.choice(("drop", "duplicate", "swap", "number", "name", "add"))
    i = rng.choice(results if op == "add" else with_effects or results)
    old = log.events[i]
    assert isinstance(old, ObjectResulted)
    effects: list[Any] = list(old.effects)
    if op != "add" and not effects:
        return None
    k = rng.randrange(len(effects)) if effects else 0
    if op == "drop":
        del effects[k]
    elif op == "duplicate":
        effects.insert(k, effects[k])
    elif op == "swap":
        if len(effects) < 2 or k + 1 >= len(effects) or effects[k] == effects[k + 1]:
            return None
        effects[k], effects[k + 1] = effects[k + 1], effects[k]
    elif op == "add":
        donor = [e for j in results if j != i for e in log.events[j].effects]
        if not donor:
            return None
        effects.insert(rng.randint(0, len(effects)), rng.choice(donor))
    else:
        edited = _edited_effect(log, i, effects[k], op, rng)
        if edited is None:
            return None
        effects[k] = edited
    try:
        new = ObjectResulted(object_id=old.object_id, effects=tuple(effects))
    except ValueError:
        return None
    if new == old:
        return None
    return Mutation(
        "effect", f"#{i} object_resulted {op} effect {k}", i, (new, *log.events[i + 1 :]), i + 1, 0
    )


def _edited_effect(log: Original, i: int, effect: Any, op: str, rng: random.Random) -> Any:
    data = effect.model_dump(mode="json", by_alias=True)
    if op == "number":
        keys = [k for k, v in data.items() if isinstance(v, int) and not isinstance(v, bool)]
        if not keys:
            return None
        key = rng.choice(keys)
        data[key] += rng.choice((-3, -2, -1, 1, 2, 3, 10))
    else:
        keys = [k for k, v in data.items() if k in (*CARD_FIELDS, *PLAYER_FIELDS) and v]
        if not keys:
            return None
        key = rng.choice(keys)
        state = log.states[i]
        pool = [p.id for p in state.players] if key in PLAYER_FIELDS else sorted(state.permanents)
        others = [x for x in pool if x != data[key]]
        if not others:
            return None
        data[key] = rng.choice(others)
    try:
        return type(effect).model_validate(data)
    except ValueError:
        return None


# -- card definition and header edits ----------------------------------------------------------


def _observed(pool: CardPool) -> dict[str, list[Any]]:
    """Every value each card field (by its last name) takes in the pool."""
    seen: dict[str, list[Any]] = {}
    for card in pool.cards:
        for path, value in card_fields(card).items():
            key = path.split(".")[-1] if not path.split(".")[-1].isdigit() else path.split(".")[-2]
            values = seen.setdefault(key, [])
            if value not in values and value != []:
                values.append(value)
    return seen


def mutate_card(src: Source, rng: random.Random) -> tuple[MatchStarted, str] | None:
    """``match_started`` with one field of one embedded card changed, or ``None``."""
    start = src.log.events[0]
    assert isinstance(start, MatchStarted)
    cards = list(start.cards)
    n = rng.randrange(len(cards))
    data = cards[n].model_dump(mode="json", by_alias=True)
    leaves = card_fields(cards[n])
    path = rng.choice(sorted(leaves))
    value = leaves[path]
    keys = [int(p) if p.isdigit() else p for p in path.split(".")]
    name = next(str(k) for k in reversed(keys) if not isinstance(k, int))
    choices = [v for v in _observed(src.pool).get(name, []) if v != value]
    if isinstance(value, bool):
        new: Any = not value
    elif isinstance(value, int):
        new = value + rng.choice((-3, -2, -1, 1, 2, 3, 10))
    elif isinstance(value, list) and choices:
        new = [rng.choice(choices)]
    elif choices and (value is None or isinstance(value, str)):
        new = rng.choice(choices)
    elif isinstance(value, str):
        new = value + "x"
    else:
        return None
    node: Any = data
    for key in keys[:-1]:
        node = node[key]
    node[keys[-1]] = new
    try:
        card = CardDef.model_validate(data)
    except ValueError:
        return None
    if card.model_dump(mode="json", by_alias=True) == cards[n].model_dump(
        mode="json", by_alias=True
    ):
        return None
    cards[n] = card
    return start.model_copy(update={"cards": tuple(cards)}), f"card {card.id} {path}"


def sealed_bytes(src: Source, header: LogHeader, events: tuple[AnyEvent, ...]) -> bytes:
    """The log as ``vwlog simulate -o`` writes it: the chain and the seal made over these."""
    records = [EventRecord(seq=k + 1, event=e) for k, e in enumerate(events)]
    head, sealed = close_records(header, records, published_for(src.pool))
    out = io.BytesIO()
    write_log(out, head, sealed)
    return out.getvalue()


def edit_header(data: bytes, rng: random.Random) -> tuple[bytes, str, str]:
    """The file with one header field changed (the rest as it was), the field and its new
    value (as JSON)."""
    first, _, rest = data.partition(b"\n")
    header = json.loads(first)
    key = rng.choice(sorted(header))
    value = header[key]
    if isinstance(value, bool) or not isinstance(value, (int, str)):
        new: Any = "x"
    elif isinstance(value, int):
        new = value + rng.choice((-1, 1, 2))
    elif value and rng.random() < 0.5:
        new = value[:-1] + ("0" if value[-1] != "0" else "1")
    else:
        new = value + "x"
    header[key] = new
    line = json.dumps(header, separators=(",", ":"), sort_keys=True, ensure_ascii=False)
    return line.encode() + b"\n" + rest, key, json.dumps(new)


def judge_file(data: bytes) -> tuple[str, int | None, str]:
    """How ``vwlog validate`` judges the file: ``ok``, ``violation`` (its seq), ``broken``
    (the line the chain breaks at) or ``unreadable`` (the line the reader names); and what."""
    with tempfile.TemporaryDirectory(prefix="vwlog-audit-") as work:
        path = Path(work) / "edited.jsonl"
        path.write_bytes(data)
        try:
            report = validate_log(path, STRICT)
        except LogFormatError as err:
            return "unreadable", err.line, err.detail
    if report.violations:
        first = min(report.violations, key=lambda v: v.seq or 0)
        return "violation", first.seq, first.rule
    if report.integrity is not None and report.integrity.problems:
        chain = report.integrity.chain
        line = int(chain.split("line ")[1].split(":")[0]) if "broken at line " in chain else None
        return "broken", line, report.integrity.problems[0]
    if report.judgement is not None and str(report.judgement.verdict) != "OK":
        return "verdict", None, str(report.judgement.verdict)
    return "ok", None, ""


# -- the tally ---------------------------------------------------------------------------------


@dataclass
class Audit:
    """Counts per kind of edit."""

    total: Counter[str] = field(default_factory=Counter)
    illegal: Counter[str] = field(default_factory=Counter)
    at_event: Counter[str] = field(default_factory=Counter)
    late: Counter[str] = field(default_factory=Counter)
    missed: Counter[str] = field(default_factory=Counter)
    legal: Counter[str] = field(default_factory=Counter)
    false_alarms: Counter[str] = field(default_factory=Counter)
    crashes: Counter[str] = field(default_factory=Counter)
    rules: Counter[str] = field(default_factory=Counter)
    examples: dict[str, list[str]] = field(default_factory=dict)

    def note(self, what: str, text: str) -> None:
        found = self.examples.setdefault(what, [])
        if len(found) < 8:
            found.append(text)

    def illegal_edit(self, kind: str, where: int | None, seen: int | None, what: str) -> None:
        """An edit play mode (or the published definitions) refuses first at ``where``; the
        judge reported first at ``seen`` (``None``: nothing)."""
        self.total[kind] += 1
        self.illegal[kind] += 1
        if seen is None:
            self.missed[kind] += 1
            self.note(f"missed {kind}", what)
        elif seen == where:
            self.at_event[kind] += 1
        else:
            self.late[kind] += 1
            self.note(f"caught elsewhere {kind}", f"{what}: illegal at {where}, reported at {seen}")

    def legal_edit(self, kind: str, flagged: str | None, what: str) -> None:
        self.total[kind] += 1
        self.legal[kind] += 1
        if flagged:
            self.false_alarms[kind] += 1
            self.note(f"false alarm {kind}", f"{what}: {flagged}")

    def rate(self, kinds: tuple[str, ...] = ALL_KINDS) -> float:
        illegal = sum(self.illegal[k] for k in kinds)
        return sum(self.at_event[k] for k in kinds) / illegal if illegal else 1.0

    def as_json(self) -> dict[str, Any]:
        per_kind = {
            k: {
                "edits": self.total[k],
                "illegal": self.illegal[k],
                "caught_at_event": self.at_event[k],
                "caught_elsewhere": self.late[k],
                "missed": self.missed[k],
                "legal": self.legal[k],
                "false_alarms": self.false_alarms[k],
                "crashes": self.crashes[k],
            }
            for k in ALL_KINDS
        }
        illegal = sum(self.illegal.values())
        return {
            "edits": sum(self.total.values()),
            "illegal": illegal,
            "caught_at_event": sum(self.at_event.values()),
            "caught_elsewhere": sum(self.late.values()),
            "missed": sum(self.missed.values()),
            "catch_rate_at_event": round(self.rate(), 6),
            "legal": sum(self.legal.values()),
            "false_alarms": sum(self.false_alarms.values()),
            "crashes": sum(self.crashes.values()),
            "per_kind": per_kind,
            "first_rules": dict(self.rules.most_common(20)),
            "examples": self.examples,
        }


def audit_event(audit: Audit, src: Source, kind: str, rng: random.Random) -> bool:
    """One event edit of ``kind`` judged; ``False`` when the draw found nothing to edit."""
    log = src.log
    m = mutate_effect(log, rng) if kind == "effect" else mutate(log, kind, rng)
    if m is None:
        return False
    what = f"{log.name}: {m.description}"
    try:
        found = validator_verdict(log, m)
    except Exception as exc:  # a crash is a finding, counted and shown
        audit.total[kind] += 1
        audit.crashes[kind] += 1
        audit.note(f"crash {kind}", f"{what}: {type(exc).__name__}: {exc}")
        return True
    first = oracle_first_illegal(log, m)
    if first is None:
        audit.legal_edit(kind, found[0].rule if found else None, what)
        return True
    seen = min((v.seq for v in found if v.seq is not None), default=None)
    if found:
        audit.rules[min(found, key=lambda v: v.seq or 0).rule] += 1
    audit.illegal_edit(kind, first + 1, seen, what)
    return True


def audit_card(audit: Audit, src: Source, rng: random.Random) -> bool:
    """One card-definition edit judged as a file (illegal at seq 1, R-TRUST-1)."""
    edit = mutate_card(src, rng)
    if edit is None:
        return False
    start, what = edit
    data = sealed_bytes(src, src.header, (start, *src.log.events[1:]))
    verdict, at, rule = judge_file(data)
    if verdict == "violation":
        audit.rules[rule] += 1
    audit.illegal_edit("card", 1, at if verdict != "ok" else None, f"{src.log.name}: {what}")
    return True


def audit_header(audit: Audit, src: Source, rng: random.Random, *, reseal: bool) -> bool:
    """One header edit judged as a file: as is (the chain breaks at line 1), or sealed again
    (legal unless the file cannot be read; then the reader names line 1)."""
    data = sealed_bytes(src, src.header, src.log.events)
    edited, key, value = edit_header(data, rng)
    what = f"{src.log.name}: header {key} = {value}"
    kind = "header resealed" if reseal else "header"
    if key == "version" and json.loads(value) in OLDER_VERSIONS:
        # an older version the reader upcasts: read back, it is the same header and records
        # (the header's hash is over the upcast header), so the record has not changed
        verdict, at, found = judge_file(edited)
        audit.legal_edit(kind, None if verdict == "ok" else found, what)
        return True
    if reseal:
        header = json.loads(edited.partition(b"\n")[0])
        header.pop("hash", None)
        if key == "hash":
            return False
        try:
            if key in ("format", "version"):  # another format or version: nothing writes it
                raise ValueError(key)
            head = LogHeader.model_validate(header)
        except ValueError:
            # no writer can write it; the reader must refuse it at line 1
            verdict, at, _ = judge_file(edited)
            audit.illegal_edit("header resealed", 1, at if verdict != "ok" else None, what)
            return True
        verdict, at, found = judge_file(sealed_bytes(src, head, src.log.events))
        audit.legal_edit("header resealed", None if verdict == "ok" else found, what)
        return True
    verdict, at, _ = judge_file(edited)
    audit.illegal_edit("header", 1, at if verdict != "ok" else None, what)
    return True


def run_audit(srcs: list[Source], per_kind: dict[str, int], *, seed: int = 2026) -> Audit:
    """``per_kind[k]`` edits of each kind over the sources, in turn, drawn from ``seed``."""
    rng = random.Random(seed)
    audit = Audit()
    for kind, count in per_kind.items():
        made = tries = 0
        while made < count and tries < 50 * count:
            tries += 1
            src = srcs[(made + tries) % len(srcs)]
            if kind in EVENT_KINDS:
                done = audit_event(audit, src, kind, rng)
            elif kind == "card":
                done = audit_card(audit, src, rng)
            else:
                done = audit_header(audit, src, rng, reseal=kind == "header resealed")
            made += done
    return audit


__all__ = [
    "ALL_KINDS",
    "EVENT_KINDS",
    "FILE_KINDS",
    "Audit",
    "Source",
    "audit_card",
    "audit_event",
    "audit_header",
    "edit_header",
    "judge_file",
    "mutate_card",
    "mutate_effect",
    "run_audit",
    "sealed_bytes",
    "sources",
]
