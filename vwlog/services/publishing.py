"""Publishing card pools and rulesets: organisers' errata, under ids that never change content.

A file is read and checked before any store is opened (`pool_to_publish`,
`ruleset_to_publish`), so a bad file creates nothing; storing is a separate step
(`store_pool`, `store_ruleset`), refused when the id is taken by other content.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from vwlog.io import trust as io_trust
from vwlog.io.pools import load_pool
from vwlog.model.errors import UsageError
from vwlog.model.text import msg

if TYPE_CHECKING:
    from pathlib import Path

    from vwlog.io.trust import PublishedPool, PublishedRuleset, Registry
    from vwlog.store import MatchStore


def store_registry(store: MatchStore | None) -> Registry:
    """The packaged pool, the default ruleset and everything published into ``store``."""
    registry = io_trust.builtin_registry()
    if store is None:
        return registry
    for data in store.published("pool"):
        registry = registry.with_pool(io_trust.read_pool_document(data))
    for data in store.published("ruleset"):
        registry = registry.with_ruleset(io_trust.read_ruleset_document(data))
    return registry


def pool_to_publish(path: Path, pool_id: str) -> tuple[PublishedPool, bool]:
    """Read and check a card pool file to publish under ``pool_id``, before any store is
    opened: the pool, and whether it is the packaged pool of that id (nothing to store).

    Raises:
        CardPoolError: the file is not a valid pool.
        UsageError: the id is malformed, or built in with other content.
    """
    io_trust.check_published_id(pool_id, "pool")
    item = io_trust.published_pool(load_pool(path), pool_id)
    builtin = io_trust.builtin_registry().pools.get(pool_id)
    if builtin is not None:
        if builtin.hash == item.hash:
            return builtin, True
        raise UsageError(
            msg(
                "pool id {pool_id} is the packaged pool's; choose another id", pool_id=repr(pool_id)
            )
        )
    return item, False


def publish_pool(store: MatchStore, path: Path, pool_id: str) -> tuple[PublishedPool, bool]:
    """Publish a card pool file under ``pool_id``; whether it was stored (not already there).

    Raises:
        CardPoolError: the file is not a valid pool.
        UsageError: the id is malformed, built in, or taken by other content.
    """
    item, builtin = pool_to_publish(path, pool_id)
    return item, not builtin and store_pool(store, item)


def store_pool(store: MatchStore, item: PublishedPool) -> bool:
    """Store a pool `pool_to_publish` read; whether it was stored (not already there).

    Raises:
        UsageError: its id is taken by other content.
    """
    return store.publish("pool", item.id, io_trust.pool_document(item))


def ruleset_to_publish(path: Path) -> tuple[PublishedRuleset, bool]:
    """Read and check a ruleset file to publish under its ``id@version``, before any store is
    opened: the ruleset, and whether it is the built-in one of that id (nothing to store).

    Raises:
        UsageError: the file is unreadable or invalid, or built in with other content.
    """
    try:
        data = path.read_bytes()
    except OSError as err:
        raise UsageError(
            msg("{path}: cannot read ruleset: {strerror}", path=path, strerror=err.strerror)
        ) from err
    item = io_trust.published_ruleset(io_trust.parse_ruleset_bytes(data, str(path)))
    io_trust.check_published_id(item.id, "ruleset")
    builtin = io_trust.builtin_registry().rulesets.get(item.id)
    if builtin is not None:
        if builtin.hash == item.hash:
            return builtin, True
        raise UsageError(
            msg("ruleset {id} is built in; give your ruleset another id or version", id=item.id)
        )
    return item, False


def publish_ruleset(store: MatchStore, path: Path) -> tuple[PublishedRuleset, bool]:
    """Publish a ruleset file under its ``id@version``; whether it was stored.

    Raises:
        UsageError: the file is unreadable or invalid, or its id is taken by other content.
    """
    item, builtin = ruleset_to_publish(path)
    return item, not builtin and store_ruleset(store, item)


def store_ruleset(store: MatchStore, item: PublishedRuleset) -> bool:
    """Store a ruleset `ruleset_to_publish` read; whether it was stored (not already there).

    Raises:
        UsageError: its id is taken by other content.
    """
    return store.publish("ruleset", item.id, io_trust.ruleset_document(item))


__all__ = [
    "pool_to_publish",
    "publish_pool",
    "publish_ruleset",
    "ruleset_to_publish",
    "store_pool",
    "store_registry",
    "store_ruleset",
]
