"""The commands' ``--help`` in the user's language.

click builds a command's help from its docstring and its options' ``help=`` when the module is
imported, before ``--lang`` is known; so the texts are translated when the help is *written*:
`TranslatedHelp` (mixed into every vwlog command and group) looks each paragraph of the help
text, the short help and every option's help up in the catalogs at format time, in the language
active then (``--lang`` is eager, so ``vwlog validate --lang id --help`` is Indonesian). A
paragraph without an entry is shown as written.

`extract` is the Babel extraction method for the command-line modules (``babel.cfg``): the
messages the Python extractor finds, plus every paragraph of each command's docstring (the
first is the short help in the command list and the help's opening) except the verbatim
blocks of example commands, and each ``help=`` string, cleaned as click cleans them, so the
catalog entries match what is looked up here.
"""

from __future__ import annotations

import copy
import inspect
import io
import textwrap
from typing import TYPE_CHECKING, Any, TypeVar

import click

from vwlog.io.i18n import gettext

if TYPE_CHECKING:
    import ast
    from collections.abc import Callable, Collection, Iterator, Mapping
    from typing import IO

C = TypeVar("C", bound=click.Command)

__all__ = [
    "TranslatedHelp",
    "extract",
    "help_paragraphs",
    "more_help",
    "short_help",
    "translated_help",
]


def help_paragraphs(text: str) -> list[str]:
    """A command's help as click shows it (cleaned, up to a form feed), in paragraphs."""
    return inspect.cleandoc(text).partition("\f")[0].split("\n\n")


def translated_help(text: str | None) -> str:
    """``text`` with each paragraph in the active language (as written where the catalog has
    no entry for it)."""
    if not text:
        return ""
    return "\n\n".join(gettext(p) if p.strip() else p for p in help_paragraphs(text))


def short_help(text: str, limit: int) -> str:
    """The first sentence of ``text``'s first paragraph, shortened to ``limit`` (as click
    makes a command's short help)."""
    words = text.partition("\n\n")[0].split()
    if words and words[0] == "\b":
        words = words[1:]
    for i, word in enumerate(words):
        if word.endswith(".") and (i == len(words) - 1 or not words[i + 1][0].islower()):
            words = words[: i + 1]
            break
    short = " ".join(words)
    if len(short) <= limit:
        return short
    return textwrap.shorten(short, max(limit, 3), placeholder="...", break_on_hyphens=False)


def more_help(details: str) -> Callable[[C], C]:
    """Put ``details`` (paragraphs written as a docstring's would be) after the help that the
    command's docstring gives, for a command whose full manual would bury its function: the
    docstring keeps the summary (the short help, and what the catalogs extract), the manual
    sits above the command.

    >>> @more_help("Example:\\n\\n    vwlog hello")
    ... @click.command()
    ... def hello() -> None:
    ...     "Say hello."
    >>> print(hello.help)
    Say hello.
    <BLANKLINE>
    Example:
    <BLANKLINE>
        vwlog hello
    """

    def add(command: C) -> C:
        summary = inspect.cleandoc(command.help or "")
        manual = textwrap.dedent(details).strip("\n")
        command.help = f"{summary}\n\n{manual}"
        return command

    return add


