"""The seam between the core and a game: what the replay loop, the reader, the store and the
commands ask of a game's rules (`GameRules`), and the registry that finds a match's game.

A game is registered by id in `vwlog.model.games` with the module that holds its rules; that
module's ``GAME`` is its `GameRules`, loaded the first time a match of the game is read
(`rules_for`). The core imports no game: it asks this registry, by the header's ``game`` field
(absent: Vandaria Wars), by an event's class or by a board's class.

The required part is what `vwlog.engine.loop.replay` calls for every event (``expect``,
``judge``, ``fold``) and what the reader needs (``record``, the game's event union inside the
record envelope); the optional capabilities (``decisions``, ``views``, ``snapshots``, ``stats``)
are ``None`` for a game without them, and a command that needs one says so in one line
(`unavailable`).

Rule ids of the log itself (``CORE-*``, `CORE_RULES`) are cited through the game
(`GameRules.rule`), which maps each to its own catalog: a Vandaria Wars verdict cites ``R-SET-1``
where a game without a map cites ``CORE-LOG-1``.

This module imports only the core's model; every game package imports it, and it imports no
game.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, Final, NamedTuple, Protocol, cast

from vwlog.model.errors import UsageError
from vwlog.model.expect import Expect
from vwlog.model.games import DEFAULT_GAME, GAMES, Game, register_game
from vwlog.model.text import Msg, msg
from vwlog.model.violation import Violation

if TYPE_CHECKING:
    from vwlog.games.seats import Seats
    from vwlog.model.ruleids import RuleId

__all__ = [
    "CORE_RULES",
    "Figure",
    "GameRules",
    "GameUnavailableError",
    "MatchSummary",
    "RuleEntry",
    "SnapshotFormatError",
    "Stats",
    "Views",
    "board_data",
    "cite",
    "core_violation",
    "event_text",
    "game_of_event",
    "game_of_state",
    "known",
    "register",
    "require_audits",
    "rule_title",
    "rules_for",
    "unavailable",
]

CORE_RULES: Final = MappingProxyType(
    {
        "CORE-LOG-1": "A match begins with the event that starts it.",
        "CORE-LOG-2": (
            "Nothing but reveals, rulings, the seal and signatures follows the end of a match."
        ),
        "CORE-FORK-1": "A fork leaves its parent only at a fork point.",
        "CORE-FORK-2": "A judge's back-up returns to a recent fork point of the match.",
        "CORE-ID-1": "A record names only players the match has.",
        "CORE-ID-2": "A record names only cards (pieces) the match has.",
    }
)
"""The rules of the log itself, which every game shares; each game cites them by its own ids
(`GameRules.rules`)."""


class MatchSummary(NamedTuple):
    """How a match stands, in terms every game has: what a listing, the store and a verdict
    say of it."""

    started: bool
    players: tuple[str, ...]
    turn: int
    winner: str | None
    victory: str | None
    ruleset: str | None
    """The ruleset's label (``id@version``), once the match has started."""


class RuleEntry(NamedTuple):
    """One rule of a game's catalog, as ``vwlog rules --game`` shows it."""

    id: str
    title: str
    status: str
    """``enforced``, ``partial``, ``pending`` or ``descriptive``."""
    original: tuple[str, ...] = ()
    """The seed's own sentences, verbatim, in the seed's language."""
    section: str = ""
    """Where in the seed (``501.2b``)."""
    note: str = ""
    """What a partial rule rests on, or why a rule is pending."""


class GameUnavailableError(UsageError):
    """A command asked a game for a capability it does not have, or for a game whose rules
    cannot be loaded: a usage error (one line, exit 2), said in the active language."""


class SnapshotFormatError(ValueError):
    """Snapshot data that is not a valid encoding of a game's board (a game's snapshots raise
    it; the store then rebuilds the board from the records)."""


class Views(Protocol):
    """A game's views (optional, `GameRules.views`): the sentence for an event and the board
    as a viewer may know it. Without them a command says an event by its type and fields
    (`event_text`) and shows a board as its fields (`board_data`)."""

    def description(self, event: Any, before: Any, *, viewer: str | None = None) -> Msg:
        """What ``event`` did to the board ``before``, as ``viewer`` may know it (everything
        for ``None``)."""
        ...

    def board_lines(self, state: Any) -> Iterable[Msg | str]:
        """The board as lines of text, for a terminal (``show``, ``replay --board``)."""
        ...

    def board(self, state: Any, *, player: str | None = None, seq: int | None = None) -> Any:
        """The board as JSON-ready data, as ``player`` may know it (everything for ``None``).

        Raises:
            vwlog.model.errors.UnknownPlayerError: ``player`` does not sit at the match.
        """
        ...


