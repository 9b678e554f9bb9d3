"""Writing: live matches, decisions in play mode (live or on a fork), forks, rebase, rulings.

No endpoint alters or deletes a stored event: every write appends, chained to the head.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Annotated, Any

from fastapi import APIRouter, Depends, HTTPException, Query

from vwlog.api.dependencies import StoreDep, WriterDep, get_signer, match_access, require
from vwlog.api.errors import ERROR_RESPONSES
from vwlog.api.routers.matches import full_record
from vwlog.api.schemas import (
    DecisionsIn,
    ForkIn,
    LiveMatchIn,
    MatchSummaryOut,
    ReceiptOut,
    RulingIn,
)
from vwlog.api.signing import Signer
from vwlog.events import JudgeRulingIssued
from vwlog.model.text import msg
from vwlog.model.types import RulingKind
from vwlog.render.json import rebase_json
from vwlog.rules import expect
from vwlog.services.forks import fork_match
from vwlog.services.live import record_ruling, start_match
from vwlog.services.matches import state_at
from vwlog.services.play import play_decisions
from vwlog.services.rebase import rebase
from vwlog.store.tokens import Role, TokenInfo

router = APIRouter(tags=["play"], responses=ERROR_RESPONSES)

Writer = Annotated[TokenInfo, Depends(require(Role.ORGANISER, Role.JUDGE))]
Judge = Annotated[TokenInfo, Depends(require(Role.JUDGE))]
SignerDep = Annotated[Signer, Depends(get_signer)]


def receipt(
    signer: Signer,
    match_id: str,
    head_seq: int,
    head_hash: str,
    *,
    first_seq: int,
    appended: int,
    decisions: int,
    winner: str | None,
    events: list[dict[str, Any]],
) -> ReceiptOut:
    """A receipt of an append, signed over the match id and its new head."""
    payload: dict[str, object] = {
        "match_id": match_id,
        "head_seq": head_seq,
        "head_hash": head_hash,
    }
    return ReceiptOut(
        match_id=match_id,
        first_seq=first_seq,
        head_seq=head_seq,
        head_hash=head_hash,
        appended=appended,
        decisions=decisions,
        winner=winner,
        signature=signer.sign(payload),
        events=events,
    )


@router.post("/live", status_code=201, summary="Start a match to record live")
def start_live(body: LiveMatchIn, store: StoreDep, _who: Writer) -> MatchSummaryOut:
    """Store a new match (the packaged pool, the named packaged decks shuffled by ``seed``) up
    to its first decision; then append decisions to ``/matches/{id}/decisions``. Needs an
    organiser's or judge's token."""
    created = datetime.now(UTC).isoformat(timespec="seconds")
    return MatchSummaryOut.of(
        start_match(store, body.match_id, body.decks, seed=body.seed, created=created)
    )


@router.post(
    "/matches/{match_id}/decisions",
    summary="Append decisions in play mode (live recording, or playing on a fork)",
)
def append_decisions(
    body: DecisionsIn, access: WriterDep, store: StoreDep, signer: SignerDep
) -> ReceiptOut:
    """Check each decision (an illegal one is refused with its rule ids, 422, and nothing is
    stored), insert the consequences the rules demand, then ``auto`` decisions by the
    generator's policy; all in one transaction chained to the head. Of two appends at the same
    head one wins and the other gets 409 with the current head. A player's token appends only
    its own seat's decisions, one call per decision awaited from it, without ``auto``."""
    expected = body.expected_seq
    if access.viewer is not None:
        if body.auto:
            raise HTTPException(403, msg("a player's token cannot ask for automatic decisions"))
        head = store.head(access.match_id)
        if expected is None:
            # append only at the head whose awaited decision was checked below
            expected = head.seq
        state = state_at(store, access.match_id, head.seq)
        awaited = expect(state.ruleset, state).player if state.ruleset else None
        if awaited != access.viewer:
            raise HTTPException(
                403,
                msg(
                    "the decision awaited is {awaited}'s, not seat {viewer}'s",
                    awaited=repr(awaited),
                    viewer=repr(access.viewer),
                ),
            )
        if len(body.decisions) > 1:
            raise HTTPException(403, msg("a player's token appends one decision per call"))
        controllers = {o.id: o.controller for o in state.register}
        for object_id in body.choices:
            if controllers.get(object_id) != access.viewer:
                raise HTTPException(
                    403,
                    msg(
                        "a player's token chooses only for its own objects on the register, "
                        "not {object_id}",
                        object_id=repr(object_id),
                    ),
                )
    result = play_decisions(
        store,
        access.match_id,
        body.decisions,
        auto=body.auto,
        policy=body.policy,
        seed=body.seed,
        expected_seq=expected,
        choices=body.choices,
    )
    head_seq = result.head_seq
    # the hash of the head this append made (a later append may have moved the match on)
    made = next(store.records(access.match_id, gt=head_seq - 1, lte=head_seq), None)
    head_hash = (made.hash if made is not None else None) or store.head(access.match_id).hash
    shown = (
        []
        if access.viewer is not None
        else [e.model_dump(mode="json", by_alias=True) for e in result.events]
    )
    return receipt(
        signer,
        access.match_id,
        head_seq,
        head_hash,
        first_seq=head_seq - result.appended + 1,
        appended=result.appended,
        decisions=result.decisions,
        winner=result.winner,
        events=shown,
    )


@router.post("/matches/{match_id}/forks", status_code=201, summary="Fork a match")
def fork(match_id: str, body: ForkIn, store: StoreDep, who: Writer) -> MatchSummaryOut:
    """Start a fork at a priority point of the match (400 names the nearest ones). Play on it
    with ``/matches/{fork}/decisions``. Needs an organiser's or judge's token."""
    full_record(match_access(match_id, store, who))
    fork_id = fork_match(store, match_id, body.at, name=body.name)
    return MatchSummaryOut.of(store.meta(fork_id))


@router.post("/matches/{match_id}/rebase", summary="Re-apply the parent's later decisions")
def rebase_(
    match_id: str,
    store: StoreDep,
    _who: Writer,
    dry_run: Annotated[bool, Query()] = False,
) -> dict[str, Any]:
    """Re-apply, on a fork, the parent's decisions after the fork point, until one is no
    longer legal there (named with its rule ids)."""
    return rebase_json(rebase(store, match_id, dry_run=dry_run))


@router.post("/matches/{match_id}/rulings", status_code=201, summary="Record a judge's ruling")
def rule(
    match_id: str, body: RulingIn, store: StoreDep, judge: Judge, signer: SignerDep
) -> ReceiptOut:
    """Append a `judge_ruling_issued` record after checking it against the rules (R-GEN-8).
    Only judges rule; the judge is the token's label (or id)."""
    ruling = JudgeRulingIssued(
        judge=judge.label or judge.id,
        kind=RulingKind(body.kind),
        reason=body.reason,
        back_to=body.back_to,
        loser=body.loser,
    )
    head = record_ruling(store, match_id, ruling, expected_seq=body.expected_seq)
    return receipt(
        signer,
        match_id,
        head.seq,
        head.hash,
        first_seq=head.seq,
        appended=1,
        decisions=1,
        winner=store.meta(match_id).winner,
        events=[ruling.model_dump(mode="json")],
    )


__all__ = [
    "Judge",
    "SignerDep",
    "Writer",
    "append_decisions",
    "fork",
    "rebase_",
    "receipt",
    "rule",
    "start_live",
]
