"""Options and arguments shared by vwlog commands, each defined once.

Commands stack these decorators instead of repeating ``click.option`` calls, so a flag means the
same thing, with the same help, everywhere (pip-tools' ``scripts/options.py``).
"""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from vwlog.io.i18n import say
from vwlog.model.errors import UsageError
from vwlog.model.text import closest, did_you_mean, msg

if TYPE_CHECKING:
    from collections.abc import Iterable

    from vwlog.audit.sources import MatchSource
    from vwlog.events.base import LogHeader
    from vwlog.games import GameRules
    from vwlog.services.rulesets import RulesetFile
    from vwlog.store import MatchStore

Decorator = Callable[[Callable[..., Any]], Callable[..., Any]]
"""What a click option decorator is."""

store = click.option(
    "--store",
    envvar="VWLOG_STORE",
    default=None,
    show_envvar=True,
    metavar="URL",
    help=(
        "Match store: a SQLite file (PATH or sqlite:///PATH), postgresql://USER@HOST/DB, or "
        "memory: (kept for this command only). Default: vwlog/vwlog.db in the per-user data "
        "folder ($XDG_DATA_HOME, else ~/.local/share); 'vwlog info' shows the store used."
    ),
)
"""``--store``: where matches are stored (unset: `vwlog.store.location`'s per-user default);
kept in the context object for every command."""


class _Formats(click.Choice[str]):
    """The choices of ``--format``, and old names still read for them (not listed in help),
    each with a warning naming the new one."""

    def __init__(self, choices: Sequence[str], aliases: Mapping[str, str]) -> None:
        super().__init__(list(choices))
        self.aliases = dict(aliases)

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        """The choice ``value`` names; an old name is read as its new one, with a warning."""
        if isinstance(value, str) and value in self.aliases:
            new = self.aliases[value]
            click.echo(
                f"Warning: --format {value} is deprecated; it is --format {new} now", err=True
            )
            value = new
        return super().convert(value, param, ctx)


def output_format(
    choices: Sequence[str],
    help_text: str,
    default: str = "text",
    aliases: Mapping[str, str] | None = None,
) -> Decorator:
    """``--format``: one of ``choices`` (default ``text``), stored as ``output_format``;
    ``aliases`` maps old names, still read with a warning, to choices."""
    return click.option(
        "--format",
        "output_format",
        type=_Formats(choices, aliases or {}),
        default=default,
        show_default=True,
        help=help_text,
    )


def number(
    *decls: str,
    low: int,
    high: int | None = None,
    default: int | None = None,
    help: str,
    **kwargs: Any,
) -> Decorator:
    """An integer option from ``low`` to ``high`` (``None``: no bound), its default shown by
    ``--help`` where it has one. ``help`` is a literal (the catalogs extract it)."""
    return click.option(
        *decls,
        type=click.IntRange(low, high),
        default=default,
        show_default=default is not None,
        help=help,
        **kwargs,
    )


MAX_JOBS = 64
"""The most processes ``--jobs`` asks for."""


def jobs(help: str) -> Decorator:
    """``--jobs`` / ``-j N``: how many processes share a command's logs or matches (1 to
    `MAX_JOBS`, default 1; `vwlog.services.sharing.ordered_map` shares them), stored as
    ``jobs``. ``help`` says what the command's processes do (a literal: the catalogs extract
    it)."""
    return number("--jobs", "-j", low=1, high=MAX_JOBS, default=1, help=help)


log_paths = click.argument(
    "logs",
    nargs=-1,
    required=True,
    type=click.Path(exists=True, allow_dash=True, path_type=Path),
)
"""``LOG...``: one or more log files (a directory: the ``*.jsonl`` files in it); ``-`` reads
standard input."""


def expand_logs(logs: Sequence[Path]) -> list[str]:
    """Files as given; a directory stands for the ``*.jsonl`` files directly in it."""
    from vwlog.io.files import STDIO  # not at start-up: io loads the event models

    out: list[str] = []
    for path in logs:
        if str(path) != STDIO and path.is_dir():
            found = sorted(str(p) for p in path.glob("*.jsonl"))
            if not found:
                raise UsageError(msg("{path}: directory holds no *.jsonl logs", path=path))
            out.extend(found)
        else:
            out.append(str(path))
    return out


# -- the store -------------------------------------------------------------------------------


