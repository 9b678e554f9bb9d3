"""Sentences that can be said in any language: a message template with named placeholders and
the values that fill them.

The engine layers build what they say to people (a violation, an event's description) as a
`Msg`: the English template (``"{card} is slid and may not enter battle"``) and its values.
``str(msg)`` is the English sentence; the render layer says it in another language by looking
the template up in the gettext catalogs and filling in the same values
(`vwlog.io.i18n.say`). A value may itself be a `Msg` (a phrase such as "choose a supply
package"), translated in turn. The templates are extracted for the catalogs by the keywords
``msg`` and ``violation:2`` (``.ci/catalogs``), so each must be a string literal at its call.

Pure: no I/O, no gettext here.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

__all__ = ["Count", "Msg", "SaidText", "msg", "said_text"]


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
