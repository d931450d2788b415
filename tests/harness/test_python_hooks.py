"""Python hooks given to ``Harness.open`` run beside the settings' command hooks."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import anyio
from scratch import LOG_HOOK, hook_calls, write

from hands.harness.harness import Harness
from hands.hooks.callbacks import HookCallbacks
from hands.testing import ScriptedModel


def test_callbacks_run_beside_the_settings_hooks_and_may_deny(tmp_path: Path) -> None:
    from hands.config.trust import trust

    project = tmp_path / "project"
    write(project / ".claude" / "settings.json", {"hooks": LOG_HOOK})
    trust(project)
    seen: list[str] = []
    hooks = HookCallbacks()

    @hooks.on("PreToolUse", matcher="Bash")
    def no_touch(data: dict[str, Any]) -> dict[str, Any] | None:
        seen.append(data["tool_input"]["command"])
        if "touch" not in data["tool_input"]["command"]:
            return None
        decision = {"permissionDecision": "deny", "permissionDecisionReason": "no new files"}
        return {"hookSpecificOutput": {"hookEventName": "PreToolUse", **decision}}

    model = ScriptedModel.from_turns(
        [{"type": "tool_use", "name": "Bash", "input": {"command": "touch made.txt"}}],
        [{"type": "tool_use", "name": "Bash", "input": {"command": "echo fine"}}],
        [{"type": "text", "text": "done"}],
    )

    async def main() -> None:
        async with Harness.open(project, model=model, hooks=hooks) as harness:
            async for _ in harness.query("go"):
                pass

    anyio.run(main)
    assert seen == ["touch made.txt", "echo fine"]
    assert hook_calls(project) == ["Bash", "Bash"]  # the settings' command hook ran too
    assert not (project / "made.txt").exists()
    results = [m for m in model.requests[-1].messages if m.role == "user"]
    assert "no new files" in str(results[1].content)