@contextmanager
def open_store(url: str) -> Iterator[MatchStore]:
    """The store named by ``--store`` / ``VWLOG_STORE``, closed afterwards (created if it
    does not exist: for the commands that write).

    Raises:
        StoreConfigError: the URL is malformed or needs an extra that is not installed.
        StoreError: the database cannot be opened.
    """
    from vwlog.store import MatchStore

    store = MatchStore.open(url)
    try:
        yield store
    finally:
        store.close()


def store_exists(url: str) -> bool:
    """Whether opening the store would find one rather than create it: an SQLite store whose
    file is missing holds nothing (``memory:`` and server databases always exist).

    Raises:
        StoreConfigError: the URL is malformed.
    """
    from vwlog.store import settings_from_url

    backend = settings_from_url(url)
    if backend.get("PERSISTENCE_MODULE") != "eventsourcing.sqlite":
        return True
    return os.path.exists(str(backend.get("SQLITE_DBNAME", "")))


def reading_store(ctx: click.Context, url: str) -> MatchStore | None:
    """The store for a command that only reads, opened once and kept open until the command
    ends (every match the command names is read through it, so a PostgreSQL store holds one
    connection pool however many matches it reads); ``None`` when it does not exist (it is not
    created)."""
    if not store_exists(url):
        return None
    root = ctx.find_root()
    opened: dict[str, MatchStore] = root.meta.setdefault("vwlog.stores", {})
    store = opened.get(url)
    if store is None:
        store = opened[url] = root.with_resource(open_store(url))
    return store


# -- a log file or a stored match ------------------------------------------------------------


class NotFoundError(UsageError):
    """Neither a log file nor a stored match has this name."""


def log_file(arg: str) -> str | None:
    """The log file a ``LOG`` or ``MATCH_OR_LOG`` argument names (``-``: standard input), or
    ``None`` when no such path exists (a stored match id, for ``MATCH_OR_LOG``).

    Raises:
        UsageError: the path is a directory.
    """
    from vwlog.io.files import STDIO

    if arg == STDIO:
        return arg
    path = Path(arg)
    if path.is_dir():
        raise UsageError(msg("{arg}: is a directory, not a log file", arg=arg))
    if path.exists() or path.is_symlink():
        return arg
    return None


def once_readable(ctx: click.Context, path: str) -> str:
    """A path the command may open more than once: standard input, a FIFO or any other
    non-regular file is read once, into a temporary file removed when the command ends."""
    from vwlog.io.files import STDIO

    if path != STDIO and Path(path).is_file():
        return path
    copies: dict[str, str] = ctx.meta.setdefault("vwlog.copies", {})
    if path in copies:
        return copies[path]  # read once: the same copy for every use
    import tempfile

    from vwlog.io.files import spool
    from vwlog.io.logfile import DEFAULT_MAX_LINE_BYTES

    folder = ctx.with_resource(tempfile.TemporaryDirectory(prefix="vwlog-"))
    copy = Path(folder) / "log.jsonl"
    try:
        # bounded: a device is refused, a FIFO nobody writes to is not waited on forever, and
        # no more is copied than a reader would read (no line over the limit)
        with copy.open("wb") as out:
            spool(path, out, max_line_bytes=DEFAULT_MAX_LINE_BYTES)
    except OSError as err:
        raise UsageError(
            msg("{path}: cannot read: {value}", path=path, value=err.strerror or err)
        ) from err
    ctx.meta.setdefault("vwlog.spooled", {})[str(copy)] = "<stdin>" if path == STDIO else path
    copies[path] = str(copy)
    return str(copy)


def shown_name(ctx: click.Context, message: str) -> str:
    """A message with the temporary copies of `once_readable` named as the user named them."""
    for copy, name in ctx.meta.get("vwlog.spooled", {}).items():
        message = message.replace(copy, name)
    return message


@contextmanager
def named_for_user(ctx: click.Context) -> Iterator[None]:
    """Errors raised inside name the temporary copies of `once_readable` as the user named
    them (``<stdin>``, the FIFO's path)."""
    from vwlog.model.errors import VwlogError

    try:
        yield
    except VwlogError as err:
        said = say(err.text())
        message = shown_name(ctx, said)
        if message == said:
            raise
        raise UsageError(message) from err  # said already, in the active language


def no_match(arg: str, store: MatchStore | None = None) -> NotFoundError:
    """The error for a ``MATCH_OR_LOG`` that names nothing, with the stored match id it is
    most likely a typo of, if any."""
    said = msg(
        "{arg}: no such log file, and no stored match {match} (see 'vwlog list')",
        arg=arg,
        match=repr(arg),
    )
    known = [m.match_id for m in store.list_matches()] if store is not None else []
    return NotFoundError(did_you_mean(said, closest(arg, known)))


