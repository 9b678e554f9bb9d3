"""The last English with ``--lang id``: the text board (``show``, ``replay --board``, the
stepper), ``rebase``, ``pool``/``keys``/``sign``, ``rules``, ``simulate``'s victories and the
per-log error line of a multi-file ``validate``/``stats``. Golden Indonesian outputs where the
whole text matters; the English output stays as it was (its own goldens and CLI tests)."""

from __future__ import annotations

import re
import shutil
from typing import TYPE_CHECKING

import pytest

from vwlog.io import i18n

from .test_language import INVALID, ROOT, SAMPLES, _golden, _run, plain_env

if TYPE_CHECKING:
    from pathlib import Path

    from click.testing import CliRunner

__all__ = ["plain_env"]

FULL = SAMPLES / "full-combat.jsonl"


@pytest.mark.golden
def test_golden_show_in_indonesian(plain_env: None, request: pytest.FixtureRequest) -> None:
    code, out, _err = _run(["--lang", "id", "show", str(FULL), "--at", "120", "--as", "p1"])
    assert code == 0
    lines = out.splitlines()
    assert lines[0] == "sebagai p1: apa yang dapat diketahui p1, setelah seq 120"
    assert lines[1] == "turn 2 · aktif p2 · COMBAT/C3 · prioritas p2 (pass 0)"
    assert " p1: gold 10 honor 5 VP 0 · tangan 3 deck 10 Graveyard 0" in lines
    assert "        p2-003 Gold Prospector 1/0/2 (ter-slide, Fatigue)" in lines
    _golden("show.id.txt", out, request)
    code, english, _err = _run(["show", str(FULL), "--at", "120", "--as", "p1"])
    assert english.splitlines()[:2] == [
        "as p1: what p1 may know, after seq 120",
        "turn 2 · active p2 · COMBAT/C3 · priority p2 (passes 0)",
    ]
    assert "        p2-003 Gold Prospector 1/0/2 (slid, fatigued)" in english


@pytest.mark.golden
def test_golden_replay_board_in_indonesian(plain_env: None, request: pytest.FixtureRequest) -> None:
    sample = str(SAMPLES / "absolute-victory.jsonl")
    code, out, _err = _run(
        ["--lang", "id", "replay", sample, "--board", "--from", "1", "--to", "6"]
    )
    assert code == 0
    assert "active" not in out
    assert "grave " not in out
    _golden("replay-board.id.txt", out, request)
    code, out, _err = _run(["--lang", "id", "replay", sample, "--board", "--from", "30"])
    assert "turn 1 · aktif p1 · MAIN1 · DIMENANGKAN p1 (ABSOLUTE)" in out
    assert "register (teratas di akhir):" in out


def test_the_board_is_english_by_default_and_indonesian_when_asked() -> None:
    from vwlog.cli.options import LoadedMatch
    from vwlog.cli.stepper import build_stepper
    from vwlog.io.logfile import read_log
    from vwlog.render.text import board_text

    header, records = read_log(INVALID)
    match = LoadedMatch(str(INVALID), header, ((r.seq + 1, r) for r in records))
    stepper = build_stepper(match, start_seq=193, player=None)
    timeline = stepper.timeline
    for i in range(len(timeline)):
        state = timeline.step(i).after
        assert board_text(state) == str(state)
    last = timeline.step(len(timeline) - 1).after
    with i18n.using_language("id"):
        said = board_text(last)
        stepper.index = len(timeline) - 1
        body = "\n".join(stepper.body())
    assert said != str(last)
    assert said.splitlines()[0].startswith("turn ")
    assert said in body


