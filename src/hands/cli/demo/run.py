"""``hands demo``: copy the sample project to a temp dir and run the scripted session."""

from __future__ import annotations

import json
import os
import shutil
import tempfile
import threading
from collections.abc import Generator
from contextlib import contextmanager
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from importlib import resources
from pathlib import Path
from typing import Any

import anyio
from rich.console import Console
from rich.panel import Panel
from rich.text import Text

from hands.agent.events import ResultEvent
from hands.agent.loop import QueryOptions, query
from hands.cli import startup
from hands.cli.console import console_for
from hands.cli.session_view import SessionView
from hands.core.decision import AskRequest, PermissionDecision, allow
from hands.core.env import given
from hands.core.session import Session
from hands.models.scripted import ScriptedModel
from hands.permissions.domains import NetworkDomains
from hands.pipeline.pool import pool_for

PROMPT = "The stock total in the inventory sample looks wrong. Find the bug, fix it and prove it."


def _copy_sample(target: Path) -> None:
    sample = resources.files("hands.cli.demo") / "sample"
    with resources.as_file(sample) as source:
        shutil.copytree(source, target, ignore=shutil.ignore_patterns("__pycache__"))


def _script(project: Path, docs: str) -> dict[str, object]:
    text = (resources.files("hands.cli.demo") / "script.json").read_text(encoding="utf-8")
    placeholder = json.dumps(str(project))[1:-1]
    return json.loads(text.replace("$PROJECT", placeholder).replace("$DOCS", docs))


@contextmanager
def _docs_server(root: Path) -> Generator[str]:
    """Serve the sample's docs/ on loopback; yields their base URL."""

    class Quiet(SimpleHTTPRequestHandler):
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, directory=str(root), **kwargs)

        def log_message(self, format: str, *args: Any) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Quiet)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


def play(prompt: str, options: QueryOptions, view: SessionView) -> bool:
    """Run one scripted session to its end, shown as it goes; True when it succeeded."""
    ok = False

    async def go() -> None:
        nonlocal ok
        try:
            async for event in query(prompt, options):
                view.show(event)
                if isinstance(event, ResultEvent):
                    ok = not event.is_error
        finally:
            if options.session is not None:
                await options.session.aclose()

    anyio.run(go)
    return ok


def run_demo(*, keep: bool = False, console: Console | None = None) -> int:
    """Run the demo; return 0 when the session ended successfully."""
    console = console or console_for()
    workdir = Path(tempfile.mkdtemp(prefix="hands-demo-"))
    project = workdir / "inventory"
    _copy_sample(project)
    with _docs_server(project / "docs") as docs, _home_in(workdir / "hands-home"):
        return _run(project, workdir, docs, keep=keep, console=console)


@contextmanager
def _home_in(home: Path) -> Generator[None]:
    """The demo's sessions, results and caches go to ``home``, not the user's hands home."""
    before = given("HANDS_HOME")
    os.environ["HANDS_HOME"] = str(home)
    try:
        yield
    finally:
        if before is None:
            os.environ.pop("HANDS_HOME", None)
        else:
            os.environ["HANDS_HOME"] = before


def _run(project: Path, workdir: Path, docs: str, *, keep: bool, console: Console) -> int:
    from hands.agent.subagents.tool import AgentTool
    from hands.cli.demo.explore import explore_model, with_explore_step

    main = ScriptedModel(with_explore_step(_script(project, docs), project), name="scripted:demo")
    model = explore_model(main, project)
    pool = pool_for(extra=[AgentTool()])
    startup.done()  # every model is built: the demo's commands see the user's environment
    view = SessionView(console, pool)

    async def approve(request: AskRequest) -> PermissionDecision:
        console.print(Text(f"  ? {request.message} → approved by the demo", style="yellow"))
        return allow("approved by the demo")

    console.print(
        Panel(
            Text.assemble(
                ("hands demo", "bold"),
                " · scripted model, real tools, offline\n",
                f"project: {project}\n",
                "mode: acceptEdits (edits run, shell commands are asked for)\n\n",
                ("> ", "bold cyan"),
                PROMPT,
            ),
            expand=False,
        )
    )
    session = Session()
    # the docs are served on loopback, which WebFetch reaches only for a host the settings
    # open by name: the demo opens it as sandbox.network.allowedDomains would
    session.service(NetworkDomains, lambda: NetworkDomains(allowed=("127.0.0.1",)))
    options = QueryOptions(
        model=model,
        tools=pool,
        cwd=project,
        permission_mode="acceptEdits",
        ask=approve,
        session=session,
    )
    ok = play(PROMPT, options, view)
    if ok:
        from hands.cli.demo.browser_step import run_browser_step

        ok = run_browser_step(docs, project, console=console, ask=approve)
    if keep:
        console.print(Text(f"sample project kept at {project}", style="dim"))
    else:
        shutil.rmtree(workdir, ignore_errors=True)
    return 0 if ok else 1
