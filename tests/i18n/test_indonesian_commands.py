"""The commands that spoke only English with ``--lang id``: diff, next, play, import, every
paragraph of a command's help, the values of the trust checks, the stepper and the viewer's
event sentences. Golden Indonesian outputs where the whole text matters; the English output of
each stays as it was (its own golden and CLI tests)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest
from click.testing import CliRunner

from vwlog.cli import main
from vwlog.io.trust import PACKAGED_POOL_ID, builtin_registry

from .test_language import INVALID, SAMPLES, _golden, _run, plain_env

if TYPE_CHECKING:
    from pathlib import Path

    from textual.pilot import Pilot

__all__ = ["plain_env"]

FULL = SAMPLES / "full-combat.jsonl"


@pytest.mark.golden
def test_golden_diff_in_indonesian(plain_env: None, request: pytest.FixtureRequest) -> None:
    code, out, _err = _run(["--lang", "id", "diff", str(FULL), str(INVALID)])
    assert code == 1
    assert "menyimpang pada seq 193, setelah 192 event bersama" in out
    assert "seharusnya 3; kenyataan 4" in out
    assert "masuk Graveyard p2 pada seq 209" in out
    _golden("diff.id.txt", out, request)
    code, english, _err = _run(["diff", str(FULL), str(INVALID)])
    assert "diverge at seq 193, after 192 common events" in english
    assert "goes to p2's Graveyard at seq 209" in english


def test_diff_of_a_prefix_and_identical_records_in_indonesian(
    plain_env: None, tmp_path: Path
) -> None:
    lines = FULL.read_bytes().splitlines(keepends=True)
    short = tmp_path / "short.jsonl"
    short.write_bytes(b"".join(lines[:100]))
    code, out, _err = _run(["--lang", "id", "diff", str(short), str(FULL)])
    assert code == 1
    assert "A berakhir pada seq 99; B berlanjut dengan 139 event lagi:" in out
    code, out, _err = _run(["--lang", "id", "diff", str(FULL), str(FULL)])
    assert code == 0
    assert out.endswith("identik: 238 event\n")


@pytest.mark.golden
def test_golden_next_in_indonesian(plain_env: None, request: pytest.FixtureRequest) -> None:
    code, out, _err = _run(["--lang", "id", "next", str(FULL), "--at", "40"])
    assert code == 0
    assert out.startswith(
        "seq 40 · turn 1 · COMBAT: giliran p1 memutuskan (prioritas); 2 yang sah:"
    )
    _golden("next.id.txt", out, request)
    code, out, _err = _run(["--lang", "id", "next", str(SAMPLES / "absolute-victory.jsonl")])
    assert "pertandingan sudah selesai (dimenangkan p1)" in out


def test_import_lines_and_table_in_indonesian(plain_env: None, tmp_path: Path) -> None:
    store = f"sqlite:///{tmp_path / 'vwlog.db'}"
    logs = [str(FULL), str(INVALID), str(tmp_path / "missing.jsonl")]
    (tmp_path / "missing.jsonl").write_text('{"not": "a header"}\n', encoding="utf-8")
    runner = CliRunner()
    result = runner.invoke(main, ["--lang", "id", "--store", store, "import", *logs])
    assert result.exit_code == 2
    lines = result.stdout.splitlines()
    assert lines[0].startswith("disimpan  sample-full-combat  (238 event)  ")
    # flagged, then the one verdict and its reason
    assert "· BERTANDA, 1 pelanggaran · TIDAK SAH · " in lines[1]
    err = result.stderr.splitlines()
    assert err[0].startswith("Galat: ")
    assert "missing.jsonl" in err[0]
    assert err[1].split() == ["hasil", "log", "event"]
    assert err[2].split() == ["disimpan", "2", "476"]
    assert err[3].split() == ["tidak", "berubah", "0", "0"]
    assert err[-1] == "3 log: 2 disimpan, 0 tidak berubah, 0 ditolak, 1 gagal"
    # the columns line up however long the translated outcome is
    assert len({len(line.rstrip()) for line in err[1:6]}) == 1
    assert len({line.index(line.split()[-2]) for line in err[2:6]}) == 1
    again = runner.invoke(main, ["--store", store, "import", str(FULL)])
    assert again.stdout.startswith("unchanged sample-full-combat  (238 events)  ")
    assert again.stderr == "1 log: 0 stored, 1 unchanged, 0 rejected, 0 failed\n"
    rejected = runner.invoke(
        main, ["--lang", "id", "--store", store, "import", "--reject-illegal", str(INVALID)]
    )
    assert rejected.exit_code == 1  # already stored flagged: unchanged, still illegal
    fresh = f"sqlite:///{tmp_path / 'other.db'}"
    rejected = runner.invoke(
        main, ["--lang", "id", "--store", fresh, "import", "--reject-illegal", str(INVALID)]
    )
    assert rejected.exit_code == 1
    assert rejected.stdout.startswith("ditolak   invalid-damage-over-atk  (238 event)")
    assert "1 pelanggaran; yang pertama: R-CMB-19  " in rejected.stdout


def test_play_says_what_it_appended_in_indonesian(plain_env: None, tmp_path: Path) -> None:
    store = f"sqlite:///{tmp_path / 'vwlog.db'}"
    runner = CliRunner()
    assert runner.invoke(main, ["--store", store, "import", str(FULL)]).exit_code == 0
    fork = runner.invoke(main, ["--store", store, "fork", "sample-full-combat", "--at", "40"])
    assert fork.exit_code == 0, fork.output
    fork_id = fork.stdout.strip()
    played = runner.invoke(main, ["--lang", "id", "--store", store, "play", fork_id, "pass"])
    assert played.exit_code == 0, played.output
    assert played.stdout.startswith(f"{fork_id}: 1 keputusan, ")
    assert "event ditambahkan; seq terakhir " in played.stdout
    listed = runner.invoke(main, ["--lang", "id", "--store", store, "list"])
    assert listed.stdout.splitlines()[0].split() == [
        "pertandingan",
        "tanggal",
        "pemain",
        "turn",
        "pemenang",
        "kemenangan",
        "pelanggaran",
        "hash",
    ]
    assert "(cabang dari sample-full-combat @40)" in listed.stdout
    tree = runner.invoke(main, ["--lang", "id", "--store", store, "lineage", "sample-full-combat"])
    assert tree.stdout.splitlines()[1].startswith(f"└── {fork_id} @ seq 40 · ")
    assert tree.stdout.splitlines()[1].endswith(" · berjalan")
    english = runner.invoke(main, ["--store", store, "play", fork_id, "pass"])
    assert "events appended; head seq " in english.stdout or "event appended" in english.stdout


def test_every_help_paragraph_in_indonesian(plain_env: None) -> None:
    code, out, _err = _run(["--lang", "id", "import", "--help"])
    assert code == 0
    assert "Mengimpor log yang sama lagi tidak menyimpan apa pun" in out
    assert "Status keluar: 0 semua tersimpan atau tidak berubah" in out
    assert "Contoh:" in out
    assert "vwlog import --reject-illegal disputed.jsonl" in out  # commands stay as written
    code, out, _err = _run(["import", "--help"])
    assert "Importing the same log again stores nothing" in out


def test_trust_check_values_in_indonesian(plain_env: None, tmp_path: Path) -> None:
    """What the verdict rests on (pool, ruleset, chain, seal) and verify's own lines are said in
    the reader's language; the JSON keeps the English values."""
    code, out, _err = _run(["--lang", "id", "validate", str(FULL)])
    assert code == 0
    packaged = builtin_registry().pools[PACKAGED_POOL_ID]
    assert f"kumpulan kartu dipublikasikan {PACKAGED_POOL_ID} ({packaged.hash[:16]})" in out
    assert "aturan dipublikasikan vw-samples@1 (bd29d80fcbf2ee9b)" in out
    assert "rantai utuh · disegel setelah 237 catatan" in out
    code, out, _err = _run(["--lang", "id", "verify", str(FULL)])
    assert code == 0
    assert out.splitlines()[1] == "    segel: disegel setelah 237 catatan (seq 238, baris 239)"
    code, out, _err = _run(["--lang", "id", "validate", "--format", "json", str(FULL)])
    assert "sealed after 237 records" in out
    assert "disegel" not in out

    # a record cut before its seal, and one with a line altered
    lines = FULL.read_bytes().splitlines(keepends=True)
    cut = tmp_path / "cut.jsonl"
    cut.write_bytes(b"".join(lines[:50]))
    code, out, _err = _run(["--lang", "id", "validate", str(cut)])
    assert code == 1
    assert "rantai utuh · belum disegel" in out
    assert (
        "INTEGRITAS: belum disegel: catatan tidak memiliki segel, jadi akhirnya tidak dapat "
        "dibedakan dari potongan" in out
    )
    altered = tmp_path / "altered.jsonl"
    altered.write_bytes(
        b"".join([*lines[:10], lines[10].replace(b'"seq":10', b'"seq":11'), *lines[11:]])
    )
    code, out, _err = _run(["--lang", "id", "verify", str(altered)])
    assert code == 1
    assert "RUSAK pada seq 10, baris 11: hash tidak cocok dengan rantai" in out
    code, english, _err = _run(["verify", str(altered)])
    assert "BROKEN at seq 10, line 11: hash does not match the chain" in english


