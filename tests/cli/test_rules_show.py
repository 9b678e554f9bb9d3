"""``vwlog rules RULE_ID`` shows a rule whole (issue 38, point 3).

``vwlog rules R-CMB-19`` was a usage error, 25 of the 142 titles ended in "…" and the JSON had
only id, title, status and reason. A rule is now shown with its whole text, the seed's
Indonesian sentence, its status, the flags it reads, the events it checks and where it is
enforced; no title is cut; an unknown id is one line naming the closest id, exit 2.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import orjson

from vwlog.cli import main
from vwlog.render.rules import indonesian_rules
from vwlog.rules.catalog import RULES

if TYPE_CHECKING:
    from click.testing import CliRunner


def test_one_rule_is_shown_whole(runner: CliRunner) -> None:
    result = runner.invoke(main, ["rules", "R-CMB-19"])
    assert result.exit_code == 0, result.output
    out = result.stdout
    rule = RULES["R-CMB-19"]  # type: ignore[index]
    assert out.splitlines()[0] == f"R-CMB-19  {rule.title}"
    assert "  status: enforced" in out
    assert rule.text in out  # the whole text, not its first sentence
    for sentence in indonesian_rules()["R-CMB-19"].quote.split("\n"):
        assert f"    {sentence}" in out
    assert "In the original rules (seed S000):" in out
    assert "events it checks: follower_damage_assigned" in out
    assert "vwlog.rules.checks.combat.check_damage" in out


def test_the_flags_a_rule_reads_and_where_it_is_enforced(runner: CliRunner) -> None:
    result = runner.invoke(main, ["rules", "r-end-3", "--format", "json"])
    assert result.exit_code == 0, result.output
    [entry] = orjson.loads(result.stdout)
    assert entry["id"] == "R-END-3"
    assert "hand_limit" in entry["flags"]
    assert entry["events"] == ["hand_limit_discarded"]
    assert {"module": "vwlog.rules.checks.decision", "function": "check_discard"} in [
        {k: site[k] for k in ("module", "function")} for site in entry["enforced_in"]
    ]
    assert entry["indonesian"]["seed"] == "S000"
    assert entry["indonesian"]["quote"].startswith("Jika Anda memiliki lebih dari tujuh kartu")
    assert entry["text"] == RULES["R-END-3"].text  # type: ignore[index]


def test_an_unknown_id_is_one_line_naming_the_closest(runner: CliRunner) -> None:
    result = runner.invoke(main, ["rules", "R-CMB-99"])
    assert result.exit_code == 2
    assert result.stdout == ""
    assert result.stderr == ("Error: no rule 'R-CMB-99' in the catalog; did you mean 'R-CMB-9'?\n")


def test_no_title_is_cut_and_the_json_list_carries_everything(runner: CliRunner) -> None:
    listed = runner.invoke(main, ["rules"])
    assert listed.exit_code == 0
    lines = listed.stdout.splitlines()
    assert len(lines) == len(RULES)
    assert not any(line.endswith("…") for line in lines)
    end3 = next(x for x in lines if x.startswith("R-END-3 "))
    assert end3.endswith("they discard down to seven, to the Graveyard")

    rows = orjson.loads(runner.invoke(main, ["rules", "--format", "json"]).stdout)
    assert [r["id"] for r in rows] == list(RULES)
    keys = {"id", "title", "basis", "status", "reason", "text", "indonesian", "flags"}
    assert all(keys | {"events", "enforced_in"} == set(r) for r in rows)
    assert not any(r["title"].endswith("…") for r in rows)
    enforced = [r for r in rows if r["status"] == "enforced" and not r["id"].startswith("R-GEN")]
    assert sum(1 for r in enforced if r["enforced_in"]) >= len(enforced) * 3 // 4


def test_several_ids_in_one_call(runner: CliRunner) -> None:
    result = runner.invoke(main, ["rules", "R-END-3", "R-CMB-19", "--format", "json"])
    assert [r["id"] for r in orjson.loads(result.stdout)] == ["R-END-3", "R-CMB-19"]
    text = runner.invoke(main, ["rules", "R-END-3", "R-CMB-19"]).stdout
    assert "\n\nR-CMB-19  " in text
