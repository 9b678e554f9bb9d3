"""One place that turns errors into JSON answers with the right status.

`VwlogError` subclasses map to statuses (`MatchNotFoundError` and `NotPublishedError` 404,
`LogFormatError` 422, `IllegalEventError` 422 with its rule ids, `SequenceConflictError` 409 with
the current head, `UsageError` 400); FastAPI's request validation becomes 422 naming the field.
An error about one field of the request names it in ``field`` (``decisions`` for a decision
that cannot be read): the library's messages name no command-line option, so they serve here
as they are.

The ``message`` of an error answer is in the language the request's ``Accept-Language`` asks
for (Bahasa Indonesia or English; English when it names neither), and the answer says which in
``Content-Language``; the ``error`` code and the violations' fields stay as they are, for
programs.

Every error answer has this one shape (`ErrorOut`): FastAPI's and Starlette's own answers
(an unknown route, a method not allowed, a request that does not validate) included, and the
service's middleware (a body over the limit, 413; an unexpected failure, 500) writes it too.
Refused input is never echoed whole: a value quoted in a message is cut to `EXCERPT`
characters, so is any longer run of characters without a blank however the message was made
(`tamed`), and no text of an error answer is longer than `TEXT_LIMIT`.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from fastapi import Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException

from vwlog.api.schemas import ErrorOut, ViolationOut
from vwlog.games import GameUnavailableError
from vwlog.io.errors import NotPublishedError
from vwlog.io.i18n import language_from_accept, normalize_language, say, using_language
from vwlog.model.errors import (
    CardPoolError,
    IllegalEventError,
    LogFormatError,
    MatchExistsError,
    MatchNotFoundError,
    SequenceConflictError,
    StoreConfigError,
    StoreError,
    UnreadableDecisionError,
    VwlogError,
)
from vwlog.model.text import Msg, SaidText, msg
from vwlog.services.play import SealedRecordError

if TYPE_CHECKING:
    from fastapi import FastAPI

_HTTP_CODES = {
    400: "bad_request",
    401: "unauthorized",
    403: "forbidden",
    404: "not_found",
    405: "method_not_allowed",
    409: "conflict",
    413: "too_large",
    415: "unsupported_media_type",
    422: "invalid_request",
    500: "internal_error",
    503: "unavailable",
}

EXCERPT = 120
"""Most characters of one value of the request quoted in an error message."""
TEXT_LIMIT = 500
"""Most characters of any text of an error answer (its message, a violation's sentences)."""
_ELLIPSIS = "\u2026"
_LONG_RUN = re.compile(rf"\S{{{EXCERPT + 1},}}")

ERROR_RESPONSES: dict[int | str, dict[str, object]] = {
    code: {"model": ErrorOut, "description": name.replace("_", " ")}
    for code, name in _HTTP_CODES.items()
    if code in (400, 401, 403, 404, 409, 413, 422)
}
"""The error answers every route documents in OpenAPI."""


def tamed(text: str) -> str:
    """``text`` with every run of more than `EXCERPT` non-blank characters cut to `EXCERPT`
    (no word of a sentence is that long: such a run is input quoted back), then to
    `TEXT_LIMIT` characters in all.

    >>> tamed("unknown card " + "q" * 500 + " here") == "unknown card " + "q" * 120 + "\u2026 here"
    True
    """
    if len(text) > EXCERPT:
        text = _LONG_RUN.sub(lambda m: excerpt(m.group()), text)
    return excerpt(text, TEXT_LIMIT)


def excerpt(text: str, limit: int = EXCERPT) -> str:
    """``text`` cut to ``limit`` characters (an ellipsis marks the cut).

    >>> excerpt("x" * 100, 5)
    'xxxxx\u2026'
    """
    return text if len(text) <= limit else text[:limit] + _ELLIPSIS


def clipped(text: Msg | str) -> Msg | str:
    """A sentence whose every value (names, quoted decisions, nested phrases) is cut to
    `EXCERPT` characters: what a request sent is quoted, never repeated whole."""
    if isinstance(text, SaidText):
        return SaidText(_clipped_msg(text.said))
    if isinstance(text, str):
        return excerpt(text, TEXT_LIMIT)
    return _clipped_msg(text)


def _clipped_msg(text: Msg) -> Msg:
    return Msg(text.template, tuple((name, _clipped_value(v)) for name, v in text.params))


def _clipped_value(value: object) -> object:
    if isinstance(value, Msg):
        return _clipped_msg(value)
    if isinstance(value, SaidText):
        return SaidText(_clipped_msg(value.said))
    if isinstance(value, str):
        return excerpt(value)
    return value


def bounded(body: ErrorOut) -> ErrorOut:
    """``body`` with no text longer than `TEXT_LIMIT` and no field name longer than
    `EXCERPT` (the last guard: whatever a message quotes, the answer stays short)."""
    violations = [
        v.model_copy(
            update={
                name: tamed(value)
                for name in ("message", "expected", "actual")
                if isinstance(value := getattr(v, name), str) and len(value) > EXCERPT
            }
        )
        for v in body.violations
    ]
    return body.model_copy(
        update={
            "message": tamed(body.message),
            "field": None if body.field is None else excerpt(body.field),
            "rules": [excerpt(r) for r in body.rules],
            "violations": violations,
        }
    )


def error_answer(
    status: int, body: ErrorOut, lang: str, headers: dict[str, str] | None = None
) -> JSONResponse:
    """The JSON answer of an error: ``body`` (`bounded`) with ``status``, in ``lang``."""
    headers = {**(headers or {}), "Content-Language": lang}
    return JSONResponse(bounded(body).model_dump(mode="json"), status_code=status, headers=headers)


_answer = error_answer


def request_language(request: Request) -> str:
    """The language a request asks for (``id`` or ``en``): its ``lang`` query parameter where
    it names a language vwlog speaks, else its ``Accept-Language``."""
    asked = normalize_language(request.query_params.get("lang"))
    if asked is not None:
        return asked
    return language_from_accept(request.headers.get("accept-language"))


def detail_text(detail: object) -> str:
    """An `HTTPException`'s detail in the active language (routes raise them with a
    `vwlog.model.text.Msg`)."""
    return say(clipped(detail)) if isinstance(detail, Msg) else str(detail)


def error_status(err: VwlogError) -> int:
    """The HTTP status of a `VwlogError`."""
    if isinstance(err, (MatchNotFoundError, NotPublishedError)):
        return 404
    if isinstance(err, (LogFormatError, IllegalEventError, CardPoolError)):
        return 422
    if isinstance(err, (SequenceConflictError, MatchExistsError, SealedRecordError)):
        return 409
    if isinstance(err, (StoreError, StoreConfigError)):
        return 503
    return 400


def vwlog_error_body(err: VwlogError, store_head: tuple[int, str | None] | None = None) -> ErrorOut:
    """The JSON body of a `VwlogError`, its message in the active language."""
    status = error_status(err)
    message = say(clipped(err.text()))
    if isinstance(err, IllegalEventError):
        return ErrorOut(
            error="illegal_decision",
            message=message,
            rules=sorted({v.rule for v in err.violations}),
            violations=[ViolationOut.of(v) for v in err.violations],
        )
    if isinstance(err, LogFormatError):
        return ErrorOut(error="invalid_log", message=message, line=err.line, field=err.field)
    head_seq, head_hash = store_head if store_head else (None, None)
    return ErrorOut(
        error=_HTTP_CODES.get(status, "error"),
        message=message,
        field=_field(err),
        head_seq=head_seq,
        head_hash=head_hash,
    )


def _field(err: VwlogError) -> str | None:
    """The field of the request an error is about, where it is about one."""
    if isinstance(err, UnreadableDecisionError):
        return "decisions"
    if isinstance(err, NotPublishedError):
        return err.kind
    return None


def install(app: FastAPI) -> None:
    """Register the handlers on ``app``."""

    @app.exception_handler(VwlogError)
    async def _vwlog(request: Request, err: VwlogError) -> JSONResponse:
        head = None
        if isinstance(err, SequenceConflictError):
            head = await _current_head(request, str(err.match_id))
            if head is not None and getattr(request.state, "head_hash_withheld", False):
                head = (head[0], None)  # a player's seat could not compute it
        lang = request_language(request)
        with using_language(lang):
            body = vwlog_error_body(err, head)
        return _answer(error_status(err), body, lang)

    @app.exception_handler(GameUnavailableError)
    async def _unavailable(request: Request, err: GameUnavailableError) -> JSONResponse:
        # a match's game lacks what the request needs (``play is not available for game X``)
        body = ErrorOut(error=_HTTP_CODES[400], message=str(clipped(str(err))))
        return _answer(400, body, request_language(request))

    @app.exception_handler(HTTPException)
    async def _http(request: Request, err: HTTPException) -> JSONResponse:
        lang = request_language(request)
        with using_language(lang):
            message = detail_text(_routing_detail(request, err))
        body = ErrorOut(error=_HTTP_CODES.get(err.status_code, "error"), message=message)
        headers = dict(err.headers or {})
        if err.status_code == 401:
            headers.setdefault("WWW-Authenticate", "Bearer")
        return _answer(err.status_code, body, lang, headers)

    @app.exception_handler(RequestValidationError)
    async def _invalid(request: Request, err: RequestValidationError) -> JSONResponse:
        first = err.errors()[0] if err.errors() else {}
        loc = [str(p) for p in first.get("loc", ())]
        field = ".".join(loc[1:] if loc and loc[0] in ("body", "query", "path", "header") else loc)
        field = excerpt(field)
        message = excerpt(str(first.get("msg", "invalid request")).lower(), TEXT_LIMIT)
        body = ErrorOut(
            error="invalid_request",
            message=f"{field}: {message}" if field else message,
            field=field or None,
        )
        return _answer(422, body, request_language(request))


def _routing_detail(request: Request, err: HTTPException) -> object:
    """The detail of an `HTTPException`: Starlette's own for an unknown route (404) or a
    method the route does not take (405) said as a sentence of the service."""
    detail: object = err.detail
    if detail in ("Not Found", "Method Not Allowed"):
        path = excerpt(request.url.path)
        if err.status_code == 404:
            return msg("nothing is served at {path}", path=repr(path))
        if err.status_code == 405:
            return msg("{method} is not allowed on {path}", method=request.method, path=repr(path))
    return err.detail


def internal_error_body() -> ErrorOut:
    """The body of an unexpected failure (500): nothing about its cause."""
    return ErrorOut(
        error="internal_error",
        message=say(msg("the service failed to answer this request; it was logged")),
    )


def too_large_body(limit: int) -> ErrorOut:
    """The body of a request whose body passes ``limit`` bytes (413)."""
    return ErrorOut(
        error="too_large",
        message=say(msg("the request body is larger than the limit of {limit} bytes", limit=limit)),
    )


async def _current_head(request: Request, match_id: str) -> tuple[int, str | None] | None:
    from starlette.concurrency import run_in_threadpool

    store = request.app.state.store
    try:
        head = await run_in_threadpool(store.head, match_id)
    except VwlogError:
        return None
    return head.seq, head.hash


__all__ = [
    "ERROR_RESPONSES",
    "EXCERPT",
    "TEXT_LIMIT",
    "bounded",
    "clipped",
    "detail_text",
    "error_answer",
    "error_status",
    "excerpt",
    "install",
    "internal_error_body",
    "request_language",
    "too_large_body",
    "vwlog_error_body",
]
