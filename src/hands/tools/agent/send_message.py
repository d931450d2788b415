"""SendMessage: a message to a running background agent, or from one to the main agent.

The message waits in the recipient's inbox and comes as a user turn before its next
model request: a running agent reads it after the step it is on. An agent that has ended
(completed, failed or stopped) is resumed: it goes on from its own conversation with the
message as its next user turn, in the background, and its new result comes as a notice.
From a sub-agent, ``to: "main"`` writes to the main agent.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import ClassVar

from pydantic import Field, field_validator
from pydantic.json_schema import SkipJsonSchema

from hands.core.background import BackgroundAgent, BackgroundAgents
from hands.core.context import ToolContext
from hands.core.decision import PermissionDecision, allow
from hands.core.inbox import Inbox
from hands.core.schema import ToolInput
from hands.core.tool import Progress, Tool, ToolResult
from hands.errors import ToolError

MAIN = "main"
MAX_SUMMARY_CHARS = 200


class SendMessageInput(ToolInput):
    """Input of SendMessage."""

    ignored_fields: ClassVar[Mapping[str, str]] = {
        "notify_when_idle": "a background agent's end always comes as a notice; there is "
        "no other idle notice to ask for",
    }

    to: str = Field(
        description="The recipient: a background agent's id (or its task, as ListAgents "
        'shows it), or "main" from a sub-agent',
        max_length=300,
        pattern=r"^[^\n\r]*$",
    )
    message: str = Field(
        default="",
        description="The message; make its first line say what it is about",
    )
    summary: str | None = Field(
        default=None, description="A few words for your own record of the message"
    )
    notify_when_idle: SkipJsonSchema[bool | None] = Field(default=None, exclude=True)

    @field_validator("summary")
    @classmethod
    def _short(cls, value: str | None) -> str | None:
        return None if value is None else value[:MAX_SUMMARY_CHARS]


@dataclass(frozen=True, kw_only=True, slots=True)
class SendMessageResult:
    """Who the message went to."""

    to: str
    description: str
    resumed: bool = False


class SendMessageTool(Tool[SendMessageInput, SendMessageResult]):
    """Send a message to another agent of the session."""

    name = "SendMessage"
    description = (
        "Send a message to a background agent that is still running (by its id, or its "
        "task as ListAgents shows it): it reads the message before its next step, as a "
        "new instruction. An agent that has finished or was stopped is resumed: it goes on "
        "from its own conversation with your message, and its new result comes as a notice. "
        'From a sub-agent, to "main" writes to the main agent.'
    )
    input_model = SendMessageInput
    should_defer = True
    in_background_agents = True
    search_hint = "send a message to a running background agent"

    async def check_permissions(
        self, input: SendMessageInput, ctx: ToolContext
    ) -> PermissionDecision:
        return allow("a message between the session's own agents")

    async def validate_input(self, input: SendMessageInput, ctx: ToolContext) -> str | None:
        if not input.message.strip():
            return "The message is empty: say what the recipient should know or do."
        if input.to.strip() == MAIN and ctx.agent_id is None:
            return 'You are the main agent: "main" is you. Send to a background agent\'s id.'
        return None

    async def call(
        self, input: SendMessageInput, ctx: ToolContext, progress: Progress
    ) -> ToolResult[SendMessageResult]:
        inbox = ctx.session.service(Inbox)
        sender = "the main agent" if ctx.agent_id is None else f"agent {ctx.agent_id}"
        text = f"Message from {sender}:\n{input.message}"
        if input.to.strip() == MAIN:
            inbox.deliver(None, text)
            return ToolResult(output=SendMessageResult(to=MAIN, description="the main agent"))
        agent = _recipient(BackgroundAgents.for_session(ctx.session), input.to)
        if agent.status != "running" and agent.resume is not None:
            agent.resume(text)
            return ToolResult(
                output=SendMessageResult(to=agent.id, description=agent.description, resumed=True)
            )
        inbox.deliver(agent.id, text)
        return ToolResult(output=SendMessageResult(to=agent.id, description=agent.description))

    def to_content(self, output: SendMessageResult) -> str:
        if output.to == MAIN:
            return "Sent to the main agent; it reads the message before its next step."
        if output.resumed:
            return (
                f"Agent {output.to} ({output.description}) had ended; it is resumed in the "
                "background with your message as its next turn. Its new result comes as a "
                "notice when it ends; do other work meanwhile."
            )
        return (
            f"Sent to agent {output.to} ({output.description}); it reads the message before "
            "its next step. Its result comes as a notice when it ends."
        )

    def describe_input(self, input: SendMessageInput) -> str:
        return f"to {input.to}: {input.summary or input.message.splitlines()[0][:60]}"


def _recipient(agents: BackgroundAgents, to: str) -> BackgroundAgent:
    found = agents.named(to)
    if not found:
        listed = "\n".join(f"- {a.id} ({a.status}): {a.description}" for a in agents.all())
        raise ToolError(
            f"No background agent is called {to!r}."
            + (f" The session's agents:\n{listed}" if listed else " None was started.")
        )
    if len(found) > 1:
        ids = ", ".join(a.id for a in found)
        raise ToolError(f"Several agents have the task {to!r} ({ids}); send to one id.")
    agent = found[0]
    if agent.status != "running" and agent.resume is None:
        raise ToolError(
            f"Agent {agent.id} ({agent.description}) has {agent.status} and cannot be "
            "resumed (it was stopped before its first reply, or its worktree is gone); its "
            "output is in TaskOutput. Start a new Agent with what it needs to go on."
        )
    return agent
