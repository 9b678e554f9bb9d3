"""The sample card pool, the packaged deck lists, and reading and checking them (vwlog.io.pools)."""

from __future__ import annotations

import importlib.resources
import re
from collections import Counter, defaultdict
from pathlib import Path
from typing import get_args

import pytest

from vwlog.io.pools import (
    DeckList,
    cards_by_id,
    check_deck,
    check_pool,
    load_deck,
    load_earlier_pool,
    load_pool,
    packaged_decks,
)
from vwlog.model.cards import CHOICE_KINDS, CardDef, CardPool, EffectSpec, Ruleset, SkillDef, Target
from vwlog.model.errors import CardPoolError
from vwlog.model.types import (
    CardType,
    Expiry,
    Faction,
    Keyword,
    Restriction,
    Side,
    SkillKind,
    Stat,
    Terrain,
    TriggerWhen,
    Zone,
)

DATA = importlib.resources.files("vwlog").joinpath("data")
CONSTRUCTED = Ruleset(id="constructed", max_copies=3, min_deck_size=40)
CHOSEN = {
    Target.OWN_FOLLOWER,
    Target.OPPOSING_FOLLOWER,
    Target.OPPOSING_TERRITORY,
    Target.OWN_TERRITORY,
}
EFFECT_KINDS = set(get_args(EffectSpec.model_fields["kind"].annotation))


@pytest.fixture(scope="module")
def pool() -> CardPool:
    return load_pool()


def _skills(pool: CardPool) -> list[tuple[CardDef, SkillDef]]:
    return [(card, skill) for card in pool.cards for skill in card.skills]


def _vocabulary(pool: CardPool) -> dict[str, set[str]]:
    """Every value of each vocabulary that the pool uses somewhere."""
    used: dict[str, set[str]] = defaultdict(set)
    for card in pool.cards:
        used["CardType"].add(card.type)
        used["Keyword"].update(card.keywords)
        if card.side:
            used["Side"].add(card.side)
        if card.faction:
            used["Faction"].add(card.faction)
        if card.terrain:
            used["Terrain"].add(card.terrain)
    for _card, skill in _skills(pool):
        used["SkillKind"].add(skill.kind)
        used["Restriction"].add(skill.restriction)
        used["Keyword"].update(skill.keywords)
        if skill.trigger:
            used["TriggerWhen"].add(skill.trigger)
        if skill.aura:
            used["Stat"].add(skill.aura.stat)
        for effect in skill.effects or ():
            used["effect kind"].add(effect.kind)
            used["Target"].add(effect.target)
            if effect.stat:
                used["Stat"].add(effect.stat)
                used["Expiry"].add(effect.expires)
            if effect.to_zone:
                used["move zone"].add(effect.to_zone)
    return used


# --------------------------------------------------------------------------- the pool


def test_packaged_pool_is_card_pool_json_shipped_as_package_data(pool: CardPool) -> None:
    resource = DATA.joinpath("pool.json")
    assert resource.is_file()
    assert CardPool.model_validate_json(resource.read_bytes()) == pool


def test_pool_has_at_least_48_cards(pool: CardPool) -> None:
    assert len(pool.cards) >= 48


def test_card_ids_are_unique_kebab_case_slugs(pool: CardPool) -> None:
    ids = [card.id for card in pool.cards]
    assert [i for i, n in Counter(ids).items() if n > 1] == []
    assert [i for i in ids if not re.fullmatch(r"[a-z0-9]+(-[a-z0-9]+)*", i)] == []


@pytest.mark.parametrize(
    ("vocabulary", "values"),
    [
        ("CardType", set(CardType)),
        ("Keyword", set(Keyword)),
        ("SkillKind", set(SkillKind)),
        ("TriggerWhen", set(TriggerWhen)),
        ("Restriction", set(Restriction)),
        ("Terrain", set(Terrain)),
        ("Faction", set(Faction)),
        ("Side", set(Side)),
        ("effect kind", EFFECT_KINDS),
        ("Target", set(Target)),
        ("Stat", set(Stat)),
        ("Expiry", set(Expiry)),
        ("move zone", {Zone.HAND, Zone.FATE_DECK, Zone.SUBDECK, Zone.GRAVEYARD}),
    ],
)
def test_pool_uses_every_value_of(pool: CardPool, vocabulary: str, values: set[str]) -> None:
    assert values - _vocabulary(pool)[vocabulary] == set()


def test_pool_passes_every_engine_check(pool: CardPool) -> None:
    assert check_pool(pool) == []


