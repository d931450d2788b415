"""The Skill tool: skills found, listed within a budget, invoked, their allowed-tools honoured."""

from __future__ import annotations

from pathlib import Path

import pytest

from hands.agent.loop import QueryOptions, query
from hands.config.settings import load_settings
from hands.orchestration.events import ToolResultEvent
from hands.permissions.policy import engine_for
from hands.pipeline.pool import BuiltinGrammar, pool_for
from hands.testing import ScriptedModel
from hands.tools.skill._skills import listing, load_skills
from hands.tools.skill.skill import SkillTool


def write_skill(root: Path, folder: str, front: str, body: str, sub: str = ".claude") -> Path:
    directory = root / sub / "skills" / folder
    directory.mkdir(parents=True)
    (directory / "SKILL.md").write_text(f"---\n{front}\n---\n{body}\n")
    return directory


def test_skills_are_found_in_project_and_user_folders_and_listed_within_a_budget(
    tmp_path: Path,
) -> None:
    home, project = tmp_path / "home", tmp_path / "project"
    write_skill(home, "notes", "description: the user's notes skill", "user body")
    write_skill(home, "deploy", "name: deploy\ndescription: ship it", "user deploy", sub=".hands")
    write_skill(project, "deploy", "name: deploy\ndescription: the project's deploy", "project")
    write_skill(project, "broken", "description: [oops", "x")
    found = load_skills(cwd=project, home=home, trusted=True)
    # a project skill never replaces the user's: it is offered beside it, named apart
    assert [s.name for s in found.skills] == ["deploy", "notes", "project:deploy"]
    deploy, theirs = found.find("/deploy"), found.find("project:deploy")
    assert deploy is not None and deploy.instructions == "user deploy"
    assert theirs is not None and theirs.instructions == "project"
    assert len(found.warnings) == 1 and "broken" in found.warnings[0]
    assert listing(found, 8_000).splitlines() == [
        "- deploy: ship it",
        "- notes: the user's notes skill",
        "- project:deploy: the project's deploy",
    ]
    many = write_skill  # a crowd of skills with long descriptions still fits the budget
    for i in range(40):
        many(project, f"s{i:02d}", f"description: {'word ' * 60}", "b")
    crowd = load_skills(cwd=project, home=home, trusted=True)
    text = listing(crowd, 1_000)
    assert len(text) <= 1_100 and "more skills not listed" in text
    assert text.startswith("- deploy: ")
    assert "- notes" not in SkillTool(crowd, char_budget=1_000).description.split("Skills:")[0]


@pytest.mark.anyio
async def test_a_skill_is_invoked_and_its_allowed_tools_are_allowed_while_active(
    tmp_path: Path,
) -> None:
    directory = write_skill(
        tmp_path,
        "release",
        "name: release\ndescription: cut a release\nallowed-tools: Bash(touch *)",
        "Touch the RELEASED file, then say done.",
    )
    (directory / "checklist.md").write_text("- tag it\n")
    settings = load_settings(tmp_path, env={"HOME": str(tmp_path / "nohome")}, trusted=True)
    engine = engine_for(settings, grammar=BuiltinGrammar())
    skill = SkillTool.load(cwd=tmp_path, home=tmp_path / "nohome", trusted=True)
    model = ScriptedModel.from_turns(
        [{"type": "tool_use", "name": "Bash", "input": {"command": "touch BEFORE"}}],
        [{"type": "tool_use", "name": "Skill", "input": {"skill": "release", "args": "v2"}}],
        [{"type": "tool_use", "name": "Bash", "input": {"command": "touch RELEASED"}}],
        [{"type": "text", "text": "done"}],
    )

    async def ask(request: object) -> object:
        from hands.core.decision import AskRequest, PermissionDecision

        assert isinstance(request, AskRequest)
        # Skill itself asks (no Skill(release) rule); the user says yes to it only
        ok = request.tool.name == "Skill"
        return PermissionDecision(behavior="allow" if ok else "deny", message="no")

    options = QueryOptions(
        model=model,
        tools=pool_for(engine, extra=[skill]),
        cwd=tmp_path,
        policy=engine,
        ask=ask,  # type: ignore[arg-type]
    )
    events = [e async for e in query("release it", options)]
    blocks = [e.outcome.block for e in events if isinstance(e, ToolResultEvent)]
    assert blocks[0].is_error and not (tmp_path / "BEFORE").exists()  # asked, refused
    assert not blocks[1].is_error
    assert "Touch the RELEASED file" in blocks[1].text
    assert f"Read can open: {directory}" in blocks[1].text
    assert "The arguments it was invoked with: v2" in blocks[1].text
    assert not blocks[2].is_error, blocks[2].text  # allowed by the skill, never asked
    assert (tmp_path / "RELEASED").exists()


