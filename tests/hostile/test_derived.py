"""The store's derived data cannot lie: 43 direct edits of a stored match, made as someone with
database access but without this installation's key would make them (plain ``sqlite3`` on the
file, psycopg on the PostgreSQL schema), and every reading command run on the result.

The edits cover the stored event payloads (altered with and without their hashes recomputed, a
tail re-hashed with the catalog's head to match, rows deleted, swapped, added), the snapshots
(gold raised with the digest recomputed, one planted at seq 150, moved, cut, garbage), and the
catalog row (``seal`` both ways, ``source_sha256``, the winner, the head, the event count, the
verdict, the statistics, the tags themselves). After each one, ``show``, ``list``,
``export``, ``replay``, ``verify`` and ``stats`` must either say what the pristine store says,
or flag it: a non-zero exit with an ``Error:`` line, a ``WARNING`` line, an ``UNVOUCHED`` row,
``"vouched": false`` — never forged data presented as the match with exit 0. ``verify`` must
fail on every edit but the harmless ones (snapshots deleted: a cache dropped).
"""

from __future__ import annotations

import hashlib
import re
import shutil
import sqlite3
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any
from uuid import uuid4

import orjson
import pytest
from click.testing import CliRunner

from tests.store.pg import postgres_server
from vwlog.cli import main
from vwlog.io import codec
from vwlog.store.mapping import VOUCH_PREFIX, catalog_uuid, match_uuid

if TYPE_CHECKING:
    from collections.abc import Callable, Iterator

SEED = 21
MATCHES = 6
TURNS = 14
"""Match 5 of seed 21 is won at about 1,030 events; the other five are not."""
PLANTED = 150
"""The seq a forged snapshot is planted at (between two real ones, taken every 100)."""


# -- the database, as an attacker reaches it -------------------------------------------------


@dataclass
class Db:
    """Plain SQL on a store's two tables: ``events`` (records and catalog) and
    ``snapshots``."""

    url: str

    @property
    def sqlite(self) -> bool:
        return not self.url.startswith("postgresql")

    def _run(self, query: str, *args: object) -> list[tuple[Any, ...]]:
        if self.sqlite:
            tables = {"events": "stored_events", "snapshots": "stored_snapshots"}
            path = self.url.removeprefix("sqlite:///")
            with sqlite3.connect(path) as conn:
                return conn.execute(query.format(**tables).replace("%s", "?"), args).fetchall()
        import psycopg

        dsn, _, schema = self.url.partition("?schema=")
        tables = {"events": f"{schema}.vwlog_events", "snapshots": f"{schema}.vwlog_snapshots"}
        with psycopg.connect(dsn, autocommit=True) as conn:
            cursor = conn.execute(query.format(**tables), args)
            return cursor.fetchall() if cursor.description else []

    def _oid(self, uuid: Any) -> Any:
        return uuid.hex if self.sqlite else uuid

    def rows(self, table: str, uuid: Any) -> dict[int, bytes]:
        found = self._run(
            f"SELECT originator_version, state FROM {{{table}}} WHERE originator_id = %s",
            self._oid(uuid),
        )
        return {int(v): bytes(s) for v, s in found}

    def put(self, table: str, uuid: Any, version: int, state: bytes) -> None:
        self._run(
            f"UPDATE {{{table}}} SET state = %s WHERE originator_id = %s "
            "AND originator_version = %s",
            state,
            self._oid(uuid),
            version,
        )

    def delete(self, table: str, uuid: Any, version: int | None = None) -> None:
        where = "" if version is None else f" AND originator_version = {int(version)}"
        self._run(f"DELETE FROM {{{table}}} WHERE originator_id = %s{where}", self._oid(uuid))

    def insert(self, table: str, uuid: Any, version: int, topic: str, state: bytes) -> None:
        self._run(
            f"INSERT INTO {{{table}}} (originator_id, originator_version, topic, state) "
            "VALUES (%s, %s, %s, %s)",
            self._oid(uuid),
            version,
            topic,
            state,
        )

    def renumber(self, table: str, uuid: Any, old: int, new: int) -> None:
        self._run(
            f"UPDATE {{{table}}} SET originator_version = %s WHERE originator_id = %s "
            "AND originator_version = %s",
            new,
            self._oid(uuid),
            old,
        )

    def topic(self, uuid: Any, version: int) -> str:
        [(topic,)] = self._run(
            "SELECT topic FROM {events} WHERE originator_id = %s AND originator_version = %s",
            self._oid(uuid),
            version,
        )
        return str(topic)