def test_skills_are_well_formed(pool: CardPool) -> None:
    for card, skill in _skills(pool):
        where = f"{card.id}/{skill.id}"
        assert (skill.kind is SkillKind.TRIGGER) == (skill.trigger is not None), where
        assert (skill.kind is SkillKind.AURA) == (skill.aura is not None), where
        if skill.kind is SkillKind.STATIC:
            assert skill.keywords, where
        assert len({e.target for e in skill.effects or () if e.target in CHOSEN}) <= 1, where
        for effect in skill.effects or ():
            assert (effect.kind == "stat") == (effect.stat is not None), where
            assert (effect.kind in ("move", "return")) == (effect.to_zone is not None), where
            assert (effect.kind in ("return", "look")) == (effect.from_zone is not None), where


def test_actions_have_a_single_active_play_skill_without_own_costs(pool: CardPool) -> None:
    for card in pool.cards:
        if card.type is CardType.ACTION:
            assert [(s.id, s.kind) for s in card.skills] == [("play", SkillKind.ACTIVE)], card.id
            assert (card.skills[0].cost_gold, card.skills[0].cost_slide) == (0, False), card.id


def test_only_active_skills_of_cards_in_play_choose_targets(pool: CardPool) -> None:
    # SkillRegistered is the only event that records a chosen target.
    for card, skill in _skills(pool):
        if skill.target is not None:
            assert skill.kind is SkillKind.ACTIVE, card.id
            assert card.type is not CardType.ACTION, card.id


def test_every_skill_that_results_is_machine_readable_and_four_choose(pool: CardPool) -> None:
    """vw-sample-pool@2: no skill that results is text only; four leave a choice."""
    resulting = [
        (c.id, s) for c, s in _skills(pool) if s.kind in (SkillKind.ACTIVE, SkillKind.TRIGGER)
    ]
    assert [card for card, s in resulting if s.effects is None] == []
    choosing = {
        card for card, s in resulting if any(e.kind in CHOICE_KINDS for e in s.effects or ())
    }
    assert choosing == {"necromancer-male", "oracle-of-mists", "seers-lantern", "glimpse-of-fate"}


def test_the_earlier_pool_left_four_skills_text_only() -> None:
    """vw-sample-pool@1, kept for the logs that name it."""
    earlier = load_earlier_pool("vw-sample-pool@1")
    resulting = [s for _, s in _skills(earlier) if s.kind in (SkillKind.ACTIVE, SkillKind.TRIGGER)]
    text_only = [s for s in resulting if s.effects is None]
    assert len(text_only) == 4
    assert len(text_only) * 10 < len(resulting)


@pytest.mark.parametrize(
    ("change", "problem"),
    [
        ({"target": "EACH_OPPONENT"}, "uses the controller's own cards"),
        ({"from_zone": None}, "needs from_zone"),
        ({"to_zone": "GRAVEYARD"}, "moves a card to another zone"),
        ({"kind": "bottom"}, "has no from_zone"),
    ],
)
def test_a_return_effect_is_checked_like_the_others(
    pool: CardPool, change: dict[str, object], problem: str
) -> None:
    data = pool.model_dump(mode="json", by_alias=True)
    card = next(c for c in data["cards"] if c["id"] == "necromancer-male")
    card["skills"][0]["effects"][0].update(change)
    assert any(problem in text for text in check_pool(CardPool.model_validate(data)))


def test_numbers_stay_in_the_design_ranges(pool: CardPool) -> None:
    for c in pool.cards:
        assert 0 <= c.honor_req <= 20, c.id
        if c.type is CardType.TERRITORY:
            assert (2 <= c.cost <= 6, 1 <= c.produce <= 3) == (True, True), c.id
            assert (2 <= c.capacity <= 4, 3 <= c.defense <= 10) == (True, True), c.id
        elif c.type is CardType.FOLLOWER:
            assert (1 <= c.cost <= 7, 1 <= c.atk <= 6) == (True, True), c.id
            assert (1 <= c.vit <= 6, 0 <= c.def_ <= 3) == (True, True), c.id


def test_naval_and_aerial_territories_are_a_minority(pool: CardPool) -> None:
    terrains = Counter(c.terrain for c in pool.cards if c.type is CardType.TERRITORY)
    assert terrains[Terrain.NAVAL] >= 1
    assert terrains[Terrain.AERIAL] >= 1
    assert terrains[Terrain.NAVAL] + terrains[Terrain.AERIAL] < terrains[Terrain.LAND] / 3


def test_pool_has_the_cards_the_rules_digest_names(pool: CardPool) -> None:
    names = {c.name for c in pool.cards}
    assert {"Necromancer(Male)", "Enforcer(Female)", "Archangel of Compassion"} <= names
    assert any(c.category == "Gaia" for c in pool.cards)
    creatures = {t for c in pool.cards for t in c.creature_types}
    assert {"Dragon", "Dragonman"} <= creatures
    by_name = {c.name: c for c in pool.cards}
    assert by_name["Necromancer(Male)"].skills[0].restriction is Restriction.ONCE_PER_MATCH
    assert by_name["Enforcer(Female)"].skills[0].restriction is Restriction.ONCE_PER_CYCLE


