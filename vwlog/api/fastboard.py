"""A board already rendered is answered before the framework sees the request.

Reading a match's boards is what a viewer does most, step after step, and once a board is
kept (`vwlog.api.cache.BoardCache`) its answer is only a lookup: the access checks, the key
and the bytes. Passing through the framework's routing and dependency solving (each plain
dependency in a worker thread) cost several times that. `BoardFastPath` answers
``GET /matches/{match_id}/board`` itself when, and only when, the board is kept:

- the same functions decide: `token_of` (the token), `match_access` (the match's access),
  `board_answer` (the seat of the view and the key) and `shown_board` (the answer and its
  304), so the answer is the route's byte for byte;
- anything they refuse, any query or header the route would read another way (a repeated
  parameter, another parameter, a ``seq`` that is not plain digits, an empty or long
  ``player``, a long ``If-None-Match``) and any board not kept go to the route, which answers
  as it always did (its errors included).

The look-ups run on the event loop: on an SQLite file they take microseconds, less than a hop
to a worker thread. On PostgreSQL they are three network round trips, which hold the event loop
while they last (fine on loopback, as measured; a database on another machine would want them
in a worker thread).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING
from urllib.parse import parse_qsl

from vwlog.api.dependencies import match_access, token_of
from vwlog.api.routers.matches import PLAYER_LIMIT, TAG_LIMIT, board_answer, shown_board

if TYPE_CHECKING:
    from starlette.responses import Response
    from starlette.types import ASGIApp, Receive, Scope, Send

_BOARD = re.compile(r"/matches/([^/]+)/board")
_DIGITS = re.compile(r"[0-9]{1,18}")


class BoardFastPath:
    """ASGI middleware: answer a kept board at once, pass everything else on (see the
    module)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and scope["method"] == "GET":
            found = _BOARD.fullmatch(scope["path"])
            answer = kept_board(scope, found.group(1)) if found else None
            if answer is not None:
                await answer(scope, receive, send)
                return
        await self.app(scope, receive, send)


def kept_board(scope: Scope, match_id: str) -> Response | None:
    """The route's answer for a kept board, or ``None`` to let the route answer."""
    asked = _asked(scope)
    if asked is None:
        return None
    seq, player, authorization, if_none_match = asked
    state = scope["app"].state
    try:
        who = token_of(state.tokens, authorization)
        access = match_access(match_id, state.store, who)
        key, _ = board_answer(state.store, access, seq, player)
    except Exception:  # the route says why, in its own words and status
        return None
    shown = state.boards.kept(key)
    if shown is None:
        return None
    if who is not None:
        scope.setdefault("state", {})["role"] = str(who.role)
    return shown_board(shown, if_none_match)


def _asked(scope: Scope) -> tuple[int | None, str | None, str | None, str | None] | None:
    """``seq``, ``player``, the ``Authorization`` and ``If-None-Match`` headers, when the
    route would read them exactly so; otherwise ``None``."""
    params: dict[str, str] = {}
    for name, value in parse_qsl(scope["query_string"].decode("latin-1"), keep_blank_values=True):
        if name not in ("seq", "player") or name in params:
            return None
        params[name] = value
    seq = params.get("seq")
    player = params.get("player")
    if seq is not None and not _DIGITS.fullmatch(seq):
        return None
    if player is not None and not 0 < len(player) <= PLAYER_LIMIT:
        return None
    headers: dict[bytes, str] = {}
    for name, value in scope["headers"]:
        name = name.lower()
        if name in (b"authorization", b"if-none-match"):
            if name in headers:
                return None
            headers[name] = value.decode("latin-1")
    tag = headers.get(b"if-none-match")
    if tag is not None and len(tag) > TAG_LIMIT:
        return None
    return (int(seq) if seq is not None else None, player, headers.get(b"authorization"), tag)


__all__ = ["BoardFastPath", "kept_board"]
