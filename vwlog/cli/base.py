"""The ``vwlog`` command group: parse arguments, call the library, render, pick the exit code.

Exit codes: 0 success; 1 findings (rule violations, a broken hash chain, diverging logs, stale
schemas); 2 usage or input errors. Every `VwlogError` becomes a one-line ``Error: …`` on stderr
with exit code 2, never a traceback; an `IllegalEventError` (a decision refused because it
breaks a rule) with exit code 1. Data goes to stdout, diagnostics to stderr. A reader that
goes away (``| head``) ends a command quietly with the status of what it did (`vwlog.cli.pipes`).

Commands stay thin: no game logic here. Shared options live in `vwlog.cli.options`; each
command family has its own module, registered on `main`.
"""

from __future__ import annotations

import importlib
import os
import signal
import threading
from collections.abc import Callable, Iterator, Mapping, MutableMapping
from contextlib import contextmanager
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import click

from vwlog.cli import options
from vwlog.cli.clicktext import speak_click_in_the_active_language
from vwlog.cli.helptexts import TranslatedHelp
from vwlog.cli.pipes import quiet_on_closed_pipe
from vwlog.cli.registry import COMMANDS, Entry
from vwlog.io.i18n import gettext as _
from vwlog.io.i18n import normalize_language, pop_language, push_language
from vwlog.model.errors import IllegalEventError, VwlogError

if TYPE_CHECKING:
    from click.shell_completion import CompletionItem
    from typing_extensions import override

    from vwlog.store.location import Source
else:

    def override(method: Any) -> Any:
        """`typing_extensions.override` (for mypy), without importing typing_extensions: it
        weighs on every start-up, and at run time it only marks the method."""
        method.__override__ = True
        return method


# Start-up stays cheap (`vwlog --help` imports no engine, model or store): the commands are
# imported when one runs (`vwlog.cli.registry`), and what only a failure or a running command
# needs (error wording, terminal escaping, the store's location) is imported where it is used.

INTERRUPTED = 130
"""Exit code after Ctrl-C (128 + SIGINT), as shells report it."""
TERMINATED = 143
"""Exit code after SIGTERM (128 + 15), as shells report it."""


class Terminated(BaseException):  # a signal, not an error
    """SIGTERM arrived: raised where the command is, so that every ``with`` block it is in
    closes (temporary files and folders are removed, a transaction is rolled back) before the
    process ends."""


_OWNER: list[int] = []
"""The process that installed the handler (a forked worker inherits it, and must not keep it)."""


def _terminate(signum: int, _frame: object) -> None:
    if _OWNER and os.getpid() != _OWNER[-1]:
        # a forked worker: end as SIGTERM ends a process, as it would have without vwlog
        signal.signal(signum, signal.SIG_DFL)
        os.kill(os.getpid(), signum)
        return
    raise Terminated


def _default_in_child() -> None:
    """In a process forked while a command runs (a worker of a pool): SIGTERM ends it at once,
    as the operating system ends a process, before any of its Python code runs (a pool that
    terminates its workers must not wait for one of them to reach a handler)."""
    if _OWNER:
        signal.signal(signal.SIGTERM, signal.SIG_DFL)


os.register_at_fork(after_in_child=_default_in_child)


@contextmanager
def _ending_cleanly_on_sigterm() -> Iterator[None]:
    """SIGTERM raises `Terminated` while a command runs (in the main thread, where no one else
    handles it), instead of ending the process at once with its temporary files left behind."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.getsignal(signal.SIGTERM)
    if previous is not signal.SIG_DFL:
        yield  # someone else handles it (a server, a test runner)
        return
    _OWNER.append(os.getpid())
    signal.signal(signal.SIGTERM, _terminate)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)
        _OWNER.pop()


class InputError(click.ClickException):
    """A `VwlogError` shown as ``Error: <message>`` on stderr, with exit code 2 (worded in the
    language of the command that failed, which has ended by the time click shows it)."""

    exit_code = 2

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.line = _("Error: {message}").format(message=message)

    @override
    def show(self, file: Any = None) -> None:
        click.echo(self.line, err=True)


class RefusedError(InputError):
    """An `IllegalEventError` shown as ``Error: <message>``: a decision refused because it
    breaks a rule, a finding like an illegal log's (exit code 1), not bad input."""

    exit_code = 1


def input_error(error: VwlogError, where: str | None = None) -> InputError:
    """The one line the command line shows for ``error``, in the active language; exit code
    1 for a decision refused because it breaks a rule (a finding, as for an illegal log), 2
    for everything else. ``where`` (a file the error is about) goes first, as ``where: …``."""
    from vwlog.cli.errors import cli_message
    from vwlog.render.text import term

    message = term(cli_message(error))
    if where is not None:
        message = f"{term(where)}: {message}"
    if isinstance(error, IllegalEventError):
        return RefusedError(message)
    return InputError(message)


speak_click_in_the_active_language()  # click's own usage errors and help words, too


