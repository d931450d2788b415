"""What happened in the browser while a call ran: console errors, dialogs, downloads, pages.

Each action reports the events since it started, so the model sees the effect of a
click without another call.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

import anyio

if TYPE_CHECKING:
    from playwright.async_api import ConsoleMessage, Dialog, Download, Frame, Page, WebSocket

    from hands.tools.browser._contract import BrowserState

MAX_SHOWN = 10
MAX_EVENT_CHARS = 300
DOWNLOAD_SECONDS = 30.0
_UNSAFE = re.compile(r"[^A-Za-z0-9._ -]+")


class EventLog:
    """Notes in the order they happened; a call reads those after its mark."""

    def __init__(self) -> None:
        self._notes: list[str] = []
        self._pending: list[anyio.Event] = []

    def note(self, text: str) -> None:
        """Record one event."""
        if len(text) > MAX_EVENT_CHARS:
            text = text[:MAX_EVENT_CHARS] + "…"
        self._notes.append(text)

    def mark(self) -> int:
        """Where the events of a call start."""
        return len(self._notes)

    def since(self, mark: int) -> list[str]:
        """The events after ``mark``, at most :data:`MAX_SHOWN` with a count of the rest."""
        found = self._notes[mark:]
        if len(found) > MAX_SHOWN:
            left = len(found) - MAX_SHOWN
            found = [*found[:MAX_SHOWN], f"… and {left} more events"]
        return found

    async def finish_downloads(self) -> None:
        """Wait (capped) for downloads still being saved."""
        with anyio.move_on_after(DOWNLOAD_SECONDS):
            for done in list(self._pending):
                await done.wait()
        self._pending = [e for e in self._pending if not e.is_set()]

    # -- page events --------------------------------------------------------------------

    def watch(self, page: Page, session: BrowserState) -> None:
        """Record the page's events from now on."""
        page.on("console", self._console)
        page.on("pageerror", lambda error: self.note(f"Page error: {error}"))
        page.on("dialog", lambda dialog: self._dialog(dialog, session))
        page.on("download", lambda download: self._download(download, session))
        page.on("framenavigated", lambda frame: self._navigated(page, frame))
        page.on("websocket", self._websocket)

    def _console(self, message: ConsoleMessage) -> None:
        if message.type == "error":
            self.note(f"Console error: {message.text}")

    def _websocket(self, socket: WebSocket) -> None:
        url = socket.url
        socket.on("socketerror", lambda error: self.note(f"WebSocket {url} failed: {error}"))

    def _navigated(self, page: Page, frame: Frame) -> None:
        if frame == page.main_frame and frame.url != "about:blank":
            self.note(f"Navigated to {frame.url}")

    async def _dialog(self, dialog: Dialog, session: BrowserState) -> None:
        answer = session.settings.dialogs
        kind = dialog.type
        text = f"A {kind} dialog said {dialog.message!r}"
        try:
            if answer == "accept":
                await dialog.accept(dialog.default_value if kind == "prompt" else None)
            else:
                await dialog.dismiss()
        except Exception as exc:
            self.note(f"{text}; answering it failed ({exc})")
            return
        how = "accepted" if answer == "accept" else "dismissed"
        if kind == "alert":
            how = "closed"
        self.note(f"{text}; it was {how} (HANDS_BROWSER_DIALOGS={answer}).")

    async def _download(self, download: Download, session: BrowserState) -> None:
        done = anyio.Event()
        self._pending.append(done)
        try:
            folder = session.downloads
            folder.mkdir(parents=True, exist_ok=True)
            target = _free_name(folder, download.suggested_filename)
            failure = await download.failure()
            if failure:
                self.note(f"A download of {download.url} failed: {failure}")
                return
            await download.save_as(target)
            size = target.stat().st_size
            self.note(f"Downloaded {download.url} to {target} ({size:,} bytes).")
        except Exception as exc:
            self.note(f"A download of {download.url} could not be saved ({exc}).")
        finally:
            done.set()


def _free_name(folder: Path, suggested: str) -> Path:
    name = _UNSAFE.sub("_", Path(suggested).name).strip(" .") or "download"
    target = folder / name
    stem, suffix = target.stem, target.suffix
    n = 1
    while target.exists():
        n += 1
        target = folder / f"{stem} ({n}){suffix}"
    return target


def bullet(lines: Sequence[str]) -> str:
    """Events as a bullet list."""
    return "\n".join(f"- {line}" for line in lines)
