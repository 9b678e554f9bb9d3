"""Forgeries a cheating player would try, through the real command line and the real service:
a pool or ruleset edited and renamed to an id nobody published, then re-chained and re-sealed
(never plain OK: UNVERIFIED, exit 3, or worse); a record two players must sign signed by one
(UNTRUSTED, naming who is missing); and `verify`'s JSON and exit status, which must agree with
each other on every record, readable or not."""

from __future__ import annotations

import json
import secrets
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import httpx
import pytest
from click.testing import CliRunner

from tests.api.server import start
from tests.security.conftest import security_postgres, security_sqlite, server  # noqa: F401
from vwlog.cli import main
from vwlog.events import EventRecord, MatchStarted, PublishedRef
from vwlog.io.logfile import read_log, write_log
from vwlog.io.trust import cards_hash, published_ruleset, seal_event, strip_trailer
from vwlog.services import sealed
from vwlog.store.tokens import Role

if TYPE_CHECKING:
    from collections.abc import Callable

    from tests.api.server import Server
    from vwlog.model.cards import CardDef, Ruleset

SAMPLES = ("samples/absolute-victory.jsonl", "samples/full-combat.jsonl")
"""Legal, sealed samples with Followers in their pools."""


def _follower(card: CardDef) -> bool:
    return str(card.type).lower().endswith("follower")


def _cards(change: Callable[[CardDef], dict[str, Any]]) -> Callable[[list[CardDef]], list[CardDef]]:
    def edit(cards: list[CardDef]) -> list[CardDef]:
        return [c.model_copy(update=change(c)) if _follower(c) else c for c in cards]

    return edit


CARD_EDITS: dict[str, Callable[[list[CardDef]], list[CardDef]]] = {
    "atk+2": _cards(lambda c: {"atk": (c.atk or 0) + 2}),
    "def+1": _cards(lambda c: {"def_": (c.def_ or 0) + 1}),
    "cost-1": _cards(lambda c: {"cost": max(0, (c.cost or 0) - 1)}),
    "no-skills": _cards(lambda c: {"skills": ()}),
}
"""Edits to every Follower's definition, as a forger renaming the pool would make them."""

RULESET_EDITS: dict[str, dict[str, Any]] = {
    "hand_limit": {"hand_limit": 9},
    "victory_honor": {"victory_honor": 60},
    "victory_vp": {"victory_vp": 5},
    "deck_out_loses": {"deck_out_loses": True},
}
"""Flags a forger renaming the ruleset would change."""


@dataclass(frozen=True)
class Forgery:
    path: Path
    kind: str


def forge(
    source: str,
    out: Path,
    *,
    cards: Callable[[list[CardDef]], list[CardDef]] | None = None,
    flags: dict[str, Any] | None = None,
    match_id: str | None = None,
) -> Path:
    """``source`` with its cards or flags edited, the pool (and, for flags, the ruleset)
    renamed to ids nobody published, every hash recomputed and a fresh seal: what a forger
    with the library writes."""
    header, records = read_log(source)
    body = strip_trailer(records)
    start = body[0].event
    assert isinstance(start, MatchStarted)
    new_cards = cards(list(start.cards)) if cards is not None else list(start.cards)
    ruleset: Ruleset = start.ruleset
    if flags is not None:
        ruleset = ruleset.model_copy(update={"id": "spring-cup", **flags})
    forged = start.model_copy(
        update={
            "cards": tuple(new_cards),
            "ruleset": ruleset,
            "pool": PublishedRef(id="spring-cup@1", hash=cards_hash(new_cards)),
            "ruleset_ref": published_ruleset(ruleset).ref,
        }
    )
    body[0] = body[0].model_copy(update={"event": forged})
    renamed = {"hash": None} if match_id is None else {"hash": None, "match_id": match_id}
    head, chained = sealed(header.model_copy(update=renamed), body)
    seal = EventRecord(
        seq=len(chained) + 1, event=seal_event(forged, len(chained), chained[-1].hash or "")
    )
    head, tail = sealed(head, [*chained, seal])
    write_log(out, head, tail)
    return out


