"""Published pools and rulesets kept in the store, on SQLite and PostgreSQL."""

from __future__ import annotations

from typing import TYPE_CHECKING

import orjson
import pytest

from tests.services.support import fresh_schema, postgres_dsn
from vwlog.io.pools import load_pool
from vwlog.model.errors import UsageError
from vwlog.services.publishing import publish_pool, publish_ruleset, store_registry
from vwlog.store import MatchStore

if TYPE_CHECKING:
    from collections.abc import Iterator
    from pathlib import Path


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """A fresh store on each backend."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'vwlog.db'}"
        return
    with fresh_schema(postgres_dsn()) as fresh:
        yield fresh


def test_published_definitions_are_kept_and_never_change(url: str, tmp_path: Path) -> None:
    pool = load_pool()
    errata = pool.model_copy(update={"cards": pool.cards[:10]})
    pool_file = tmp_path / "errata.json"
    pool_file.write_bytes(orjson.dumps(errata.model_dump(mode="json", by_alias=True)))
    rs_file = tmp_path / "cup.json"
    rs_file.write_bytes(orjson.dumps({"id": "cup", "version": 2, "hand_limit": 8}))
    with MatchStore.open(url) as store:
        item, stored = publish_pool(store, pool_file, "cup-pool@1")
        assert stored
        assert publish_pool(store, pool_file, "cup-pool@1")[1] is False
        ruleset, stored = publish_ruleset(store, rs_file)
        assert (ruleset.id, stored) == ("cup@2", True)
    with MatchStore.open(url) as store:
        registry = store_registry(store)
        assert registry.pools["cup-pool@1"].hash == item.hash
        assert registry.rulesets["cup@2"].ruleset.hand_limit == 8
        rs_file.write_bytes(orjson.dumps({"id": "cup", "version": 2, "hand_limit": 9}))
        with pytest.raises(UsageError, match="already published as 'cup@2'"):
            publish_ruleset(store, rs_file)
        assert store_registry(store).rulesets["cup@2"].ruleset.hand_limit == 8
        with pytest.raises(UsageError, match="packaged pool"):
            publish_pool(store, pool_file, "vw-sample-pool@1")
