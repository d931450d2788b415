"""Grep through the whole pipeline, on real trees and the real rg."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from rich.console import RenderableType

from hands.pipeline.pool import find_builtin
from hands.tools.search.grep import (
    GrepInput,
    GrepOutput,
    GrepTool,
    format_output,
    parse_heading,
    rg_args,
    split_globs,
)

Render = Callable[[RenderableType], str]


def lines(text: str) -> list[str]:
    return text.splitlines()


# -- files_with_matches ---------------------------------------------------------------


def test_files_with_matches_is_the_default_newest_first(search) -> None:
    search.write({"a.py": "needle\n", "b.py": "nothing\n", "c/d.py": "a needle\n"})
    search.touch("a.py", 1000)
    assert lines(search.ok("Grep", pattern="needle")) == [
        "2 matching files:",
        search.shown("a.py"),
        search.shown("c/d.py"),
    ]
    search.touch("c/d.py", 2000)
    assert lines(search.ok("Grep", pattern="needle"))[1] == search.shown("c/d.py")


def test_equal_mtimes_are_ordered_by_name(search) -> None:
    search.write({"z.txt": "x", "m.txt": "x", "a.txt": "x"}, age=False)
    for name in ("z.txt", "m.txt", "a.txt"):
        search.touch(name, 0)
    assert lines(search.ok("Grep", pattern="x"))[1:] == [
        search.shown("a.txt"),
        search.shown("m.txt"),
        search.shown("z.txt"),
    ]


def test_no_match(search) -> None:
    search.write({"a.py": "x\n"})
    assert search.ok("Grep", pattern="absent") == "No file contains a match."
    assert search.ok("Grep", pattern="absent", output_mode="content") == "Nothing matched."
    assert search.ok("Grep", pattern="absent", output_mode="count") == "Nothing matched."


def test_files_pagination(search) -> None:
    search.write({f"f{i:02}.txt": "hit\n" for i in range(12)})  # f11 newest
    page = lines(search.ok("Grep", pattern="hit", head_limit=5, offset=3))
    assert page[0] == "12 matching files:"
    assert page[1] == "[Showing files 4–8 of 12; pass offset=8 for the next page.]"
    assert page[2:] == [search.shown(f"f{i:02}.txt") for i in (8, 7, 6, 5, 4)]
    last = lines(search.ok("Grep", pattern="hit", head_limit=5, offset=10))
    assert last[1] == "[Showing files 11–12 of 12.]"
    assert last[2:] == [search.shown("f01.txt"), search.shown("f00.txt")]
    past = search.ok("Grep", pattern="hit", offset=12)
    assert past.startswith("No entries at offset 12: the search found 12 files")


def test_default_head_limit_is_250_and_zero_is_unlimited(search) -> None:
    search.write({f"d/f{i:03}.txt": "hit\n" for i in range(260)})
    # the tool's own text: 250 absolute paths can pass the result's size cap, and whether
    # they do depends on how long the temporary folder's path is (longer under xdist)
    outcome = search.run("Grep", pattern="hit")
    assert not outcome.is_error and outcome.tool is not None, outcome.block.text
    limited = lines(str(outcome.tool.to_content(outcome.output)))
    assert limited[0] == "260 matching files:"
    assert "pass offset=250" in limited[1]
    assert len(limited) == 2 + 250
    unlimited = search.run("Grep", pattern="hit", head_limit=0)
    assert len(unlimited.output.filenames) == 260
    assert unlimited.output.applied_limit is None


# -- content ----------------------------------------------------------------------------


def test_content_has_line_numbers_by_default(search) -> None:
    search.write({"a.py": "one\nneedle here\nthree\n"})
    assert search.ok("Grep", pattern="needle", output_mode="content") == "a.py:2:needle here"
    assert (
        search.ok("Grep", pattern="needle", output_mode="content", **{"-n": False})
        == "a.py:needle here"
    )


def test_context_flags(search) -> None:
    search.write({"a.txt": "l1\nl2\nhit\nl4\nl5\nl6\nl7\nl8\nhit\nl10\n"})
    after = lines(search.ok("Grep", pattern="hit", output_mode="content", **{"-A": 1}))
    assert after == ["a.txt:3:hit", "a.txt-4-l4", "--", "a.txt:9:hit", "a.txt-10-l10"]
    before = lines(search.ok("Grep", pattern="hit", output_mode="content", **{"-B": 1}))
    assert before == ["a.txt-2-l2", "a.txt:3:hit", "--", "a.txt-8-l8", "a.txt:9:hit"]
    both = lines(search.ok("Grep", pattern="hit", output_mode="content", **{"-C": 1}))
    assert both == [
        "a.txt-2-l2",
        "a.txt:3:hit",
        "a.txt-4-l4",
        "--",
        "a.txt-8-l8",
        "a.txt:9:hit",
        "a.txt-10-l10",
    ]
    # context wins over -C, -A and -B; numbers sent as strings are accepted.
    wide = lines(
        search.ok("Grep", pattern="hit", output_mode="content", context="3", **{"-C": 0, "-A": 0})
    )
    assert wide[0] == "a.txt-1-l1" and "--" not in wide and wide[-1] == "a.txt-10-l10"
    # Context flags do nothing outside content mode.
    assert lines(search.ok("Grep", pattern="hit", **{"-C": 2})) == [
        "1 matching file:",
        search.shown("a.txt"),
    ]


def test_case_insensitive(search) -> None:
    search.write({"a.txt": "Hello\nHELLO\nhello\n"})
    assert len(lines(search.ok("Grep", pattern="hello", output_mode="content"))) == 1
    assert (
        len(lines(search.ok("Grep", pattern="hello", output_mode="content", **{"-i": True}))) == 3
    )


def test_only_matching(search) -> None:
    search.write({"a.txt": "x = foo123 + foo7\n"})
    out = search.ok("Grep", pattern=r"foo\d+", output_mode="content", **{"-o": True})
    assert lines(out) == ["a.txt:1:foo123", "a.txt:1:foo7"]


def test_multiline(search) -> None:
    search.write({"a.rs": "struct S {\n    field: u8,\n}\n"})
    pattern = r"struct S \{.*field"
    assert search.ok("Grep", pattern=pattern) == "No file contains a match."
    assert lines(search.ok("Grep", pattern=pattern, multiline=True, output_mode="content")) == [
        "a.rs:1:struct S {",
        "a.rs:2:    field: u8,",
    ]


def test_pattern_starting_with_a_dash(search) -> None:
    search.write({"a.txt": "use --force here\n"})
    assert search.ok("Grep", pattern="--force", output_mode="content") == "a.txt:1:use --force here"
    assert "1 matching file:" in search.ok("Grep", pattern="-f")


def test_content_pagination_is_stable_and_complete(search) -> None:
    search.write({"a.txt": "".join(f"hit {i}\n" for i in range(6)), "b.txt": "hit b\n"})
    whole = lines(search.ok("Grep", pattern="hit", output_mode="content"))
    assert whole[0] == "b.txt:1:hit b"  # newest file first
    assert len(whole) == 7
    first = lines(search.ok("Grep", pattern="hit", output_mode="content", head_limit=3))
    assert first[:3] == whole[:3]
    assert first[-1] == "[Showing lines 1–3 of 7; pass offset=3 for the next page.]"
    second = lines(search.ok("Grep", pattern="hit", output_mode="content", head_limit=3, offset=3))
    third = lines(search.ok("Grep", pattern="hit", output_mode="content", head_limit=3, offset=6))
    assert second[:3] + third[:1] == whole[3:]
    assert third[-1] == "[Showing lines 7–7 of 7.]"
    past = search.ok("Grep", pattern="hit", output_mode="content", offset=7)
    assert past.startswith("No entries at offset 7: the search found 7 lines")


def test_content_default_limit_is_250_lines(search) -> None:
    search.write({"big.txt": "".join(f"hit {i}\n" for i in range(400))})
    out = lines(search.ok("Grep", pattern="hit", output_mode="content"))
    assert out[249] == "big.txt:250:hit 249"
    assert out[-1] == "[Showing lines 1–250 of 400; pass offset=250 for the next page.]"
    assert len(lines(search.ok("Grep", pattern="hit", output_mode="content", head_limit=0))) == 400


# -- count ------------------------------------------------------------------------------


def test_count_per_file_and_total(search) -> None:
    search.write({"a.txt": "x\nx\nx\n", "b.txt": "x\n", "c.txt": "none\n"})
    assert lines(search.ok("Grep", pattern="x", output_mode="count")) == [
        "b.txt:1",
        "a.txt:3",
        "",
        "4 matches in all, in 2 files.",
    ]


def test_count_total_covers_every_file_when_paginated(search) -> None:
    search.write({f"f{i}.txt": "x\n" * (i + 1) for i in range(5)})  # f4 newest, 5 matches
    out = lines(search.ok("Grep", pattern="x", output_mode="count", head_limit=2))
    assert out[:2] == ["f4.txt:5", "f3.txt:4"]
    assert out[3] == (
        "15 matches in all, in 5 files. [Showing files 1–2 of 5; "
        "pass offset=2 for the next page; the total covers every file.]"
    )
    page = lines(search.ok("Grep", pattern="x", output_mode="count", head_limit=2, offset=4))
    assert page[0] == "f0.txt:1"
    assert "15 matches in all, in 5 files" in page[2]


# -- filters ----------------------------------------------------------------------------


def test_glob_parameter(search) -> None:
    search.write({"a.py": "x", "b.ts": "x", "c.tsx": "x", "d.md": "x", "e/f.py": "x"})

    def found(glob: str) -> set[str]:
        return {Path(p).name for p in lines(search.ok("Grep", pattern="x", glob=glob))[1:]}

    assert found("*.py") == {"a.py", "f.py"}
    assert found("*.{ts,tsx}") == {"b.ts", "c.tsx"}
    assert found("*.py,*.md") == {"a.py", "f.py", "d.md"}
    assert found("*.py *.md") == {"a.py", "f.py", "d.md"}
    assert found("e/*.py") == {"f.py"}
    assert found("!*.py") == {"b.ts", "c.tsx", "d.md"}


def test_type_parameter(search) -> None:
    search.write({"a.py": "x", "b.rs": "x", "c.js": "x"})
    assert lines(search.ok("Grep", pattern="x", type="rust"))[1:] == [search.shown("b.rs")]
    assert lines(search.ok("Grep", pattern="x", type="py"))[1:] == [search.shown("a.py")]


def test_split_globs() -> None:
    assert split_globs("*.py, *.md") == ["*.py", "*.md"]
    assert split_globs("*.{ts,tsx} src/**") == ["*.{ts,tsx}", "src/**"]
    assert split_globs("a,b,,c") == ["a", "b", "c"]


def test_hidden_searched_vcs_skipped_gitignore_respected(search) -> None:
    search.write(
        {
            ".env": "TOKEN\n",
            ".github/workflow.yml": "TOKEN\n",
            ".git/config": "TOKEN\n",
            ".svn/entries": "TOKEN\n",
            ".gitignore": "dist/\n",
            "dist/out.js": "TOKEN\n",
            "src/a.py": "TOKEN\n",
        }
    )
    found = set(lines(search.ok("Grep", pattern="TOKEN"))[1:])
    assert found == {
        search.shown(".env"),
        search.shown(".github/workflow.yml"),
        search.shown("src/a.py"),
    }
    # A glob that would match VCS contents still does not reach into them.
    assert search.shown(".git/config") not in search.ok("Grep", pattern="TOKEN", glob="**/config")


def test_path_file_subdir_and_outside_cwd(search, tmp_path: Path) -> None:
    search.write({"src/a.py": "hit\n", "src/b.py": "hit\n", "top.py": "hit\n"})
    sub = search.ok("Grep", pattern="hit", path="src", output_mode="content")
    assert sorted(lines(sub)) == ["src/a.py:1:hit", "src/b.py:1:hit"]
    one = search.ok("Grep", pattern="hit", path="src/a.py", output_mode="content")
    assert one == "src/a.py:1:hit"
    assert lines(search.ok("Grep", pattern="hit", path=search.abs("src/a.py"))) == [
        "1 matching file:",
        search.shown("src/a.py"),
    ]
    counted = search.ok("Grep", pattern="hit", path="src/a.py", output_mode="count")
    assert counted.startswith("src/a.py:1\n")
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    (outside / "o.txt").write_text("hit\n")
    text = search.ok("Grep", pattern="hit", path=str(outside), output_mode="content")
    assert text == f"{outside / 'o.txt'}:1:hit"


def test_unicode_content_and_names(search) -> None:
    search.write({"données/café.txt": "Un café très noir\n", "u.txt": "naïve ÉCOLE\n"})
    out = search.ok("Grep", pattern="CAFÉ", output_mode="content", **{"-i": True})
    assert out == "données/café.txt:1:Un café très noir"
    assert search.ok("Grep", pattern=r"\bécole\b", output_mode="content", **{"-i": True}) == (
        "u.txt:1:naïve ÉCOLE"
    )


def test_invalid_utf8_is_shown_with_replacement_characters(search) -> None:
    search.write({"latin1.txt": "caf\xe9 ok\n".encode("latin-1")})
    assert search.ok("Grep", pattern="ok", output_mode="content") == "latin1.txt:1:caf\ufffd ok"


def test_binary_files(search) -> None:
    search.write({"blob.bin": b"needle\x00\x01\x02needle\n", "text.txt": "needle\n"})
    # Searching a tree skips binary files ...
    assert lines(search.ok("Grep", pattern="needle"))[1:] == [search.shown("text.txt")]
    # ... naming one says it matches without dumping it.
    out = search.ok("Grep", pattern="needle", path="blob.bin", output_mode="content")
    assert "binary file matches" in out and "\x00" not in out


def test_huge_single_line_is_replaced_by_a_notice(search) -> None:
    search.write(
        {"min.js": "a" * 1_000_000 + "needle" + "b" * 1_000_000 + "\n", "s.js": "needle\n"}
    )
    out = search.ok("Grep", pattern="needle", output_mode="content")
    assert sorted(lines(out)) == ["min.js:1:[Omitted long matching line]", "s.js:1:needle"]
    assert len(out) < 200


# -- errors -----------------------------------------------------------------------------


def test_invalid_regex_glob_and_type_return_ripgreps_diagnostic(search) -> None:
    search.write({"a.txt": "x\n"})
    regex = search.err("Grep", pattern="foo(")
    assert "regex parse error" in regex and "unclosed group" in regex
    glob = search.err("Grep", pattern="x", glob="{a")
    assert "error parsing glob" in glob
    kind = search.err("Grep", pattern="x", type="nosuchtype")
    assert "unrecognized file type: nosuchtype" in kind
    # Braces need escaping in Rust regex.
    assert "repetition" in search.err("Grep", pattern="interface{}")


def test_input_errors(search) -> None:
    missing = search.err("Grep", pattern="x", path="nope")
    assert "Nothing at" in missing and str(search.root / "nope") in missing
    assert "NUL byte" in search.err("Grep", pattern="a\0b")
    assert "NUL byte" in search.err("Grep", pattern="a", glob="*\0")
    assert "output_mode" in search.err("Grep", pattern="x", output_mode="lines")
    assert "-A" in search.err("Grep", pattern="x", **{"-A": -1})
    assert "head_limit" in search.err("Grep", pattern="x", head_limit=-5)
    assert "takes no such parameter" in search.err("Grep", pattern="x", bogus=1)


# -- spill, deny seam, time limit ----------------------------------------------------------


def test_results_over_20000_characters_spill_to_a_file(search) -> None:
    search.write({"big.txt": "".join(f"needle line {i:05} {'x' * 60}\n" for i in range(400))})
    outcome = search.run("Grep", pattern="needle", output_mode="content")
    assert not outcome.is_error
    text = outcome.block.text
    assert text.startswith("<persisted-output>")
    saved = search.session.directory / "tool-results" / f"{outcome.block.tool_use_id}.txt"
    assert str(saved) in text
    full = saved.read_text()
    assert full.splitlines()[0].startswith("big.txt:1:needle line 00000")
    assert "[Showing lines 1–250 of 400" in full
    assert len(full) > 20_000
    small = search.run("Grep", pattern="needle", output_mode="content", head_limit=10)
    assert not small.block.text.startswith("<persisted-output>")


def test_read_deny_seam_keeps_denied_files_out(search) -> None:
    search.write(
        {
            "ok.txt": "secret\n",
            ".env": "secret\n",
            "keys/id.pem": "secret\n",
            "config/prod.yml": "secret\n",
            "sub/config/prod.yml": "secret\n",
        }
    )
    search.deny(".env", "*.pem", "/config/**")
    expected = {search.shown("ok.txt"), search.shown("sub/config/prod.yml")}
    assert set(lines(search.ok("Grep", pattern="secret"))[1:]) == expected
    content = search.ok("Grep", pattern="secret", output_mode="content")
    assert sorted(lines(content)) == ["ok.txt:1:secret", "sub/config/prod.yml:1:secret"]
    count = search.ok("Grep", pattern="secret", output_mode="count")
    assert "2 matches in all, in 2 files." in count
    # A user glob cannot bring a denied file back.
    assert search.ok("Grep", pattern="secret", glob="*.pem") == "No file contains a match."
    # Searching a subdirectory or naming the file directly does not escape the rule.
    sub = search.ok("Grep", pattern="secret", path="config")
    assert sub == "No file contains a match."
    named = search.ok("Grep", pattern="secret", path="keys/id.pem", output_mode="content")
    assert named == "Nothing matched."


def test_deny_patterns_become_negative_globs(search) -> None:
    search.deny("*.pem", "/config/**", "**/cache/x")
    from hands.tools.search._deny import read_deny_seam

    seam = read_deny_seam(search.ctx)
    root = search.root
    assert seam.rg_globs(search_root=root, default_root=root) == [
        "!*.pem",
        "!/config/**",
        "!**/cache/x",
    ]
    # Searching inside the anchored directory: everything below it is denied.
    assert seam.rg_globs(search_root=root / "config", default_root=root) == [
        "!*.pem",
        "!/**",
        "!**/cache/x",
    ]
    assert seam.rg_globs(search_root=root / "src", default_root=root) == ["!*.pem", "!**/cache/x"]


def test_time_limit_gives_a_defined_result(search, monkeypatch: pytest.MonkeyPatch) -> None:
    # enough files that rg cannot finish before the limit is first checked, even when
    # the machine is busy (a search that finished in time is complete, not stopped)
    search.write({f"d{i // 100}/f{i}.txt": "x\n" for i in range(3000)})
    monkeypatch.setenv("HANDS_GREP_TIMEOUT_SECONDS", "0.000001")
    for mode in ("files_with_matches", "content", "count"):
        text = search.ok("Grep", pattern="x", output_mode=mode)
        assert "stopped after 1e-06 s" in text and "incomplete" in text


# -- schema, flags, args, parsing, rendering ---------------------------------------------


def test_schema_uses_claude_code_keys() -> None:
    tool = GrepTool()
    schema = tool.input_schema
    assert set(schema["properties"]) == {
        "pattern",
        "path",
        "glob",
        "output_mode",
        "-B",
        "-A",
        "-C",
        "context",
        "-n",
        "-i",
        "-o",
        "type",
        "head_limit",
        "offset",
        "multiline",
    }
    assert schema["required"] == ["pattern"]
    assert schema["properties"]["output_mode"]["enum"] == ["content", "files_with_matches", "count"]
    parsed = tool.parse_input({"pattern": "x", "-i": "true", "-A": "2", "head_limit": "5"})
    assert parsed.case_insensitive is True and parsed.after == 2 and parsed.head_limit == 5
    assert tool.is_read_only(parsed) and tool.is_concurrency_safe(parsed)
    assert tool.max_result_chars == 20_000
    entry = find_builtin("Grep")
    assert entry is not None and isinstance(entry.load(), GrepTool)


def test_rg_args() -> None:
    args = rg_args(GrepInput(pattern="-x", glob="*.py"), target=".")
    assert args[:6] == ["--no-config", "--no-mmap", "--hidden", "--null", "--max-columns", "500"]
    assert args[-4:] == ["--regexp", "-x", "--", "."]
    assert "--files-with-matches" in args
    for vcs in (".git", ".svn", ".hg", ".bzr", ".jj", ".sl"):
        assert "!" + vcs in args
    content = rg_args(
        GrepInput.model_validate(
            {"pattern": "x", "output_mode": "content", "-i": True, "multiline": True}
        ),
        target="src",
    )
    for flag in (
        "--heading",
        "--line-number",
        "--ignore-case",
        "--multiline",
        "--multiline-dotall",
    ):
        assert flag in content


def test_parse_heading() -> None:
    data = b"a.txt\x001:x\n2-y\n--\n5:x\n\nb.txt\x003:x\n"
    blocks = parse_heading(data)
    assert [(p, data[lo:hi]) for p, lo, hi in blocks] == [
        (b"a.txt", b"1:x\n2-y\n--\n5:x"),
        (b"b.txt", b"3:x"),
    ]
    # Without line numbers an empty matching line stays a line of its file.
    plain = b"a.txt\x00x\n\n\nb.txt\x00y\n"
    assert [plain[lo:hi] for _, lo, hi in parse_heading(plain)] == [b"x\n", b"y"]
    assert parse_heading(b"") == []


def test_rendering(render: Render) -> None:
    tool = GrepTool()
    use = render(
        tool.render_use(
            GrepInput.model_validate(
                {"pattern": "def main", "path": "src", "glob": "*.py", "output_mode": "content"}
            )
        )
    )
    assert use == '● Grep(pattern: "def main", path: "src", glob: "*.py", output_mode: content)\n'
    files = GrepOutput(
        mode="files_with_matches",
        filenames=("/a",) * 250,
        num_files=300,
        total_entries=300,
        applied_limit=250,
    )
    assert render(tool.render_result(files)) == "  ⎿ Found 300 files (showing 1–250)\n"
    count = GrepOutput(mode="count", num_files=3, num_matches=12, num_lines=3, total_entries=3)
    assert render(tool.render_result(count)) == "  ⎿ Found 12 matches across 3 files\n"
    content = GrepOutput(mode="content", num_lines=1, total_lines=1, total_entries=1)
    assert render(tool.render_result(content)) == "  ⎿ Found 1 line\n"
    late = GrepOutput(mode="content", num_lines=0, total_lines=5, total_entries=5, timed_out=True)
    assert "stopped at the time limit" in render(tool.render_result(late))
    assert render(tool.render_error("rg: regex parse error")) == "  ⎿ rg: regex parse error\n"


def test_glob_and_grep_calls_share_one_parallel_batch(search) -> None:
    from hands.core.messages import ToolUseBlock
    from hands.orchestration.partition import partition

    calls = [
        ToolUseBlock(id="1", name="Grep", input={"pattern": "x"}),
        ToolUseBlock(id="2", name="Glob", input={"pattern": "**/*.py"}),
        ToolUseBlock(id="3", name="Grep", input={"pattern": "y", "output_mode": "count"}),
    ]
    batches = partition(calls, search.runtime.tools)
    assert len(batches) == 1 and batches[0].concurrent
    assert [c.id for c in batches[0].calls] == ["1", "2", "3"]


def test_unreadable_files_are_a_note_beside_the_results() -> None:
    errors = tuple(f"/p/f{i}: Permission denied (os error 13)" for i in range(7))
    output = GrepOutput(
        mode="files_with_matches",
        filenames=("/p/a.py",),
        num_files=1,
        total_entries=1,
        unreadable=errors,
    )
    text = format_output(output)
    assert text.startswith("1 matching file:\n/p/a.py")
    assert "7 files could not be read and were not searched" in text
    assert "/p/f4: Permission denied" in text and "/p/f5" not in text
    assert "… and 2 more" in text


def test_a_pattern_that_is_not_valid_unicode_is_a_plain_error(search) -> None:
    text = search.err("Grep", pattern="x\ud800")
    assert "not valid Unicode" in text and "UnicodeEncodeError" not in text


def test_a_nul_in_the_file_type_is_a_plain_error(search) -> None:
    text = search.err("Grep", pattern="a", type="py\0")
    assert "NUL byte" in text and "ValueError" not in text
