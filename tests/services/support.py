"""Generated match logs for the match-store service and CLI tests, and ways to damage them.

Matches come from the generator (`vwlog.services.simulate_to`), kept short with ``max_turns`` so
a test stays fast; logs are written as files because that is what ``import`` reads. PostgreSQL
helpers give each test a fresh schema in the run's own test database (`tests.store.pg`) and
skip, saying why, when no server answers (under CI, with ``CI`` set, they fail with that reason
instead).
"""

from __future__ import annotations

from contextlib import contextmanager
from functools import cache
from typing import TYPE_CHECKING
from uuid import uuid4

import orjson

from tests.store.pg import postgres_server
from vwlog.events import EventRecord, LogHeader, MatchStarted, PriorityPassed
from vwlog.io.logfile import read_log, write_log
from vwlog.io.pools import load_pool
from vwlog.projections import INITIAL, evolve
from vwlog.rules import expect
from vwlog.services import SimulationSpec, sealed, simulate_to

if TYPE_CHECKING:
    from collections.abc import Callable, Iterator, Sequence
    from pathlib import Path

    from vwlog.model.cards import CardPool
    from vwlog.model.state import MatchState


# -- generated logs --------------------------------------------------------------------------


@cache
def pool() -> CardPool:
    """The packaged sample card pool."""
    return load_pool(None)


def generated_log(
    directory: Path,
    seed: int,
    max_turns: int,
    *,
    players: int = 2,
    teams: int | None = None,
    decks: tuple[tuple[str, ...], ...] | None = None,
    name: str | None = None,
) -> Path:
    """Write generated match 0 of ``seed`` as a sealed log under ``directory``; its path."""
    path = directory / (name or f"sim-{seed}-t{max_turns}-p{players}.jsonl")
    spec = SimulationSpec(seed=seed, players=players, teams=teams, decks=decks, max_turns=max_turns)
    simulate_to(pool(), spec, path)
    return path


def records_of(path: Path) -> tuple[LogHeader, list[EventRecord]]:
    """The header and records of a log file."""
    return read_log(path)


def lines_of(path: Path) -> list[bytes]:
    """The raw lines of a file, without their newlines."""
    return path.read_bytes().splitlines()


def write_lines(path: Path, lines: Sequence[bytes]) -> Path:
    """Write raw lines, each ending in a newline; the path."""
    path.write_bytes(b"".join(line + b"\n" for line in lines))
    return path


def states(records: Sequence[EventRecord]) -> list[MatchState]:
    """``states(r)[n]`` is the board after the first ``n`` records (folded with `evolve`)."""
    out = [INITIAL]
    for record in records:
        out.append(evolve(out[-1], record.event))
    return out


def priority_points(records: Sequence[EventRecord]) -> list[int]:
    """Every seq after which a player holds priority (where a fork may start)."""
    folded = states(records)
    ruleset = folded[1].ruleset
    assert ruleset is not None
    return [seq for seq in range(1, len(folded)) if expect(ruleset, folded[seq]).kind == "priority"]


# -- damaged logs ----------------------------------------------------------------------------


def edited_record(
    path: Path, out: Path, seq: int, edit: Callable[[dict[str, object]], None]
) -> Path:
    """Copy a log with record ``seq`` changed by ``edit`` (on its JSON), not re-sealed."""
    lines = lines_of(path)
    data = orjson.loads(lines[seq])
    assert data["seq"] == seq
    edit(data)
    lines[seq] = orjson.dumps(data, option=orjson.OPT_SORT_KEYS)
    return write_lines(out, lines)


def resealed(path: Path, out: Path, records: Sequence[EventRecord]) -> Path:
    """Write ``records`` under the header of ``path`` with a fresh, intact hash chain."""
    header, _ = records_of(path)
    head, chained = sealed(header.model_copy(update={"hash": None}), records)
    write_log(out, head, chained)
    return out


def unsealed(path: Path, out: Path) -> Path:
    """Copy a log with every hash removed (header and records), as an old recorder wrote it."""
    header, records = records_of(path)
    write_log(
        out,
        header.model_copy(update={"hash": None}),
        [r.model_copy(update={"hash": None}) for r in records],
    )
    return out


def illegal_copy(path: Path, out: Path) -> Path:
    """Copy a log where the first priority pass is made by the wrong player, re-sealed.

    The chain holds; the rules do not (the validator reports at least one violation).
    """
    _, records = records_of(path)
    started = records[0].event
    assert isinstance(started, MatchStarted)
    index, passed = next(
        (i, r.event) for i, r in enumerate(records) if isinstance(r.event, PriorityPassed)
    )
    other = next(seat.player for seat in started.seats if seat.player != passed.player)
    records[index] = records[index].model_copy(update={"event": PriorityPassed(player=other)})
    return resealed(path, out, records)


# -- PostgreSQL ------------------------------------------------------------------------------


def postgres_dsn() -> str:
    """The test database's DSN, or a skip with the reason it cannot be used — a failure with
    that reason under CI (``CI`` set), where PostgreSQL tests must run, never skip."""
    return postgres_server()


@contextmanager
def fresh_schema(dsn: str) -> Iterator[str]:
    """A store URL on a new schema of the server, dropped with its tables afterwards."""
    import psycopg
    from psycopg import sql

    name = f"vwlog_test_{uuid4().hex[:16]}"
    with psycopg.connect(dsn, autocommit=True) as conn:
        conn.execute(sql.SQL("CREATE SCHEMA {}").format(sql.Identifier(name)))
    try:
        yield f"{dsn}?schema={name}"
    finally:
        with psycopg.connect(dsn, autocommit=True) as conn:
            conn.execute(sql.SQL("DROP SCHEMA {} CASCADE").format(sql.Identifier(name)))
