"""Every ``vwlog`` command the README shows in a code block, and the documentation pages that
were its sections, runs, in that order, in a folder holding the files they name (the help
examples' folder, plus the two records the README's ``diff`` compares), and ends with the exit
status it should."""

from __future__ import annotations

import re
import shutil
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from tests.cli.test_help_examples import _run, world  # noqa: F401 -- a fixture, used below

if TYPE_CHECKING:
    from click.testing import CliRunner

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "README.md"
PAGES = [
    README,
    *(
        ROOT / "docs" / f"{name}.md"
        for name in (
            "cli",
            "bahasa-indonesia",
            "library",
            "verdicts",
            "service",
            "scaling",
            "concepts",
            "log-files",
            "samples",
            "architecture",
            "performance",
            "development",
        )
    ),
]
"""The README, then the documentation pages that were its sections, in the README's old order
(a block may use what an earlier one made)."""

SKIPPED = {
    "vwlog replay match.jsonl --interactive": "needs a terminal; test_replay_cli runs it in tmux",
    "vwlog simulate --seed 7 --matches 200 -o corpus/": (
        "200 matches (minutes); the folder holds the first two of them (same seed, same bytes)"
    ),
    "vwlog 0.1.0": "the first line of what 'vwlog --version' prints, not a command",
    "vwlog token revoke ID": "ID stands for the id 'token list' prints",
    "vwlog play live-1 pass --choose o7=p1-012": (
        "o7 stands for a register object whose skill leaves a choice; tests/rules/"
        "test_choice_effects.py plays such a choice on a stored match"
    ),
    "vwlog play live-1 pass --choose o9=p1-031,p1-030,p1-032": "as the line above",
}
"""README lines that are not run, and why."""
SKIPPED_WORDS = {
    "vwlog serve": "serves until stopped; tests/api start real servers",
    "/shared/": "paths on a cluster's shared file system",
    "db.example": "a PostgreSQL server of the reader's own",
}
"""README lines not run when they hold these words, and why."""
EXIT = {
    "vwlog diff alice.jsonl bob.jsonl": 1,  # the two records part: the finding diff is for
    "vwlog rebase 'sim-7-00001~block'": 1,  # the parent's next decision is illegal on the fork
    # match.jsonl names vw-default@1: held to spring-cup@1, the verdict says it was judged
    # under another ruleset than the one the match names
    "vwlog validate --pool spring-cup@1 --ruleset spring-cup@1 match.jsonl": 1,
    # under a hand limit of 2 the generated match breaks R-END-3: house rules change verdicts
    "vwlog validate --set hand_limit=2 match.jsonl": 1,
    # the other games' illegal samples: each breaks the rule the README shows it citing
    "vwlog validate samples/wowtcg/illegal-pass-out-of-turn.jsonl": 1,
    "vwlog validate samples/l5r/illegal_wrong_force.jsonl": 1,
    "vwlog report samples/l5r/illegal_wrong_force.jsonl": 1,  # a report of a finding
}
"""README lines whose exit status is not 0 (a finding), by design."""
ON_THEIR_OWN = {"vwlog simulate --seed 7 -o match.jsonl"}
"""Blocks that start over (a new match.jsonl, keys of their own): run in a fresh copy of the
folder, named by their first line."""


def readme_blocks() -> list[list[str]]:
    """The ``vwlog`` command lines of each code block (fenced or indented), in README order;
    comments are cut and ``a && b`` is two commands."""
    blocks: list[list[str]] = []
    current: list[str] | None = None
    fenced = False
    previous_blank = True
    for raw in "\n".join(p.read_text(encoding="utf-8") for p in PAGES).splitlines():
        if raw.startswith("```"):
            fenced = not fenced
            current = [] if fenced else None
            if fenced:
                blocks.append(current)  # type: ignore[arg-type]
            continue
        indented = not fenced and raw.startswith("    ") and (previous_blank or current)
        if not fenced and not indented:
            current = None
            previous_blank = not raw.strip()
            continue
        if not fenced and current is None:
            current = []
            blocks.append(current)
        line = re.split(r"\s+#\s", raw.strip(), maxsplit=1)[0].strip()
        for command in line.split(" && "):
            if command.startswith("vwlog "):
                assert current is not None
                current.append(command.strip())
    return [b for b in blocks if b]


def test_the_readme_has_examples() -> None:
    lines = [line for block in readme_blocks() for line in block]
    assert "vwlog validate match.jsonl" in lines
    assert "vwlog fork sim-7-00001 --at 235 --name block" in lines
    assert "vwlog sign match.jsonl --key keys/alice.key" in lines
    assert len(lines) > 40


@pytest.mark.slow
def test_every_readme_example_runs(
    runner: CliRunner,
    world: Path,  # noqa: F811 -- the imported fixture
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    shared = tmp_path / "readme"
    shutil.copytree(world, shared)
    # "where two records of one match part": the second record breaks a rule at its end
    shutil.copy(world / "p1-record.jsonl", shared / "alice.jsonl")
    shutil.copy(world / "p2-record.jsonl", shared / "bob.jsonl")
    monkeypatch.delenv("VWLOG_STORE", raising=False)
    monkeypatch.delenv("NO_COLOR", raising=False)
    ran = skipped = 0
    wrong = []
    for n, block in enumerate(readme_blocks()):
        folder = shared
        if block[0] in ON_THEIR_OWN:
            folder = tmp_path / f"block-{n}"
            shutil.copytree(world, folder)
        monkeypatch.chdir(folder)
        for line in block:
            if line in SKIPPED or any(w in line for w in SKIPPED_WORDS):
                skipped += 1
                continue
            code = _run(runner, line)
            if code != EXIT.get(line, 0):
                wrong.append(f"{line!r} exited {code}")
            ran += 1
    assert not wrong, "\n".join(wrong)
    assert ran > 40
    assert skipped <= len(SKIPPED) + 8, "skip only what is listed, and few"
