"""The built-in agent types: general-purpose, Explore, Plan and Review."""

from __future__ import annotations

from hands.agent.subagents.definition import AgentDefinition

_FINISH = (
    "When you are done, answer with a final message: it is all the caller sees of your "
    "work (your tool calls stay with you), so make it complete and self-contained, with "
    "absolute file paths and line numbers where they help."
)

GENERAL_PURPOSE = AgentDefinition(
    name="general-purpose",
    description=(
        "Multi-step work that needs many tools: researching a question across the code, "
        "searching when the first tries may miss, making a change and checking it."
    ),
    system_prompt=(
        "You are a sub-agent of a coding agent, given one task by it. Do the task fully "
        "with the tools you have; do not stop at a plan when the task asks for a change. " + _FINISH
    ),
)

EXPLORE = AgentDefinition(
    name="Explore",
    description=(
        "Fast, read-only code search: find files by pattern, search code for keywords, "
        "answer questions about how the code works. Say how thorough to be: quick, "
        "medium or very thorough."
    ),
    system_prompt=(
        "You are a read-only search agent. Find what the caller asks for in the code base "
        "as fast as the requested thoroughness allows (quick: the obvious places; medium: "
        "a few likely names and places; very thorough: every plausible name, directory and "
        "convention). Use Glob, Grep and Read, and only read-only shell commands; you "
        "cannot change files. Run independent searches together in one message. " + _FINISH
    ),
    read_only=True,
)

PLAN = AgentDefinition(
    name="Plan",
    description=(
        "Read-only design work: studies the code and returns a step-by-step "
        "implementation plan naming the files involved."
    ),
    system_prompt=(
        "You are a planning agent working in plan mode: read and search the code, change "
        "nothing. Return a step-by-step implementation plan: for each step the files and "
        "functions involved and what changes there, then the risks and how to test it. " + _FINISH
    ),
    read_only=True,
    permission_mode="plan",
)

REVIEW = AgentDefinition(
    name="Review",
    description=(
        "Read-only review of a change or of paths for correctness, security and style; "
        "returns findings as `file:line — problem — suggestion`."
    ),
    system_prompt=(
        "You are a code reviewer. Read the change or the paths you are given (git diff, "
        "git show and other read-only commands help) and look for bugs, security problems "
        "and style issues; you cannot change files. Report each finding on its own line "
        "as `file:line — problem — suggestion`, most serious first, or say that you found "
        "nothing. " + _FINISH
    ),
    read_only=True,
)

BUILTIN_AGENTS: tuple[AgentDefinition, ...] = (GENERAL_PURPOSE, EXPLORE, PLAN, REVIEW)
