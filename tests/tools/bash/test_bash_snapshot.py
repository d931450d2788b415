"""The user's ~/.bashrc aliases, functions and options, captured once per session."""

from __future__ import annotations

from pathlib import Path

import pytest

from tools.bash.kit import text

pytestmark = pytest.mark.anyio

BASHRC = """\
case $- in *i*) ;; *) return;; esac
alias gs='echo git-status-alias'
greet() { echo "hello $1"; }
_complete_me() { :; }
shopt -s globstar
echo "rc says hi"
"""


@pytest.fixture
def user_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    home = tmp_path / "home"
    home.mkdir()
    (home / ".bashrc").write_text(BASHRC)
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("HANDS_SHELL_SNAPSHOT", "1")
    return home


async def test_aliases_functions_and_options_of_the_bashrc_apply(harness, user_home):
    h = harness()
    out = await h.bash("gs && greet world && shopt -q globstar && echo globstar-on")
    assert text(out) == "git-status-alias\nhello world\nglobstar-on"  # no "rc says hi"
    helper = await h.bash("declare -F _complete_me || echo no-completion-helpers")
    assert text(helper) == "no-completion-helpers"


async def test_captured_once_per_session(harness, user_home):
    h = harness()
    assert text(await h.bash("gs")) == "git-status-alias"
    (user_home / ".bashrc").write_text("alias gs='echo changed'\n")
    assert text(await h.bash("gs")) == "git-status-alias"
    assert text(await harness().bash("gs")) == "changed"  # a new session captures anew


async def test_switched_off_or_no_bashrc_means_a_plain_shell(harness, user_home, monkeypatch):
    monkeypatch.setenv("HANDS_SHELL_SNAPSHOT", "0")
    out = await harness().bash("gs")
    assert out.is_error and "command not found" in text(out)
    monkeypatch.setenv("HANDS_SHELL_SNAPSHOT", "1")
    (user_home / ".bashrc").unlink()
    out = await harness().bash("type gs >/dev/null 2>&1 || echo plain")
    assert text(out) == "plain"


async def test_a_bashrc_that_hangs_is_given_up_with_a_note(harness, user_home, monkeypatch):
    from hands.tools.bash import _snapshot as snapshot

    monkeypatch.setattr(snapshot, "CAPTURE_TIMEOUT_S", 0.5)
    (user_home / ".bashrc").write_text("sleep 30\nalias gs='echo never'\n")
    h = harness()
    out = await h.bash("echo runs anyway")
    assert not out.is_error
    assert "runs anyway" in text(out)
    assert "took over 0.5 s to load; its aliases are not used" in text(out)
    assert "took over" not in text(await h.bash("echo again"))  # said once


async def test_errors_name_the_commands_own_line_numbers(harness, user_home, monkeypatch):
    h = harness()
    assert text(await h.bash("gs")) == "git-status-alias"  # the setup really runs first
    out = await h.bash("echo one\necho two; (; echo")
    assert out.is_error
    assert "line 2: syntax error" in text(out)
    out = await h.bash("true\nfalse\necho ${LINENO}")
    assert text(out) == "3"


async def test_the_setup_does_not_reach_the_commands_own_scripts(harness, user_home):
    out = await harness().bash(
        "echo \"[${BASH_ENV-}]\"; bash -c 'type gs >/dev/null 2>&1 || echo child-plain'"
    )
    assert text(out) == "[]\nchild-plain"


async def test_a_bash_env_the_user_set_still_runs(harness, user_home, tmp_path, monkeypatch):
    own = tmp_path / "own_env.sh"
    own.write_text("export FROM_USER_BASH_ENV=yes\n")
    monkeypatch.setenv("BASH_ENV", str(own))
    out = await harness().bash("echo $FROM_USER_BASH_ENV; gs")
    assert text(out) == "yes\ngit-status-alias"
