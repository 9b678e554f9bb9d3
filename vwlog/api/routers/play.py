"""Writing: live matches, decisions in play mode (live or on a fork), forks, rebase, rulings.

No endpoint alters or deletes a stored event: every write appends, chained to the head.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Header, HTTPException, Path, Query, Request, Response
from pydantic import BaseModel

from vwlog.api.dependencies import (
    IdempotencyDep,
    SignerDep,
    StoreDep,
    WriterDep,
    is_finished,
    match_access,
    require,
)
from vwlog.api.errors import ERROR_RESPONSES, error_status, request_language
from vwlog.api.routers.matches import full_record
from vwlog.api.schemas import (
    DecisionsIn,
    ForkIn,
    LiveGameIn,
    LiveMatchIn,
    MatchSummaryOut,
    ReceiptOut,
    RulingIn,
)
from vwlog.api.signing import Signer
from vwlog.api.writers import write
from vwlog.games import rules_for
from vwlog.games.seats import HIDDEN_CARD, SeatError, UnseenError, masked
from vwlog.io.i18n import say, using_language
from vwlog.model.errors import IllegalEventError, SequenceConflictError, VwlogError
from vwlog.model.text import msg
from vwlog.render.json import rebase_json
from vwlog.services.decisions import decisions_of
from vwlog.services.forks import fork_match
from vwlog.services.hashes import shown_head_hash
from vwlog.services.live import record_ruling, start_match
from vwlog.services.livegames import start_game_match
from vwlog.services.play import PlayResult, play_decisions
from vwlog.services.rebase import rebase
from vwlog.services.seats import authorize_seat
from vwlog.store import MatchStore
from vwlog.store.idempotency import IdempotencyStore, KeyState
from vwlog.store.tokens import Role, TokenInfo

router = APIRouter(tags=["play"], responses=ERROR_RESPONSES)

Writer = Annotated[TokenInfo, Depends(require(Role.ORGANISER, Role.JUDGE))]
Judge = Annotated[TokenInfo, Depends(require(Role.JUDGE))]


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
async def start_live(
    request: Request, body: LiveMatchIn, store: StoreDep, _who: Writer
) -> MatchSummaryOut:
    """Store a new match (the packaged pool, the named packaged decks) up to its first
    decision; then append decisions to ``/matches/{id}/decisions``. Needs an organiser's or
    judge's token.

    Without ``seed`` (the normal case) the decks are shuffled and the first player drawn in
    secret, by a CSPRNG; instance ids are random, and each seat's deck order is committed with
    a salt (its ``deck_commitment``, public from the start) and opened when the match ends.
    With ``seed`` the shuffle is reproducible (tests, demonstrations), nothing in it is
    secret, and ``match_started`` says ``"shuffle": "seeded"`` with the seed."""
    created = datetime.now(UTC).isoformat(timespec="seconds")
    meta = await write(
        request,
        lambda: start_match(store, body.match_id, body.decks, seed=body.seed, created=created),
    )
    return MatchSummaryOut.of(meta)


@router.post(
    "/live/{game}", status_code=201, summary="Start a match of another game to record live"
)
async def start_live_game(
    request: Request,
    game: Annotated[str, Path(pattern=r"^[a-z][a-z0-9_]{0,31}$")],
    body: LiveGameIn,
    store: StoreDep,
    _who: Writer,
) -> MatchSummaryOut:
    """Store a new match of ``game`` (``wowtcg``, ``l5r``, ``minis``, any game whose rules
    play decisions) from its start event, judged by the game's rules, with every consequence
    they owe up to the first decision; then append decisions in the game's notation to
    ``/matches/{id}/decisions``, as for any match. Needs an organiser's or judge's token.
    Vandaria Wars' matches start from packaged decks at ``/live``."""
    created = datetime.now(UTC).isoformat(timespec="seconds")
    meta = await write(
        request, lambda: start_game_match(store, body.match_id, game, body.start, created=created)
    )
    return MatchSummaryOut.of(meta)


IdempotencyKey = Annotated[
    str | None,
    Header(
        alias="Idempotency-Key",
        min_length=1,
        max_length=200,
        pattern=r"^[\x21-\x7e]+$",
        description=(
            "Makes a retried append safe: the first request with a key appends and keeps its "
            "receipt; the same request again with the same key appends nothing and gets the "
            "same receipt (200); another request with the same key is refused (422), and "
            "the same request while the first is still under way gets 409. Keys are kept per "
            "match, in the store (every worker sees them); a refused append keeps no key."
        ),
    ),
]


def _fingerprint(kind: str, who: TokenInfo | None, body: BaseModel) -> str:
    """What an idempotent request asks, as one hash: the endpoint, the token and the body."""
    h = hashlib.sha256(f"{kind}\n{who.id if who is not None else ''}\n".encode())
    h.update(body.model_dump_json().encode())
    return h.hexdigest()


