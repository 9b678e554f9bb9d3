"""``vwlog next``, ``fork``, ``play`` and ``rebase`` on WoW TCG matches, through the real command
line: the samples as log files and in a SQLite store. What ``next`` lists at a priority window,
a chain's response, the hand limit and Inspire; decisions played in the notation, appended with
the consequences the script owes; an illegal one refused citing its WOW-* rule, with nothing
stored; automatic play; and every result validated clean."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from vwlog.cli import main
from vwlog.games import rules_for

if TYPE_CHECKING:
    from click.testing import CliRunner, Result

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = ROOT / "samples" / "wowtcg"
HAND = SAMPLES / "hand-limit-and-inspire.jsonl"
COMBAT = SAMPLES / "combat-and-responses.jsonl"
MATCH = "hand-limit-and-inspire"


def _run(runner: CliRunner, *args: str) -> Result:
    return runner.invoke(main, ["--lang", "en", *args])


def _stored(runner: CliRunner, store: str, *args: str) -> Result:
    return _run(runner, "--store", store, *args)


def _fork(runner: CliRunner, store: str, at: int, name: str | None = None) -> str:
    """A fork of the sample at seq ``at``; its id."""
    named = ("--name", name) if name else ()
    done = _stored(runner, store, "fork", MATCH, "--at", str(at), *named)
    assert done.exit_code == 0, done.stderr
    return done.stdout.strip()


def _events(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line)["event"] for line in path.read_text().splitlines()[1:]]


def _clean(runner: CliRunner, path: Path) -> dict[str, Any]:
    """The validation report of ``path``, which must break no rule: OK once won (and sealed),
    else INCOMPLETE (exit 1, as for any match not over)."""
    done = _run(runner, "validate", "--format", "json", str(path))
    (report,) = json.loads(done.stdout)
    assert report["violations"] == [], report["violations"]
    won = report["winner"] is not None
    assert (done.exit_code, report["verdict"]) == ((0, "OK") if won else (1, "INCOMPLETE"))
    return dict(report)


@pytest.fixture
def store(tmp_path: Path, runner: CliRunner) -> str:
    """A SQLite store holding the hand-limit sample."""
    url = str(tmp_path / "club.db")
    assert _run(runner, "--store", url, "import", "-q", str(HAND)).exit_code == 0
    return url


@pytest.mark.parametrize(
    ("log", "at", "said"),
    [
        (
            HAND,
            11,
            [
                "seq 11 · turn 1 · ACTION: ana to decide (priority); 12 legal:",
                "  pass",
                "  play c1",
                "  power thrall",
                "  power kaldel-1",
                "  power kaldel-2",
                "  power footman",
                "  main c1",
                "  resource r1.1",
                "  attack thrall jaina",
                "  attack kaldel-1 jaina",
                "  attack kaldel-2 jaina",
                "  attack footman jaina",
            ],
        ),
        (
            COMBAT,
            14,
            ["seq 14 · turn 1 · ACTION: budi to decide (priority); 3 legal:", "  pass",
             "  play c2", "  power jaina"],
        ),
        (HAND, 26, ["seq 26 · turn 1 · END: ana to decide (discard); 1 legal:",
                    "  discard d1.1,d1.2"]),
        (HAND, 29, ["seq 29 · turn 1: no decision is awaited (the rules act next)"]),
    ],
)  # fmt: skip
def test_next_lists_the_legal_decisions_in_the_notation(
    runner: CliRunner, log: Path, at: int, said: list[str]
) -> None:
    done = _run(runner, "next", str(log), "--at", str(at))
    assert (done.exit_code, done.stderr) == (0, "")
    assert done.stdout.splitlines() == said


def test_next_offers_inspire_once_the_current_players_cards_are_readied(runner: CliRunner) -> None:
    done = _run(runner, "next", str(HAND), "--at", "33", "--format", "json")
    assert done.exit_code == 0
    shown = json.loads(done.stdout)
    assert (shown["player"], shown["kind"], shown["total"]) == ("ana", "inspire", 12)
    assert "inspire kaldel-1,footman by kaldel-1,kaldel-2" in shown["decisions"]  # the log's


def test_play_appends_each_decision_with_the_consequences_it_brings(
    runner: CliRunner, store: str
) -> None:
    fork = _fork(runner, store, 23, "end")
    done = _stored(runner, store, "play", fork, "pass")
    assert done.stdout == f"{fork}: 1 decision, 3 events appended; head seq 27\n"
    assert _stored(runner, store, "next", fork).stdout.splitlines() == [
        "seq 27 · turn 1 · END: ana to decide (discard); 1 legal:",
        "  discard d1.1,d1.2",
    ]
    done = _stored(runner, store, "play", fork, "discard c1,c2")
    assert done.stdout == f"{fork}: 1 decision, 7 events appended; head seq 34\n"
    nxt = _stored(runner, store, "next", fork, "--format", "json")
    assert (json.loads(nxt.stdout)["player"], json.loads(nxt.stdout)["kind"]) == ("ana", "inspire")
    inspire = "inspire kaldel-1,footman by kaldel-1,kaldel-2"
    done = _stored(runner, store, "play", fork, inspire, "pass")
    assert done.stdout == f"{fork}: 2 decisions, 3 events appended; head seq 37\n"
    out = Path(store).parent / "end.jsonl"
    assert _stored(runner, store, "export", fork, "-o", str(out)).exit_code == 0
    assert [e["type"] for e in _events(out)[23:]] == [
        "match_forked",
        "priority_passed",  # budi passes: the window closes, the final step begins
        "priority_window_closed",
        "step_started",
        "hand_limit_discarded",  # ana's, then the turn ends and budi's begins
        "modifiers_expired",
        "turn_ended",
        "turn_started",
        "phase_started",
        "step_started",
        "cards_readied",
        "inspire_readied",
        "priority_window_opened",  # the pass came after the window the rules open
        "priority_passed",
    ]
    _clean(runner, out)


@pytest.mark.parametrize(
    ("at", "decision", "rule"),
    [
        (23, "budi: resource r9", "WOW-ACT-3"),  # a resource outside the action phase
        (12, "main ogre", "WOW-ACT-2"),  # a non-instant card on a chain
        (11, "ana: resource r8", None),  # legal: the second resource below is not
        (23, "discard x", "WOW-END-4"),  # after budi's pass: 9 cards, 1 does not leave 7
        (13, "ana: pass", "WOW-PRI-4"),  # ana does not hold priority
    ],
)
def test_an_illegal_decision_is_refused_with_its_rule_and_nothing_is_stored(
    runner: CliRunner, store: str, at: int, decision: str, rule: str | None
) -> None:
    fork = _fork(runner, store, at)
    before = _stored(runner, store, "next", fork, "--format", "json").stdout
    if rule is None:  # the first resource of the turn, then a second one
        assert _stored(runner, store, "play", fork, decision).exit_code == 0
        before = _stored(runner, store, "next", fork, "--format", "json").stdout
        decision, rule = "resource r9", "WOW-ACT-3"
    if decision.startswith("discard"):
        assert _stored(runner, store, "play", fork, "pass").exit_code == 0
        before = _stored(runner, store, "next", fork, "--format", "json").stdout
    done = _stored(runner, store, "play", fork, decision)
    assert done.exit_code == 1, done.stdout
    assert done.stderr.startswith("Error: event ")
    assert f" {rule} " in done.stderr
    assert done.stderr.count("\n") == 1
    assert _stored(runner, store, "next", fork, "--format", "json").stdout == before


def test_a_line_that_cannot_be_read_exits_2_in_one_line(runner: CliRunner, store: str) -> None:
    fork = _fork(runner, store, 11)
    done = _stored(runner, store, "play", fork, "pass", "cast fireball")
    assert done.exit_code == 2
    assert done.stderr.startswith("Error: decision 2 of 2: 'cast fireball': unknown verb 'cast'")
    assert done.stderr.count("\n") == 1
    chosen = _stored(runner, store, "play", fork, "pass", "--choose", "o1=c1")
    assert chosen.exit_code == 2
    assert chosen.stderr == "Error: choosing a result is not available for game wowtcg\n"


@pytest.mark.parametrize("policy", ["greedy", "random"])
def test_automatic_play_goes_on_legally(runner: CliRunner, store: str, policy: str) -> None:
    fork = _fork(runner, store, 12, policy)
    auto = ("--auto", "150", "--policy", policy, "--seed", "4")
    done = _stored(runner, store, "play", fork, *auto)
    assert done.exit_code == 0, done.stderr
    assert done.stdout.startswith(f"{fork}: 150 decisions, ")
    out = Path(store).parent / f"{policy}.jsonl"
    assert _stored(runner, store, "export", fork, "-o", str(out)).exit_code == 0
    report = _clean(runner, out)
    assert report["turns"] >= 3
    again = _stored(runner, store, "play", fork, "--auto", "5", "--policy", policy)
    assert again.exit_code == 0


def test_a_concession_wins_the_match_and_seals_the_record(runner: CliRunner, store: str) -> None:
    fork = _fork(runner, store, 12)
    done = _stored(runner, store, "play", fork, "concede")
    won = "1 decision, 1 event appended; head seq 15 · won by budi (concession)"
    assert done.stdout == f"{fork}: {won}\n"
    out = Path(store).parent / "won.jsonl"
    assert _stored(runner, store, "export", f"{MATCH}~12", "-o", str(out)).exit_code == 0
    assert [e["type"] for e in _events(out)[-2:]] == ["conceded", "match_sealed"]
    assert _clean(runner, out)["winner"] == "budi"
    late = _stored(runner, store, "play", f"{MATCH}~12", "pass")
    assert late.exit_code == 2
    assert "is sealed at seq 15" in late.stderr


def test_a_fork_of_a_log_file_is_played_on_in_the_file(runner: CliRunner, tmp_path: Path) -> None:
    what_if = tmp_path / "what-if.jsonl"
    assert _run(runner, "fork", str(COMBAT), "--at", "14", "-o", str(what_if)).exit_code == 0
    done = _run(runner, "play", str(what_if), "play counterspell as l9 -> l1", "pass", "pass")
    assert done.exit_code == 0, done.stderr
    assert done.stdout == f"{what_if}: 3 decisions, 4 events appended; head seq 19\n"
    events = _events(what_if)
    assert events[15] == {
        "type": "link_added", "player": "budi", "link": "l9", "kind": "CARD",
        "card": "counterspell", "instant": True, "targets": ["l1"],
    }  # fmt: skip
    tail = [e["type"] for e in events[16:]]
    assert tail == ["priority_passed", "priority_passed", "link_resolved"]
    _clean(runner, what_if)


def test_every_decision_next_lists_can_be_played(runner: CliRunner, store: str) -> None:
    for at in (11, 12, 23):
        shown = _stored(runner, store, "next", MATCH, "--at", str(at), "--format", "json")
        for n, decision in enumerate(json.loads(shown.stdout)["decisions"]):
            fork = _fork(runner, store, at, f"p{at}-{n}")
            done = _stored(runner, store, "play", fork, decision)
            assert done.exit_code == 0, (at, decision, done.stderr)


def test_rebase_replays_the_parents_decisions_on_a_fork(runner: CliRunner, store: str) -> None:
    fork = _fork(runner, store, 23)
    done = _stored(runner, store, "rebase", fork)
    assert done.exit_code == 0, done.stderr
    assert done.stdout.startswith(f"{MATCH}~23: re-applied 11 of 11 parent decisions")
    out = Path(store).parent / "rebased.jsonl"
    assert _stored(runner, store, "export", f"{MATCH}~23", "-o", str(out)).exit_code == 0
    _clean(runner, out)


def _without_decisions() -> tuple[Path, dict[str, str]]:
    """A log of a game that has no decisions capability (L5R until it has one, else the
    tests' take-away), and the environment that registers its game."""
    if rules_for("l5r").decisions is None:
        return ROOT / "samples" / "l5r" / "legal_tie.jsonl", {}
    path = os.pathsep.join(p for p in (str(ROOT), os.environ.get("PYTHONPATH", "")) if p)
    env = {"VWLOG_GAMES": "takeaway=tests.games.takeaway", "PYTHONPATH": path}
    return ROOT / "tests" / "games" / "samples" / "legal.jsonl", env


def test_play_on_a_game_without_decisions_is_refused_in_one_line(tmp_path: Path) -> None:
    log, env = _without_decisions()
    copy = tmp_path / log.name
    copy.write_bytes(log.read_bytes())
    game = json.loads(log.read_text().splitlines()[0])["game"]
    done = subprocess.run(
        [sys.executable, "-m", "vwlog", "--lang", "en", "play", str(copy), "pass"],
        capture_output=True, text=True, check=False, cwd=ROOT, timeout=120,
        env={**os.environ, **env},
    )  # fmt: skip
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr == f"Error: play is not available for game {game}\n"
    assert copy.read_bytes() == log.read_bytes()


def test_rebase_stops_at_a_parent_decision_the_fork_makes_illegal(
    runner: CliRunner, store: str
) -> None:
    fork = _fork(runner, store, 11)
    assert _stored(runner, store, "play", fork, "resource r1.1").exit_code == 0  # a card less
    done = _stored(runner, store, "rebase", fork, "--format", "json")
    assert done.exit_code == 1
    broken = json.loads(done.stdout)["broken"]
    assert (broken["parent_seq"], broken["player"], broken["rules"]) == (27, "ana", ["WOW-END-4"])
    assert broken["description"] == "ana discards down to the maximum hand size: c1, c2"


def test_a_record_that_stops_before_the_consequences_is_played_on_after_them(
    runner: CliRunner, tmp_path: Path
) -> None:
    cut = tmp_path / "cut.jsonl"
    cut.write_text("".join(HAND.read_text().splitlines(keepends=True)[:32]))  # to seq 31
    assert _run(runner, "next", str(cut)).stdout.endswith("(the rules act next)\n")
    done = _run(runner, "play", str(cut), "inspire footman by kaldel-2", "pass")
    assert done.stdout == f"{cut}: 2 decisions, 5 events appended; head seq 36\n"
    assert [e["type"] for e in _events(cut)[31:]] == [
        "step_started",  # the rules act first, up to the moment to Inspire
        "cards_readied",
        "inspire_readied",
        "priority_window_opened",  # the pass declines a second Inspire (kaldel-1 is unused)
        "priority_passed",
    ]
    _clean(runner, cut)


@pytest.mark.parametrize(
    "log", [COMBAT, SAMPLES / "extra-turn.jsonl", SAMPLES / "skipped-turns.jsonl"]
)
def test_a_fork_at_every_priority_point_plays_on_from_what_next_lists(
    runner: CliRunner, tmp_path: Path, log: Path
) -> None:
    shown = _run(runner, "replay", str(log), "--priority-points", "--format", "json")
    points = json.loads(shown.stdout)
    assert len(points) >= 10
    for point in points:
        what_if = tmp_path / f"at-{point['seq']}.jsonl"
        assert (
            _run(runner, "fork", str(log), "--at", str(point["seq"]), "-o", str(what_if)).exit_code
            == 0
        )
        listed = json.loads(_run(runner, "next", str(what_if), "--format", "json").stdout)
        assert (listed["player"], listed["kind"]) == (point["player"], "priority")
        assert listed["decisions"][0] == "pass"
        last = listed["decisions"][-1]  # a link, a power or a main action
        done = _run(runner, "play", str(what_if), last, "--auto", "8", "--seed", str(point["seq"]))
        assert done.exit_code == 0, (point, last, done.stderr)
        _clean(runner, what_if)


@pytest.mark.parametrize(
    ("game", "verb"),
    [("wowtcg", "inspire"), ("l5r", "armies"), ("minis", "activate"), ("vw", "blockers")],
)
def test_play_prints_any_games_notation(runner: CliRunner, game: str, verb: str) -> None:
    """``play --help`` explains Vandaria Wars' notation and names the others; ``--notation
    GAME`` prints that game's, without a log or a store."""
    result = runner.invoke(main, ["--lang", "en", "play", "--notation", game])
    assert result.exit_code == 0, result.output
    assert verb in result.stdout
    assert "\b" not in result.stdout
    shown = " ".join(runner.invoke(main, ["--lang", "en", "play", "--help"]).stdout.split())
    named = shown.partition("vwlog play --notation GAME (")[2].partition(")")[0].split(", ")
    assert {"l5r", "minis", "wowtcg"} <= set(named)  # a test's own game may be listed too
    assert "vw" not in named


def test_play_refuses_the_notation_of_an_unknown_game_in_one_line(runner: CliRunner) -> None:
    result = runner.invoke(main, ["--lang", "en", "play", "--notation", "chess"])
    assert result.exit_code == 2
    assert result.stdout == ""
    [line] = result.stderr.splitlines()
    head, _, games = line.partition(" (it judges: ")
    assert head == "Error: 'chess' is not a game this vwlog judges"
    assert {"l5r", "minis", "vw", "wowtcg"} <= set(games.rstrip(")").split(", "))
