"""Every word the commands of this file say to people goes through the catalogs.

The catalog tests find the messages the code hands to gettext; an English line built without
it (an f-string) is invisible to them. Here the commands run in a pseudo-language whose
catalog marks each message it is asked for (``«…»``): what is left outside the marks must be
data (ids, names, numbers, seqs, hashes, paths, rule titles from the rules data, the play
notation), never an English word. A line added to diff, next, play, import, verify, what a
verdict rests on, or the stepper without a catalog entry fails here."""

from __future__ import annotations

import gettext
import re
from typing import TYPE_CHECKING

import pytest
from click.testing import CliRunner

from vwlog.cli import main
from vwlog.io import i18n

from .test_language import INVALID, SAMPLES

if TYPE_CHECKING:
    from pathlib import Path

FULL = SAMPLES / "full-combat.jsonl"
_MARKED = re.compile(r"«[^«»]*»")
_COMMAND = re.compile(r"\bvwlog [a-z]+")
"""A command's name (``vwlog replay``): data, the same in every language."""
_WORD = re.compile(r"(?<![\w/.'-])[a-z]{2,}(?![\w/.'-])")


class _Pseudo(gettext.NullTranslations):
    """A catalog that translates every message into itself, marked."""

    def gettext(self, message: str) -> str:
        return f"«{message}»"

    def ngettext(self, msgid1: str, msgid2: str, n: int) -> str:
        return f"«{msgid1 if n == 1 else msgid2}»"


@pytest.fixture
def pseudo(monkeypatch: pytest.MonkeyPatch) -> None:
    """``--lang id`` speaks the marking pseudo-language; the rules' Indonesian titles (data,
    not messages) are left as they are."""
    real = i18n.translations
    monkeypatch.setattr(
        i18n, "translations", lambda lang: _Pseudo() if lang == "id" else real(lang)
    )
    for name in ("VWLOG_LANG", "LC_ALL", "LC_MESSAGES", "LANG"):
        monkeypatch.delenv(name, raising=False)


def _unmarked(text: str) -> str:
    """``text`` without its marked messages (nested ones too)."""
    while True:
        left = _MARKED.sub(" ", text)
        if left == text:
            return left
        text = left


def _rule_titles() -> list[str]:
    from vwlog.render.rules import rule_title
    from vwlog.rules.catalog import RULES

    with i18n.using_language("id"):
        return sorted((rule_title(r) for r in RULES), key=len, reverse=True)


def english_words(output: str, *, skip: tuple[str, ...] = ()) -> list[tuple[str, str]]:
    """The English words left outside the marks, with their line (lines starting with
    ``skip`` are data: the play notation)."""
    titles = _rule_titles()
    kept = "\n".join(line for line in output.splitlines() if not (skip and line.startswith(skip)))
    found = []
    for line in _unmarked(kept).splitlines():  # a message may span lines
        rest = _COMMAND.sub(" ", line)
        for title in titles:
            rest = rest.replace(title, " ")
        found += [(word, line) for word in _WORD.findall(rest)]
    return found


def _run(*args: str) -> str:
    result = CliRunner().invoke(main, ["--lang", "id", *args])
    assert result.exception is None or isinstance(result.exception, SystemExit), result.output
    return result.stdout + result.stderr


def test_the_check_sees_an_english_line() -> None:
    assert [w for w, _line in english_words("«seq {seq}» 12 · the match is over")] == [
        "the",
        "match",
        "is",
        "over",
    ]
    assert english_words("«a line\nand the next» vwlog replay p1") == []
    assert english_words("«A «nested» one» p1-002 Marauder Captain sample-full-combat") == []


def test_diff_says_nothing_outside_the_catalogs(pseudo: None, tmp_path: Path) -> None:
    assert english_words(_run("diff", str(FULL), str(INVALID))) == []
    short = tmp_path / "short.jsonl"
    short.write_bytes(b"".join(FULL.read_bytes().splitlines(keepends=True)[:100]))
    assert english_words(_run("diff", str(short), str(FULL))) == []
    assert english_words(_run("diff", str(FULL), str(FULL))) == []


def test_next_says_nothing_outside_the_catalogs(pseudo: None) -> None:
    out = _run("next", str(FULL), "--at", "40")
    assert "«pass»" not in out  # the decisions are the play notation, as written
    assert english_words(out, skip=("  ",)) == []
    assert english_words(_run("next", str(SAMPLES / "absolute-victory.jsonl"))) == []


def test_import_play_list_lineage_and_export_say_nothing_outside_the_catalogs(
    pseudo: None, tmp_path: Path
) -> None:
    store = f"sqlite:///{tmp_path / 'vwlog.db'}"
    broken = tmp_path / "broken.jsonl"
    broken.write_text('{"not": "a header"}\n', encoding="utf-8")
    out = _run("--store", store, "import", str(FULL), str(INVALID), str(broken))
    assert english_words(out) == []
    other = f"sqlite:///{tmp_path / 'other.db'}"
    assert english_words(_run("--store", other, "import", "--reject-illegal", str(INVALID))) == []
    fork = CliRunner().invoke(main, ["--store", store, "fork", "sample-full-combat", "--at", "40"])
    assert fork.exit_code == 0, fork.output
    assert english_words(_run("--store", store, "play", fork.stdout.strip(), "pass")) == []
    assert english_words(_run("--store", store, "list")) == []
    assert english_words(_run("--store", store, "lineage", "sample-full-combat")) == []
    exported = tmp_path / "exported.jsonl"
    assert (
        english_words(_run("--store", store, "export", fork.stdout.strip(), "-o", str(exported)))
        == []
    )


