"""Single-event corruptions of legal logs, a second opinion on their legality, and the tally.

A mutation changes one event of a generated (legal) log: it drops, duplicates, swaps with its
neighbour, changes a number, changes a player, or moves an event into another step. Two verdicts
are taken on the result:

* the **validator** (`vwlog.engine.replay.replay` with a `Validator`): violations, or a crash;
* the **play-mode oracle**: the log is legal iff play mode reproduces it — every event is either
  one of the consequences the rules demand at that point (`next_consequences`) or, where a
  decision is awaited, a decision `check` accepts. It walks the log without the replay loop's
  catch-up and without its trust of text-only effects.

Both verdicts start from the state the original log had just before the first changed event,
and stop early once the mutated run's state equals the original's at the corresponding position
with the same events left (the fold and the rules are pure, so the rest is the original's clean
run). A mutation is *detected* when the oracle calls it illegal and the validator reports a
violation; *missed* when the oracle calls it illegal and the validator is clean; *legal after
mutation* when the oracle accepts it (a swap of two commuting events, a dropped last event);
a *false alarm* when the oracle accepts it and the validator does not.
"""

from __future__ import annotations

import contextlib
import random
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from vwlog.engine.replay import BaseVisitor, Step, replay
from vwlog.events import GAME_EVENT, AnyEvent, EventRecord, ObjectResulted
from vwlog.model.cards import Ruleset
from vwlog.model.errors import Violation
from vwlog.model.state import MatchState
from vwlog.projections import INITIAL, evolve
from vwlog.rules import check, next_consequences
from vwlog.rules.effects import chooses

KINDS = ("drop", "duplicate", "swap", "number", "player", "move")
"""The kinds of single-event corruption."""

PLAYER_FIELDS = ("player", "winner", "opponent", "first_player")
"""Fields that name a player."""

REPORT: list[str] = []
"""Lines the property conftest prints in the terminal summary."""


# -- the original log ----------------------------------------------------------------------


@dataclass(frozen=True)
class Original:
    """A legal log with the state before each of its events (``states[k]`` is the board after
    the first ``k`` events)."""

    name: str
    events: tuple[AnyEvent, ...]
    states: tuple[MatchState, ...]
    players: tuple[str, ...]

    @classmethod
    def of(cls, name: str, events: tuple[AnyEvent, ...]) -> Original:
        states = [INITIAL]
        for e in events:
            states.append(evolve(states[-1], e))
        players = tuple(p.id for p in states[-1].players)
        return cls(name, events, tuple(states), players)

    def position(self, k: int) -> tuple[int, str | None, str | None]:
        """Turn, phase and step in which event ``k`` happens."""
        s = self.states[k]
        return s.turn, s.phase, s.step


@dataclass(frozen=True)
class Mutation:
    """One corrupted log: events from ``start`` on replace the original's, and from ``resume``
    on they equal the original's events from ``resume + shift``."""

    kind: str
    description: str
    start: int
    events: tuple[AnyEvent, ...]
    """The mutated log from ``start`` on."""
    resume: int
    """Index in the mutated log from which the original's events follow unchanged."""
    shift: int
    """Original index = mutated index + shift, from ``resume`` on."""


# -- making mutations ----------------------------------------------------------------------


def _with_value(event: AnyEvent, path: tuple[str | int, ...], value: object) -> AnyEvent | None:
    data: Any = event.model_dump(mode="json", by_alias=True)
    node = data
    for key in path[:-1]:
        node = node[key]
    node[path[-1]] = value
    try:
        return GAME_EVENT.validate_python(data)
    except ValueError:
        return None


def _leaves(data: Any, path: tuple[str | int, ...] = ()) -> list[tuple[tuple[str | int, ...], Any]]:
    out: list[tuple[tuple[str | int, ...], Any]] = []
    if isinstance(data, dict):
        for k, v in data.items():
            out.extend(_leaves(v, (*path, k)))
    elif isinstance(data, list):
        for i, v in enumerate(data):
            out.extend(_leaves(v, (*path, i)))
    else:
        out.append((path, data))
    return out


def _numbers(event: AnyEvent) -> list[tuple[tuple[str | int, ...], int]]:
    data = event.model_dump(mode="json", by_alias=True)
    return [(p, v) for p, v in _leaves(data) if isinstance(v, int) and not isinstance(v, bool)]


def _players(event: AnyEvent) -> list[tuple[tuple[str | int, ...], str]]:
    data = event.model_dump(mode="json", by_alias=True)
    return [(p, v) for p, v in _leaves(data) if p and p[-1] in PLAYER_FIELDS and isinstance(v, str)]


