"""A write after a seal is refused (409, with the reason), over real HTTP on SQLite and on
PostgreSQL with two workers: an organiser's decisions appended to an uploaded, author-sealed
log, decisions after a finished match the service sealed, and a judge's ruling after either.
Nothing is written, and every door still gives the record's one verdict (the command line on
the export agrees with the service)."""

from __future__ import annotations

import json
import secrets
import subprocess
import sys
from typing import TYPE_CHECKING, Any

import pytest

from tests.security.conftest import new_live
from tests.security.tampering import ROOT, SAMPLES, fresh
from vwlog.io.logfile import write_log

if TYPE_CHECKING:
    from pathlib import Path

    from tests.api.server import Server

pytestmark = pytest.mark.filterwarnings("ignore::ResourceWarning")


def _refused(r: Any, match_id: str, seal: int, what: str) -> None:
    """A 409 that names the match, the seal's seq and why, in the one error shape."""
    assert r.status_code == 409, r.text
    body = r.json()
    assert body["error"] == "conflict", body
    assert f"match '{match_id}' is sealed at seq {seal}: " in body["message"], body
    assert what in body["message"], body


def _head(server: Server, match_id: str) -> tuple[int, str]:
    with server.client("organiser") as c:
        r = c.get(f"/matches/{match_id}")
    assert r.status_code == 200, r.text
    meta = r.json()
    return meta["events"], meta["head_hash"]


def _verdicts(server: Server, match_id: str) -> tuple[dict[str, Any], dict[str, Any]]:
    with server.client("judge") as c:
        validation = c.get(f"/matches/{match_id}/validation?lang=en")
        integrity = c.get(f"/matches/{match_id}/integrity?lang=en")
    assert validation.status_code == 200, validation.text
    assert integrity.status_code == 200, integrity.text
    return validation.json(), integrity.json()


def _command_line(server: Server, match_id: str, tmp_path: Path) -> dict[str, Any]:
    """What ``vwlog validate`` and ``vwlog verify`` say of the service's export."""
    with server.client("judge") as c:
        r = c.get(f"/matches/{match_id}/export")
    assert r.status_code == 200, r.text
    path = tmp_path / f"{match_id}.jsonl"
    path.write_bytes(r.content)
    out: dict[str, Any] = {}
    for command in ("validate", "verify"):
        done = subprocess.run(
            [sys.executable, "-m", "vwlog", command, "--format", "json", str(path)],
            capture_output=True,
            text=True,
            check=False,
            timeout=300,
            cwd=ROOT,
            env={**__import__("os").environ, "VWLOG_LANG": "en"},
        )
        assert done.returncode in (0, 1), done.stderr
        out[command] = json.loads(done.stdout)[0]
    return out


def _sealed_upload(server: Server, tmp_path: Path) -> tuple[str, int]:
    """An author-sealed record of an unfinished match, uploaded by the organiser: its id and
    its seal's seq."""
    match_id = f"sealed-{secrets.token_hex(5)}"
    header, records = fresh(SAMPLES / "full-combat.jsonl", match_id)
    path = tmp_path / f"{match_id}.jsonl"
    write_log(path, header, records)
    with server.client("organiser") as c:
        r = c.post(
            "/matches",
            content=path.read_bytes(),
            headers={"Content-Type": "application/x-ndjson"},
        )
    assert r.status_code == 201, r.text
    return match_id, records[-1].seq


def test_decisions_and_rulings_after_an_authors_seal_are_refused(
    server: Server, tmp_path: Path
) -> None:
    match_id, seal = _sealed_upload(server, tmp_path)
    before = _head(server, match_id)
    with server.client("organiser") as c:
        r = c.post(f"/matches/{match_id}/decisions", json={"decisions": ["p1: pass"]})
        _refused(r, match_id, seal, "only signatures may follow a seal")
        r = c.post(f"/matches/{match_id}/decisions", json={"decisions": [], "auto": 5})
        _refused(r, match_id, seal, "only signatures may follow a seal")
    with server.client("judge") as c:
        r = c.post(f"/matches/{match_id}/rulings", json={"kind": "WARNING", "reason": "late"})
        _refused(r, match_id, seal, "a ruling after the seal")
    assert _head(server, match_id) == before  # nothing was written
    validation, integrity = _verdicts(server, match_id)
    assert validation["verdict"] == integrity["verdict"] == "OK", validation
    assert validation["reason"] == integrity["reason"]
    assert integrity["seal_seq"] == seal


def test_a_finished_match_is_sealed_and_nothing_follows_its_seal(
    server: Server, tmp_path: Path
) -> None:
    match_id, seats = new_live(server)
    with server.client("organiser") as c:
        r = c.post(f"/matches/{match_id}/decisions", json={"decisions": ["p2: concede"]})
        assert r.status_code == 200, r.text
    validation, integrity = _verdicts(server, match_id)
    assert validation["verdict"] == "OK", validation
    assert validation["complete"] is True
    assert validation["winner"] == "p1"
    seal = integrity["seal_seq"]
    assert seal is not None
    before = _head(server, match_id)
    assert before[0] == seal  # the service sealed the record when the match ended
    with server.client("organiser") as c:
        r = c.post(f"/matches/{match_id}/decisions", json={"decisions": ["p1: pass"]})
        _refused(r, match_id, seal, "only signatures may follow a seal")
    with server.client(seats["p1"]) as c:  # the winner's own token cannot add to it either
        r = c.post(f"/matches/{match_id}/decisions", json={"decisions": ["p1: pass"]})
        assert r.status_code in (403, 409), r.text
    with server.client("judge") as c:
        r = c.post(
            f"/matches/{match_id}/rulings",
            json={"kind": "GAME_LOSS", "reason": "marked cards found afterwards", "loser": "p1"},
        )
        _refused(r, match_id, seal, "a ruling after the seal")
    assert _head(server, match_id) == before
    # every door explains the record the same way: the service, and the command line on its
    # export
    after, integrity = _verdicts(server, match_id)
    assert (after["verdict"], after["reason"]) == (validation["verdict"], validation["reason"])
    assert (integrity["verdict"], integrity["reason"]) == (after["verdict"], after["reason"])
    cli = _command_line(server, match_id, tmp_path)
    for command in ("validate", "verify"):
        said = cli[command]
        assert (said["verdict"], said["reason"]) == (after["verdict"], after["reason"]), command
    assert cli["validate"]["winner"] == "p1"
