"""Where the console's lines come from: a list (tests, scripts), a pipe or file, or a person at a
terminal (a prompt with line editing and history)."""

from __future__ import annotations

import asyncio
import codecs
import contextlib
import os
import sys
import threading
from collections.abc import Sequence
from typing import Any, Protocol


class LineSource(Protocol):
    """Where the console's lines come from."""

    async def next_line(self) -> str | None:
        """The next line without its newline, or None at end of input."""
        ...


class LinesFrom:
    """A :class:`LineSource` over a list of lines (tests and scripts)."""

    def __init__(self, lines: Sequence[str]) -> None:
        self._lines = list(lines)

    async def next_line(self) -> str | None:
        return self._lines.pop(0) if self._lines else None


class StdinLines:
    """A :class:`LineSource` reading file descriptor 0 in a daemon thread.

    Reading the raw descriptor (not ``sys.stdin``) keeps the thread off Python's
    buffered-stream locks, so a process stopped while the thread waits for input
    exits cleanly; pipes, files and terminals all work.
    """

    def __init__(self, fd: int = 0) -> None:
        self._fd = fd
        self._queue: asyncio.Queue[str | None] = asyncio.Queue()
        self._loop = asyncio.get_running_loop()
        threading.Thread(target=self._pump, name="annals-stdin", daemon=True).start()

    def _pump(self) -> None:
        decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")
        pending = ""
        try:
            while True:
                chunk = os.read(self._fd, 65536)
                if not chunk:
                    break
                pending += decoder.decode(chunk)
                *lines, pending = pending.split("\n")
                for line in lines:
                    self._put(line.rstrip("\r"))
            pending += decoder.decode(b"", final=True)
            if pending:
                self._put(pending)
        except OSError:
            pass
        finally:
            self._put(None)

    def _put(self, line: str | None) -> None:
        with contextlib.suppress(RuntimeError):  # the loop is closed: we are exiting anyway
            self._loop.call_soon_threadsafe(self._queue.put_nowait, line)

    async def next_line(self) -> str | None:
        return await self._queue.get()


class PromptLines:
    """A :class:`LineSource` for a person at a terminal: a prompt, line editing and a history
    (arrow keys recall earlier lines instead of arriving as ``\\x1b[A``), by prompt_toolkit.

    Output printed while the prompt waits (a deadline fired) goes above the prompt when
    :meth:`printing` wraps the console's run. Ctrl-C clears the line; Ctrl-D ends the input.
    """

    PROMPT = "annals> "

    def __init__(self, session: Any | None = None) -> None:
        from prompt_toolkit import PromptSession  # imported here: pipes and tests never need it
        from prompt_toolkit.history import InMemoryHistory

        self._session = session or PromptSession(history=InMemoryHistory())

    async def next_line(self) -> str | None:
        try:
            line: str = await self._session.prompt_async(self.PROMPT)
        except EOFError:
            return None
        except KeyboardInterrupt:
            return ""
        return line

    @staticmethod
    def printing() -> contextlib.AbstractContextManager[object]:
        """While active, lines printed to ``sys.stdout`` appear above the prompt, not through it."""
        from prompt_toolkit.patch_stdout import patch_stdout

        return patch_stdout()


def terminal_lines() -> LineSource:
    """The console's input: the prompt at a terminal, plain lines from a pipe or a file."""
    if os.isatty(0) and os.isatty(1):
        return PromptLines()
    return StdinLines()


class CurrentStdout:
    """Writes to whatever ``sys.stdout`` is at the time (prompt_toolkit swaps it while it prompts)."""

    def write(self, text: str) -> int:
        return sys.stdout.write(text)

    def flush(self) -> None:
        sys.stdout.flush()
