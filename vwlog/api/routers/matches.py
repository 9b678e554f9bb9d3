"""Stored matches: upload, list, events, board, awaited decision, stream (reports on one match
are in `vwlog.api.routers.reports`)."""

from __future__ import annotations

import asyncio
import os
import tempfile
import time
from collections.abc import AsyncIterator, Callable
from datetime import date
from functools import partial
from itertools import islice
from typing import Annotated, Any

import orjson
from fastapi import APIRouter, Depends, Header, HTTPException, Query, Request, Response
from fastapi.responses import StreamingResponse
from starlette.concurrency import run_in_threadpool

from vwlog.api.cache import BoardKey, RenderedBoard
from vwlog.api.dependencies import (
    AccessDep,
    LanguageDep,
    MatchAccess,
    PrincipalDep,
    StoreDep,
    get_settings,
    get_store,
    is_finished,
    require,
)
from vwlog.api.errors import ERROR_RESPONSES
from vwlog.api.gameviews import (
    awaited_of,
    board_body,
    events_of,
    game_of,
    generic_game,
    no_seat_view,
)
from vwlog.api.schemas import (
    AwaitedOut,
    DecisionOut,
    EventOut,
    EventsPage,
    GameBoardOut,
    MatchesPage,
    MatchSummaryOut,
    ShownBoardView,
    TimelineOut,
    UploadOut,
)
from vwlog.api.writers import write
from vwlog.audit.knowledge import knowledge
from vwlog.games.vw.describe import description
from vwlog.games.vw.notation import format_decision
from vwlog.io.i18n import say, using_language
from vwlog.model.errors import LogFormatError
from vwlog.model.text import Msg, msg
from vwlog.render.json import (
    board_json,
    known_board_json,
)
from vwlog.rules import expect, legal_decisions
from vwlog.services.hashes import shown_head_hash
from vwlog.services.importing import import_log
from vwlog.services.matches import list_matches, state_at
from vwlog.services.timeline import Timeline, extend, timeline
from vwlog.store import MatchStore
from vwlog.store.tokens import Role, TokenInfo

PLAYER_LIMIT = 40
"""The longest seat name a board's ``player`` may give (`vwlog.api.fastboard` reads it too)."""
TAG_LIMIT = 2000
"""The longest ``If-None-Match`` a board request may send."""

router = APIRouter(prefix="/matches", tags=["matches"], responses=ERROR_RESPONSES)

MAX_PAGE = 1000
"""Most events or matches one page holds."""
LEGAL_LIMIT = 500
"""Most legal decisions one answer lists."""


def full_record(access: MatchAccess) -> None:
    """Refuse a player's token the full record of a match in progress (403)."""
    if access.viewer is not None:
        raise HTTPException(
            403,
            msg(
                "match {match_id} is in progress: a player's token sees only its seat",
                match_id=repr(access.match_id),
            ),
        )


# -- list and upload -------------------------------------------------------------------------


@router.get("", summary="List stored matches, filtered and paged")
def list_(
    store: StoreDep,
    who: PrincipalDep,
    player: Annotated[str | None, Query(max_length=200)] = None,
    winner: Annotated[str | None, Query(max_length=200)] = None,
    victory: Annotated[str | None, Query(max_length=40)] = None,
    flagged: bool | None = None,
    since: date | None = None,
    forks: Annotated[bool, Query(description="include forks")] = True,
    finished: Annotated[bool | None, Query(description="only finished (or unfinished)")] = None,
    min_turns: Annotated[int | None, Query(description="at least this many turns")] = None,
    max_turns: Annotated[int | None, Query(description="at most this many turns")] = None,
    offset: Annotated[int, Query(ge=0)] = 0,
    limit: Annotated[int, Query(ge=1, le=MAX_PAGE)] = 50,
) -> MatchesPage:
    """Stored matches (summaries only; a match in progress is listed, its records are not, and
    its ``head_hash`` only to organisers and judges, or to a player's token for its own match
    as ``/matches/{id}`` shows it). ``victory=UNFINISHED`` lists the matches nobody has won, as
    the statistics count them."""
    unfinished = victory is not None and victory.upper() == "UNFINISHED"
    found = list_matches(
        store,
        player=player,
        winner=winner,
        victory=None if unfinished else victory,
        flagged=flagged,
        since=since,
    )
    if unfinished or finished is False:
        found = [m for m in found if m.winner is None and m.victory is None]
    elif finished:
        found = [m for m in found if m.winner is not None or m.victory is not None]
    if min_turns is not None:
        found = [m for m in found if m.turns is not None and m.turns >= min_turns]
    if max_turns is not None:
        found = [m for m in found if m.turns is not None and m.turns <= max_turns]
    if not forks:
        found = [m for m in found if m.parent is None]
    return MatchesPage(
        total=len(found),
        offset=offset,
        limit=limit,
        matches=[_listed(m, who, store) for m in found[offset : offset + limit]],
    )