def test_a_said_value_survives_a_copy_across_processes() -> None:
    import pickle

    from vwlog.io.i18n import say, using_language
    from vwlog.model.text import Count, SaidText, msg, said_text

    text = said_text(msg("sealed after {count} records", count=Count(1955)))
    copy = pickle.loads(pickle.dumps(text))
    assert isinstance(copy, SaidText)
    assert copy == "sealed after 1,955 records"
    with using_language("id"):
        assert say(copy) == "disegel setelah 1.955 catatan"  # digits grouped as Indonesian does
    assert say(copy) == "sealed after 1,955 records"


def test_the_stepper_speaks_indonesian() -> None:
    """The stepper's header, key line, ``?`` help, prompts and messages, driven by key presses
    through Textual's headless pilot, in Indonesian; its event sentences too."""
    from tests.cli.test_stepper_screen import COMBAT, _app, drive, screen
    from vwlog.io.i18n import using_language

    views: dict[str, list[str]] = {}

    with using_language("id"):
        app = _app(COMBAT, start=40)

        async def script(pilot: Pilot[None]) -> None:
            views["start"] = screen(app)
            await pilot.press("question_mark")
            await pilot.pause()
            views["help"] = screen(app)
            await pilot.press("q")
            await pilot.press("slash")
            views["ask"] = screen(app)
            await pilot.press(*"tidak ada kartu ini", "enter")
            views["missing"] = screen(app)
            await pilot.press("g", *"abc", "enter")
            views["not a seq"] = screen(app)
            await pilot.press("v")
            views["hidden"] = screen(app)

        drive(app, script, (120, 30))

    head = views["start"][0]
    assert " · seq 40/238 · turn 1 · COMBAT" in head
    assert "prioritas p1" in head
    assert "titik prioritas" in head
    assert views["start"][-1] == (
        "? bantuan  n/p event  N/P keputusan  t/T turn  / cari  g seq  ↑↓ gulir  q keluar"
    )
    assert len(views["start"][-1]) <= 80  # the key line fits 80 columns in Indonesian too
    assert any("p1 pass (melepas prioritas)" in row for row in views["start"])
    shown = "\n".join(views["help"])
    assert "event berikutnya" in shown
    assert "cari di event (kartu, pemain, kata); kosong: cari lagi" in shown
    assert "? q Esc: tutup bantuan ini" in shown
    assert any(row.startswith("cari:") for row in views["ask"])
    assert "tidak ada event yang menyebut 'tidak ada kartu ini'" in views["missing"]
    assert "bukan seq: 'abc'" in views["not a seq"]
    assert "pelanggaran disembunyikan" in views["hidden"]


