"""The catalog of the miniatures activation-sequence rules: each rule's id, English title,
status and the Russian sentence(s) of the seed (``004_042cd27321a5beb8``) it comes from,
verbatim (the seed keeps the game's terms in English).

Status: ``enforced`` (every case the log can show is judged), ``partial`` (judged where the
log says enough; a geometric condition is a claim the log makes, ``geometry=CLAIMED``; see the
note), ``pending`` (not judged yet) or ``descriptive`` (nothing a log can break).

Where the rules digest and the seed disagree the seed wins; the differences are noted in
`NOTES`.
"""

# ruff: noqa: E501  (each quote as the seed writes it, one line)

from __future__ import annotations

from types import MappingProxyType
from typing import Final

from vwlog.games.common import Rule

CATALOG: Final = MappingProxyType(
    {
        "MIN-RND-1": Rule(
            "A game is a number of rounds; each round has one turn for each player, numbered in order.",
            "enforced",
            (
                "Игра состоит из некоторого числа раундов, каждый из которых делится на ход каждого игрока.",
            ),
        ),
        "MIN-RND-2": Rule(
            "A round ends when every player's turn in it has ended; then a new round starts.",
            "enforced",
            ("После завершения обоих (или всех) ходов раунд заканчивается, и начинается новый.",),
        ),
        "MIN-RND-3": Rule(
            "In a round's first turn the 1st Player is Active and the others Reactive; the roles alternate with each turn.",
            "enforced",
            (
                "В первом ходе раунда 1st Player принимает Active Role, а 2nd Player (или все остальные) — Reactive Role; далее роли чередуются с каждым ходом.",
            ),
        ),
        "MIN-RND-4": Rule(
            "The Active Player goes through four phases in order: Strategic, Upkeep, Tactical, End.",
            "enforced",
            (
                "Active Player выполняет четыре фазы:",
                "I. Strategic Phase",
                "II. Upkeep Phase",
                "III. Tactical Phase",
                "IV. End Phase",
            ),
        ),
        "MIN-PHS-1": Rule(
            "In the Strategic Phase models declare Abilities, Items or Stratagems they have, in any order.",
            "enforced",
            (
                "Models могут объявлять использование применимых Abilities, Items или Stratagems в любом порядке.",
            ),
        ),
        "MIN-PHS-2": Rule(
            "A Leader's Stratagems are declared only in the Strategic Phase.",
            "enforced",
            ("Stratagems Leader можно объявлять только здесь.",),
        ),
        "MIN-PHS-3": Rule(
            "Upkeep: every eligible model gets Activation Points equal to its Stamina.",
            "enforced",
            (
                "Все игроки распределяют Activation Points всем подходящим models, равные их значениям Stamina.",
            ),
        ),
        "MIN-PHS-4": Rule(
            "Tactical Phase: the Active Player activates his models by spending AP.",
            "enforced",
            (
                "Состоит из нескольких Activation Sequences — Active Player активирует models, тратя AP; Reactive Player тратит AP, чтобы реагировать.",
            ),
        ),
        "MIN-PHS-5": Rule(
            "The Tactical Phase ends when the Active Player has no eligible model left or stops, and not before.",
            "enforced",
            (
                "Заканчивается, когда у Active Player не остаётся подходящих models, либо он решает остановиться.",
            ),
        ),
        "MIN-PHS-6": Rule(
            "End Phase: effects resolve, both players discard their unspent AP, then the Roles are swapped.",
            "partial",
            (
                "Разрешаются применимые эффекты; оба игрока сбрасывают неизрасходованные Activation Points, затем Roles меняются местами.",
            ),
        ),
        "MIN-ACT-1": Rule(
            "Each Activation is a Sequence of five steps in order: Activation, Movement, Reaction, Action, Resolution.",
            "enforced",
            (
                "Activation Sequence происходит при каждой Activation во время Tactical Phase и состоит из пяти шагов:",
            ),
        ),
        "MIN-ACT-2": Rule(
            "Activation Step: activating a model spends one of its Activation Points.",
            "enforced",
            ("Activation Step — Active Player активирует model, тратя один Activation Point.",),
        ),
        "MIN-ACT-3": Rule(
            "Movement Step: the activated model declares Normal or Special Movement, with Skills it has.",
            "enforced",
            (
                "Movement Step — model объявляет Normal или Special Movement (объявляя соответствующие Skills, такие как Dash, Climbing, Leap, Flight или Flicker).",
            ),
        ),
        "MIN-ACT-4": Rule(
            "The model enters or leaves Crouched only at the start or end of its Movement.",
            "enforced",
            ("Она может войти в состояние Crouched или отменить его в начале или конце Movement.",),
        ),
        "MIN-ACT-5": Rule(
            "Reaction Step: the Reactive Player declares which of his models react, none or several, and their Normal Actions.",
            "enforced",
            (
                "Reaction Step — Reactive Player объявляет, какие из его models реагируют, если таковые есть, и какой Normal Action выполняет каждая из них.",
                "Реагировать может более одной model.",
            ),
        ),
        "MIN-ACT-6": Rule(
            "A Reaction Attack may target only the activated model.",
            "enforced",
            ("Model может нацелить Reaction Attack только на активированную model.",),
        ),
        "MIN-ACT-7": Rule(
            "Action Step: the activated model declares a Normal or Special Action.",
            "enforced",
            ("Action Step — активированная model объявляет Normal или Special Action.",),
        ),
        "MIN-ACT-8": Rule(
            "Resolution Step: the required rolls are made and damage, effects and States resolve, in the Active Player's order where needed.",
            "partial",
            (
                "Resolution Step — применяются modifiers, выполняются все необходимые броски, а урон/эффекты/States разрешаются одновременно и, где это нужно, в порядке, выбранном Active Player.",
            ),
        ),
        "MIN-REA-1": Rule(
            "A Reaction costs the reacting model one Activation Point.",
            "enforced",
            (
                "В своей Reactive Role model может объявить Reaction и отреагировать на активированную model, потратив Activation Point",
            ),
        ),
        "MIN-REA-2": Rule(
            "A Reaction can only be a Normal Action.",
            "enforced",
            ("Reaction может быть только Normal Action",),
        ),
        "MIN-REA-3": Rule(
            "A Reaction needs line of sight to the activated model during its Movement; a Dodge without it needs Awareness.",
            "partial",
            (
                "и требует LoS на активированную model в какой-то момент во время её Movement (либо для Dodge без LoS достаточно Awareness).",
            ),
        ),
        "MIN-REA-4": Rule(
            "An Attack of Opportunity is declared during the activated enemy's Movement, when it moves within Reach, and attacks it.",
            "partial",
            (
                "Attack of Opportunity — если активированная вражеская model перемещается в пределах Reach в середине Movement, реагирующая model может в этот момент объявить Reaction и попытаться выполнить Attack против неё.",
            ),
        ),
        "MIN-REA-5": Rule(
            "A model that declared a Reaction, even an Attack of Opportunity that failed for want of Reach, declares no other in the Sequence.",
            "enforced",
            (
                "Если окажется, что model на самом деле не была в пределах Reach, Attack просто проваливается — но реагирующая model всё равно не может объявить другой Reaction в этой Sequence.",
            ),
        ),
        "MIN-REA-6": Rule(
            "A Ranged Attack of Opportunity is declared while the activated model approaches; its Melee Attack then starts a Confrontation.",
            "partial",
            (
                "Ranged Attack of Opportunity можно объявить, пока активированная model ещё приближается; если затем она объявляет Melee Attack, это запускает Confrontation.",
            ),
        ),
        "MIN-REA-7": Rule(
            "A Dodge or Perceive may change to an Attack right after the enemy's Action Step, if it attacks Shrouded or Flying and is in line of sight.",
            "partial",
            (
                "Если реагирующая model объявила Dodge или Perceive и имеет LoS на активированного противника, который затем атакует, находясь в состоянии Shrouded или Flying, она может изменить своё объявление на Attack сразу после Action Step противника.",
            ),
        ),
        "MIN-RES-1": Rule(
            "Resolution: Confrontation rolls first; Damage rolls by models that scored Hits, prevention rolls by models that received them; Wounds last.",
            "partial",
            (
                "Во время Resolution игроки выполняют все броски Confrontation, models, нанёсшие Hits, совершают Damage rolls, а models, получившие Hits, могут попытаться выполнить собственные броски предотвращения.",
                "Wounds и вызванные ими эффекты/States применяются в последнюю очередь",
            ),
        ),
        "MIN-RES-2": Rule(
            "Simultaneous conflicts are resolved in the order the Active Player chooses.",
            "enforced",
            ("а одновременные конфликты разрешаются в порядке, выбранном Active Player.",),
        ),
        "MIN-TXT-1": Rule(
            "Title: the sequence of play.", "descriptive", ("Последовательность игры",)
        ),
        "MIN-TXT-2": Rule("Heading.", "descriptive", ("The Turn Phase",)),
        "MIN-TXT-3": Rule(
            "Header of the phase table.", "descriptive", ("| Phase | Что происходит |",)
        ),
        "MIN-TXT-4": Rule("Heading.", "descriptive", ("Tactical Phase — Activation Sequence",)),
        "MIN-TXT-5": Rule("Heading.", "descriptive", ("Reaction и Attack of Opportunity",)),
        "MIN-TXT-6": Rule(
            "Heading announcing the Resolution Step and a worked example the fragment does not contain.",
            "descriptive",
            ("Resolution Step и разобранный пример",),
        ),
    }
)
"""Every miniatures rule id -> its rule."""

