"""Languages: the gettext catalogs under ``vwlog/locale``, the active locale, and Babel's
number, date and plural formatting.

vwlog speaks English (``en``, the source language of every message) and Bahasa Indonesia
(``id``). The active locale is chosen, in this order, by `set_language` (the ``--lang``
option), ``VWLOG_LANG``, then ``LANG`` (``id_ID.UTF-8`` means ``id``); anything else is
English. Messages are looked up in ``vwlog/locale/<lang>/LC_MESSAGES/vwlog.mo``, which the
project's setup compiles with ``pybabel compile``; when the compiled catalog is missing (a
checkout that skipped the setup) the ``.po`` file is compiled in memory instead, so nothing
is fetched and no language silently falls back to English.

Maintaining the catalogs (Babel; configuration in ``babel.cfg``)::

    pybabel extract -F babel.cfg -k _ -k N_ -k ngettext:1,2 -o vwlog/locale/vwlog.pot .
    pybabel update -i vwlog/locale/vwlog.pot -d vwlog/locale -D vwlog
    pybabel compile -d vwlog/locale -D vwlog
"""

from __future__ import annotations

import gettext as _gettext
import io
import os
import re
from contextlib import contextmanager
from contextvars import ContextVar, Token
from datetime import date, datetime
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING

from vwlog.model.text import Msg, SaidText

if TYPE_CHECKING:
    from collections.abc import Iterator

    from babel import Locale

# Babel is imported by the functions that format numbers and dates, not with this module:
# every command line imports it, and ``vwlog --help`` formats neither.

__all__ = [
    "DOMAIN",
    "LANGUAGES",
    "LOCALE_DIR",
    "NOUNS",
    "N_",
    "Np_",
    "active_language",
    "decimal_sign",
    "fmt_date",
    "fmt_datetime",
    "fmt_fixed",
    "fmt_number",
    "fmt_percent",
    "gettext",
    "language_from_accept",
    "ngettext",
    "normalize_language",
    "pop_language",
    "push_language",
    "resolve_language",
    "say",
    "set_language",
    "translations",
    "using_language",
]

DOMAIN = "vwlog"
"""The gettext domain of every catalog."""

LOCALE_DIR = Path(__file__).resolve().parent.parent / "locale"
"""Where the catalogs live: ``<lang>/LC_MESSAGES/vwlog.po`` (and the compiled ``.mo``)."""

LANGUAGES: tuple[str, ...] = ("en", "id")
"""Languages vwlog speaks; ``en`` is the source language."""

_ACTIVE: ContextVar[str | None] = ContextVar("vwlog_language", default=None)


def normalize_language(value: str | None) -> str | None:
    """``id``/``en`` for a language tag or POSIX locale (``id_ID.UTF-8``, ``in``, ``en-GB``),
    ``None`` for anything vwlog does not speak (``C``, ``POSIX``, empty)."""
    if not value:
        return None
    tag = re.split(r"[_.@-]", value.strip().lower(), maxsplit=1)[0]
    if tag == "in":  # the old ISO 639 code of Indonesian, still seen in Java locales
        tag = "id"
    return tag if tag in LANGUAGES else None


def resolve_language(explicit: str | None = None) -> str:
    """The language to speak: ``explicit`` (``--lang``), else ``VWLOG_LANG``, else ``LANG``
    (then ``LC_ALL``/``LC_MESSAGES``), else English."""
    for value in (
        explicit,
        os.environ.get("VWLOG_LANG"),
        os.environ.get("LC_ALL"),
        os.environ.get("LC_MESSAGES"),
        os.environ.get("LANG"),
    ):
        found = normalize_language(value)
        if found is not None:
            return found
    return "en"


def set_language(lang: str | None) -> str:
    """Make ``lang`` (or, when ``None``, what the environment asks for) the active language;
    return it."""
    chosen = resolve_language(lang)
    _ACTIVE.set(chosen)
    return chosen


def push_language(lang: str | None) -> Token[str | None]:
    """Make ``lang`` (or what the environment asks for) the active language until
    `pop_language` is given the returned token (a command's lifetime)."""
    return _ACTIVE.set(resolve_language(lang))


def pop_language(token: Token[str | None]) -> None:
    """Restore the language that was active before `push_language` returned ``token``."""
    _ACTIVE.reset(token)


def active_language() -> str:
    """The active language: the one set, else what the environment asks for."""
    chosen = _ACTIVE.get()
    return chosen if chosen is not None else resolve_language()


@contextmanager
def using_language(lang: str) -> Iterator[str]:
    """Speak ``lang`` inside the ``with`` block (an HTTP request, a test)."""
    token = _ACTIVE.set(resolve_language(lang))
    try:
        yield active_language()
    finally:
        _ACTIVE.reset(token)