def test_rebase_says_its_stop_and_reasons_in_indonesian(
    plain_env: None, tmp_path: Path, runner: CliRunner
) -> None:
    from tests.cli.test_rebase_cli import fork, summon_point, vwlog
    from tests.services.support import generated_log, records_of

    log = generated_log(tmp_path, 21, 2)
    db = str(tmp_path / "vwlog.db")
    assert vwlog(runner, db, "import", log).exit_code == 0
    header, records = records_of(log)
    at = summon_point(records)
    fork_id = fork(runner, db, header.match_id, at, "pass")

    english = vwlog(runner, db, "rebase", fork_id, "--dry-run")
    result = vwlog(runner, db, "--lang", "id", "rebase", fork_id, "--dry-run")

    assert result.exit_code == english.exit_code == 1
    line = result.stdout.strip()
    assert line.startswith(f"{fork_id}: 0 dari ")
    assert "keputusan induk akan diterapkan ulang" in line
    assert f"; seq induk {at + 1} (p" in line
    assert " membayar " in line  # the decision's description, in Indonesian
    assert " tidak lagi sah pada seq cabang " in line
    assert line.endswith("; tidak ada yang disimpan (--dry-run)")
    rule = english.stdout.split(" is no longer legal at fork seq ", 1)[1].split(": ", 1)[1]
    rule_id, english_reason = rule.split(" ", 1)
    reason = line.split(" tidak lagi sah pada seq cabang ", 1)[1].split(": ", 1)[1]
    assert reason.startswith(rule_id + " ")
    assert reason.split(" ", 1)[1] != english_reason.split("; nothing stored")[0]
    # JSON stays the English data
    data = vwlog(runner, db, "--lang", "id", "rebase", fork_id, "--dry-run", "--format", "json")
    assert " pays " in data.stdout


def test_victory_names_in_indonesian() -> None:
    from vwlog.render.text import victory_name

    assert [victory_name(v) for v in ("MILITARY", "CONCESSION", None, "ODD")] == [
        "military",
        "concession",
        "",
        "odd",
    ]
    with i18n.using_language("id"):
        assert victory_name("MILITARY") == "Military"
        assert victory_name("UNFINISHED") == "belum selesai"


def _trust_commands(tmp_path: Path, lang: str) -> list[str]:
    """``simulate``, ``keys create``/``list``, ``sign``, ``pool publish``/``list`` and
    ``ruleset publish`` in ``lang``: each one's standard output and error."""
    from click.testing import CliRunner

    from vwlog.cli import main
    from vwlog.model.cards import Ruleset

    runner = CliRunner()
    folder = tmp_path / lang
    folder.mkdir()
    store = f"sqlite:///{folder / 'vwlog.db'}"
    shutil.copy(ROOT / "vwlog" / "data" / "pool.json", folder / "errata.json")
    cup = Ruleset().model_copy(update={"id": "spring-cup"})
    (folder / "spring-cup.json").write_text(cup.model_dump_json(), encoding="utf-8")
    said = []
    for args in (
        ["simulate", "--seed", "7", "-n", "2", "-o", str(folder / "corpus")],
        ["keys", "create", "bob", "--dir", str(folder / "keys")],
        ["keys", "list", "--dir", str(folder / "keys")],
        [
            "sign",
            str(folder / "corpus" / "sim-7-00001.jsonl"),
            "--key",
            str(folder / "keys" / "bob.key"),
        ],
        ["--store", store, "pool", "publish", str(folder / "errata.json"), "--id", "cup@1"],
        ["--store", store, "pool", "publish", str(folder / "errata.json"), "--id", "cup@1"],
        ["--store", store, "pool", "list"],
        ["--store", store, "ruleset", "publish", str(folder / "spring-cup.json")],
    ):
        result = runner.invoke(main, ["--lang", lang, *args])
        assert result.exit_code == 0, result.output
        said.append((result.stdout + result.stderr).replace(str(folder), "DIR"))
    return said


