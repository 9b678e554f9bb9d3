"""What holds a file or a connection open: closed at the end of a ``with`` block."""

from __future__ import annotations

from typing import TYPE_CHECKING, Self

from mypy_extensions import mypyc_attr

if TYPE_CHECKING:
    from types import TracebackType


@mypyc_attr(allow_interpreted_subclasses=True)
class Closing:
    """A mixin for objects with a `close` method: ``with obj:`` closes it on the way out,
    whatever happened inside. Compiled with the engine (`vwlog.io.logfile`'s reader is a
    compiled subclass); interpreted classes subclass it too."""

    def close(self) -> None:
        """Release what the object holds; the subclass says what that is."""
        raise NotImplementedError

    def __enter__(self) -> Self:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()


__all__ = ["Closing"]
