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

__all__ = ["Msg", "msg"]


def _same(template: str) -> str:
    return template


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

    def render(self, translate: Callable[[str], str] = _same) -> str:
        """The sentence with ``translate`` applied to this template and every nested one."""
        values = {
            name: value.render(translate) if isinstance(value, Msg) else value
            for name, value in self.params
        }
        return translate(self.template).format(**values)

    def __str__(self) -> str:
        return self.render()


def msg(template: str, /, **params: object) -> Msg:
    """A `Msg` of ``template`` (a string literal, so the catalogs can extract it).

    >>> str(msg("{player} passes priority", player="p1"))
    'p1 passes priority'
    """
    return Msg(template, tuple(params.items()))
