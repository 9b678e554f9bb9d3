"""Card definitions as JSON, made once per list: what the seal's cards hash and the published
pool comparison read."""

from __future__ import annotations

from vwlog.io.pools import load_pool
from vwlog.io.trust import _digest, cards_hash
from vwlog.model.cards import card_dump, card_dumps


def test_the_list_dump_is_each_card_dumped_alone() -> None:
    cards = load_pool().cards
    each = [c.model_dump(mode="json", by_alias=True, exclude_none=True) for c in cards]
    assert card_dumps(cards) == each
    assert card_dumps(list(cards)) == each
    assert [card_dump(c) for c in cards] == each
    assert cards_hash(cards) == _digest(each)


def test_a_tuple_is_dumped_once_and_a_changed_one_again() -> None:
    cards = load_pool().cards
    first = card_dumps(cards)
    assert card_dumps(cards) is first  # the same tuple: kept
    other = (cards[1], cards[0], *cards[2:])
    assert card_dumps(other)[:2] == [first[1], first[0]]  # another tuple: its own dump
    changed = cards[0].model_copy(update={"atk": cards[0].atk + 1})
    assert card_dump(changed)["atk"] == cards[0].atk + 1
    assert card_dump(cards[0])["atk"] == cards[0].atk
