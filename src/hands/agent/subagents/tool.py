"""Agent (legacy name Task): hand a task to a sub-agent with a conversation of its own.

The sub-agent works in isolation: its tool calls never enter the caller's conversation,
only its final message comes back, with its id, tool-use count, duration and tokens in
the structured output. Spawning never asks; the sub-agent's own calls go through the
caller's permission engine and ask handler.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar, Literal

from pydantic import Field
from pydantic.json_schema import SkipJsonSchema

from hands.agent.subagents.catalog import AgentCatalog
from hands.agent.subagents.definition import AgentDefinition
from hands.agent.subagents.limits import MAX_OUTPUT_CHARS
from hands.agent.subagents.progress import SubagentUpdate
from hands.agent.subagents.servers import AgentServers
from hands.core.context import ToolContext
from hands.core.schema import ToolInput
from hands.core.subject import names_value
from hands.core.tool import Progress, Tool, ToolResult
from hands.errors import ToolError
from hands.models.base import Usage


class AgentInput(ToolInput):
    """Input of Agent."""

    ignored_fields: ClassVar[Mapping[str, str]] = {
        "name": "sub-agents are addressed by the id in the result",
        "team_name": "hands has no agent teams",
        "mode": "a sub-agent runs under the session's permission mode and rules",
    }

    description: str = Field(description="A short (3-5 word) label of the task")
    prompt: str = Field(description="The task for the agent, with everything it needs to know")
    subagent_type: str | None = Field(
        default=None,
        description="The agent type to use (default: general-purpose, also called claude)",
    )
    model: str | None = Field(
        default=None,
        description="sonnet, opus, haiku (or fable: your own model) or a model id; default: "
        "the agent type's model",
    )
    run_in_background: bool | None = Field(
        default=None,
        description=(
            "true (the default): start it and return at once with its id; you are told when "
            "it finishes, with its result. false: wait for its result, only when your very "
            "next step needs it"
        ),
    )
    isolation: Literal["worktree", "remote"] | None = Field(
        default=None,
        description="worktree: work in a fresh git worktree of the project on its own "
        "branch (remote is not available here)",
    )
    effort: Literal["low", "medium", "high", "xhigh", "max"] | None = Field(
        default=None,
        description="How hard the agent thinks, only when the user or the project's "
        "instructions ask for a level; leave it out otherwise (it then runs at your effort)",
    )
    name: SkipJsonSchema[str | None] = None
    team_name: SkipJsonSchema[str | None] = None
    mode: SkipJsonSchema[
        Literal["acceptEdits", "auto", "bypassPermissions", "default", "dontAsk", "plan"] | None
    ] = None


@dataclass(frozen=True, kw_only=True, slots=True)
class AgentOutput:
    """What the caller gets: the final text, and the facts of the run."""

    status: Literal["completed", "async_launched"]
    agent_id: str
    agent_type: str
    content: str = ""
    total_tool_use_count: int = 0
    total_duration_ms: float = 0.0
    usage: Usage = field(default_factory=Usage)
    resolved_model: str = ""
    output_file: str = ""
    worktree_path: str = ""
    worktree_branch: str = ""

    @property
    def total_tokens(self) -> int:
        """Input and output tokens of every request the agent made."""
        return self.usage.input_tokens + self.usage.output_tokens


_DESCRIPTION = """\
Start a sub-agent to do a task on its own: it gets a fresh conversation holding only \
your prompt, works with its own tools, and only its final message comes back to you, \
so its searching and reading do not fill your context. Use it for open-ended searches, \
for independent pieces of work, and to review or plan. Several Agent calls in one \
message run in parallel. Write the prompt so it stands alone: the agent has not seen \
this conversation. Say what to return. Its result is not shown to the user: pass on \
what matters.

Agent types (subagent_type; default general-purpose):
{listing}"""


class AgentTool(Tool[AgentInput, AgentOutput]):
    """Run a sub-agent of a type from the catalog."""

    name = "Agent"
    aliases = ("Task",)
    input_model = AgentInput
    subject = names_value("subagent_type")
    max_result_chars = MAX_OUTPUT_CHARS

    def __init__(
        self,
        catalog: AgentCatalog | None = None,
        *,
        model_overrides: Mapping[str, str] | None = None,
        servers: AgentServers | None = None,
        trusted: bool = False,
    ) -> None:
        self.catalog = catalog if catalog is not None else AgentCatalog()
        self.trusted = trusted
        """Whether the workspace is trusted: a worktree's git runs the repository's hooks."""
        self.model_overrides = dict(model_overrides or {})
        self.servers = servers
        """Opens agent files' ``mcpServers``; the host sets it when it runs MCP servers."""
        self.description = _DESCRIPTION.format(listing=self.catalog.listing())

    def use_catalog(self, catalog: AgentCatalog) -> None:
        """Offer ``catalog``'s agent types from now on (agents defined by a host program)."""
        self.catalog = catalog
        self.description = _DESCRIPTION.format(listing=catalog.listing())

    def is_read_only(self, input: AgentInput) -> bool:
        # Spawning changes nothing; the sub-agent's own calls are checked one by one.
        return True

    def is_concurrency_safe(self, input: AgentInput) -> bool:
        return True

    def user_facing_name(self, input: AgentInput | None = None) -> str:
        if input is not None:
            found = self.catalog.find(input.subagent_type)
            if found is not None:
                return found.name
        return self.name

    def describe_input(self, input: AgentInput) -> str:
        return input.description

    async def validate_input(self, input: AgentInput, ctx: ToolContext) -> str | None:
        if input.isolation == "remote":
            return (
                "isolation 'remote' is not available in this session: there is no remote "
                "environment to run agents in. Use isolation 'worktree' for an isolated copy "
                "of the repository, or leave isolation out."
            )
        if not input.prompt.strip():
            return "The prompt is empty: say what the agent should do and what to return."
        if self.catalog.find(input.subagent_type) is None:
            return (
                f"There is no agent type {input.subagent_type!r}. Agent types: "
                f"{', '.join(self.catalog.names)}."
            )
        return None

    def definition(self, input: AgentInput) -> AgentDefinition:
        """The type the call names."""
        found = self.catalog.find(input.subagent_type)
        if found is None:
            raise ToolError(f"There is no agent type {input.subagent_type!r}.")
        return found

    async def call(
        self, input: AgentInput, ctx: ToolContext, progress: Progress
    ) -> ToolResult[AgentOutput]:
        from hands.agent.subagents.launch import launch

        return await launch(self, input, ctx, progress)

    def to_content(self, output: AgentOutput) -> str:
        if output.status == "async_launched":
            return (
                f"Started the {output.agent_type} agent in the background (agent id "
                f"{output.agent_id}). Its progress and result go to {output.output_file}; "
                "read them with TaskOutput. You will be told when it finishes; do other "
                "work meanwhile, and do not wait for it or repeat its task."
            )
        facts = (
            f"agent {output.agent_id} ({output.agent_type}) · "
            f"{output.total_tool_use_count} tool use"
            f"{'' if output.total_tool_use_count == 1 else 's'} · "
            f"{output.total_duration_ms / 1000:.1f} s · {output.total_tokens} tokens"
        )
        if output.worktree_path:
            branch = f" (branch {output.worktree_branch})" if output.worktree_branch else ""
            facts += f"\nworktree: {output.worktree_path}{branch}"
        return f"{output.content}\n\n[{facts}]"

    def render_progress(self, data: Any) -> Any:
        from hands.core.render import dim_text

        if isinstance(data, SubagentUpdate):
            return dim_text(data.line())
        return dim_text(str(data))
