"""Sentences that can be said in any language: a message template with named placeholders and
the values that fill them.

The engine layers build what they say to people (a violation, an event's description) as a
`Msg`: the English template (``"{card} is slid and may not enter battle"``) and its values.
``str(msg)`` is the English sentence; the render layer says it in another language by looking
the template up in the gettext catalogs and filling in the same values
(`vwlog.io.i18n.say`). A value may itself be a `Msg` (a phrase such as "choose a supply
package"), translated in turn. The templates are extracted for the catalogs by the keywords
``msg`` and ``violation:2`` (``.ci/catalogs``), so each must be a string literal at its call.

Whatever a record carries (a match id, a player or card name, a judge's note) may hold
control characters: a line feed or carriage return that forges a line of output, an ESC or OSC
sequence that recolours the screen, moves the cursor or retitles the window, a BEL, a C1
control (``\\x9b`` is CSI on many terminals), or a bidi override that reverses what follows.
`term` is the one function that makes such a value safe to print: each of those characters
becomes a visible backslash escape (``\\x0a``, ``\\x1b``, ``\\u202e``), and nothing else
changes, so a value without them keeps its exact bytes. Every value formatted into a line of
text for a terminal goes through it; `visible` is the same escape for a block of lines that
are already made (it keeps their line breaks), the last guard before a terminal.

Pure: no I/O, no gettext here.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

__all__ = [
    "Count",
    "Msg",
    "SaidText",
    "closest",
    "did_you_mean",
    "joined_commas",
    "joined_semicolons",
    "msg",
    "said_text",
    "term",
    "visible",
]

_FORMAT_CHARACTERS = (
    "\u061c"  # Arabic letter mark
    "\u200b-\u200f"  # zero-width space and joiners, left-to-right and right-to-left marks
    "\u2028\u2029"  # line and paragraph separators
    "\u202a-\u202e"  # bidi embeddings and overrides
    "\u2060"  # word joiner
    "\u2066-\u2069"  # bidi isolates
    "\ufeff"  # zero-width no-break space (byte order mark)
)
"""Formatting characters that can reorder, hide or break what a terminal shows."""
_UNSAFE_IN_LINES = re.compile(f"[\x00-\x09\x0b-\x1f\x7f-\x9f{_FORMAT_CHARACTERS}]")
_UNSAFE_IN_A_VALUE = re.compile(f"[\x00-\x1f\x7f-\x9f{_FORMAT_CHARACTERS}]")


def _escape(match: re.Match[str]) -> str:
    code = ord(match.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def term(value: object) -> str:
    r"""``value`` as text for one line of a terminal: every C0 control (line feed, carriage
    return and tab included), DEL, every C1 control and every bidi or invisible formatting
    character shown as a backslash escape, so that the value can neither start a line of its
    own nor send the terminal a sequence; everything else as it is.

    >>> term("p2\nOK · 0 violations\x1b[2J\u202e")
    'p2\\x0aOK · 0 violations\\x1b[2J\\u202e'
    >>> term("Dewi Sartika 🃏")
    'Dewi Sartika 🃏'
    """
    return _UNSAFE_IN_A_VALUE.sub(_escape, str(value))


def visible(text: str) -> str:
    """Lines already made (each value in them through `term`) for a terminal: like `term`,
    but their line breaks are kept."""
    return _UNSAFE_IN_LINES.sub(_escape, text)


def _same(template: str) -> str:
    return template


class Count(int):
    """A count that a sentence shows with thousands separators: ``1,955`` in English, and in
    another language as that language groups digits (`Msg.render`'s ``number``).

    >>> f"{Count(1955)}"
    '1,955'
    """

    def __format__(self, spec: str) -> str:
        return format(int(self), spec or ",")


@dataclass(frozen=True, slots=True)
class Msg:
    """A template and the values of its placeholders (names, numbers, ids, nested phrases).

    >>> str(Msg("{card} is slid", (("card", "p1-002 Marauder Captain"),)))
    'p1-002 Marauder Captain is slid'
    """

    template: str
    """The English template, ``str.format`` syntax with named fields only."""
    params: tuple[tuple[str, object], ...] = ()
    """The values, by placeholder name; a `Msg` value is said in the same language."""

    def render(
        self,
        translate: Callable[[str], str] = _same,
        number: Callable[[int], str] | None = None,
    ) -> str:
        """The sentence with ``translate`` applied to this template and every nested one, and
        ``number`` to every `Count` (English grouping without it)."""
        values = {name: self._value(value, translate, number) for name, value in self.params}
        return translate(self.template).format(**values)

    @staticmethod
    def _value(
        value: object, translate: Callable[[str], str], number: Callable[[int], str] | None
    ) -> object:
        if isinstance(value, Msg):
            return value.render(translate, number)
        if isinstance(value, SaidText):
            return value.said.render(translate, number)
        if isinstance(value, Count) and number is not None:
            return number(value)
        return value

    def __str__(self) -> str:
        return self.render()


def msg(template: str, /, **params: object) -> Msg:
    """A `Msg` of ``template`` (a string literal, so the catalogs can extract it).

    >>> str(msg("{player} passes priority", player="p1"))
    'p1 passes priority'
    """
    return Msg(template, tuple(params.items()))


def joined_semicolons(parts: Sequence[Msg | str]) -> Msg | str:
    """``a; b; c`` in any language (the parts nested, each joined by ``;``); ``""`` for none.

    >>> str(joined_semicolons(["a", "b", msg("{c}", c="c")]))
    'a; b; c'
    """
    joined: Msg | str = parts[0] if parts else ""
    for part in parts[1:]:
        joined = msg("{first}; {second}", first=joined, second=part)
    return joined


def joined_commas(parts: Sequence[Msg | str]) -> Msg | str:
    """``a, b, c`` in any language (the parts nested, each joined by ``,``); ``""`` for none."""
    joined: Msg | str = parts[0] if parts else ""
    for part in parts[1:]:
        joined = msg("{first}, {second}", first=joined, second=part)
    return joined


class SaidText(str):
    """A sentence kept as plain English text (a field typed ``str``) that remembers its
    template, so a renderer can say it in another language (`vwlog.io.i18n.say`); everywhere
    else (comparisons, JSON, ``startswith``) it is the English string.

    >>> text = said_text(msg("sealed after {count} records", count=3))
    >>> text == "sealed after 3 records", text.said.template
    (True, 'sealed after {count} records')
    """

    said: Msg

    def __new__(cls, said: Msg) -> SaidText:
        text = super().__new__(cls, said.render())
        text.said = said
        return text

    def __reduce__(self) -> tuple[type[SaidText], tuple[Msg]]:
        return (SaidText, (self.said,))


def said_text(said: Msg) -> SaidText:
    """``said`` as English text that remembers its template (see `SaidText`)."""
    return SaidText(said)


def did_you_mean(said: Msg | str, suggestion: str | None) -> Msg | str:
    """``said`` (what is unknown), then the known word it is most likely a typo of, if any.

    >>> str(did_you_mean(msg("unknown card {card}", card="'p1-0006'"), "p1-006"))
    "unknown card 'p1-0006'; did you mean 'p1-006'?"
    """
    if suggestion is None:
        return said
    return msg("{said}; did you mean {suggestion}?", said=said, suggestion=repr(suggestion))


def closest(word: str, known: Iterable[str]) -> str | None:
    """The known word ``word`` is most likely a typo of (`difflib`), or ``None``.

    >>> closest("blcoks", ["blockers", "blocks", "pass"])
    'blocks'
    >>> closest("p1-0006", ["p1-005", "p1-006", "p2-006"])
    'p1-006'
    >>> closest("P2", ["p1", "p2"])
    'p2'
    """
    words = list(known)
    same = [w for w in words if w.casefold() == word.casefold()]
    found = same or difflib.get_close_matches(word, words, n=1, cutoff=0.6)
    return found[0] if found else None
