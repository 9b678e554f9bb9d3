"""The key with which this installation vouches for what it derived and kept in a store.

Snapshots and catalog entries are caches of a match's records (and, for a catalog entry, of
facts of its import: who sealed the chain, the file's SHA-256, the verdict on it). Anyone who
can write the database can rewrite them, digests included; the records themselves are held by
their hash chain, but a snapshot or a catalog row is not. So vwlog tags each one it writes with
an HMAC-SHA256 under a key kept outside the database, and a reader uses a snapshot, or shows a
catalog entry unflagged, only when its tag checks out under that key.

The key is 32 random bytes (hex) in a file that only its owner may read: the file named by
``VWLOG_STORE_KEY`` if set, else ``$XDG_CONFIG_HOME/vwlog/store.key`` (``~/.config/vwlog``
when ``XDG_CONFIG_HOME`` is not set), created on first use. Every process and worker that
writes a store should share it (a service's workers on one machine do); a reader with another
key, or none, is not deceived: it replays the records instead of using a snapshot, and flags
the catalog entries it cannot vouch for.

The tag holds against whoever can write the database but cannot read the key file; whoever
can read the key file can forge tags (as whoever can edit vwlog's code can make it say
anything).
"""

from __future__ import annotations

import functools
import hashlib
import hmac
import os
import secrets
from pathlib import Path

KEY_ENV = "VWLOG_STORE_KEY"
"""The environment variable naming the key file."""

_KEY_BYTES = 32


def key_path() -> Path:
    """Where this process keeps its key (`KEY_ENV`, else the XDG configuration folder)."""
    named = os.environ.get(KEY_ENV)
    if named:
        return Path(named).expanduser()
    config = os.environ.get("XDG_CONFIG_HOME") or str(Path("~/.config").expanduser())
    return Path(config) / "vwlog" / "store.key"


def local_key() -> bytes | None:
    """This installation's key, created on first use; ``None`` when it can be neither read
    nor created (then nothing is vouched for, and readers replay records instead)."""
    return _load(str(key_path()))


@functools.cache
def _load(path: str) -> bytes | None:
    where = Path(path)
    try:
        return _read(where)
    except FileNotFoundError:
        pass
    except (OSError, ValueError):
        return None
    try:
        where.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        fresh = where.with_name(f".{where.name}.{os.getpid()}.{secrets.token_hex(4)}")
        descriptor = os.open(fresh, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(descriptor, "w") as out:
            out.write(secrets.token_hex(_KEY_BYTES) + "\n")
        try:
            os.link(fresh, where)  # atomic: of two processes creating it, one key wins
        except FileExistsError:
            pass
        finally:
            fresh.unlink()
        return _read(where)
    except (OSError, ValueError):
        return None


def _read(where: Path) -> bytes:
    key = bytes.fromhex(where.read_text(encoding="ascii").strip())
    if len(key) < _KEY_BYTES // 2:
        raise ValueError("key too short")
    return key


def tag(key: bytes | None, kind: str, *parts: bytes) -> str | None:
    """The HMAC-SHA256 (hex) of ``parts`` for ``kind`` under ``key``; ``None`` without a key."""
    if key is None:
        return None
    mac = hmac.new(key, kind.encode() + b"\0", hashlib.sha256)
    for part in parts:
        mac.update(len(part).to_bytes(8, "big"))
        mac.update(part)
    return mac.hexdigest()


def tag_holds(key: bytes | None, found: str | None, kind: str, *parts: bytes) -> bool:
    """Whether ``found`` is the tag of ``parts`` under ``key`` (never without a key or tag)."""
    wanted = tag(key, kind, *parts)
    if wanted is None or not isinstance(found, str):
        return False
    return hmac.compare_digest(wanted, found)


__all__ = ["KEY_ENV", "key_path", "local_key", "tag", "tag_holds"]