@router.post(
    "",
    status_code=201,
    summary="Upload a log (JSON Lines); stored once, idempotent by content hash",
    responses={200: {"model": UploadOut, "description": "the same log was stored before"}},
    dependencies=[Depends(require(Role.ORGANISER, Role.JUDGE))],
    openapi_extra={
        "requestBody": {
            "required": True,
            "content": {"application/x-ndjson": {"schema": {"type": "string"}}},
        }
    },
)
async def upload(
    request: Request,
    response: Response,
    reject_illegal: bool = False,
) -> UploadOut:
    """Validate a log and store it (all of it or nothing). The body is read as a stream up to
    the service's size limit (413 beyond). The same log uploaded again stores nothing
    (``unchanged``, 200). Needs an organiser's or judge's token."""
    limit = get_settings(request).max_upload
    declared = request.headers.get("content-length")
    if declared is not None and declared.isdigit() and int(declared) > limit:
        raise HTTPException(
            413, msg("the log is larger than the limit of {limit} bytes", limit=limit)
        )
    fd, tmp = tempfile.mkstemp(prefix="vwlog-upload-", suffix=".jsonl")
    try:
        size = 0
        with os.fdopen(fd, "wb") as f:
            async for chunk in request.stream():
                size += len(chunk)
                if size > limit:
                    raise HTTPException(
                        413, msg("the log is larger than the limit of {limit} bytes", limit=limit)
                    )
                await run_in_threadpool(f.write, chunk)
        if size == 0:
            raise HTTPException(400, msg("empty body: send the log's lines"))
        store = get_store(request)
        try:
            result = await write(
                request, lambda: import_log(store, tmp, reject_illegal=reject_illegal)
            )
        except LogFormatError as err:
            raise LogFormatError("upload", err.line, err.detail, err.field) from err
    finally:
        os.unlink(tmp)
    if result.outcome == "rejected":
        raise HTTPException(422, msg("not stored: {detail}", detail=result.detail))
    assert result.match_id is not None
    if result.outcome == "unchanged":
        response.status_code = 200
    return UploadOut(
        match_id=result.match_id,
        outcome="unchanged" if result.outcome == "unchanged" else "stored",
        events=result.events,
        violations=result.violations,
    )


# -- one match -------------------------------------------------------------------------------


@router.get("/{match_id}", summary="A stored match at a glance")
def meta(access: AccessDep, store: StoreDep) -> MatchSummaryOut:
    """The catalog entry of a match. To a player's token while the match is in progress,
    ``head_hash`` is ``null`` unless its seat could compute it (`vwlog.services.hashes`)."""
    return _summary(access.meta, access.viewer, store)


