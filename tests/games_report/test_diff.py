"""``vwlog diff`` on WoW TCG and L5R records, through the real command line: where two records
of one match part, each divergent event judged by the game's rules (its rule ids), where they
agree again, and what differs on the game's board."""

from __future__ import annotations

import json
from pathlib import Path

import orjson
from click.testing import CliRunner

from vwlog.cli import main

ROOT = Path(__file__).resolve().parents[2]
WOW = ROOT / "samples" / "wowtcg"
L5R = ROOT / "samples" / "l5r"


def _run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, ["--lang", "en", *args])
    assert "Traceback" not in result.output, result.output
    return result.exit_code, result.stdout, result.stderr


def _copy(
    src: Path, dst: Path, change: dict[int, dict[str, object]], keep: int | None = None
) -> Path:
    """``src`` with the events at the given seqs updated (and only its first ``keep``
    records)."""
    out = []
    for raw in src.read_bytes().splitlines():
        data = orjson.loads(raw)
        seq = data.get("seq")
        if seq is not None and keep is not None and seq > keep:
            break
        if seq in change:
            data["event"].update(change[seq])
        out.append(orjson.dumps(data).decode())
    dst.write_text("\n".join(out) + "\n", encoding="utf-8")
    return dst


def _event(src: Path, seq: int) -> dict[str, object]:
    for raw in src.read_bytes().splitlines():
        data = orjson.loads(raw)
        if data.get("seq") == seq:
            event: dict[str, object] = data["event"]
            return event
    raise AssertionError(seq)


def test_l5r_a_wrong_force_is_judged_and_the_records_agree_again(tmp_path: Path) -> None:
    a = L5R / "legal_tie.jsonl"
    assert _event(a, 8)["type"] == "resolution_started"
    b = _copy(a, tmp_path / "b.jsonl", {8: {"attacker_force": 4}})
    code, out, err = _run("diff", str(a), str(b))
    assert code == 1, err
    assert "diverge at seq 8, after 7 common events" in out
    assert "A: legal" in out
    assert "B: L5R-RES-1 " in out
    assert "the attacker's total was 3, not 4" in out
    assert "the records agree again from seq 9" in out
    code, out, _ = _run("diff", "--format", "json", str(a), str(b))
    d = json.loads(out)["divergence"]
    assert d["legal"] == {"a": True, "b": False}
    assert [v["rule"] for v in d["b"]["violations"]] == ["L5R-RES-1"]
    assert d["agree_again"] == {"a": 9, "b": 9}


def test_l5r_two_matches_from_one_start_differ_on_the_board() -> None:
    a, b = L5R / "legal_tie.jsonl", L5R / "legal_province_falls.jsonl"
    code, out, _ = _run("diff", "--format", "json", str(a), str(b))
    assert code == 1
    d = json.loads(out)["divergence"]
    keys = {x["key"]: x for x in d["differences"]}
    # Honor at the end of the window: the tie gives each side 1, the fallen Province 2 to p1
    assert (keys["players[p1].honor"]["a"], keys["players[p1].honor"]["b"]) == (1, 2)
    assert keys["battlefields[b1].province.destroyed"]["b"] is True


def test_wow_a_pass_out_of_turn_is_judged(tmp_path: Path) -> None:
    a = WOW / "extra-turn.jsonl"
    first_pass = next(seq for seq in range(1, 40) if _event(a, seq)["type"] == "priority_passed")
    player = _event(a, first_pass)["player"]
    other = "budi" if player == "ana" else "ana"
    b = _copy(a, tmp_path / "b.jsonl", {first_pass: {"player": other}})
    code, out, _ = _run("diff", "--format", "json", str(a), str(b))
    assert code == 1
    d = json.loads(out)["divergence"]
    assert d["seq"] == first_pass
    assert d["a"]["text"] == f"{player} passes priority"
    assert d["b"]["text"] == f"{other} passes priority"
    assert [v["rule"] for v in d["b"]["violations"]] == ["WOW-PRI-4"]
    assert d["legal"] == {"a": True, "b": False}


def test_a_prefix_an_identical_record_and_other_games(tmp_path: Path) -> None:
    a = WOW / "phase-triggers.jsonl"
    short = _copy(a, tmp_path / "short.jsonl", {}, keep=10)
    code, out, _ = _run("diff", str(a), str(short))
    assert code == 1
    assert "B ends at seq 10; A continues with" in out
    code, out, _ = _run("diff", str(a), str(a))
    assert code == 0
    assert out.splitlines()[-1].startswith("identical: ")
    code, out, err = _run("diff", str(a), str(L5R / "legal_tie.jsonl"))
    assert code == 2
    assert err.strip().splitlines() == [
        f"Error: {a} and {L5R / 'legal_tie.jsonl'} are records of different games (wowtcg, l5r)"
    ]
