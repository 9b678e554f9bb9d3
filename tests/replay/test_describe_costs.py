"""How `vwlog.games.vw.describe` words a cost payment, for every cost a `CostPaid` event can
carry."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from vwlog.engine.replay import Collect, replay
from vwlog.events import CostPaid
from vwlog.games.vw.describe import describe
from vwlog.io.logfile import read_log

if TYPE_CHECKING:
    from vwlog.model.state import MatchState

SAMPLE = Path(__file__).resolve().parents[2] / "samples" / "full-combat.jsonl"


@pytest.fixture(scope="module")
def paid_by_sliding() -> tuple[CostPaid, MatchState]:
    """The sample's payment for Gold Prospector's slide-cost skill, with the board before it."""
    for step in replay(read_log(SAMPLE)[1], Collect()):
        event = step.record.event
        if isinstance(event, CostPaid) and event.slid:
            return event, step.before
    raise AssertionError("the sample pays no slide cost")


def test_the_cost_payment_fields_are_gold_and_slid_cards() -> None:
    # the wording below covers every cost the event can carry; a new kind needs a new wording
    assert set(CostPaid.model_fields) - {"type"} == {"player", "card", "skill", "gold", "slid"}


def test_a_slide_cost_reads_as_paying_by_sliding(
    paid_by_sliding: tuple[CostPaid, MatchState],
) -> None:
    event, before = paid_by_sliding
    assert describe(event, before) == (
        "p2 pays by sliding Gold Prospector (p2-003) for skill s1 of Gold Prospector (p2-003)"
    )


@pytest.mark.parametrize(
    ("gold", "slid", "text"),
    [
        (3, (), "p2 pays 3 gold for skill s1 of Gold Prospector (p2-003)"),
        (
            2,
            ("p2-003",),
            "p2 pays 2 gold and slides Gold Prospector (p2-003) "
            "for skill s1 of Gold Prospector (p2-003)",
        ),
        (
            0,
            ("p2-003", "p2-001"),
            "p2 pays by sliding Gold Prospector (p2-003), Ashen Warcamp (p2-001) "
            "for skill s1 of Gold Prospector (p2-003)",
        ),
        (0, (), "p2 pays nothing for skill s1 of Gold Prospector (p2-003)"),
    ],
)
def test_every_cost_kind_reads_naturally(
    paid_by_sliding: tuple[CostPaid, MatchState], gold: int, slid: tuple[str, ...], text: str
) -> None:
    event, before = paid_by_sliding
    assert describe(event.model_copy(update={"gold": gold, "slid": slid}), before) == text


def test_a_summon_payment_names_the_card() -> None:
    for step in replay(read_log(SAMPLE)[1], Collect()):
        event = step.record.event
        if isinstance(event, CostPaid) and event.skill is None:
            text = describe(event, step.before)
            assert text.startswith(f"{event.player} pays {event.gold} gold for ")
            assert "slides" not in text
            assert "skill" not in text
            return
    raise AssertionError("the sample pays for no summon")