def test_derived_data_found_and_repaired_in_indonesian(plain_env: None, tmp_path: Path) -> None:
    from tests.services.test_tamper import _edit_catalog

    store = f"sqlite:///{tmp_path / 'vwlog.db'}"
    runner = CliRunner()
    assert runner.invoke(main, ["--store", store, "import", str(FULL)]).exit_code == 0
    _edit_catalog(store, "sample-full-combat", lambda m: m.update(turns=(m["turns"] or 0) + 1))
    english = runner.invoke(main, ["--store", store, "verify", "sample-full-combat"])
    assert "    ALTERED derived data: the catalog says turns 5 but the records give 4" in (
        english.stdout
    )
    found = runner.invoke(main, ["--lang", "id", "--store", store, "verify", "sample-full-combat"])
    assert found.exit_code == 1
    assert (
        "    DATA TURUNAN BERUBAH: katalog menyebut turns 5 tetapi catatan memberi 4"
        in found.stdout
    )
    repaired = runner.invoke(
        main, ["--lang", "id", "--store", store, "verify", "--repair", "sample-full-combat"]
    )
    assert "    DIPERBAIKI: entri katalog dibangun ulang dari catatan" in repaired.stdout


_BAD_LOGS = {
    "empty": (b"", "file kosong"),
    "bom": (b"\xef\xbb\xbf" + FULL.read_bytes(), "byte order mark"),
    "not-a-header": (b'{"seq": 1, "event": {}}\n', "bukan header"),
    "other-format": (b'{"format": "pgn", "version": 1}\n', "bukan log vwlog"),
    "newer": (b'{"format": "vwlog", "version": 99}\n', "perbarui vwlog"),
    "not-an-object": (b"[1, 2]\n", "objek json"),
}


def _bad_records() -> dict[str, tuple[bytes, str]]:
    header, first, second = FULL.read_bytes().splitlines(keepends=True)[:3]
    return {
        "blank-record": (header + b"\n", "baris kosong"),
        "gap": (header + first + second.replace(b'"seq":2', b'"seq":5'), "celah"),
        "duplicate": (header + first + first, "ganda"),
        "unknown-event": (
            header + first.replace(b'"match_started"', b'"match_begun"'),
            "tidak dikenal (maksud Anda 'match_won'?)",
        ),
        "unknown-field": (header + first.replace(b'{"event":{', b'{"colour":1,"event":{'), "field"),
        "missing-seq": (header + first.replace(b',"seq":1}', b"}"), "field wajib"),
        "truncated": (header + first[:40], "terpotong"),
    }


@pytest.mark.parametrize("case", [*_BAD_LOGS, *_bad_records()])
def test_the_log_reader_says_what_is_wrong_in_indonesian(
    plain_env: None, tmp_path: Path, case: str
) -> None:
    data, indonesian = {**_BAD_LOGS, **_bad_records()}[case]
    log = tmp_path / f"{case}.jsonl"
    log.write_bytes(data)
    code, _out, english = _run(["validate", str(log)])
    assert code == 2
    detail = english.strip().split(": ", 2)[-1]  # "Error: PATH, line N: DETAIL"
    code, _out, said = _run(["--lang", "id", "validate", str(log)])
    assert code == 2
    assert said.startswith("Galat: "), said
    assert indonesian in said, said
    assert detail not in said, (detail, said)
