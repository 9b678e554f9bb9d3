"""What was still English, or not the seed's word, under ``--lang id``: click's own usage
errors and help words, the Markdown report's boards, the kind of decision ``next`` awaits, the
ten combat steps (numbered where the seed names each), *Main Phase I / II*, and *masuk
Graveyard* for Followers (the seed keeps *hancur* for a Territory). Each through the real
command line; the English output of each stays as it was."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po
from click.testing import CliRunner

from vwlog.cli import main
from vwlog.cli.clicktext import CLICK_MESSAGES

from .test_language import INVALID, SAMPLES, _run, plain_env

__all__ = ["plain_env"]

FULL = SAMPLES / "full-combat.jsonl"
SEED_000 = next(Path(__file__).with_name("seeds").glob("000_*.txt"))
PO = Path(__file__).resolve().parents[2] / "vwlog" / "locale" / "id" / "LC_MESSAGES" / "vwlog.po"


def _seed_combat_steps() -> list[str]:
    """The names seed 000 gives the ten steps of the Combat Phase, in order, as it writes
    them ("1. Awal Combat Phase" … "10. Akhir Combat Phase")."""
    text = SEED_000.read_text(encoding="utf-8")
    part = text.split("terbagi dalam sepuluh tahap penting:", 1)[1].split("Main Phase II", 1)[0]
    steps = re.findall(r"^(\d+)\. (.+?)\s*$", part, flags=re.MULTILINE)
    assert [int(n) for n, _name in steps] == list(range(1, 11))
    return [name for _n, name in steps]


# -- click's own words -------------------------------------------------------------------------


def test_click_usage_errors_in_indonesian(plain_env: None) -> None:
    code, _out, err = _run(["--lang", "id", "validate", "--bogus"])
    assert code == 2
    assert err == (
        "Galat: Tidak ada opsi '--bogus'. Maksud Anda '--jobs'? (lihat 'vwlog validate --help')\n"
    )
    # --lang after the command, before the error: click words the error while it parses
    code, _out, err = _run(["validate", "--lang", "id", "--format", "xx", str(FULL)])
    assert code == 2
    assert err.startswith(
        "Galat: Nilai tidak valid untuk '--format': 'xx' bukan salah satu dari 'text', "
    )
    code, _out, err = _run(["validate"], env={"LANG": "id_ID.UTF-8"})
    assert err == "Galat: Tidak ada argumen 'LOGS...'. (lihat 'vwlog validate --help')\n"
    code, _out, err = _run(["--lang", "id", "nosuch"])
    assert err == "Galat: Tidak ada perintah 'nosuch'. (lihat 'vwlog --help')\n"
    # English stays click's own words
    code, _out, err = _run(["validate", "--bogus"])
    assert err == (
        "Error: No such option '--bogus'. Did you mean '--jobs'? (see 'vwlog validate --help')\n"
    )


def test_click_help_words_in_indonesian(plain_env: None) -> None:
    code, out, _err = _run(["--lang", "id", "validate", "--help"])
    assert code == 0
    assert "Tampilkan pesan ini, lalu keluar." in out
    assert "[variabel lingkungan: VWLOG_LANG]" in " ".join(out.split())
    assert "Show this message and exit." not in out
    assert "env var:" not in out
    # the help option is made once per command: English again when English is asked for
    code, out, _err = _run(["validate", "--help"])
    assert "Show this message and exit." in out
    assert "[env var: VWLOG_LANG]" in " ".join(out.split())
    code, out, _err = _run(["--lang", "id", "validate", "--help"])
    assert "Tampilkan pesan ini, lalu keluar." in out


def test_a_usage_error_leaves_no_language_behind(plain_env: None) -> None:
    from vwlog.io.i18n import active_language

    for args in (
        ["validate", "--lang", "id", "--bogus"],
        ["--lang", "id", "--bogus"],
        ["validate", "--lang", "id", "--format", "xx", str(FULL)],
        ["validate", "--lang", "id", str(FULL)],
    ):
        CliRunner().invoke(main, args)
        assert active_language() == "en", args


def test_the_list_of_click_messages_is_what_click_marks() -> None:
    """Every message the installed click marks for translation is in `CLICK_MESSAGES`, and
    has an Indonesian translation (a newer click with new messages fails here)."""
    import click

    folder = Path(click.__file__).parent
    marked: set[str | tuple[str, ...]] = set()
    for _file, _line, message, _comments, _context in extract_from_dir(
        str(folder),
        method_map=[("**.py", "python")],
        keywords={"_": None, "ngettext": (1, 2)},
    ):
        marked.add(message if isinstance(message, str) else tuple(message))
    assert len(marked) > 50
    assert marked == set(CLICK_MESSAGES)
    with PO.open("rb") as handle:
        catalog = read_po(handle, locale="id")
    for message in CLICK_MESSAGES:
        entry = catalog.get(message if isinstance(message, str) else message[0])
        assert entry is not None, message
        strings = [entry.string] if isinstance(entry.string, str) else list(entry.string)
        assert all(strings), message
        assert not entry.fuzzy, message


# -- the Markdown report's board ---------------------------------------------------------------


def test_the_markdown_report_board_in_indonesian(plain_env: None) -> None:
    code, out, _err = _run(["--lang", "id", "report", str(INVALID), "--format", "markdown"])
    assert code == 1
    board = out.split("Papan sebelum seq 193:", 1)[1].split("```", 2)[1]
    assert "turn 3 · aktif p1 · COMBAT/C6 · prioritas p1 (pass 0)" in board
    assert "*p1: gold 13 honor 5 VP 0 · tangan 3 deck 10 Graveyard 0" in board
    assert "p1-002 Marauder Captain 3/0/3 (ter-slide, menyerang)" in board
    assert "p2-002 Militia Spearman 2/0/1 (memblok)" in board
    assert "hand 3" not in board
    assert "(slid" not in board
    code, out, _err = _run(["report", str(INVALID), "--format", "markdown"])
    board = out.split("Board before seq 193:", 1)[1].split("```", 2)[1]
    assert "turn 3 · active p1 · COMBAT/C6 · priority p1 (passes 0)" in board
    assert "p1-002 Marauder Captain 3/0/3 (slid, attacking)" in board


# -- next ------------------------------------------------------------------------------------


def test_next_names_the_kind_of_decision_in_indonesian(plain_env: None) -> None:
    code, out, _err = _run(["--lang", "id", "next", str(FULL), "--at", "40"])
    assert code == 0
    assert out.startswith("seq 40 · turn 1 · COMBAT: giliran p1 memutuskan (prioritas); ")
    code, out, _err = _run(["next", str(FULL), "--at", "40"])
    assert out.startswith("seq 40 · turn 1 · COMBAT: p1 to decide (priority); ")


# -- the seed's names of steps and phases, and its verbs ---------------------------------------


@pytest.fixture(scope="module")
def replay_id() -> str:
    code, out, _err = _run(["--lang", "id", "replay", str(FULL)])
    assert code == 0
    return out


def test_the_ten_combat_steps_by_the_seeds_names(plain_env: None, replay_id: str) -> None:
    names = _seed_combat_steps()
    assert names[0] == "Awal Combat Phase"
    assert names[5] == "Tahap Distribusi Damage Follower"
    begun = [line.split(None, 1)[1] for line in replay_id.splitlines() if " dimulai" in line]
    for name in names:
        assert f"{name} dimulai ◆" in begun or f"{name} dimulai" in begun, name
    assert "Tahap Combat" not in replay_id
    # each step, in order, within the first Combat Phase
    first = replay_id.split("Combat Phase dimulai", 1)[1].split("Main Phase II dimulai", 1)[0]
    positions = [first.index(f"{name} dimulai") for name in names]
    assert positions == sorted(positions)
    _code, english, _err = _run(["replay", str(FULL)])
    assert "Combat step 6 begins" in english


def test_main_phase_i_and_ii(plain_env: None, replay_id: str) -> None:
    assert "   14  Main Phase I dimulai ◆" in replay_id
    assert "   64  Main Phase II dimulai ◆" in replay_id
    assert "Main Phase 1" not in replay_id
    assert "Main Phase 2" not in replay_id
    _code, english, _err = _run(["replay", str(FULL)])
    assert "Main Phase 1 begins" in english


def test_followers_go_to_the_graveyard_territories_are_destroyed(
    plain_env: None, replay_id: str
) -> None:
    assert "  200  Follower masuk Graveyard: Militia Spearman (p2-002) ◆" in replay_id
    assert "  209  Territory hancur: Ashen Warcamp (p2-001)" in replay_id
    assert "Follower hancur" not in replay_id
    _code, english, _err = _run(["replay", str(FULL)])
    assert "Followers destroyed: Militia Spearman (p2-002)" in english


# -- the reports' flag tables ------------------------------------------------------------------


def test_every_flag_meaning_has_an_indonesian_entry() -> None:
    """The meaning of every ruleset flag, as the reports' tables show it, is a message of the
    catalogs (extracted from the model's docstrings) with an Indonesian translation."""
    from vwlog.audit.report import flag_rows
    from vwlog.model.cards import Ruleset

    with PO.open("rb") as handle:
        catalog = read_po(handle, locale="id")
    rows = flag_rows(Ruleset())
    assert len(rows) > 40
    for row in rows:
        entry = catalog.get(row.meaning)
        assert entry is not None, row.name
        assert entry.string, row.name
        assert not entry.fuzzy, row.name


def test_the_report_flag_table_in_indonesian(plain_env: None) -> None:
    code, out, _err = _run(["--lang", "id", "report", str(INVALID), "--format", "markdown"])
    assert code == 1
    assert (
        "| `opening_hand` | OQ-1 | `6` | `5` | kartu yang di-draw setiap pemain sebelum turn "
        "pertama. |" in out
    )
    _code, out, _err = _run(["--lang", "id", "report", str(INVALID), "--format", "html"])
    assert "<td>gold awal setiap pemain.</td>" in out
    _code, out, _err = _run(["report", str(INVALID), "--format", "markdown"])
    english = "| `opening_hand` | OQ-1 | `6` | `5` | cards each player draws before the first turn."
    assert english in out
