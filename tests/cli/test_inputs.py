"""Every command that reads a log, fed standard input, a missing file, a directory, an empty
file and a FIFO: a bad input is one ``Error:`` line and exit 2, never a traceback, never a hang
(a FIFO is opened once), and no store is created by looking a name up."""

from __future__ import annotations

import os
import threading
from pathlib import Path
from typing import TYPE_CHECKING

import click
import pytest

from vwlog.cli import main

if TYPE_CHECKING:
    from collections.abc import Callable

    from click.testing import CliRunner, Result

SAMPLE = Path(__file__).resolve().parents[2] / "samples" / "full-combat.jsonl"

COMMANDS: dict[str, Callable[[str], list[str]]] = {
    "validate": lambda log: ["validate", log],
    "verify": lambda log: ["verify", log],
    "replay": lambda log: ["replay", log],
    "show": lambda log: ["show", log],
    "next": lambda log: ["next", log],
    "report": lambda log: ["report", log],
    "diff": lambda log: ["diff", log, str(SAMPLE)],
    "stats": lambda log: ["stats", log],
    "import": lambda log: ["import", log],
}
"""Each command that reads a log, with the arguments that give it ``log``."""

GOOD_EXIT = {"report": 0, "diff": 0}
"""Exit status on the good sample (0 for all: it is legal and identical to itself)."""


@pytest.fixture
def folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An empty working folder with the default store (``vwlog.db``) in it."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("VWLOG_STORE", raising=False)
    return tmp_path


def _one_error_line(stderr: str) -> None:
    lines = [line for line in stderr.splitlines() if line.strip()]
    assert len(lines) == 1, stderr
    assert lines[0].startswith("Error: "), stderr
    assert "Traceback" not in stderr


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_missing_file(runner: CliRunner, folder: Path, command: str) -> None:
    result = runner.invoke(main, COMMANDS[command]("missing.jsonl"))
    assert result.exit_code == 2, result.output
    _one_error_line(result.stderr)
    assert "missing.jsonl" in result.stderr
    assert not (folder / "vwlog.db").exists(), "looking a name up created the store"


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_directory(runner: CliRunner, folder: Path, command: str) -> None:
    (folder / "logs").mkdir()
    result = runner.invoke(main, COMMANDS[command]("logs"))
    assert result.exit_code == 2, result.output
    _one_error_line(result.stderr)
    assert "logs" in result.stderr


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_empty_file(runner: CliRunner, folder: Path, command: str) -> None:
    (folder / "empty.jsonl").write_bytes(b"")
    result = runner.invoke(main, COMMANDS[command]("empty.jsonl"))
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.stderr
    assert "empty.jsonl" in result.stderr
    assert "Error: " in result.stderr


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_empty_standard_input(runner: CliRunner, folder: Path, command: str) -> None:
    result = runner.invoke(main, COMMANDS[command]("-"), input=b"")
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.stderr
    assert "Error: " in result.stderr


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_a_log_on_standard_input(runner: CliRunner, folder: Path, command: str) -> None:
    result = runner.invoke(main, COMMANDS[command]("-"), input=SAMPLE.read_bytes())
    assert result.exit_code == GOOD_EXIT.get(command, 0), result.output
    assert "log.jsonl" not in result.output, "a temporary copy's name reached the user"


def _write_once(fifo: Path, data: bytes) -> None:
    try:
        with fifo.open("wb") as out:  # blocks until the command opens it for reading
            out.write(data)
    except BrokenPipeError:
        pass  # released by _end_writer: the command never read


def _end_writer(fifo: Path, writer: threading.Thread) -> None:
    """Let a writer still waiting for a reader that never came go on, and wait for it: no
    thread of this test outlives it (tests later in the run measure this process)."""
    while writer.is_alive():  # bounded: an open for reading lets the writer's open return
        try:
            fd = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)
        except OSError:
            fd = -1  # the FIFO is gone: the writer's open already returned
        if fd >= 0:
            os.close(fd)
        writer.join(timeout=0.1)


def _release(fifo: Path) -> None:
    """Let a reader blocked on opening the FIFO again go on (it sees end of file)."""
    try:
        fd = os.open(fifo, os.O_WRONLY | os.O_NONBLOCK)
    except OSError:
        return  # nobody is waiting
    os.close(fd)


@pytest.fixture
def fifo(folder: Path) -> Path:
    path = folder / "pipe.jsonl"
    os.mkfifo(path)
    return path


def _invoke_on_fifo(
    runner: CliRunner, fifo: Path, data: bytes, args: list[str]
) -> tuple[bool, Result]:
    """Run ``args`` while one writer writes ``data`` into ``fifo`` once; whether the command
    hung on a second opening (then released), and its result."""
    writer = threading.Thread(target=_write_once, args=(fifo, data), daemon=True)
    writer.start()
    outcome: list[Result] = []
    run = threading.Thread(
        target=lambda: outcome.append(runner.invoke(main, args)),
        daemon=True,
    )
    run.start()
    run.join(timeout=60)
    hung = run.is_alive()
    while run.is_alive():  # bounded: each release lets one more open see end of file
        _release(fifo)
        run.join(timeout=0.1)
    _end_writer(fifo, writer)
    [result] = outcome
    return hung, result


@pytest.mark.parametrize("command", sorted(COMMANDS))
@pytest.mark.parametrize("content", ["empty", "log"])
def test_fifo_is_read_once(runner: CliRunner, fifo: Path, command: str, content: str) -> None:
    data = SAMPLE.read_bytes() if content == "log" else b""
    hung, result = _invoke_on_fifo(runner, fifo, data, COMMANDS[command](str(fifo)))
    assert not hung, f"{command} opened the FIFO a second time and waited for a writer"
    assert "Traceback" not in result.stderr
    if content == "empty":
        assert result.exit_code == 2, result.output
        assert "Error: " in result.stderr
    else:
        assert result.exit_code == GOOD_EXIT.get(command, 0), result.output


