"""The interactive stepper's screen (Textual), driven by key presses through Textual's headless
pilot on a real four-player sample: what each key shows, scrolling a board taller than the
terminal, resizing, the ``?`` help, search and go-to, and names that carry control characters
or markup."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import TYPE_CHECKING

import orjson
import pytest

from vwlog.cli.options import LoadedMatch
from vwlog.cli.stepper import KEYS, StepperApp, build_stepper
from vwlog.engine.replay import Collect, Step, replay
from vwlog.games.vw.describe import describe
from vwlog.io.logfile import read_log

if TYPE_CHECKING:
    from collections.abc import Awaitable, Callable

    from textual.pilot import Pilot

ROOT = Path(__file__).resolve().parents[2]
FOUR = ROOT / "samples" / "generated-tag-team-4.jsonl"
COMBAT = ROOT / "samples" / "full-combat.jsonl"


def _app(path: Path, *, start: int | None = None, player: str | None = None) -> StepperApp:
    header, records = read_log(path)
    match = LoadedMatch(str(path), header, ((r.seq + 1, r) for r in records))
    return StepperApp(build_stepper(match, start_seq=start, player=player))


def screen(app: StepperApp) -> list[str]:
    """The terminal's rows as the compositor draws them, right-trimmed."""
    return [strip.text.rstrip() for strip in app.screen._compositor.render_strips()]


def drive(
    app: StepperApp, script: Callable[[Pilot[None]], Awaitable[None]], size: tuple[int, int]
) -> None:
    """Run ``app`` headless at ``size`` and let ``script`` press keys and look."""

    async def run() -> None:
        async with app.run_test(size=size) as pilot:
            await pilot.pause()
            await script(pilot)

    asyncio.run(run())


@pytest.fixture(scope="module")
def steps() -> list[Step]:
    """Every step of the four-player sample, replayed apart from the stepper."""
    return replay(read_log(FOUR)[1], Collect())


def _seq_shown(rows: list[str], total: int) -> int:
    head = rows[0]
    assert f"/{total} · " in head, head
    return int(head.split(" · seq ", 1)[1].split("/", 1)[0])


def _tallest(steps: list[Step]) -> Step:
    return max(steps, key=lambda s: len(str(s.after).splitlines()))


def test_keys_move_through_the_match_and_the_screen_follows(steps: list[Step]) -> None:
    total = len(steps)
    decisions = [s.record.seq for s in steps if s.record.event.DECISION]
    turns = [s.record.seq for s in steps if s.record.event.type == "turn_started"]
    results = [s.record.seq for s in steps if s.record.event.type == "object_resulted"]
    app = _app(FOUR)
    seen: dict[str, int] = {}

    async def script(pilot: Pilot[None]) -> None:
        rows = screen(app)
        seen["start"] = _seq_shown(rows, total)
        assert rows[-1].startswith("? help")
        assert any(r.startswith(">     1  Match starts") for r in rows), rows
        for key, name in [
            ("n", "n"),
            ("right", "right"),
            ("p", "p"),
            ("left", "left"),
            ("N", "N1"),
            ("N", "N2"),
            ("P", "P"),
            ("t", "t1"),
            ("t", "t2"),
            ("T", "T"),
            ("r", "r"),
        ]:
            await pilot.press(key)
            rows = screen(app)
            seen[name] = _seq_shown(rows, total)
            current = next(r for r in rows if r.startswith(">"))
            assert int(current[1:7]) == seen[name], (key, current)

    drive(app, script, (100, 30))
    assert seen["start"] == 1
    assert (seen["n"], seen["right"], seen["p"], seen["left"]) == (2, 3, 2, 1)
    after_one = [d for d in decisions if d > 1]
    assert (seen["N1"], seen["N2"], seen["P"]) == (after_one[0], after_one[1], after_one[0])
    later = [t for t in turns if t > after_one[0]]
    assert (seen["t1"], seen["t2"], seen["T"]) == (later[0], later[1], later[0])
    assert seen["r"] == next(r for r in results if r > later[0])


def test_a_board_taller_than_the_terminal_scrolls(steps: list[Step]) -> None:
    tall = _tallest(steps)
    board = str(tall.after).splitlines()
    # with the header, five events and the key line, it does not fit 24 rows
    assert len(board) + 8 > 24
    app = _app(FOUR, start=tall.record.seq)
    views: dict[str, list[str]] = {}

    async def script(pilot: Pilot[None]) -> None:
        views["top"] = screen(app)
        await pilot.press("end")
        views["end"] = screen(app)
        await pilot.press("home")
        views["home"] = screen(app)
        await pilot.press("pagedown")
        views["page"] = screen(app)
        await pilot.press("down", "down", "up")
        views["line"] = screen(app)

    drive(app, script, (80, 24))
    top, end = "\n".join(views["top"]), "\n".join(views["end"])
    assert f">{tall.record.seq:>6}" in top
    assert board[-1].strip() not in top
    assert board[-1].strip() in end
    assert f">{tall.record.seq:>6}" not in end
    assert views["home"] == views["top"]
    assert views["page"] != views["top"]
    assert views["line"] not in (views["top"], views["page"])
    # the header and the key line stay put while the body scrolls
    for view in views.values():
        assert f"seq {tall.record.seq}/" in view[0]
        assert view[-1].startswith("? help")


