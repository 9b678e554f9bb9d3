"""An outside record (one without hashes) sealed by an organiser or judge with their key, after
vwlog checked it: every verdict then says who sealed it, in validate, verify, the report, the
store and the service; a claim without its signature stands for nothing."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import TYPE_CHECKING

import orjson
import pytest

from tests.api.server import serving
from vwlog.cli import main
from vwlog.events import MatchSealed, RecordSigned
from vwlog.io.logfile import read_log, write_log
from vwlog.services import sealed
from vwlog.store.tokens import Role

if TYPE_CHECKING:
    from click.testing import CliRunner, Result

SAMPLES = Path(__file__).parents[2] / "samples"
SAMPLE = SAMPLES / "full-combat.jsonl"
ILLEGAL = SAMPLES / "invalid" / "damage-over-atk.jsonl"
BY_ALICE = "sealed after 237 records by organiser alice"


def _outside(path: Path, source: Path = SAMPLE) -> Path:
    """``source`` as another tool wrote it: no hashes, no seal."""
    lines = []
    for line in source.read_bytes().splitlines():
        data = orjson.loads(line)
        if data.get("event", {}).get("type") in ("match_sealed", "record_signed"):
            continue
        data.pop("hash", None)
        lines.append(orjson.dumps(data, option=orjson.OPT_SORT_KEYS))
    path.write_bytes(b"\n".join(lines) + b"\n")
    return path


def vw(runner: CliRunner, *args: object) -> Result:
    return runner.invoke(main, [str(a) for a in args])


@pytest.fixture
def keys(runner: CliRunner, tmp_path: Path) -> Path:
    for name in ("alice", "bob"):
        assert vw(runner, "keys", "create", name, "--dir", tmp_path / "keys").exit_code == 0
    (tmp_path / "other").mkdir()
    shutil.copy(tmp_path / "keys" / "bob.pub", tmp_path / "other" / "bob.pub")
    return tmp_path / "keys"


@pytest.fixture
def by_alice(runner: CliRunner, keys: Path, tmp_path: Path) -> Path:
    outside = _outside(tmp_path / "outside.jsonl")
    out = tmp_path / "sealed.jsonl"
    done = vw(
        runner, "seal", outside, "--key", keys / "alice.key", "--role", "organiser", "-o", out
    )
    assert done.exit_code == 0, done.output
    assert "sealed at seq 238 by organiser alice" in done.stdout
    return out


def test_an_outside_record_is_untrusted_and_stays_unsealed(
    runner: CliRunner, tmp_path: Path
) -> None:
    outside = _outside(tmp_path / "outside.jsonl")
    result = vw(runner, "validate", outside)
    assert result.exit_code == 1
    assert "UNTRUSTED" in result.stdout
    assert "no hash chain" in result.stdout


def test_sealed_by_an_organiser_every_verdict_says_who(
    runner: CliRunner, by_alice: Path, keys: Path, tmp_path: Path
) -> None:
    validated = vw(runner, "validate", by_alice)
    assert validated.exit_code == 0, validated.output
    assert f"chain intact · {BY_ALICE}" in validated.stdout
    as_json = json.loads(vw(runner, "validate", "--format", "json", by_alice).stdout)[0]
    assert as_json["verdict"] == "OK"
    assert as_json["integrity"]["seal"] == BY_ALICE
    assert as_json["reason"].endswith(BY_ALICE)
    verified = vw(runner, "verify", "--keyring", keys, by_alice)
    assert verified.exit_code == 0, verified.output
    assert f"seal: {BY_ALICE} (seq 238, line 239)" in verified.stdout
    assert "signed by alice (keyring: alice)" in verified.stdout
    assert "players" not in verified.stdout
    report = vw(runner, "report", by_alice)
    assert report.exit_code == 0, report.output
    assert BY_ALICE in report.stdout
    # stored, and exported again: the seal and its signature travel with the record
    store = tmp_path / "vwlog.db"
    assert vw(runner, "--store", store, "import", by_alice).exit_code == 0
    stored = vw(runner, "--store", store, "verify", "sample-full-combat")
    assert stored.exit_code == 0, stored.output
    assert BY_ALICE in stored.stdout
    back = tmp_path / "back.jsonl"
    assert vw(runner, "--store", store, "export", "sample-full-combat", "-o", back).exit_code == 0
    assert BY_ALICE in vw(runner, "validate", back).stdout


def test_a_judge_seals_as_a_judge(runner: CliRunner, keys: Path, tmp_path: Path) -> None:
    outside = _outside(tmp_path / "outside.jsonl")
    done = vw(runner, "seal", outside, "--key", keys / "bob.key", "--role", "judge")
    assert done.exit_code == 0, done.output
    result = vw(runner, "verify", outside)
    assert result.exit_code == 0
    assert "sealed after 237 records by judge bob" in result.stdout


def test_a_record_that_breaks_a_rule_is_not_sealed(
    runner: CliRunner, keys: Path, tmp_path: Path
) -> None:
    outside = _outside(tmp_path / "outside.jsonl", ILLEGAL)
    before = outside.read_bytes()
    done = vw(runner, "seal", outside, "--key", keys / "alice.key")
    assert done.exit_code == 1
    assert "not sealed: R-CMB-19 at seq 193" in done.stderr
    assert outside.read_bytes() == before


def test_the_claim_without_its_signature_stands_for_nothing(
    runner: CliRunner, by_alice: Path, tmp_path: Path
) -> None:
    header, records = read_log(by_alice)
    body = [r for r in records if not isinstance(r.event, RecordSigned)]
    assert isinstance(body[-1].event, MatchSealed)
    head, chained = sealed(header.model_copy(update={"hash": None}), body)
    unsigned = tmp_path / "unsigned.jsonl"
    write_log(unsigned, head, chained)
    result = vw(runner, "verify", unsigned)
    assert result.exit_code == 1
    assert "by organiser" not in result.stdout
    assert "the seal requires a signature by alice" in result.stdout
    assert "UNTRUSTED" in result.stdout


def test_a_keyring_without_the_sealers_key_hears_no_claim(
    runner: CliRunner, by_alice: Path, tmp_path: Path
) -> None:
    result = vw(runner, "verify", "--keyring", tmp_path / "other", by_alice)
    assert result.exit_code == 1
    assert "by organiser" not in result.stdout
    assert "UNTRUSTED" in result.stdout


def test_the_service_says_who_sealed_an_uploaded_record(by_alice: Path, tmp_path: Path) -> None:
    pytest.importorskip("fastapi", reason="the api extra is not installed")
    (tmp_path / "srv").mkdir()
    with serving(tmp_path / "srv") as server:
        server.token("organiser", Role.ORGANISER)
        with server.client("organiser") as c:
            stored = c.post(
                "/matches",
                content=by_alice.read_bytes(),
                headers={"Content-Type": "application/x-ndjson"},
            )
            assert stored.status_code == 201, stored.text
            match = stored.json()["match_id"]
            report = c.get(f"/matches/{match}/validation").json()
    assert report["verdict"] == "OK", report["reason"]
    assert report["reason"].endswith(BY_ALICE)