class Figure(NamedTuple):
    """One figure of a game's statistics (`Stats`)."""

    key: str
    """Its key in a match's figures and in the JSON."""
    label: str
    """What it counts, in English (a message of the catalogs: said in the active language)."""
    kind: str = "count"
    """``count``: a number, summed over the matches (with its mean per match and its most);
    ``most``: a number, the largest over the matches; ``word``: a value (a player), counted by
    how many matches have it; ``ratio``: one count over another (`of`), per match and over the
    matches' totals."""
    of: tuple[str, ...] = ()
    """For a ratio: the keys of the two counts it divides."""


class Stats(Protocol):
    """A game's own statistics (optional, `GameRules.stats`, for a game other than Vandaria
    Wars, whose statistics are `vwlog.projections.stats`): what ``vwlog stats`` measures of
    each match and sums over the matches."""

    FIGURES: tuple[Figure, ...]
    """The figures of a match, in the order they are shown."""

    def measure(self) -> Any:
        """A fresh measure of one match: ``visit(event, before, after)`` for every event the
        replay folds, then ``result()``: the match's figures by `Figure.key` (``None``: a word
        the match has none of; a ratio is computed from its two counts, not measured)."""
        ...


def event_text(event: Any) -> str:
    """An event said by its type and fields, for a game without views:
    ``counters_taken player='ana' count=3``."""
    fields = event.model_dump(mode="json", exclude_none=True)
    kind = fields.pop("type", type(event).__name__)
    said = " ".join(f"{name}={value!r}" for name, value in fields.items())
    return f"{kind} {said}".strip()


def board_data(state: Any) -> Any:
    """A board as JSON-ready data, for a game without views: its fields, as they are."""
    import dataclasses

    if dataclasses.is_dataclass(state) and not isinstance(state, type):
        return _plain(dataclasses.asdict(state))
    dump = getattr(state, "model_dump", None)
    return dump(mode="json") if dump is not None else repr(state)


def _plain(value: Any) -> Any:
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple | frozenset | set):
        return [_plain(v) for v in value]
    dump = getattr(value, "model_dump", None)
    if dump is not None:
        return dump(mode="json")
    return value if value is None or isinstance(value, str | int | float | bool) else str(value)


def _no_catch_up(_ruleset: Any, state: Any, _event: Any) -> Any:
    return state


def cite(rule_id: str, template: str, /, **params: object) -> Violation:
    """A violation citing ``rule_id`` and saying ``template`` filled from ``params`` (a game
    with a catalog of its own words it its own way, `GameRules.violation`)."""
    text: Msg = msg(template, **params)
    return Violation(rule=cast("RuleId", rule_id), message=str(text), text=text)