class OneLineUsageError(click.UsageError):
    """A usage error shown as one line, ``Error: <message> (see 'vwlog CMD --help')``, where
    click would print the usage, a hint and the error on three (worded when it is raised, in
    the language of the command line that failed, which has ended by the time click shows
    it)."""

    def __init__(self, message: str, ctx: click.Context | None = None) -> None:
        from vwlog.render.text import term

        super().__init__(message, ctx)
        command = self.ctx.command_path if self.ctx is not None else "vwlog"
        self.line = _("Error: {message} (see '{command} --help')").format(
            message=term(self.format_message()), command=command
        )

    @override
    def show(self, file: Any = None) -> None:
        click.echo(self.line, err=True)


def _one_line(error: click.UsageError) -> click.UsageError:
    if isinstance(error, (OneLineUsageError, click.exceptions.NoArgsIsHelpError)):
        return error  # no arguments at all: the usage is the answer
    return OneLineUsageError(error.format_message(), error.ctx)


def _language_asked(args: list[str]) -> str | None:
    """The language a command line's own ``--lang`` names (before any ``--``), if any."""
    for i, arg in enumerate(args):
        if arg == "--":
            break
        if arg == "--lang" and i + 1 < len(args):
            return normalize_language(args[i + 1])
        if arg.startswith("--lang="):
            return normalize_language(arg.partition("=")[2])
    return None


def _parse_in_language_asked(
    parse: Callable[[click.Context, list[str]], list[str]], ctx: click.Context, args: list[str]
) -> list[str]:
    """``parse(ctx, args)`` in the language the arguments' ``--lang`` names, from the start:
    click words a usage error (an unknown option, a missing argument) while it parses, before
    ``--lang``'s callback has run. A usage error becomes one line, worded now. The language
    is the context's until it closes (restored after the callback's, which is set later), or
    until the parse fails."""
    asked = _language_asked(args)
    if asked is None:
        try:
            return parse(ctx, args)
        except click.UsageError as error:
            raise _one_line(error) from error
    token = push_language(asked)
    restored: list[bool] = []

    def restore() -> None:
        if not restored:
            restored.append(True)
            pop_language(token)

    ctx.call_on_close(restore)  # before the callback's own: closed after it
    try:
        return parse(ctx, args)
    except click.UsageError as error:
        one_line = _one_line(error)
        restore()
        raise one_line from error
    except BaseException:
        restore()
        raise


class VwlogCommand(TranslatedHelp, click.Command):
    """A command whose help is written in the active language and whose `VwlogError` becomes
    one ``Error: …`` line in that language (exit code 2), as does a usage error."""

    @override
    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        return _parse_in_language_asked(super().parse_args, ctx, args)

    @override
    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except VwlogError as error:
            raise input_error(error) from error


class VwlogGroup(TranslatedHelp, click.Group):
    """A group that turns every `VwlogError` into a clean message and exit code 2, and every
    usage error into one line; its help, and its commands', in the active language."""

    group_class = type
    """Subgroups made with ``@group.group()`` are `VwlogGroup`s too."""

    command_class = VwlogCommand
    """Commands made with ``@group.command()`` are `VwlogCommand`s."""

    def __init__(self, *args: Any, lazy: Mapping[str, Entry] | None = None, **kwargs: Any) -> None:
        self._lazy: dict[str, Entry] = dict(lazy or {})
        """Commands not imported yet, by name (`vwlog.cli.registry`)."""
        super().__init__(*args, **kwargs)

    @property  # click's attribute, loaded on demand here
    def commands(self) -> MutableMapping[str, click.Command]:
        """Every command, those not imported yet imported now (for what walks the whole tree;
        running one command imports only its own module)."""
        for name in list(self._lazy):
            self._load(name)
        return self._commands

    @commands.setter
    def commands(self, commands: MutableMapping[str, click.Command]) -> None:
        self._commands = commands

    def _load(self, name: str) -> None:
        """Import the module of the command ``name``, if it is not imported yet."""
        entry = self._lazy.pop(name, None)
        if entry is None or name in self._commands:
            return
        module, _, attribute = entry.target.partition(":")
        command = getattr(importlib.import_module(module), attribute)  # registers it, usually
        if name not in self._commands:
            self.add_command(command, name)

    def _listed(self, ctx: click.Context) -> Iterator[tuple[str, click.Command | Entry]]:
        """The visible commands, by name: loaded ones, and the entries of the others."""
        for name in self.list_commands(ctx):
            shown = self._commands.get(name) or self._lazy[name]
            if not shown.hidden:
                yield name, shown

    @override
    def add_command(self, cmd: click.Command, name: str | None = None) -> None:
        # every command speaks the language --lang names (one shared option)
        if not any(p.name == "lang" for p in cmd.params):
            options.lang(cmd)
        name = name or cmd.name
        if name is None:
            raise TypeError("Command has no name.")
        self._commands[name] = cmd  # not through `commands`, which would load the others

    @override
    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        self._load(cmd_name)
        return self._commands.get(cmd_name)

    @override
    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted({*self._commands, *self._lazy})

    @override
    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        """The commands with their short help, under a translated title (from the registry,
        for the commands not imported: listing them imports none)."""
        commands = list(self._listed(ctx))
        if not commands:
            return
        limit = formatter.width - 6 - max(len(name) for name, _ in commands)
        with formatter.section(_("Commands")):
            formatter.write_dl([(name, cmd.get_short_help_str(limit)) for name, cmd in commands])

    @override
    def shell_complete(self, ctx: click.Context, incomplete: str) -> list[CompletionItem]:
        """The commands' names (none imported), then the group's own options."""
        from click.shell_completion import CompletionItem

        items = [
            CompletionItem(name, help=cmd.get_short_help_str())
            for name, cmd in self._listed(ctx)
            if name.startswith(incomplete)
        ]
        return [*items, *click.Command.shell_complete(self, ctx, incomplete)]

    @override
    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        with quiet_on_closed_pipe(ctx):  # `vwlog --help | head -1`, too
            return _parse_in_language_asked(super().parse_args, ctx, args)

    @override
    def invoke(self, ctx: click.Context) -> Any:
        try:
            # a reader that goes away (`vwlog validate corpus/ | head -1`): a quiet end
            with _ending_cleanly_on_sigterm(), quiet_on_closed_pipe(ctx):
                return super().invoke(ctx)
        except click.UsageError as error:
            raise _one_line(error) from error
        except VwlogError as error:
            raise input_error(error) from error
        except KeyboardInterrupt:
            # interrupted (Ctrl-C): 130 as shells report SIGINT, not 1, which means "findings"
            click.echo(_("Interrupted."), err=True)
            raise click.exceptions.Exit(INTERRUPTED) from None
        except Terminated:
            # SIGTERM: the command's resources are closed by now (its temporary files gone)
            click.echo(_("Terminated."), err=True)
            raise click.exceptions.Exit(TERMINATED) from None


