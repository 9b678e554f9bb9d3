"""Where the match store is when nobody names one: a per-user file, the same from any folder.

The store a command uses is, in order of precedence: the one named on the command line, else
the ``VWLOG_STORE`` environment variable, else the per-user default
``$XDG_DATA_HOME/vwlog/vwlog.db`` (``~/.local/share/vwlog/vwlog.db`` when ``XDG_DATA_HOME`` is
not set, as the XDG Base Directory specification says). Before, the default was ``vwlog.db`` in
the current folder, so matches seemed to vanish after a ``cd``; a ``vwlog.db`` left in the
current folder is no longer read unless named (`legacy_store` finds one, to say so).
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from contextlib import suppress
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

STORE_ENV = "VWLOG_STORE"
"""The environment variable naming the store (a path or URL)."""

LEGACY_STORE = "vwlog.db"
"""The default store of earlier versions: a file in the current folder."""

Source = Literal["option", "environment", "default"]
"""Where a store's name came from: the command line, `STORE_ENV`, or the per-user default."""


def data_home(env: Mapping[str, str] | None = None) -> Path:
    """``$XDG_DATA_HOME``, or ``~/.local/share`` when it is unset, empty or relative (the
    specification ignores a relative value)."""
    e = os.environ if env is None else env
    named = e.get("XDG_DATA_HOME", "")
    if named and os.path.isabs(named):
        return Path(named)
    return Path("~/.local/share").expanduser()


def default_store_path(env: Mapping[str, str] | None = None) -> Path:
    """The per-user default store: ``vwlog/vwlog.db`` in the XDG data folder."""
    return data_home(env) / "vwlog" / "vwlog.db"


@dataclass(frozen=True, slots=True)
class StoreLocation:
    """The store a process uses, and why that one."""

    url: str
    """The store's path or URL, as a store opener takes it."""
    source: Source
    """Where `url` came from."""


def store_location(named: str | None, env: Mapping[str, str] | None = None) -> StoreLocation:
    """The store to use: ``named`` (from the command line) if given, else `STORE_ENV`, else the
    per-user default (its folder created when missing, so the store can be created in it)."""
    e = os.environ if env is None else env
    if named:
        return StoreLocation(named, "option")
    if e.get(STORE_ENV):
        return StoreLocation(e[STORE_ENV], "environment")
    path = default_store_path(e)
    with suppress(OSError):  # opening the store then says which folder is missing
        path.parent.mkdir(parents=True, exist_ok=True)
    return StoreLocation(str(path), "default")


def legacy_store(location: StoreLocation, cwd: Path | None = None) -> Path | None:
    """A ``vwlog.db`` in the current folder that the default store no longer reads: found only
    when the store was not named and that file is not the default store itself."""
    if location.source != "default":
        return None
    here = (cwd or Path.cwd()) / LEGACY_STORE
    try:
        if here.is_file() and here.resolve() != Path(location.url).resolve():
            return here
    except OSError:
        return None
    return None


__all__ = [
    "LEGACY_STORE",
    "STORE_ENV",
    "Source",
    "StoreLocation",
    "data_home",
    "default_store_path",
    "legacy_store",
    "store_location",
]