def test_simulate_pool_keys_and_sign_in_indonesian(plain_env: None, tmp_path: Path) -> None:
    english = _trust_commands(tmp_path, "en")
    indonesian = _trust_commands(tmp_path, "id")
    simulate, _created, _listed, signed, published, again, pools, ruleset = english
    assert "victory types:\n" in simulate
    assert re.search(r"\n  military +\d+ +\d+\.\d%\n", simulate)
    assert "\n  unfinished " in simulate
    assert re.fullmatch(
        r"DIR/corpus/sim-7-00001\.jsonl: signed by bob \(key \w+\) at seq \d+\n", signed
    )
    assert re.fullmatch(r"pool cup@1 published · \d+ cards · sha256 \w+\n", published)
    assert " already published · " in again
    assert re.search(r"cup@1 +\w{16}  +\d+ cards\n", pools)
    assert re.fullmatch(r"ruleset spring-cup@\d+ published · sha256 \w+\n", ruleset)
    simulate, created, _listed, signed, published, again, pools, ruleset = indonesian
    assert re.search(r"\n  Military +\d+ +\d+,\d%\n", simulate)
    assert "\n  belum selesai " in simulate
    assert created.startswith("membuat DIR/keys/bob.key dan .pub · id kunci ")
    assert re.fullmatch(
        r"DIR/corpus/sim-7-00001\.jsonl: ditandatangani oleh bob \(kunci \w+\) pada seq \d+\n",
        signed,
    )
    assert re.fullmatch(r"pool cup@1 dipublikasikan · \d+ kartu · sha256 \w+\n", published)
    assert " sudah dipublikasikan · " in again
    assert re.search(r"cup@1 +\w{16}  +\d+ kartu\n", pools)
    assert re.fullmatch(r"ruleset spring-cup@\d+ dipublikasikan · sha256 \w+\n", ruleset)


def test_every_reason_of_the_rule_catalog_is_a_message_of_the_catalogs() -> None:
    from vwlog.rules.catalog import NOT_ENFORCED, PARTIAL, PENDING_FLAGS

    from .test_catalogs import _extracted

    reasons = {r for _s, r in NOT_ENFORCED.values() if r}
    reasons |= set(PARTIAL.values()) | set(PENDING_FLAGS.values())
    assert len(reasons) > 40
    assert reasons - _extracted() == set()
    with i18n.using_language("id"):
        untranslated = [r for r in reasons if i18n.gettext(r) == r]
    assert untranslated == []


def test_rules_say_their_reasons_in_indonesian(plain_env: None) -> None:
    code, out, err = _run(["--lang", "id", "rules", "--status", "partial"])
    assert code == 0
    assert "(ditegakkan hanya sebagai waktu (penyerang masuk battle sampai tahap 2);" in out
    assert "enforced only" not in out
    assert re.match(r"\d+ aturan: \d+ ditegakkan, ", err)
    code, out, _err = _run(["--lang", "id", "rules", "--flags"])
    assert (
        "OQ-1   mulligan                               False          hanya dicatat: prosedur "
        "mulligan tidak didefinisikan di mana pun; flag ini hanya dicatat\n"
    ) in out
    code, english, _err = _run(["rules", "--flags"])
    assert (
        "OQ-1   mulligan                               False          recorded only: no mulligan "
        "procedure is defined anywhere; the flag is recorded only\n"
    ) in english
    code, data, _err = _run(["--lang", "id", "rules", "--format", "json", "--status", "partial"])
    assert "enforced only as timing" in data  # machine output stays the catalog's data


@pytest.mark.parametrize("command", ["validate", "stats"])
def test_the_error_line_of_a_log_read_by_a_worker_is_said_in_indonesian(
    plain_env: None, tmp_path: Path, command: str
) -> None:
    """With ``-j 2`` each log is read in a worker process; the error comes back as English
    text that keeps its template, and the parent says it in the asked language."""
    broken = tmp_path / "broken.jsonl"
    broken.write_text('{"not": "a header"}\n', encoding="utf-8")
    junk = tmp_path / "junk.jsonl"
    junk.write_text("xx\n", encoding="utf-8")
    logs = [str(FULL), str(broken), str(junk)]
    _code, _out, err = _run(["--lang", "id", command, "-j", "2", *logs])
    lines = [line for line in err.splitlines() if line.startswith("Galat: ")]
    assert [line.split(", baris 1: ")[0] for line in lines] == [
        f"Galat: {broken}",
        f"Galat: {junk}",
    ]
    _code, _out, english = _run([command, "-j", "2", *logs])
    assert f"Error: {broken}, line 1: not a vwlog header: " in english
    assert f"Error: {junk}, line 1: malformed json at column 1" in english


