"""Glob through the whole pipeline, on real trees and the real rg."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

import pytest
from rich.console import RenderableType

from hands.pipeline.pool import find_builtin
from hands.tools.search.glob import (
    MAX_RESULTS,
    GlobInput,
    GlobOutput,
    GlobTool,
    split_absolute_pattern,
)

Render = Callable[[RenderableType], str]


def lines(text: str) -> list[str]:
    return text.splitlines()


def test_recursive_pattern_gives_paths_relative_to_the_cwd_newest_first(search) -> None:
    search.write({"a.py": "", "src/b.py": "", "src/deep/c.py": "", "notes.md": ""})
    search.touch("a.py", 500)  # now the newest
    assert lines(search.ok("Glob", pattern="**/*.py")) == [
        search.shown("a.py"),
        search.shown("src/deep/c.py"),
        search.shown("src/b.py"),
    ]


def test_equal_mtimes_are_ordered_by_name(search) -> None:
    search.write({"b.txt": "", "a.txt": "", "c.txt": ""}, age=False)
    for name in ("a.txt", "b.txt", "c.txt"):
        search.touch(name, 0)
    assert lines(search.ok("Glob", pattern="*.txt")) == [
        search.shown("a.txt"),
        search.shown("b.txt"),
        search.shown("c.txt"),
    ]


def test_braces_and_slashes(search) -> None:
    search.write({"x.py": "", "x.ts": "", "x.md": "", "src/y.ts": "", "src/sub/z.ts": ""})
    assert sorted(lines(search.ok("Glob", pattern="*.{py,ts}"))) == sorted(
        search.shown(n) for n in ("x.py", "x.ts", "src/y.ts", "src/sub/z.ts")
    )
    # A pattern with a slash is taken from the search directory.
    assert lines(search.ok("Glob", pattern="src/*.ts")) == [search.shown("src/y.ts")]
    assert sorted(lines(search.ok("Glob", pattern="src/**/*.ts"))) == sorted(
        [search.shown("src/y.ts"), search.shown("src/sub/z.ts")]
    )
    assert lines(search.ok("Glob", pattern="./src/*.ts")) == [search.shown("src/y.ts")]


def test_path_relative_absolute_and_absolute_pattern(search) -> None:
    search.write({"src/a.py": "", "lib/b.py": ""})
    assert lines(search.ok("Glob", pattern="*.py", path="src")) == [search.shown("src/a.py")]
    assert lines(search.ok("Glob", pattern="*.py", path=str(search.root / "lib"))) == [
        search.shown("lib/b.py")
    ]
    pattern = str(search.root / "lib" / "**" / "*.py")
    assert lines(search.ok("Glob", pattern=pattern)) == [search.shown("lib/b.py")]
    # "null"/"undefined" mean "no path": the cwd is searched.
    assert len(lines(search.ok("Glob", pattern="*.py", path="undefined"))) == 2


def test_hidden_files_included_vcs_dirs_skipped(search) -> None:
    search.write(
        {".env": "", ".config/app.toml": "", ".git/config": "", ".hg/store": "", "a.toml": ""}
    )
    found = lines(search.ok("Glob", pattern="**/*"))
    assert search.shown(".env") in found
    assert search.shown(".config/app.toml") in found
    assert not any("/.git/" in f or "/.hg/" in f for f in found)
    # Asking for a VCS directory by name searches it.
    assert lines(search.ok("Glob", pattern=".git/*")) == [search.shown(".git/config")]


def test_gitignore_not_honoured_unless_a_setting_says_so(
    search, monkeypatch: pytest.MonkeyPatch
) -> None:
    search.write(
        {".git/HEAD": "", ".gitignore": "build/\n*.log\n", "build/out.py": "", "a.log": ""}
    )
    search.write({"src/a.py": ""})
    assert search.shown("build/out.py") in search.ok("Glob", pattern="**/*.py")
    assert search.shown("a.log") in search.ok("Glob", pattern="*.log")

    monkeypatch.setenv("HANDS_GLOB_RESPECT_GITIGNORE", "1")
    assert lines(search.ok("Glob", pattern="**/*.py")) == [search.shown("src/a.py")]
    assert search.ok("Glob", pattern="*.log") == "No file matches this pattern."

    monkeypatch.delenv("HANDS_GLOB_RESPECT_GITIGNORE")
    monkeypatch.setenv("CLAUDE_CODE_GLOB_NO_IGNORE", "false")
    assert lines(search.ok("Glob", pattern="**/*.py")) == [search.shown("src/a.py")]


def test_hidden_can_be_turned_off(search, monkeypatch: pytest.MonkeyPatch) -> None:
    search.write({".env.py": "", "a.py": ""})
    monkeypatch.setenv("CLAUDE_CODE_GLOB_HIDDEN", "false")
    assert lines(search.ok("Glob", pattern="*.py")) == [search.shown("a.py")]


def test_at_most_100_newest_with_a_truncation_notice(search) -> None:
    search.write({f"f{i:03}.txt": "" for i in range(130)})  # f129 is the newest
    out = lines(search.ok("Glob", pattern="*.txt"))
    assert len(out) == MAX_RESULTS + 1
    assert out[0] == search.shown("f129.txt")
    assert out[MAX_RESULTS - 1] == search.shown("f030.txt")
    assert out[-1].startswith("(Only the 100 most recently modified of")
    assert "100 most recently modified of 130 matches" in out[-1]


def test_no_match(search) -> None:
    search.write({"a.py": ""})
    assert search.ok("Glob", pattern="*.rs") == "No file matches this pattern."


def test_unicode_names(search) -> None:
    search.write({"données/résumé.py": "", "日本/テスト.py": ""})
    found = lines(search.ok("Glob", pattern="**/*.py"))
    assert sorted(found) == sorted(
        [search.shown("données/résumé.py"), search.shown("日本/テスト.py")]
    )


def test_errors(search) -> None:
    search.write({"a.py": ""})
    assert "NUL byte" in search.err("Glob", pattern="a\0.py")
    assert "NUL byte" in search.err("Glob", pattern="*.py", path="sr\0c")
    missing = search.err("Glob", pattern="*.py", path="nope")
    assert "No directory at" in missing and str(search.root / "nope") in missing
    assert "not a directory" in search.err("Glob", pattern="*.py", path="a.py")
    bad = search.err("Glob", pattern="{a")
    assert "error parsing glob" in bad and "unclosed alternate group" in bad
    assert "InputValidationError" in search.err("Glob", path=".")


def test_read_deny_seam_filters_results(search) -> None:
    search.write(
        {
            "a.py": "",
            "key.pem": "",
            "sub/other.pem": "",
            "secrets/x.py": "",
            "sub/secrets/y.py": "",
        }
    )
    search.deny("*.pem", "/secrets/**")
    found = lines(search.ok("Glob", pattern="**/*"))
    assert sorted(found) == sorted([search.shown("a.py"), search.shown("sub/secrets/y.py")])
    # From a subdirectory the anchored rule still means the root's secrets/ only.
    assert lines(search.ok("Glob", pattern="**/*", path="sub")) == [
        search.shown("sub/secrets/y.py")
    ]
    search.deny("secrets/")
    assert search.shown("sub/secrets/y.py") not in search.ok("Glob", pattern="**/*")


def test_time_limit_gives_a_defined_result(search, monkeypatch: pytest.MonkeyPatch) -> None:
    search.write({"a.py": ""})
    monkeypatch.setenv("HANDS_GLOB_TIMEOUT_SECONDS", "0.000001")
    text = search.ok("Glob", pattern="**/*.py")
    assert "stopped after 1e-06 s" in text and "incomplete" in text


def test_flags_schema_and_registration() -> None:
    tool = GlobTool()
    parsed = GlobInput(pattern="*.py")
    assert tool.is_read_only(parsed) and tool.is_concurrency_safe(parsed)
    schema = tool.input_schema
    assert schema["required"] == ["pattern"]
    assert set(schema["properties"]) == {"pattern", "path"}
    entry = find_builtin("Glob")
    assert entry is not None and isinstance(entry.load(), GlobTool)
    assert tool.max_result_chars == 100_000


def test_split_absolute_pattern() -> None:
    assert split_absolute_pattern("/a/b/**/*.py") == (Path("/a/b"), "**/*.py")
    assert split_absolute_pattern("/a/b/c.py") == (Path("/a/b"), "c.py")
    assert split_absolute_pattern("src/*.py") is None


def test_rendering(render: Render) -> None:
    tool = GlobTool()
    use = render(tool.render_use(GlobInput(pattern="**/*.py", path="src")))
    assert use == '● Glob(pattern: "**/*.py", path: "src")\n'
    result = GlobOutput(filenames=("/x/a.py",) * 100, num_files=250, truncated=True)
    assert render(tool.render_result(result)) == "  ⎿ Found 250 files (showing the 100 newest)\n"
    one = GlobOutput(filenames=("/x/a.py",), num_files=1, truncated=False)
    assert render(tool.render_result(one)) == "  ⎿ Found 1 file\n"
    group = render(tool.render_group([GlobInput(pattern="*.py"), GlobInput(pattern="*.md")]))
    assert group.splitlines() == [
        "● Glob ×2 (in parallel)",
        '  ├ pattern: "*.py"',
        '  ├ pattern: "*.md"',
    ]


def test_paths_are_real_files(search) -> None:
    search.write({"a/b/c.txt": "x"})
    (path,) = lines(search.ok("Glob", pattern="**/c.txt"))
    assert not os.path.isabs(path) and (search.root / path).read_text() == "x"


def test_a_path_too_long_for_the_system_is_a_plain_error(search) -> None:
    text = search.err("Glob", pattern="*", path="y" * 5000)
    assert "Cannot search" in text and "too long" in text
    assert "OSError" not in text


def test_a_pattern_or_path_that_is_not_valid_unicode_is_a_plain_error(search) -> None:
    for fields in ({"pattern": "\ud800"}, {"pattern": "*", "path": "a\udfffb"}):
        text = search.err("Glob", **fields)
        assert "not valid Unicode" in text and "UnicodeEncodeError" not in text


def test_outside_the_cwd_paths_stay_absolute_and_a_missing_absolute_base_finds_nothing(
    search, tmp_path: Path
) -> None:
    outside = tmp_path / "elsewhere"
    (outside / "deep").mkdir(parents=True)
    (outside / "deep" / "o.py").write_text("")
    found = lines(search.ok("Glob", pattern=str(outside / "**" / "*.py")))
    assert found == [str(outside / "deep" / "o.py")]
    assert lines(search.ok("Glob", pattern="*.py", path=str(outside / "deep"))) == found
    missing = search.ok("Glob", pattern=str(tmp_path / "nowhere" / "**" / "*.py"))
    assert missing == "No file matches this pattern."
    assert "No directory" in search.err("Glob", pattern="*.py", path=str(tmp_path / "nowhere"))