GEOMETRIC: Final = frozenset({"MIN-REA-3", "MIN-REA-4", "MIN-REA-6", "MIN-REA-7"})
"""The rules that rest partly on geometry: their sequencing is judged, their geometric
condition is a claim the log makes (``geometry=CLAIMED``), listed as trusted."""

NOTES: Final = MappingProxyType(
    {
        "MIN-PHS-6": "Judged: the AP are discarded, then the Roles swapped, then the turn ends. Not judged: which 'applicable effects' resolve (end_phase_effects=AS_LOGGED; the fragment names none).",
        "MIN-ACT-8": "Judged: rolls only in the Resolution Step, by the controller of a model taking part, with as many results as dice, each on a die. Not judged: modifiers, and what the dice show (dice=LOGGED).",
        "MIN-REA-3": "Geometry claimed: a Reaction the log says had no line of sight breaks the rule unless it is a Dodge by a model with Awareness; line of sight the log claims is trusted and listed (geometry=CLAIMED).",
        "MIN-REA-4": "Judged: an AoO is declared in the Movement Step, after the Movement and before the Reaction Step, at the activated model, by a Reactive model with an AP that has not reacted. Claimed: whether the target was within Reach (aoo_checked), trusted and listed.",
        "MIN-REA-6": "Judged: a Ranged AoO the log says was declared while the target no longer approached breaks it; after a Ranged AoO, a Melee Attack owes a Confrontation roll before any Damage or prevention roll and before the Sequence ends. Claimed: 'approaching', trusted and listed.",
        "MIN-REA-7": "Judged: only right after the Action Step, only from Dodge or Perceive, only if the activated model attacks; the AP cost is flag declaration_change_cost. Claimed: line of sight and the enemy's Shrouded or Flying state, trusted and listed.",
        "MIN-RES-1": "The seed orders only Confrontation rolls first and Wounds last (the digest's Damage-before-prevention order is not enforced: the seed wins). Judged too: a Damage roll by a model that scored Hits, a prevention roll by a model that received them, Wounds on a model that received Hits. The Hits and Wounds themselves are as logged (dice=LOGGED).",
        "MIN-OQ-3": "upkeep_scope=ACTIVE_PLAYER_ONLY is not offered: the Reactive Player's models could never react, and the seed's Reactions need their AP.",
        "MIN-OQ-11": "aoo_cost=FREE is not offered: an AoO is a Reaction (MIN-REA-1), and a Reaction costs an AP.",
        "MIN-OQ-9": "geometry=CHECKED is not offered: positions, terrain and bases are not in the fragment.",
        "MIN-OQ-10": "dice=COMMITTED is not offered: the rolls are recorded with their outcome (the core's chance events); a fork keeps the rolls before its fork point and its branch records its own after it.",
    }
)
"""What a partial rule leaves out, and where the seed overrules the digest."""

TITLES: Final = MappingProxyType({rid: rule.title for rid, rule in CATALOG.items()})
"""Rule id -> title, for `vwlog.games.GameRules.catalog`."""

ENFORCEABLE: Final = tuple(rid for rid, r in CATALOG.items() if r.status != "descriptive")
"""The rules a log can break."""

__all__ = ["CATALOG", "ENFORCEABLE", "GEOMETRIC", "NOTES", "TITLES", "Rule"]