def test_a_worker_s_error_keeps_its_template_through_pickling() -> None:
    import pickle

    from vwlog.model.errors import LogFormatError

    said = pickle.loads(pickle.dumps(LogFormatError("a.jsonl", 3, "bad", "seq").said()))
    assert said == "a.jsonl, line 3, field 'seq': bad"
    with i18n.using_language("id"):
        assert i18n.say(said) == "a.jsonl, baris 3, field 'seq': bad"


def test_the_viewer_s_words_are_the_ones_its_script_says() -> None:
    from vwlog.api.routers.viewer import STATIC
    from vwlog.api.viewerwords import VIEWER_WORDS

    script = (STATIC / "viewer.js").read_text(encoding="utf-8")
    said = set(re.findall(r'\bword\("([^"\\]*)"', script))  # the script escapes none
    headings = re.search(
        r'\[("Match", [^\]]*)\]\.map\(\(h\) => el\("th", \{\}, word\(h\)\)\)', script
    )
    assert headings is not None
    said |= set(re.findall(r'"([^"]+)"', headings.group(1)))
    page = {"vwlog viewer", "Matches", "Record", "Statistics", "Token"}  # index.html.j2's own
    assert set(VIEWER_WORDS) - page == said - page
    with i18n.using_language("id"):
        untranslated = [w for w in VIEWER_WORDS if i18n.gettext(w) == w]
    # the game's terms the glossary keeps, and labels made only of them
    assert set(untranslated) <= {
        "Deck {count}",
        "Gold {gold}",
        "Graveyard {count}",
        "Honor {honor}",
        "Register:",
        "Relic",
        "Rune",
        "Seed",
        "turn",
        "win rate",
        "Seq {seq}",
        "Stray:",
        "Subdeck {count}",
        "Token",
        "Turn {turn}",
        "VP {vp}",
        "Winner {winner} ({victory}).",
    }


def test_the_viewer_page_is_said_in_the_negotiated_language_and_escaped() -> None:
    import asyncio

    import httpx

    from vwlog.api.app import create_app

    async def pages() -> list[httpx.Response]:
        transport = httpx.ASGITransport(app=create_app())
        async with httpx.AsyncClient(transport=transport, base_url="http://viewer") as client:
            return [
                await client.get("/"),
                await client.get("/m/x/3", params={"lang": "id"}),
                await client.get("/record", headers={"Accept-Language": "id-ID,id;q=0.9"}),
            ]

    english, indonesian, negotiated = asyncio.run(pages())
    from vwlog.api.routers.viewer import _page

    crafted = _page().render(lang="en", words='{"a": "\\"><script>alert(1)</script>"}')
    assert "<script>alert" not in crafted
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in crafted
    assert english.headers["content-language"] == "en"
    assert '<html lang="en">' in english.text
    assert '<a href="/">Matches</a>' in english.text
    assert "&#34;Fork from here&#34;: &#34;Fork from here&#34;" in english.text
    for answer in (indonesian, negotiated):
        assert answer.headers["content-language"] == "id"
        assert '<html lang="id">' in answer.text
        assert '<a href="/">Pertandingan</a>' in answer.text
        assert "&#34;Fork from here&#34;: &#34;Buat cabang dari sini&#34;" in answer.text
        assert "<meta" in answer.text
        assert "<script type" not in answer.text.split("vwlog-words")[1].split(">")[0]
