"""Golden command outputs: what ``validate``, ``replay``, ``report``, ``show`` and ``verify`` say
about every sample log, in text and JSON, with their exit statuses, compared byte for byte with
the files ``tools/capture_outputs.py`` wrote under ``tests/golden/outputs/`` (its docstring
lists the commands, the fixed environment and the few normalisations).

They pin what users see while the code beneath is moved around: a change to any of these outputs
fails here, naming the sample and the command, with a short diff. After an intended change,
regenerate them with

    python tools/capture_outputs.py
    (or: python -m pytest tests/golden/test_outputs.py --update-goldens)

then review ``git diff tests/golden/outputs`` and commit the files with the change.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tests.tools import load_tool

capture = load_tool("capture_outputs")
SAMPLES: list[Path] = capture.samples()
CASES = [(sample, command) for sample in SAMPLES for command in capture.commands(sample)]

pytestmark = pytest.mark.golden


@pytest.mark.parametrize(
    ("sample", "command"),
    CASES,
    ids=[f"{capture.sample_id(s)}:{c}" for s, c in CASES],
)
def test_a_command_says_what_it_said_when_captured(
    sample: Path, command: str, request: pytest.FixtureRequest
) -> None:
    with capture.fixed_environment() as env:
        outcome = capture.in_process(capture.argv(sample, command), env)
        found = capture.render(sample, command, outcome, env)
    path = capture.golden(sample, command)
    if request.config.getoption("--update-goldens"):
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(found)
    diff = capture.difference(sample, command, found)
    assert diff is None, (
        f"{capture.sample_id(sample)}: {command} differs from the captured output\n{diff}\n"
        f"after an intended change, run: {capture.REGENERATE} (then review git diff)"
    )


def test_every_sample_is_captured_and_nothing_else() -> None:
    assert len(SAMPLES) >= 30, "samples/ is missing logs; run python samples/build.py"
    assert {s.parent.as_posix() for s in SAMPLES} >= {"samples", "samples/invalid"}
    assert capture.strays() == [], f"run {capture.REGENERATE} to remove them"


def test_the_replays_left_to_the_traces_are_the_traces() -> None:
    from tests.golden.test_traces import WITHOUT_BOARD

    assert capture.TRACED == WITHOUT_BOARD


def test_a_changed_byte_is_caught_and_named(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The comparison can fail: one byte changed in a copy of a captured file is reported,
    with the sample, the command and the line, by the test's check and by ``--check``."""
    sample = Path("samples/absolute-victory.jsonl")
    folder = capture.OUTPUTS / "absolute-victory"
    copy = tmp_path / "outputs"
    shutil.copytree(folder, copy / "absolute-victory")
    changed = copy / "absolute-victory" / "validate.txt"
    changed.write_bytes(changed.read_bytes().replace(b"1 legal", b"1 Legal", 1))
    with capture.fixed_environment() as env:
        outcome = capture.in_process(capture.argv(sample, "validate"), env)
        found = capture.render(sample, "validate", outcome, env)
    assert capture.difference(sample, "validate", found) is None
    monkeypatch.setattr(capture, "OUTPUTS", copy)
    diff = capture.difference(sample, "validate", found)
    assert diff is not None
    assert "-1 log: 1 Legal, 0 illegal, 0 unreadable\n+1 log: 1 legal," in diff
    assert capture.main(["--check"]) == 1
    said = capsys.readouterr().err
    assert said.startswith("absolute-victory: validate differs\n")
    assert "+1 log: 1 legal, 0 illegal, 0 unreadable" in said
    assert capture.REGENERATE in said
