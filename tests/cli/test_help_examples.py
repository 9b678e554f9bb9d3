"""Every example in every command's help runs, in a folder holding the files the examples name,
and ends with the exit status it should; every option has a help text."""

from __future__ import annotations

import glob
import shlex
import shutil
from pathlib import Path
from typing import TYPE_CHECKING

import click
import pytest

from vwlog.cli import main
from vwlog.model.cards import Ruleset

if TYPE_CHECKING:
    from collections.abc import Iterator

    from click.testing import CliRunner

ROOT = Path(__file__).resolve().parents[2]

SKIPPED = {
    "vwlog replay match.jsonl --interactive": "needs a terminal; test_replay_cli runs it in tmux",
    "vwlog --store postgresql://postgres@127.0.0.1:5432/test import corpus/*.jsonl": (
        "writes the shared PostgreSQL test database; the store tests cover PostgreSQL"
    ),
    (
        "vwlog simulate --seed 5 --max-turns 160 --policy random --set victory_vp=1000 "
        "--set victory_honor=1000000 --set victory_territories=1000 -o long.jsonl"
    ): "generates one very long match (minutes); the other simulate examples run",
}
SKIPPED_WORDS = {
    "--cluster tcp://": "names a Dask scheduler of its own; tests/cluster runs --cluster local",
    "vwlog serve": "serves until stopped; tests/api start real servers",
}
"""Examples not run when they hold these words, and why."""
"""Examples not run here, and why."""

EXIT = {
    "vwlog report samples/invalid/damage-over-atk.jsonl": 1,  # an illegal record
    "vwlog report disputed.jsonl --at 40 --format html -o dispute.html": 1,
    "vwlog report --lang id samples/invalid/damage-over-atk.jsonl": 1,
    "vwlog report --quote-original samples/invalid/damage-over-atk.jsonl": 1,
    "vwlog token revoke 3f9a1c0b2e44": 2,  # the example's store holds no such token
    # match.jsonl was played under vw-default@1: held to spring-cup@1, its flags differ
    "vwlog validate --ruleset spring-cup@1 match.jsonl": 1,
    "vwlog import --reject-illegal disputed.jsonl": 1,  # disputed.jsonl breaks a rule
    "vwlog diff p1-record.jsonl p2-record.jsonl": 1,  # the two records part
    "vwlog rebase 'sim-7-00001~block'": 1,  # the parent's next decision is illegal on the fork
    "vwlog rebase 'sim-7-00001~block' --dry-run --format json": 1,
}
"""Examples whose exit status is not 0 (a finding), by design."""


def _commands(
    command: click.Command, path: tuple[str, ...] = ()
) -> Iterator[tuple[tuple[str, ...], click.Command]]:
    yield path, command
    if isinstance(command, click.Group):
        for name, sub in sorted(command.commands.items()):
            yield from _commands(sub, (*path, name))


def examples() -> list[tuple[str, str]]:
    """``(command path, example line)`` in help order; continued lines are joined."""
    out = []
    for path, command in _commands(main):
        lines = (command.help or "").splitlines()
        inside = seen = False
        pending = ""
        for line in lines:
            text = line.strip()
            if text.startswith("Example"):
                inside, seen = True, False
                continue
            if not inside or text == "\b":
                continue
            if not text:
                inside = not seen  # the blank line before the block, or its end
                continue
            seen = True
            text = pending + text
            if text.endswith("\\"):
                pending = text[:-1].rstrip() + " "
                continue
            pending = ""
            if text.startswith("vwlog"):
                out.append((" ".join(path) or "vwlog", text))
    return out


ORDER = ("simulate", "import", "fork", "play")
"""Commands whose examples make what later examples use (a corpus, a stored fork)."""

EXAMPLES = sorted(examples(), key=lambda e: ORDER.index(e[0]) if e[0] in ORDER else len(ORDER))


def test_every_command_has_examples() -> None:
    with_examples = {path for path, _ in EXAMPLES}
    for path, command in _commands(main):
        if isinstance(command, click.Group) and path:
            continue  # a group's examples are its commands'
        assert (" ".join(path) or "vwlog") in with_examples, f"{path}: no examples"


