"""Raising with a cause in the compiled engine (see `caused`)."""

from __future__ import annotations

from typing import TypeVar

_E = TypeVar("_E", bound=BaseException)


def caused(error: _E, cause: BaseException | None) -> _E:
    """``error``, caused by ``cause``. The compiled engine's compiler drops a ``from`` clause
    (the cause is lost, and a traceback shows the context instead), so its modules raise
    ``caused(error, err) from err``: the same on both builds (``None`` for ``from None``)."""
    error.__cause__ = cause
    return error


__all__ = ["caused"]
