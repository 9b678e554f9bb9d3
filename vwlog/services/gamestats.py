"""Statistics of a game other than Vandaria Wars, through its own `vwlog.games.core.Stats`.

Vandaria Wars' statistics (`vwlog.projections.stats`, the store's read model) are built from
its boards; another game says what to count of its matches (`GameRules.stats`: its figures and
a measure fed every event the replay folds). `measure_game_log` measures one log file in one
read, its integrity checked from the same lines (a record that is not intact is left out, as
Vandaria Wars' statistics leave it out); `measure_stored` replays a stored match;
`game_corpus` sums the matches' figures.

A set of logs is measured one game at a time (`games_of`): logs of several games are refused
in one line by the command.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from vwlog.engine.replay import BaseVisitor, replay
from vwlog.games import GameRules, unavailable
from vwlog.io.logfile import open_log
from vwlog.model.errors import LogFormatError
from vwlog.model.games import DEFAULT_GAME

if TYPE_CHECKING:
    from collections.abc import Iterable, Sequence
    from pathlib import Path

    from vwlog.engine.replay import Step
    from vwlog.events import LogHeader
    from vwlog.games.core import Figure, Stats
    from vwlog.store import MatchMeta, MatchStore

__all__ = [
    "GameCorpus",
    "GameMatch",
    "game_corpus",
    "game_stats",
    "games_of",
    "measure_game_log",
    "measure_store",
    "measure_stored",
    "stored_games",
]


@dataclass(frozen=True)
class GameMatch:
    """One match's figures."""

    source: str
    match_id: str | None
    events: int
    violations: int
    figures: dict[str, Any]
    """By `Figure.key`."""


@dataclass
class GameCorpus:
    """The matches of one game, measured, and what their figures sum to."""

    game: GameRules
    figures: tuple[Figure, ...]
    matches: list[GameMatch] = field(default_factory=list)
    not_intact: int = 0
    """Records left out: their chain, seal or a signature fails."""

    @property
    def legal(self) -> int:
        """Matches with no violation."""
        return sum(1 for m in self.matches if not m.violations)

    def totals(self) -> dict[str, dict[str, Any]]:
        """Each figure over the matches: a count's ``total``, ``mean`` per match and ``most``;
        a most's ``most``; a word's ``values`` (value -> matches; a match without one under
        ``null``)."""
        out: dict[str, dict[str, Any]] = {}
        n = len(self.matches)
        for f in self.figures:
            values = [m.figures.get(f.key) for m in self.matches]
            if f.kind == "word":
                counted = Counter("null" if v is None else str(v) for v in values)
                out[f.key] = {"values": dict(sorted(counted.items()))}
                continue
            if f.kind == "ratio":
                num, den = (sum(m.figures.get(k) or 0 for m in self.matches) for k in f.of)
                out[f.key] = {"total": round(num / den, 2) if den else None}
                continue
            numbers = [v for v in values if isinstance(v, int | float)]
            most = max(numbers, default=0)
            if f.kind == "most":
                out[f.key] = {"most": most}
                continue
            total = sum(numbers)
            out[f.key] = {"total": total, "mean": round(total / n, 2) if n else 0.0, "most": most}
        return out


def game_stats(game: GameRules) -> Stats:
    """``game``'s statistics capability.

    Raises:
        GameUnavailableError: ``stats is not available for game X``.
    """
    if game.stats is None or game.id == DEFAULT_GAME:
        raise unavailable(game, "stats")
    loaded: Stats = game.stats()
    return loaded


class _Measuring(BaseVisitor[tuple[int, int, dict[str, Any]]]):
    """Feeds a game's measure every event; counts the events and the violations."""

    def __init__(self, stats: Stats) -> None:
        self.measure = stats.measure()
        self.ratios = [f for f in stats.FIGURES if f.kind == "ratio"]
        self.events = 0
        self.violations = 0

    def visit(self, step: Step) -> None:
        self.events += 1
        self.violations += len(step.violations)
        self.measure.visit(step.event, step.before, step.after)

    def result(self) -> tuple[int, int, dict[str, Any]]:
        figures: dict[str, Any] = self.measure.result()
        for f in self.ratios:
            num, den = (figures.get(k) or 0 for k in f.of)
            figures[f.key] = round(num / den, 2) if den else None
        return self.events, self.violations, figures


def games_of(paths: Sequence[str]) -> dict[str, list[str]]:
    """The logs by the game their header names (a log whose header cannot be read stays
    with none, under ``""``: measuring it reports it)."""
    out: dict[str, list[str]] = {}
    for path in paths:
        try:
            with open_log(path) as reader:
                gid = reader.header.game
        except LogFormatError:
            out.setdefault("", []).append(path)
            continue
        out.setdefault(gid or DEFAULT_GAME, []).append(path)
    return out


def measure_game_log(path: str | Path, game: GameRules) -> GameMatch | str | None:
    """One log file's figures, read once (its integrity checked from the same lines):
    ``None`` for a record that is not intact, the error's message for a file that cannot be
    read.
    """
    from vwlog.io.integritypass import IntegrityPass
    from vwlog.services.trust import findings_of
    from vwlog.services.verdict import failing_problem

    stats = game_stats(game)
    try:
        with open_log(path) as reader:
            gathered = IntegrityPass.of(reader)
            lines = ((line[0], line[2]) for line in gathered.tee(reader.lines()))
            events, violations, figures = replay(
                lines, _Measuring(stats), header=reader.header, game=game
            )
            header: LogHeader = reader.header
            name = reader.name
    except LogFormatError as err:
        return err.said()
    except ValueError as err:
        return str(err)
    if failing_problem(findings_of(gathered).integrity) is not None:
        return None
    return GameMatch(name, header.match_id, events, violations, figures)


def measure_stored(store: MatchStore, match_id: str, game: GameRules) -> GameMatch:
    """A stored match's figures, replayed from its records."""
    stats = game_stats(game)
    header = store.header(match_id)
    events, violations, figures = replay(
        store.records(match_id), _Measuring(stats), header=header, game=game
    )
    return GameMatch(f"store:{match_id}", match_id, events, violations, figures)


def game_corpus(game: GameRules, measured: Iterable[GameMatch | None]) -> GameCorpus:
    """The matches measured (``None``: a record left out, not intact), summed."""
    corpus = GameCorpus(game, tuple(game_stats(game).FIGURES))
    for m in measured:
        if m is None:
            corpus.not_intact += 1
        else:
            corpus.matches.append(m)
    return corpus


def stored_games(store: MatchStore, *, forks: bool) -> dict[str, list[MatchMeta]]:
    """The stored matches (forks only with ``forks``) by game."""
    out: dict[str, list[MatchMeta]] = {}
    for meta in store.list_matches():
        if meta.parent is not None and not forks:
            continue
        game = store.header(meta.match_id).game or DEFAULT_GAME
        out.setdefault(game, []).append(meta)
    return out


def measure_store(store: MatchStore, game: GameRules, metas: Iterable[MatchMeta]) -> GameCorpus:
    """The stored matches of ``game`` measured and summed; one whose record was not intact
    when it was stored is left out (`vwlog.services.verdict.counts_as_valid`)."""
    from vwlog.services.verdict import counts_as_valid

    return game_corpus(
        game,
        (measure_stored(store, m.match_id, game) if counts_as_valid(m) else None for m in metas),
    )
