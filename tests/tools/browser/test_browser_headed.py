"""Headed mode: a visible window where there is a display, headless with a note where not."""

from __future__ import annotations

import os
import shutil
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from hands.tools.browser._session import launch_chromium
from hands.tools.browser._settings import NO_DISPLAY, BrowserSettings
from tools.browser.conftest import Browsing


def _headed(browsing: Browsing, env: dict[str, str]) -> None:
    wanted = BrowserSettings.from_env({"PATH": os.environ.get("PATH", ""), **env})
    browsing.browser.launcher = launch_chromium  # a browser of this test's own
    browsing.configure(headless=wanted.headless, note=wanted.note)


def _agent(browsing: Browsing) -> str:
    async def read() -> str:
        return str(await browsing.browser.tabs[0].page.evaluate("navigator.userAgent"))

    return browsing.portal.call(read)


def test_headed_without_a_display_runs_headless_and_says_so(
    browsing: Browsing, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("DISPLAY", raising=False)
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
    _headed(browsing, {"HANDS_BROWSER_HEADLESS": "0"})
    text = browsing.open("/nav-a")
    assert NO_DISPLAY in text and 'heading "Page A"' in text
    assert "HeadlessChrome" in _agent(browsing)


@pytest.fixture
def display(tmp_path: Path) -> Iterator[str]:
    if shutil.which("Xvfb") is None:
        pytest.skip("Xvfb is not installed (apt install xvfb)")
    ready_r, ready_w = os.pipe()
    server = subprocess.Popen(  # -displayfd: Xvfb picks a free display and writes its number
        ["Xvfb", "-displayfd", str(ready_w), "-screen", "0", "1280x800x24", "-nolisten", "tcp"],
        pass_fds=(ready_w,), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    os.close(ready_w)
    try:
        with os.fdopen(ready_r) as ready:
            number = ready.readline().strip()
        assert number, "Xvfb did not start"
        yield f":{number}"
    finally:
        server.terminate()
        try:
            server.wait(5)
        except subprocess.TimeoutExpired:
            server.kill()
            time.sleep(0.1)


def test_headed_with_a_display_shows_a_window(
    browsing: Browsing, display: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("DISPLAY", display)
    _headed(browsing, {"HANDS_BROWSER_HEADLESS": "0", "DISPLAY": display})
    text = browsing.open("/nav-a")
    assert NO_DISPLAY not in text and 'heading "Page A"' in text
    assert "HeadlessChrome" not in _agent(browsing)


def test_the_headless_setting_is_read_from_the_environment() -> None:
    assert BrowserSettings.from_env({}).headless
    assert not BrowserSettings.from_env({"HANDS_BROWSER_HEADLESS": "0", "DISPLAY": ":1"}).headless
    assert not BrowserSettings.from_env({"HANDS_BROWSER_HEADED": "1", "DISPLAY": ":1"}).headless
    assert BrowserSettings.from_env({"HANDS_BROWSER_HEADLESS": "1", "DISPLAY": ":1"}).headless
    fallback = BrowserSettings.from_env({"HANDS_BROWSER_HEADLESS": "0"})
    assert fallback.headless and fallback.note == NO_DISPLAY