def stored_match(ctx: click.Context, url: str, arg: str) -> MatchStore:
    """The open store holding match ``arg``.

    Raises:
        NotFoundError: the store does not exist or holds no such match.
    """
    from vwlog.model.errors import MatchNotFoundError

    store = reading_store(ctx, url)
    if store is None:
        raise no_match(arg)
    try:
        store.head(arg)
    except MatchNotFoundError:
        raise no_match(arg, store) from None
    return store


@dataclass(frozen=True)
class LoadedMatch:
    """A match to replay: how to name it, its header, and its records (read once, in order)."""

    source: str
    """How messages name the match (the file name, or ``store:<id>``)."""
    header: LogHeader | None
    """The log header (a stored match keeps the one it was imported with)."""
    items: Iterable[tuple[int, Any]]
    """``(line, record)`` pairs, streamed: iterate once."""
    store: MatchStore | None = None
    """The open store, when the match is a stored one."""
    match_id: str | None = None
    """The stored match's id, when the match is a stored one."""


def load_records(ctx: click.Context, url: str, arg: str) -> LoadedMatch:
    """The match a ``MATCH_OR_LOG`` argument names, ready to stream.

    A log file (``-`` for standard input), or, when no such file exists, the id of a match in
    the store ``url``; the file or store is closed when the command ends. A store that does not
    exist yet is not created. Stored records carry their position in the chain as their line
    (seq + 1, as in an exported log).

    Raises:
        LogFormatError: the file cannot be opened, or its header is malformed (a malformed
            record is raised while the items are iterated).
        NotFoundError: neither a file nor a stored match has this name.
        UsageError: the path is a directory.
        StoreConfigError: ``--store`` is malformed.
        StoreError: the store cannot be read.
    """
    from vwlog.io.logfile import open_log

    path = log_file(arg)
    if path is None:
        store = stored_match(ctx, url, arg)
        header = store.header(arg)
        if not store.vouched(arg):
            from vwlog.io.i18n import gettext as _
            from vwlog.render.text import term

            click.echo(
                _(
                    "WARNING: {match}: its catalog entry is not as vwlog wrote it here (altered "
                    "in the database, or written elsewhere): 'vwlog verify {match}' checks it"
                ).format(match=term(arg)),
                err=True,
            )

        def stored() -> Iterator[tuple[int, Any]]:
            # nothing is read until the records are iterated (show reads from a snapshot);
            # each record is given only once its line chains (an altered row ends the output)
            from vwlog.services.matches import checked_records

            for record in checked_records(store, arg):
                yield record.seq + 1, record

        return LoadedMatch(
            source=f"store:{arg}", header=header, items=stored(), store=store, match_id=arg
        )
    reader = ctx.with_resource(open_log(path))
    return LoadedMatch(
        source=repr(reader.name),
        header=reader.header,
        items=((line.line_no, line.record) for line in reader),
    )


match_or_log = click.argument("match_or_log", metavar="MATCH_OR_LOG")
"""``MATCH_OR_LOG``: a log file (``-`` reads standard input), else a stored match id."""

log_path = click.argument("log", metavar="LOG")
"""``LOG``: one log file (``-`` reads standard input)."""


# -- judging under another reading -----------------------------------------------------------


set_option = click.option(
    "--set",
    "sets",
    multiple=True,
    metavar="FLAG=VALUE",
    help="Override one flag of the log's game's ruleset (repeatable), e.g. --set "
    "attack_target_mode=SINGLE, or --set max_hand_size=8 for a WoW TCG log.",
)
"""``--set FLAG=VALUE``: override one ruleset flag (the command receives ``sets``)."""


def ruleset_options(command: Callable[..., Any]) -> Callable[..., Any]:
    """``--ruleset FILE`` and ``--set FLAG=VALUE``: judge under another reading of the rules.
    The command receives them as ``ruleset_file`` and ``sets``; `reading` turns them into a
    `Reading`."""
    command = set_option(command)
    return click.option(
        "--ruleset",
        "ruleset_file",
        type=click.Path(exists=True, dir_okay=False, path_type=Path),
        metavar="FILE",
        help="Judge under this ruleset (JSON, of the log's game) instead of the one the match "
        "names.",
    )(command)