def test_force_and_raze_are_granted_while_controlling_a_mystic_or_reigner_territory(
    pool: CardPool,
) -> None:
    conditional = [
        s
        for _, s in _skills(pool)
        if s.kind is SkillKind.STATIC
        and s.condition is not None
        and set(s.condition.controls_territory_faction) == {Faction.MYSTIC, Faction.REIGNER}
    ]
    assert [set(s.keywords) for s in conditional] == [{Keyword.FORCE, Keyword.RAZE}]


def test_frameless_followers_attacking_together_gain_atk_and_def(pool: CardPool) -> None:
    auras = {
        (s.aura.stat, s.aura.amount)
        for _, s in _skills(pool)
        if s.aura is not None
        and s.aura.scope == "ATTACKING_TOGETHER"
        and s.aura.side is Side.FRAMELESS
    }
    assert auras == {(Stat.ATK, 1), (Stat.DEF, 1)}


def test_honor_comes_from_territories_followers_runes_and_actions(pool: CardPool) -> None:
    gains: dict[CardType, int] = Counter()
    for card, skill in _skills(pool):
        for e in skill.effects or ():
            if e.kind == "honor" and e.target is Target.CONTROLLER and e.amount > 0:
                gains[card.type] += 1
    assert all(gains[t] >= 1 for t in CardType), gains
    first_main = [
        s
        for c, s in _skills(pool)
        if c.type is CardType.TERRITORY and s.trigger is TriggerWhen.FIRST_MAIN_START
    ]
    assert any(e.kind == "honor" for s in first_main for e in s.effects or ())


# --------------------------------------------------------------------------- decks


def test_at_least_four_decks_are_packaged() -> None:
    names = packaged_decks()
    assert len(names) >= 4
    assert names == sorted(names)
    assert "order-aggro" in names


@pytest.mark.parametrize("name", packaged_decks())
def test_packaged_deck_is_legal_with_three_copies_and_forty_cards(
    pool: CardPool, name: str
) -> None:
    deck = load_deck(name, pool=pool, ruleset=CONSTRUCTED)
    assert check_deck(pool, deck, CONSTRUCTED) == []
    assert deck.size == 40
    types = Counter(cards_by_id(pool)[card].type for card in deck.expand())
    assert 12 <= types[CardType.TERRITORY] <= 15
    assert 16 <= types[CardType.FOLLOWER] <= 20


def test_deck_expands_to_one_id_per_copy_in_listing_order() -> None:
    deck = DeckList(name="tiny", cards={"b": 2, "a": 1})
    assert deck.expand() == ("b", "b", "a")
    assert deck.size == 3


def test_deck_reads_from_a_path_or_a_string_path(tmp_path: Path) -> None:
    path = tmp_path / "mine.json"
    path.write_text('{"name": "Mine", "cards": {"militia-spearman": 2}}')
    expected = DeckList(name="Mine", cards={"militia-spearman": 2})
    assert load_deck(path) == expected
    assert load_deck(str(path)) == expected


def test_check_deck_reports_unknown_cards_extra_copies_and_small_decks(pool: CardPool) -> None:
    deck = DeckList(name="bad", cards={"militia-spearman": 4, "no-such-card": 1})
    assert check_deck(pool, deck, CONSTRUCTED) == [
        "field 'cards.militia-spearman': 4 copies, at most 3 allowed "
        "(ruleset 'constructed', max_copies, OQ-2)",
        "field 'cards.no-such-card': unknown card, not in pool 'vwlog sample pool'",
        "field 'cards': 5 cards, at least 40 required (ruleset 'constructed', min_deck_size, OQ-2)",
    ]


def test_check_deck_applies_only_the_limits_the_ruleset_sets(pool: CardPool) -> None:
    deck = DeckList(name="big", cards={"militia-spearman": 9})
    assert check_deck(pool, deck, Ruleset()) == []


# --------------------------------------------------------------------------- errors


def _error(tmp_path: Path, text: str, *, deck: bool = False) -> str:
    path = tmp_path / "bad.json"
    path.write_text(text)
    load = load_deck if deck else load_pool
    with pytest.raises(CardPoolError) as info:
        load(path)
    message = str(info.value)
    assert "\n" not in message
    assert info.value.source == str(path)
    return message.removeprefix(f"{path}: ")