def _once(
    keys: IdempotencyStore,
    match_id: str,
    key: str | None,
    fingerprint: str,
    status: int,
    append: Callable[[], ReceiptOut],
) -> tuple[ReceiptOut, bool]:
    """Run ``append`` once per ``key`` of ``match_id`` (every time without a key): its
    receipt, and whether it was kept from an earlier request with the same key.

    Raises:
        HTTPException: 422 for a key used by another request, 409 for a key whose request
            has not finished.
    """
    if key is None:
        return append(), False
    found = keys.reserve(match_id, key, fingerprint)
    if found.state == KeyState.DONE and found.answer is not None:
        return ReceiptOut.model_validate_json(found.answer), True
    if found.state == KeyState.OTHER:
        raise HTTPException(
            422,
            msg(
                "the Idempotency-Key was used for another request (another body or token); "
                "use a new key for a new request"
            ),
        )
    if found.state != KeyState.NEW:
        raise HTTPException(
            409,
            msg(
                "an append with this Idempotency-Key is under way (or stopped after appending): "
                "send it again later, or read the match's head before sending it with a new key"
            ),
        )
    try:
        made = append()
    except BaseException:
        keys.release(match_id, key)
        raise
    keys.complete(match_id, key, made.model_dump_json(), status)
    return made, False


@router.post(
    "/matches/{match_id}/decisions",
    summary="Append decisions in play mode (live recording, or playing on a fork)",
)
async def append_decisions(
    request: Request,
    body: DecisionsIn,
    access: WriterDep,
    store: StoreDep,
    signer: SignerDep,
    keys: IdempotencyDep,
    idempotency_key: IdempotencyKey = None,
) -> ReceiptOut:
    """Check each decision (an illegal one is refused with its rule ids, 422, and nothing is
    stored), insert the consequences the rules demand, then ``auto`` decisions by the
    generator's policy; all in one transaction chained to the head. Of two appends at the same
    head one wins and the other gets 409 with the current head.

    A player's token makes exactly its own seat's decisions, whatever their kind: one decision
    per call, without ``auto``, while the decision awaited is its own (a concession at any
    time); another seat's decision (a concession included), an object or card of another seat,
    or a choice for another seat's object is refused with 403; a decision naming a card the
    seat cannot see is refused exactly as one naming a card that does not exist (422). What a
    player's token is told names no card its seat cannot see ("a hidden card"). Without
    ``expected_seq`` a player's decision is appended only at the head it was checked at.

    A player's receipt (and a 409's body) has ``head_hash: null`` while its seat could not
    compute the head's hash from the records it reads (the hash would test a guess of a
    record naming cards hidden from it, such as the other seat's draw); its ``signature`` is
    the one everybody gets, over the real head hash. The seat checks it against the exported
    record once the match is finished and public (see `ReceiptOut`).

    With an ``Idempotency-Key`` header, sending the same append again (a retry after a lost
    answer, to any worker) appends nothing and returns the first receipt; the same key with
    another body or token is refused (422), and the same request while the first is still
    under way gets 409. A refused append keeps no key."""
    match_id = access.match_id
    fingerprint = _fingerprint("decisions", access.who, body)

    def append() -> ReceiptOut:
        if access.viewer is not None:
            return _append_as_seat(request, body, match_id, access.viewer, store, signer)
        expected = body.expected_seq
        if expected is None and idempotency_key is not None:
            expected = store.head(match_id).seq  # a key stands for one append at one head
        result = play_decisions(
            store,
            match_id,
            body.decisions,
            auto=body.auto,
            policy=body.policy,
            seed=body.seed,
            expected_seq=expected,
            choices=body.choices,
            states=request.app.state.heads,
        )
        return _receipt_of(store, signer, match_id, result)

    def appended() -> tuple[ReceiptOut, bool]:
        decisions_of(rules_for(store.header(match_id).game), "play")  # 400 for a game without
        return _once(keys, match_id, idempotency_key, fingerprint, 200, append)

    made, _ = await write(request, appended)
    return made


def _append_as_seat(
    request: Request,
    body: DecisionsIn,
    match_id: str,
    seat: str,
    store: MatchStore,
    signer: Signer,
) -> ReceiptOut:
    """A player's append: held to its seat (`authorize_seat`) before the rules see it, at the
    head it was checked at; what the rules answer is said through the seat's view."""
    head = store.head(match_id)
    if body.expected_seq is not None and body.expected_seq != head.seq:
        _withhold_conflict_head(request, store, match_id, seat)
        raise SequenceConflictError(match_id, body.expected_seq + 1)
    states = request.app.state.heads
    state = states.state(store, match_id, head)
    try:
        allowed = authorize_seat(state, seat, body.decisions, auto=body.auto, choices=body.choices)
    except SeatError as err:
        raise HTTPException(403, err.text()) from None
    except UnseenError as err:
        raise HTTPException(422, err.text()) from None
    lang = request_language(request)
    try:
        result = play_decisions(
            store,
            match_id,
            allowed.decisions,
            expected_seq=head.seq,
            choices=body.choices,
            states=states,
        )
    except IllegalEventError as err:
        with using_language(lang):
            hidden = say(HIDDEN_CARD)
            shown = [
                masked(allowed.view, v, say(v.text or v.message), hidden, allowed.sent)
                for v in err.violations
            ]
        raise IllegalEventError(err.seq, err.event_type, shown) from None
    except SequenceConflictError:
        _withhold_conflict_head(request, store, match_id, seat)
        raise
    except VwlogError as err:
        with using_language(lang):
            said = allowed.view.mask(say(err.text()), say(HIDDEN_CARD), sent=allowed.sent)
        raise HTTPException(error_status(err), said) from None
    return _receipt_of(store, signer, match_id, result, seat=seat)


