"""The two errors of the contract: a move the rules refuse, and data that does not hold together."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any


class IllegalAction(Exception):
    """An action the rules do not allow; the state is left untouched.

    Attributes:
        code: a stable machine-readable reason, e.g. ``"not_adjacent"``.
        message: a sentence a player understands.
        params: the values the message was built from (for translations).
    """

    def __init__(self, code: str, message: str, **params: Any) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.params = params

    def __reduce__(self) -> tuple[Any, ...]:
        # Exception pickling passes only ``args``; rebuild from all three parts
        # so the error survives a process pool or a queue between processes.
        return (_rebuild_illegal, (self.code, self.message, self.params))


def _rebuild_illegal(code: str, message: str, params: dict[str, Any]) -> IllegalAction:
    return IllegalAction(code, message, **params)


class DataError(Exception):
    """A game's data files are wrong; the message lists every problem found (one per line)."""

    def __init__(self, problems: Sequence[str]) -> None:
        super().__init__("\n".join(problems))
        self.problems = list(problems)
