"""Access tokens of the HTTP service, stored hashed beside the matches.

A token is a random secret shown once, when it is created; the store keeps only its SHA-256, its
role (``organiser``, ``judge`` or ``player``), for a player the match and seat it is bound to,
and whether it was revoked. Tokens live in their own small table (``vwlog_tokens``) in the
store's database: the SQLite file of the store, or the store's PostgreSQL schema; a store in
memory keeps them in memory. Knows nothing of HTTP or of the rules.
"""

from __future__ import annotations

import hashlib
import secrets
from datetime import UTC, datetime
from enum import StrEnum
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel, ConfigDict

from vwlog.io.errors import TokenBindingError
from vwlog.model.errors import UsageError
from vwlog.model.text import msg
from vwlog.store.sidetable import SideTable

if TYPE_CHECKING:
    pass

TOKEN_TABLE = "vwlog_tokens"
"""The table that holds the tokens."""
TOKEN_PREFIX = "vwt_"
"""Every token starts with this, so a leaked one is easy to recognise."""


class Role(StrEnum):
    """Who a token speaks for."""

    ORGANISER = "organiser"
    """Runs the tournament: publishes pools and rulesets, records and uploads matches."""
    JUDGE = "judge"
    """Rules on disputes: writes rulings, reads every match in full."""
    PLAYER = "player"
    """Sits at one seat of one match: sees only that seat's knowledge of it while it runs."""


class TokenInfo(BaseModel):
    """A stored token, without its secret."""

    model_config = ConfigDict(frozen=True, extra="forbid", use_attribute_docstrings=True)

    id: str
    """Public id of the token (for listing and revoking)."""
    role: Role
    """Who the token speaks for."""
    match_id: str | None = None
    """For a player: the match the token is bound to."""
    seat: str | None = None
    """For a player: the seat (player id) the token is bound to."""
    label: str | None = None
    """A note of who holds it."""
    created: str
    """When it was created (ISO 8601, UTC)."""
    revoked: bool = False
    """Whether it was revoked (a revoked token opens nothing)."""


def token_hash(secret: str) -> str:
    """The SHA-256 of a token's secret, as stored.

    >>> token_hash("vwt_x")[:12]
    '611587540e10'
    """
    return hashlib.sha256(secret.encode()).hexdigest()


_COLUMNS = "id, role, match_id, seat, label, created, revoked"


def _info(row: tuple[Any, ...]) -> TokenInfo:
    return TokenInfo(
        id=row[0],
        role=Role(row[1]),
        match_id=row[2],
        seat=row[3],
        label=row[4],
        created=row[5],
        revoked=bool(row[6]),
    )


class TokenStore(SideTable):
    """The tokens of one store: create, list, revoke, look up by secret.

    Example:
        >>> with TokenStore.open("memory:") as tokens:
        ...     secret, info = tokens.create(Role.JUDGE, label="head judge")
        ...     tokens.lookup(secret) == info
        True
    """

    TABLE = TOKEN_TABLE
    COLUMNS = (
        "id TEXT PRIMARY KEY, hash TEXT NOT NULL UNIQUE, role TEXT NOT NULL, "
        "match_id TEXT, seat TEXT, label TEXT, created TEXT NOT NULL, "
        "revoked INTEGER NOT NULL DEFAULT 0"
    )
    WHAT = "tokens"
    LOCK = 7315402

    _memory: dict[str, tuple[str, TokenInfo]]
    """A store in memory's tokens: secret hash to (id, token)."""

    # -- operations ---------------------------------------------------------------------------

    def create(
        self,
        role: Role,
        *,
        match_id: str | None = None,
        seat: str | None = None,
        label: str | None = None,
    ) -> tuple[str, TokenInfo]:
        """Create a token; returns its secret (shown only now) and what is stored.

        Raises:
            TokenBindingError: a player token lacks its match or seat, or another role names
                one.
            StoreError: the database failed.
        """
        player = role == Role.PLAYER
        if not (match_id and seat) if player else (match_id or seat):
            raise TokenBindingError(role.value)
        secret = TOKEN_PREFIX + secrets.token_urlsafe(32)
        info = TokenInfo(
            id=secrets.token_hex(6),
            role=role,
            match_id=match_id,
            seat=seat,
            label=label,
            created=datetime.now(UTC).isoformat(timespec="seconds"),
        )
        row = (info.id, token_hash(secret), info.role.value, match_id, seat, label, info.created)
        if self._in_memory:
            with self._lock:
                self._memory[row[1]] = (info.id, info)
            return secret, info
        with self._cursor() as cur:
            cur.execute(
                f"INSERT INTO {self._table} (id, hash, role, match_id, seat, label, created, "
                f"revoked) VALUES ({self._marks(7)}, 0)",
                row,
            )
        return secret, info

    def list(self) -> list[TokenInfo]:
        """Every token, oldest first (revoked ones too).

        Raises:
            StoreError: the database failed.
        """
        if self._in_memory:
            with self._lock:
                return sorted((i for _, i in self._memory.values()), key=lambda i: i.created)
        with self._cursor() as cur:
            cur.execute(f"SELECT {_COLUMNS} FROM {self._table} ORDER BY created, id")
            return [_info(tuple(r)) for r in cur.fetchall()]

    def revoke(self, token_id: str) -> TokenInfo:
        """Revoke a token by its id; revoking twice is harmless.

        Raises:
            UsageError: no token has this id.
            StoreError: the database failed.
        """
        if self._in_memory:
            with self._lock:
                for key, (tid, info) in self._memory.items():
                    if tid == token_id:
                        revoked = info.model_copy(update={"revoked": True})
                        self._memory[key] = (tid, revoked)
                        return revoked
            raise UsageError(
                msg("no token {token_id} (see 'vwlog token list')", token_id=repr(token_id))
            )
        with self._cursor() as cur:
            cur.execute(
                f"UPDATE {self._table} SET revoked = 1 WHERE id = {self._marks(1)}", (token_id,)
            )
            cur.execute(
                f"SELECT {_COLUMNS} FROM {self._table} WHERE id = {self._marks(1)}", (token_id,)
            )
            row = cur.fetchone()
        if row is None:
            raise UsageError(
                msg("no token {token_id} (see 'vwlog token list')", token_id=repr(token_id))
            )
        return _info(tuple(row))

    def lookup(self, secret: str) -> TokenInfo | None:
        """The token with this secret, or ``None`` if none (or it was revoked).

        Raises:
            StoreError: the database failed.
        """
        digest = token_hash(secret)
        if self._in_memory:
            with self._lock:
                found = self._memory.get(digest)
            info = found[1] if found else None
        else:
            with self._cursor(locked=False) as cur:
                cur.execute(
                    f"SELECT {_COLUMNS} FROM {self._table} WHERE hash = {self._marks(1)}",
                    (digest,),
                )
                row = cur.fetchone()
            info = _info(tuple(row)) if row is not None else None
        if info is None or info.revoked:
            return None
        return info


__all__ = ["TOKEN_PREFIX", "Role", "TokenInfo", "TokenStore", "token_hash"]
