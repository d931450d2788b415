"""The demo's browser step: a real headless Chromium on the sample's local lookup page.

A short second scripted session after the main one: open the page, type a SKU, click
the button and read the answer from the snapshot. Skipped, with the reason, where
Playwright or Chromium is missing.
"""

from __future__ import annotations

import json
from importlib import resources
from typing import TYPE_CHECKING

from rich.text import Text

from hands.agent.loop import QueryOptions
from hands.cli.demo.run import play
from hands.cli.session_view import SessionView
from hands.core.session import Session
from hands.models.scripted import ScriptedModel
from hands.permissions.domains import NetworkDomains
from hands.pipeline.pool import pool_for
from hands.tools.browser import missing

if TYPE_CHECKING:
    from pathlib import Path

    from rich.console import Console

    from hands.core.decision import AskHandler

PROMPT = "Check the stock lookup page: what does it say about apple?"


def _script(docs: str) -> dict[str, object]:
    text = (resources.files("hands.cli.demo") / "browser_script.json").read_text(encoding="utf-8")
    return json.loads(text.replace("$DOCS", docs))


def run_browser_step(docs: str, project: Path, *, console: Console, ask: AskHandler) -> bool:
    """Run the step; True when it succeeded or was skipped."""
    problem = missing()
    if problem is not None:
        console.print(Text(f"browser step skipped: {problem}", style="dim"))
        return True
    console.print(Text.assemble(("\n> ", "bold cyan"), PROMPT))
    model = ScriptedModel(_script(docs), name="scripted:demo-browser")
    pool = pool_for()
    view = SessionView(console, pool)
    session = Session()
    # the docs' loopback server, opened as sandbox.network.allowedDomains would
    session.service(NetworkDomains, lambda: NetworkDomains(allowed=("127.0.0.1",)))
    options = QueryOptions(
        model=model, tools=pool, cwd=project, permission_mode="acceptEdits", ask=ask,
        session=session,
    )  # fmt: skip
    return play(PROMPT, options, view)
