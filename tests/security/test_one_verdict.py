"""One verdict through every door (DESIGN §8): every sample and every altered record the tests
build goes through ``vwlog validate`` (text and JSON), ``vwlog verify`` (text and JSON),
``vwlog report``, ``vwlog import`` into a real SQLite store (and what the store's list and
statistics then say), and a real server's ``/validation`` and ``/integrity``; all of them give
the same verdict and the same one reason.

The altered records (`tests.security.tampering`) cover every kind: card definitions edited and
sealed again, edited in place, truncated, an event edited and sealed again, a record appended
after the seal, a bad signature, a seal whose count is off by one, a broken chain.
"""

from __future__ import annotations

import json
import re
import secrets
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from tests.security.tampering import ROOT, SAMPLES, Variant, build_variants

if TYPE_CHECKING:
    from tests.api.server import Server

pytestmark = pytest.mark.filterwarnings("ignore::ResourceWarning")

VERDICTS = ("OK", "ILLEGAL", "INCOMPLETE", "UNTRUSTED")
ENV = {"VWLOG_LANG": "en", "LC_ALL": "C.UTF-8", "NO_COLOR": "1"}
"""The command line speaks English here (the server is asked in English too)."""


def _vwlog(*args: str, store: str | None = None) -> subprocess.CompletedProcess[str]:
    import os

    head = ["--store", store] if store is not None else []
    return subprocess.run(
        [sys.executable, "-m", "vwlog", *head, *args],
        capture_output=True,
        text=True,
        check=False,
        timeout=600,
        cwd=ROOT,
        env={**os.environ, **ENV},
    )


@dataclass(frozen=True)
class Judged:
    """What `vwlog validate --format json` says of one log: the reference every door meets."""

    verdict: str
    reason: str
    intact: bool
    complete: bool
    winner: str | None
    match_id: str


@dataclass
class Doors:
    """Every log, and what each command-line door said of it."""

    logs: list[Path]
    variants: dict[Path, Variant]
    validate: dict[str, Judged]
    validate_exit: int
    validate_text: str
    verify: dict[str, dict[str, Any]]
    verify_text: str
    reports: dict[str, dict[str, Any]]
    imported: subprocess.CompletedProcess[str]
    listed: list[dict[str, Any]]
    stats: dict[str, Any]


@pytest.fixture(scope="module")
def doors(tmp_path_factory: pytest.TempPathFactory) -> Doors:
    """The samples and the altered records, through every command-line door once."""
    work = tmp_path_factory.mktemp("one-verdict")
    tag = secrets.token_hex(4)
    variants = build_variants(work, tag, work / "keys")
    samples = sorted(SAMPLES.glob("*.jsonl")) + sorted((SAMPLES / "invalid").glob("*.jsonl"))
    logs = [*samples, *(v.path for v in variants)]
    names = [str(p) for p in logs]

    done = _vwlog("validate", "--format", "json", *names)
    assert done.returncode in (0, 1), done.stderr
    validate = {
        d["source"]: Judged(
            d["verdict"], d["reason"], d["intact"], d["complete"], d["winner"], d["match_id"]
        )
        for d in json.loads(done.stdout)
    }
    text = _vwlog("validate", *names)
    assert text.returncode == done.returncode, text.stderr

    verified = _vwlog("verify", "--format", "json", *names)
    assert verified.returncode in (0, 1), verified.stderr
    verify = {d["source"]: d for d in json.loads(verified.stdout)}
    verify_text = _vwlog("verify", *names)
    assert verify_text.returncode == verified.returncode

    batch = subprocess.run(
        [sys.executable, "-m", "tests.security.clibatch", "report", *names],
        capture_output=True,
        text=True,
        check=True,
        timeout=600,
        cwd=ROOT,
        env={**__import__("os").environ, **ENV},
    )
    reports = {d["log"]: d for d in json.loads(batch.stdout)}

    store = f"sqlite:///{work / 'vwlog.db'}"
    imported = _vwlog("import", *names, store=store)
    # the illegal samples are stored flagged (1); an altered chain is refused (2, the worst)
    assert imported.returncode in (1, 2), imported.stderr
    listed = _vwlog("list", "--format", "json", store=store)
    assert listed.returncode == 0, listed.stderr
    stats = _vwlog("stats", "--format", "json", store=store)
    assert stats.returncode == 0, stats.stderr
    return Doors(
        logs,
        {v.path: v for v in variants},
        validate,
        done.returncode,
        text.stdout,
        verify,
        verify_text.stdout,
        reports,
        imported,
        json.loads(listed.stdout),
        json.loads(stats.stdout),
    )


