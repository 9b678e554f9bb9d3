"""Copies of frozen state values with some fields changed: the fold's hot path.

Part of the compiled engine core (`vwlog.build.COMPILED`); `vwlog.model.state` re-exports
`replace`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final, TypeVar

if TYPE_CHECKING:
    from collections.abc import Callable

_T = TypeVar("_T")


def replace(obj: _T, /, **changes: Any) -> _T:
    """A copy of a frozen state value with some fields changed.

    The fold's hot path: it copies the instance dictionary instead of running ``__init__``
    (``dataclasses.replace`` is an order of magnitude slower on `MatchState`). The copy is
    ``dict.copy`` of the old instance's dictionary, installed as the new one's: filling the new
    instance's own (key-sharing) dictionary key by key costs twice as much. A class registered
    with `copier` (`MatchState`, compiled) is copied its own way. Unknown field names are a
    programming error.
    """
    copy = _COPIERS.get(type(obj))
    if copy is not None:
        return copy(obj, changes)  # type: ignore[no-any-return]
    new = _new(type(obj))
    d = obj.__dict__.copy()
    d.update(changes)
    _set_dict(new, "__dict__", d)
    return new


_COPIERS: Final[dict[type, Callable[[Any, dict[str, Any]], Any]]] = {}
"""How `replace` copies the classes registered with `copier`."""


def copier(cls: type[_T], copy: Callable[[_T, dict[str, Any]], _T]) -> None:
    """Have `replace` copy instances of ``cls`` with ``copy(obj, changes)``: a class compiled
    as a native class keeps its fields in the instance, without a dictionary to copy."""
    _COPIERS[cls] = copy


_new: Final = object.__new__
_set_dict: Final = object.__setattr__  # the dataclasses are frozen: their own __setattr__ refuses


__all__ = ["copier", "replace"]
