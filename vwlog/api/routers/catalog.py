"""What the service publishes: card pools, decks, rulesets, the rule catalog, corpus
statistics, the service's key and its health.

Corpus statistics (``/stats``, ``/stats/report``) count every stored match, live matches in
progress included, whose metrics rest on hands, draws and deck order no seat may see: they
need an organiser's or a judge's token (401 without a token, 403 for a player's). They are
served from the incremental read model (`vwlog.services.stats.catch_up`: the work of a request
is proportional to what changed since the view was last brought up to date) by `StatsFlight`:
one computation per worker at a time, shared by every request that waits for it, and stopped
when the last of them disconnects. The answer says which computation it comes from
(``X-Vwlog-Stats-Run``: the worker's process id and the computation's number in it) and how
many events that computation folded (``X-Vwlog-Stats-Folded``).
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import threading
from dataclasses import dataclass
from typing import TYPE_CHECKING, Annotated, Any

from fastapi import APIRouter, Depends, HTTPException, Query, Request, Response
from starlette.concurrency import run_in_threadpool

from vwlog.api.dependencies import PrincipalDep, SignerDep, StoreDep, require
from vwlog.api.errors import ERROR_RESPONSES
from vwlog.api.schemas import TokenOut
from vwlog.io.pools import load_deck, load_pool, packaged_decks
from vwlog.model.cards import DEFAULT_RULESET
from vwlog.model.text import msg
from vwlog.render.statsdata import DEFAULT_MIN_N, DEFAULT_TOP, report
from vwlog.services import rules_catalog
from vwlog.services.stats import CatchUpCancelledError, Refreshed, catch_up
from vwlog.store.tokens import Role

if TYPE_CHECKING:
    from vwlog.store import MatchStore

router = APIRouter(tags=["catalog"], responses=ERROR_RESPONSES)

CLIENT_GONE = 499
"""The status logged for a request whose client left before its answer (nothing is sent)."""


@dataclass(frozen=True, slots=True)
class StatsRun:
    """The statistics as one computation left them."""

    refreshed: Refreshed
    """What the catch-up did, and the statistics."""
    run: str
    """``<pid>-<n>``: the worker and the number of the computation in it."""


class StatsFlight:
    """The statistics of one worker: one computation at a time (`catch_up` in a thread),
    shared by every request that asks while it runs, its result kept while the store does not
    move, and stopped as soon as no request waits for it any more (every client left)."""

    def __init__(self) -> None:
        self.computations = 0
        """How many computations this worker started."""
        self._task: asyncio.Future[Refreshed] | None = None
        self._stop: threading.Event | None = None
        self._serial = 0
        self._waiting = 0
        self._last: StatsRun | None = None

    async def get(self, store: MatchStore, request: Request) -> StatsRun | None:
        """The statistics of the store as it is now; ``None`` when the client left first.

        Raises:
            StoreError: the database failed (see `catch_up`).
        """
        position = await run_in_threadpool(store.position)
        last = self._last
        if last is not None and last.refreshed.position >= position:
            return last
        if self._task is None or self._task.done() or self._stopped():
            self._start(store)
        task, serial = self._task, self._serial
        assert task is not None
        self._waiting += 1
        try:
            done = await _until_gone(task, request)
        finally:
            self._waiting -= 1
            if self._waiting == 0 and not task.done() and self._stop is not None:
                self._stop.set()  # nobody waits for it any more
        if not done:
            return None
        ran = StatsRun(task.result(), f"{os.getpid()}-{serial}")
        if self._last is None or ran.refreshed.position >= self._last.refreshed.position:
            self._last = ran
        return ran

    def _stopped(self) -> bool:
        return self._stop is not None and self._stop.is_set()

    def _start(self, store: MatchStore) -> None:
        stop = threading.Event()
        self._stop = stop
        self._serial += 1
        self.computations += 1
        task = asyncio.ensure_future(run_in_threadpool(catch_up, store, stop=stop))
        task.add_done_callback(_quiet)
        self._task = task


def _quiet(task: asyncio.Future[Refreshed]) -> None:
    """Take a stopped computation's error, so that nobody is told of it twice."""
    if not task.cancelled():
        task.exception()


async def _until_gone(task: asyncio.Future[Refreshed], request: Request) -> bool:
    """Wait for ``task``, or for the client to disconnect; whether the task finished.

    Raises:
        Whatever the task raised (its client still waiting).
    """
    gone = asyncio.ensure_future(_disconnected(request))
    try:
        either: set[asyncio.Future[Any]] = {task, gone}
        await asyncio.wait(either, return_when=asyncio.FIRST_COMPLETED)
    finally:
        gone.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await gone
    if not task.done():
        return False
    if isinstance(task.exception(), CatchUpCancelledError):
        return False  # stopped: every client it was computed for had left
    task.result()  # raises what the computation raised
    return True


async def _disconnected(request: Request) -> None:
    """Return when the client of ``request`` disconnects."""
    while (await request.receive())["type"] != "http.disconnect":
        pass


def stats_flight(request: Request) -> StatsFlight:
    """The worker's `StatsFlight` (made on first use)."""
    flight: StatsFlight | None = getattr(request.app.state, "stats_flight", None)
    if flight is None:
        flight = request.app.state.stats_flight = StatsFlight()
    return flight


StatsReaders = Depends(require(Role.ORGANISER, Role.JUDGE))


