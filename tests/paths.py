"""Where the tests find the repository and the shared Claude Code configuration fixtures.

The fixtures (real ``.claude/settings.json``, ``.mcp.json`` and agent files from public
projects) live beside the repository, in ``shared/fixtures/claude-configs``; set
``HANDS_CLAUDE_CONFIGS`` to read them from elsewhere. Tests that need them are marked
``needs_claude_configs`` and skip, saying where they looked, when they are absent.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
CLAUDE_CONFIGS = Path(
    os.environ.get("HANDS_CLAUDE_CONFIGS", REPO.parent / "shared" / "fixtures" / "claude-configs")
).resolve()
SETTINGS_FIXTURES = CLAUDE_CONFIGS / "settings"
MCP_FIXTURES = CLAUDE_CONFIGS / "mcp"

needs_claude_configs = pytest.mark.skipif(
    not CLAUDE_CONFIGS.is_dir(), reason=f"no shared Claude Code configs at {CLAUDE_CONFIGS}"
)
