"""Reports on one stored match: its validation and integrity (the one verdict), its export,
lineage, rulings and statistics; and the first divergence of two matches."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Annotated, Any
from urllib.parse import quote

from fastapi import APIRouter, HTTPException, Query, Request, Response

from vwlog.api.dependencies import (
    AccessDep,
    LanguageDep,
    StoreDep,
    is_finished,
    match_access,
    principal,
)
from vwlog.api.errors import ERROR_RESPONSES
from vwlog.api.routers.matches import full_record
from vwlog.api.schemas import ValidationOut, VerifyOut
from vwlog.audit.diff import diff_matches
from vwlog.audit.gamediff import diff_game
from vwlog.audit.sources import MatchSource
from vwlog.engine.replay import ValidationReport
from vwlog.games import require_audits, rules_for
from vwlog.io import codec
from vwlog.io.i18n import using_language
from vwlog.model.games import DEFAULT_GAME
from vwlog.model.text import msg
from vwlog.render.json import diff_json, match_summary_json, validation_json, verify_json
from vwlog.services.forks import lineage
from vwlog.services.hashes import shown_head_hash
from vwlog.services.judging import judge_stored
from vwlog.store import MatchStore
from vwlog.store.catalog import MATCH_ID_MAX

router = APIRouter(prefix="/matches", tags=["matches"], responses=ERROR_RESPONSES)


def _judged(request: Request, store: MatchStore, match_id: str) -> tuple[Any, ValidationReport]:
    """The chain check and the judged validation (`judge_stored`: the records, not the derived
    data), kept per head."""
    judged: tuple[Any, ValidationReport] = request.app.state.reports.get(
        store, match_id, lambda _upto: judge_stored(store, match_id, derived=False)
    )
    return judged


@router.get("/{match_id}/validation", summary="The validation report of a match")
def validation(
    request: Request, access: AccessDep, store: StoreDep, lang: LanguageDep
) -> ValidationOut:
    """Every violation with its rule id, the outcome, and the record's one verdict with its
    reason (as ``vwlog validate`` gives the export's), kept per head; in the language asked
    for (``lang``, else ``Accept-Language``)."""
    full_record(access)
    _, report = _judged(request, store, access.match_id)
    with using_language(lang):
        return ValidationOut.model_validate(validation_json(report, translated=True))


@router.get("/{match_id}/integrity", summary="The hash chain and deck commitments of a match")
def integrity(request: Request, access: AccessDep, store: StoreDep, lang: LanguageDep) -> VerifyOut:
    """Recompute the stored match's hash chain and name the first broken link; with the
    record's one verdict and reason (as ``/validation``) and where its seal is. To a player's
    token on its match in progress the hashes (``head_hash``, a broken link's) are ``null``
    unless its seat could compute them (see ``/events``)."""
    chain, report = judge_stored(store, access.match_id)  # and the derived data
    with using_language(lang):
        out = VerifyOut.model_validate(verify_json(chain, report, translated=True))
    if access.viewer is None or out.head_hash is None:
        return out
    # the head the chain was checked up to (a later append may have moved the match on)
    shown = shown_head_hash(store, access.match_id, access.viewer, out.records)
    if shown is not None:
        return out
    broken = out.broken
    if broken is not None:
        broken = broken.model_copy(update={"expected": None, "found": None})
    return out.model_copy(update={"head_hash": None, "broken": broken})


@router.get(
    "/{match_id}/export",
    summary="The match as a log file (JSON Lines)",
    response_class=Response,
    responses={200: {"content": {"application/x-ndjson": {"schema": {"type": "string"}}}}},
)
def export(access: AccessDep, store: StoreDep) -> Response:
    """The header and the stored lines as they are, hashes included."""
    full_record(access)
    header = store.header(access.match_id)
    lines = [codec.header_bytes(header), *store.raw_lines(access.match_id)]
    return Response(
        b"\n".join(lines) + b"\n",
        media_type="application/x-ndjson",
        headers={"Content-Disposition": attachment(access.match_id)},
    )


def attachment(match_id: str) -> str:
    """The ``Content-Disposition`` of a match's export, safe for any stored id (ids stored
    before they were restricted may hold ``/``, quotes or line breaks): a plain file name of
    the id's safe characters, and the id itself percent-encoded (RFC 6266 ``filename*``).

    >>> print(attachment("m1"))
    attachment; filename="m1.jsonl"; filename*=UTF-8''m1.jsonl
    >>> print(attachment('a/b"\\r\\nX: 1'))
    attachment; filename="a_b___X__1.jsonl"; filename*=UTF-8''a%2Fb%22%0D%0AX%3A%201.jsonl
    """
    plain = re.sub(r"[^A-Za-z0-9_.~-]", "_", match_id)[:MATCH_ID_MAX]
    encoded = quote(f"{match_id}.jsonl", safe="")
    return f"attachment; filename=\"{plain}.jsonl\"; filename*=UTF-8''{encoded}"


@router.get("/{match_id}/lineage", summary="The tree of forks the match belongs to")
def lineage_(access: AccessDep, store: StoreDep) -> dict[str, Any]:
    """From the root of the tree: each match's summary and its forks (to a player's token on
    its match in progress, a match in progress has a ``head_hash`` only as ``/matches/{id}``
    shows it to that seat)."""

    def node(n: Any) -> dict[str, Any]:
        summary = match_summary_json(n.meta)
        if access.viewer is not None and not is_finished(n.meta):
            # a player's token: its own match as its seat is shown it, and no other's head
            summary["head_hash"] = (
                shown_head_hash(store, n.meta.match_id, access.viewer)
                if n.meta.match_id == access.match_id
                else None
            )
        return {"match": summary, "forks": [node(c) for c in n.children]}

    return node(lineage(store, access.match_id))


@router.get("/{match_id}/rulings", summary="The judges' rulings recorded in a match")
def rulings(request: Request, access: AccessDep, store: StoreDep) -> list[dict[str, Any]]:
    """Every `judge_ruling_issued` record, with its seq (kept while the match's head does not
    move)."""
    match_id = access.match_id
    ruling = rules_for(store.header(match_id).game).ruling_type

    def compute(upto: int) -> list[dict[str, Any]]:
        if ruling is None:  # a game without judges' rulings
            return []
        return [
            {"seq": r.seq, **r.event.model_dump(mode="json")}
            for r in store.records(match_id, lte=upto)
            if isinstance(r.event, ruling)
        ]

    found: list[dict[str, Any]] = request.app.state.rulings.get(store, match_id, compute)
    return [dict(r) for r in found]


@router.get("/{match_id}/stats", summary="The statistics of one match")
def match_stats(access: AccessDep, store: StoreDep) -> dict[str, Any]:
    """The match's metrics per player and per turn (from the read model, or replayed)."""
    from vwlog.services.stats import match_metrics

    full_record(access)
    metrics, _ = match_metrics(store, access.meta)
    if metrics is None:
        raise HTTPException(
            404,
            msg("match {match_id} has no measurable statistics", match_id=repr(access.match_id)),
        )
    return metrics.model_dump(mode="json")


