"""The event vocabulary follows its conventions: tags, optional fields, docstrings, decisions."""

from __future__ import annotations

import re
import types
from typing import Any, Union, get_args, get_origin

import pytest
from pydantic import BaseModel

from vwlog.events import EVENT_TYPES, BaseEvent, EventRecord, LogHeader
from vwlog.events.base import Consequence, Decision
from vwlog.events.effects import Effect
from vwlog.model.cards import CardPool

EFFECT_TYPES: dict[str, type[BaseModel]] = {
    cls.model_fields["type"].default: cls for cls in get_args(get_args(Effect)[0])
}

# DESIGN.md §2: a decision is made by a player (or, for rulings and forks, a judge or a user);
# a consequence is demanded by the rules. A new event must be placed in one of the two sets.
DECISIONS = {
    "supply_chosen",
    "cost_paid",
    "card_summoned",
    "skill_registered",
    "priority_passed",
    "attackers_entered_battle",
    "attack_declared",
    "blockers_entered_battle",
    "blocks_assigned",
    "follower_damage_assigned",
    "property_placed",
    "deployment_finished",
    "hand_limit_discarded",
    "conceded",
    "deck_revealed",
    "judge_ruling_issued",
    "match_forked",
}
CONSEQUENCES = {
    "match_started",
    "opening_hand_drawn",
    "match_won",
    "turn_started",
    "phase_started",
    "step_started",
    "turn_ended",
    "gold_produced",
    "supply_taken",
    "unslid",
    "skill_triggered",
    "object_resulted",
    "combat_damage_registered",
    "followers_destroyed",
    "territories_destroyed",
    "victory_point_gained",
    "became_return_home",
    "became_stray",
    "turn_cleaned_up",
    "match_sealed",
    "record_signed",
}
CITATION = re.compile(r"\b(R-[A-Z]+-\d+|OQ-\d+)\b|(RULES\.md|DESIGN) §\d+")


def snake_case(name: str) -> str:
    return re.sub(r"(?<!^)(?=[A-Z])", "_", name).lower()


@pytest.mark.parametrize(
    ("tag", "cls"), [*EVENT_TYPES.items(), *EFFECT_TYPES.items()], ids=lambda x: str(x)
)
def test_tag_is_the_snake_case_of_the_class_name(tag: str, cls: type[BaseModel]) -> None:
    assert tag == snake_case(cls.__name__)


def test_every_event_is_a_decision_or_a_consequence_as_design_says() -> None:
    assert DECISIONS.isdisjoint(CONSEQUENCES)
    assert set(EVENT_TYPES) == DECISIONS | CONSEQUENCES
    assert {tag for tag, cls in EVENT_TYPES.items() if cls.DECISION} == DECISIONS


@pytest.mark.parametrize("cls", EVENT_TYPES.values(), ids=list(EVENT_TYPES))
def test_decision_flag_matches_the_base_class(cls: type[BaseEvent]) -> None:
    assert issubclass(cls, Decision) != issubclass(cls, Consequence)
    assert issubclass(cls, Decision) == cls.DECISION


@pytest.mark.parametrize("cls", EVENT_TYPES.values(), ids=list(EVENT_TYPES))
def test_event_docstring_is_its_own_and_cites_a_rule(cls: type[BaseEvent]) -> None:
    doc = cls.__doc__ or ""
    assert doc not in {Decision.__doc__, Consequence.__doc__, BaseEvent.__doc__}
    assert CITATION.search(doc), f"{cls.__name__} cites no rule id, OQ or section"


def _models(root: type[BaseModel], seen: set[type[BaseModel]]) -> None:
    if root in seen:
        return
    seen.add(root)
    for info in root.model_fields.values():
        for model in _nested_models(info.annotation):
            _models(model, seen)


def _nested_models(annotation: Any) -> list[type[BaseModel]]:
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return [annotation]
    return [model for arg in get_args(annotation) for model in _nested_models(arg)]


def _allows_none(annotation: Any) -> bool:
    return get_origin(annotation) in (Union, types.UnionType) and type(None) in get_args(annotation)


def _all_models() -> list[type[BaseModel]]:
    seen: set[type[BaseModel]] = set()
    for root in (EventRecord, LogHeader, CardPool):
        _models(root, seen)
    return sorted(seen, key=lambda model: model.__name__)


@pytest.mark.parametrize("model", _all_models(), ids=lambda model: model.__name__)
def test_every_optional_field_defaults_to_none(model: type[BaseModel]) -> None:
    for name, info in model.model_fields.items():
        if _allows_none(info.annotation):
            assert not info.is_required(), f"{model.__name__}.{name} must default to None"
            assert info.default is None, f"{model.__name__}.{name} must default to None"


def test_the_model_walk_reaches_nested_models() -> None:
    names = {model.__name__ for model in _all_models()}
    assert {"Seat", "CardDef", "SkillDef", "Ruleset", "StatChanged", "Allocation"} <= names