def test_every_option_has_help() -> None:
    for path, command in _commands(main):
        for param in command.params:
            if isinstance(param, click.Option) and not param.hidden:
                assert param.help, f"vwlog {' '.join(path)} {param.opts[0]}: no help text"


@pytest.fixture(scope="module")
def world(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder with every file the examples name: the samples, a small corpus (the README's
    first two matches of seed 7), copies named as the examples name them, and a store."""
    from click.testing import CliRunner

    folder = tmp_path_factory.mktemp("examples")
    shutil.copytree(ROOT / "samples", folder / "samples")
    runner = CliRunner(catch_exceptions=False)
    made = runner.invoke(main, ["simulate", "--seed", "7", "-n", "2", "-o", str(folder / "corpus")])
    assert made.exit_code == 0
    corpus = folder / "corpus"
    shutil.copy(corpus / "sim-7-00001.jsonl", folder / "match.jsonl")
    shutil.copy(folder / "samples" / "full-combat.jsonl", folder / "p1-record.jsonl")
    shutil.copy(folder / "samples" / "full-combat.jsonl", folder / "exported.jsonl")
    illegal = folder / "samples" / "invalid" / "damage-over-atk.jsonl"
    shutil.copy(illegal, folder / "p2-record.jsonl")
    shutil.copy(illegal, folder / "disputed.jsonl")
    (folder / "exported").mkdir()
    shutil.copy(folder / "samples" / "full-combat.jsonl", folder / "exported" / "a.jsonl")
    shutil.copy(ROOT / "vwlog" / "data" / "pool.json", folder / "errata.json")
    cup = Ruleset().model_copy(update={"id": "spring-cup"})
    (folder / "spring-cup.json").write_text(cup.model_dump_json())
    shutil.copy(folder / "match.jsonl", folder / "signed.jsonl")
    for args in (
        ["keys", "create", "bob", "--dir", str(folder / "keys")],
        ["sign", str(folder / "signed.jsonl"), "--key", str(folder / "keys" / "bob.key")],
    ):
        made = runner.invoke(main, args)
        assert made.exit_code == 0, made.stderr
    store = str(folder / "vwlog.db")
    logs = [*sorted(glob.glob(str(corpus / "*.jsonl"))), str(folder / "p1-record.jsonl")]
    assert runner.invoke(main, ["--store", store, "import", "-q", *logs]).exit_code == 0
    shutil.copy(folder / "vwlog.db", folder / "club.db")
    return folder


def _run(runner: CliRunner, line: str) -> int:
    words = shlex.split(line)
    assert words[0] == "vwlog"
    out = None
    if ">" in words:
        i = words.index(">")
        out, words = words[i + 1], words[:i]
    args: list[str] = []
    for w in words[1:]:
        args.extend(sorted(glob.glob(w)) or [w] if "*" in w else [w])
    result = runner.invoke(main, args)
    if out is not None:
        Path(out).write_bytes(result.stdout_bytes)
    assert "Traceback" not in result.stderr, result.stderr
    return result.exit_code


@pytest.mark.slow
def test_every_help_example_runs(
    runner: CliRunner, world: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(world)
    # the examples that name no store use the default one: here the world's
    monkeypatch.setenv("VWLOG_STORE", str(world / "vwlog.db"))
    monkeypatch.delenv("NO_COLOR", raising=False)
    ran = skipped = 0
    wrong = []
    seen: set[str] = set()
    for path, line in EXAMPLES:
        if line in seen:  # a group's help repeats its commands' examples: run each once
            continue
        seen.add(line)
        if line in SKIPPED or any(w in line for w in SKIPPED_WORDS):
            skipped += 1
            continue
        code = _run(runner, line)
        if code != EXIT.get(line, 0):
            wrong.append(f"{path}: {line!r} exited {code}")
        ran += 1
    assert not wrong, "\n".join(wrong)
    assert ran == len(seen) - skipped
    assert skipped <= len(SKIPPED) + 6, "skip only what is listed, and few"
