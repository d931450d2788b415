"""AskUserQuestion: the model asks the user one to four multiple-choice questions.

Only a person can answer, so the call always goes to whoever answers permission
questions: the REPL shows each question as a list to pick from (with an added free-text
"Other"), a library caller answers through ``QueryOptions.answer_questions``, and print
mode needs a PreToolUse hook that answers through ``updatedInput.answers``. It is never
approved by a mode or a rule, is refused in ``dontAsk`` and is not given to sub-agents.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Self, TypeAlias, cast

from pydantic import BaseModel, ConfigDict, Field, model_validator

from hands.core.context import ToolContext
from hands.core.decision import AskHandler, AskRequest, PermissionDecision, allow, deny
from hands.core.schema import ToolInput
from hands.core.tool import Progress, Tool, ToolResult
from hands.errors import ToolError

MAX_HEADER_CHARS = 12
OTHER = "Other"
"""The free-text choice added to every question."""


class QuestionOption(BaseModel):
    """One choice."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    label: str = Field(min_length=1, description="The choice, in a few words")
    description: str = Field(description="What choosing it means")
    preview: str | None = Field(default=None, description="Optional text shown beside it")

    @model_validator(mode="before")
    @classmethod
    def _older_shape(cls, data: object) -> object:
        """An option's ``markdown`` (its older name) is its ``preview``."""
        if not isinstance(data, dict):
            return data
        option = dict(cast(dict[str, object], data))
        older = option.pop("markdown", None)
        if older is not None and option.get("preview") is None:
            option["preview"] = older
        return option


class Question(BaseModel):
    """One question and its choices."""

    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True)

    question: str = Field(min_length=1, description="The whole question, ending in '?'")
    header: str = Field(
        min_length=1,
        # no maximum is enforced: models send longer ones, and Claude Code takes them
        description=f"A label of at most {MAX_HEADER_CHARS} characters ('Database')",
    )
    options: list[QuestionOption] = Field(
        min_length=2, max_length=4, description="2 to 4 choices; a free-text one is added"
    )
    multi_select: bool = Field(
        default=False, alias="multiSelect", description="Whether several choices may be picked"
    )

    @model_validator(mode="after")
    def _labels_differ(self) -> Self:
        labels = [o.label for o in self.options]
        if len(set(labels)) != len(labels):
            raise ValueError(f"the choices of {self.question!r} must have different labels")
        return self


class AskUserQuestionInput(ToolInput):
    """Input of AskUserQuestion."""

    questions: list[Question] = Field(min_length=1, max_length=4, description="1 to 4 questions")
    answers: dict[str, str] | None = Field(
        default=None,
        description="Filled in by whoever answers (question → chosen label); never by you",
    )
    annotations: dict[str, Any] | None = None
    metadata: dict[str, Any] | None = None

    @model_validator(mode="after")
    def _questions_differ(self) -> Self:
        texts = [q.question for q in self.questions]
        if len(set(texts)) != len(texts):
            raise ValueError("each question must be asked once (the texts must differ)")
        return self


@dataclass(frozen=True, kw_only=True, slots=True)
class AskUserQuestionResult:
    """The questions and what the user chose (labels, or their own words)."""

    questions: tuple[Question, ...]
    answers: Mapping[str, str]


QuestionHandler: TypeAlias = Callable[[Sequence[Question]], Awaitable[Mapping[str, str] | None]]
"""Answers the questions (question text → chosen label, several joined by ", ", or free
text); ``None``: the user declined."""


class AskUserQuestionTool(Tool[AskUserQuestionInput, AskUserQuestionResult]):
    """Ask the user multiple-choice questions."""

    name = "AskUserQuestion"
    description = (
        "Ask the user 1-4 multiple-choice questions when you need their decision to go "
        "on: a preference, a requirement that is unclear, a choice between approaches. "
        "Each question has a short header (at most 12 characters) and 2-4 options, each "
        "with a label and a description; the user may always type another answer instead. "
        "Set multiSelect when several options may apply. Put the option you recommend "
        "first. Do not use it to ask whether a plan is ready or to ask for permission."
    )
    input_model = AskUserQuestionInput
    should_defer = True
    always_asks = True
    hook_allow_needs_input = True
    subagent_use = "never"
    search_hint = "ask the user a multiple choice question, clarify a decision"

    def is_read_only(self, input: AskUserQuestionInput) -> bool:
        return True

    def is_concurrency_safe(self, input: AskUserQuestionInput) -> bool:
        return True

    def describe_input(self, input: AskUserQuestionInput) -> str:
        return " · ".join(q.header for q in input.questions)

    async def call(
        self, input: AskUserQuestionInput, ctx: ToolContext, progress: Progress
    ) -> ToolResult[AskUserQuestionResult]:
        if not input.answers:
            raise ToolError(
                "No one answered the questions: nobody who can answer is present in this "
                "session. Go on with the most reasonable choice and say which you made, or "
                "stop and ask in your reply."
            )
        return ToolResult(
            output=AskUserQuestionResult(questions=tuple(input.questions), answers=input.answers)
        )

    def to_content(self, output: AskUserQuestionResult) -> str:
        lines = ["The user answered:"]
        for q in output.questions:
            lines.append(f'- "{q.question}" → {output.answers.get(q.question, "(no answer)")}')
        lines.append("Go on with these answers in mind.")
        return "\n".join(lines)


def answered(request: AskRequest, answers: Mapping[str, str] | None) -> PermissionDecision:
    """The decision once someone answered (or declined) the questions of ``request``."""
    if not answers:
        return deny(
            "The user declined to answer the questions. Do not ask them again; go on "
            "without the answers or ask in plain words what you need.",
            "declined",
        )
    data = request.input.model_dump(by_alias=True, exclude_none=True)
    data["answers"] = dict(answers)
    return allow("answered by the user", updated_input=data)


def answering(handler: QuestionHandler, fallback: AskHandler | None) -> AskHandler:
    """An ask handler that gives questions to ``handler`` and the rest to ``fallback``."""

    async def ask(request: AskRequest) -> PermissionDecision:
        if isinstance(request.input, AskUserQuestionInput):
            return answered(request, await handler(request.input.questions))
        if fallback is None:
            return deny(
                f"{request.tool.name} needs approval ({request.message}), and nobody is "
                "available to approve it in this session. Do not retry this call; use an "
                "allowed tool or tell the user which permission is needed.",
                "no ask handler",
            )
        return await fallback(request)

    return ask
