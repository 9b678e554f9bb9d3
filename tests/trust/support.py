"""Logs for the trust tests: samples, a generated match, and ways to alter and re-seal them."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from vwlog.events import MatchStarted
from vwlog.io.logfile import read_log, write_log
from vwlog.io.trust import builtin_registry
from vwlog.services.trust import close_records, packaged_pool

if TYPE_CHECKING:
    from collections.abc import Callable

    from click.testing import CliRunner, Result

    from vwlog.events import EventRecord
    from vwlog.io.trust import PublishedPool

SAMPLES = Path(__file__).resolve().parents[2] / "samples"


def resealed(
    source: Path,
    out: Path,
    alter: Callable[[list[EventRecord]], list[EventRecord]],
    *,
    pool: PublishedPool | bool | None = True,
) -> Path:
    """``source`` with its records altered, then re-sealed the way a forger would: the pool
    and ruleset named again (``pool=True``: the built-in pool the source names, else the
    packaged one), the chain recomputed and a new seal written (signatures dropped)."""
    header, records = read_log(source)
    named = _named_pool(records) if pool is True else pool or None
    head, chained = close_records(header, alter(list(records)), named)
    write_log(out, head, chained)
    return out


def _named_pool(records: list[EventRecord]) -> PublishedPool:
    start = records[0].event if records else None
    if isinstance(start, MatchStarted) and start.pool is not None:
        found = builtin_registry().pools.get(start.pool.id)
        if found is not None:
            return found
    return packaged_pool()


def run(runner: CliRunner, *args: object, store: Path | None = None) -> Result:
    """``vwlog [--store STORE] ARGS``."""
    from vwlog.cli import main

    head = ["--store", str(store)] if store is not None else []
    return runner.invoke(main, [*head, *map(str, args)])