def language_from_accept(header: str | None) -> str:
    """The best language of an ``Accept-Language`` header (``id-ID,id;q=0.9,en;q=0.8``) that
    vwlog speaks; English when none is acceptable."""
    best, best_q = "en", -1.0
    for part in (header or "").split(","):
        tag, _, params = part.strip().partition(";")
        lang = normalize_language(tag)
        if lang is None:
            continue
        q = 1.0
        match = re.search(r"q\s*=\s*([0-9.]+)", params)
        if match:
            try:
                q = float(match.group(1))
            except ValueError:
                continue
        if q > best_q and q > 0:
            best, best_q = lang, q
    return best


@cache
def translations(lang: str) -> _gettext.NullTranslations:
    """The catalog of ``lang``: the compiled ``.mo``, else the ``.po`` compiled in memory;
    English (the source language) translates nothing."""
    if lang == "en":
        return _gettext.NullTranslations()
    folder = LOCALE_DIR / lang / "LC_MESSAGES"
    mo = folder / f"{DOMAIN}.mo"
    po = folder / f"{DOMAIN}.po"
    if mo.exists() and (not po.exists() or mo.stat().st_mtime >= po.stat().st_mtime):
        with mo.open("rb") as handle:
            return _gettext.GNUTranslations(handle)
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    with po.open("rb") as handle:
        catalog = read_po(handle, locale=lang, domain=DOMAIN)
    buffer = io.BytesIO()
    write_mo(buffer, catalog)
    buffer.seek(0)
    return _gettext.GNUTranslations(buffer)


def gettext(message: str) -> str:
    """``message`` in the active language (a word that is also the singular of a counted noun,
    such as ``card``, shares that noun's catalog entry)."""
    catalog = translations(active_language())
    text = catalog.gettext(message)
    if text == message:
        shared = getattr(catalog, "_catalog", {}).get((message, 0))
        if isinstance(shared, str) and shared:
            return shared
    return text


def say(text: Msg | str) -> str:
    """A sentence of the engine (`vwlog.model.text.Msg`: a violation, an event) in the active
    language: its template and every nested one looked up in the catalog, then filled with the
    same values; a `SaidText` by its template; a plain string as it is."""
    if isinstance(text, SaidText):
        return text.said.render(gettext, fmt_number)
    return text.render(gettext, fmt_number) if isinstance(text, Msg) else text


def ngettext(singular: str, plural: str, n: int) -> str:
    """The form of ``singular``/``plural`` that agrees with ``n``, in the active language."""
    return translations(active_language()).ngettext(singular, plural, n)


def N_(message: str) -> str:  # noqa: N802  (the gettext convention)
    """Mark ``message`` for extraction without translating it yet (translate where shown)."""
    return message


def Np_(singular: str, plural: str) -> tuple[str, str]:  # noqa: N802
    """Mark a noun's two forms for extraction as one plural entry (``ngettext`` translates)."""
    return singular, plural


NOUNS: tuple[tuple[str, str], ...] = (
    Np_("event", "events"),
    Np_("decision", "decisions"),
    Np_("consequence", "consequences"),
    Np_("turn", "turns"),
    Np_("violation", "violations"),
    Np_("more violation", "more violations"),
    Np_("card", "cards"),
    Np_("card definition", "card definitions"),
    Np_("record", "records"),
    Np_("log", "logs"),
    Np_("match", "matches"),
    Np_("flag", "flags"),
    Np_("earlier event", "earlier events"),
    Np_("more event", "more events"),
    Np_("common event", "common events"),
)
"""The nouns vwlog counts (`vwlog.render.text.counted`), each a plural entry of the catalogs."""


def _locale() -> Locale:
    from babel import Locale

    return Locale.parse(active_language())


def fmt_number(n: float) -> str:
    """``n`` with the locale's grouping and decimal signs: ``1,204`` / ``1.204``."""
    from babel.numbers import format_decimal

    return str(format_decimal(n, locale=_locale()))


def decimal_sign() -> str:
    """The locale's decimal sign: ``.`` / ``,`` (for a number Python formatted, where the
    English bytes must stay those of ``format``)."""
    from babel.numbers import get_decimal_symbol

    return str(get_decimal_symbol(_locale()))


def fmt_fixed(x: float, digits: int) -> str:
    """``x`` with ``digits`` decimals and the locale's decimal sign, no grouping: ``40.00`` /
    ``40,00``."""
    from babel.numbers import format_decimal

    pattern = "0." + "0" * digits if digits else "0"
    return str(format_decimal(x, format=pattern, locale=_locale()))


def fmt_percent(x: float, digits: int = 1) -> str:
    """``x`` (a fraction) as a percentage: ``12.5%`` / ``12,5%``."""
    from babel.numbers import format_percent

    pattern = "#,##0." + "0" * digits + "%" if digits else "#,##0%"
    return str(format_percent(x, format=pattern, locale=_locale()))


def fmt_date(value: date) -> str:
    """A date in the locale's medium form: ``Dec 3, 2026`` / ``3 Des 2026``."""
    from babel.dates import format_date

    return str(format_date(value, format="medium", locale=_locale()))


def fmt_datetime(value: datetime) -> str:
    """A moment in the locale's medium form."""
    from babel.dates import format_datetime

    return str(format_datetime(value, format="medium", locale=_locale()))
