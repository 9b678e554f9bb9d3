"""Store URLs (``--store`` / ``VWLOG_STORE``) turned into eventsourcing environments.

Three backends, one URL each:

- a plain path, or ``sqlite:///relative.db`` / ``sqlite:////absolute.db`` (SQLAlchemy's
  convention: the path is what follows the third slash) — an SQLite file, the default;
- ``postgresql://user:password@host:port/dbname`` (``postgres://`` too), optionally with
  ``?schema=NAME`` to keep vwlog's tables in their own schema — a shared PostgreSQL database;
- ``memory:`` — plain Python objects, gone when the store is closed (tests, scratch work).

The result is only the backend part of the environment; `MatchStore` adds its own keys (mapper,
transcoder, snapshots) and never reads ``os.environ``, so a store is configured by its URL alone.
"""

from __future__ import annotations

import getpass
import importlib.util
import os
import re
from urllib.parse import parse_qs, unquote, urlsplit

from vwlog.model.errors import StoreConfigError

SQLITE_LOCK_TIMEOUT = 30
"""Seconds an SQLite writer waits for another process's write transaction before failing.

eventsourcing's default is 5 s; an import of a long match holds the write lock for a second
or so, and a batch import by another process holds it once per match, so 30 s lets concurrent
importers queue up behind each other instead of failing with "database is locked".
"""
POSTGRES_CONNECT_TIMEOUT = 10
"""Seconds to wait for a PostgreSQL connection before giving up (eventsourcing's default is 30)."""
POSTGRES_POOL = (1, 9)
"""Connections a PostgreSQL store keeps open, and how many more it may open when busy.

eventsourcing keeps 5 open (plus 10); a CLI run needs one, and many runs share a server.
"""
POSTGRES_INSTALL_HINT = "PostgreSQL support is not installed: pip install 'vwlog[postgres]'"
"""What to do when the ``postgres`` extra is missing."""

_SQLITE_PREFIX = "sqlite:///"
_POSTGRES_SCHEMES = ("postgresql", "postgres")


def settings_from_url(url: str) -> dict[str, str]:
    """The eventsourcing environment for a store URL.

    >>> settings_from_url("memory:")
    {'PERSISTENCE_MODULE': 'eventsourcing.popo'}
    >>> settings_from_url("postgresql://vw@db.example:5433/matches?schema=club")["POSTGRES_SCHEMA"]
    'club'

    Raises:
        StoreConfigError: The URL has an unknown scheme, misses a part (database name, file
            path), names a directory that does not exist, has an unknown or malformed option,
            or asks for PostgreSQL while the ``postgres`` extra is not installed.
    """
    text = url.strip()
    if not text:
        raise StoreConfigError(
            url, "empty store URL: give a file path, sqlite:///…, postgresql://…"
        )
    if text == "memory:":
        return {"PERSISTENCE_MODULE": "eventsourcing.popo"}
    if text.startswith("sqlite:"):
        return _sqlite_settings(url, text)
    scheme = text.partition("://")[0].lower() if "://" in text else ""
    if scheme in _POSTGRES_SCHEMES:
        return _postgres_settings(url, text)
    if scheme:
        raise StoreConfigError(
            redact(url),
            f"unknown store scheme {scheme!r}: use a file path, sqlite:///…, postgresql://… "
            "or memory:",
        )
    return _sqlite_file(url, text, {})


def redact(url: str) -> str:
    """The URL with any password replaced by ``***``, for messages and logs.

    >>> redact("postgresql://vw:s3cret@db/matches")
    'postgresql://vw:***@db/matches'
    """
    if "://" not in url:
        return url
    parts = urlsplit(url)
    if parts.password is None:
        return url
    netloc = parts.netloc.rpartition("@")
    user = netloc[0].partition(":")[0]
    return parts._replace(netloc=f"{user}:***@{netloc[2]}").geturl()


def _sqlite_settings(url: str, text: str) -> dict[str, str]:
    if not text.startswith(_SQLITE_PREFIX):
        raise StoreConfigError(
            url, "an SQLite URL is sqlite:///relative/path.db or sqlite:////absolute/path.db"
        )
    path, _, query = text[len(_SQLITE_PREFIX) :].partition("?")
    options = _options(url, query, allowed=("timeout",))
    if not path:
        raise StoreConfigError(url, "no database file: sqlite:///path/to/vwlog.db")
    return _sqlite_file(url, unquote(path), options)


