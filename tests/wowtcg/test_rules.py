"""Every enforceable WOW-* rule: a log that breaks it is cited at the breaking event (and at no
event before it), and its legal twin breaks nothing."""

from __future__ import annotations

import pytest

from tests.wowtcg.cases import CASES
from tests.wowtcg.logs import judged
from vwlog.games.wowtcg.catalog import RULES


@pytest.mark.parametrize("rule", sorted(CASES))
def test_the_breaking_log_is_cited_at_the_breaking_event(rule: str) -> None:
    case, flag = CASES[rule]
    events, at = case(False)
    found = judged(events)
    assert found, f"{rule}: nothing cited"
    assert found[0] == (rule, at, flag), found
    assert all(seq is not None and seq >= at for _, seq, _ in found)


@pytest.mark.parametrize("rule", sorted(CASES))
def test_the_legal_twin_breaks_nothing(rule: str) -> None:
    case, _ = CASES[rule]
    events, _ = case(True)
    assert judged(events) == []


def test_every_enforceable_rule_of_the_catalog_has_a_case() -> None:
    enforceable = {r.id for r in RULES if r.status != "descriptive"}
    assert len(enforceable) == 38
    assert set(CASES) == enforceable
