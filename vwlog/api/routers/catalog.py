"""What the service publishes: card pools, decks, rulesets, the rule catalog, corpus
statistics, the service's key and its health."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, HTTPException, Query

from vwlog.api.dependencies import PrincipalDep, StoreDep, get_signer
from vwlog.api.errors import ERROR_RESPONSES
from vwlog.api.schemas import TokenOut
from vwlog.api.signing import Signer
from vwlog.io.pools import load_deck, load_pool, packaged_decks
from vwlog.model.cards import DEFAULT_RULESET
from vwlog.model.text import msg
from vwlog.render.statsdata import DEFAULT_MIN_N, DEFAULT_TOP, report
from vwlog.services import rules_catalog

router = APIRouter(tags=["catalog"], responses=ERROR_RESPONSES)


@router.get("/health", summary="Whether the service and its store answer")
def health(store: StoreDep) -> dict[str, Any]:
    """``ok`` and the store's notification position (one cheap query)."""
    return {"status": "ok", "store": store.url, "position": store.position()}


@router.get("/service/key", summary="The public key that signs receipts")
def service_key(signer: Annotated[Signer, Depends(get_signer)]) -> dict[str, str]:
    """The Ed25519 public key (raw, base64) and what it signs."""
    return {
        "algorithm": "Ed25519",
        "public_key": signer.public_key,
        "signs": "canonical JSON (sorted keys, compact) of {match_id, head_seq, head_hash}",
    }


@router.get("/whoami", summary="Who the presented token speaks for")
def whoami(who: PrincipalDep) -> TokenOut:
    """The role of the token, and for a player its match and seat (401 without a token)."""
    if who is None:
        raise HTTPException(401, msg("no token presented"))
    return TokenOut(role=who.role, match_id=who.match_id, seat=who.seat)


@router.get("/pools", summary="The published card pools")
def pools() -> list[dict[str, Any]]:
    """Every published pool (today the one packaged with vwlog), with its cards."""
    pool = load_pool()
    return [pool.model_dump(mode="json")]


@router.get("/pools/decks", summary="The published deck lists")
def decks() -> list[str]:
    """Names of the published deck lists."""
    return packaged_decks()


@router.get("/pools/decks/{name}", summary="One published deck list")
def deck(name: str) -> dict[str, Any]:
    """A deck list: its name and the copies of each card."""
    if name not in packaged_decks():
        raise HTTPException(404, msg("no published deck {name}", name=repr(name)))
    return load_deck(name).model_dump(mode="json")


@router.get("/rulesets", summary="The published rulesets")
def rulesets() -> list[dict[str, Any]]:
    """Every published ruleset (today the default one: the digest's proposal for each open
    question)."""
    return [DEFAULT_RULESET.model_dump(mode="json")]


@router.get("/rules", summary="The rule catalog")
def rules() -> list[dict[str, str]]:
    """Every rule id with its title, status and reason, in document order."""
    return rules_catalog()


@router.get("/rules/{rule_id}", summary="One rule of the catalog with its full text")
def rule(rule_id: str) -> dict[str, str]:
    """A rule's id, title, full text (Markdown with its source tags), basis and status (404
    for an unknown id)."""
    from vwlog.model.types import RuleId
    from vwlog.rules.catalog import RULES

    found = RULES.get(RuleId(rule_id))
    if found is None:
        raise HTTPException(
            404,
            msg("no rule {rule} in the catalog (see /rules)", rule=repr(rule_id)),
        )
    listed = next((r for r in rules_catalog() if r["id"] == rule_id), {})
    return {
        "id": found.id,
        "title": found.title,
        "text": found.text,
        "basis": found.basis,
        "status": listed.get("status", ""),
    }


@router.get("/stats", summary="Corpus statistics of the stored matches")
def corpus(store: StoreDep) -> dict[str, Any]:
    """The statistics read model, brought up to date."""
    from vwlog.services.stats import corpus_stats

    if store.position() == 0:
        raise HTTPException(404, msg("no matches stored yet"))
    data: dict[str, Any] = corpus_stats(store).model_dump(mode="json")
    return data


@router.get("/stats/report", summary="The corpus statistics as the stats command reports them")
def corpus_report(
    store: StoreDep,
    min_n: Annotated[int, Query(ge=1, le=100_000, description="fewest plays to rank a card")] = (
        DEFAULT_MIN_N
    ),
) -> dict[str, Any]:
    """The report ``vwlog stats --format json`` writes (victory types, win rates with their
    95 % intervals by seat, turn order, faction and deck, match length, tempo, cards), plus
    ``top_cards``: the ids of the cards played in at least ``min_n`` finished player-matches,
    best first by the lower end of their interval (as the HTML page ranks them)."""
    from vwlog.services.stats import corpus_stats

    if store.position() == 0:
        raise HTTPException(404, msg("no matches stored yet"))
    stats = corpus_stats(store)
    data = report(stats, min_n=min_n)
    data["top_cards"] = [k for k, _c in stats.card_rows(min_n)[:DEFAULT_TOP]]
    return data


__all__ = [
    "corpus",
    "corpus_report",
    "deck",
    "decks",
    "health",
    "pools",
    "rule",
    "rules",
    "rulesets",
    "service_key",
    "whoami",
]
