"""What routes depend on: the open store, the tokens, the signer, and access.

Access is declared on the route: ``Depends(require(Role.JUDGE))`` for a role, and
`match_access` for reading one match (finished matches are public; a match in progress needs
a token, and a player's token gets only its own seat's knowledge of its own match).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Annotated, Literal

from fastapi import Depends, Header, HTTPException, Query, Request, Response

from vwlog.api.errors import request_language
from vwlog.api.signing import Signer
from vwlog.model.text import msg
from vwlog.store import MatchMeta, MatchStore
from vwlog.store.idempotency import IdempotencyStore
from vwlog.store.tokens import Role, TokenInfo, TokenStore

if TYPE_CHECKING:
    from collections.abc import Callable

    from vwlog.api.settings import ApiSettings


def get_store(request: Request) -> MatchStore:
    """The match store the service opened at start-up."""
    store: MatchStore = request.app.state.store
    return store


def get_tokens(request: Request) -> TokenStore:
    """The token table of the store."""
    tokens: TokenStore = request.app.state.tokens
    return tokens


def get_idempotency(request: Request) -> IdempotencyStore:
    """The idempotency keys of the store (opened at the first append that names one; its table
    is created if it is missing)."""
    keys: IdempotencyStore | None = getattr(request.app.state, "idempotency", None)
    if keys is None:
        keys = IdempotencyStore.open(get_settings(request).store)
        request.app.state.idempotency = keys
    return keys


def get_signer(request: Request) -> Signer:
    """The key that signs receipts."""
    signer: Signer = request.app.state.signer
    return signer


def get_settings(request: Request) -> ApiSettings:
    """The service's settings."""
    settings: ApiSettings = request.app.state.settings
    return settings


async def language(
    request: Request,
    response: Response,
    lang: Annotated[
        Literal["en", "id"] | None,
        Query(description="the language of the sentences (default: from Accept-Language)"),
    ] = None,
) -> str:
    """The language a route's sentences are said in: ``lang``, else the ``Accept-Language``
    the request carries (English when it names no language vwlog speaks). The answer says
    which (``Content-Language``) and that it depends on the header (``Vary``)."""
    chosen = lang or request_language(request)
    response.headers["Content-Language"] = chosen
    response.headers["Vary"] = "Accept-Language"
    return chosen


async def _store(request: Request) -> MatchStore:
    return get_store(request)


async def _signer(request: Request) -> Signer:
    return get_signer(request)


# A dependency that only reads the application's state is a coroutine: FastAPI runs a plain
# function in a worker thread, and the hop cost more than the rest of a cached board's answer.
StoreDep = Annotated[MatchStore, Depends(_store)]
SignerDep = Annotated[Signer, Depends(_signer)]
IdempotencyDep = Annotated[IdempotencyStore, Depends(get_idempotency)]
LanguageDep = Annotated[str, Depends(language)]


def principal(
    request: Request,
    authorization: Annotated[
        str | None, Header(description="``Bearer <token>`` (see ``vwlog token create``)")
    ] = None,
) -> TokenInfo | None:
    """The token presented, or ``None`` without one.

    Raises:
        HTTPException: 401 for a malformed header or an unknown or revoked token.
    """
    if authorization is None:  # the token table is asked only when a token is presented
        return None
    info = token_of(get_tokens(request), authorization)
    if info is not None:
        request.state.role = str(info.role)
    return info


def token_of(tokens: TokenStore, authorization: str | None) -> TokenInfo | None:
    """The token an ``Authorization`` header presents, or ``None`` without one.

    Raises:
        HTTPException: 401 for a malformed header or an unknown or revoked token.
    """
    if authorization is None:
        return None
    scheme, _, secret = authorization.partition(" ")
    if scheme.lower() != "bearer" or not secret.strip():
        raise HTTPException(401, msg("the Authorization header must be 'Bearer <token>'"))
    info = tokens.lookup(secret.strip())
    if info is None:
        raise HTTPException(401, msg("unknown or revoked token"))
    return info


PrincipalDep = Annotated[TokenInfo | None, Depends(principal)]


def require(*roles: Role) -> Callable[..., TokenInfo]:
    """A dependency that lets only tokens of ``roles`` through (401 without a token, 403 with
    another role)."""

    def check(who: PrincipalDep) -> TokenInfo:
        if who is None:
            raise HTTPException(401, msg("this needs a token (Authorization: Bearer <token>)"))
        if who.role not in roles:
            allowed = " or ".join(str(r) for r in roles)
            raise HTTPException(
                403,
                msg(
                    "this needs a {allowed} token, not a {role} token",
                    allowed=allowed,
                    role=who.role,
                ),
            )
        return who

    return check


def is_finished(meta: MatchMeta) -> bool:
    """Whether a stored match is over (won, conceded, lost by a ruling): then it is public."""
    return meta.winner is not None or meta.victory is not None


@dataclass(frozen=True, slots=True)
class MatchAccess:
    """How the caller may read one match."""

    match_id: str
    meta: MatchMeta
    viewer: str | None
    """``None``: the full record; otherwise only this seat's knowledge of it."""
    who: TokenInfo | None


def match_access(match_id: str, store: StoreDep, who: PrincipalDep) -> MatchAccess:
    """Read access to ``match_id``.

    Raises:
        MatchNotFoundError: no such match (404).
        HTTPException: 401 for a match in progress without a token, 403 for a player's token
            of another match.
    """
    meta = store.meta(match_id)
    if is_finished(meta):
        return MatchAccess(match_id, meta, None, who)
    if who is None:
        raise HTTPException(
            401,
            msg(
                "match {match_id} is in progress: reading it needs a token", match_id=repr(match_id)
            ),
        )
    return _access(match_id, meta, who)


def _access(match_id: str, meta: MatchMeta, who: TokenInfo) -> MatchAccess:
    """``who``'s access to ``match_id``: a player's token only to its own match, at its seat.

    Raises:
        HTTPException: 403 for a player's token of another match.
    """
    if who.role == Role.PLAYER:
        if who.match_id != match_id:
            raise HTTPException(
                403,
                msg(
                    "this player token is for another match, not {match_id}",
                    match_id=repr(match_id),
                ),
            )
        return MatchAccess(match_id, meta, who.seat, who)
    return MatchAccess(match_id, meta, None, who)


AccessDep = Annotated[MatchAccess, Depends(match_access)]


def match_writer(match_id: str, store: StoreDep, who: PrincipalDep) -> MatchAccess:
    """Write access (appending decisions) to ``match_id``: organisers and judges, and a
    player's token for its own match (held to its seat by `vwlog.services.seats`).

    Raises:
        MatchNotFoundError: no such match (404).
        HTTPException: 401 without a token, 403 for a player's token of another match.
    """
    if who is None:
        raise HTTPException(401, msg("appending needs a token (Authorization: Bearer <token>)"))
    meta = store.meta(match_id)
    return _access(match_id, meta, who)


WriterDep = Annotated[MatchAccess, Depends(match_writer)]

__all__ = [
    "AccessDep",
    "IdempotencyDep",
    "LanguageDep",
    "MatchAccess",
    "PrincipalDep",
    "SignerDep",
    "StoreDep",
    "WriterDep",
    "get_idempotency",
    "get_settings",
    "get_signer",
    "get_store",
    "get_tokens",
    "is_finished",
    "language",
    "match_access",
    "match_writer",
    "principal",
    "require",
    "token_of",
]
