"""Terminal injection: no text a record carries reaches a terminal raw.

An injection matrix through the real command line (click's runner, in process): each text field
a record carries (player name and id, match id, card name and ids, judge name, ruling reason,
generator, pool and ruleset ids) is given each payload (an ESC colour sequence, an OSC window
title, CR, LF, BEL, U+202E, the C1 CSI), in a sample log re-chained and re-sealed the way a
forger would (`vwlog.io.codec.seal_header` / `seal`, a new seal). Every text output is then read
for two things, on the file and on the match imported into a fresh SQLite store:

- no raw control character: no byte below 0x20 but the output's own line breaks, no DEL, no C1
  control, no bidi or invisible formatting character;
- no forged line: the output has as many lines as with a harmless value of the same length
  (``#`` for each payload character), and no line begins with the text the payload precedes.

A field that makes the record illegal, or that the store refuses (a match id must be safe),
is fine: the violation or the error line is read the same way. JSON keeps the value exact.
"""

from __future__ import annotations

import asyncio
import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

import orjson
import pytest
from click.testing import CliRunner

from vwlog.cli import main
from vwlog.cli.options import LoadedMatch
from vwlog.cli.stepper import StepperApp, build_stepper
from vwlog.events import EventRecord, LogHeader, MatchStarted
from vwlog.io import codec
from vwlog.io import trust as io_trust
from vwlog.io.logfile import read_log, write_log
from vwlog.model.text import term, visible

if TYPE_CHECKING:
    from collections.abc import Iterator, Sequence

SAMPLES = Path(__file__).resolve().parents[2] / "samples"
JUDGED = SAMPLES / "judge-backup.jsonl"
"""The default run's sample: short, and it carries a judge's ruling (judge name, reason)."""
COMBAT = SAMPLES / "full-combat.jsonl"
"""The slow run's second sample: a whole match with combat, won."""

MARK = "FORGED"
"""What follows the payload in every crafted value: a line that begins with it is forged."""

PAYLOADS = {
    "esc": "\x1b[31m",
    "osc": "\x1b]0;title\x07",
    "cr": "\r",
    "lf": "\n",
    "bel": "\x07",
    "rlo": "\u202e",
    "c1-csi": "\x9b",
}
MORE_PAYLOADS = {
    "nul": "\x00",
    "tab": "\t",
    "del": "\x7f",
    "nel": "\x85",
    "line-separator": "\u2028",
    "paragraph-separator": "\u2029",
    "isolate": "\u2066",
    "zero-width": "\u200b",
    "bom": "\ufeff",
    "forged-verdict": "\r\x1b[2K\x1b[1A\nOK · 0 violations\n",
}
"""More payloads for the slow run."""

RAW = re.compile(
    "[\x00-\x09\x0b-\x1f\x7f-\x9f\u061c\u200b-\u200f\u2028-\u202e\u2060\u2066-\u2069\ufeff]"
)
"""What no output may carry: a C0 control other than the line feed, DEL, a C1 control, a bidi
or invisible formatting character."""


@dataclass(frozen=True)
class Field:
    """Where a text field lives in a sample: every string equal to ``value`` (under ``key``
    when one is given), or every string under ``key`` (``value`` None)."""

    key: str | None
    value: str | None
    sample: Path = JUDGED

    def matches(self, key: str | None, text: str) -> bool:
        """Whether the string ``text`` under ``key`` is this field."""
        if self.key is not None and key != self.key:
            return False
        return self.value is None or text == self.value


FIELDS = {
    "player-name": Field("name", "Player 2"),
    "player-id": Field(None, "p2"),
    "match-id": Field("match_id", "sample-judge-backup"),
    "card-name": Field("name", "Ashen Warcamp"),
    "card-id": Field(None, "ashen-warcamp"),
    "card-instance-id": Field(None, "p2-002"),
    "judge-name": Field("judge", None),
    "ruling-reason": Field("reason", None),
    "generator": Field("generator", None),
    "pool-id": Field(None, "vw-sample-pool@2"),
    "ruleset-id": Field(None, "vw-samples"),
}
"""Every text field a record carries, as the default run crafts it."""

