"""Ed25519 signatures over the seal: keys, sign, verify --keyring, the store keeps them."""

from __future__ import annotations

import shutil
from typing import TYPE_CHECKING

import pytest

from tests.trust.support import SAMPLES, resealed, run
from vwlog.events import MatchSealed, RecordSigned
from vwlog.io.logfile import read_log, write_log
from vwlog.io.trust import load_keyring
from vwlog.services import sealed
from vwlog.services.trust import TrustOptions, check_integrity

if TYPE_CHECKING:
    from pathlib import Path

    from click.testing import CliRunner

    from vwlog.events import EventRecord

SAMPLE = SAMPLES / "hand-limit.jsonl"


@pytest.fixture
def keys(runner: CliRunner, tmp_path: Path) -> Path:
    """A key directory with alice and bob."""
    directory = tmp_path / "keys"
    for name in ("alice", "bob"):
        created = run(runner, "keys", "create", name, "--dir", directory)
        assert created.exit_code == 0, created.output
    return directory


@pytest.fixture
def signed(runner: CliRunner, keys: Path, tmp_path: Path) -> Path:
    """The sample signed by alice and bob."""
    path = tmp_path / "signed.jsonl"
    shutil.copy(SAMPLE, path)
    for name in ("alice", "bob"):
        result = run(runner, "sign", path, "--key", keys / f"{name}.key")
        assert result.exit_code == 0, result.output
    return path


def test_keys_create_and_list(runner: CliRunner, keys: Path) -> None:
    listed = run(runner, "keys", "list", "--dir", keys)
    assert listed.exit_code == 0
    names = [line.split()[0] for line in listed.stdout.splitlines()]
    assert names == ["alice", "bob"]
    assert (keys / "alice.key").stat().st_mode & 0o777 == 0o600
    again = run(runner, "keys", "create", "alice", "--dir", keys)
    assert again.exit_code == 2
    assert again.stderr.count("\n") == 1


def test_verify_with_a_keyring_says_who_signed(runner: CliRunner, signed: Path, keys: Path) -> None:
    result = run(runner, "verify", "--keyring", keys, signed)
    assert result.exit_code == 0, result.output
    assert "signed by alice (keyring: alice)" in result.stdout
    assert "signed by bob (keyring: bob)" in result.stdout
    assert result.stdout.count(": valid") == 2
    validated = run(runner, "validate", "--keyring", keys, signed)
    assert validated.exit_code == 0, validated.output
    assert "alice key " in validated.stdout


def test_a_keyring_without_the_signers_key_fails(
    runner: CliRunner, signed: Path, tmp_path: Path
) -> None:
    other = tmp_path / "other"
    assert run(runner, "keys", "create", "carol", "--dir", other).exit_code == 0
    result = run(runner, "verify", "--keyring", other, signed)
    assert result.exit_code == 1
    assert "unknown key" in result.stdout
    assert "no valid signature by a key of the keyring" in result.stdout


def _alter_at(index: int) -> Callable[[list[EventRecord]], list[EventRecord]]:
    def alter(records: list[EventRecord]) -> list[EventRecord]:
        body = [r for r in records if not isinstance(r.event, MatchSealed | RecordSigned)]
        record = body[index]
        body[index] = record.model_copy(update={"at": "2024-01-01T00:00:00Z"})
        kept = [r for r in records if isinstance(r.event, RecordSigned)]
        return [*body, *kept]  # keep the signatures; close_records drops them again

    return alter


def test_a_signed_record_altered_at_any_event_and_re_sealed_fails(
    signed: Path, keys: Path, tmp_path: Path
) -> None:
    """For every event: alter it, re-chain and re-seal; with the old signatures kept the
    signatures no longer fit, with them dropped the keyring finds no signature."""
    keyring = TrustOptions(keyring=load_keyring(keys))
    _header, records = read_log(signed)
    signatures = [r for r in records if isinstance(r.event, RecordSigned)]
    body = [r for r in records if not isinstance(r.event, MatchSealed | RecordSigned)]
    assert len(signatures) == 2
    passed = []
    for index in range(len(body)):
        dropped = resealed(signed, tmp_path / "dropped.jsonl", _alter_at(index))
        unsigned = check_integrity(dropped, keyring).integrity
        if unsigned.ok or "no valid signature by a key of the keyring" not in unsigned.problems:
            passed.append(("dropped", index))
        # keep the old signature records after the new seal
        h, resealed_records = read_log(dropped)
        n = len(resealed_records)
        kept = [
            s.model_copy(update={"seq": n + i + 1, "hash": None}) for i, s in enumerate(signatures)
        ]
        head, chained = sealed(h.model_copy(update={"hash": None}), [*resealed_records, *kept])
        forged = tmp_path / "kept.jsonl"
        write_log(forged, head, chained)
        integrity = check_integrity(forged, keyring).integrity
        statuses = [s.status for s in integrity.signatures]
        if integrity.ok or statuses != ["invalid", "invalid"]:
            passed.append(("kept", index))
    assert passed == []


