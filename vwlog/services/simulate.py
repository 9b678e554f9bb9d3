"""Generate matches with the engine's policies and write them as sealed logs."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from vwlog.games.vw.simulate import GeneratedMatch, PolicyName, match_format_for, simulation
from vwlog.io.chain import sealed
from vwlog.io.logfile import write_log
from vwlog.model.cards import CardPool, Ruleset
from vwlog.model.errors import InvalidParameterError, OutputError
from vwlog.services.sharing import ordered_map
from vwlog.services.trust import close_stream, published_for

if TYPE_CHECKING:
    from collections.abc import Callable, Iterable, Iterator

    from vwlog.io.trust import PublishedPool


# -- simulation ------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class SimulationSpec:
    """What to generate."""

    seed: int
    matches: int = 1
    players: int = 2
    teams: int | None = None
    decks: tuple[tuple[str, ...], ...] | None = None
    policy: PolicyName = "greedy"
    max_turns: int = 200
    ruleset: Ruleset | None = None
    first: int = 0
    """The index of the first match: the run makes matches ``first`` to ``first + matches -
    1`` of its seed (a match's header names its index, so any one can be made again alone)."""


def match_path(out: Path, spec: SimulationSpec, index: int) -> Path:
    """Where the ``index``-th match of a run is written: ``OUT/sim-SEED-NNNNN.jsonl`` (``NNNNN``
    the match's index in its seed, ``spec.first + index``), or ``OUT`` itself when it names a
    single ``.jsonl`` file."""
    if out.suffix == ".jsonl" and spec.matches == 1:
        return out
    return out / f"sim-{spec.seed}-{spec.first + index:05d}.jsonl"


def generate_one(
    pool: CardPool,
    spec: SimulationSpec,
    index: int,
    out: Path | None,
    published: PublishedPool | None = None,
) -> tuple[GeneratedMatch, Path | None]:
    """The ``index``-th match of ``spec`` (number ``spec.first + index`` of its seed), written
    as a sealed log under ``out`` (streamed: each
    record is sealed and written as it is made, none is kept) or kept whole when ``out`` is
    ``None``; the one place a generated match is made, whether here or on a cluster worker.

    Raises:
        OutputError: the file cannot be written.
    """
    generation = simulation(
        pool,
        seed=spec.seed,
        index=spec.first + index,
        players=spec.players,
        teams=spec.teams,
        decks=spec.decks,
        policy=spec.policy,
        max_turns=spec.max_turns,
        ruleset=spec.ruleset or Ruleset(),
    )
    if out is None:
        records = tuple(generation.records())
        return GeneratedMatch(generation.header, records, generation.state), None
    path = match_path(out, spec, index)
    header, stream = close_stream(generation.header, generation.records(), published)
    write_log(path, header, stream)
    return GeneratedMatch(header=header, records=(), state=generation.state), path


def prepare_output(spec: SimulationSpec, out: Path | None) -> None:
    """Refuse a spec that no match can be generated from, then create the directory ``out``
    the matches are written under (unless ``out`` is the ``.jsonl`` file of the one match).

    Raises:
        InvalidParameterError: players out of 2..6, or no format with this shape.
        OutputError: the directory cannot be created.
    """
    if not 2 <= spec.players <= 6:
        raise InvalidParameterError("players", spec.players, "must be 2 to 6")
    try:
        match_format_for(spec.players, spec.teams)
    except ValueError as err:
        raise InvalidParameterError("teams", spec.teams, str(err)) from None
    if out is not None and not (out.suffix == ".jsonl" and spec.matches == 1):
        try:
            out.mkdir(parents=True, exist_ok=True)
        except OSError as err:
            raise OutputError(str(out), err.strerror or str(err)) from err


def simulate_to(
    pool: CardPool,
    spec: SimulationSpec,
    out: Path | None,
    *,
    on_match: Callable[[GeneratedMatch, Path | None], None] | None = None,
    jobs: int = 1,
) -> list[GeneratedMatch]:
    """Generate ``spec.matches`` matches and write each as a sealed log under ``out``, with
    ``jobs`` worker processes when there are several matches to write.

    Returns the generated matches' summaries (header and final state; records are dropped
    after writing to keep memory flat when ``out`` is given).

    Raises:
        InvalidParameterError: the spec is impossible (players out of 2..6, no format with
            this shape).
        OutputError: a file cannot be written.
    """
    prepare_output(spec, out)
    results = []
    published = published_for(pool)
    made: Iterable[tuple[GeneratedMatch, Path | None]]
    if jobs > 1 and spec.matches > 1 and out is not None:
        made = _in_workers(pool, spec, out, published, jobs)
    else:
        made = (generate_one(pool, spec, i, out, published) for i in range(spec.matches))
    for match, path in made:
        if on_match is not None:
            on_match(match, path)
        results.append(match)
    return results


def _generate_in_worker(
    args: tuple[CardPool, SimulationSpec, int, Path, PublishedPool | None],
) -> tuple[GeneratedMatch, Path | None]:
    pool, spec, index, out, published = args
    return generate_one(pool, spec, index, out, published)


def _in_workers(
    pool: CardPool,
    spec: SimulationSpec,
    out: Path,
    published: PublishedPool | None,
    jobs: int,
) -> Iterator[tuple[GeneratedMatch, Path | None]]:
    """Each match generated and written by one of ``jobs`` processes, in index order (match
    ``i`` depends only on the seed and ``i``, so the files are the serial run's)."""
    work = [(pool, spec, i, out, published) for i in range(spec.matches)]
    yield from ordered_map(_generate_in_worker, work, jobs)


__all__ = [
    "SimulationSpec",
    "generate_one",
    "match_path",
    "prepare_output",
    "sealed",
    "simulate_to",
]