COMBAT_FIELDS = {
    name: Field(f.key, "sample-full-combat" if f.key == "match_id" else f.value, COMBAT)
    for name, f in FIELDS.items()
    if f.key not in ("judge", "reason")
}
"""The fields the full-combat sample carries (it has no ruling)."""


def _swap(node: Any, field: Field, payload: str, key: str | None = None) -> tuple[Any, int]:
    """``node`` with the payload and `MARK` after every string of ``field``; how many."""
    if isinstance(node, dict):
        pairs = [(k, _swap(v, field, payload, k)) for k, v in node.items()]
        return {k: v for k, (v, _n) in pairs}, sum(n for _k, (_v, n) in pairs)
    if isinstance(node, list):
        items = [_swap(v, field, payload, key) for v in node]
        return [v for v, _n in items], sum(n for _v, n in items)
    if isinstance(node, str) and field.matches(key, node):
        return node + payload + MARK, 1
    return node, 0


def crafted_log(field: Field, payload: str, out: Path) -> Path:
    """The field's sample with ``payload`` + `MARK` after each of the field's strings,
    re-chained from a re-hashed header and closed by a new seal, as a forger would."""
    lines = field.sample.read_bytes().splitlines()
    data = [orjson.loads(line) for line in lines]
    changed = 0
    for item in data:
        item.pop("hash", None)
    header_data, n = _swap(data[0], field, payload)
    changed += n
    header = codec.seal_header(LogHeader.model_validate(header_data))
    records = []
    for item in data[1:]:
        swapped, n = _swap(item, field, payload)
        changed += n
        records.append(EventRecord.model_validate(swapped))
    assert changed, f"{field} is not in {field.sample.name}"
    body = io_trust.strip_trailer(records)
    assert header.hash is not None
    chained = list(codec.seal(header.hash, body))
    start = chained[0].event if isinstance(chained[0].event, MatchStarted) else None
    last = chained[-1].hash or ""
    closing = EventRecord(
        seq=len(chained) + 1, event=io_trust.seal_event(start, len(chained), last)
    )
    chained += codec.seal(last, [closing])
    write_log(out, header, chained)
    return out


@dataclass(frozen=True)
class Output:
    """What one command wrote."""

    code: int
    stdout: str
    stderr: str

    def problems(self, harmless: Output) -> list[str]:
        """What makes this output unsafe for a terminal, next to the same command's output
        for a harmless value of the same length."""
        found = []
        for name, text, plain in (
            ("stdout", self.stdout, harmless.stdout),
            ("stderr", self.stderr, harmless.stderr),
        ):
            raw = RAW.search(text)
            if raw is not None:
                at = raw.start()
                found.append(f"{name}: raw {raw.group()!r} in {text[max(0, at - 60) : at + 20]!r}")
            if self.code == harmless.code and text.count("\n") != plain.count("\n"):
                found.append(
                    f"{name}: {text.count(chr(10))} lines, {plain.count(chr(10))} with a "
                    "harmless value"
                )
            forged = [line for line in text.split("\n") if line.lstrip().startswith(MARK)]
            if forged:
                found.append(f"{name}: forged line {forged[0][:80]!r}")
        return found


def _run(args: Sequence[str]) -> Output:
    result = CliRunner().invoke(main, list(args), catch_exceptions=False)
    return Output(
        result.exit_code,
        result.stdout_bytes.decode("utf-8"),
        result.stderr_bytes.decode("utf-8"),
    )


FORK_AT = "19"
"""A priority point of both samples (a fork may start there)."""