# -- diff ------------------------------------------------------------------------------------

diff_router = APIRouter(tags=["matches"], responses=ERROR_RESPONSES)


def _source(store: MatchStore, match_id: str) -> MatchSource:
    header = store.header(match_id)

    def items() -> Iterator[Any]:
        return iter(store.records(match_id))

    return MatchSource(name=f"store:{match_id}", header=header, open=items)


@diff_router.get("/diff", summary="The first divergence of two records of the same match")
def diff(
    request: Request,
    store: StoreDep,
    lang: LanguageDep,
    a: Annotated[str, Query(min_length=1, max_length=200)],
    b: Annotated[str, Query(min_length=1, max_length=200)],
) -> dict[str, Any]:
    """Where two stored matches part, explained as a difference of the board; its sentences
    in the language asked for (``lang``, else ``Accept-Language``)."""
    who = principal(request, request.headers.get("authorization"))
    games = []
    for match_id in (a, b):
        full_record(match_access(match_id, store, who))
        games.append(require_audits(rules_for(store.header(match_id).game), "diff"))
    if games[0].id != games[1].id:
        raise HTTPException(
            400,
            msg(
                "{name} and {name2} are records of different games ({game}, {game2})",
                name=a,
                name2=b,
                game=games[0].id,
                game2=games[1].id,
            ),
        )
    if games[0].id == DEFAULT_GAME:
        report = diff_matches(_source(store, a), _source(store, b))
    else:  # a game whose rules serve report and diff (`GameRules.audits`)
        report = diff_game(_source(store, a), _source(store, b), games[0])
    with using_language(lang):
        return diff_json(report, translated=True)


__all__ = ["attachment", "diff_router", "router"]