@pytest.fixture(scope="module")
def forgeries(tmp_path_factory: pytest.TempPathFactory) -> list[Forgery]:
    work = tmp_path_factory.mktemp("forgeries")
    made = []
    for n, source in enumerate(SAMPLES):
        for name, edit in CARD_EDITS.items():
            made.append(Forgery(forge(source, work / f"{n}-card-{name}.jsonl", cards=edit), name))
        for name, flags in RULESET_EDITS.items():
            made.append(Forgery(forge(source, work / f"{n}-flag-{name}.jsonl", flags=flags), name))
    return made


def _run(*args: str, env: dict[str, str] | None = None) -> tuple[int, str]:
    result = CliRunner().invoke(main, ["--lang", "en", *args], env=env, catch_exceptions=False)
    return result.exit_code, result.output


def test_renamed_pool_forgeries_never_print_plain_ok(forgeries: list[Forgery]) -> None:
    unverified = 0
    for forgery in forgeries:
        code, out = _run("validate", str(forgery.path))
        assert code != 0, out
        assert "\n  OK · " not in out, out
        code_json, text = _run("validate", "--format", "json", str(forgery.path))
        (entry,) = json.loads(text)
        assert entry["verdict"] != "OK"
        assert code_json == code
        if entry["verdict"] == "UNVERIFIED":
            unverified += 1
            assert code == 3, out
            assert "UNVERIFIED · " in out
            assert "nobody published" in entry["reason"], entry["reason"]
            assert "not published" in entry["reason"], entry["reason"]
        else:
            assert code == 1, out
        code, out = _run("verify", "--format", "json", str(forgery.path))
        (entry,) = json.loads(out)
        assert entry["ok"] is False
        assert code in (1, 3)
        assert code == (3 if entry["verdict"] == "UNVERIFIED" else 1)
    # the forgeries that stay legal under their own definitions are the ones that used to pass
    assert unverified >= 4


def test_the_samples_ruleset_is_published_so_the_samples_stay_ok() -> None:
    code, out = _run("validate", *SAMPLES)
    assert code == 0, out
    assert "published vw-samples@1" in out
    assert "WARNING" not in out