def _withhold_conflict_head(request: Request, store: MatchStore, match_id: str, seat: str) -> None:
    """Before a 409 to a player's token: the error body names the head's hash only where the
    seat could compute it (`vwlog.api.errors` reads the mark)."""
    if shown_head_hash(store, match_id, seat) is None:
        request.state.head_hash_withheld = True


def _receipt_of(
    store: MatchStore,
    signer: Signer,
    match_id: str,
    result: PlayResult,
    *,
    seat: str | None = None,
) -> ReceiptOut:
    """The signed receipt of what `play_decisions` appended. To ``seat`` (a player's token)
    no events (consequences may name hidden cards), and the head hash only where the seat
    could compute it (`vwlog.services.hashes`); the signature is the one everybody gets."""
    head_seq = result.head_seq
    # the hash of the head this append made (a later append may have moved the match on)
    made = next(store.records(match_id, gt=head_seq - 1, lte=head_seq), None)
    head_hash = (made.hash if made is not None else None) or store.head(match_id).hash
    made_receipt = receipt(
        signer,
        match_id,
        head_seq,
        head_hash,
        first_seq=head_seq - result.appended + 1,
        appended=result.appended,
        decisions=result.decisions,
        winner=result.winner,
        events=[] if seat else [e.model_dump(mode="json", by_alias=True) for e in result.events],
    )
    if seat is None or is_finished(store.meta(match_id)):
        return made_receipt  # a finished match is public, its chain with it
    shown = shown_head_hash(store, match_id, seat, head_seq)
    return made_receipt.model_copy(update={"head_hash": shown})


@router.post("/matches/{match_id}/forks", status_code=201, summary="Fork a match")
async def fork(
    request: Request, match_id: str, body: ForkIn, store: StoreDep, who: Writer
) -> MatchSummaryOut:
    """Start a fork at a priority point of the match (400 names the nearest ones). Play on it
    with ``/matches/{fork}/decisions``. Needs an organiser's or judge's token."""

    def forked() -> MatchSummaryOut:
        full_record(match_access(match_id, store, who))
        fork_id = fork_match(store, match_id, body.at, name=body.name)
        return MatchSummaryOut.of(store.meta(fork_id))

    return await write(request, forked)


@router.post("/matches/{match_id}/rebase", summary="Re-apply the parent's later decisions")
async def rebase_(
    request: Request,
    match_id: str,
    store: StoreDep,
    _who: Writer,
    dry_run: Annotated[bool, Query()] = False,
) -> dict[str, Any]:
    """Re-apply, on a fork, the parent's decisions after the fork point, until one is no
    longer legal there (named with its rule ids)."""
    return rebase_json(await write(request, lambda: rebase(store, match_id, dry_run=dry_run)))


@router.post(
    "/matches/{match_id}/rulings",
    status_code=201,
    summary="Record a judge's ruling",
    responses={
        200: {
            "model": ReceiptOut,
            "description": "the same ruling sent again with its Idempotency-Key: its receipt",
        }
    },
)
async def rule(
    request: Request,
    match_id: str,
    body: RulingIn,
    response: Response,
    store: StoreDep,
    judge: Judge,
    signer: SignerDep,
    keys: IdempotencyDep,
    idempotency_key: IdempotencyKey = None,
) -> ReceiptOut:
    """Append a `judge_ruling_issued` record after checking it against the rules (R-GEN-8).
    Only judges rule; the judge is the token's label (or id). A ruling is the only way a
    match is lost by a seat without that seat's own decision (``GAME_LOSS`` with ``loser``).

    With an ``Idempotency-Key`` header, sending the same ruling again appends nothing and
    returns the first receipt (200); the same key with another body is refused (422)."""
    fingerprint = _fingerprint("rulings", judge, body)

    def append() -> ReceiptOut:
        expected = body.expected_seq
        if expected is None and idempotency_key is not None:
            expected = store.head(match_id).seq  # a key stands for one append at one head
        head, ruling = record_ruling(
            store,
            match_id,
            judge=judge.label or judge.id,
            kind=body.kind,
            reason=body.reason,
            back_to=body.back_to,
            loser=body.loser,
            expected_seq=expected,
        )
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

    made, kept = await write(
        request, lambda: _once(keys, match_id, idempotency_key, fingerprint, 201, append)
    )
    if kept:
        response.status_code = 200
    return made


__all__ = [
    "IdempotencyKey",
    "Judge",
    "Writer",
    "append_decisions",
    "fork",
    "rebase_",
    "receipt",
    "rule",
    "start_live",
]