@router.get("/health", summary="Whether the service and its store answer")
def health(store: StoreDep) -> dict[str, Any]:
    """``ok`` and the store's notification position (one cheap query). It names no path, URL
    or host: the answer is public."""
    return {"status": "ok", "position": store.position()}


@router.get("/service/key", summary="The public key that signs receipts")
def service_key(signer: SignerDep) -> dict[str, str]:
    """The Ed25519 public key (raw, base64) and what it signs."""
    return {
        "algorithm": "Ed25519",
        "public_key": signer.public_key,
        "signs": "canonical JSON (sorted keys, compact) of {match_id, head_seq, head_hash}",
    }


@router.get("/whoami", summary="Who the presented token speaks for")
def whoami(who: PrincipalDep) -> TokenOut:
    """The role of the token, and for a player its match and seat (401 without a token)."""
    if who is None:
        raise HTTPException(401, msg("no token presented"))
    return TokenOut(role=who.role, match_id=who.match_id, seat=who.seat)


@router.get("/pools", summary="The published card pools")
def pools() -> list[dict[str, Any]]:
    """Every published pool (today the one packaged with vwlog), with its cards."""
    pool = load_pool()
    return [pool.model_dump(mode="json")]


@router.get("/pools/decks", summary="The published deck lists")
def decks() -> list[str]:
    """Names of the published deck lists."""
    return packaged_decks()


@router.get("/pools/decks/{name}", summary="One published deck list")
def deck(name: str) -> dict[str, Any]:
    """A deck list: its name and the copies of each card."""
    if name not in packaged_decks():
        raise HTTPException(404, msg("no published deck {name}", name=repr(name)))
    return load_deck(name).model_dump(mode="json")


@router.get("/rulesets", summary="The published rulesets")
def rulesets() -> list[dict[str, Any]]:
    """Every published ruleset (today the default one: the digest's proposal for each open
    question)."""
    return [DEFAULT_RULESET.model_dump(mode="json")]


@router.get("/rules", summary="The rule catalog")
def rules() -> list[dict[str, Any]]:
    """Every rule in document order: its id, title, whole text, basis, status and reason, the
    rule in Indonesian, the ruleset flags it reads, the events it checks and where the engine
    enforces it (as ``vwlog rules --format json``)."""
    return rules_catalog()


@router.get("/rules/{rule_id}", summary="One rule of the catalog with its full text")
def rule(rule_id: str) -> dict[str, str]:
    """A rule's id, title, full text (Markdown with its source tags), basis and status (404
    for an unknown id)."""
    from vwlog.model.types import RuleId
    from vwlog.rules.catalog import RULES

    found = RULES.get(RuleId(rule_id))
    if found is None:
        raise HTTPException(
            404,
            msg("no rule {rule} in the catalog (see /rules)", rule=repr(rule_id)),
        )
    from vwlog.rules.catalog import status

    return {
        "id": found.id,
        "title": found.title,
        "text": found.text,
        "basis": found.basis,
        "status": status(rule_id)[0],
    }


async def _statistics(request: Request, response: Response, store: MatchStore) -> StatsRun | None:
    if await run_in_threadpool(store.position) == 0:
        raise HTTPException(404, msg("no matches stored yet"))
    ran = await stats_flight(request).get(store, request)
    if ran is not None:
        response.headers["X-Vwlog-Stats-Run"] = ran.run
        response.headers["X-Vwlog-Stats-Folded"] = str(ran.refreshed.folded)
    return ran


@router.get(
    "/stats",
    summary="Corpus statistics of the stored matches",
    dependencies=[StatsReaders],
    response_model=None,
)
async def corpus(
    request: Request, response: Response, store: StoreDep
) -> dict[str, Any] | Response:
    """The statistics read model, brought up to date (an organiser's or judge's token: they
    count live matches in progress). The answer's ``X-Vwlog-Stats-Run`` names the computation
    it comes from and ``X-Vwlog-Stats-Folded`` the events that computation folded."""
    ran = await _statistics(request, response, store)
    if ran is None:
        return Response(status_code=CLIENT_GONE)
    data: dict[str, Any] = ran.refreshed.stats.model_dump(mode="json")
    return data


@router.get(
    "/stats/report",
    summary="The corpus statistics as the stats command reports them",
    dependencies=[StatsReaders],
    response_model=None,
)
async def corpus_report(
    request: Request,
    response: Response,
    store: StoreDep,
    min_n: Annotated[int, Query(ge=1, le=100_000, description="fewest plays to rank a card")] = (
        DEFAULT_MIN_N
    ),
) -> dict[str, Any] | Response:
    """The report ``vwlog stats --format json`` writes (victory types, win rates with their
    95 % intervals by seat, turn order, faction and deck, match length, tempo, cards), plus
    ``top_cards``: the ids of the cards played in at least ``min_n`` finished player-matches,
    best first by the lower end of their interval (as the HTML page ranks them). An
    organiser's or judge's token, as ``/stats``."""
    ran = await _statistics(request, response, store)
    if ran is None:
        return Response(status_code=CLIENT_GONE)
    stats = ran.refreshed.stats
    data = await run_in_threadpool(report, stats, min_n=min_n)
    data["top_cards"] = [k for k, _c in stats.card_rows(min_n)[:DEFAULT_TOP]]
    return data


__all__ = [
    "CLIENT_GONE",
    "StatsFlight",
    "StatsRun",
    "corpus",
    "corpus_report",
    "deck",
    "decks",
    "health",
    "pools",
    "rule",
    "rules",
    "rulesets",
    "service_key",
    "stats_flight",
    "whoami",
]
