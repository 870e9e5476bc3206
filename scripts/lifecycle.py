"""What the scripts' servers share (the stack, the S3 server): each is started and stopped as a
whole, so ``with Server(...) as server:`` starts it and stops it on the way out."""

from __future__ import annotations

from types import TracebackType
from typing import Self


class Lifecycle:
    """Base of a server with ``start() -> self`` and ``stop()``, usable in a ``with`` block
    (its default ``start`` arguments apply there)."""

    def start(self) -> Self:
        raise NotImplementedError

    def stop(self) -> None:
        raise NotImplementedError

    def __enter__(self) -> Self:
        return self.start()

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.stop()
