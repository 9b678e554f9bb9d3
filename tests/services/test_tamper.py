"""Tamper detection: any altered byte of an exported log, any altered row of a stored match.

An exported log is checked by ``vwlog verify FILE``, a stored match by ``vwlog verify MATCH``;
both must exit 1 and name the first broken link by its seq and line.
"""

from __future__ import annotations

import hashlib
import random
import re
import sqlite3
from typing import TYPE_CHECKING, Any

import orjson
import pytest

from vwlog.cli import main
from vwlog.services import verify_log
from vwlog.services.importing import import_log
from vwlog.services.matches import export_match, state_at, verify_match
from vwlog.store import MatchStore
from vwlog.store.mapping import VOUCH_PREFIX, catalog_uuid, match_uuid

from .support import generated_log, lines_of, records_of, write_lines

if TYPE_CHECKING:
    from collections.abc import Callable
    from pathlib import Path

    from click.testing import CliRunner

SEED = 13


@pytest.fixture(scope="module")
def exported(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A generated match, imported into a store and exported again."""
    directory = tmp_path_factory.mktemp("tamper")
    path = generated_log(directory, SEED, 2)
    out = directory / "exported.jsonl"
    with MatchStore.open("memory:") as store:
        import_log(store, path)
        export_match(store, records_of(path)[0].match_id, out)
    assert out.read_bytes() == path.read_bytes()
    return out


def other_byte(byte: int) -> int:
    """A different byte of the same kind where there is one (digit, letter), else ``x``."""
    char = chr(byte)
    for first, size in (("0", 10), ("a", 26), ("A", 26)):
        if first <= char < chr(ord(first) + size):
            return ord(first) + (ord(char) - ord(first) + 1) % size
    return ord("x")


def altered(path: Path, out: Path, line: int, marker: bytes) -> Path:
    """Copy ``path`` with the byte just after ``marker`` on 0-based line ``line`` changed."""
    lines = lines_of(path)
    text = bytearray(lines[line])
    at = text.index(marker) + len(marker)
    text[at] = other_byte(text[at])
    lines[line] = bytes(text)
    return write_lines(out, lines)


def _first_pass_after_middle(path: Path) -> int:
    _, records = records_of(path)
    middle = len(records) // 2
    return next(r.seq for r in records[middle:] if r.event.type == "priority_passed")


def _last(path: Path) -> int:
    return len(records_of(path)[1])


def _last_gold(path: Path) -> int:
    return [r.seq for r in records_of(path)[1] if r.event.type == "gold_produced"][-1]


RECORD_BYTES: list[tuple[str, Callable[[Path], int], bytes]] = [
    ("event-of-match-started", lambda _: 1, b'"first_player":"p'),
    ("event-of-a-decision", _first_pass_after_middle, b'"player":"p'),
    ("event-of-a-consequence", _last_gold, b'"amount":'),
    ("hash-of-the-first-record", lambda _: 1, b'"hash":"'),
    ("hash-of-a-middle-record", _first_pass_after_middle, b'"hash":"'),
    ("hash-of-the-last-record", _last, b'"hash":"'),
]


@pytest.mark.parametrize(
    ("seq_of", "marker"),
    [pytest.param(seq_of, marker, id=name) for name, seq_of, marker in RECORD_BYTES],
)
def test_an_altered_byte_of_a_record_is_found_at_its_seq_and_line(
    runner: CliRunner,
    exported: Path,
    tmp_path: Path,
    seq_of: Callable[[Path], int],
    marker: bytes,
) -> None:
    seq = seq_of(exported)
    path = altered(exported, tmp_path / "altered.jsonl", seq, marker)

    result = runner.invoke(main, ["verify", str(path)])

    assert result.exit_code == 1, result.output
    assert f"BROKEN at seq {seq}, line {seq + 1}: hash does not match the chain" in result.stdout
    json_result = runner.invoke(main, ["verify", "--format", "json", str(path)])
    assert json_result.exit_code == 1
    [report] = orjson.loads(json_result.stdout)
    assert not report["ok"]
    assert (report["broken"]["seq"], report["broken"]["line"]) == (seq, seq + 1)


def test_an_altered_seq_is_reported_at_the_position_of_the_record(
    runner: CliRunner, exported: Path, tmp_path: Path
) -> None:
    seq = _first_pass_after_middle(exported)
    path = altered(exported, tmp_path / "altered.jsonl", seq, b'"seq":')
    assert records_of(exported)[1][seq - 1].seq == seq

    result = runner.invoke(main, ["verify", str(path)])

    assert result.exit_code == 1
    assert f"BROKEN at seq {seq}, line {seq + 1}: " in result.stdout


@pytest.mark.parametrize(
    "marker",
    [b'"match_id":"s', b'"generator":"v', b'"hash":"'],
    ids=["match-id", "generator", "hash"],
)
def test_an_altered_byte_of_the_header_is_found_at_line_1(
    runner: CliRunner, exported: Path, tmp_path: Path, marker: bytes
) -> None:
    path = altered(exported, tmp_path / "altered.jsonl", 0, marker)

    result = runner.invoke(main, ["verify", str(path)])

    assert result.exit_code == 1, result.output
    assert "BROKEN at line 1: header altered" in result.stdout


def test_a_header_that_no_longer_parses_is_an_input_error_naming_line_1(
    runner: CliRunner, exported: Path, tmp_path: Path
) -> None:
    path = altered(exported, tmp_path / "altered.jsonl", 0, b'"format"')  # the colon

    result = runner.invoke(main, ["verify", str(path)])

    assert result.exit_code == 2
    assert result.stderr.startswith(f"Error: {path}, line 1")
    assert result.stderr.count("\n") == 1


def test_every_sampled_single_byte_change_is_found_on_its_line(exported: Path) -> None:
    data = exported.read_bytes()
    header_end = data.index(b"\n") + 1
    line_starts = [header_end]
    line_starts += [i + 1 for i in range(header_end, len(data) - 1) if data[i] == 10]
    positions = sorted(random.Random(SEED).sample(range(header_end, len(data)), 200))
    original = records_of(exported)[1]
    target = exported.with_name("sampled.jsonl")
    for position in positions:
        text = bytearray(data)
        text[position] = other_byte(text[position])
        target.write_bytes(bytes(text))
        line = sum(1 for start in line_starts if start <= position) + 1

        report = verify_log(target)

        where = f"byte {position} ({chr(data[position])!r}) on line {line}"
        assert not report.ok, where
        assert report.broken is not None, where
        assert report.broken.line == line, where
        # named by its position in the chain, whatever seq (if any) the altered line says
        assert report.broken.seq == original[line - 2].seq, where


# -- a stored match altered in the database --------------------------------------------------


def _update_sqlite(url: str, match_id: str, seq: int, state: bytes | None) -> None:
    with sqlite3.connect(url.removeprefix("sqlite:///")) as conn:
        where = "originator_id = ? AND originator_version"
        oid = match_uuid(match_id).hex
        if state is None:
            conn.execute(f"DELETE FROM stored_events WHERE {where} >= ?", (oid, seq))
        else:
            conn.execute(f"UPDATE stored_events SET state = ? WHERE {where} = ?", (state, oid, seq))


def _update_postgres(url: str, match_id: str, seq: int, state: bytes | None) -> None:
    import psycopg
    from psycopg import sql

    dsn, _, schema = url.partition("?schema=")
    table = sql.Identifier(schema, "vwlog_events")
    where = sql.SQL("originator_id = %s AND originator_version")
    with psycopg.connect(dsn, autocommit=True) as conn:
        if state is None:
            query = sql.SQL("DELETE FROM {} WHERE {} >= %s").format(table, where)
            conn.execute(query, (match_uuid(match_id), seq))
        else:
            query = sql.SQL("UPDATE {} SET state = %s WHERE {} = %s").format(table, where)
            conn.execute(query, (state, match_uuid(match_id), seq))


def tamper(url: str, match_id: str, seq: int, state: bytes | None) -> None:
    """Replace the stored line of record ``seq`` (``None``: delete it and all after it)."""
    if url.startswith("sqlite:"):
        _update_sqlite(url, match_id, seq, state)
    else:
        _update_postgres(url, match_id, seq, state)


def _altered_line(line: bytes, marker: bytes) -> bytes:
    text = bytearray(line)
    at = text.index(marker) + len(marker)
    text[at] = other_byte(text[at])
    return bytes(text)


@pytest.mark.parametrize(
    ("marker", "reason"),
    [
        (b'"player":"p', "hash does not match the chain"),
        (b'"hash":"', "hash does not match the chain"),
        (b'"event"', "line altered: no longer a valid record"),
    ],
    ids=["event", "hash", "no-longer-json"],
)
def test_a_record_altered_in_the_database_is_found_at_its_seq(
    runner: CliRunner, shared_url: str, tmp_path: Path, marker: bytes, reason: str
) -> None:
    path = generated_log(tmp_path, SEED, 2)
    match_id = records_of(path)[0].match_id
    seq = _first_pass_after_middle(path)
    with MatchStore.open(shared_url) as store:
        import_log(store, path)
        tamper(shared_url, match_id, seq, _altered_line(lines_of(path)[seq], marker))
        report = verify_match(store, match_id)

    assert report.broken is not None
    assert (report.broken.line, report.broken.reason) == (seq + 1, reason)
    result = runner.invoke(main, ["--store", shared_url, "verify", match_id])
    assert result.exit_code == 1, result.output
    assert report.broken.seq == seq
    assert f"store:{match_id}: BROKEN at seq {seq}, line {seq + 1}: {reason}" in result.stdout
    untouched = runner.invoke(main, ["verify", str(path)])
    assert untouched.exit_code == 0


def test_records_deleted_from_the_end_of_a_stored_match_are_found(
    runner: CliRunner, shared_url: str, tmp_path: Path
) -> None:
    path = generated_log(tmp_path, SEED, 2)
    header, records = records_of(path)
    with MatchStore.open(shared_url) as store:
        import_log(store, path)
    tamper(shared_url, header.match_id, len(records) - 4, None)

    result = runner.invoke(main, ["--store", shared_url, "verify", header.match_id])

    assert result.exit_code == 1, result.output
    assert f"BROKEN at seq {len(records) - 4}, line {len(records) - 3}: " in result.stdout
    assert f"catalog recorded {len(records)} events" in result.stdout


# -- derived data altered in the database: catalog rows, snapshots, the statistics view ------


def _sql(url: str, query: str, *args: object) -> list[tuple[Any, ...]]:
    """Run one statement on the store's tables (``{events}``/``{snapshots}`` filled in)."""
    if url.startswith("sqlite:"):
        tables = {"events": "stored_events", "snapshots": "stored_snapshots"}
        with sqlite3.connect(url.removeprefix("sqlite:///")) as conn:
            return conn.execute(query.format(**tables).replace("%s", "?"), args).fetchall()
    import psycopg

    dsn, _, schema = url.partition("?schema=")
    tables = {"events": f"{schema}.vwlog_events", "snapshots": f"{schema}.vwlog_snapshots"}
    with psycopg.connect(dsn, autocommit=True) as conn:
        cursor = conn.execute(query.format(**tables), args)  # type: ignore[arg-type]
        return cursor.fetchall() if cursor.description else []


def _oid(url: str, uuid: Any) -> Any:
    return uuid.hex if url.startswith("sqlite:") else uuid


def _edit_catalog(url: str, match_id: str, edit: Callable[[dict[str, Any]], None]) -> None:
    """Change the match's registration entry in place, as someone with database access can."""
    oid = _oid(url, catalog_uuid(match_id))
    where = "originator_id = %s AND originator_version = 1"
    [(state,)] = _sql(url, f"SELECT state FROM {{events}} WHERE {where}", oid)
    data = orjson.loads(bytes(state))
    edit(data["meta"])
    _sql(url, f"UPDATE {{events}} SET state = %s WHERE {where}", orjson.dumps(data), oid)


@pytest.fixture
def stored(shared_url: str, tmp_path: Path) -> tuple[str, str]:
    """A generated match with a winner, imported with a snapshot every 50 records."""
    path = generated_log(tmp_path, SEED, 8)
    match_id = records_of(path)[0].match_id
    with MatchStore.open(shared_url) as store:
        import_log(store, path, snapshot_every=50)
        assert verify_match(store, match_id).ok
    return shared_url, match_id


CATALOG_EDITS: list[tuple[str, Callable[[dict[str, Any]], None], str]] = [
    ("winner", lambda m: m.update(winner="p2" if m["winner"] != "p2" else "p1"), "winner"),
    ("violations", lambda m: m.update(violations=m["violations"] + 3), "violations"),
    ("flagged", lambda m: m.update(flagged=not m["flagged"]), "flagged"),
    ("turns", lambda m: m.update(turns=(m["turns"] or 0) + 1), "turns"),
    ("statistics", lambda m: m["metrics"].update(turns=99), "statistics"),
]


@pytest.mark.parametrize(
    ("name", "edit", "named"), CATALOG_EDITS, ids=[c[0] for c in CATALOG_EDITS]
)
def test_an_altered_catalog_row_is_reported_by_verify(
    runner: CliRunner,
    stored: tuple[str, str],
    name: str,
    edit: Callable[[dict[str, Any]], None],
    named: str,
) -> None:
    url, match_id = stored
    _edit_catalog(url, match_id, edit)
    with MatchStore.open(url) as store:
        report = verify_match(store, match_id)
    assert not report.ok
    assert report.broken is None
    assert any(named in problem for problem in report.derived), report.derived
    result = runner.invoke(main, ["--store", url, "verify", match_id])
    assert result.exit_code == 1
    assert "ALTERED derived data" in result.stdout


def test_a_snapshot_altered_with_its_digest_recomputed_is_reported(
    runner: CliRunner, stored: tuple[str, str]
) -> None:
    url, match_id = stored
    oid = _oid(url, match_uuid(match_id))
    rows = _sql(
        url, "SELECT originator_version, state FROM {snapshots} WHERE originator_id = %s", oid
    )
    assert rows
    seq, state = rows[len(rows) // 2]
    forged = _more_gold(bytes(state))
    _sql(
        url,
        "UPDATE {snapshots} SET state = %s WHERE originator_id = %s AND originator_version = %s",
        forged,
        oid,
        seq,
    )
    with MatchStore.open(url) as store:
        report = verify_match(store, match_id)
    assert report.derived == (
        f"the snapshot after seq {seq} differs from the board the records give",
    )
    result = runner.invoke(main, ["--store", url, "verify", match_id])
    assert result.exit_code == 1


def test_an_altered_statistics_view_is_reported(runner: CliRunner, stored: tuple[str, str]) -> None:
    url, match_id = stored
    assert runner.invoke(main, ["--store", url, "stats"]).exit_code == 0
    with MatchStore.open(url) as store:
        assert verify_match(store, match_id).ok
        view = store.stats_view()
        state = view.load()
        assert state is not None
        head, _, body = state.data.partition(b"\n")
        data = orjson.loads(body)
        data["matches"] = data.get("matches", 0) + 5
        view.save(head + b"\n" + orjson.dumps(data), state.position, base=state, restart=True)
        report = verify_match(store, match_id)
    assert any("statistics view" in problem for problem in report.derived), report.derived
    assert runner.invoke(main, ["--store", url, "verify", match_id]).exit_code == 1


def test_a_log_sealed_on_import_says_so_in_verify_and_list(
    runner: CliRunner, tmp_path: Path
) -> None:
    path = generated_log(tmp_path, SEED, 2)
    unsealed = [orjson.loads(line) for line in lines_of(path)]
    for line in unsealed:
        line.pop("hash", None)
    stripped = write_lines(
        tmp_path / "stripped.jsonl",
        [orjson.dumps(line, option=orjson.OPT_SORT_KEYS) for line in unsealed],
    )
    url_a = f"sqlite:///{tmp_path / 'a.db'}"
    url_b = f"sqlite:///{tmp_path / 'b.db'}"
    # its hashes gone, its old seal no longer matches: stored flagged, not intact (exit 1)
    assert runner.invoke(main, ["--store", url_a, "import", str(stripped)]).exit_code == 1
    assert runner.invoke(main, ["--store", url_b, "import", str(path)]).exit_code == 0
    match_id = records_of(path)[0].match_id
    sealed_here = runner.invoke(main, ["--store", url_a, "verify", match_id])
    assert sealed_here.exit_code == 0
    assert "sealed on import" in sealed_here.stdout
    by_author = runner.invoke(main, ["--store", url_b, "verify", match_id])
    assert "sealed on import" not in by_author.stdout
    listed = runner.invoke(main, ["--store", url_a, "list"])
    assert "(sealed on import)" in listed.stdout
    as_json = runner.invoke(main, ["--store", url_b, "list", "--format", "json"])
    assert orjson.loads(as_json.stdout)[0]["seal"] == "author"


def test_a_number_turned_into_a_string_in_a_stored_row_fails_verify(
    runner: CliRunner, shared_url: str, tmp_path: Path
) -> None:
    path = generated_log(tmp_path, SEED, 2)
    match_id = records_of(path)[0].match_id
    seq = _last_gold(path)
    line = lines_of(path)[seq]
    altered = re.sub(rb'"amount":(\d+)', rb'"amount":"\1"', line, count=1)
    assert altered != line
    with MatchStore.open(shared_url) as store:
        import_log(store, path)
    tamper(shared_url, match_id, seq, altered)
    with MatchStore.open(shared_url) as store:
        report = verify_match(store, match_id)
    assert report.broken is not None
    assert report.broken.seq == seq
    result = runner.invoke(main, ["--store", shared_url, "show", match_id, "--at", str(seq)])
    assert result.exit_code == 2


# -- derived data rebuilt: verify --repair ---------------------------------------------------


def _more_gold(state: bytes) -> bytes:
    """A stored snapshot with a player's gold raised and its digest recomputed, its tag line
    (if any) kept as it was: what someone with database access but not the key can do."""
    tag = b""
    if state.startswith(VOUCH_PREFIX):
        line, _, state = state.partition(b"\n")
        tag = line + b"\n"
    head, _, rest = state.partition(b"\n")
    record_hash, _, rest = rest.partition(b"\n")
    _digest, _, payload = rest.partition(b"\n")
    altered = payload.replace(b'"gold":', b'"gold":4', 1)
    assert altered != payload
    digest = hashlib.sha256(altered).hexdigest().encode()
    return tag + b"\n".join([head, record_hash, digest, altered])


def _forge_snapshot(url: str, match_id: str) -> int:
    """Raise a player's gold in a middle snapshot and recompute its digest; its seq."""
    oid = _oid(url, match_uuid(match_id))
    rows = _sql(
        url, "SELECT originator_version, state FROM {snapshots} WHERE originator_id = %s", oid
    )
    seq, state = rows[len(rows) // 2]
    forged = _more_gold(bytes(state))
    _sql(
        url,
        "UPDATE {snapshots} SET state = %s WHERE originator_id = %s AND originator_version = %s",
        forged,
        oid,
        seq,
    )
    return seq


def test_verify_repair_rebuilds_a_forged_snapshot_and_says_so(
    runner: CliRunner, stored: tuple[str, str]
) -> None:
    url, match_id = stored
    with MatchStore.open(url) as store:
        before = dict(store.snapshots(match_id))
        truth = {seq: state_at(store, match_id, seq) for seq in before}
    seq = _forge_snapshot(url, match_id)
    with MatchStore.open(url) as store:
        assert state_at(store, match_id, seq) == truth[seq]  # readers never use it

    result = runner.invoke(main, ["--store", url, "verify", "--repair", match_id])

    assert result.exit_code == 1, result.output
    assert f"ALTERED derived data: the snapshot after seq {seq} differs" in result.stdout
    assert "REPAIRED: 1 snapshot(s) rebuilt from the records" in result.stdout
    with MatchStore.open(url) as store:
        assert dict(store.snapshots(match_id)) == before
        assert state_at(store, match_id, seq) == truth[seq]
        assert verify_match(store, match_id).ok
    assert runner.invoke(main, ["--store", url, "verify", match_id]).exit_code == 0


def test_an_unreadable_snapshot_is_reported_and_rebuilt(stored: tuple[str, str]) -> None:
    url, match_id = stored
    oid = _oid(url, match_uuid(match_id))
    [(seq,)] = _sql(
        url,
        "SELECT min(originator_version) FROM {snapshots} WHERE originator_id = %s",
        oid,
    )
    _sql(
        url,
        "UPDATE {snapshots} SET state = %s WHERE originator_id = %s AND originator_version = %s",
        b"not a snapshot",
        oid,
        seq,
    )
    with MatchStore.open(url) as store:
        assert verify_match(store, match_id).derived == (
            f"the snapshot after seq {seq} is unreadable or was not made from that record "
            "(altered?): readers replay the records instead",
        )
        repaired = verify_match(store, match_id, repair=True)
        assert repaired.repaired == ("1 snapshot(s) rebuilt from the records",)
        assert verify_match(store, match_id).ok


def test_verify_repair_rebuilds_an_altered_catalog_entry_keeping_its_seal(
    runner: CliRunner, stored: tuple[str, str]
) -> None:
    url, match_id = stored
    with MatchStore.open(url) as store:
        true_meta = store.meta(match_id)
    _edit_catalog(url, match_id, lambda m: m.update(winner="p9", violations=7, flagged=True))
    with MatchStore.open(url) as store:
        assert store.meta(match_id).winner == "p9"

    result = runner.invoke(main, ["--store", url, "verify", "--repair", match_id])

    assert result.exit_code == 1, result.output
    assert "the catalog says winner 'p9'" in result.stdout
    assert "REPAIRED: the catalog entry rebuilt from the records" in result.stdout
    with MatchStore.open(url) as store:
        assert store.meta(match_id) == true_meta  # seal and source file kept as imported
        assert verify_match(store, match_id).ok
    listed = runner.invoke(main, ["--store", url, "list", "--format", "json"])
    assert orjson.loads(listed.stdout)[0]["winner"] == true_meta.winner


def test_verify_repair_rebuilds_nothing_when_the_chain_is_broken(stored: tuple[str, str]) -> None:
    url, match_id = stored
    _forge_snapshot(url, match_id)
    with MatchStore.open(url) as store:
        line = next(store.raw_lines(match_id, gt=2, lte=3))
    tamper(url, match_id, 3, _altered_line(line, b'"hash":"'))
    with MatchStore.open(url) as store:
        snapshots = dict(store.snapshots(match_id))
        report = verify_match(store, match_id, repair=True)
        assert report.broken is not None
        assert report.repaired == ()
        assert dict(store.snapshots(match_id)) == snapshots
