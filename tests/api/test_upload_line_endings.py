"""An upload whose lines end in CR LF (a log saved on Windows, sent by email) is the same log:
stored, and judged as its LF twin is, over real HTTP."""

from __future__ import annotations

from typing import TYPE_CHECKING

from tests.api.server import SAMPLES, serving
from vwlog.store.tokens import Role

if TYPE_CHECKING:
    from pathlib import Path

NDJSON = {"Content-Type": "application/x-ndjson"}


def test_a_crlf_upload_is_stored_and_ok(tmp_path: Path) -> None:
    crlf = (SAMPLES / "full-combat.jsonl").read_bytes().replace(b"\n", b"\r\n")
    with serving(tmp_path) as server:
        server.token("organiser", Role.ORGANISER)
        with server.client("organiser") as c:
            stored = c.post("/matches", content=crlf, headers=NDJSON)
            assert stored.status_code == 201, stored.text
            body = stored.json()
            match = body["match_id"]
            report = c.get(f"/matches/{match}/validation").json()
            chain = c.get(f"/matches/{match}/integrity").json()
    assert body["outcome"] == "stored"
    assert body["events"] == 238
    assert body["violations"] == 0
    assert report["verdict"] == "OK", report["reason"]
    assert chain["ok"] is True
    assert chain["broken"] is None