@dataclass
class Match:
    """The stored match the edits are made on."""

    db: Db
    match_id: str

    @property
    def oid(self) -> Any:
        return match_uuid(self.match_id)

    @property
    def cid(self) -> Any:
        return catalog_uuid(self.match_id)

    def records(self) -> dict[int, bytes]:
        return self.db.rows("events", self.oid)

    def record(self, seq: int) -> dict[str, Any]:
        data: dict[str, Any] = orjson.loads(self.records()[seq])
        return data

    def put_record(self, seq: int, data: dict[str, Any], *, rehash: bool) -> None:
        if rehash:
            previous = self.record(seq - 1)["hash"] if seq > 1 else self.header()["hash"]
            data = _hashed(previous, data)
        self.db.put("events", self.oid, seq, codec.canonical(data))

    def rehash_from(self, seq: int) -> None:
        """Re-chain every record from ``seq`` on, and set the catalog's head to match (as a
        forger rewriting the tail would)."""
        records = self.records()
        previous = records[seq - 1] if seq > 1 else None
        head = orjson.loads(previous)["hash"] if previous else self.header()["hash"]
        for at in range(seq, max(records) + 1):
            data = _hashed(head, orjson.loads(records[at]))
            head = data["hash"]
            self.db.put("events", self.oid, at, codec.canonical(data))
        self.edit_meta(lambda m: m.update(head_hash=head, events=max(records)))

    def header(self) -> dict[str, Any]:
        header: dict[str, Any] = orjson.loads(self.db.rows("events", self.cid)[1])["header"]
        return header

    def registration(self) -> dict[str, Any]:
        data: dict[str, Any] = orjson.loads(self.db.rows("events", self.cid)[1])
        return data

    def put_registration(self, data: dict[str, Any]) -> None:
        self.db.put("events", self.cid, 1, orjson.dumps(data, option=orjson.OPT_SORT_KEYS))

    def edit_meta(self, edit: Callable[[dict[str, Any]], object]) -> None:
        data = self.registration()
        edit(data["meta"])
        self.put_registration(data)

    def snapshots(self) -> dict[int, bytes]:
        return self.db.rows("snapshots", self.oid)


def _hashed(previous: str, data: dict[str, Any]) -> dict[str, Any]:
    body = {k: v for k, v in data.items() if k != "hash"}
    return {**body, "hash": codec.chain_hash(previous, codec.canonical(body))}


def _split_snapshot(state: bytes) -> tuple[bytes, list[bytes]]:
    """A stored snapshot's tag line (or ``b""``) and its four parts: magic, record hash,
    digest, payload."""
    tag = b""
    if state.startswith(VOUCH_PREFIX):
        line, _, state = state.partition(b"\n")
        tag = line + b"\n"
    magic, _, rest = state.partition(b"\n")
    record_hash, _, rest = rest.partition(b"\n")
    digest, _, payload = rest.partition(b"\n")
    return tag, [magic, record_hash, digest, payload]


def _snapshot(tag: bytes, record_hash: bytes, payload: bytes, magic: bytes) -> bytes:
    digest = hashlib.sha256(payload).hexdigest().encode()
    return tag + b"\n".join([magic, record_hash, digest, payload])


def _more_gold(payload: bytes) -> bytes:
    altered = payload.replace(b'"gold":', b'"gold":4', 1)
    assert altered != payload
    return altered


