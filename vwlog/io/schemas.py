"""JSON Schemas of the log format, generated from the models (``vwlog schema export``).

The schemas describe what a current-version log line may hold: the header, the record envelope
with the whole event union, each event on its own, the event union alone, and the card pool and
ruleset models; for each other game vwlog ships (`OTHER_GAMES`), its record envelope and each
of its events under ``<game>/``. Field docstrings become descriptions. Output is deterministic
(sorted keys, 2-space indent, a trailing newline), so the committed ``schemas/`` directory can
be compared with a fresh export (``--check``) in CI.

This module only builds and writes schemas; the models it reads live in `vwlog.events`,
`vwlog.model.cards` and `vwlog.games.vw.describe`, except the fields ``vwlog show --player`` adds to
a board view (`ShownBoardView`), which are declared here.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

import orjson
from pydantic import BaseModel, ConfigDict
from pydantic.json_schema import GenerateJsonSchema

from vwlog.events import EVENT_TYPES, FORMAT_VERSION, GAME_EVENT, EventRecord, LogHeader
from vwlog.games import rules_for
from vwlog.games.vw.describe import BoardView
from vwlog.model.cards import CardPool, Ruleset
from vwlog.model.errors import OutputError

if TYPE_CHECKING:
    from pydantic_core import CoreSchema

DIALECT = "https://json-schema.org/draft/2020-12/schema"
"""The JSON Schema dialect of every generated schema (``$schema``)."""
SUFFIX = ".schema.json"
"""File name ending of every generated schema; other files in the directory are left alone."""


class KnownSpotView(BaseModel):
    """Where a known hidden card is now."""

    model_config = ConfigDict(frozen=True, extra="forbid", use_attribute_docstrings=True)

    zone: Literal["HAND", "FATE_DECK", "SUBDECK"]
    """The hidden zone it is in."""
    player: str | None
    """Whose hand or deck it is in."""
    territory: str | None
    """Always ``null`` for a hidden card (the Territory a guard guards)."""
    damage: int
    """Always 0 for a hidden card (damage marked in play)."""
    slid: bool
    """Always ``false`` for a hidden card (slid in play)."""


class KnownCardView(BaseModel):
    """A hidden card the viewer has seen (`vwlog.audit.knowledge.SeenCard`): who owns it, when
    and how they saw it, and where it is now."""

    model_config = ConfigDict(frozen=True, extra="forbid", use_attribute_docstrings=True)

    id: str
    """Instance id."""
    name: str
    """Printed name."""
    owner: str
    """Its owner."""
    seen_at: int
    """The event after which the viewer first saw it."""
    how: str
    """How they saw it: ``in their hand``, ``on the register``, ``in play``, ``in a Graveyard``
    or ``deck revealed``."""
    now: KnownSpotView
    """Where it is now."""
    where: str
    """Where it is now, as a phrase (``in p1's hand``)."""
    public: bool
    """Whether every player has seen it (it passed through a public zone)."""


class ShownBoardView(BoardView):
    """The board at one position of a match, as `state_json` writes it (view version 1).

    Fields are added, never renamed or retyped, within a view version. With a ``viewer`` the
    other players' hands are ``null`` (their sizes stay); decks are always counts only, and
    ``vwlog show --player`` adds ``known``: the hidden cards the viewer has seen.
    """

    model_config = ConfigDict(title="BoardView")

    known: list[KnownCardView] | None = None
    """The hidden cards the viewer has seen, in the order they first saw them: cards now in
    another player's hand or in any Fate Deck or subdeck (``vwlog show --player``); absent or
    ``null`` without a viewer."""


class _Generator(GenerateJsonSchema):
    """pydantic's generator without a title on every field (the field name says it already)."""

    def field_title_should_be_set(self, schema: CoreSchema) -> bool:
        return False


def _finish(schema: dict[str, Any], *, title: str | None = None, description: str = "") -> Any:
    """Add ``$schema`` and, where given, a title and description; require every tag."""
    out: dict[str, Any] = {"$schema": DIALECT, **schema}
    if title:
        out["title"] = title
    if description:
        out["description"] = description
    _require_constants(out)
    return out


def _require_constants(node: Any) -> None:
    """Mark every property that has a ``const`` (the ``type`` tags, ``format``) as required.

    The models give tags a default so that Python code need not repeat them, but a log line
    must carry them: the reader needs them to tell events apart.
    """
    if isinstance(node, dict):
        properties = node.get("properties")
        if isinstance(properties, dict):
            constants = [name for name, prop in properties.items() if "const" in prop]
            required = node.setdefault("required", [])
            for name in reversed(constants):
                if name not in required:
                    required.insert(0, name)
        for value in node.values():
            _require_constants(value)
    elif isinstance(node, list):
        for value in node:
            _require_constants(value)


def _model(model: type[BaseModel]) -> Any:
    return _finish(model.model_json_schema(schema_generator=_Generator))


def _header() -> Any:
    schema = _model(LogHeader)
    schema["properties"]["version"]["const"] = FORMAT_VERSION
    _require_constants(schema)
    return schema


def build_schemas() -> dict[str, Any]:
    """Every schema, by its path relative to the schema directory (``events/<type>...``)."""
    schemas: dict[str, Any] = {
        f"log-header{SUFFIX}": _header(),
        f"event-record{SUFFIX}": _model(EventRecord),
        f"game-event{SUFFIX}": _finish(
            GAME_EVENT.json_schema(schema_generator=_Generator),
            title="GameEvent",
            description="Any game event, told apart by its type tag.",
        ),
        f"card-pool{SUFFIX}": _model(CardPool),
        f"ruleset{SUFFIX}": _model(Ruleset),
        f"board-view{SUFFIX}": _model(ShownBoardView),
    }
    for tag, cls in sorted(EVENT_TYPES.items()):
        schemas[f"events/{tag}{SUFFIX}"] = _model(cls)
    for gid in OTHER_GAMES:
        schemas.update(_game_schemas(gid))
    return schemas


OTHER_GAMES: tuple[str, ...] = ("l5r", "minis", "wowtcg")
"""The games vwlog ships besides Vandaria Wars, whose records have schemas of their own under
``<game>/`` (a game a user registers is not exported)."""


def _game_schemas(gid: str) -> dict[str, Any]:
    """``gid``'s record envelope with its event union (``<game>/event-record``) and each of
    its events on its own (``<game>/events/<type>``), the core's records among them."""
    game = rules_for(gid)
    out: dict[str, Any] = {
        f"{gid}/event-record{SUFFIX}": _finish(
            game.record.json_schema(schema_generator=_Generator),
            title=f"{game.name}: a record",
            description=(
                f"A line of a {game.name} log after its header (the header says "
                f'"game": "{gid}"): its seq, its event (one of the game\'s, told apart by its '
                "type tag, or one of the core's records) and its chain hash."
            ),
        )
    }
    for tag, cls in sorted(game.event_types.items()):
        out[f"{gid}/events/{tag}{SUFFIX}"] = _model(cls)
    return out


def render(schema: Any) -> bytes:
    """The bytes of one schema file: sorted keys, 2-space indent, a trailing newline."""
    return orjson.dumps(schema, option=orjson.OPT_INDENT_2 | orjson.OPT_SORT_KEYS) + b"\n"


def _rendered() -> dict[str, bytes]:
    return {path: render(schema) for path, schema in build_schemas().items()}


def _existing(out_dir: Path) -> set[str]:
    if not out_dir.is_dir():
        return set()
    return {path.relative_to(out_dir).as_posix() for path in out_dir.rglob(f"*{SUFFIX}")}


def _os_detail(err: OSError) -> str:
    return (err.strerror or str(err)).lower()


def _read(path: Path) -> bytes | None:
    try:
        return path.read_bytes()
    except OSError:
        return None


def export_schemas(out_dir: str | Path) -> list[Path]:
    """Bring ``out_dir`` up to date: write every schema that is missing or different, and remove
    schema files that are no longer made.

    Returns:
        The paths written or removed, sorted; exactly the files `stale_schemas` listed before.
        Empty when the directory was current.

    Raises:
        OutputError: A file or directory cannot be written or removed.
    """
    out = Path(out_dir)
    expected = _rendered()
    changed: list[Path] = []
    for relative, content in sorted(expected.items()):
        target = out / relative
        if _read(target) == content:
            continue
        try:
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(content)
        except OSError as err:
            raise OutputError(str(target), _os_detail(err)) from err
        changed.append(target)
    for relative in sorted(_existing(out) - expected.keys()):
        target = out / relative
        try:
            target.unlink()
        except OSError as err:
            raise OutputError(str(target), _os_detail(err)) from err
        changed.append(target)
    return sorted(changed)


def stale_schemas(out_dir: str | Path) -> list[str]:
    """The schema files under ``out_dir`` that an export would write or remove.

    Returns:
        Paths relative to ``out_dir``, sorted: missing or different files, and schema files that
        are no longer made. Empty when the directory is current.
    """
    out = Path(out_dir)
    expected = _rendered()
    stale = {relative for relative, content in expected.items() if _read(out / relative) != content}
    stale |= _existing(out) - expected.keys()
    return sorted(stale)


__all__ = [
    "DIALECT",
    "OTHER_GAMES",
    "SUFFIX",
    "KnownCardView",
    "KnownSpotView",
    "ShownBoardView",
    "build_schemas",
    "export_schemas",
    "render",
    "stale_schemas",
]