def test_verify_and_what_a_verdict_rests_on_say_nothing_outside_the_catalogs(
    pseudo: None, tmp_path: Path
) -> None:
    lines = FULL.read_bytes().splitlines(keepends=True)
    cut = tmp_path / "cut.jsonl"
    cut.write_bytes(b"".join(lines[:50]))
    altered = tmp_path / "altered.jsonl"
    # a step renamed after the fact: the line still reads, its hash no longer fits
    altered.write_bytes(b"".join([*lines[:40], lines[40].replace(b'"C3"', b'"C4"'), *lines[41:]]))
    for log in (FULL, cut, altered):
        assert english_words(_run("verify", str(log))) == [], log
        assert english_words(_run("validate", str(log))) == [], log


def test_the_stepper_says_nothing_outside_the_catalogs(pseudo: None) -> None:
    from vwlog.cli.options import LoadedMatch
    from vwlog.cli.stepper import HELP, KEYS, build_stepper
    from vwlog.io.logfile import read_log

    header, records = read_log(INVALID)
    match = LoadedMatch(str(INVALID), header, ((r.seq + 1, r) for r in records))
    said: list[str] = []
    with i18n.using_language("id"):
        stepper = build_stepper(match, start_seq=193, player=None)
        said.append(stepper.header())
        said += [line for line in stepper.body() if line.startswith((">", " "))][:5]
        for move in (stepper.next_combat_step, stepper.previous_turn, stepper.next_result):
            move()
            said.append(stepper.message)
        stepper.index = len(stepper.timeline) - 1
        stepper.next()
        said.append(stepper.message)
        stepper.go_to("abc")
        said.append(stepper.message)
        stepper.go_to("99999")
        said.append(stepper.message)
        stepper.search("no card is called this")
        said.append(stepper.message)
        stepper.toggle_violations()
        said.append(stepper.message)
        said.append(i18n.gettext(HELP))
        said += [i18n.gettext(what) for _key, what in KEYS]
    assert english_words("\n".join(said)) == []


def test_the_board_says_nothing_outside_the_catalogs(pseudo: None) -> None:
    """``show``, ``replay --board`` and so the stepper's board (the same drawing)."""
    out = _run("show", str(FULL), "--at", "120", "--as", "p1")
    assert "«as p1: what p1 may know, after seq 120»" in out
    assert english_words(out) == []
    board = _run("replay", str(SAMPLES / "absolute-victory.jsonl"), "--board")
    assert "«register (top last):»" in board
    assert english_words(board) == []
    assert english_words(_run("replay", str(INVALID), "--board", "--from", "190")) == []


def test_rebase_rules_and_the_trust_commands_say_nothing_outside_the_catalogs(
    pseudo: None, tmp_path: Path
) -> None:
    """``rebase``, ``rules`` (its reasons: the status column is the ``--status`` values),
    ``simulate``'s summary, ``keys``, ``sign``, ``pool`` and ``ruleset``, and the error line of
    a log a worker could not read."""
    import shutil

    from tests.cli.test_rebase_cli import summon_point
    from tests.services.support import generated_log, records_of

    log = generated_log(tmp_path, 21, 2)
    store = f"sqlite:///{tmp_path / 'vwlog.db'}"
    assert CliRunner().invoke(main, ["--store", store, "import", str(log)]).exit_code == 0
    header, records = records_of(log)
    fork = CliRunner().invoke(
        main, ["--store", store, "fork", header.match_id, "--at", str(summon_point(records))]
    )
    fork_id = fork.stdout.strip()
    assert CliRunner().invoke(main, ["--store", store, "play", fork_id, "pass"]).exit_code == 0
    out = _run("--store", store, "rebase", fork_id, "--dry-run")
    assert "«; nothing stored (--dry-run)»" in out
    assert english_words(out) == []
    statuses = re.compile(r"^(\S+ +)(enforced|partial|descriptive|pending)\b", re.MULTILINE)
    assert english_words(statuses.sub(r"\1", _run("rules"))) == []
    flags = re.sub(r"^\S+ +\S+ +\S+", " ", _run("rules", "--flags"), flags=re.MULTILINE)
    assert english_words(flags) == []  # the question, the flag and its default are data
    said = _run("simulate", "--seed", "7", "-n", "2", "-o", str(tmp_path / "corpus"))
    assert english_words(said) == []
    keys = tmp_path / "keys"
    assert english_words(_run("keys", "create", "bob", "--dir", str(keys))) == []
    signed = _run(
        "sign", str(tmp_path / "corpus" / "sim-7-00001.jsonl"), "--key", str(keys / "bob.key")
    )
    assert english_words(signed) == []
    pool = tmp_path / "errata.json"
    shutil.copy(i18n.LOCALE_DIR.parent / "data" / "pool.json", pool)
    assert english_words(_run("--store", store, "pool", "publish", str(pool), "--id", "c@1")) == []
    assert english_words(_run("--store", store, "pool", "list")) == []
    broken = tmp_path / "broken.jsonl"
    broken.write_text("xx\n", encoding="utf-8")
    for command in ("validate", "stats"):
        said = _run(command, "-j", "2", str(FULL), str(broken))
        error = [line for line in said.splitlines() if "broken.jsonl" in line]
        assert error, said
        # the log reader's own detail (malformed json at …) is not yet a template
        assert english_words(error[0].split(": malformed json")[0]) == []
