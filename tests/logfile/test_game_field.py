"""The header's ``game`` field: absent means Vandaria Wars and changes no byte of any existing
log; ``"vw"`` said outright is judged the same and hashed like any other field; a game this
vwlog does not judge is refused in one line naming the file, line 1 and the field, through the
real command line, never judged as Vandaria Wars and never stored."""

from __future__ import annotations

import glob
from pathlib import Path

import pytest
from click.testing import CliRunner

from vwlog.cli import main
from vwlog.events import EventRecord, LogHeader, MatchStarted
from vwlog.io.logfile import read_log, write_log
from vwlog.io.trust import seal_event, strip_trailer
from vwlog.model.games import DEFAULT_GAME, GAMES
from vwlog.services import sealed

SAMPLE = Path("samples/full-combat.jsonl")


def _with_game(source: Path, out: Path, game: str) -> Path:
    """``source`` with ``"game"`` in its header, every hash recomputed and sealed again, as
    a writer that names the game would write it."""
    header, records = read_log(source)
    body = strip_trailer(records)
    head, chained = sealed(header.model_copy(update={"hash": None, "game": game}), body)
    start = chained[0].event
    assert isinstance(start, MatchStarted)
    seal = EventRecord(
        seq=len(chained) + 1, event=seal_event(start, len(chained), chained[-1].hash or "")
    )
    head, tail = sealed(head, [*chained, seal])
    write_log(out, head, tail)
    return out


def _run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, ["--lang", "en", *args])
    return result.exit_code, result.stdout, result.stderr


def test_vandaria_wars_is_the_game_of_a_header_without_one() -> None:
    assert DEFAULT_GAME in GAMES
    assert GAMES[DEFAULT_GAME].name == "Vandaria Wars"
    assert LogHeader(match_id="m").game is None


@pytest.mark.parametrize("path", sorted(glob.glob("samples/**/*.jsonl", recursive=True)))
def test_every_sample_reads_and_writes_back_byte_for_byte(path: str, tmp_path: Path) -> None:
    """A Vandaria Wars sample names no game (the folder of another game's samples names it),
    and writing what was read gives the same bytes: the field changed nothing for the logs that
    exist."""
    try:
        header, records = read_log(path)
    except ValueError:
        pytest.skip("a sample that is unreadable on purpose")
    folder = Path(path).parent.name
    assert header.game == (folder if folder in GAMES and folder != DEFAULT_GAME else None)
    out = tmp_path / "again.jsonl"
    write_log(out, header, records)
    assert out.read_bytes() == Path(path).read_bytes()


def test_a_log_that_says_vw_is_judged_as_one_that_does_not(tmp_path: Path) -> None:
    said = _with_game(SAMPLE, tmp_path / "said.jsonl", "vw")
    assert b'"game":"vw"' in said.read_bytes().splitlines()[0]
    code, out, err = _run("validate", "--format", "json", str(said))
    plain_code, plain_out, _ = _run("validate", "--format", "json", str(SAMPLE))
    assert (code, err) == (plain_code, "")
    assert out.replace(str(said), "LOG") == plain_out.replace(str(SAMPLE), "LOG")
    assert _run("verify", str(said))[0] == 0


def test_the_game_is_part_of_what_the_chain_hashes(tmp_path: Path) -> None:
    """Dropping ``game`` from a sealed log that named it breaks the chain at the header."""
    said = _with_game(SAMPLE, tmp_path / "said.jsonl", "vw")
    lines = said.read_bytes().splitlines(keepends=True)
    dropped = tmp_path / "dropped.jsonl"
    dropped.write_bytes(b"".join([lines[0].replace(b'"game":"vw",', b""), *lines[1:]]))
    code, out, _ = _run("verify", str(dropped))
    assert code != 0
    assert "OK" not in out.split()


def test_a_stored_log_that_says_vw_exports_byte_for_byte(tmp_path: Path) -> None:
    said = _with_game(SAMPLE, tmp_path / "said.jsonl", "vw")
    store = f"sqlite:///{tmp_path / 's.db'}"
    assert _run("--store", store, "import", str(said))[0] == 0
    header, _ = read_log(said)
    out = tmp_path / "out.jsonl"
    code, _, err = _run("--store", store, "export", header.match_id, "-o", str(out))
    assert code == 0, err
    assert out.read_bytes() == said.read_bytes()


@pytest.mark.parametrize("command", ["validate", "verify", "replay", "import"])
def test_a_game_this_vwlog_does_not_judge_is_refused_in_one_line(
    tmp_path: Path, command: str
) -> None:
    header, _ = read_log(SAMPLE)
    text = SAMPLE.read_bytes().split(b"\n", 1)
    other = tmp_path / "chess.jsonl"
    other.write_bytes(
        text[0].replace(b'{"format"', b'{"game":"chess","format"', 1) + b"\n" + text[1]
    )
    store = tmp_path / "s.db"
    code, out, err = _run("--store", f"sqlite:///{store}", command, str(other))
    assert code == 2, (out, err)
    assert "Traceback" not in err
    line, *rest = err.splitlines()
    # a batch import adds its count of what it did with the logs it was given
    assert rest == (
        ["1 log: 0 stored, 0 unchanged, 0 rejected, 1 failed"] if command == "import" else []
    )
    assert str(other) in line
    assert "line 1" in line
    assert "'game'" in line
    # the games this process knows: vwlog's own, and a test's game once its tests registered it
    assert f"not one this vwlog judges (it judges: {', '.join(sorted(GAMES))})" in line
    assert {"l5r", "vw", "wowtcg"} <= set(GAMES)
    assert 'found "chess"' in line
    assert "OK" not in out.split()
    if command == "import":
        listed = _run("--store", f"sqlite:///{store}", "list", "--format", "json")
        assert header.match_id not in listed[1]
