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
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from fastapi import HTTPException, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse

from vwlog.api.schemas import ErrorOut, ViolationOut
from vwlog.engine import notation
from vwlog.io.errors import NotPublishedError
from vwlog.io.i18n import language_from_accept, normalize_language, say, using_language
from vwlog.model.errors import (
    CardPoolError,
    DecisionSyntaxError,
    IllegalEventError,
    LogFormatError,
    MatchExistsError,
    MatchNotFoundError,
    SealedRecordError,
    SequenceConflictError,
    StoreConfigError,
    StoreError,
    VwlogError,
)
from vwlog.model.text import Msg

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
    503: "unavailable",
}

ERROR_RESPONSES: dict[int | str, dict[str, object]] = {
    code: {"model": ErrorOut, "description": name.replace("_", " ")}
    for code, name in _HTTP_CODES.items()
    if code in (400, 401, 403, 404, 409, 413, 422)
}
"""The error answers every route documents in OpenAPI."""


def _answer(
    status: int, body: ErrorOut, lang: str, headers: dict[str, str] | None = None
) -> JSONResponse:
    headers = {**(headers or {}), "Content-Language": lang}
    return JSONResponse(body.model_dump(mode="json"), status_code=status, headers=headers)


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
    return say(detail) if isinstance(detail, Msg) else str(detail)


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


def vwlog_error_body(err: VwlogError, store_head: tuple[int, str] | None = None) -> ErrorOut:
    """The JSON body of a `VwlogError`, its message in the active language."""
    status = error_status(err)
    message = say(err.text())
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
    if isinstance(err, (DecisionSyntaxError, notation.DecisionSyntaxError)):
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
        lang = request_language(request)
        with using_language(lang):
            body = vwlog_error_body(err, head)
        return _answer(error_status(err), body, lang)

    @app.exception_handler(HTTPException)
    async def _http(request: Request, err: HTTPException) -> JSONResponse:
        lang = request_language(request)
        with using_language(lang):
            message = detail_text(err.detail)
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
        message = str(first.get("msg", "invalid request")).lower()
        body = ErrorOut(
            error="invalid_request",
            message=f"{field}: {message}" if field else message,
            field=field or None,
        )
        return _answer(422, body, request_language(request))


async def _current_head(request: Request, match_id: str) -> tuple[int, str] | None:
    from starlette.concurrency import run_in_threadpool

    store = request.app.state.store
    try:
        head = await run_in_threadpool(store.head, match_id)
    except VwlogError:
        return None
    return head.seq, head.hash


__all__ = [
    "ERROR_RESPONSES",
    "detail_text",
    "error_status",
    "install",
    "request_language",
    "vwlog_error_body",
]