@pytest.mark.anyio
async def test_skill_rules_decide_invocations_and_unknown_skills_are_errors(
    tmp_path: Path,
) -> None:
    write_skill(tmp_path, "lint", "description: run the linters", "lint it")
    write_skill(tmp_path, "secret", "description: not for the model", "hidden")
    (tmp_path / ".claude" / "settings.json").write_text(
        '{"permissions": {"allow": ["Skill(lint)"], "deny": ["Skill(secret)"]}}'
    )
    settings = load_settings(tmp_path, env={"HOME": str(tmp_path / "nohome")}, trusted=True)
    engine = engine_for(settings, grammar=BuiltinGrammar())
    skill = SkillTool.load(cwd=tmp_path, home=tmp_path / "nohome", trusted=True)
    model = ScriptedModel.from_turns(
        [
            {"type": "tool_use", "name": "Skill", "input": {"skill": "lint"}},
            {"type": "tool_use", "name": "Skill", "input": {"skill": "secret"}},
            {"type": "tool_use", "name": "Skill", "input": {"skill": "nope"}},
        ],
        [{"type": "text", "text": "ok"}],
    )
    options = QueryOptions(
        model=model, tools=pool_for(engine, extra=[skill]), cwd=tmp_path, policy=engine
    )
    events = [e async for e in query("go", options)]
    blocks = [e.outcome.block for e in events if isinstance(e, ToolResultEvent)]
    assert not blocks[0].is_error and "lint it" in blocks[0].text
    assert blocks[1].is_error and "hidden" not in blocks[1].text
    assert (
        blocks[2].is_error
        and "no skill 'nope'" in blocks[2].text
        and "lint, secret" in blocks[2].text
    )


