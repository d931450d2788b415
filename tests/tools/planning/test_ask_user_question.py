"""AskUserQuestion: answered by a callback or a hook, never by a mode, refused without one."""

from __future__ import annotations

import json
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import pytest

from hands.core.decision import AskRequest, PermissionDecision
from hands.tools.planning.ask_user_question import AskUserQuestionTool, Question
from tools.planning.kit import COLOR, SIZES, blocks_of, print_session, run, use

pytestmark = pytest.mark.anyio
ASK = AskUserQuestionTool.name


@pytest.fixture
def project(tmp_path: Path) -> Path:
    root = tmp_path / "project"
    root.mkdir()
    return root


async def test_the_library_callback_answers_and_the_model_reads_the_answers(
    project: Path,
) -> None:
    seen: list[list[str]] = []

    async def answer(questions: Sequence[Question]) -> Mapping[str, str]:
        seen.append([q.header for q in questions])
        return {"Which colour?": "Blue", "Which sizes?": "S, L"}

    (out,) = await run(project, [use(ASK, questions=[COLOR, SIZES])], answer_questions=answer)
    assert seen == [["Colour", "Sizes"]]
    assert out.status == "ok", out.block.text
    assert '"Which colour?" → Blue' in out.block.text and '"Which sizes?" → S, L' in out.block.text
    assert out.output.answers == {"Which colour?": "Blue", "Which sizes?": "S, L"}


async def test_a_declined_question_is_refused_and_other_asks_still_reach_the_ask_handler(
    project: Path,
) -> None:
    async def decline(questions: Sequence[Question]) -> None:
        return None

    asked: list[str] = []

    async def ask(request: AskRequest) -> PermissionDecision:
        asked.append(request.tool.name)
        return PermissionDecision(behavior="deny", message="no")

    outs = await run(
        project,
        [use(ASK, questions=[COLOR]), use("Bash", command="touch made.txt")],
        answer_questions=decline,
        ask=ask,
    )
    assert outs[0].status == "rejected" and "declined" in outs[0].block.text
    assert asked == ["Bash"]


@pytest.mark.parametrize("mode", ["default", "bypassPermissions", "acceptEdits", "plan"])
@pytest.mark.parametrize("engine", [True, False])
async def test_no_mode_approves_it_and_the_ask_handler_always_sees_it(
    project: Path, mode: Any, engine: bool
) -> None:
    asked: list[str] = []

    async def ask(request: AskRequest) -> PermissionDecision:
        asked.append(request.message)
        data = request.input.model_dump(by_alias=True, exclude_none=True)
        return PermissionDecision(
            behavior="allow", updated_input={**data, "answers": {"Which colour?": "Red"}}
        )

    (out,) = await run(project, [use(ASK, questions=[COLOR])], mode=mode, engine=engine, ask=ask)
    assert len(asked) == 1 and out.status == "ok" and "→ Red" in out.block.text


@pytest.mark.parametrize("engine", [True, False])
async def test_dont_ask_and_nobody_to_answer_are_errors_the_model_can_act_on(
    project: Path, engine: bool
) -> None:
    (refused,) = await run(project, [use(ASK, questions=[COLOR])], mode="dontAsk", engine=engine)
    assert refused.is_error and "dontAsk" in refused.block.text
    (alone,) = await run(project, [use(ASK, questions=[COLOR])], engine=engine)
    assert alone.is_error and "nobody" in alone.block.text


@pytest.mark.parametrize(
    "questions",
    [
        [{**COLOR, "header": "A header too long"}],
        [{**COLOR, "options": COLOR["options"][:1]}],
        [{**COLOR, "options": [COLOR["options"][0]] * 2}],
        [COLOR, COLOR],
        [],
        [dict(COLOR, question=f"Q{i}?") for i in range(5)],
    ],
)
async def test_malformed_questions_are_refused_before_anyone_is_asked(
    project: Path, questions: list[dict[str, Any]]
) -> None:
    async def answer(questions: Sequence[Question]) -> Mapping[str, str]:
        raise AssertionError("asked about malformed questions")

    (out,) = await run(project, [use(ASK, questions=questions)], answer_questions=answer)
    assert out.is_error


def test_it_is_never_given_to_sub_agents_and_is_deferred() -> None:
    tool = AskUserQuestionTool()
    assert tool.subagent_use == "never" and tool.always_asks and tool.hook_allow_needs_input
    assert tool.should_defer


HOOK = """
import json, sys
data = json.load(sys.stdin)
tool_input = dict(data["tool_input"])
tool_input["answers"] = {q["question"]: q["options"][-1]["label"] for q in tool_input["questions"]}
print(json.dumps({"hookSpecificOutput": {"hookEventName": "PreToolUse",
    "permissionDecision": "allow", "updatedInput": tool_input}}))
"""


def print_mode(project: Path, tmp_path: Path, settings: dict[str, Any]) -> list[dict[str, Any]]:
    call = use(ASK, questions=[COLOR])
    lines = print_session(project, tmp_path / "s.json", call, "--settings", json.dumps(settings))
    return blocks_of(lines, "user", "tool_result")


def test_print_mode_needs_a_hook_that_answers(project: Path, tmp_path: Path) -> None:
    (refused,) = print_mode(project, tmp_path, {})
    assert refused["is_error"] is True
    hook = tmp_path / "answer.py"
    hook.write_text(HOOK)
    settings = {
        "hooks": {
            "PreToolUse": [
                {
                    "matcher": ASK,
                    "hooks": [{"type": "command", "command": f"{sys.executable} {hook}"}],
                }
            ]
        }
    }
    (answered,) = print_mode(project, tmp_path, settings)
    assert not answered.get("is_error"), answered
    text = json.dumps(answered["content"])
    assert "Blue" in text and "Which colour?" in text