@dataclass(frozen=True, slots=True, kw_only=True, eq=False)
class GameRules:
    """One game's rules, as the core calls them.

    ``S`` below is the game's board (immutable), ``E`` its events, ``R`` its ruleset.
    """

    id: str
    """The header's ``game``."""
    name: str
    """The game's name, as people write it."""
    record: Any
    """A pydantic ``TypeAdapter`` of the record envelope around this game's event union (the
    core's records included): it validates one line's JSON bytes (``validate_json``)."""
    event_types: Mapping[str, type]
    """The game's event classes (and the core's it uses) by ``type`` tag."""
    decision_types: frozenset[type]
    """The classes of events a player decides (the rest the rules demand)."""
    trailer_types: frozenset[type]
    """Records that close a log (the seal and its signatures): no rules and no board see them."""
    start_type: type
    """The event a match begins with."""
    ruling_type: type | None = None
    """A judge's ruling, which may back the match up (``None``: the game has none)."""
    fork_kinds: frozenset[str]
    """The decision kinds (`Expect.kind`) where a match may be forked or backed up to."""
    fork_words: Msg | str = "at a fork point"
    """Where a fork may start, in the game's words (VW: ``where a player holds priority``):
    the core's verdict on a fork elsewhere says ``a fork may start only <fork_words>``."""
    rules: Mapping[str, str] = field(default_factory=dict)
    """`CORE_RULES` id -> the id this game cites for it (an id not mapped is cited as is)."""
    initial: Any
    """The board before anything happened."""
    default_ruleset: Any
    """The ruleset a match is judged under when it names none."""
    started: Callable[[Any], bool] = field(default=lambda s: s.started)
    """``started(S)``: whether the match has begun (by default the board's ``started``)."""
    ruleset_of: Callable[[Any], Any] = field(default=lambda s: s.ruleset)
    """``ruleset_of(S)``: the ruleset the board was folded under, ``None`` before the start
    (by default the board's ``ruleset``)."""
    start_ruleset: Callable[[Any], Any] = field(default=lambda e: e.ruleset)
    """``start_ruleset(start event)``: the ruleset the match names (by default its
    ``ruleset``)."""
    start_cards: Callable[[Any], Any] | None = None
    """``start_cards(start event)``: the card definitions the start event carries, which a
    report's provenance names (``None``: the game's start carries none)."""
    with_ruleset: Callable[[Any, Any], Any] = field(
        default=lambda e, rs: e.model_copy(update={"ruleset": rs})
    )
    """``with_ruleset(start event, R)``: the start event judged under another ruleset (by
    default a copy with ``ruleset`` replaced)."""
    expect: Callable[[Any, Any], Expect]
    """``expect(R, S)``: the consequences owed now, or whose decision of which kind."""
    judge: Callable[[Any, Any, Expect, Any], tuple[Violation, ...]]
    """``judge(R, S, expected, E)``: the rules ``E`` breaks, most specific first, each naming
    the flag its verdict rests on; never raises."""
    fold: Callable[[Any, Any, tuple[Violation, ...]], tuple[Any, tuple[Violation, ...]]]
    """``fold(S, E, found)``: the board after ``E`` and ``found`` with what folding it showed
    (an unknown card, say); never raises."""
    locate: Callable[[Violation, Any], Violation]
    """``locate(v, S)``: ``v`` with where in the match it happened (turn, phase, …)."""
    summary: Callable[[Any], MatchSummary]
    """``summary(S)``: how the match stands."""
    owed: Callable[[Any], tuple[str, ...]]
    """``owed(S)``: the type tags of the consequences still owed at the end of a record."""
    catch_up: Callable[[Any, Any, Any], Any] = _no_catch_up
    """``catch_up(R, S, E)``: the board after the consequences a record left out before ``E``,
    where applying them makes ``E`` fit (a game whose rules demand no consequences keeps
    ``S``)."""
    back_to: Callable[[Any], int | None] | None = None
    """``back_to(ruling)``: the seq a back-up ruling returns to, ``-1`` for a ruling that is no
    back-up (``None`` for a back-up naming no seq)."""
    audits: bool = False
    """Whether ``vwlog report`` and ``vwlog diff`` serve this game: they show its boards side
    by side and what each player knew, which only Vandaria Wars' boards say so far."""
    publishes: bool = False
    """Whether a match names published card pools and rulesets, which the integrity pass
    compares with what the record carries (Vandaria Wars' do)."""
    closing: Callable[[Any, Any], tuple[Any, list[Any]]] | None = None
    """``closing(start event, S)``: what the record owes once the match is over, before its
    seal (Vandaria Wars: the openings of the deck commitments of a secret shuffle), as the board
    after it and the events, played in play mode by the append that ends the match (``None``:
    nothing)."""
    complete: Callable[[Any], bool] | None = None
    """``complete(S)``: whether the record is a whole match (``None``: once it has a winner; a
    game whose record is one phase, as an L5R battle record, says so here)."""
    note: Callable[[Any, Any], None] | None = None
    """``note(report, step)``: what a validation report keeps of a step beyond its counts (for
    the classes in ``noted_types``)."""
    noted_types: frozenset[type] = frozenset()
    """The event classes ``note`` looks into."""
    decisions: Any = None
    """Optional: legal decisions and a notation (``next``, ``play``, ``simulate``)."""
    views: Callable[[], Views] | None = None
    """Optional, loaded when asked for: sentences for each event and boards for each viewer
    (``replay``, ``show``, the viewer); ``None``: `event_text` and `board_data` stand in."""
    snapshots: Any = None
    """Optional: stored boards (``dump``/``load``); without it a store replays from the start."""
    seats: Callable[[], Seats] | None = None
    """Optional, loaded when asked for: how a player's token is held to its seat where the
    boards hide cards from some seats (`vwlog.games.seats.Seats`); ``None``: every decision
    must name the token's seat, and the views say what a seat may read of a record."""
    stats: Any = None
    """Optional: per-match statistics (Vandaria Wars': its metrics visitor, loaded when asked
    for; another game's: a loader of its `Stats`)."""
    catalog: Mapping[str, str] = field(default_factory=dict)
    """Rule id -> title, for the rules this game cites beyond the ones `rule_titles` finds in
    a catalog of its own (a game without one lists its rules here)."""
    entries: Mapping[str, RuleEntry] = field(default_factory=dict)
    """The catalog in full, by rule id (``vwlog rules --game``): status, the seed's original
    sentences and section; empty for a game whose catalog lives elsewhere (VW's is
    `vwlog.rules.catalog`)."""
    violation: Callable[..., Violation] = cite
    """``violation(rule id, template, **params)``: a violation as this game words it."""
    extras: Mapping[str, Any] = field(default_factory=dict)
    """Whatever else the game's own commands need."""

    def rule(self, core_id: str) -> RuleId:
        """The id this game cites for the log rule ``core_id``."""
        return cast("RuleId", self.rules.get(core_id, core_id))

    def is_fork_point(self, expected: Expect) -> bool:
        """Whether a match may be forked or backed up to where ``expected`` is awaited."""
        return expected.kind is not None and expected.kind in self.fork_kinds