def test_another_games_log_in_a_fifo_is_refused_once_read(runner: CliRunner, fifo: Path) -> None:
    """stats finds a log's game by its header before measuring it; a FIFO cannot be read
    twice, so another game's log in one is one line naming the game, not a wait for a second
    writer."""
    data = (SAMPLE.parent / "l5r" / "legal_tie.jsonl").read_bytes()
    hung, result = _invoke_on_fifo(runner, fifo, data, ["--lang", "en", "stats", str(fifo)])
    assert not hung, "stats opened the FIFO a second time and waited for a writer"
    assert result.exit_code == 2, result.output
    _one_error_line(result.stderr)
    assert "a log of game l5r is measured by that game's statistics" in result.stderr


# -- commands that take a file that is not a log, or a stored match's id -----------------------

POOL = Path(__file__).resolve().parents[2] / "vwlog" / "data" / "pool.json"

OTHER: dict[str, Callable[[str], list[str]]] = {
    "sign": lambda arg: ["sign", arg, "--key", "keys/k.key"],
    "seal": lambda arg: ["seal", arg],
    "pool publish": lambda arg: ["pool", "publish", arg, "--id", "cup@1"],
    "ruleset publish": lambda arg: ["ruleset", "publish", arg],
    "export": lambda arg: ["export", arg],
    "fork": lambda arg: ["fork", arg, "--at", "3"],
    "play": lambda arg: ["play", arg, "pass"],
    "rebase": lambda arg: ["rebase", arg],
    "lineage": lambda arg: ["lineage", arg],
}
"""Each other command that reads a file (a key signs a log in place; a pool or a ruleset is
published) or names a stored match, with the arguments that give it ``arg``: none reads
standard input, so ``-`` is refused like a missing file."""
FIFO_READ = {"pool publish": POOL, "ruleset publish": None}
"""The commands that read a FIFO (once), with the content that is published from it."""
NO_INPUT = {
    "diff": "reads logs: COMMANDS",
    "info": "describes the installation and its store",
    "keys create": "writes a new key pair",
    "keys list": "lists a key folder (--dir)",
    "list": "lists the store",
    "next": "reads a log: COMMANDS",
    "pool list": "lists the published pools",
    "rules": "lists the rule catalog",
    "ruleset list": "lists the published rulesets",
    "schema export": "writes the JSON Schemas",
    "serve": "serves the store over HTTP",
    "simulate": "writes new logs",
    "token create": "writes a token into the store",
    "token list": "lists the store's tokens",
    "token revoke": "takes a token id",
}
"""Commands that read no file given on the command line, and what they do instead."""


def _leaves(group: click.Group, prefix: str = "") -> list[str]:
    out = []
    for name, command in group.commands.items():
        if isinstance(command, click.Group):
            out.extend(_leaves(command, f"{prefix}{name} "))
        else:
            out.append(prefix + name)
    return out


def test_every_command_is_fed_bad_input_or_reads_none() -> None:
    for name in _leaves(main):
        assert name in COMMANDS or name in OTHER or name in NO_INPUT, name


@pytest.fixture
def keyed(folder: Path, runner: CliRunner) -> Path:
    """The folder with a signing key in keys/."""
    made = runner.invoke(main, ["keys", "create", "k", "--dir", "keys"])
    assert made.exit_code == 0, made.output
    return folder


@pytest.mark.parametrize("command", sorted(OTHER))
@pytest.mark.parametrize("given", ["-", "missing.jsonl", "logs", "empty.jsonl"])
def test_other_commands_refuse_bad_input_in_one_line(
    runner: CliRunner, keyed: Path, command: str, given: str
) -> None:
    (keyed / "logs").mkdir()
    (keyed / "empty.jsonl").write_bytes(b"")
    result = runner.invoke(main, OTHER[command](given), input=SAMPLE.read_bytes())
    assert result.exit_code == 2, result.output
    _one_error_line(result.stderr)
    assert given in result.stderr
    assert not (keyed / "vwlog.db").exists(), "a refused command created the store"


@pytest.mark.parametrize("command", sorted(OTHER))
def test_other_commands_on_a_fifo_never_hang(runner: CliRunner, keyed: Path, command: str) -> None:
    fifo = keyed / "pipe.jsonl"
    os.mkfifo(fifo)
    content = FIFO_READ.get(command, SAMPLE)
    if command == "ruleset publish":
        from vwlog.model.cards import Ruleset

        data = Ruleset().model_copy(update={"id": "cup"}).model_dump_json().encode()
    else:
        data = (content or SAMPLE).read_bytes()
    writer = threading.Thread(target=_write_once, args=(fifo, data), daemon=True)
    writer.start()
    outcome: list[Result] = []
    run = threading.Thread(
        target=lambda: outcome.append(runner.invoke(main, OTHER[command](str(fifo)))),
        daemon=True,
    )
    run.start()
    run.join(timeout=60)
    hung = run.is_alive()
    while run.is_alive():
        _release(fifo)
        run.join(timeout=0.1)
    _end_writer(fifo, writer)
    assert not hung, f"{command} waited on the FIFO"
    [result] = outcome
    if command in FIFO_READ:
        assert result.exit_code == 0, result.output
    else:
        assert result.exit_code == 2, result.output
        _one_error_line(result.stderr)
        assert "pipe.jsonl" in result.stderr