@dataclass(frozen=True, slots=True)
class CliContext:
    """What the top-level options chose, for every command (``ctx.obj``)."""

    store: str
    """The store's URL or path: ``--store``'s, else ``VWLOG_STORE``'s, else the per-user default
    (`vwlog.store.location`)."""
    store_source: Source = "option"
    """Where `store` came from."""


pass_cli_context = click.make_pass_decorator(CliContext)
"""Decorator that passes the `CliContext` to a command as its first argument."""


def _show_version(ctx: click.Context, _param: click.Parameter, value: bool) -> None:
    """Print the version and what judges (rules revision, ruleset, pool, engine), then exit."""
    if not value or ctx.resilient_parsing:
        return
    from vwlog.render.provenance import engine_build_note, provenance

    click.echo("\n".join(provenance().lines()))
    note = engine_build_note()
    if note is not None:
        click.echo(note)
    ctx.exit()


@click.group(
    "vwlog",
    cls=VwlogGroup,
    lazy=COMMANDS,
    context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100},
)
@click.option(
    "--version",
    is_flag=True,
    expose_value=False,
    is_eager=True,
    callback=_show_version,
    help="Show the version, the rules revision, the default ruleset and card pool hashes and "
    "the engine, and exit.",
)
@options.store
@options.lang
@click.pass_context
def main(ctx: click.Context, store: str | None) -> None:
    """Validate, replay, fork and measure Vandaria Wars match logs.

    Exit status: 0 success, 1 findings (violations, a broken chain, stale
    schemas), 2 usage or input error, 130 interrupted (Ctrl-C).

    A LOG is a log file ('-' reads standard input); a MATCH_OR_LOG is a log
    file, or the id of a match in the store (--store) when no such file
    exists. 'vwlog COMMAND --help' explains each command, with examples.
    Shell completion: eval "$(_VWLOG_COMPLETE=bash_source vwlog)" (zsh:
    zsh_source, fish: fish_source).

    Example:

    \b
        vwlog validate samples/full-combat.jsonl
        vwlog replay samples/full-combat.jsonl --to 40 --board
        vwlog next samples/full-combat.jsonl --at 40
        vwlog --store memory: import samples/full-combat.jsonl
        vwlog --version
    """
    ctx.obj = _cli_context(ctx, store)


def _cli_context(ctx: click.Context, store: str | None) -> CliContext:
    """The store this command line names (`vwlog.store.location`), and a one-line note on
    stderr when a ``vwlog.db`` in the current folder, the default of earlier versions, is
    passed over for the per-user default."""
    from vwlog.store.location import legacy_store, store_location

    named = ctx.get_parameter_source("store") is click.core.ParameterSource.COMMANDLINE
    location = store_location(store if named else None)
    legacy = None if ctx.resilient_parsing else legacy_store(location)
    if legacy is not None:
        click.echo(
            _(
                "Note: the store is {store} (the per-user default); ./vwlog.db is not read "
                "unless named: vwlog --store vwlog.db"
            ).format(store=location.url),
            err=True,
        )
    return CliContext(store=location.url, store_source=location.source)


__all__ = [
    "INTERRUPTED",
    "TERMINATED",
    "CliContext",
    "InputError",
    "OneLineUsageError",
    "Terminated",
    "VwlogCommand",
    "VwlogGroup",
    "input_error",
    "main",
]
