"""Helpers: an engine from rule lists, and one decision for a real tool call."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import anyio
import pytest

from hands.core.context import PermissionMode, ToolContext
from hands.core.decision import PermissionDecision
from hands.core.session import Session
from hands.permissions.engine import PermissionEngine
from hands.permissions.rules import RuleOrigin, parse_rules
from hands.pipeline.pool import assemble_pool


@dataclass
class World:
    """A project directory, a home directory and the rules of one settings file."""

    project: Path
    home: Path

    def engine(
        self,
        *,
        allow: Sequence[str] = (),
        ask: Sequence[str] = (),
        deny: Sequence[str] = (),
        additional: Sequence[Path] = (),
        disable_bypass: bool = False,
    ) -> PermissionEngine:
        settings = self.project / ".claude" / "settings.json"
        origin = RuleOrigin(
            scope="projectSettings", label=str(settings), root=self.project, path=settings
        )
        rules = []
        warnings = []
        for behavior, texts in (("deny", deny), ("ask", ask), ("allow", allow)):
            parsed, problems = parse_rules(texts, behavior, origin)  # type: ignore[arg-type]
            rules.extend(parsed)
            warnings.extend(problems)
        assert not [w for w in warnings if "unknown tool" not in w.message], warnings
        return PermissionEngine(
            rules, home=self.home, additional_dirs=additional, disable_bypass=disable_bypass
        )

    def ctx(self, mode: PermissionMode = "default", cwd: Path | None = None) -> ToolContext:
        return ToolContext(
            cwd=cwd or self.project,
            project_dir=self.project,
            permission_mode=mode,
            session=Session(home=self.home / ".hands"),
        )

    def decide(
        self,
        engine: PermissionEngine,
        tool: str,
        data: Mapping[str, Any],
        mode: PermissionMode = "default",
        cwd: Path | None = None,
    ) -> PermissionDecision:
        found = assemble_pool().find(tool)
        assert found is not None, tool
        parsed = found.parse_input(data)
        ctx = self.ctx(mode, cwd)

        async def go() -> PermissionDecision:
            return await engine.decide(found, parsed, ctx)

        return anyio.run(go)


@pytest.fixture
def world(tmp_path: Path) -> World:
    project = tmp_path / "proj"
    home = tmp_path / "home"
    (project / "src").mkdir(parents=True)
    (project / ".git").mkdir()
    home.mkdir()
    return World(project=project.resolve(), home=home.resolve())