def _block(text: str, source: str) -> str:
    """The lines a multi-log text output gives one log (from its ``SOURCE:`` line to the next
    log's)."""
    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith(f"{source}: "))
    end = next(
        (i for i in range(start + 1, len(lines)) if re.match(r"^\S.*: ", lines[i])), len(lines)
    )
    return "\n".join(lines[start:end])


_VIOLATION_REASON = re.compile(r"^(R-[A-Z]+-\d+[a-z]?) at seq (\d+): (.*)$")


def _shows_reason(text: str, judged: Judged) -> None:
    """A text door shows the one reason: as its ``Reason:`` line, or, for an illegal record
    (whose text lists every violation first), as the first violation: its rule, its seq and
    its message."""
    if f"Reason: {judged.reason}" in text:
        return
    assert judged.verdict == "ILLEGAL", (judged.reason, text)
    found = _VIOLATION_REASON.match(judged.reason)
    assert found is not None, judged.reason
    rule, seq, message = found.groups()
    assert f"  {rule}  " in text
    assert f"at seq {seq}," in text
    assert message.removesuffix(" (by default)") in text


def _unmarked(markdown: str) -> str:
    """Markdown's escapes taken off again (the reason is escaped as literal text)."""
    text = re.sub(r"\\([\\`*_{}\[\]()#+\-.!|<>~'\"])", r"\1", markdown)
    return text.replace("&lt;", "<").replace("&gt;", ">").replace("&amp;", "&")


def test_the_altered_records_get_the_verdict_and_reason_of_their_kind(doors: Doors) -> None:
    kinds = {v.kind for v in doors.variants.values()}
    assert kinds == {
        "cards-resealed",
        "cards-edited",
        "truncated",
        "edit-resealed",
        "appended",
        "bad-signature",
        "seal-count",
        "chain-broken",
    }
    for path, variant in doors.variants.items():
        judged = doors.validate[str(path)]
        assert judged.verdict == variant.verdict, (variant.kind, judged)
        assert judged.reason.startswith(variant.reason_starts), (variant.kind, judged.reason)
    # every verdict occurs, and every sample is what it says it is
    seen = {j.verdict for j in doors.validate.values()}
    assert seen == set(VERDICTS)
    for log in doors.logs:
        if log.parent == SAMPLES:
            assert doors.validate[str(log)].verdict == "OK", log
        elif log.parent == SAMPLES / "invalid":
            assert doors.validate[str(log)].verdict == "ILLEGAL", log


def test_a_record_that_is_not_intact_is_never_complete_with_a_winner(doors: Doors) -> None:
    not_intact = [j for j in doors.validate.values() if not j.intact]
    assert {j.verdict for j in not_intact} >= {"UNTRUSTED"}
    for j in not_intact:
        assert j.complete is False
        assert j.winner is None
    # the records that were won and stay intact keep their winner
    resealed = next(v for v in doors.variants.values() if v.kind == "cards-resealed")
    assert doors.validate[str(resealed.path)].winner == "p1"
    # the store keeps no winner for them either, and the statistics leave them out
    by_id = {m["match_id"]: m for m in doors.listed}
    stored_not_intact = [j for j in not_intact if j.match_id in by_id]
    assert stored_not_intact
    for j in stored_not_intact:
        assert by_id[j.match_id]["winner"] is None
        assert by_id[j.match_id]["violations"] > 0 or j.verdict == "UNTRUSTED"
    corpus = doors.stats["corpus"]
    skipped = corpus["skipped"]
    assert skipped.get("record not intact (untrusted)") == len(stored_not_intact), skipped
    assert corpus["matches"] == len(doors.listed) - len(stored_not_intact)