def test_malformed_pool_json_is_one_line(tmp_path: Path) -> None:
    assert _error(tmp_path, "{") == "invalid JSON: EOF while parsing an object at line 1 column 1"


def test_pool_field_error_names_the_dotted_field(tmp_path: Path) -> None:
    text = '{"name": "p", "cards": [{"id": "a", "name": "A", "type": "FOLLOWER", "cost": -1}]}'
    assert _error(tmp_path, text) == (
        "field 'cards.0.cost': input should be greater than or equal to 0"
    )


def test_pool_engine_problem_names_card_skill_and_field(tmp_path: Path) -> None:
    text = (
        '{"name": "p", "cards": [{"id": "a", "name": "A", "type": "FOLLOWER", "vit": 1, '
        '"skills": [{"id": "s1", "kind": "TRIGGER", "text": "t", '
        '"effects": [{"kind": "stat", "amount": 1}]}]}]}'
    )
    assert _error(tmp_path, text) == (
        "field 'cards.0.skills.0.trigger': card 'a', skill 's1': a TRIGGER skill needs a trigger "
        "(and 1 more problem)"
    )


def test_pool_with_duplicate_ids_is_rejected(tmp_path: Path) -> None:
    card = '{"id": "a", "name": "A", "type": "RUNE"}'
    text = f'{{"name": "p", "cards": [{card}, {card}]}}'
    assert _error(tmp_path, text) == "field 'cards.1.id': duplicate card id 'a'"


def test_two_kinds_of_chosen_target_in_one_skill_are_rejected(tmp_path: Path) -> None:
    text = (
        '{"name": "p", "cards": [{"id": "a", "name": "A", "type": "RUNE", "skills": ['
        '{"id": "s1", "kind": "ACTIVE", "text": "t", "effects": ['
        '{"kind": "damage", "target": "OPPOSING_FOLLOWER", "amount": 1}, '
        '{"kind": "damage", "target": "OPPOSING_TERRITORY", "amount": 1}]}]}]}'
    )
    assert _error(tmp_path, text) == (
        "field 'cards.0.skills.0.effects': card 'a', skill 's1': at most one kind of chosen "
        "target, not OPPOSING_FOLLOWER, OPPOSING_TERRITORY"
    )


def test_unreadable_pool_file_is_one_line(tmp_path: Path) -> None:
    path = tmp_path / "missing.json"
    with pytest.raises(CardPoolError) as info:
        load_pool(path)
    assert str(info.value) == f"{path}: cannot read file: No such file or directory"


def test_deck_with_a_bad_count_names_the_card(tmp_path: Path) -> None:
    text = '{"name": "d", "cards": {"militia-spearman": 0}}'
    assert _error(tmp_path, text, deck=True) == (
        "field 'cards.militia-spearman': input should be greater than or equal to 1"
    )


def test_deck_with_an_unknown_card_is_one_line_naming_file_and_field(
    pool: CardPool, tmp_path: Path
) -> None:
    path = tmp_path / "deck.json"
    path.write_text('{"name": "d", "cards": {"militia-spearman": 3, "no-such-card": 2}}')
    with pytest.raises(CardPoolError) as info:
        load_deck(path, pool=pool)
    assert str(info.value) == (
        f"{path}: field 'cards.no-such-card': unknown card, not in pool 'vwlog sample pool'"
    )


def test_deck_checked_against_a_ruleset_reports_the_first_problem_and_counts_the_rest(
    pool: CardPool, tmp_path: Path
) -> None:
    path = tmp_path / "deck.json"
    path.write_text('{"name": "d", "cards": {"militia-spearman": 4}}')
    with pytest.raises(CardPoolError) as info:
        load_deck(path, pool=pool, ruleset=CONSTRUCTED)
    assert str(info.value) == (
        f"{path}: field 'cards.militia-spearman': 4 copies, at most 3 allowed "
        "(ruleset 'constructed', max_copies, OQ-2) (and 1 more problem)"
    )


def test_unknown_packaged_deck_lists_the_known_ones() -> None:
    with pytest.raises(CardPoolError) as info:
        load_deck("no-such-deck")
    known = ", ".join(packaged_decks())
    assert str(info.value) == (
        f"deck 'no-such-deck': no packaged deck of that name (packaged: {known})"
    )


# --------------------------------------------------------------------------- documentation


def test_data_readme_lists_every_card(pool: CardPool) -> None:
    text = DATA.joinpath("README.md").read_text(encoding="utf-8")
    listed = re.findall(r"^\| `([a-z0-9-]+)` \|", text, flags=re.MULTILINE)
    decks = set(packaged_decks())
    assert sorted(i for i in listed if i not in decks) == sorted(c.id for c in pool.cards)
    assert decks <= set(listed)