def _listed(m: Any, who: TokenInfo | None, store: MatchStore) -> MatchSummaryOut:
    """A match's summary in the list: a match in progress without its head hash but to an
    organiser or judge (a hash tests guesses of the records it covers), or to a player's
    token for its own match as its seat is shown it."""
    if is_finished(m) or (who is not None and who.role in (Role.ORGANISER, Role.JUDGE)):
        return MatchSummaryOut.of(m)
    if who is not None and who.role == Role.PLAYER and who.match_id == m.match_id and who.seat:
        return _summary(m, who.seat, store)
    return MatchSummaryOut.of(m).model_copy(update={"head_hash": None})


def _summary(m: Any, seat: str | None, store: MatchStore) -> MatchSummaryOut:
    """A match's summary; for ``seat`` (a player's token on a match in progress), its
    ``head_hash`` as the seat is shown it."""
    out = MatchSummaryOut.of(m)
    if seat is None:
        return out
    return out.model_copy(update={"head_hash": shown_head_hash(store, m.match_id, seat)})


@router.get("/{match_id}/events", summary="A match's events, paged by seq")
def events(
    access: AccessDep,
    store: StoreDep,
    lang: LanguageDep,
    after: Annotated[int, Query(ge=0, description="events after this seq")] = 0,
    limit: Annotated[int, Query(ge=1, le=MAX_PAGE)] = 100,
    player: Annotated[
        str | None, Query(max_length=40, description="sentences as this seat knows them")
    ] = None,
) -> EventsPage:
    """Events after ``after``, each with one sentence and its place in the turn; the
    sentences are in the language asked for (``lang``, else ``Accept-Language``). With
    ``player``, the sentences say only what that seat could know, and the recorded events are
    left out. A player's token on its match in progress gets only its own seat's, and a
    record's ``hash`` only where its seat could compute it from what it reads (else ``null``:
    a hash would test a guess of a hidden record); the full chain is public when the match is
    finished."""
    viewer = seat_of(access, player)
    game = game_of(store, access.match_id)
    no_seat_view(game, viewer)
    with using_language(lang):
        out, head = events_of(
            game, store, access.match_id, after, limit, viewer=viewer, seat=access.viewer
        )
    return EventsPage(
        match_id=access.match_id, viewer=viewer, after=after, head_seq=head, events=out, lang=lang
    )


def _said(sentence: Msg, lang: str) -> str:
    """``sentence`` in ``lang``."""
    with using_language(lang):
        return say(sentence)


def seat_of(access: MatchAccess, player: str | None) -> str | None:
    """The seat whose view is asked for: ``player``, or the token's own seat (403 for a
    player's token asking for another seat)."""
    if access.viewer is None:
        return player
    if player is not None and player != access.viewer:
        raise HTTPException(
            403,
            msg(
                "this token sees seat {viewer} only, not {player}",
                viewer=repr(access.viewer),
                player=repr(player),
            ),
        )
    return access.viewer


@router.get(
    "/{match_id}/timeline", summary="Where a match's turns, priority points and violations are"
)
def timeline_(request: Request, access: AccessDep, store: StoreDep) -> TimelineOut:
    """What a timeline marks and jumps to, from one replay of the whole match (kept while the
    match's head does not move): where each turn and each combat step begins, every priority
    point, and every violation's seq and rule id. Read the events themselves page by page
    from ``/events``, only where they are shown."""
    cache = request.app.state.timelines
    match_id = access.match_id

    def compute(upto: int) -> Timeline:
        # after an append, the kept timeline is extended by the new events only
        kept = cache.latest(match_id)
        if kept is not None and 0 < kept[0] < upto:
            at = next(store.records(match_id, gt=kept[0] - 1, lte=kept[0]), None)
            if at is not None and at.hash == kept[1]:
                extended: Timeline = extend(kept[2], store, match_id, upto)
                return extended
        return timeline(store, match_id, upto)

    t: Timeline = cache.get(store, match_id, compute)
    return TimelineOut(
        match_id=access.match_id,
        head_seq=t.head_seq,
        turns=t.turns,
        combat_steps=t.combat_steps,
        priority_points=t.priority_points,
        violations=t.violations,
    )