def mutate(log: Original, kind: str, rng: random.Random) -> Mutation | None:
    """One mutation of ``kind`` at a random place, or ``None`` if the draw found nothing to
    change (the caller draws again)."""
    ev = log.events
    n = len(ev)
    i = rng.randrange(1, n)  # the MatchStarted stays
    match kind:
        case "drop":
            return Mutation(kind, f"drop #{i} {_t(ev[i])}", i, ev[i + 1 :], i, 1)
        case "duplicate":
            return Mutation(
                kind, f"duplicate #{i} {_t(ev[i])}", i + 1, (ev[i], *ev[i + 1 :]), i + 2, -1
            )
        case "swap":
            if i + 1 >= n or ev[i] == ev[i + 1]:
                return None
            return Mutation(
                kind,
                f"swap #{i} {_t(ev[i])} / {_t(ev[i + 1])}",
                i,
                (ev[i + 1], ev[i], *ev[i + 2 :]),
                i + 2,
                0,
            )
        case "number":
            numbers = _numbers(ev[i])
            if not numbers:
                return None
            path, value = rng.choice(numbers)
            new_value = value + rng.choice((-3, -2, -1, 1, 2, 3, 10))
            new = _with_value(ev[i], path, new_value)
            if new is None or new == ev[i]:
                return None
            where = ".".join(map(str, path))
            return Mutation(
                kind,
                f"#{i} {_t(ev[i])}.{where} {value}->{new_value}",
                i,
                (new, *ev[i + 1 :]),
                i + 1,
                0,
            )
        case "player":
            fields = _players(ev[i])
            if not fields:
                return None
            at, who = rng.choice(fields)
            someone = rng.choice([p for p in log.players if p != who])
            new = _with_value(ev[i], at, someone)
            if new is None:
                return None
            where = ".".join(map(str, at))
            return Mutation(
                kind,
                f"#{i} {_t(ev[i])}.{where} {who}->{someone}",
                i,
                (new, *ev[i + 1 :]),
                i + 1,
                0,
            )
        case "move":
            here = log.position(i)
            # inserting before i or i + 1 would leave the log as it was
            targets = [j for j in range(1, n) if j not in (i, i + 1) and log.position(j) != here]
            if not targets:
                return None
            j = rng.choice(targets)
            moved = list(ev)
            e = moved.pop(i)
            moved.insert(j if j < i else j - 1, e)
            lo = min(i, j if j < i else j - 1)
            hi = max(i, j if j < i else j - 1)
            return Mutation(kind, f"move #{i} {_t(e)} to #{j}", lo, tuple(moved[lo:]), hi + 1, 0)
    raise ValueError(kind)


def _t(event: AnyEvent) -> str:
    return str(getattr(event, "type", type(event).__name__))


# -- the two verdicts ----------------------------------------------------------------------


class _ConvergedError(Exception):
    """The mutated run's state met the original's: the rest is the original's clean run."""


def _converged(log: Original, m: Mutation, k: int, after: MatchState) -> bool:
    """Whether the state after mutated event ``k`` (index in the full mutated log) equals the
    original's at the same point, with only original events left."""
    if k + 1 < m.resume:
        return False
    j = k + 1 + m.shift
    return 0 <= j < len(log.states) and log.states[j] == after


class _Collector(BaseVisitor[list[Violation]]):
    def __init__(self, log: Original, m: Mutation) -> None:
        self.log, self.m = log, m
        self.violations: list[Violation] = []

    def visit(self, step: Step) -> None:
        self.violations.extend(step.violations)
        k = step.record.seq - 1
        if (k - self.m.resume) % 8 == 0 and _converged(self.log, self.m, k, step.after):
            raise _ConvergedError

    def result(self) -> list[Violation]:
        return self.violations


def validator_verdict(log: Original, m: Mutation) -> list[Violation]:
    """The violations the replay loop reports for the mutated log (raises on a crash)."""
    records = (EventRecord(seq=m.start + 1 + k, event=e) for k, e in enumerate(m.events))
    visitor = _Collector(log, m)
    with contextlib.suppress(_ConvergedError):
        replay(records, visitor, initial=log.states[m.start])
    return visitor.violations


def oracle_legal(log: Original, m: Mutation) -> bool:
    """Whether play mode reproduces the mutated log (see the module docstring)."""
    return oracle_first_illegal(log, m) is None


