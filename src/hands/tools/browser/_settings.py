"""The browser's settings, read from the environment when a session first browses."""

from __future__ import annotations

import os
import shutil
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Literal

from hands.core.env import count, switch, text

EXECUTABLE_VARIABLE = "HANDS_BROWSER_EXECUTABLE"
ENABLE_VARIABLE = "HANDS_BROWSER"
CANDIDATES = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable", "chrome")
INSTALL_HINT = (
    "Install the browser tools with `pip install 'hands[browser]'` (the Playwright package) "
    "and a Chromium with `apt install chromium` (or point "
    f"{EXECUTABLE_VARIABLE} at a Chromium or Chrome binary)."
)

HEADLESS_VARIABLE = "HANDS_BROWSER_HEADLESS"
NAVIGATION_VARIABLE = "HANDS_BROWSER_NAVIGATION_TIMEOUT_MS"
NO_DISPLAY = (
    f"A visible browser window was asked for ({HEADLESS_VARIABLE}=0), but there is no display "
    "(DISPLAY and WAYLAND_DISPLAY are unset), so the browser runs headless. Start hands "
    "inside a desktop session or under xvfb-run to see the window."
)

DialogAnswer = Literal["accept", "dismiss"]


@dataclass(frozen=True, kw_only=True, slots=True)
class BrowserSettings:
    """How the session's browser is started and how much of a page the model sees."""

    executable: str | None = None
    """The Chromium binary; None: none was found."""
    headless: bool = True
    """False only when headed mode was asked for (``HANDS_BROWSER_HEADLESS=0``) and a
    display exists."""
    note: str = ""
    """Said when the browser starts: why it is not as asked (headed without a display)."""
    snapshot_chars: int = 40_000
    """A snapshot longer than this is cut at a line, with a notice
    (``HANDS_BROWSER_SNAPSHOT_CHARS``)."""
    snapshot_elements: int = 10_000
    """The snapshot reads at most this many elements (``HANDS_BROWSER_SNAPSHOT_ELEMENTS``)."""
    navigation_timeout_s: float = 20.0
    """How long a page may take to load (``HANDS_BROWSER_NAVIGATION_TIMEOUT_MS``)."""
    action_timeout_s: float = 5.0
    """How long a click, a fill or a wait may take (``HANDS_BROWSER_ACTION_TIMEOUT_MS``)."""
    settle_s: float = 3.0
    """After an action, how long to wait at most for the page's requests to finish."""
    dialogs: DialogAnswer = "dismiss"
    """How alert, confirm and prompt dialogs are answered (``HANDS_BROWSER_DIALOGS``)."""

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> BrowserSettings:
        """The settings from ``HANDS_BROWSER_*`` variables; defaults for missing ones."""
        env = os.environ if env is None else env
        headed = switch(HEADLESS_VARIABLE, env) is False or switch("HANDS_BROWSER_HEADED", env)
        display = bool(env.get("DISPLAY") or env.get("WAYLAND_DISPLAY"))
        answer = (text("HANDS_BROWSER_DIALOGS", env) or "").lower()
        return cls(
            executable=find_executable(env),
            headless=not (headed and display),
            note=NO_DISPLAY if headed and not display else "",
            snapshot_chars=(count("HANDS_BROWSER_SNAPSHOT_CHARS", env) or 40_000),
            snapshot_elements=(count("HANDS_BROWSER_SNAPSHOT_ELEMENTS", env) or 10_000),
            navigation_timeout_s=(count("HANDS_BROWSER_NAVIGATION_TIMEOUT_MS", env) or 20_000)
            / 1000,
            action_timeout_s=(count("HANDS_BROWSER_ACTION_TIMEOUT_MS", env) or 5_000) / 1000,
            dialogs="accept" if answer == "accept" else "dismiss",
        )


def find_executable(env: Mapping[str, str] | None = None) -> str | None:
    """``HANDS_BROWSER_EXECUTABLE`` when set (even if wrong: the launch says so), else PATH."""
    env = os.environ if env is None else env
    named = text(EXECUTABLE_VARIABLE, env)
    if named:
        return named
    path = env.get("PATH")
    for name in CANDIDATES:
        found = shutil.which(name, path=path)
        if found:
            return found
    return None


def playwright_installed() -> bool:
    """Whether the Playwright package can be imported (without importing it)."""
    from importlib.util import find_spec

    return find_spec("playwright") is not None


def missing(env: Mapping[str, str] | None = None) -> str | None:
    """What the browser tools lack here, with how to install it; None: nothing."""
    lacks: list[str] = []
    if not playwright_installed():
        lacks.append("the Playwright package is not installed")
    if find_executable(env) is None:
        lacks.append("no Chromium was found on PATH")
    if not lacks:
        return None
    return f"The browser tools cannot run: {' and '.join(lacks)}. {INSTALL_HINT}"


def offered(env: Mapping[str, str] | None = None) -> bool:
    """Whether the browser tools join the pool.

    ``HANDS_BROWSER=1`` asks for them (a call then explains what is missing),
    ``HANDS_BROWSER=0`` keeps them out; unset: offered when Playwright and Chromium exist.
    """
    env = os.environ if env is None else env
    asked = switch(ENABLE_VARIABLE, env)
    return missing(env) is None if asked is None else asked


def pool_note(names: tuple[str, ...], env: Mapping[str, str] | None = None) -> str | None:
    """Why the browser tools are missing from a pool with these names, if they are."""
    if any(n.startswith("Browser_") for n in names):
        return None
    env = os.environ if env is None else env
    if switch(ENABLE_VARIABLE, env) is False:
        return None
    problem = missing(env)
    if problem is None:
        return None
    return (
        f"{problem} Until then they are left out of the pool; {ENABLE_VARIABLE}=1 offers "
        "them anyway."
    )
