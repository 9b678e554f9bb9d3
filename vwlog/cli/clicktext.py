"""click's own messages in the active language.

click words its usage errors (``No such option``, ``Missing argument``, ``Invalid value``), the
help option's help (``Show this message and exit.``) and the ``[env var: …; default: …]`` of an
option's help in English, through the standard library's ``gettext`` in the global default
domain: each of its modules does ``from gettext import gettext as _`` (and ``ngettext``), so
it follows the process's ``LANGUAGE``/``LANG`` and the catalogs bound to that domain, never
``--lang`` or ``VWLOG_LANG``. `speak_click_in_the_active_language` rebinds those two names in
click's modules to vwlog's (`vwlog.io.i18n`), so that click's messages are looked up in vwlog's
catalog, in the language vwlog speaks at that moment; in English they are click's own words.

`CLICK_MESSAGES` lists every message click marks for translation (as Babel extracts them from
click's sources), so that the catalogs carry them; ``tests/i18n`` checks that the list is
still what the installed click marks.
"""

from __future__ import annotations

import gettext as _stdlib_gettext
import importlib
import sys

from vwlog.io.i18n import N_, Np_, gettext, ngettext

__all__ = ["CLICK_MESSAGES", "speak_click_in_the_active_language"]

CLICK_MESSAGES: tuple[str | tuple[str, str], ...] = (
    N_("d"),
    N_("{editor}: Editing failed"),
    N_("{editor}: Editing failed: {e}"),
    N_("Windows error: {error}"),
    N_("Aborted!"),
    N_("deprecated"),
    N_("Options"),
    N_("Positional arguments"),
    Np_("Got unexpected extra argument ({args})", "Got unexpected extra arguments ({args})"),
    N_("DeprecationWarning: The command {name!r} is deprecated.{extra_message}"),
    N_("Commands"),
    N_("Missing command."),
    N_("Value must be an iterable."),
    Np_("Takes {nargs} values but 1 was given.", "Takes {nargs} values but {len} were given."),
    N_("DeprecationWarning: The {param_type} {name!r} is deprecated.{extra_message}"),
    N_("Name '{name}' defined twice"),
    N_("Boolean option {decl!r} cannot use the same flag for true/false."),
    N_("Could not determine name for option with declarations {decls!r}"),
    N_(
        "No options defined but a name was passed ({name}). Did you mean to declare an argument "
        "instead? Did you mean to pass '--{name}'?"
    ),
    N_("env var: {var}"),
    N_("default: {default}"),
    N_("(dynamic)"),
    N_("Arguments take exactly one parameter declaration, got {length}: {decls}."),
    N_("Do you want to continue?"),
    N_("Confirm the action without prompting."),
    N_("%(prog)s, version %(version)s"),
    N_("Show the version and exit."),
    N_("Show this message and exit."),
    Np_("Did you mean {possibility}?", "(Did you mean one of: {possibilities}?)"),
    N_("Error: {message}"),
    N_("Try '{command} {option}' for help."),
    N_("Invalid value: {message}"),
    N_("Invalid value for {param_hint}: {message}"),
    N_("Missing argument"),
    N_("Missing option"),
    N_("Missing parameter"),
    N_("Missing {param_type}"),
    N_("Missing parameter: {param_name}"),
    N_("No such option {name!r}."),
    N_("No such command {name!r}."),
    N_("unknown error"),
    N_("Could not open file {filename!r}: {message}"),
    N_("Usage:"),
    N_("Invalid start character for option ({option})"),
    N_("Argument {name!r} takes {nargs} values."),
    N_("Option {name!r} does not take a value."),
    Np_("Option {name!r} requires an argument.", "Option {name!r} requires {nargs} arguments."),
    N_("Shell completion is not supported for Bash versions older than 4.4."),
    N_("Couldn't detect Bash version, shell completion is not supported."),
    N_("Repeat for confirmation"),
    N_("Error: The two entered values do not match."),
    N_("Error: invalid input"),
    N_("Unknown color {colour!r}"),
    N_("Press any key to continue..."),
    N_("Choose from:\n\t{choices}"),
    Np_("{value!r} is not {choice}.", "{value!r} is not one of {choices}."),
    N_("Choice({choices})"),
    Np_(
        "{value!r} does not match the format {format}.",
        "{value!r} does not match the formats {formats}.",
    ),
    N_("{value!r} is not a valid {number_type}."),
    N_("{value} is not in the range {range}."),
    N_("{value!r} is not a valid boolean. Recognized values: {states}"),
    N_("{value!r} is not a valid UUID."),
    N_("file"),
    N_("directory"),
    N_("path"),
    N_("{name} {filename!r} does not exist."),
    N_("{name} {filename!r} is a file."),
    N_("{name} {filename!r} is a directory."),
    N_("{name} {filename!r} is not readable."),
    N_("{name} {filename!r} is not writable."),
    N_("{name} {filename!r} is not executable."),
    Np_(
        "{len_type} values are required, but {len_value} was given.",
        "{len_type} values are required, but {len_value} were given.",
    ),
    N_("Unknown standard stream '{name}'"),
)
"""Every message click marks for translation (``_`` and ``ngettext`` in its sources), each as
the catalogs' entry: a string, or a plural entry's two forms (Indonesian has one form; click
gives every placeholder of both forms to each, so the one form may use the plural's)."""

_MODULES = (
    "click.core",
    "click.decorators",
    "click.exceptions",
    "click.formatting",
    "click.parser",
    "click.shell_completion",
    "click.termui",
    "click.types",
    "click.utils",
    "click._termui_impl",
)
"""click's modules that word messages (``click._winconsole`` is Windows' alone, and is rebound
there when it has been imported)."""


_KEPT_ENGLISH = "click.decorators"
"""The module whose words become an option's help when a command is made (the help option's
``Show this message and exit.``, made once per command and kept): they stay English there, and
the help is translated where it is written (`vwlog.cli.helptexts.TranslatedHelp`), so that one
command's help is not fixed in the language of the first one to ask for it."""


def speak_click_in_the_active_language() -> None:
    """Make click look its messages up in vwlog's catalogs, in the active language: its
    modules' ``_`` and ``ngettext`` become vwlog's, except where the words are kept to be
    translated later (idempotent)."""
    names = [*_MODULES, *(["click._winconsole"] if "click._winconsole" in sys.modules else [])]
    for name in names:
        module = importlib.import_module(name)
        if getattr(module, "_", None) is _stdlib_gettext.gettext:
            module._ = N_ if name == _KEPT_ENGLISH else gettext  # type: ignore[attr-defined]
        if getattr(module, "ngettext", None) is _stdlib_gettext.ngettext:
            module.ngettext = ngettext  # type: ignore[attr-defined]
