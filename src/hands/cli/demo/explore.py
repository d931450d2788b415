"""The demo's sub-agent step: an Explore agent locates the bug before the fix.

It adds one turn to the main script, after the first look around: the main agent hands
the search to an Explore agent, whose own scripted turns (a Grep, then its answer) are
served to it alone; only its answer comes back into the main conversation.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from hands.models.base import Model
from hands.models.scripted import ScriptedAgents, ScriptedModel
from hands.tools.search.grep import GrepTool

TASK = "Locate where the stock's total value is computed and say what is wrong with it"


def with_explore_step(script: dict[str, Any], project: Path) -> dict[str, Any]:
    """The main script with the turn that starts the Explore agent, after the first turn."""
    turns = list(script["turns"])
    step = {
        "blocks": [
            {
                "type": "text",
                "text": "An Explore agent can find where the total is computed while I keep "
                "my context for the fix.",
            },
            {
                "type": "tool_use",
                "name": "Agent",
                "input": {
                    "description": "Locate the total",
                    "prompt": f"{TASK}, in {project}. Be quick: give file:line.",
                    "subagent_type": "Explore",
                    "run_in_background": False,
                },
            },
        ]
    }
    turns.insert(1, step)
    return {**script, "turns": turns}


def explore_model(main: ScriptedModel, project: Path) -> Model:
    """The demo's model: the main script, and the Explore agent's own."""
    agent = ScriptedModel.from_turns(
        [
            {
                "type": "tool_use",
                "id": "toolu_explore_grep",
                "name": GrepTool.name,
                "input": {
                    "pattern": "def total_value|unit_price",
                    "path": str(project / "inventory"),
                    "output_mode": "content",
                    "-n": True,
                },
            }
        ],
        [
            {
                "type": "text",
                "text": "`Stock.total_value` is at inventory/stock.py:29. Line 30 sums "
                "`item.unit_price` alone: the quantity of each item is never multiplied in.",
            }
        ],
    )
    return ScriptedAgents(main, {TASK: agent}, name=main.name)
