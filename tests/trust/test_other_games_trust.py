"""The trust commands on the other games' records, through the real command line: ``seal``
(with the signatures it requires, and sealed by an organiser's key after the rules have
checked the record), ``sign`` and ``verify --keyring`` on a WoW TCG, an L5R and a miniatures
log; a signed record changed afterwards is no longer vouched for, and an illegal record is not
sealed by an organiser."""

from __future__ import annotations

import shutil
from pathlib import Path

import orjson
import pytest
from click.testing import CliRunner

from tests.trust.support import run

ROOT = Path(__file__).resolve().parents[2]
LEGAL = {
    "wowtcg": ROOT / "samples" / "wowtcg" / "extra-turn.jsonl",
    "l5r": ROOT / "samples" / "l5r" / "legal_tie.jsonl",
    "minis": ROOT / "samples" / "minis" / "legal_one_round.jsonl",
}
ILLEGAL = {
    "wowtcg": ROOT / "samples" / "wowtcg" / "illegal-pass-out-of-turn.jsonl",
    "l5r": ROOT / "samples" / "l5r" / "illegal_wrong_force.jsonl",
    "minis": ROOT / "samples" / "minis" / "illegal_second_reaction_after_aoo.jsonl",
}


@pytest.fixture
def keys(tmp_path: Path) -> Path:
    directory = tmp_path / "keys"
    for name in ("ana", "budi", "org"):
        created = run(CliRunner(), "keys", "create", name, "--dir", directory)
        assert created.exit_code == 0, created.output
    return directory


@pytest.mark.parametrize("game", sorted(LEGAL))
def test_seal_sign_and_verify_another_games_record(game: str, keys: Path, tmp_path: Path) -> None:
    runner = CliRunner()
    log = tmp_path / f"{game}.jsonl"
    shutil.copy(LEGAL[game], log)
    sealed = run(runner, "seal", log, "--require", "ana", "--require", "budi")
    assert sealed.exit_code == 0, sealed.output
    waiting = run(runner, "verify", "--keyring", keys, log)
    assert waiting.exit_code == 1, waiting.output
    assert "UNTRUSTED" in waiting.stdout
    for name in ("ana", "budi"):
        signed = run(runner, "sign", log, "--key", keys / f"{name}.key")
        assert signed.exit_code == 0, signed.output
    verified = run(runner, "verify", "--keyring", keys, log)
    assert verified.exit_code == 0, verified.output
    assert "signed by ana (keyring: ana)" in verified.stdout
    assert "signed by budi (keyring: budi)" in verified.stdout
    assert run(runner, "validate", "--keyring", keys, log).exit_code == 0
    # one field of one event changed after the signatures: the chain no longer holds
    lines = log.read_bytes().splitlines(keepends=True)
    record = orjson.loads(lines[2])
    field = next(k for k, v in record["event"].items() if k != "type" and isinstance(v, str))
    record["event"][field] += "x"
    lines[2] = orjson.dumps(record) + b"\n"
    log.write_bytes(b"".join(lines))
    broken = run(runner, "verify", "--keyring", keys, log)
    assert broken.exit_code != 0, broken.output
    assert "Traceback" not in broken.output


@pytest.mark.parametrize("game", sorted(ILLEGAL))
def test_an_organiser_seals_only_a_record_the_rules_accept(
    game: str, keys: Path, tmp_path: Path
) -> None:
    runner = CliRunner()
    legal, illegal = tmp_path / "legal.jsonl", tmp_path / "illegal.jsonl"
    shutil.copy(LEGAL[game], legal)
    shutil.copy(ILLEGAL[game], illegal)
    key = ["--key", keys / "org.key", "--role", "organiser"]
    assert run(runner, "seal", legal, *key).exit_code == 0
    refused = run(runner, "seal", illegal, *key)
    assert refused.exit_code == 1, refused.output
    verified = run(runner, "verify", "--keyring", keys, legal)
    assert verified.exit_code == 0, verified.output
    assert "organiser" in verified.stdout
