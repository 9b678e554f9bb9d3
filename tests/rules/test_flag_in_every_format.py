"""A verdict that rests on a ruleset flag names the flag in every format and language.

The flag travels in the violation's message (``… (by default; ruleset flag …)``), which every
format renders and every language translates with the flag's name kept as it is, and in the
``flag`` field of the JSON form.
"""

from __future__ import annotations

import json

import pytest
from test_flags import CASES, records

from vwlog.engine.replay import validate_records
from vwlog.io.i18n import using_language
from vwlog.render.json import validation_json
from vwlog.render.markdown import validation_markdown
from vwlog.render.text import validation_text
from vwlog.services.verdict import judged

# decided by the judgement itself (OQ-27, OQ-39) and by the fold before it (OQ-9)
FLAGS = ("cycle_is_controller_turn", "vp_outside_combat", "territory_fatal_damage_at")


@pytest.mark.parametrize("lang", ["en", "id"])
@pytest.mark.parametrize("flag", FLAGS)
def test_the_flag_shows_in_text_json_and_markdown(flag: str, lang: str) -> None:
    case = CASES[flag]()
    report = judged(validate_records(records(case.events), ruleset=case.other))
    assert report.violations
    with using_language(lang):
        shown = {
            "text": validation_text(report),
            "markdown": validation_markdown(report),
            "json": json.dumps(validation_json(report, translated=True), ensure_ascii=False),
        }
    named = {"text": flag, "markdown": flag.replace("_", "\\_"), "json": flag}  # escaped
    for fmt, out in shown.items():
        assert named[fmt] in out, f"{fmt} in {lang} does not name {flag}"
    flags = {v["flag"] for v in validation_json(report)["violations"]}
    assert flag in flags