def _file_commands(log: str) -> dict[str, list[str]]:
    sample = str(SAMPLES / "full-combat.jsonl")
    return {
        "validate": ["validate", log],
        "validate --quiet": ["validate", "--quiet", log],
        "validate --format markdown": ["validate", "--format", "markdown", log],
        "verify": ["verify", log],
        "replay": ["replay", log],
        "replay --board": ["replay", log, "--board"],
        "replay --as p1 --board": ["replay", log, "--as", "p1", "--board", "--to", "30"],
        "replay --priority-points": ["replay", log, "--priority-points"],
        "show": ["show", log],
        "show --at --as p1": ["show", log, "--at", "20", "--as", "p1"],
        "next": ["next", log],
        "next --at": ["next", log, "--at", "20"],
        "report": ["report", log, "--at", "25"],
        "stats": ["stats", log, "--min-n", "1"],
        "stats --per-match": ["stats", log, "--per-match"],
        "diff": ["diff", log, sample],
        "replay --board (Indonesian)": ["--lang", "id", "replay", log, "--board", "--to", "40"],
        "show --as p1 (Indonesian)": ["--lang", "id", "show", log, "--as", "p1"],
        "validate (Indonesian)": ["--lang", "id", "validate", log],
    }


def _stored_commands(match_id: str) -> dict[str, list[str]]:
    fork = f"{match_id}~what-if"
    return {
        "list": ["list"],
        "show (stored)": ["show", match_id],
        "replay --board (stored)": ["replay", match_id, "--board"],
        "verify (stored)": ["verify", match_id],
        "next (stored)": ["next", match_id],
        "report (stored)": ["report", match_id, "--at", "25"],
        "stats --per-match (stored)": ["stats", "--per-match"],
        "stats (stored)": ["stats", "--min-n", "1"],
        "fork": ["fork", match_id, "--at", FORK_AT, "--name", "what-if"],
        "lineage": ["lineage", match_id],
        "rebase --dry-run": ["rebase", fork, "--dry-run"],
    }


def _stepper_lines(log: Path) -> Output:
    """Every screen of the interactive stepper (`Stepper.lines` at each event), as one text."""
    header, records = read_log(log)
    match = LoadedMatch(str(log), header, ((r.seq + 1, r) for r in records))
    stepper = build_stepper(match, start_seq=None, player=None)
    screens = []
    for index in range(len(stepper.timeline)):
        stepper.index = index
        screens.append("\n".join(stepper.lines()))
    return Output(0, "\n".join(screens) + "\n", "")


def outputs(field: Field, payload: str, folder: Path) -> dict[str, Output]:
    """Every text output of the crafted log: its commands on the file, then on the match
    imported into a fresh SQLite store, and the stepper's screens."""
    folder.mkdir(parents=True)
    log = crafted_log(field, payload, folder / "crafted.jsonl")
    head, _records = read_log(log)
    store = ["--store", f"sqlite:///{folder / 'store.db'}"]
    out = {name: _run([*store, *args]) for name, args in _file_commands(str(log)).items()}
    out["import"] = _run([*store, "import", str(log)])
    for name, args in _stored_commands(head.match_id).items():
        out[name] = _run([*store, *args])
    out["stepper"] = _stepper_lines(log)
    return out


def harmless(payload: str) -> str:
    """A value of the payload's length that no terminal reads as anything but text."""
    return "#" * len(payload)


@cache
def _baseline(field: Field, length: int, root: Path) -> dict[str, Output]:
    return outputs(field, "#" * length, root / f"harmless-{abs(hash(field))}-{length}")


def check(field: Field, payload: str, tmp: Path, root: Path) -> None:
    """Every output of ``field`` crafted with ``payload`` is terminal-safe, next to the
    harmless value's."""
    crafted = outputs(field, payload, tmp / "crafted")
    plain = _baseline(field, len(payload), root)
    problems = [
        f"{name}: {problem}"
        for name, output in crafted.items()
        for problem in output.problems(plain[name])
    ]
    assert problems == [], "\n".join(problems)
    # the crafted value reaches the outputs (shown escaped), so the check above means something
    assert any(MARK in o.stdout + o.stderr for o in crafted.values())
    if field.key != "generator" or payload[0] not in "\r\n":
        # (a generator is shown in Markdown only, where a line break is a space)
        escaped = term(payload[0])
        assert any(escaped in o.stdout + o.stderr for o in crafted.values()), escaped