def oracle_first_illegal(log: Original, m: Mutation) -> int | None:
    """The index (in the full mutated log) of the first event play mode does not reproduce,
    or ``None`` when it reproduces the whole mutated log. A demanded result may be one that
    chooses otherwise where its skill leaves its controller a choice (`CHOICE_KINDS`): play
    mode makes any choice it is given (`vwlog.games.vw.play.advance`)."""
    state = log.states[m.start]
    rs = state.ruleset
    assert rs is not None
    for offset, e in enumerate(m.events):
        k = m.start + offset
        demanded = next_consequences(rs, state)
        if demanded and not _always(e):
            if e not in demanded and not _chosen_otherwise(rs, state, e, demanded):
                return k
        elif check(rs, state, e):
            return k
        state = evolve(state, e)
        if (k + 1 - m.resume) % 8 == 0 and _converged(log, m, k, state):
            return None
    return None


def _chosen_otherwise(
    rs: Ruleset, state: MatchState, e: AnyEvent, demanded: tuple[AnyEvent, ...]
) -> bool:
    """Whether ``e`` is the demanded result of an object whose skill leaves a choice, chosen
    otherwise, and allowed (`vwlog.games.vw.play._chosen` builds such results the same way)."""
    first = demanded[0]
    if not (isinstance(e, ObjectResulted) and isinstance(first, ObjectResulted)):
        return False
    if e.object_id != first.object_id:
        return False
    obj = next((o for o in state.register if o.id == e.object_id), None)
    return obj is not None and chooses(state, obj) and not check(rs, state, e)


def _always(event: AnyEvent) -> bool:
    return _t(event) in ("conceded", "deck_revealed", "judge_ruling_issued", "match_forked")


# -- the tally -----------------------------------------------------------------------------


@dataclass
class Tally:
    """Counts per mutation kind."""

    total: Counter[str] = field(default_factory=Counter)
    detected: Counter[str] = field(default_factory=Counter)
    missed: Counter[str] = field(default_factory=Counter)
    legal: Counter[str] = field(default_factory=Counter)
    false_alarms: Counter[str] = field(default_factory=Counter)
    crashes: Counter[str] = field(default_factory=Counter)
    rules: Counter[str] = field(default_factory=Counter)
    examples: dict[str, list[str]] = field(default_factory=dict)

    def note(self, what: str, m: Mutation, detail: str = "") -> None:
        self.examples.setdefault(what, [])
        if len(self.examples[what]) < 5:
            self.examples[what].append(f"{m.description} {detail}".strip())

    def add(self, log: Original, m: Mutation) -> None:
        self.total[m.kind] += 1
        try:
            found = validator_verdict(log, m)
        except Exception as exc:
            self.crashes[m.kind] += 1
            self.note("crash", m, f"{type(exc).__name__}: {exc}")
            return
        legal = oracle_legal(log, m)
        if legal:
            self.legal[m.kind] += 1
            self.note("legal after mutation", m)
            if found:
                self.false_alarms[m.kind] += 1
                self.note("false alarm", m, str(found[0]))
        elif found:
            self.detected[m.kind] += 1
            self.rules[found[0].rule] += 1
        else:
            self.missed[m.kind] += 1
            self.note("missed", m)

    @property
    def illegal(self) -> int:
        return sum(self.detected.values()) + sum(self.missed.values())

    @property
    def rate(self) -> float:
        return sum(self.detected.values()) / self.illegal if self.illegal else 1.0

    def lines(self) -> list[str]:
        """The report as Markdown lines."""
        out = [
            f"- mutations: {sum(self.total.values())}",
            f"- illegal after mutation (play mode does not reproduce them): {self.illegal}",
            f"- detected: {sum(self.detected.values())} — detection rate {self.rate:.4f}",
            f"- missed: {sum(self.missed.values())}",
            f"- legal after mutation (reported separately, not misses): {sum(self.legal.values())}",
            f"- false alarms (legal, yet flagged): {sum(self.false_alarms.values())}",
            f"- validator crashes: {sum(self.crashes.values())}",
            "",
            "| kind | total | detected | missed | legal after mutation | false alarms | crashes |",
            "|---|---:|---:|---:|---:|---:|---:|",
        ]
        out.extend(
            f"| {k} | {self.total[k]} | {self.detected[k]} | {self.missed[k]} | {self.legal[k]} "
            f"| {self.false_alarms[k]} | {self.crashes[k]} |"
            for k in KINDS
        )
        out += ["", "First rule reported for detected mutations (most common):", ""]
        out.extend(f"- {rule}: {n}" for rule, n in self.rules.most_common(12))
        for what, examples in sorted(self.examples.items()):
            out += ["", f"Examples, {what}:", ""]
            out.extend(f"- {e}" for e in examples)
        return out