def test_the_listing_budget_is_one_percent_of_the_window_unless_the_environment_says(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from hands.models.catalog import context_window
    from hands.tools.skill.skill import budget

    monkeypatch.delenv("HANDS_SKILL_CHAR_BUDGET", raising=False)
    monkeypatch.delenv("SLASH_COMMAND_TOOL_CHAR_BUDGET", raising=False)
    assert budget({}, window_tokens=context_window("anthropic:claude-sonnet-4-5")) == 8_000
    assert budget({}, window_tokens=context_window("claude-sonnet-4-5[1m]")) == 40_000
    assert budget({}, window_tokens=context_window("openai:gpt-4o")) == 5_120
    assert budget({}) == 8_000  # the window is not known
    assert budget({"HANDS_SKILL_CHAR_BUDGET": "300"}, window_tokens=1_000_000) == 300
    assert budget({"SLASH_COMMAND_TOOL_CHAR_BUDGET": "450"}, window_tokens=200_000) == 450
    for i in range(30):
        write_skill(tmp_path, f"s{i:02d}", f"description: {'word ' * 40}", "b")
    skills = load_skills(cwd=tmp_path, home=tmp_path / "nohome", trusted=True)
    small = SkillTool(skills, window_tokens=20_000).description  # an 800-character listing
    large = SkillTool(skills, window_tokens=1_000_000).description
    assert "more skills not listed" in small and "more skills not listed" not in large
    assert len(small.split("Skills:\n", 1)[1]) <= 900
    monkeypatch.setenv("HANDS_SKILL_CHAR_BUDGET", "100000")
    assert "more skills not listed" not in SkillTool(skills, window_tokens=20_000).description


@pytest.mark.anyio
async def test_skill_name_star_rules_match_the_arguments_as_a_prefix(tmp_path: Path) -> None:
    write_skill(tmp_path, "deploy", "description: ship it", "deploy it")
    (tmp_path / ".claude" / "settings.json").write_text(
        '{"permissions": {"allow": ["Skill(deploy *)"], "deny": ["Skill(deploy prod *)"]}}'
    )
    settings = load_settings(tmp_path, env={"HOME": str(tmp_path / "nohome")}, trusted=True)
    engine = engine_for(settings, grammar=BuiltinGrammar())
    skill = SkillTool.load(cwd=tmp_path, home=tmp_path / "nohome", trusted=True)
    calls = [None, "staging", "prod", "prod --force", "production"]
    model = ScriptedModel.from_turns(
        [
            {"type": "tool_use", "name": "Skill", "input": {"skill": "deploy", "args": a}}
            if a is not None
            else {"type": "tool_use", "name": "Skill", "input": {"skill": "deploy"}}
            for a in calls
        ],
        [{"type": "text", "text": "ok"}],
    )
    asked: list[str] = []

    async def ask(request: object) -> object:
        from hands.core.decision import PermissionDecision

        asked.append(str(request))
        return PermissionDecision(behavior="deny", message="no")

    options = QueryOptions(
        model=model,
        tools=pool_for(engine, extra=[skill]),
        cwd=tmp_path,
        policy=engine,
        ask=ask,  # type: ignore[arg-type]
    )
    events = [e async for e in query("go", options)]
    blocks = [e.outcome.block for e in events if isinstance(e, ToolResultEvent)]
    errors = [b.is_error for b in blocks]
    # no args and "staging": allowed; "prod" and "prod --force": denied by the deny rule;
    # "production" is not the word "prod": still allowed by "deploy *"
    assert errors == [False, False, True, True, False]
    assert asked == []  # every call was decided by a rule
    assert "deploy it" in blocks[0].text and "invoked with: staging" in blocks[1].text
    assert "deploy it" not in blocks[2].text


def test_a_name_rule_without_a_space_still_matches_the_name_alone() -> None:
    from hands.config.rule_texts import RuleOrigin
    from hands.permissions.rules import NamePattern, PermissionRule, parse_rule

    origin = RuleOrigin(scope="session", label="test", root=Path.cwd())
    grammar = {"Skill": SkillTool.subject}
    exact = parse_rule("Skill(deploy)", "allow", origin, grammar=grammar)
    star = parse_rule("Skill(deploy *)", "allow", origin, grammar=grammar)
    assert isinstance(exact, PermissionRule) and isinstance(star, PermissionRule)
    assert isinstance(exact.matcher, NamePattern) and isinstance(star.matcher, NamePattern)
    assert exact.matcher.matches("deploy", "prod") and not exact.matcher.matches("deployer")
    assert star.matcher.matches("deploy") and star.matcher.matches("deploy", "prod")
    assert not star.matcher.matches("deployer", "prod")


@pytest.mark.anyio
async def test_a_skills_allowed_tools_end_with_the_query_that_invoked_it(tmp_path: Path) -> None:
    write_skill(
        tmp_path,
        "release",
        "name: release\ndescription: cut a release\nallowed-tools: Bash(touch *)",
        "Touch files.",
    )
    (tmp_path / ".claude" / "settings.json").write_text(
        '{"permissions": {"allow": ["Skill(release)"]}}'
    )
    settings = load_settings(tmp_path, env={"HOME": str(tmp_path / "nohome")}, trusted=True)
    engine = engine_for(settings, grammar=BuiltinGrammar())
    skill = SkillTool.load(cwd=tmp_path, home=tmp_path / "nohome", trusted=True)
    asked: list[str] = []

    async def ask(request: object) -> object:
        from hands.core.decision import AskRequest, PermissionDecision

        assert isinstance(request, AskRequest)
        asked.append(request.tool.name)
        return PermissionDecision(behavior="deny", message="no")

    def touch(name: str) -> dict[str, object]:
        return {"type": "tool_use", "name": "Bash", "input": {"command": f"touch {name}"}}

    model = ScriptedModel.from_turns(
        [{"type": "tool_use", "name": "Skill", "input": {"skill": "release"}}],
        [touch("DURING")],
        [{"type": "text", "text": "released"}],
        [touch("NEXT_PROMPT")],  # the user's next message: the skill is no longer active
        [{"type": "text", "text": "ok"}],
    )
    options = QueryOptions(
        model=model,
        tools=pool_for(engine, extra=[skill]),
        cwd=tmp_path,
        policy=engine,
        ask=ask,  # type: ignore[arg-type]
    )
    first = query("release it", options)
    events = [e async for e in first]
    blocks = [e.outcome.block for e in events if isinstance(e, ToolResultEvent)]
    assert [b.is_error for b in blocks] == [False, False]
    assert (tmp_path / "DURING").exists() and asked == []
    again = QueryOptions(
        model=model,
        tools=pool_for(engine, extra=[skill]),
        cwd=tmp_path,
        policy=engine,
        ask=ask,  # type: ignore[arg-type]
        history=first.messages,
        session=first.session,
    )
    events = [e async for e in query("touch another", again)]
    blocks = [e.outcome.block for e in events if isinstance(e, ToolResultEvent)]
    assert blocks[0].is_error and not (tmp_path / "NEXT_PROMPT").exists()
    assert asked == ["Bash"]  # asked again: the approval ended with the first query
    assert not any("touch" in r.text for r in engine.rules)  # nothing left in the engine


async def invoke(project: Path, data: dict[str, object]) -> str:
    """One Skill call (allowed by a rule) in a scripted session; the result's text."""
    (project / ".claude").mkdir(exist_ok=True)
    (project / ".claude" / "settings.json").write_text('{"permissions": {"allow": ["Skill"]}}')
    settings = load_settings(project, env={"HOME": str(project / "nohome")}, trusted=True)
    engine = engine_for(settings, grammar=BuiltinGrammar())
    skill = SkillTool.load(cwd=project, home=project / "nohome", trusted=True)
    model = ScriptedModel.from_turns(
        [{"type": "tool_use", "name": "Skill", "input": data}], [{"type": "text", "text": "ok"}]
    )
    options = QueryOptions(
        model=model, tools=pool_for(engine, extra=[skill]), cwd=project, policy=engine
    )
    events = [e async for e in query("go", options)]
    (block,) = [e.outcome.block for e in events if isinstance(e, ToolResultEvent)]
    assert not block.is_error, block.text
    return block.text


@pytest.mark.anyio
async def test_the_older_command_field_names_the_skill(tmp_path: Path) -> None:
    write_skill(tmp_path, "notes", "description: take notes", "Write NOTES.md.")
    assert "Write NOTES.md." in await invoke(tmp_path, {"command": "notes"})


@pytest.mark.anyio
async def test_arguments_fill_the_placeholders_and_are_not_repeated_after_them(
    tmp_path: Path,
) -> None:
    body = "Fix issue $ARGUMENTS.\nFirst $0, then $ARGUMENTS[1], then $1; none: $2."
    write_skill(tmp_path, "fix", "description: fix an issue", body)
    text = await invoke(tmp_path, {"skill": "fix", "args": 'api "the login page"'})
    assert 'Fix issue api "the login page".' in text
    assert "First api, then the login page, then the login page; none: $2." in text
    assert "invoked with" not in text


@pytest.mark.anyio
async def test_a_body_without_placeholders_gets_the_arguments_after_it(tmp_path: Path) -> None:
    write_skill(tmp_path, "fix", "description: fix an issue", "Fix it.")
    text = await invoke(tmp_path, {"skill": "fix", "args": "123"})
    assert text.index("Fix it.") < text.index("The arguments it was invoked with: 123")


def test_arguments_with_unbalanced_quotes_split_at_spaces() -> None:
    from hands.config.arguments import split_arguments, substitute

    assert split_arguments('a "b c') == ["a", '"b', "c"]
    assert substitute("$1 and $ARGUMENTSX", 'a "b c') == ('"b and $ARGUMENTSX', True)
    assert substitute("nothing here $5x", "a") == ("nothing here $5x", False)


@pytest.mark.anyio
async def test_a_skill_file_without_frontmatter_loads_named_after_its_folder(
    tmp_path: Path,
) -> None:
    directory = tmp_path / ".claude" / "skills" / "lint-all"
    directory.mkdir(parents=True)
    (directory / "SKILL.md").write_text("# Lint everything\n\nRun ruff on src.\n")
    found = load_skills(cwd=tmp_path, home=tmp_path / "nohome", trusted=True)
    assert found.warnings == ()
    (skill,) = found.skills
    assert (skill.name, skill.description) == ("lint-all", "Lint everything")
    assert "Run ruff on src." in await invoke(tmp_path, {"skill": "lint-all"})


def test_a_skill_file_with_nothing_in_it_is_skipped_with_a_warning(tmp_path: Path) -> None:
    directory = tmp_path / ".claude" / "skills" / "empty"
    directory.mkdir(parents=True)
    (directory / "SKILL.md").write_text("\n\n")
    found = load_skills(cwd=tmp_path, home=tmp_path / "nohome", trusted=True)
    assert found.skills == () and "empty" in found.warnings[0]
