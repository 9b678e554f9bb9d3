"""The WoW TCG rules catalog (seed 002, sections 500-503): every rule id with its title, its
status, the Russian sentences of the seed it rests on (verbatim), and the seed's section.

Status: ``enforced`` (judged from the events), ``partial`` (judged as far as the seed and the
log's claims reach: ``note`` says what it rests on), ``pending`` (not judged yet) or
``descriptive`` (nothing a log can break).

Where the digest (``WOWTCG.md``) and the seed disagree, the seed wins (`SEED_WINS`).
"""

from __future__ import annotations

from types import MappingProxyType
from typing import Final

from vwlog.games.wowtcg.descriptive import DESCRIPTIVE, Rule

__all__ = ["CATALOG", "RULES", "SEED_WINS", "TITLES", "Rule"]


RULES: Final[tuple[Rule, ...]] = (
    Rule(
        "WOW-TRN-1",
        "Turns go clockwise, starting with the first player.",
        "enforced",
        ("Игроки ходят по часовой стрелке, начиная с первого.",),
        "500.1",
        "",
    ),
    Rule(
        "WOW-TRN-2",
        "Each turn has three phases, in order: start, action, end.",
        "enforced",
        (
            "Ход каждого игрока содержит три фазы.",
            "По порядку это фаза начала, действия и окончания.",
        ),
        "500.1",
        "",
    ),
    Rule(
        "WOW-TRN-3",
        "The start phase has two steps, in order: the ready step and the draw step.",
        "enforced",
        (
            "Каждая фаза начала содержит два шага.",
            "По порядку это шаг изготовки и шаг взятия карты.",
        ),
        "500.1",
        "",
    ),
    Rule(
        "WOW-TRN-4",
        (
            "An action phase may contain any number of combat steps (zero included); combat "
            "steps occur only inside an action phase."
        ),
        "enforced",
        ("Каждая фаза действия может содержать любое количество боевых шагов.",),
        "500.1",
        "",
    ),
    Rule(
        "WOW-TRN-5",
        "Every end phase ends the turn with the final step.",
        "enforced",
        ("Каждая фаза окончания завершает ход заключительным шагом.",),
        "500.1",
        "",
    ),
    Rule(
        "WOW-PRI-1",
        (
            "There are no priority windows between phases or between turns: nothing happens by "
            "a player's choice in those gaps."
        ),
        "enforced",
        ("Между фазами и ходами нет окон приоритета (409.4).",),
        "500.1",
        "",
    ),
    Rule(
        "WOW-PRI-2",
        "Nothing can be added to the chain while no priority window is open.",
        "partial",
        (
            (
                "Во время заключительного шага нет окон приоритета, потому ничего не может "
                "быть добавлено в цепь."
            ),
        ),
        "503.2a",
        "generalised from the final step to every gap (inference)",
    ),
    Rule(
        "WOW-PRI-3",
        (
            "When a window opens, pending triggered effects are added to the chain first, and "
            "then the **current player** receives priority."
        ),
        "enforced",
        (
            (
                "Любые ожидающие сработавшие эффекты добавляются в цепь, и затем текущий игрок "
                "получает приоритет."
            ),
        ),
        "501.1b",
        "",
    ),
    Rule(
        "WOW-PRI-4",
        (
            "Only the player holding priority may add a link or pass; a pass moves priority to "
            "the next player clockwise (inferred: rule 409 is not in the fragment)."
        ),
        "partial",
        ("все игроки последовательно передадут приоритет",),
        "502.2",
        "rule 409 is not in the seed: who may pass or add is inferred",
    ),
    Rule(
        "WOW-PRI-5",
        "A window closes when all players pass priority in succession while the chain is empty.",
        "partial",
        (
            (
                "Если в любое время вне-боевой фазы действия игрока, когда цепь пуста, все "
                "игроки последовательно передадут приоритет, текущее окно закроется"
            ),
        ),
        "502.2",
        "with links on the chain the outcome rests on chain_resolution (WOW-OQ-2)",
    ),
    Rule(
        "WOW-TRG-1",
        (
            "When a turn, phase or step begins, every ability and modifier that triggers at "
            "the beginning of that turn, phase or step triggers."
        ),
        "partial",
        (
            (
                "Когда начинается ход, фаза или шаг, срабатывают любые способности и "
                "модификаторы, которые срабатывают в начале этого хода, фазы или шага."
            ),
        ),
        "500.2",
        (
            "which abilities trigger is card data: only the moment a logged trigger claims is "
            "checked, a trigger the log leaves out is not seen"
        ),
    ),
    Rule(
        "WOW-TRG-2",
        (
            "Triggered effects go onto the chain during priority passing — at the opening of "
            "the next window, before anyone gets priority (WOW-PRI-3) — never in a gap without "
            "a window."
        ),
        "enforced",
        ("Сработавшие эффекты добавляются в цепь во время процесса передачи приоритета (409.5).",),
        "500.2",
        "",
    ),
    Rule(
        "WOW-TRG-3",
        (
            'Abilities and modifiers that trigger "at the end of the turn" trigger at the '
            "beginning of that turn's end phase."
        ),
        "partial",
        (
            (
                "Способности и модификаторы, которые срабатывают в конце хода, срабатывают в "
                "начале фазы окончания этого хода."
            ),
        ),
        "500.2",
        "as WOW-TRG-1: only logged triggers are checked",
    ),
    Rule(
        "WOW-TRG-4",
        (
            "Effects that trigger during the final step are added to the chain at the "
            "beginning of the next turn's ready step (exact moment: WOW-OQ-8)."
        ),
        "enforced",
        (
            (
                "Любые эффекты, которые сработали во время заключительного шага, добавляются в "
                "цепь в начале шага изготовки следующего хода (501.1)."
            ),
        ),
        "503.2a",
        "",
    ),
    Rule(
        "WOW-XTN-1",
        "An extra turn is inserted immediately after the current turn.",
        "partial",
        ("Этот ход добавляется сразу за текущим ходом.",),
        "500.3",
        "extra turns are claimed by extra_turn_created (the modifiers are card data)",
    ),
    Rule(
        "WOW-XTN-2",
        (
            "Several extra turns created during one turn are each added separately; the order "
            "is WOW-OQ-4."
        ),
        "enforced",
        (
            (
                "Если в течение одного хода было создано несколько дополнительных ходов, "
                "каждый из них добавляется отдельно, и тот, который был ранее, наступает "
                "первым."
            ),
        ),
        "500.3",
        "",
    ),
    Rule(
        "WOW-XTN-3",
        (
            "Skipping a turn is a replacement: the skipped turn is replaced by nothing, so the "
            "log has no turn for it (only the `turn_skipped` consequence)."
        ),
        "partial",
        ("Это замещающие модификаторы, которые замещают пропущенный ход ничем.",),
        "500.4",
        (
            "skips are claimed by modifier_created kind SKIP_NEXT_TURN; a skipped extra turn "
            "rests on skip_consumes_extra_turn (WOW-OQ-5)"
        ),
    ),
    Rule(
        "WOW-XTN-4",
        (
            "Skips accumulate: two modifiers that each skip the player's next turn skip his "
            "next two turns, and so on."
        ),
        "enforced",
        (
            (
                "Если два модификатора говорят игроку пропустить его следующий ход, тогда "
                "игрок пропускает свои два следующих хода, и так далее."
            ),
        ),
        "500.4",
        "",
    ),
    Rule(
        "WOW-STA-1",
        (
            "When the ready step begins, the current player readies every card in play that he "
            "controls."
        ),
        "enforced",
        (
            (
                "Когда начинается шаг изготовки, текущий игрок изготавливает все карты, "
                "которые находятся в игре под его управлением."
            ),
        ),
        "501.1a",
        "",
    ),
    Rule(
        "WOW-STA-2",
        "At the same moment, another player who controls a character with Inspire:",
        "partial",
        (
            (
                "Если другой игрок управляет персонажем со свойством Вдохновение: [карта], "
                "этот игрок может одновременно с этим (802) изготовить истощённую [карту], "
                "которая находится в игре под его контролем."
            ),
            (
                "ты можешь изготовить до двух своих истощённых соратников, потому что ты "
                "управляешь двумя картами со свойством Вдохновение: Соратник."
            ),
        ),
        "501.1a",
        "card kinds and Inspire keywords are what the log declares (no card pool)",
    ),
    Rule(
        "WOW-STA-3",
        (
            'Modifiers created "when [this turn] begins" are created at the same moment as the '
            "readying."
        ),
        "partial",
        (
            (
                "Любые модификаторы, созданные, “когда [этот ход] начинается ” также создаются "
                "одновременно с этим."
            ),
        ),
        "501.1a",
        (
            "which modifiers are created when a turn begins is card data: only the moment of a "
            "logged one is checked"
        ),
    ),
    Rule(
        "WOW-STA-4",
        (
            "Readying, Inspire readying and those modifiers do not use the chain: they are "
            "consequences, logged before the ready step's window opens, and no player passes "
            "for them."
        ),
        "enforced",
        ("Всё это не использует цепь.",),
        "501.1a",
        "",
    ),
    Rule(
        "WOW-STA-5",
        "Then the ready step's window opens (WOW-PRI-3); when it closes, the ready step ends.",
        "enforced",
        (
            "Затем открывается окно приоритета.",
            "Когда это окно закрывается, шаг изготовки заканчивается.",
        ),
        "501.1b",
        "",
    ),
    Rule(
        "WOW-STA-6",
        (
            "There is no priority window before the ready step, nor between the ready step and "
            "the draw step."
        ),
        "enforced",
        ("До шага изготовки, между шагом изготовки и шагом взятия карты нет окон приоритета.",),
        "501.1c",
        "",
    ),
    Rule(
        "WOW-STA-7",
        (
            "When the draw step begins, the current player draws one card; this does not use "
            "the chain."
        ),
        "enforced",
        (
            "Когда начинается шаг взятия карты, текущий игрок берёт карту.",
            "Это не использует цепь.",
        ),
        "501.2a",
        "",
    ),
    Rule(
        "WOW-STA-8",
        (
            "Then a window opens and the current player receives priority; when it closes, "
            "both the draw step and the start phase end."
        ),
        "enforced",
        (
            "Затем открывается окно приоритета, и текущий игрок получает приоритет.",
            "Когда это окно закрывается, заканчивается и шаг взятия карты, и фаза начала.",
        ),
        "501.2a",
        "",
    ),
    Rule(
        "WOW-STA-9",
        (
            "The first player skips the draw step of his first turn, so he does not draw "
            "(whether the step's window still opens: WOW-OQ-6)."
        ),
        "enforced",
        ("Первый игрок пропускает в свой первый ход шаг взятия карты, потому он не берёт карту.",),
        "501.2b",
        "",
    ),
    Rule(
        "WOW-ACT-1",
        "When the action phase begins, a window opens and the current player receives priority.",
        "enforced",
        (
            (
                "Когда начинается фаза действия, открывается окно приоритета, и текущий игрок "
                "получает приоритет."
            ),
        ),
        "502.1",
        "",
    ),
    Rule(
        "WOW-ACT-2",
        (
            "A non-instant card may be played only by the current player, in his own "
            "non-combat action phase, while the chain is empty (and while holding priority: "
            "WOW-OQ-10)."
        ),
        "partial",
        (
            (
                "Во время своей вне-боевой фазы действия, когда цепь пуста, игрок может "
                "совершить следующее (в любом порядке):"
            ),
            "Разыграть не-мгновенную карту (408)",
        ),
        "502.1",
        "playing a card (408) is a claim: whether the card is instant is what the log says",
    ),
    Rule(
        "WOW-ACT-3",
        "A resource may be placed only under the same conditions (per-turn limit: WOW-OQ-11).",
        "partial",
        ("Разместить ресурс (410)",),
        "502.1",
        "placing a resource (410) is a claim; the per-turn limit is resources_per_turn (WOW-OQ-11)",
    ),
    Rule(
        "WOW-ACT-4",
        (
            "Combat may be declared only under the same conditions; a combat step begins only "
            "by such a declaration"
        ),
        "partial",
        ("Объявить бой (600.3)",),
        "502.1",
        (
            "combat (600) is a claim; what happens inside a combat step rests on combat_model "
            "(WOW-OQ-12)"
        ),
    ),
    Rule(
        "WOW-ACT-5",
        (
            "If, in the current player's non-combat action phase, all players pass in "
            "succession with an empty chain, the window closes and the action phase ends (the "
            'sentence is cut after "and the action phase": WOW-OQ-1).'
        ),
        "partial",
        (
            (
                "Если в любое время вне-боевой фазы действия игрока, когда цепь пуста, все "
                "игроки последовательно передадут приоритет, текущее окно закроется, и фаза "
                "действия"
            ),
        ),
        "502.2",
        "the sentence is cut off: what follows the close rests on action_phase_all_pass (WOW-OQ-1)",
    ),
    Rule(
        "WOW-END-1",
        (
            "When the end phase begins, a window opens: pending triggered effects are added to "
            "the chain, then the current player receives priority; when the window closes, the "
            "final step begins."
        ),
        "enforced",
        (
            "Когда начинается фаза окончания, открывается окно приоритета.",
            "Когда это окно закрывается, начинается заключительный шаг.",
        ),
        "503.1",
        "",
    ),
    Rule(
        "WOW-END-2",
        "The final step has no priority window, so nothing can be added to the chain during it.",
        "enforced",
        (
            (
                "Во время заключительного шага нет окон приоритета, потому ничего не может "
                "быть добавлено в цепь."
            ),
        ),
        "503.2a",
        "",
    ),
    Rule(
        "WOW-END-3",
        (
            "In the final step, in this order: the hand-limit discard (WOW-END-4), the end of "
            "until-end-of-turn modifiers (WOW-END-5), then the end of the step, the phase and "
            "the turn (WOW-END-6)."
        ),
        "enforced",
        ("Во время заключительного шага по порядку происходит следующее:",),
        "503.2a",
        "",
    ),
    Rule(
        "WOW-END-4",
        (
            "If the current player has more cards in hand than his maximum hand size, he must "
            "discard down to exactly that maximum; the default maximum hand size is seven."
        ),
        "enforced",
        (
            (
                "Если у текущего игрока количество карт в руке больше его максимального "
                "размера руки, этот игрок обязан сбросить карты до этого максимума."
            ),
            "Максимальный по умолчанию размер руки составляет семь карт.",
        ),
        "503.2a",
        "",
    ),
    Rule(
        "WOW-END-5",
        "Modifiers that last until the end of the turn stop applying.",
        "partial",
        ("Модификаторы, которые продолжаются до конца хода, заканчивают своё влияние.",),
        "503.2a",
        "only modifiers the log created are known",
    ),
    Rule(
        "WOW-END-6",
        (
            "The final step, the end phase and the turn end; then the next player clockwise "
            "begins his turn (extra and skipped turns: §2.4)."
        ),
        "enforced",
        (
            (
                "Заключительный шаг, фаза окончания и ход заканчиваются, и затем следующий по "
                "часовой стрелке игрок начинает свой ход."
            ),
        ),
        "503.2a",
        "",
    ),
    *DESCRIPTIVE,
)
"""Every rule of the seed: 38 enforceable (WOW-TRN/PRI/TRG/XTN/STA/ACT/END) and 8 descriptive
(WOW-TXT)."""

CATALOG: Final = MappingProxyType({r.id: r for r in RULES})
"""The rules by id."""

TITLES: Final = MappingProxyType({r.id: r.title for r in RULES})
"""Rule id -> title, as `vwlog.games.GameRules.catalog` gives them."""

SEED_WINS: Final = MappingProxyType(
    {
        "WOW-OQ-7": (
            "The digest proposes inspire_limit=ONE_PER_PLAYER as a reading; the seed's own "
            "example lets a player with two Inspire: Ally sources ready two allies "
            "(«ты можешь изготовить до двух своих истощённых соратников, потому что ты "
            "управляешь двумя картами со свойством Вдохновение: Соратник.»), so the limit is "
            "one card per source and is no flag; inspire_source stays one."
        ),
        "WOW-OQ-4": (
            "The digest makes the order of several extra turns an open question; the seed "
            "states it («каждый из них добавляется отдельно, и тот, который был ранее, "
            "наступает первым.»): the default CREATED_FIRST_FIRST is the seed's reading, and "
            "extra_turn_order=CREATED_LAST_FIRST is kept only for a ruleset that departs from it."
        ),
    }
)
"""Where the seed overrules the digest, with the seed's words."""