@pytest.fixture(scope="module")
def baselines(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """The folder of the harmless runs, shared by the module (one run per field and length)."""
    yield tmp_path_factory.mktemp("harmless")
    _baseline.cache_clear()


@pytest.mark.parametrize("payload", list(PAYLOADS.values()), ids=list(PAYLOADS))
@pytest.mark.parametrize("field", list(FIELDS.values()), ids=list(FIELDS))
def test_no_text_a_record_carries_reaches_the_terminal_raw(
    field: Field, payload: str, tmp_path: Path, baselines: Path
) -> None:
    check(field, payload, tmp_path, baselines)


@pytest.mark.slow
@pytest.mark.parametrize(
    "payload",
    [*PAYLOADS.values(), *MORE_PAYLOADS.values()],
    ids=[*PAYLOADS, *MORE_PAYLOADS],
)
@pytest.mark.parametrize("field", list(COMBAT_FIELDS.values()), ids=list(COMBAT_FIELDS))
def test_a_whole_match_with_combat_under_every_payload(
    field: Field, payload: str, tmp_path: Path, baselines: Path
) -> None:
    check(field, payload, tmp_path, baselines)


@pytest.mark.slow
@pytest.mark.parametrize("payload", list(MORE_PAYLOADS.values()), ids=list(MORE_PAYLOADS))
@pytest.mark.parametrize("field", list(FIELDS.values()), ids=list(FIELDS))
def test_more_payloads_in_every_field(
    field: Field, payload: str, tmp_path: Path, baselines: Path
) -> None:
    check(field, payload, tmp_path, baselines)


# -- error lines that quote what the user or a directory gave ---------------------------------


def _error_outputs(payload: str, folder: Path) -> dict[str, Output]:
    """Commands whose error line (or report) quotes an argument or a file name holding
    ``payload``: an unseated viewpoint, an unknown match, an unknown rule, a log and an
    unreadable file named with it."""
    folder.mkdir(parents=True)
    named = folder / f"match{payload}{MARK}.jsonl"
    named.write_bytes(JUDGED.read_bytes())
    broken = folder / f"broken{payload}{MARK}.jsonl"
    broken.write_bytes(b'{"format": "vwlog", "version": 1}\n{"seq": 1, "event": \n')
    store = ["--store", f"sqlite:///{folder / 'store.db'}"]
    log = str(JUDGED)
    player = f"p9{payload}{MARK}"
    runs = {
        "show --as": ["show", log, "--as", player],
        "replay --as": ["replay", log, "--as", player],
        "show (unknown match)": ["show", f"m{payload}{MARK}"],
        "verify (unknown match)": ["verify", f"m{payload}{MARK}"],
        "rules (unknown rule)": ["rules", f"R-X{payload}{MARK}"],
        "validate (named file)": ["validate", str(named)],
        "verify (named file)": ["verify", str(named)],
        "validate (unreadable)": ["validate", str(broken)],
        "import (unreadable)": ["import", str(broken)],
        "next --at past the end": ["next", str(named), "--at", "9999"],
        "stats (unreadable)": ["stats", str(broken)],
    }
    return {name: _run([*store, *args]) for name, args in runs.items()}


@pytest.mark.parametrize("payload", list(PAYLOADS.values()), ids=list(PAYLOADS))
def test_error_lines_quote_input_escaped(payload: str, tmp_path: Path) -> None:
    crafted = _error_outputs(payload, tmp_path / "crafted")
    plain = _error_outputs(harmless(payload), tmp_path / "harmless")
    problems = [
        f"{name}: {problem}"
        for name, output in crafted.items()
        for problem in output.problems(plain[name])
    ]
    assert problems == [], "\n".join(problems)
    assert all(o.code == plain[name].code for name, o in crafted.items())
    assert all(o.code != 0 or name.endswith("(named file)") for name, o in crafted.items())


# -- the stepper on a screen, JSON, the escape itself -----------------------------------------


def test_the_stepper_draws_crafted_names_on_their_own_lines(tmp_path: Path) -> None:
    """``replay -i`` drawn headless: a line feed in a player id and a card name, an ESC and a
    C1 CSI, each shown escaped, and the screen has the rows a harmless value gives."""

    def screen(log: Path) -> list[str]:
        header, records = read_log(log)
        match = LoadedMatch(str(log), header, ((r.seq + 1, r) for r in records))
        app = StepperApp(build_stepper(match, start_seq=21, player=None))
        rows: list[str] = []

        async def run() -> None:
            async with app.run_test(size=(160, 60)) as pilot:
                await pilot.pause()
                rows.extend(app.shown())

        asyncio.run(run())
        return rows

    payload = "\n\x1b[2J\x9b"
    crafted = tmp_path / "crafted.jsonl"
    plain = tmp_path / "plain.jsonl"
    crafted_log(FIELDS["card-name"], payload, tmp_path / "card.jsonl")
    crafted_log(FIELDS["player-id"], payload, crafted)
    crafted_log(FIELDS["player-id"], harmless(payload), plain)
    for log in (crafted, tmp_path / "card.jsonl"):
        rows = screen(log)
        assert not any(RAW.search(row) for row in rows), rows
        assert not any(row.lstrip().startswith(MARK) for row in rows), rows
        assert any("\\x0a\\x1b[2J\\x9b" + MARK in row for row in rows), rows
    assert len(screen(crafted)) == len(screen(plain))


@pytest.mark.parametrize("payload", ["\n", "\x1b[31m", "\u202e"], ids=["lf", "esc", "rlo"])
def test_json_keeps_the_crafted_value_exact(payload: str, tmp_path: Path) -> None:
    log = crafted_log(FIELDS["player-id"], payload, tmp_path / "crafted.jsonl")
    player = "p2" + payload + MARK
    shown = _run(["show", str(log), "--format", "json"])
    awaited = _run(["next", str(log), "--format", "json"])
    trace = _run(["replay", str(log), "--format", "json", "--to", "3"])
    assert [p["id"] for p in orjson.loads(shown.stdout)["players"]] == ["p1", player]
    assert orjson.loads(awaited.stdout)["player"] == player
    assert player in orjson.loads(trace.stdout)[0]["description"]
    for output in (shown, awaited, trace):
        assert not RAW.search(output.stdout), output.stdout


def test_the_one_escape() -> None:
    every = "".join(chr(c) for c in [*range(0x20), 0x7F, *range(0x80, 0xA0)])
    every += "\u061c\u200b\u200c\u200d\u200e\u200f\u2028\u2029\u202a\u202b\u202c\u202d\u202e"
    every += "\u2060\u2066\u2067\u2068\u2069\ufeff"
    shown = term(every)
    assert not RAW.search(shown)
    assert "\n" not in shown
    assert shown.count("\\") == len(every)
    assert term("a\nb\x1b[31mc\u202e") == "a\\x0ab\\x1b[31mc\\u202e"
    assert term("\x9b\x00\x7f") == "\\x9b\\x00\\x7f"
    # a value without such characters keeps its exact text; a made block keeps its lines
    for plain in ("Dewi Sartika 🃏", "Goran Kovačević", "p1-002 Marauder Captain", "«», ½ · ◆"):
        assert term(plain) == plain
    assert visible("a\nb\x1b") == "a\nb\\x1b"
    assert term(term("x\ny")) == term("x\ny")
