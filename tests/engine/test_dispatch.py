"""The exact-type dispatch tables stay exhaustive: every class of the event union has a fold
handler (what ``assert_never`` guaranteed for the class-pattern ``match`` it replaced), and a
type without one fails loudly instead of passing for "names something unknown"."""

from __future__ import annotations

from typing import get_args

import pytest

from vwlog.events import AnyEvent
from vwlog.events.base import Decision
from vwlog.projections.board import _EVOLVE
from vwlog.rules.checks.decision import _DECISION_CHECKS
from vwlog.rules.common import handler_for

EVENT_CLASSES = set(get_args(AnyEvent))


def test_the_fold_has_a_handler_for_every_event_class() -> None:
    assert len(EVENT_CLASSES) > 30
    assert set(_EVOLVE) == EVENT_CLASSES


def test_decision_checks_name_only_decisions() -> None:
    assert set(_DECISION_CHECKS) <= {c for c in EVENT_CLASSES if issubclass(c, Decision)}


def test_a_type_without_a_handler_is_an_assertion_not_a_key_error() -> None:
    class Other:
        pass

    with pytest.raises(AssertionError, match="no handler for Other"):
        handler_for({int: "int"}, Other())


def test_a_subclass_falls_back_to_its_nearest_listed_base() -> None:
    class Base:
        pass

    class Sub(Base):
        pass

    assert handler_for({Base: "base", object: "object"}, Sub()) == "base"