def test_a_renamed_forgery_fails_in_a_separate_process(forgeries: list[Forgery]) -> None:
    forgery = next(f for f in forgeries if f.kind == "hand_limit")
    done = subprocess.run(
        [sys.executable, "-m", "vwlog", "--lang", "en", "validate", str(forgery.path)],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 3, done.stdout + done.stderr
    assert "UNVERIFIED · " in done.stdout
    assert "Traceback" not in done.stderr


def test_trusting_the_logs_definitions_says_so(forgeries: list[Forgery]) -> None:
    forgery = next(f for f in forgeries if f.kind == "hand_limit")
    code, out = _run("validate", "--trust-log-definitions", str(forgery.path))
    assert code == 0, out
    assert "OK (under the log's own definitions, trusted as asked) · " in out
    code, out = _run("verify", "--trust-log-definitions", "--format", "json", str(forgery.path))
    (entry,) = json.loads(out)
    assert code == 0
    assert entry["ok"] is True
    assert entry["verdict"] == "OK"
    assert "trusted as asked" in entry["reason"]


def test_an_accepted_pools_setting_refuses_them_at_import(
    forgeries: list[Forgery], tmp_path: Path
) -> None:
    store = f"sqlite:///{tmp_path / 'cup.db'}"
    env = {"VWLOG_STORE": store, "VWLOG_ACCEPT_POOLS": "vw-sample-pool@2"}
    legal = [f for f in forgeries if f.kind == "hand_limit"][:1]
    code, out = _run("import", SAMPLES[0], str(legal[0].path), env=env)
    assert code != 0, out
    assert "not accepted here" in out, out
    code, listed = _run("list", env=env)
    assert "sample-absolute-victory" in listed
    assert legal[0].path.name not in listed
    # without the setting, an UNVERIFIED log is stored with its verdict
    plain = {"VWLOG_STORE": f"sqlite:///{tmp_path / 'open.db'}"}
    code, out = _run("import", str(legal[0].path), env=plain)
    assert "UNVERIFIED" in out, out
    assert "nobody published" in out, out
    code, listed = _run("list", "--format", "json", env=plain)
    (row,) = json.loads(listed)
    assert row["winner"] == "p1", row
    # a published pool the tournament does not accept is UNVERIFIED, not OK
    code, out = _run("validate", "--accept-pool", "vw-sample-pool@1", SAMPLES[0])
    assert code == 3, out
    assert "not accepted here" in out


def _upload(target: Server, log: Path) -> httpx.Response:
    with target.client("organiser") as c:
        return c.post(
            "/matches",
            content=log.read_bytes(),
            headers={"Content-Type": "application/x-ndjson", "Accept-Language": "en"},
        )


def test_the_service_gives_the_new_verdict(
    server: Server,  # noqa: F811 - the security tests' fixture
    tmp_path: Path,
) -> None:
    match_id = f"forged-{secrets.token_hex(4)}"
    forgery = forge(SAMPLES[0], tmp_path / "f.jsonl", flags={"victory_vp": 5}, match_id=match_id)
    _code, text = _run("validate", "--format", "json", str(forgery))
    (judged,) = json.loads(text)
    assert judged["verdict"] == "UNVERIFIED"
    r = _upload(server, forgery)
    assert r.status_code == 201, r.text
    assert r.json()["match_id"] == match_id
    with server.client("organiser") as c:
        validation = c.get(f"/matches/{match_id}/validation?lang=en").json()
        integrity = c.get(f"/matches/{match_id}/integrity?lang=en").json()
    assert validation["verdict"] == "UNVERIFIED", validation
    assert validation["reason"] == judged["reason"]
    assert "spring-cup" in validation["reason"]
    assert integrity["verdict"] == "UNVERIFIED", integrity
    assert integrity["reason"] == judged["reason"]


def test_a_service_that_names_its_pools_refuses_the_upload(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("VWLOG_ACCEPT_POOLS", "vw-sample-pool@2")
    monkeypatch.setenv("VWLOG_ACCEPT_RULESETS", "vw-samples@1,vw-default@1")
    cup = start(str(tmp_path / "cup.db"), tmp_path)
    try:
        cup.token("organiser", Role.ORGANISER)
        forgery = forge(SAMPLES[0], tmp_path / "f.jsonl", cards=CARD_EDITS["cost-1"])
        r = _upload(cup, forgery)
        assert r.status_code == 422, r.text
        assert "not accepted here" in r.json()["message"], r.text
        assert "UNVERIFIED" in r.json()["message"], r.text
        r = _upload(cup, Path(SAMPLES[1]))
        assert r.status_code == 201, r.text
        with cup.client("organiser") as c:
            listed = c.get("/matches").json()
        assert [m["match_id"] for m in listed["matches"]] == ["sample-full-combat"], listed
    finally:
        cup.stop()


# -- signatures ----------------------------------------------------------------------------------


@pytest.fixture
def keys(tmp_path: Path) -> Path:
    ring = tmp_path / "keys"
    for name in ("alice", "bob", "mallory"):
        code, out = _run("keys", "create", name, "--dir", str(ring))
        assert code == 0, out
    return ring


def test_one_signature_does_not_stand_in_for_two(keys: Path, tmp_path: Path) -> None:
    log = tmp_path / "m.jsonl"
    log.write_bytes(Path(SAMPLES[0]).read_bytes())
    code, out = _run("seal", str(log), "--require", "alice", "--require", "bob")
    assert code == 0, out
    code, out = _run("sign", str(log), "--key", str(keys / "alice.key"))
    assert code == 0, out
    assert "requires a signature by bob" in out, out
    done = subprocess.run(
        [sys.executable, "-m", "vwlog", "--lang", "en", "verify", "--keyring", str(keys), str(log)],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 1, done.stdout + done.stderr
    assert "verdict: UNTRUSTED" in done.stdout
    assert "requires a signature by bob" in done.stdout
    code, out = _run("verify", "--keyring", str(keys), "--format", "json", str(log))
    (entry,) = json.loads(out)
    assert code == 1
    assert entry["ok"] is False
    assert entry["verdict"] == "UNTRUSTED"
    assert "bob" in entry["reason"]
    # mallory's key named 'bob' in the log is not bob's: the keyring says whose key it is
    forged_bob = tmp_path / "forged"
    forged_bob.mkdir()
    (forged_bob / "bob.key").write_bytes((keys / "mallory.key").read_bytes())
    forged_bob.joinpath("bob.key").chmod(0o600)
    fake = tmp_path / "fake.jsonl"
    code, out = _run("sign", str(log), "--key", str(forged_bob / "bob.key"), "-o", str(fake))
    assert code == 0, out
    code, out = _run("verify", "--keyring", str(keys), str(fake))
    assert code == 1, out
    assert "requires a signature by bob" in out, out
    # both sign: OK
    code, out = _run("sign", str(log), "--key", str(keys / "bob.key"))
    assert code == 0, out
    code, out = _run("verify", "--keyring", str(keys), "--format", "json", str(log))
    (entry,) = json.loads(out)
    assert code == 0, entry
    assert entry["ok"] is True, entry
    assert entry["verdict"] == "OK", entry


def test_a_reseal_that_drops_the_required_signers_fails_verify_require(
    keys: Path, tmp_path: Path
) -> None:
    log = tmp_path / "m.jsonl"
    log.write_bytes(Path(SAMPLES[0]).read_bytes())
    code, out = _run("seal", str(log))
    assert code == 0, out
    code, out = _run("sign", str(log), "--key", str(keys / "alice.key"))
    assert code == 0, out
    args = ("verify", "--keyring", str(keys), "--require", "alice", "--require", "bob", str(log))
    code, out = _run(*args)
    assert code == 1, out
    assert "requires a signature by bob" in out, out


# -- verify's JSON and exit status -------------------------------------------------------------


def test_verify_json_ok_agrees_with_the_exit_status(forgeries: list[Forgery]) -> None:
    import glob

    logs = [*sorted(glob.glob("samples/*.jsonl")), *sorted(glob.glob("samples/invalid/*.jsonl"))]
    logs += [str(f.path) for f in forgeries]
    for log in logs:
        code, out = _run("verify", "--format", "json", log)
        (entry,) = json.loads(out)
        assert entry["ok"] is (code == 0), (log, code, entry["verdict"])
        assert entry["ok"] is (entry["verdict"] == "OK"), (log, entry["verdict"])


def test_verify_goes_on_past_an_unreadable_file(tmp_path: Path) -> None:
    bad = tmp_path / "bad.jsonl"
    bad.write_text("{not json\n", encoding="utf-8")
    good = SAMPLES[0]
    code, out = _run("verify", "--format", "json", good, str(bad), SAMPLES[1])
    entries = json.loads(out[out.index("[") :])
    assert code == 2
    assert [e["ok"] for e in entries] == [True, False, True]
    assert entries[1]["error"]
    assert entries[1]["verdict"] is None
    assert str(bad) in entries[1]["source"]
    done = subprocess.run(
        [sys.executable, "-m", "vwlog", "--lang", "en", "verify", good, str(bad), SAMPLES[1]],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 2
    assert done.stdout.count("verdict: OK") == 2, done.stdout
    assert "Error: " in done.stderr
    assert "Traceback" not in done.stderr
