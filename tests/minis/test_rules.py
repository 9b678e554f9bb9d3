"""Every enforceable MIN-* rule that does not rest on geometry: a log that breaks it is cited by
that rule at the breaking event, and its legal twin is clean; the four geometric rules have
their sequencing broken the same way, and the geometry itself is a claim listed as trusted."""

from __future__ import annotations

import pytest

from tests.minis.logs import BREAKS, GEOMETRIC, HEADER, SAMPLES, TWINS, B, cited, judged, records
from vwlog.engine.replay import Validator, replay
from vwlog.games.minis.catalog import ENFORCEABLE
from vwlog.games.minis.catalog import GEOMETRIC as GEOMETRIC_RULES


def test_every_non_geometric_enforceable_rule_has_a_breaking_log() -> None:
    assert set(BREAKS) == set(ENFORCEABLE) - GEOMETRIC_RULES
    assert set(GEOMETRIC) == GEOMETRIC_RULES
    assert len(BREAKS) == 23


@pytest.mark.parametrize("rule", sorted(BREAKS))
def test_the_breaking_log_is_cited_at_the_breaking_event(rule: str) -> None:
    events, i = BREAKS[rule]
    found = judged(events)
    assert found, rule
    assert (found[0].rule, found[0].seq) == (rule, i + 1)
    assert found[0].event_type == events[i].type


@pytest.mark.parametrize("rule", sorted(BREAKS))
def test_the_legal_twin_is_clean(rule: str) -> None:
    assert cited(TWINS.get(rule, B)) == []


@pytest.mark.parametrize("rule", sorted(GEOMETRIC))
def test_a_geometric_rules_sequencing_is_cited_at_its_event(rule: str) -> None:
    events, i = GEOMETRIC[rule]
    assert cited(events)[0] == (rule, i + 1)


def test_geometric_claims_are_listed_as_trusted() -> None:
    report = replay(records(SAMPLES["legal_ranged_aoo_confrontation"]), Validator(), header=HEADER)
    assert report.violations == []
    said = [(t.seq, t.card, t.skill) for t in report.trusted]
    assert (11, "r1", "approaching (MIN-REA-6)") in said
    assert (12, "r1", "within Reach (MIN-REA-4)") in said
    assert (13, "r2", "line of sight (MIN-REA-3)") in said
    assert any(s == "line of sight, enemy shrouded (MIN-REA-7)" for _, _, s in said)
    assert report.effects_trusted == len(said)