def _sqlite_file(url: str, path: str, options: dict[str, str]) -> dict[str, str]:
    if path == ":memory:" or path.startswith("file:"):
        raise StoreConfigError(url, "for a store in memory use 'memory:'")
    # eventsourcing opens SQLite with uri=True; an absolute path can never be read as a URI.
    full = os.path.abspath(os.path.expanduser(path))
    if os.path.isdir(full):
        raise StoreConfigError(url, f"{full!r} is a directory: name a database file in it")
    parent = os.path.dirname(full)
    if not os.path.isdir(parent):
        raise StoreConfigError(url, f"directory {parent!r} does not exist")
    timeout = options.get("timeout", str(SQLITE_LOCK_TIMEOUT))
    if not timeout.isdigit() or int(timeout) < 1:
        raise StoreConfigError(url, f"timeout must be a whole number of seconds, not {timeout!r}")
    return {
        "PERSISTENCE_MODULE": "eventsourcing.sqlite",
        "SQLITE_DBNAME": full,
        "SQLITE_LOCK_TIMEOUT": timeout,
    }


def _postgres_settings(url: str, text: str) -> dict[str, str]:
    shown = redact(url)
    if not all(importlib.util.find_spec(name) for name in ("psycopg", "psycopg_pool")):
        raise StoreConfigError(shown, POSTGRES_INSTALL_HINT)
    parts = urlsplit(text)
    options = _options(shown, parts.query, allowed=("schema",))
    dbname = unquote(parts.path.lstrip("/"))
    if not dbname or "/" in dbname:
        raise StoreConfigError(shown, "no database name: postgresql://user@host:5432/dbname")
    for what, value in (("database name", dbname), ("user", unquote(parts.username or ""))):
        if "\x00" in value:
            # libpq would cut the name at the NUL and open another database
            raise StoreConfigError(shown, f"the {what} contains a NUL character")
    try:
        port = parts.port
    except ValueError:
        raise StoreConfigError(shown, "the port is not a number") from None
    settings = {
        "PERSISTENCE_MODULE": "eventsourcing.postgres",
        "POSTGRES_DBNAME": dbname,
        # An empty host makes libpq use its default Unix socket, as psql does.
        "POSTGRES_HOST": parts.hostname or "",
        "POSTGRES_PORT": str(port or 5432),
        "POSTGRES_USER": unquote(parts.username) if parts.username else _login_name(),
        # eventsourcing insists on a password key; empty means trust or peer authentication.
        "POSTGRES_PASSWORD": unquote(parts.password) if parts.password else "",
        "POSTGRES_CONNECT_TIMEOUT": str(POSTGRES_CONNECT_TIMEOUT),
        "POSTGRES_POOL_SIZE": str(POSTGRES_POOL[0]),
        "POSTGRES_MAX_OVERFLOW": str(POSTGRES_POOL[1]),
    }
    if "schema" in options:
        settings["POSTGRES_SCHEMA"] = _schema_name(shown, options["schema"])
    return settings


_SCHEMA_NAME = re.compile(r"[a-z_][a-z0-9_]{0,56}")
"""At most 57 characters: the statistics view's schema appends ``_stats`` within 63."""
_RESERVED_SCHEMAS = ("information_schema", "pg_")


def _schema_name(url: str, schema: str) -> str:
    """The ``schema`` option, if it is a name the store can use.

    eventsourcing writes the name into its SQL unquoted, where PostgreSQL folds it to lower
    case: ``Upper`` would create tables in ``upper`` and then look for them in ``Upper``.
    The system schemas (``information_schema``, ``pg_*``) are not a place for matches.

    Raises:
        StoreConfigError: The name is not lower-case letters, digits and ``_`` (starting with
            a letter or ``_``, at most 63 characters), or names a system schema.
    """
    if _SCHEMA_NAME.fullmatch(schema) is None:
        raise StoreConfigError(
            url,
            f"schema {schema!r} is not a plain lower-case name (a-z, 0-9 and _, starting with "
            "a letter or _, at most 57 characters)",
        )
    if schema == _RESERVED_SCHEMAS[0] or schema.startswith(_RESERVED_SCHEMAS[1]):
        raise StoreConfigError(url, f"schema {schema!r} is a PostgreSQL system schema")
    return schema


def _options(url: str, query: str, *, allowed: tuple[str, ...]) -> dict[str, str]:
    try:
        parsed = parse_qs(query, keep_blank_values=True, strict_parsing=bool(query))
    except ValueError:
        raise StoreConfigError(url, f"malformed options {query!r}") from None
    options: dict[str, str] = {}
    for key, values in parsed.items():
        if key not in allowed:
            known = ", ".join(allowed)
            raise StoreConfigError(url, f"unknown option {key!r} (known: {known})")
        if len(values) != 1 or not values[0]:
            raise StoreConfigError(url, f"option {key!r} needs exactly one value")
        options[key] = values[0]
    return options


def _login_name() -> str:
    # libpq defaults the user to the login name; eventsourcing needs it spelled out.
    try:
        return getpass.getuser()
    except (OSError, KeyError):
        return "postgres"


__all__ = ["SQLITE_LOCK_TIMEOUT", "redact", "settings_from_url"]
