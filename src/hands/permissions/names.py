"""Claude Code's tools that are not hands built-ins: names rules and matchers may use.

A rule or hook matcher written for Claude Code may name a tool hands has no module for
(``WebFetch(domain:...)``, ``Agent(Explore)``). These tables say what such a rule's
specifier means, so it parses and warns as in Claude Code, and which legacy names mean
them. Tools hands ships declare the same facts on themselves (:mod:`hands.core.subject`,
``Tool.aliases``); nothing here names one of them.
"""

from __future__ import annotations

from typing import Final

from hands.core.subject import (
    RuleSubject,
    names_value,
    reads_path,
    runs_command,
)

CLAUDE_CODE_SUBJECTS: Final[dict[str, RuleSubject | None]] = {
    "Agent": names_value("subagent_type"),
    "Skill": names_value("skill", strip_slash=True),
    "LSP": reads_path(),
    "Monitor": runs_command(),
    "PowerShell": runs_command(ignore_case=True),
    **dict.fromkeys(
        (
            "Artifact", "CronCreate", "CronDelete", "CronList",
            "EndConversation",
            "ListMcpResourcesTool", "PushNotification", "ReadMcpResourceTool",
            "RemoteTrigger", "ReportFindings", "ScheduleWakeup", "SendUserFile",
            "ShareOnboardingGuide", "TodoRead", "ToolSearch", "WaitForMcpServers", "Workflow",
        ),
        None,
    ),
}  # fmt: skip
"""Claude Code's tool names with the subject their rules match (None: the name only)."""

CLAUDE_CODE_LEGACY: Final[dict[str, str]] = {
    "Task": "Agent",
    "SlashCommand": "Skill",
}
"""Legacy names of Claude Code's tools above → their current names."""
