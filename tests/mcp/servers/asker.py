"""A test MCP server whose tools ask the client: sampling and elicitation (form and URL).

Run: python asker.py (stdio)
"""

from __future__ import annotations

import atexit
import gc
import json

from mcp.server.mcpserver import Context, MCPServer
from mcp.shared.exceptions import MCPError
from mcp_types import SamplingMessage, TextContent
from pydantic import BaseModel, Field

# the interpreter's last sweep over the MCP SDK's objects at exit was a fifth of this
# server's CPU, and the tests start it many times: skipped, as the hands command skips
# it (hands.cli.shutdown)
atexit.register(gc.freeze)

mcp = MCPServer("asker")


@mcp.tool()
async def summarize(text: str, ctx: Context, max_tokens: int = 77) -> str:
    """Ask the client's model for a one-line summary of ``text`` (sampling/createMessage)."""
    try:
        result = await ctx.session.create_message(
            messages=[SamplingMessage(role="user", content=TextContent(type="text", text=text))],
            max_tokens=max_tokens,
            system_prompt="Summarize in one line.",
        )
    except MCPError as exc:
        return f"refused: {exc.error.message}"
    content = result.content
    said = content.text if isinstance(content, TextContent) else str(content)
    return json.dumps({"text": said, "model": result.model, "stop": result.stop_reason})


@mcp.tool()
def caps(ctx: Context) -> str:
    """The client's sampling and elicitation capabilities, as JSON."""
    got = ctx.session.client_capabilities
    elicitation = got.elicitation if got is not None else None
    return json.dumps(
        {
            "sampling": got is not None and got.sampling is not None,
            "elicitation": None
            if elicitation is None
            else elicitation.model_dump(by_alias=True, exclude_none=True),
        }
    )


class Order(BaseModel):
    dish: str = Field(description="What to eat")
    count: int = Field(default=1, description="How many")
    spicy: bool = Field(default=False, description="Hot?")
    size: str = Field(
        default="medium",
        description="Portion",
        json_schema_extra={"enum": ["small", "medium", "large"]},
    )


@mcp.tool()
async def order(ctx: Context) -> str:
    """Ask the user for an order in a form (elicitation/create, form mode)."""
    result = await ctx.elicit("What would you like to order?", Order)
    data = getattr(result, "data", None)
    return json.dumps({"action": result.action, "data": data.model_dump() if data else None})


@mcp.tool()
async def sign_in(ctx: Context) -> str:
    """Send the user to a page (elicitation/create, URL mode)."""
    result = await ctx.session.elicit_url(
        "Sign in to continue", "https://example.com/sign-in?x=1", "sign-in-1"
    )
    return json.dumps({"action": result.action})


if __name__ == "__main__":
    mcp.run()
