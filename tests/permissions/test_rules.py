"""Rule parsing and the Bash pattern matcher."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from hands.core.tool import Tool
from hands.permissions.bash import compile_command_pattern
from hands.permissions.rules import (
    PermissionRule,
    RuleOrigin,
    RuleWarning,
    parse_rule,
    parse_rules,
    split_rule_list,
)
from hands.pipeline.pool import BuiltinGrammar, pool_for

ORIGIN = RuleOrigin(scope="projectSettings", label="/p/.claude/settings.json", root=Path("/p"))
BUILTINS = BuiltinGrammar()


def rule(text: str, behavior: str = "allow") -> PermissionRule:
    parsed = parse_rule(text, behavior, ORIGIN, grammar=BUILTINS)  # type: ignore[arg-type]
    assert isinstance(parsed, PermissionRule), parsed
    return parsed


def warning(text: str, behavior: str = "allow") -> RuleWarning:
    parsed = parse_rule(text, behavior, ORIGIN, grammar=BUILTINS)  # type: ignore[arg-type]
    assert isinstance(parsed, RuleWarning), parsed
    return parsed


@pytest.mark.parametrize(
    ("text", "tool", "kind"),
    [
        ("Bash", "Bash", "tool"),
        ("Bash(*)", "Bash", "tool"),
        ("Bash()", "Bash", "tool"),
        ("Bash(npm run test:*)", "Bash", "command"),
        ("Read(./.env)", "Read", "path"),
        ("Edit(/src/**)", "Edit", "path"),
        ("Write(src/**)", "Write", "path"),
        ("WebFetch(domain:example.com)", "WebFetch", "domain"),
        ("Agent(Explore)", "Agent", "name"),
        ("Task(Explore)", "Agent", "name"),
        ("Skill(update-config:*)", "Skill", "name"),
        ("SlashCommand(/ahk-orchestrator)", "Skill", "name"),
        ("mcp__github", "mcp__github", "tool"),
        ("mcp__serena__*", "mcp__serena__*", "tool"),
        ("mcp__context7__resolve-library-id", "mcp__context7__resolve-library-id", "tool"),
        ("PowerShell(go build *)", "PowerShell", "command"),
    ],
)
def test_parse_forms(text: str, tool: str, kind: str) -> None:
    parsed = rule(text)
    assert (parsed.tool, parsed.kind) == (tool, kind)


def test_escaped_parentheses_are_unescaped() -> None:
    parsed = rule("Bash(awk -F: 'length\\($0\\)-length\\($1\\)-1 > 80 {print length\\($0\\)}')")
    assert parsed.specifier is not None and "length($0)" in parsed.specifier
    assert parsed.matcher is not None
    assert parsed.matcher.matches("awk -F: 'length($0)-length($1)-1 > 80 {print length($0)}'")  # type: ignore[union-attr]


@pytest.mark.parametrize(
    ("text", "behavior", "fragment"),
    [
        ("Bash(ls", "allow", "unbalanced"),
        ("Bash(echo (a)", "deny", "unbalanced"),
        ("npm run *", "allow", "not a permission rule"),
        ("git *", "deny", "not a permission rule"),
        ("mcp__*", "allow", "wildcards"),
        ("Web*", "allow", "wildcards"),
        ("WebFetch(https://example.com)", "allow", "domain:"),
        ("WebSearch(query:secret*)", "allow", "only honoured in deny and ask"),
        ("Bash(command:rm*)", "allow", None),  # a Bash pattern, not a param rule
    ],
)
def test_bad_rules_warn_with_file_and_rule(text: str, behavior: str, fragment: str | None) -> None:
    parsed = parse_rule(text, behavior, ORIGIN, grammar=BUILTINS)  # type: ignore[arg-type]
    if fragment is None:
        assert isinstance(parsed, PermissionRule)
        return
    assert isinstance(parsed, RuleWarning)
    assert fragment in parsed.message
    assert str(ORIGIN.label) in str(parsed) and text in str(parsed)


def test_unknown_tool_in_deny_warns_but_is_kept() -> None:
    rules, warnings = parse_rules(["Frobnicate", "Bash(rm:*)"], "deny", ORIGIN, grammar=BUILTINS)
    assert [r.tool for r in rules] == ["Frobnicate", "Bash"]
    assert len(warnings) == 1 and "unknown tool 'Frobnicate'" in warnings[0].message
    _, allow_warnings = parse_rules(["Frobnicate"], "allow", ORIGIN, grammar=BUILTINS)
    assert allow_warnings == []
    # the tools a legacy name means are known too, by their aliases
    _, legacy = parse_rules(["KillShell", "View(/x)"], "deny", ORIGIN, grammar=BUILTINS)
    assert legacy == []


def test_without_a_grammar_a_tools_specifier_waits_for_its_declaration() -> None:
    parsed = parse_rule("Grep(secrets/**)", "deny", ORIGIN)
    assert isinstance(parsed, PermissionRule) and parsed.kind == "pending"
    family = parse_rule("Read(secrets/**)", "deny", ORIGIN)
    assert isinstance(family, PermissionRule) and family.kind == "path"


def test_non_string_rule_warns() -> None:
    rules, warnings = parse_rules([42, "Read"], "allow", ORIGIN)
    assert len(rules) == 1 and "must be a string" in warnings[0].message


def test_primary_field_param_rule_is_refused() -> None:
    w = warning("WebFetch(url:*evil*)", "deny")
    assert "domain:" in w.message


def test_param_rule_in_deny() -> None:
    parsed = rule("WebSearch(query:*password*)", "deny")
    assert parsed.kind == "param"
    assert parsed.matcher.matches({"query": "find password dumps"})  # type: ignore[union-attr]
    assert not parsed.matcher.matches({"other": "password"})  # type: ignore[union-attr]


def test_split_rule_list() -> None:
    assert split_rule_list("Read,Edit Bash(git log:*) Bash(a, b)") == [
        "Read",
        "Edit",
        "Bash(git log:*)",
        "Bash(a, b)",
    ]


def _about(parsed: PermissionRule, name: str) -> bool:
    tool = pool_for().find(name)
    assert isinstance(tool, Tool)
    family = tool.subject.family if tool.subject is not None else ""
    return parsed.applies_to(tool.name, aliases=tool.aliases, family=family)


def test_rule_applies_to_families_and_servers() -> None:
    assert _about(rule("Read(src/**)"), "Grep")
    assert _about(rule("Read"), "Glob")
    assert _about(rule("Edit(src/**)"), "NotebookEdit")
    assert not _about(rule("Write(src/**)"), "Edit")
    assert not _about(rule("Read(src/**)"), "Write")
    assert _about(rule("KillShell", "deny"), "TaskStop")  # a legacy name, by the alias
    assert not rule("Read(src/**)").applies_to("Grep")  # a name alone has no family
    assert rule("mcp__github").applies_to("mcp__github__create_issue")
    assert not rule("mcp__github").applies_to("mcp__githubx__create_issue")
    assert rule("mcp__*", "deny").applies_to("mcp__a__b")
    assert rule("*", "deny").applies_to("Bash")
    assert rule("mcp__serena__*").applies_to("mcp__serena__find")


# -- Bash patterns ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("pattern", "command", "expected"),
    [
        ("ls *", "ls -la", True),
        ("ls *", "ls", True),
        ("ls *", "lsof", False),
        ("ls*", "lsof", True),
        ("ls:*", "ls -la", True),
        ("ls:*", "lsof", False),
        ("npm run test:*", "npm run test -- --watch", True),
        ("npm run test:*", "npm run testing", False),
        ("git status", "git status", True),
        ("git status", "git status --short", False),
        ("curl * | sh", "curl http://x | sh", True),
        ("git push --force-with-lease *main*", "git push --force-with-lease origin main", True),
        ("*whitelist.sh*", "./scripts/whitelist.sh add", True),
        ("mkdir *:*", "mkdir -p a/b", True),
        ("echo $*", "echo $HOME", True),
        ("curl http://localhost:*", "curl http://localhost", True),
        ("curl http://localhost:*", "curl http://localhost:3000", False),
        (
            '"/c/Program Files/GitHub CLI/gh.exe":*',
            '"/c/Program Files/GitHub CLI/gh.exe" pr list',
            True,
        ),
        ("git *", "git", True),
        ("*", "anything at all", True),
        ("a\\*b", "a*b", True),
        ("a\\*b", "axb", False),
    ],
)
def test_command_patterns(pattern: str, command: str, expected: bool) -> None:
    assert compile_command_pattern(pattern).matches(command) is expected


def test_powershell_patterns_ignore_case() -> None:
    assert compile_command_pattern("Get-Service *", ignore_case=True).matches("get-service -Name x")


WORD = st.text(alphabet="abcdefghijklmnop-./_=", min_size=1, max_size=8)


@given(prefix=st.lists(WORD, min_size=1, max_size=3), rest=st.lists(WORD, max_size=4))
def test_space_star_matches_exactly_the_word_prefix(prefix: list[str], rest: list[str]) -> None:
    head = " ".join(prefix)
    star = compile_command_pattern(head + " *")
    colon = compile_command_pattern(head + ":*")
    command = " ".join([head, *rest])
    assert star.matches(command) and colon.matches(command)
    glued = head + "x" + (" " + " ".join(rest) if rest else "")
    assert not star.matches(glued) and not colon.matches(glued)
    assert compile_command_pattern(head + "*").matches(glued)


@given(words=st.lists(WORD, min_size=1, max_size=5), cut=st.integers(min_value=0, max_value=4))
def test_mid_star_matches_any_middle(words: list[str], cut: int) -> None:
    cut = min(cut, len(words) - 1)
    pattern = compile_command_pattern(f"{words[0]} * {words[-1]}")
    command = " ".join([words[0], *words[1:cut], "middle part", words[-1]])
    assert pattern.matches(command)
    assert not pattern.matches(command + " trailing-word")


@given(command=st.text(min_size=1, max_size=30))
def test_exact_pattern_matches_only_itself(command: str) -> None:
    if "*" in command or not command.strip():
        return
    pattern = compile_command_pattern(command)
    assert pattern.matches(command)
    assert not pattern.matches(command.strip() + " extra")
