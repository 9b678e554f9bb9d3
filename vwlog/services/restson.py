"""What a verdict rests on, in words: the pool and the ruleset a log is held to (or that they
are its own, or that its game has none), the hash chain's state, and why a published pool or
ruleset does not count where the store accepts others (`vwlog.services.trust` finds them)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from vwlog.events import (
    MatchStarted,
)
from vwlog.games import GameRules
from vwlog.io import trust as io_trust
from vwlog.model.text import SaidText, msg, said_text
from vwlog.rules.published import (
    OWN_DEFINITIONS_WARNING,
    OWN_RULESET_WARNING,
    house_rules,
    house_rules_text,
)

if TYPE_CHECKING:
    from collections.abc import Sequence

    from vwlog.io.trust import PublishedPool, PublishedRuleset
    from vwlog.model.cards import Ruleset


def unstarted_texts(game: GameRules) -> tuple[str, str]:
    """What the pool and the ruleset rest on before a VW start is found: nothing, or, for a
    game without published pools and rulesets, that it has none."""
    if game.publishes:
        return said_text(msg("no match_started")), said_text(msg("no match_started"))
    return said_text(msg("none in {game}", game=game.name)), said_text(
        msg("as the record states it (no published rulesets in {game})", game=game.name)
    )


def chain_problems(chain: str) -> list[str]:
    """What the chain's state makes a problem: no hashes, or a broken link."""
    if chain == "no hashes":
        return [
            said_text(msg("no hash chain: the record carries no hashes, so nothing vouches for it"))
        ]
    return [] if chain == "intact" else [said_text(msg("hash chain {chain}", chain=chain))]


def not_accepted(what: str, named: str, accepted: Sequence[str] | None) -> list[str]:
    """Why a published pool or ruleset does not count, if the store accepts others."""
    if accepted is None or named in accepted:
        return []
    if what == "pool":
        said = msg(
            "pool {id} is published but not accepted here (accepted: {accepted})",
            id=named,
            accepted=", ".join(accepted),
        )
    else:
        said = msg(
            "ruleset {id} is published but not accepted here (accepted: {accepted})",
            id=named,
            accepted=", ".join(accepted),
        )
    return [said_text(said)]


def said_pool(held: PublishedPool | None, event: MatchStarted) -> SaidText:
    """The pool a log's cards are held to, or the warning that they are the log's own."""
    if held is not None:
        return said_text(msg("published {id} ({hash})", id=held.id, hash=held.hash[:16]))
    own = msg("card definitions are the log's own")
    assert str(own) == OWN_DEFINITIONS_WARNING
    if event.pool is None:
        return said_text(own)
    return said_text(msg("{warning} ({pool}, not published)", warning=own, pool=event.pool.id))


def said_ruleset(
    held: PublishedRuleset | None, event: MatchStarted, judged_under: Ruleset | None
) -> tuple[SaidText, tuple[tuple[str, Any], ...]]:
    """The ruleset a log's flags are held to (or the warning that it is the log's own) with the
    house rules it was judged under (``… with house rules hand_limit=2``); and those rules."""
    house = house_rules(held.ruleset if held else event.ruleset, event.ruleset, judged_under)
    if held is not None:
        named = msg("published {id} ({hash})", id=held.id, hash=held.hash[:16])
    else:
        own = msg("the ruleset is the log's own")
        assert str(own) == OWN_RULESET_WARNING
        rid = io_trust.ruleset_id(event.ruleset)
        named = msg("{warning} ({ruleset}, not published)", warning=own, ruleset=rid)
    if house:
        flags = house_rules_text(house)
        named = msg("{ruleset} with house rules {flags}", ruleset=named, flags=flags)
    return said_text(named), house


def said_own_ruleset(
    game: GameRules, start: Any, judged_under: Any | None
) -> tuple[SaidText, tuple[tuple[str, Any], ...]]:
    """What the ruleset of a game without published rulesets rests on (the start event's
    own), with the house rules it was judged under (``--set``, a ruleset file); and those
    rules."""
    named = msg("as the record states it (no published rulesets in {game})", game=game.name)
    logged = game.start_ruleset(start) or game.default_ruleset
    house = house_rules(logged, logged, judged_under) if logged is not None else ()
    if house:
        named = msg(
            "{ruleset} with house rules {flags}", ruleset=named, flags=house_rules_text(house)
        )
    return said_text(named), house


__all__ = [
    "chain_problems",
    "not_accepted",
    "said_own_ruleset",
    "said_pool",
    "said_ruleset",
    "unstarted_texts",
]