def _gold_45(m: Match, *, keep_tag: bool) -> None:
    """Raise a player's gold in the middle snapshot, its digest recomputed."""
    snaps = m.snapshots()
    seq = sorted(snaps)[len(snaps) // 2]
    tag, (magic, record_hash, _digest, payload) = _split_snapshot(snaps[seq])
    forged = _snapshot(tag if keep_tag else b"", record_hash, _more_gold(payload), magic)
    m.db.put("snapshots", m.oid, seq, forged)


def _plant(m: Match, *, tag_from: int | None) -> None:
    """Plant a forged snapshot at `PLANTED`: the first real one's board with more gold, naming
    the record at `PLANTED` (and, with ``tag_from``, a tag copied from a real snapshot)."""
    snaps = m.snapshots()
    first = min(snaps)
    _tag, (magic, _hash, _digest, payload) = _split_snapshot(snaps[first])
    record_hash = m.record(PLANTED)["hash"].encode()
    copied = _split_snapshot(snaps[tag_from])[0] if tag_from is not None else b""
    forged = _snapshot(copied, record_hash, _more_gold(payload), magic)
    m.db.insert("snapshots", m.oid, PLANTED, "vwlog-store:snapshot:v1", forged)


def _amount(m: Match, seq: int, *, rehash: bool) -> None:
    data = m.record(seq)
    event = data["event"]
    key = next(k for k in ("amount", "gold", "value") if k in event)
    event[key] = int(event[key]) + 40
    m.put_record(seq, data, rehash=rehash)


def _first_of(m: Match, kind: str, after: int = 0) -> int:
    return next(
        s
        for s, line in sorted(m.records().items())
        if s > after and f'"type":"{kind}"'.encode() in line
    )


def _gold_seq(m: Match) -> int:
    return _first_of(m, "gold_produced", after=PLANTED)


def _swap(m: Match, a: int, b: int) -> None:
    rows = m.records()
    m.db.put("events", m.oid, a, rows[b])
    m.db.put("events", m.oid, b, rows[a])


def _add_record(m: Match) -> None:
    """Append a copy of the last record, chained, and tell the catalog about it."""
    rows = m.records()
    last = max(rows)
    data = orjson.loads(rows[last])
    data["seq"] = last + 1
    data = _hashed(data.pop("hash"), data)
    m.db.insert("events", m.oid, last + 1, m.db.topic(m.oid, last), codec.canonical(data))
    m.edit_meta(lambda meta: meta.update(head_hash=data["hash"], events=last + 1))


def _drop_tail(m: Match) -> None:
    rows = m.records()
    m.db.delete("events", m.oid, max(rows))


def _rewritten(m: Match, seq: int) -> None:
    """Alter the record at ``seq``, re-hash it and the tail after it, and the catalog's head."""
    _amount(m, seq, rehash=True)
    m.rehash_from(seq + 1)


def _renamed(m: Match) -> None:
    m.put_record(1, orjson.loads(m.records()[1].replace(b'"p1"', b'"px"')), rehash=True)
    m.rehash_from(2)


def _cut_and_told(m: Match) -> None:
    _drop_tail(m)
    last = max(m.records())
    m.edit_meta(lambda meta: meta.update(events=last, head_hash=m.record(last)["hash"]))


def _catalog(edit: Callable[[dict[str, Any]], object]) -> Callable[[Match], None]:
    return lambda m: m.edit_meta(edit)


def _other_winner(meta: dict[str, Any]) -> None:
    meta["winner"] = "p1" if meta.get("winner") != "p1" else "p2"


def _untagged(m: Match) -> None:
    data = m.registration()
    data.pop("vouch", None)
    data.pop("vouch_facts", None)
    m.put_registration(data)


def _seal_flipped_untagged(m: Match) -> None:
    data = m.registration()
    data["meta"]["seal"] = "author" if data["meta"].get("seal") == "import" else "import"
    data.pop("vouch_facts", None)
    m.put_registration(data)


def _header_created(m: Match) -> None:
    data = m.registration()
    data["header"]["created"] = "1999-01-01T00:00:00Z"
    m.put_registration(data)


def _header_rehashed(m: Match) -> None:
    """Change the header, recompute its hash, and re-chain every record from it."""
    data = m.registration()
    header = {k: v for k, v in data["header"].items() if k != "hash"}
    header["generator"] = "forged"
    from vwlog.events import LogHeader

    sealed = codec.seal_header(LogHeader.model_validate(header))
    data["header"] = sealed.model_dump(mode="json", exclude_none=True)
    m.put_registration(data)
    m.rehash_from(1)


EDITS: dict[str, Callable[[Match], None]] = {
    # stored event payloads
    "amount, hash kept": lambda m: _amount(m, _gold_seq(m), rehash=False),
    "amount, its hash recomputed": lambda m: _amount(m, _gold_seq(m), rehash=True),
    "amount, the tail re-hashed with the catalog head": lambda m: _rewritten(m, _gold_seq(m)),
    "amount before the first snapshot, tail re-hashed": lambda m: _rewritten(
        m, _first_of(m, "gold_produced")
    ),
    "match_started player renamed, re-hashed": _renamed,
    "seq field changed": lambda m: m.db.put(
        "events", m.oid, 40, m.records()[40].replace(b'"seq":40', b'"seq":41')
    ),
    "hash field changed": lambda m: m.put_record(
        60, {**m.record(60), "hash": "0" * 64}, rehash=False
    ),
    "record no longer JSON": lambda m: m.db.put("events", m.oid, 70, b"{not json"),
    "number turned into a string": lambda m: m.db.put(
        "events",
        m.oid,
        _gold_seq(m),
        re.sub(rb'"amount":(\d+)', rb'"amount":"\1"', m.records()[_gold_seq(m)], count=1),
    ),
    "two records swapped": lambda m: _swap(m, 120, 121),
    "last record deleted": _drop_tail,
    "last record deleted, catalog told": _cut_and_told,
    "middle record deleted": lambda m: m.db.delete("events", m.oid, 200),
    "record added, chained, catalog told": _add_record,
    "header changed": _header_created,
    "header changed, re-hashed with every record": _header_rehashed,
    # snapshots
    "snapshot gold raised, digest recomputed": lambda m: _gold_45(m, keep_tag=True),
    "snapshot gold raised, tag stripped": lambda m: _gold_45(m, keep_tag=False),
    "snapshot planted at seq 150": lambda m: _plant(m, tag_from=None),
    "snapshot planted at seq 150 with a copied tag": lambda m: _plant(
        m, tag_from=min(m.snapshots())
    ),
    "snapshot moved to another seq": lambda m: m.db.renumber(
        "snapshots", m.oid, min(m.snapshots()), PLANTED
    ),
    "snapshot garbage": lambda m: m.db.put("snapshots", m.oid, min(m.snapshots()), b"\x00garbage"),
    "snapshot cut in half": lambda m: m.db.put(
        "snapshots",
        m.oid,
        min(m.snapshots()),
        m.snapshots()[min(m.snapshots())][: len(m.snapshots()[min(m.snapshots())]) // 2],
    ),
    "snapshot names another record": lambda m: m.db.put(
        "snapshots",
        m.oid,
        min(m.snapshots()),
        m.snapshots()[min(m.snapshots())].replace(
            _split_snapshot(m.snapshots()[min(m.snapshots())])[1][1],
            m.record(min(m.snapshots()) + 1)["hash"].encode(),
        ),
    ),
    "snapshot of a later seq copied over an earlier one": lambda m: m.db.put(
        "snapshots", m.oid, min(m.snapshots()), m.snapshots()[max(m.snapshots())]
    ),
    "snapshots deleted": lambda m: m.db.delete("snapshots", m.oid),
    # catalog rows
    "seal import -> author": _catalog(lambda meta: meta.update(seal="author")),
    "seal author -> import": _catalog(lambda meta: meta.update(seal="import")),
    "seal removed": _catalog(lambda meta: meta.update(seal=None)),
    "source_sha256 changed": _catalog(lambda meta: meta.update(source_sha256="ab" * 32)),
    "source_sha256 removed": _catalog(lambda meta: meta.update(source_sha256=None)),
    "winner changed": _catalog(_other_winner),
    "winner removed": _catalog(lambda meta: meta.update(winner=None, victory=None)),
    "events count changed": _catalog(lambda meta: meta.update(events=meta["events"] - 5)),
    "head hash changed": _catalog(lambda meta: meta.update(head_hash="f" * 64)),
    "violations changed": _catalog(lambda meta: meta.update(violations=3, flagged=True)),
    "verdict changed": _catalog(
        lambda meta: meta.update(verdict="OK" if meta.get("verdict") != "OK" else "ILLEGAL")
    ),
    "intact flipped": _catalog(lambda meta: meta.update(intact=not meta.get("intact"))),
    "turns changed": _catalog(lambda meta: meta.update(turns=(meta.get("turns") or 0) + 3)),
    "players changed": _catalog(lambda meta: meta.update(players=["p2", "p1"])),
    "statistics changed": _catalog(lambda meta: meta["metrics"].update(turns=99)),
    "tags removed, content kept": _untagged,
    "seal flipped, its facts tag removed": _seal_flipped_untagged,
}
HARMLESS = {"snapshots deleted"}
"""Edits that only drop a cache: every output stays as it was, verify included."""
SEALED_ON_IMPORT = {"seal import -> author"}
"""Edits made on a match imported without hashes (sealed on import)."""


# -- the stores ------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def key(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """This installation's key, in a folder of the test's own."""
    return tmp_path_factory.mktemp("key") / "store.key"


@pytest.fixture(autouse=True)
def _own_key(key: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("VWLOG_STORE_KEY", str(key))


@pytest.fixture(scope="module")
def logs(tmp_path_factory: pytest.TempPathFactory, key: Path) -> dict[str, Path]:
    """The match as generated (hashed by its author) and with every hash removed."""
    folder = tmp_path_factory.mktemp("logs")
    args = ["simulate", "--seed", str(SEED), "-n", str(MATCHES), "--max-turns", str(TURNS)]
    result = CliRunner().invoke(main, [*args, "-o", str(folder)])
    assert result.exit_code == 0, result.output
    # the one with a winner, so that a winner can be changed or removed
    path = next(p for p in sorted(folder.glob("*.jsonl")) if b'"match_won"' in p.read_bytes())
    lines = [orjson.loads(line) for line in path.read_bytes().splitlines()]
    unhashed = folder / "unhashed.jsonl"
    unhashed.write_bytes(
        b"".join(
            orjson.dumps(
                {k: v for k, v in line.items() if k != "hash"}, option=orjson.OPT_SORT_KEYS
            )
            + b"\n"
            for line in lines
            if line.get("event", {}).get("type") != "match_sealed"
        )
    )
    return {"author": path, "import": unhashed}


def _import(url: str, log: Path, key: Path) -> str:
    result = CliRunner().invoke(
        main, ["--store", url, "import", str(log)], env={"VWLOG_STORE_KEY": str(key)}
    )
    assert result.exit_code in (0, 1), result.output
    listed = CliRunner().invoke(
        main, ["--store", url, "list", "--format", "json"], env={"VWLOG_STORE_KEY": str(key)}
    )
    [row] = orjson.loads(listed.stdout)
    return str(row["match_id"])


@pytest.fixture(scope="module")
def pristine_sqlite(
    tmp_path_factory: pytest.TempPathFactory, logs: dict[str, Path], key: Path
) -> dict[str, Path]:
    """A store file per kind of seal, imported once and copied for each edit."""
    made = {}
    for seal, log in logs.items():
        path = tmp_path_factory.mktemp(f"pristine-{seal}") / "vwlog.db"
        _import(f"sqlite:///{path}", log, key)
        made[seal] = path
    return made


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def backend(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@pytest.fixture
def make_store(
    backend: str,
    tmp_path: Path,
    pristine_sqlite: dict[str, Path],
    logs: dict[str, Path],
    key: Path,
) -> Iterator[Callable[[str], str]]:
    """Makes a fresh store holding the match (sealed by its ``author`` or on ``import``)."""
    schemas: list[str] = []
    server = postgres_server() if backend == "postgres" else ""

    def make(seal: str) -> str:
        if backend == "sqlite":
            folder = tmp_path / f"{seal}-{len(list(tmp_path.iterdir()))}"
            folder.mkdir()
            shutil.copy(pristine_sqlite[seal], folder / "vwlog.db")
            return f"sqlite:///{folder / 'vwlog.db'}"
        import psycopg
        from psycopg import sql

        schema = f"vwlog_hostile_{uuid4().hex[:12]}"
        with psycopg.connect(server, autocommit=True) as conn:
            conn.execute(sql.SQL("CREATE SCHEMA {}").format(sql.Identifier(schema)))
        schemas.append(schema)
        url = f"{server}?schema={schema}"
        _import(url, logs[seal], key)
        return url

    yield make
    if schemas:
        import psycopg
        from psycopg import sql

        with psycopg.connect(server, autocommit=True) as conn:
            for schema in schemas:
                for name in (schema, f"{schema}_stats"):
                    conn.execute(
                        sql.SQL("DROP SCHEMA IF EXISTS {} CASCADE").format(sql.Identifier(name))
                    )


# -- what every reading command says --------------------------------------------------------


@dataclass(frozen=True)
class Said:
    exit_code: int
    stdout: str
    stderr: str
    written: bytes | None = None


def _commands(match_id: str, out: Path) -> dict[str, list[str]]:
    return {
        "show": ["show", match_id],
        "show --at 150": ["show", match_id, "--at", str(PLANTED)],
        "show --at 151": ["show", match_id, "--at", str(PLANTED + 1)],
        "show --at 37": ["show", match_id, "--at", "37"],
        "show --at 199 --as p1": ["show", match_id, "--at", "199", "--as", "p1"],
        "show --format json --at 250": ["show", match_id, "--at", "250", "--format", "json"],
        "list": ["list"],
        "list --format json": ["list", "--format", "json"],
        "export": ["export", match_id, "-o", str(out)],
        "replay": ["replay", match_id],
        "replay --to 160": ["replay", match_id, "--to", "160"],
        "verify": ["verify", match_id],
        "stats": ["stats", "--per-match", "--format", "json"],
    }


def _said(url: str, match_id: str, folder: Path, key: Path) -> dict[str, Said]:
    out = folder / "export.jsonl"
    said = {}
    for name, args in _commands(match_id, out).items():
        out.unlink(missing_ok=True)
        result = CliRunner().invoke(
            main, ["--store", url, *args], env={"VWLOG_STORE_KEY": str(key), "COLUMNS": "200"}
        )
        assert result.exception is None or isinstance(result.exception, SystemExit), (
            name,
            result.output,
            result.exception,
        )
        assert "Traceback" not in result.output + result.stderr, (name, result.stderr)
        written = out.read_bytes() if out.exists() else None
        said[name] = Said(result.exit_code, result.stdout, result.stderr, written)
    return said


def _flagged(name: str, said: Said) -> bool:
    """Whether the output tells its reader something is wrong."""
    if name == "list --format json":
        return any(row.get("vouched") is False for row in orjson.loads(said.stdout))
    if name == "list":
        return "UNVOUCHED" in said.stdout
    if "WARNING" in said.stderr:
        return True
    if said.exit_code != 0 and "Error:" in said.stderr:
        return said.written is None  # refused: nothing written
    return said.exit_code != 0 and name == "verify"


@pytest.fixture(scope="module")
def pristine_said(
    pristine_sqlite: dict[str, Path], tmp_path_factory: pytest.TempPathFactory, key: Path
) -> dict[str, tuple[str, dict[str, Said]]]:
    """What each command says of the untouched match, per kind of seal (the same on every
    backend)."""
    out = {}
    for seal, path in pristine_sqlite.items():
        folder = tmp_path_factory.mktemp(f"said-{seal}")
        shutil.copy(path, folder / "vwlog.db")
        url = f"sqlite:///{folder / 'vwlog.db'}"
        listed = CliRunner().invoke(
            main, ["--store", url, "list", "--format", "json"], env={"VWLOG_STORE_KEY": str(key)}
        )
        match_id = orjson.loads(listed.stdout)[0]["match_id"]
        out[seal] = (match_id, _said(url, match_id, folder, key))
    return out


def test_the_untouched_match_is_shown_vouched_and_verifies(
    pristine_said: dict[str, tuple[str, dict[str, Said]]],
) -> None:
    for seal, (_match_id, said) in pristine_said.items():
        assert said["verify"].exit_code == 0 if seal == "author" else said["verify"].exit_code == 1
        for name, each in said.items():
            assert not _flagged(name, each) or name == "verify", (seal, name, each)
        assert orjson.loads(said["list --format json"].stdout)[0]["vouched"] is True
        assert said["export"].written is not None
        assert said["show --at 150"].exit_code == 0


@pytest.mark.parametrize("edit", EDITS, ids=list(EDITS))
def test_a_direct_store_edit_never_reaches_an_output_unflagged(
    edit: str,
    make_store: Callable[[str], str],
    pristine_said: dict[str, tuple[str, dict[str, Said]]],
    tmp_path: Path,
    key: Path,
) -> None:
    seal = "import" if edit in SEALED_ON_IMPORT else "author"
    match_id, before = pristine_said[seal]
    url = make_store(seal)
    EDITS[edit](Match(Db(url), match_id))

    after = _said(url, match_id, tmp_path, key)

    unflagged = [
        name
        for name, said in after.items()
        if not _flagged(name, said) and _differs(name, said, before[name])
    ]
    assert unflagged == [], {name: (after[name], before[name]) for name in unflagged}
    if edit in HARMLESS:
        assert after["verify"].exit_code == before["verify"].exit_code
    else:
        assert after["verify"].exit_code != 0, after["verify"]
        assert after["verify"].stdout or "Error:" in after["verify"].stderr


def _differs(name: str, said: Said, before: Said) -> bool:
    if name == "list --format json":
        return bool(orjson.loads(said.stdout) != orjson.loads(before.stdout))
    return (said.exit_code, said.stdout, said.written) != (
        before.exit_code,
        before.stdout,
        before.written,
    )


def test_a_forged_snapshot_is_never_used_for_a_seek(
    make_store: Callable[[str], str],
    pristine_said: dict[str, tuple[str, dict[str, Said]]],
    tmp_path: Path,
    key: Path,
) -> None:
    """The issue's cases one by one: gold raised with its digest recomputed, and a snapshot
    planted at seq 150: ``show`` gives the board the records give, exit 0, and ``verify``
    names the forged snapshot."""
    match_id, before = pristine_said["author"]
    for forge in ("snapshot gold raised, digest recomputed", "snapshot planted at seq 150"):
        url = make_store("author")
        EDITS[forge](Match(Db(url), match_id))
        after = _said(url, match_id, tmp_path, key)
        for name in ("show", "show --at 150", "show --at 151", "show --format json --at 250"):
            assert after[name] == before[name], (forge, name)
        assert after["verify"].exit_code == 1
        assert "ALTERED derived data: the snapshot after seq" in after["verify"].stdout


def test_an_edited_seal_is_noticed_by_verify_and_flagged_by_list(
    make_store: Callable[[str], str],
    pristine_said: dict[str, tuple[str, dict[str, Said]]],
    tmp_path: Path,
    key: Path,
) -> None:
    """``seal`` import → author would hide "sealed on import": verify fails and says the
    catalog entry is not vouched for, list flags the row."""
    match_id, before = pristine_said["import"]
    assert "sealed on import" in before["verify"].stdout
    url = make_store("import")
    EDITS["seal import -> author"](Match(Db(url), match_id))
    after = _said(url, match_id, tmp_path, key)
    assert after["verify"].exit_code == 1
    assert "the catalog entry is not as vwlog wrote it here" in after["verify"].stdout
    assert "UNVOUCHED" in after["list"].stdout
    [row] = orjson.loads(after["list --format json"].stdout)
    assert row["seal"] == "author"
    assert row["vouched"] is False
    repaired = CliRunner().invoke(
        main, ["--store", url, "verify", "--repair", match_id], env={"VWLOG_STORE_KEY": str(key)}
    )
    assert "were not vouched for" in repaired.stdout  # a repair cannot launder the seal
    listed = CliRunner().invoke(
        main, ["--store", url, "list", "--format", "json"], env={"VWLOG_STORE_KEY": str(key)}
    )
    assert orjson.loads(listed.stdout)[0]["vouched"] is False


def test_export_of_a_broken_chain_writes_nothing(
    make_store: Callable[[str], str],
    pristine_said: dict[str, tuple[str, dict[str, Said]]],
    tmp_path: Path,
    key: Path,
) -> None:
    match_id, _before = pristine_said["author"]
    url = make_store("author")
    EDITS["amount, its hash recomputed"](Match(Db(url), match_id))
    for target in (tmp_path / "out.jsonl", "-"):
        result = CliRunner().invoke(
            main,
            ["--store", url, "export", match_id, "-o", str(target)],
            env={"VWLOG_STORE_KEY": str(key)},
        )
        assert result.exit_code == 1
        assert result.stdout == ""
        assert result.stderr.count("\n") == 1
        assert result.stderr.startswith("Error: match ")
        assert "nothing exported" in result.stderr
    assert not (tmp_path / "out.jsonl").exists()


def test_another_installations_key_vouches_for_nothing_but_shows_the_truth(
    make_store: Callable[[str], str],
    pristine_said: dict[str, tuple[str, dict[str, Said]]],
    tmp_path: Path,
) -> None:
    """A reader with another key uses no snapshot (it replays) and flags every catalog
    entry, but shows the same boards."""
    match_id, before = pristine_said["author"]
    url = make_store("author")
    after = _said(url, match_id, tmp_path, tmp_path / "other.key")
    for name in ("show", "show --at 150", "show --format json --at 250", "replay"):
        assert after[name].stdout == before[name].stdout, name
        assert "WARNING" in after[name].stderr or name == "replay"
    assert orjson.loads(after["list --format json"].stdout)[0]["vouched"] is False
    assert after["verify"].exit_code == 1
