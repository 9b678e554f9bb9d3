"""The seed's descriptive text (WOW-TXT-n: nothing a log can break), and the `Rule` record of
the catalog (`vwlog.games.wowtcg.catalog`)."""

from __future__ import annotations

from typing import Final, NamedTuple

__all__ = ["DESCRIPTIVE", "Rule"]


class Rule(NamedTuple):
    """One rule of the catalog."""

    id: str
    title: str
    status: str
    russian: tuple[str, ...]
    """The seed's sentences, verbatim (the tests compare them with the seed)."""
    section: str
    """The seed's own number (``501.2b``)."""
    note: str = ""
    """What a partial rule rests on."""


DESCRIPTIVE: Final[tuple[Rule, ...]] = (
    Rule(
        "WOW-TXT-1",
        "Provenance line of the wiki page.",
        "descriptive",
        ("Материал из WOW TCG Ru.",),
        "header",
        "",
    ),
    Rule(
        "WOW-TXT-2",
        "Extra turns exist (given by modifiers); the rules are WOW-XTN-1/2.",
        "descriptive",
        ("Некоторые модификаторы дают игроку дополнительный ход.",),
        "500.3",
        "",
    ),
    Rule(
        "WOW-TXT-3",
        "Skipped turns exist (given by modifiers); the rules are WOW-XTN-3/4.",
        "descriptive",
        ("Некоторые модификаторы говорят игроку пропустить ход.",),
        "500.4",
        "",
    ),
    Rule(
        "WOW-TXT-4",
        (
            "Definition: the part of a player's action phase outside combat steps is his "
            '"non-combat action phase" (used by WOW-ACT-2..5).'
        ),
        "descriptive",
        (
            (
                "Во время фазы действия игрока вне боевого шага, говорят, что идёт вне-боевая "
                "фаза действия этого игрока."
            ),
        ),
        "502.1",
        "",
    ),
    Rule(
        "WOW-TXT-5",
        "Worked example of Inspire — a test vector for WOW-STA-2.",
        "descriptive",
        (
            "Пример:",
            "У тебя в отряде два соратника Vindicator Kaldels и ещё один другой соратник.",
            "Когда ты закончил свой ход, все они были истощены.",
            (
                "Когда следующий игрок изготавливает свои карты, которые находятся в игре, ты "
                "можешь изготовить до двух своих истощённых соратников, потому что ты "
                "управляешь двумя картами со свойством Вдохновение: Соратник."
            ),
            "Это не использует цепь.",
        ),
        "501.1a",
        "",
    ),
    Rule(
        "WOW-TXT-6",
        (
            'The example card\'s text (card data for a pool, not a rule): "2" (presumably its '
            "cost — a guess), Ally — Draenei Paladin, 3 ATK (Holy), 2 Health; a deck-building "
            'restriction (Reputation); Inspire: Ally with its reminder text "ready one of your '
            "allies during each player's ready step\"."
        ),
        "descriptive",
        (
            "Vindicator Kaldel, 2, Соратник—Драеней Паладин, 3 ATK (Святой), 2 Health",
            "Репутация Элдора (Вы не можете кластьв свою колоду карты Скраеров.)",
            (
                "Вдохновение: Соратник (Изготовьте одного из ваших соратников во время шага "
                "изготовки каждого игрока.)"
            ),
        ),
        "501.1a",
        "",
    ),
    Rule(
        "WOW-TXT-7",
        "Wiki section headings with edit links.",
        "descriptive",
        (
            "[править] 501. Фаза начала",
            "[править] 502. Фаза действия",
            "[править] 503. Фаза окончания",
        ),
        "headings",
        "",
    ),
    Rule(
        "WOW-TXT-8",
        (
            "Cross-references to rules outside the fragment: priority (409.4, 409.5), "
            "simultaneity (802), playing cards (408), resources (410), declaring combat "
            "(600.3)."
        ),
        "descriptive",
        ("(409.4)", "(409.5)", "(802)", "(408)", "(410)", "(600.3)"),
        "500.1-502.1",
        "",
    ),
)
"""WOW-TXT-1..8."""
