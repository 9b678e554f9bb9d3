"""A stored match is judged as its export would be: chain, seal and signatures, on SQLite and
PostgreSQL."""

from __future__ import annotations

import shutil
from typing import TYPE_CHECKING

import orjson
import pytest

from tests.engines import WATCHES_CALLS
from tests.services.support import fresh_schema, postgres_dsn
from tests.trust.support import SAMPLES, resealed
from vwlog.cli import main
from vwlog.events import MatchSealed, RecordSigned
from vwlog.io.logfile import read_log, write_log
from vwlog.services import sealed

if TYPE_CHECKING:
    from collections.abc import Iterator
    from pathlib import Path

    from click.testing import CliRunner, Result

    from vwlog.events import EventRecord

SAMPLE = SAMPLES / "hand-limit.jsonl"


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """A fresh store on each backend."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'vwlog.db'}"
        return
    with fresh_schema(postgres_dsn()) as fresh:
        yield fresh


def vwlog(runner: CliRunner, url: str, *args: object) -> Result:
    return runner.invoke(main, ["--store", url, *map(str, args)])


@pytest.fixture
def keys(runner: CliRunner, tmp_path: Path) -> Path:
    directory = tmp_path / "keys"
    for name in ("alice", "bob"):
        assert vwlog(runner, "", "keys", "create", name, "--dir", directory).exit_code == 0
    return directory


@pytest.fixture
def signed(runner: CliRunner, keys: Path, tmp_path: Path) -> Path:
    path = tmp_path / "signed.jsonl"
    shutil.copy(SAMPLE, path)
    assert vwlog(runner, "", "sign", path, "--key", keys / "alice.key").exit_code == 0
    return path


def imported(runner: CliRunner, url: str, path: Path, status: int = 0) -> str:
    """Import ``path``: exit ``status`` (1: it is stored flagged, not intact)."""
    result = vwlog(runner, url, "import", path)
    assert result.exit_code == status, result.output
    return read_log(path)[0].match_id


def test_a_stored_match_shows_its_seal_and_who_signed(
    runner: CliRunner, url: str, signed: Path, keys: Path
) -> None:
    match_id = imported(runner, url, signed)
    result = vwlog(runner, url, "verify", "--keyring", keys, match_id)
    assert result.exit_code == 0, result.output
    assert "seal: sealed after " in result.stdout
    assert "signed by alice (keyring: alice)" in result.stdout
    as_json = vwlog(runner, url, "verify", "--format", "json", match_id)
    assert as_json.exit_code == 0, as_json.output
    (entry,) = orjson.loads(as_json.stdout)
    assert entry["integrity"]["sealed"] is True
    assert [s["signer"] for s in entry["integrity"]["signatures"]] == ["alice"]


def test_a_stored_match_not_signed_by_the_keyring_fails(
    runner: CliRunner, url: str, signed: Path, tmp_path: Path
) -> None:
    other = tmp_path / "other"
    assert vwlog(runner, url, "keys", "create", "carol", "--dir", other).exit_code == 0
    match_id = imported(runner, url, signed)
    result = vwlog(runner, url, "verify", "--keyring", other, match_id)
    assert result.exit_code == 1
    assert "unknown key" in result.stdout
    assert "no valid signature by a key of the keyring" in result.stdout


def _forged(signed: Path, out: Path) -> Path:
    """``signed`` altered at one event and re-sealed, its old signature kept after the new
    seal (the chain holds; the signature no longer fits the seal)."""
    signatures = [r for r in read_log(signed)[1] if isinstance(r.event, RecordSigned)]

    def alter(records: list[EventRecord]) -> list[EventRecord]:
        body = [r for r in records if not isinstance(r.event, MatchSealed | RecordSigned)]
        body[5] = body[5].model_copy(update={"at": "2024-01-01T00:00:00Z"})
        return body

    header, records = read_log(resealed(signed, out, alter))
    n = len(records)
    kept = [s.model_copy(update={"seq": n + i + 1, "hash": None}) for i, s in enumerate(signatures)]
    head, chained = sealed(header.model_copy(update={"hash": None}), [*records, *kept])
    write_log(out, head, chained)
    return out


def test_a_stored_record_altered_and_re_sealed_fails_verification(
    runner: CliRunner, url: str, signed: Path, keys: Path, tmp_path: Path
) -> None:
    match_id = imported(runner, url, _forged(signed, tmp_path / "forged.jsonl"), status=1)
    result = vwlog(runner, url, "verify", "--keyring", keys, match_id)
    assert result.exit_code == 1
    assert "chain intact" in result.stdout
    assert "signed by alice, key " in result.stdout
    assert result.stdout.count(": invalid") == 1
    assert "does not fit the seal" in result.stdout


def test_a_stored_match_without_a_seal_is_unsealed(
    runner: CliRunner, url: str, tmp_path: Path
) -> None:
    header, records = read_log(SAMPLE)
    cut = tmp_path / "cut.jsonl"
    body = [r for r in records if not isinstance(r.event, MatchSealed | RecordSigned)]
    head, chained = sealed(header.model_copy(update={"hash": None}), body[:-3])
    write_log(cut, head, chained)
    match_id = imported(runner, url, cut)
    result = vwlog(runner, url, "verify", match_id)
    assert result.exit_code == 1
    assert "seal: unsealed" in result.stdout
    file_result = runner.invoke(main, ["verify", str(cut)])
    assert file_result.exit_code == 1
    assert file_result.stdout.splitlines()[1:] == result.stdout.splitlines()[1:]


@WATCHES_CALLS
def test_verify_reads_and_hashes_a_stored_chain_once(
    runner: CliRunner, url: str, signed: Path, keys: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The chain, the catalog and derived data, the seal and the signatures all come from one
    read of the stored lines, each line hashed once."""
    from vwlog.io import codec
    from vwlog.store import MatchStore

    match_id = imported(runner, url, signed)
    reads: list[str] = []
    hashed: list[str] = []
    raw_lines, chain_hash = MatchStore.raw_lines, codec.chain_hash

    def counted_lines(
        self: MatchStore, match_id: str, *, gt: int = 0, lte: int | None = None
    ) -> Iterator[bytes]:
        reads.append(match_id)
        return raw_lines(self, match_id, gt=gt, lte=lte)

    def counted_hash(previous: str, body: bytes) -> str:
        hashed.append(previous)
        return chain_hash(previous, body)

    monkeypatch.setattr(MatchStore, "raw_lines", counted_lines)
    monkeypatch.setattr(codec, "chain_hash", counted_hash)
    result = vwlog(runner, url, "verify", "--keyring", keys, match_id)
    assert result.exit_code == 0, result.output
    assert reads == [match_id]
    assert len(hashed) == len(read_log(signed)[1])