def test_validate_text_and_json_agree(doors: Doors) -> None:
    ok = all(j.verdict == "OK" for j in doors.validate.values())
    assert doors.validate_exit == (0 if ok else 1)
    for log in doors.logs:
        judged = doors.validate[str(log)]
        block = _block(doors.validate_text, str(log))
        summary = block.splitlines()[-1]
        assert summary.startswith(f"  {judged.verdict} · "), (log, summary)
        if judged.verdict != "OK":
            _shows_reason(block, judged)
        if not judged.intact:
            assert "won by" not in summary


def test_verify_agrees_with_validate(doors: Doors) -> None:
    for log in doors.logs:
        judged = doors.validate[str(log)]
        out = doors.verify[str(log)]
        assert (out["verdict"], out["reason"]) == (judged.verdict, judged.reason), log
        block = _block(doors.verify_text, str(log))
        assert f"    verdict: {judged.verdict}\n    Reason: {judged.reason}" in block, block
        # the seal is named by its seq and line (and a count that does not fit, both counts)
        if out["seal_seq"] is not None:
            assert f"seq {out['seal_seq']}, line {out['seal_line']}" in block
    seal_count = next(v for v in doors.variants.values() if v.kind == "seal-count")
    block = _block(doors.verify_text, str(seal_count.path))
    assert "it counts 41 records, the record has 40 before it" in block


def test_report_agrees_with_validate(doors: Doors) -> None:
    words = {"OK": "ok", "ILLEGAL": "illegal", "INCOMPLETE": "incomplete", "UNTRUSTED": "untrusted"}
    for log in doors.logs:
        judged = doors.validate[str(log)]
        report = doors.reports[str(log)]
        assert report["exit"] == (0 if judged.verdict == "OK" else 1), (log, report["stderr"])
        text = _unmarked(report["stdout"])
        assert f"**Verdict: {words[judged.verdict]}**" in text, log
        assert f"\nReason: {judged.reason}\n" in text, (log, judged.reason)


def test_import_agrees_with_validate(doors: Doors) -> None:
    out, err = doors.imported.stdout, doors.imported.stderr
    by_id = {m["match_id"]: m for m in doors.listed}
    for log in doors.logs:
        judged = doors.validate[str(log)]
        variant = doors.variants.get(log)
        if variant is not None and variant.chain_broken:
            # refused, saying the same verdict and reason
            assert f"; its verdict, {judged.verdict}: {judged.reason}\n" in err, (log, err)
            assert judged.match_id not in by_id
            continue
        line = next(x for x in out.splitlines() if x.endswith(f"  {log}"))
        assert judged.match_id in by_id
        if judged.verdict == "OK":
            assert "FLAGGED" not in line, line
            assert "Reason:" not in line, line
            assert by_id[judged.match_id]["winner"] == judged.winner
        else:
            assert f" · {judged.verdict} · Reason: {judged.reason}  " in line, line
        if not judged.intact:
            assert "FLAGGED: the record is not intact" in line, line


def _upload(server: Server, log: Path) -> tuple[int, dict[str, Any]]:
    with server.client("organiser") as c:
        r = c.post(
            "/matches",
            content=log.read_bytes(),
            headers={"Content-Type": "application/x-ndjson", "Accept-Language": "en"},
        )
    return r.status_code, r.json()


def test_the_service_agrees_with_every_other_door(doors: Doors, server: Server) -> None:
    for log in doors.logs:
        judged = doors.validate[str(log)]
        variant = doors.variants.get(log)
        status, body = _upload(server, log)
        if variant is not None and variant.chain_broken:
            assert status == 422, body
            assert body["message"].endswith(f"; its verdict, {judged.verdict}: {judged.reason}")
            continue
        assert status in (200, 201), body
        match_id = body["match_id"]
        assert match_id == judged.match_id
        with server.client("organiser") as c:
            validation = c.get(f"/matches/{match_id}/validation?lang=en").json()
            integrity = c.get(f"/matches/{match_id}/integrity?lang=en").json()
        assert (validation["verdict"], validation["reason"]) == (judged.verdict, judged.reason)
        assert (integrity["verdict"], integrity["reason"]) == (judged.verdict, judged.reason)
        assert validation["intact"] == judged.intact
        assert validation["complete"] == judged.complete
        assert validation["winner"] == judged.winner
        assert integrity["seal_seq"] == doors.verify[str(log)]["seal_seq"]
        assert integrity["seal_line"] == doors.verify[str(log)]["seal_line"]