@dataclass(frozen=True, slots=True)
class Reading:
    """The ruleset a command judges under: a replacement and flag overrides (both optional).
    The replacement is read as the ruleset of the match's game (``file``); ``ruleset`` is the
    file read as Vandaria Wars', where it is one."""

    ruleset: Any = None
    overrides: tuple[tuple[str, Any], ...] = ()
    file: RulesetFile | None = None

    def apply(self, named: Any | None) -> Any | None:
        """The ruleset to judge under, given the one the match names (`judged_under`).

        Raises:
            UsageError: an override does not fit the ruleset, or the file is not a ruleset of
                the match's game.
        """
        from vwlog.services.rulesets import judged_under

        return judged_under(named, self.ruleset, self.file, self.overrides)

    def __bool__(self) -> bool:
        return self.ruleset is not None or self.file is not None or bool(self.overrides)

    def for_match(self, match: LoadedMatch) -> tuple[LoadedMatch, Any | None]:
        """The match (still streamed: only its first record is read ahead) and the ruleset to
        judge it under (``None``: its own).

        Raises:
            UsageError: an override does not fit the ruleset.
        """
        if not self:
            return match, None
        import itertools

        game = _game_of(match.header)
        items = iter(match.items)
        first = next(items, None)
        named = None
        if first is not None and type(first[1].event) is game.start_type:
            named = game.start_ruleset(first[1].event)
        rest = itertools.chain(() if first is None else (first,), items)
        return dataclasses.replace(match, items=rest), self.apply(named)


def _game_of(header: LogHeader | None) -> GameRules:
    from vwlog.games import rules_for

    return rules_for(header.game if header is not None else None)


def reread(source: MatchSource, chosen: Reading) -> MatchSource:
    """A match source whose start event names the chosen ruleset, so everything that judges
    it (validation, the report, the diff) judges under that reading. The hash chain is checked
    on the stored lines, not on these records.

    Raises:
        UsageError: an override does not fit the ruleset (when the records are read).
    """
    if not chosen:
        return source
    game = _game_of(source.header)

    def records() -> Iterator[Any]:
        for item in source.open():
            record = item[1] if isinstance(item, tuple) else item
            event = record.event
            if type(event) is game.start_type:
                ruleset = chosen.apply(game.start_ruleset(event))
                record = record.model_copy(update={"event": game.with_ruleset(event, ruleset)})
                item = (item[0], record) if isinstance(item, tuple) else record
            yield item

    return dataclasses.replace(source, open=records)


def reading(ruleset_file: Path | None, sets: Sequence[str]) -> Reading:
    """The `Reading` the ``--ruleset`` and ``--set`` options chose.

    Raises:
        UsageError: the file is no game's ruleset, or a pair is malformed.
    """
    from vwlog.model.errors import RulesetFileError
    from vwlog.services import parse_overrides
    from vwlog.services.rulesets import RulesetFile

    file = RulesetFile.read(ruleset_file) if ruleset_file else None
    ruleset = None
    if file is not None:
        try:
            ruleset = file.vw()
        except RulesetFileError:
            ruleset = None  # another game's: read as the match's when the match is read
    return Reading(ruleset, tuple(parse_overrides(sets).items()), file)


# -- the language ----------------------------------------------------------------------------


def _set_lang(ctx: click.Context, param: click.Parameter, value: str | None) -> None:
    from vwlog.io.i18n import pop_language, push_language

    if value is not None or ctx.parent is None:
        token = push_language(value)
        ctx.call_on_close(lambda: pop_language(token))


lang = click.option(
    "--lang",
    type=click.Choice(["id", "en"]),
    default=None,
    expose_value=False,
    is_eager=True,
    callback=_set_lang,
    envvar="VWLOG_LANG",
    show_envvar=True,
    help="Language of what vwlog says to people: id (Bahasa Indonesia) or en (default: LANG).",
)
"""``--lang id|en``: the language of messages, reports and pages (``VWLOG_LANG``, then
``LANG``); on the group and on every command."""


__all__ = [
    "Decorator",
    "LoadedMatch",
    "NotFoundError",
    "Reading",
    "expand_logs",
    "lang",
    "load_records",
    "log_file",
    "named_for_user",
    "no_match",
    "once_readable",
    "open_store",
    "output_format",
    "reading",
    "reading_store",
    "reread",
    "ruleset_options",
    "set_option",
    "shown_name",
    "store_exists",
    "stored_match",
]