def test_the_cli_fails_an_altered_and_re_sealed_signed_record(
    runner: CliRunner, signed: Path, keys: Path, tmp_path: Path
) -> None:
    forged = resealed(signed, tmp_path / "forged.jsonl", _alter_at(3))
    result = run(runner, "verify", "--keyring", keys, forged)
    assert result.exit_code == 1
    assert "no valid signature by a key of the keyring" in result.stdout


def test_a_signature_over_other_bytes_is_invalid_and_cannot_be_signed_over(
    runner: CliRunner, signed: Path, keys: Path, tmp_path: Path
) -> None:
    header, records = read_log(signed)
    seal = records[-3]
    assert isinstance(seal.event, MatchSealed)
    # alice's signature of another record's seal, put on this one in place of bob's
    alien_path = tmp_path / "alien.jsonl"
    shutil.copy(SAMPLES / "absolute-victory.jsonl", alien_path)
    assert run(runner, "sign", alien_path, "--key", keys / "alice.key").exit_code == 0
    alien = read_log(alien_path)[1][-1].event
    assert isinstance(alien, RecordSigned)
    moved = alien.model_copy(update={"seal": seal.seq})
    body = [*records[:-1], records[-1].model_copy(update={"event": moved})]
    head, chained = sealed(header.model_copy(update={"hash": None}), body)
    bad = tmp_path / "bad.jsonl"
    write_log(bad, head, chained)
    verified = run(runner, "verify", "--keyring", keys, bad)
    assert verified.exit_code == 1
    assert "key " in verified.stdout
    assert ": invalid" in verified.stdout
    before = bad.read_bytes()
    again = run(runner, "sign", bad, "--key", keys / "bob.key")
    assert again.exit_code == 2
    assert again.stderr.startswith("Error: ")
    assert again.stderr.count("\n") == 1
    assert bad.read_bytes() == before


def test_a_malformed_key_is_a_one_line_error_and_changes_nothing(
    runner: CliRunner, keys: Path, tmp_path: Path
) -> None:
    log = tmp_path / "log.jsonl"
    shutil.copy(SAMPLE, log)
    before = log.read_bytes()
    broken = tmp_path / "broken.key"
    broken.write_text("-----BEGIN PRIVATE KEY-----\nnot a key\n-----END PRIVATE KEY-----\n")
    result = run(runner, "sign", log, "--key", broken)
    assert result.exit_code == 2
    assert result.stderr.startswith(f"Error: {broken}: line 1: malformed private key")
    assert result.stderr.count("\n") == 1
    assert log.read_bytes() == before
    (keys / "mallory.pub").write_text("vwlog-ed25519 nothex mallory\n")
    ring = run(runner, "verify", "--keyring", keys, log)
    assert ring.exit_code == 2
    assert "malformed public key" in ring.stderr
    assert ring.stderr.count("\n") == 1


def test_an_unsealed_log_cannot_be_signed(runner: CliRunner, keys: Path, tmp_path: Path) -> None:
    lines = SAMPLE.read_bytes().splitlines(keepends=True)
    cut = tmp_path / "cut.jsonl"
    cut.write_bytes(b"".join(lines[:-1]))
    result = run(runner, "sign", cut, "--key", keys / "alice.key")
    assert result.exit_code == 2
    assert "cannot sign" in result.stderr
    assert cut.read_bytes() == b"".join(lines[:-1])


def test_the_store_keeps_signatures_byte_for_byte(
    runner: CliRunner, signed: Path, keys: Path, tmp_path: Path
) -> None:
    store = tmp_path / "vwlog.db"
    imported = run(runner, "import", signed, store=store)
    assert imported.exit_code == 0, imported.output
    header, _ = read_log(signed)
    out = tmp_path / "exported.jsonl"
    exported = run(runner, "export", header.match_id, "-o", out, store=store)
    assert exported.exit_code == 0, exported.output
    assert out.read_bytes() == signed.read_bytes()
    assert run(runner, "verify", "--keyring", keys, out).exit_code == 0


if TYPE_CHECKING:
    from collections.abc import Callable