@router.get(
    "/{match_id}/board",
    summary="The board after a seq, in full or as one player knows it",
    response_model=ShownBoardView | GameBoardOut,
    response_model_by_alias=True,
    responses={304: {"description": "the board named by `If-None-Match` (no body)"}},
)
def board(
    request: Request,
    access: AccessDep,
    store: StoreDep,
    seq: Annotated[int | None, Query(ge=0, description="default: the last event")] = None,
    player: Annotated[
        str | None, Query(max_length=PLAYER_LIMIT, description="that seat's view")
    ] = None,
    if_none_match: Annotated[str | None, Header(max_length=TAG_LIMIT)] = None,
) -> Response:
    """The board after ``seq``. With ``player``: the knowledge view (their own hand, public
    zones, other hands and decks as counts, and the hidden cards they have seen). A player's
    token on its match in progress gets only its own seat's view.

    The answer carries a strong ``ETag`` (a hash of its body); sent back in ``If-None-Match``,
    the same board is answered with 304 and no body. Each worker keeps the boards it rendered
    last, keyed by the match's head and the seat of the view, after access is checked.

    A match of a game without views (`vwlog.games.GameRules.views`) is answered with its
    board's fields (`GameBoardOut`), and has no player's view (400)."""
    key, render = board_answer(store, access, seq, player)
    shown = request.app.state.boards.get(key, render)
    return shown_board(shown, if_none_match)


def board_answer(
    store: MatchStore, access: MatchAccess, seq: int | None, player: str | None
) -> tuple[BoardKey, Callable[[], bytes]]:
    """What a board answer is kept under, and how it is rendered when it is not kept: the
    board route and `vwlog.api.fastboard` ask this one function.

    Raises:
        HTTPException: 403 for a player's token asking for another seat, 400 for a seat's view
            of a game without views.
    """
    player = seat_of(access, player)
    head = store.head(access.match_id)
    at = head.seq if seq is None else seq
    key = (access.match_id, at, head.seq, head.hash, player, access.viewer is not None, "json")
    game = generic_game(store, access.match_id)
    if game is not None:
        no_seat_view(game, player)
        return key, partial(board_body, game, store, access.match_id, at, player)
    return key, partial(_board_body, store, access.match_id, at, player)


def shown_board(shown: RenderedBoard, if_none_match: str | None) -> Response:
    """The answer for a rendered board: 304 when ``If-None-Match`` names it."""
    headers = {"ETag": shown.etag, "Cache-Control": "private, no-cache", "Vary": "Authorization"}
    if shown.matches(if_none_match):
        return Response(status_code=304, headers=headers)
    return Response(shown.body, media_type="application/json", headers=headers)


def _board_body(store: MatchStore, match_id: str, at: int, player: str | None) -> bytes:
    """The board after ``at`` (as ``player`` knows it) as the JSON bytes of a
    `ShownBoardView`."""
    if player is None or at == 0:
        view = ShownBoardView.model_validate(board_json(state_at(store, match_id, at), seq=at))
    else:
        k = knowledge(store.records(match_id, lte=at), at, player, source=f"match {match_id!r}")
        view = ShownBoardView.model_validate(known_board_json(k))
    return view.model_dump_json(by_alias=True).encode()