class TranslatedHelp(click.Command):
    """Help written in the active language: the text, the short help, the usage prefix, the
    options' help and the section titles (mixed in before `click.Command`/`click.Group`)."""

    def format_usage(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        """The usage line, its prefix translated."""
        pieces = self.collect_usage_pieces(ctx)
        formatter.write_usage(ctx.command_path, " ".join(pieces), prefix=gettext("Usage:") + " ")

    def format_help_text(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        """The help text, paragraph by paragraph in the active language."""
        text = translated_help(self.help)
        if text:
            formatter.write_paragraph()
            with formatter.indentation():
                formatter.write_text(text)

    def get_short_help_str(self, limit: int = 45) -> str:
        """The short help (the first sentence of the translated help), for a command list."""
        if self.short_help:
            return gettext(inspect.cleandoc(self.short_help)).strip()
        return short_help(translated_help(self.help), limit)

    def format_options(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        """The options, each help translated; then a group's commands."""
        rows = []
        for param in self.get_params(ctx):
            if isinstance(param, click.Argument):
                continue
            shown = param
            if isinstance(param, click.Option) and param.help:
                shown = copy.copy(param)
                shown.help = gettext(param.help)
            record = shown.get_help_record(ctx)
            if record is not None:
                rows.append(record)
        if rows:
            with formatter.section(gettext("Options")):
                formatter.write_dl(rows)
        if isinstance(self, click.Group):
            self.format_commands(ctx, formatter)

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        """A group's commands with their short help, under a translated title."""
        assert isinstance(self, click.Group)
        found = [(name, self.get_command(ctx, name)) for name in self.list_commands(ctx)]
        commands = [(name, cmd) for name, cmd in found if cmd is not None and not cmd.hidden]
        if not commands:
            return
        limit = formatter.width - 6 - max(len(name) for name, _ in commands)
        with formatter.section(gettext("Commands")):
            formatter.write_dl([(name, cmd.get_short_help_str(limit)) for name, cmd in commands])


# -- extraction (Babel) -----------------------------------------------------------------------
# (ast and Babel's extractor are imported by the functions that use them: not at start-up)


def _is_command_decorator(node: ast.expr) -> bool:
    """``@main.command(...)``, ``@click.group(...)``, ``@pool.command("list")``."""
    import ast

    func = node.func if isinstance(node, ast.Call) else node
    return isinstance(func, ast.Attribute) and func.attr in ("command", "group")


def _manuals(tree: ast.AST, node: ast.FunctionDef) -> Iterator[str]:
    """The texts a command's ``@more_help(...)`` adds: a string, or a module constant's."""
    import ast

    constants = {
        target.id: stmt.value.value
        for stmt in getattr(tree, "body", [])
        if isinstance(stmt, ast.Assign)
        and isinstance(stmt.value, ast.Constant)
        and isinstance(stmt.value.value, str)
        for target in stmt.targets
        if isinstance(target, ast.Name)
    }
    for d in node.decorator_list:
        if isinstance(d, ast.Call) and getattr(d.func, "id", None) == "more_help" and d.args:
            arg = d.args[0]
            if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
                yield textwrap.dedent(arg.value)
            elif isinstance(arg, ast.Name) and arg.id in constants:
                yield textwrap.dedent(constants[arg.id])


def _help_texts(tree: ast.AST) -> Iterator[tuple[int, str]]:
    import ast

    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef) and any(
            _is_command_decorator(d) for d in node.decorator_list
        ):
            doc = ast.get_docstring(node, clean=False)
            for text in (doc or "", *_manuals(tree, node)):
                for paragraph in help_paragraphs(text):
                    if paragraph.strip() and not paragraph.startswith("\b"):
                        yield node.lineno, paragraph
        if isinstance(node, ast.Call):
            # options.output_format(CHOICES, "help")
            name = getattr(node.func, "attr", None) or getattr(node.func, "id", None)
            if name == "output_format" and len(node.args) > 1:
                arg = node.args[1]
                if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
                    yield arg.lineno, inspect.cleandoc(arg.value)
            for kw in node.keywords:
                if (
                    kw.arg in ("help", "short_help")
                    and isinstance(kw.value, ast.Constant)
                    and isinstance(kw.value.value, str)
                ):
                    yield kw.value.lineno, inspect.cleandoc(kw.value.value)


def extract(
    fileobj: IO[bytes],
    keywords: Mapping[str, Any],
    comment_tags: Collection[str],
    options: dict[str, Any],
) -> Iterator[tuple[int, str, str | tuple[str, ...], list[str]]]:
    """Babel extraction method: the Python messages of a command-line module, then its help
    texts (each as a ``gettext`` message)."""
    import ast

    from babel.messages.extract import extract_python

    source = fileobj.read()
    # Babel's annotations name another tuple than extract_python yields at run time
    yield from extract_python(io.BytesIO(source), keywords, comment_tags, options)  # type: ignore[misc, arg-type]
    tree = ast.parse(source.decode(options.get("encoding", "utf-8")))
    for line, text in _help_texts(tree):
        yield line, "gettext", text, []