def test_the_screen_follows_a_resized_terminal(steps: list[Step]) -> None:
    tall = _tallest(steps)
    board = str(tall.after).splitlines()
    app = _app(FOUR, start=tall.record.seq)
    views: list[list[str]] = []

    async def script(pilot: Pilot[None]) -> None:
        views.append(screen(app))
        await pilot.resize_terminal(80, 24)
        await pilot.pause()
        views.append(screen(app))
        await pilot.resize_terminal(200, 70)
        await pilot.pause()
        views.append(screen(app))

    drive(app, script, (200, 70))
    big, small, again = views
    assert [len(big), len(small), len(again)] == [70, 24, 70]
    assert all(len(row) <= 80 for row in small)
    for line in board:
        assert line.strip() in "\n".join(big)
        assert line.strip() in "\n".join(again)
    assert board[-1].strip() not in "\n".join(small)
    assert small[-1].startswith("? help")


def test_question_mark_shows_every_key_and_closes_again() -> None:
    app = _app(FOUR)
    views: list[list[str]] = []

    async def script(pilot: Pilot[None]) -> None:
        await pilot.press("question_mark")
        await pilot.pause()
        views.append(screen(app))
        await pilot.press("q")  # closes the help, not the stepper
        await pilot.pause()
        views.append(screen(app))
        await pilot.press("n")
        views.append(screen(app))

    drive(app, script, (100, 30))
    shown, closed, moved = ("\n".join(v) for v in views)
    rows = shown.splitlines()
    for key, what in KEYS:
        assert any(key in row and what in row for row in rows), what
    assert "next decision" not in closed
    assert "seq 1/" in closed
    assert "seq 2/" in moved


def test_search_and_go_to_and_escape(steps: list[Step]) -> None:
    total = len(steps)
    names = [describe(s.record.event, s.before) for s in steps]
    needle = "Siege Ogre"
    hits = [i + 1 for i, text in enumerate(names) if needle.lower() in text.lower()]
    assert len(hits) >= 2
    app = _app(FOUR)
    seen: list[int] = []
    messages: list[str] = []

    async def script(pilot: Pilot[None]) -> None:
        await pilot.press("slash")
        assert any(r.startswith("search:") for r in screen(app))
        await pilot.press(*needle, "enter")
        seen.append(_seq_shown(screen(app), total))
        await pilot.press("slash", "enter")  # empty: the same search again
        seen.append(_seq_shown(screen(app), total))
        await pilot.press("slash", *"no card is called this", "enter")
        messages.append(screen(app)[-2])
        await pilot.press("g")
        assert any(r.startswith("go to seq:") for r in screen(app))
        await pilot.press(*"123", "enter")
        seen.append(_seq_shown(screen(app), total))
        await pilot.press("g", *"abc", "enter")
        messages.append(screen(app)[-2])
        await pilot.press("g", *"9", "escape")  # Esc leaves the prompt, not the stepper
        seen.append(_seq_shown(screen(app), total))
        assert not any(r.startswith("go to seq:") for r in screen(app))
        await pilot.press("n")
        seen.append(_seq_shown(screen(app), total))

    drive(app, script, (100, 30))
    assert seen == [hits[0], hits[1], 123, 123, 124]
    assert messages[0] == "no event mentions 'no card is called this'"
    assert messages[1] == "not a seq: 'abc'"


def test_names_with_control_characters_and_markup_are_shown_escaped(tmp_path: Path) -> None:
    evil = "\x1b[2J\u202eOK[bold]x[/bold]\x07\x00"
    lines = []
    for raw in COMBAT.read_text(encoding="utf-8").splitlines():
        data = orjson.loads(raw)
        data.pop("hash", None)
        lines.append(
            orjson.dumps(data).decode().replace('"Ashen Warcamp"', orjson.dumps(evil).decode())
        )
    path = tmp_path / "evil.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    app = _app(path)
    texts: list[str] = []

    async def script(pilot: Pilot[None]) -> None:
        await pilot.press("slash", *"[bold]", "enter")
        texts.append("\n".join(screen(app)))

    drive(app, script, (200, 40))
    text = texts[0]
    assert "\\x1b[2J\\u202eOK[bold]x[/bold]\\x07\\x00" in text
    for raw in ("\x1b", "\u202e", "\x07", "\x00"):
        assert raw not in text


def test_keys_typed_at_once_after_g_all_reach_the_prompt(steps: list[Step]) -> None:
    """A burst (g, digits, Enter, End as one write to the terminal) is handled in the order
    typed: nothing is lost to a prompt that is still opening."""
    from textual import events

    app = _app(FOUR)
    target = _tallest(steps)
    board = str(target.after).splitlines()
    rows: list[list[str]] = []

    async def script(pilot: Pilot[None]) -> None:
        for key in ["g", *str(target.record.seq), "enter", "end"]:
            char = key if len(key) == 1 else ("\r" if key == "enter" else None)
            app.post_message(events.Key(key, char))
        await pilot.pause(0.5)
        rows.append(screen(app))

    drive(app, script, (80, 24))
    shown = rows[0]
    assert f"seq {target.record.seq}/{len(steps)}" in shown[0]
    assert board[-1].strip() in "\n".join(shown)