@router.get("/{match_id}/awaited", summary="Whose decision is awaited, and the legal ones")
def awaited(
    request: Request,
    access: AccessDep,
    store: StoreDep,
    lang: LanguageDep,
    limit: Annotated[int, Query(ge=0, le=LEGAL_LIMIT)] = 100,
    at: Annotated[
        int | None, Query(ge=0, description="after this seq (default: the last event)")
    ] = None,
) -> AwaitedOut:
    """The decision the match waits for after its last event (or after ``at``, as a replay
    shows an earlier board) and every legal decision (from `legal_decisions`): as events
    (``legal``) and, in the same order, in the play notation with one sentence each
    (``options``, as ``vwlog next`` and the event list say them). A player's token sees the
    legal decisions only when the decision is its own (they would name the other player's
    hand). ``seq`` is the position described (an append passes it as ``expected_seq``, and
    only the head accepts one); ``head_hash`` is always the head's (to a player's token on its
    match in progress only where its seat could compute it, else ``null``)."""
    head = store.head(access.match_id)
    head_hash = (
        head.hash
        if access.viewer is None
        else shown_head_hash(store, access.match_id, access.viewer, head.seq)
    )
    seq = head.seq if at is None else at
    game = generic_game(store, access.match_id)
    if game is not None:
        return awaited_of(game, store, access.match_id, seq, head_hash)
    if seq == head.seq:  # the head: kept for the append that usually follows
        state = request.app.state.heads.state(store, access.match_id, head)
    else:
        state = state_at(store, access.match_id, seq)
    rs = state.ruleset
    if rs is None:
        return AwaitedOut(
            match_id=access.match_id,
            seq=seq,
            head_hash=head_hash,
            player=None,
            kind=None,
            rule=game_of(store, access.match_id).rule("CORE-LOG-1"),
            over=False,
            legal=[],
            truncated=False,
        )
    exp = expect(rs, state)
    options: list[Any] = []
    if exp.player is not None and access.viewer in (None, exp.player):
        options = list(islice(legal_decisions(rs, state, exp.player), limit + 1))
    return AwaitedOut(
        match_id=access.match_id,
        seq=seq,
        head_hash=head_hash,
        player=exp.player,
        kind=exp.kind,
        rule=exp.rule,
        over=state.over,
        legal=[o.model_dump(mode="json", by_alias=True) for o in options[:limit]],
        truncated=len(options) > limit,
        options=[
            DecisionOut(
                words=format_decision(o, rs, state),
                text=_said(description(o, state, viewer=access.viewer), lang),
            )
            for o in options[:limit]
        ],
    )


# -- watching --------------------------------------------------------------------------------


@router.get(
    "/{match_id}/stream",
    summary="Follow a match as Server-Sent Events",
    response_class=StreamingResponse,
    responses={200: {"content": {"text/event-stream": {"schema": {"type": "string"}}}}},
)
async def stream(
    request: Request,
    access: AccessDep,
    after: Annotated[int, Query(ge=0)] = 0,
    seconds: Annotated[float, Query(gt=0, le=3600, description="stop after this long")] = 300,
) -> StreamingResponse:
    """Every event after ``after`` as an ``event: record`` message (data: an `EventOut`), then
    new ones as they are appended; ends with ``event: end`` when the match is over or after
    ``seconds``. A player's token gets its seat's view and chain hashes, as on ``/events``."""
    store = get_store(request)
    game = await run_in_threadpool(game_of, store, access.match_id)
    no_seat_view(game, access.viewer)

    def read(seen: int) -> tuple[list[EventOut], int]:
        return events_of(
            game, store, access.match_id, seen, MAX_PAGE, viewer=access.viewer, seat=access.viewer
        )

    async def messages() -> AsyncIterator[bytes]:
        seen = after
        deadline = time.monotonic() + seconds
        while True:
            page, head = await run_in_threadpool(read, seen)
            for e in page:
                data = orjson.dumps(e.model_dump(mode="json"))
                yield b"event: record\nid: %d\ndata: %s\n\n" % (e.seq, data)
                seen = e.seq
            if page:
                continue
            meta = await run_in_threadpool(store.meta, access.match_id)
            over = meta.winner is not None or meta.victory is not None
            if over and meta.events > seen:
                continue  # the last records were appended after the page was read
            if over or time.monotonic() >= deadline or await request.is_disconnected():
                end = {"head_seq": head, "over": over}
                yield b"event: end\ndata: %s\n\n" % orjson.dumps(end)
                return
            await asyncio.sleep(0.25)

    return StreamingResponse(messages(), media_type="text/event-stream")


__all__ = ["full_record", "router", "seat_of"]