def core_violation(game: GameRules, core_id: str, template: str, /, **params: object) -> Violation:
    """A violation of the log rule ``core_id``, cited by ``game``'s own id."""
    return game.violation(game.rule(core_id), template, **params)


def unavailable(game: GameRules, what: str) -> GameUnavailableError:
    """The error a command raises for a capability ``game`` lacks: ``next is not available for
    game X``."""
    return GameUnavailableError(
        msg("{what} is not available for game {game}", what=what, game=game.id)
    )


_LOADED: dict[str, GameRules] = {}
_BY_EVENT: dict[type, GameRules] = {}
_BY_STATE: dict[type, GameRules] = {}


def register(rules: GameRules, module: str = "") -> GameRules:
    """Register ``rules`` (a game outside vwlog's own, a test's say) under its id.

    Raises:
        ValueError: another game holds the id.
    """
    register_game(Game(rules.id, rules.name, module or _module_of(rules)))
    _remember(rules)
    return rules


def known(rules: GameRules) -> GameRules:
    """``rules``, remembered so that its boards and events lead back to it (`game_of_state`),
    as a game given to `vwlog.engine.loop.replay` outright must be."""
    if _LOADED.get(rules.id) is not rules:
        _remember(rules)
    return rules


def _module_of(rules: GameRules) -> str:
    held = GAMES.get(rules.id)
    return held.module if held is not None else ""


def _remember(rules: GameRules) -> None:
    _LOADED[rules.id] = rules
    for cls in rules.event_types.values():
        if cls not in rules.trailer_types:
            _BY_EVENT.setdefault(cls, rules)
    _BY_STATE[type(rules.initial)] = rules


def rules_for(game: str | None = None) -> GameRules:
    """The rules of ``game`` (absent: `DEFAULT_GAME`), loaded on first use.

    Raises:
        GameUnavailableError: no such game is registered, or its module cannot be imported or
            holds no ``GAME``.
    """
    gid = game or DEFAULT_GAME
    found = _LOADED.get(gid)
    if found is not None:
        return found
    entry = GAMES.get(gid)
    if entry is None:
        raise GameUnavailableError(
            msg(
                "{game} is not a game this vwlog judges (it judges: {known})",
                game=repr(gid),
                known=", ".join(sorted(GAMES)),
            )
        )
    try:
        module = importlib.import_module(entry.module)
        rules: GameRules = module.GAME
    except (ImportError, AttributeError) as err:
        why = msg("the rules of game {game} cannot be loaded: {why}", game=gid, why=str(err))
        raise GameUnavailableError(why) from err
    _remember(rules)
    return rules


def game_of_event(event: object) -> GameRules | None:
    """The game whose event ``event`` is (``None`` for the core's records, shared by all)."""
    return _BY_EVENT.get(type(event))


def game_of_state(state: object) -> GameRules:
    """The game whose board ``state`` is (the default game's when it is no loaded game's)."""
    found = _BY_STATE.get(type(state))
    return found if found is not None else rules_for()


def loaded() -> Iterator[GameRules]:
    """The games loaded so far."""
    return iter(tuple(_LOADED.values()))


def rule_title(rule_id: str) -> str | None:
    """The title a loaded game's catalog, or the core's, gives ``rule_id`` (``None``: no
    loaded game knows it)."""
    for game in tuple(_LOADED.values()):
        title = game.catalog.get(rule_id)
        if title is not None:
            return title
    return CORE_RULES.get(rule_id)


def require_audits(game: GameRules, what: str) -> GameRules:
    """``game``, if ``report`` and ``diff`` serve it (`GameRules.audits`).

    Raises:
        GameUnavailableError: ``{what} is not available for game X``.
    """
    if not game.audits:
        raise unavailable(game, what)
    return game
