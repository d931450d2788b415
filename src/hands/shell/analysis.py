"""Shell command analysis over the tree-sitter-bash syntax tree.

:func:`analyze` parses a command line into its simple commands (across ``&&``, ``||``,
``;``, pipes, ``&``, newlines, subshells, substitutions, here-docs...), strips wrappers
(``timeout``, ``nice``, safe ``LANG=C`` assignments...) and reports redirections and the
constructs that hide or obscure commands. :func:`is_read_only` gives the read-only
verdict (:mod:`hands.shell.readonly`: an allow-list over the parsed argv with per-command
flag rules).

Everything fails closed: a parse error, a node type this module does not know, a word
whose value is not static where it matters, or a flag a rule does not recognise makes a
command not read-only, and makes :meth:`Analysis.split` return ``None``.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import TYPE_CHECKING

from hands.shell.characters import hidden_character
from hands.shell.readonly import analysis_is_read_only
from hands.shell.syntax import (
    Analysis,
    Arg,
    ArgKind,
    Redirect,
    RedirectKind,
    SimpleCommand,
)

if TYPE_CHECKING:
    from tree_sitter import Node, Parser

MAX_ANALYSED_CHARS = 100_000
"""Longer commands are not analysed at all (and so are never read-only)."""

# Commands that run, load or rewrite other commands; their arguments hide commands.
_HIDING_COMMANDS: dict[str, str] = {
    "eval": "eval",
    "source": "source",
    ".": "source",
    "exec": "exec",
    "trap": "trap",
    "alias": "alias",
    "sudo": "sudo",
    "doas": "doas",
    "su": "su",
    "env": "env with a command",
    "watch": "watch",
    "setsid": "setsid",
    "flock": "flock",
    "ionice": "ionice",
    "chroot": "chroot",
    "nsenter": "nsenter",
    "unshare": "unshare",
    "parallel": "parallel",
    "script": "script",
    "xargs": "xargs with options",
    "ssh": "ssh",
}
_SHELLS = frozenset({"bash", "sh", "zsh", "dash", "ksh", "mksh", "fish", "csh", "tcsh", "busybox"})
_ZSH_ISMS = frozenset(
    {"noglob", "nocorrect", "zmodload", "emulate", "autoload", "zle", "zstyle", "zpty", "ztcp"}
)
_FIND_EXEC = frozenset({"-exec", "-execdir", "-ok", "-okdir"})

_SEPARATORS = frozenset({";", "&&", "||", "|", "|&", "&", "\n"})
_ARG_TYPES = frozenset(
    {
        "word",
        "number",
        "string",
        "raw_string",
        "ansi_c_string",
        "translated_string",
        "concatenation",
        "simple_expansion",
        "expansion",
        "command_substitution",
        "process_substitution",
        "arithmetic_expansion",
        "brace_expression",
    }
)
_CONTROL_TYPES = frozenset(
    {
        "if_statement",
        "elif_clause",
        "else_clause",
        "while_statement",
        "for_statement",
        "c_style_for_statement",
        "case_statement",
        "case_item",
        "do_group",
        "function_definition",
        "test_command",
    }
)
EVALUATING_TEST = "test that evaluates its operands"
"""``-v``/``-R`` (and arithmetic comparisons in ``[[ ]]``) evaluate array subscripts, so a
quoted ``a[$(cmd)]`` operand runs ``cmd``: such a test is not read-only."""
_EVALUATING_TEST = re.compile(
    r"(?:^|\s)-(?:v|R)(?:\s|$)|^\[\[.*\s-(?:eq|ne|lt|le|gt|ge)(?:\s|$)", re.S
)
_SPACED_TEST = re.compile(r"\[\[\s(?:.*\s)?\]\]|\[\s(?:.*\s)?\]", re.S)
"""A test as bash reads one: ``[`` / ``[[`` and the closing bracket stand apart from the
operands. ``[x]`` is a glob that runs whatever it matches, ``[]`` a command named so."""
_STATEMENT_TYPES = frozenset(
    {
        "command",
        "list",
        "pipeline",
        "redirected_statement",
        "subshell",
        "compound_statement",
        "negated_command",
        "variable_assignment",
        "variable_assignments",
        "declaration_command",
        "unset_command",
        *_CONTROL_TYPES,
    }
)


def analyze(command: str) -> Analysis:
    """Parse and analyse ``command``; never raises."""
    return _analyze_cached(command)


def split_command(command: str) -> tuple[str, ...] | None:
    """The simple commands of ``command``, or None when it is not fully understood."""
    return analyze(command).split()


def is_read_only(command: str) -> bool:
    """Whether ``command`` provably changes nothing (fail closed)."""
    return analysis_is_read_only(analyze(command))


@lru_cache(maxsize=1)
def _parser() -> Parser:
    import tree_sitter
    import tree_sitter_bash

    return tree_sitter.Parser(tree_sitter.Language(tree_sitter_bash.language()))


@lru_cache(maxsize=512)
def _analyze_cached(command: str) -> Analysis:
    if not command.strip():
        return Analysis(source=command, problems=("empty command",))
    if "\x00" in command:
        return Analysis(source=command, problems=("NUL byte in command",))
    hidden = hidden_character(command)
    if hidden is not None:
        return Analysis(source=command, problems=(f"non-printing character {hidden}",))
    if len(command) > MAX_ANALYSED_CHARS:
        return Analysis(source=command, problems=("command too long to analyse",))
    if _crashes_parser(command):
        return Analysis(
            source=command,
            problems=("a character after '{' that the shell parser cannot handle safely",),
        )
    data = command.encode("utf-8", errors="surrogatepass")
    try:
        tree = _parser().parse(data)
    except Exception as exc:  # the parser is C code; any failure means "not understood"
        return Analysis(source=command, problems=(f"parse failed: {exc}",))
    walker = _Walker(data)
    root = tree.root_node
    if root.has_error:
        walker.problems.append("syntax error")
    try:
        walker.sequence(root)
    except RecursionError:
        walker.problems.append("command nested too deeply")
    return Analysis(
        source=command,
        commands=tuple(walker.commands),
        problems=tuple(dict.fromkeys(walker.problems)),
        hidden=tuple(dict.fromkeys(walker.hidden)),
        opaque=tuple(dict.fromkeys(walker.opaque)),
        redirects=tuple(walker.redirects),
    )


def _crashes_parser(command: str) -> bool:
    """Whether ``command`` may crash tree-sitter-bash (memory error, not an exception).

    tree-sitter-bash 0.25 reads out of bounds on a ``{`` followed later by a character
    outside the Basic Multilingual Plane (four UTF-8 bytes; upstream issue #337). Such
    commands are not parsed at all, so they are never understood or read-only.
    """
    brace = command.find("{")
    if brace < 0:
        return False
    return any(ord(ch) > 0xFFFF for ch in command[brace + 1 :])


class _Walker:
    __slots__ = ("commands", "hidden", "opaque", "problems", "redirects", "source")

    def __init__(self, source: bytes) -> None:
        self.source = source
        self.commands: list[SimpleCommand] = []
        self.problems: list[str] = []
        self.hidden: list[str] = []
        self.opaque: list[str] = []
        self.redirects: list[Redirect] = []

    def text(self, node: Node) -> str:
        return self.source[node.start_byte : node.end_byte].decode("utf-8", "surrogatepass")

    # -- statements ---------------------------------------------------------------------

    def sequence(self, node: Node) -> None:
        """A node whose children are statements and separators."""
        for child in node.children:
            kind = child.type
            if child.is_named:
                if kind == "comment":
                    continue
                self.statement(child)
            elif kind == "&":
                self.opaque.append("background &")
            elif kind not in _SEPARATORS:
                self.problems.append(f"unexpected {kind!r}")

    def statement(self, node: Node) -> None:
        kind = node.type
        if node.is_missing or kind == "ERROR":
            self.problems.append("syntax error")
        elif kind == "command":
            self.command(node, ())
        elif kind in ("list", "pipeline", "program"):
            self.sequence(node)
        elif kind == "compound_statement":
            self.opaque.append("group in braces")
            self.grouped(node, ("{", "}"))
        elif kind == "subshell":
            self.opaque.append("subshell")
            self.grouped(node, ("(", ")"))
        elif kind == "negated_command":
            self.grouped(node, ("!",))
        elif kind == "redirected_statement":
            self.redirected(node)
        elif kind in ("variable_assignment", "variable_assignments"):
            self.opaque.append("variable assignment")
            self.scan(node)
        elif kind in ("declaration_command", "unset_command"):
            self.opaque.append(f"{self.text(node.children[0])} changes shell state")
            self.scan(node)
        elif kind in _CONTROL_TYPES:
            if kind == "for_statement" and node.children and node.children[0].type == "select":
                self.opaque.append("select menu")  # prompts and reads the answer
            else:
                self.opaque.append(kind.replace("_", " "))
            if kind == "test_command":
                text = self.text(node)
                if not _SPACED_TEST.fullmatch(text):
                    self.problems.append(f"{text[:40]!r} is not a test bash runs as one")
                if _EVALUATING_TEST.search(text):
                    self.opaque.append(EVALUATING_TEST)
            self.control(node)
        else:
            self.problems.append(f"unsupported syntax: {kind}")

    def grouped(self, node: Node, tokens: tuple[str, ...]) -> None:
        for child in node.children:
            if child.is_named:
                if child.type != "comment":
                    self.statement(child)
            elif child.type == "&":
                self.opaque.append("background &")
            elif child.type not in tokens and child.type not in _SEPARATORS:
                self.problems.append(f"unexpected {child.type!r}")

    def control(self, node: Node) -> None:
        for child in node.children:
            if not child.is_named or child.type == "comment":
                continue
            if child.type in _STATEMENT_TYPES:
                self.statement(child)
            elif child.type in ("file_redirect", "heredoc_redirect", "herestring_redirect"):
                self.redirects.append(self.redirect(child))
            else:
                self.scan(child)

    def redirected(self, node: Node) -> None:
        body: Node | None = None
        redirects: list[Redirect] = []
        for child in node.children:
            if child.type in ("file_redirect", "heredoc_redirect", "herestring_redirect"):
                redirects.append(self.redirect(child))
            elif child.is_named and body is None:
                body = child
            elif child.is_named:
                self.problems.append(f"unexpected {child.type} in redirection")
            elif child.type != "&":
                self.problems.append(f"unexpected {child.type!r}")
        if body is None:
            self.problems.append("redirection without a command")
        elif body.type == "command":
            self.command(body, tuple(redirects))
        else:
            self.statement(body)
        self.redirects.extend(redirects)

    # -- redirections ---------------------------------------------------------------------

    def redirect(self, node: Node) -> Redirect:
        text = self.text(node)
        if node.type == "heredoc_redirect":
            start = next((c for c in node.children if c.type == "heredoc_start"), None)
            if start is None or not any(q in self.text(start) for q in "'\"\\"):
                self.opaque.append("here-document with expansions")
            for child in node.children:
                if child.type == "heredoc_body":
                    self.scan(child)
                elif child.type in ("file_redirect", "herestring_redirect"):
                    self.redirects.append(self.redirect(child))
                elif child.is_named and child.type not in ("heredoc_start", "heredoc_end"):
                    if child.type in _STATEMENT_TYPES:
                        # ``cat <<EOF | sh``: the pipeline continues after the marker
                        self.statement(child)
                    else:
                        self.scan(child)
            return Redirect(op="<<", kind="heredoc", fd=None, target=None, text=text)
        fd: str | None = None
        op = ""
        target: Arg | None = None
        for child in node.children:
            if child.type == "file_descriptor":
                fd = self.text(child)
            elif not child.is_named:
                op = child.type
            elif target is None:
                target = self.arg(child)
            else:
                # tree-sitter attaches extra words after the target; bash treats them as args
                self.problems.append("unexpected words after a redirection target")
        if node.type == "herestring_redirect":
            return Redirect(op="<<<", kind="herestring", fd=fd, target=None, text=text)
        value = target.value if target is not None and target.kind == "literal" else None
        kind: RedirectKind
        if op == "<":
            kind = "read"
        elif op in (">&", "<&") and value is not None and (value.isdigit() or value == "-"):
            kind = "dup"
        elif op in (">&-", "<&-") and target is None:
            kind = "dup"  # closes the descriptor
        elif op in (">", ">>", ">|", "&>", "&>>", ">&", "<>", "<&"):
            kind = "write" if op != "<&" else "read"
        else:
            self.problems.append(f"unknown redirection {op!r}")
            kind = "write"
        return Redirect(op=op, kind=kind, fd=fd, target=value, text=text)

    # -- commands -------------------------------------------------------------------------

    def command(self, node: Node, redirects: tuple[Redirect, ...]) -> None:
        assignments: list[str] = []
        args: list[Arg] = []
        own_redirects = list(redirects)
        for child in node.children:
            kind = child.type
            if kind == "variable_assignment":
                name_node = child.child_by_field_name("name")
                assignments.append(self.text(name_node) if name_node is not None else "?")
                if name_node is None or name_node.type != "variable_name":
                    self.problems.append("unusual assignment")
                self.scan(child)
            elif kind == "command_name":
                inner = child.named_children
                if len(inner) != 1:
                    self.problems.append("unusual command name")
                    continue
                args.append(self.arg(inner[0]))
            elif kind in _ARG_TYPES:
                args.append(self.arg(child))
            elif kind in ("file_redirect", "herestring_redirect", "heredoc_redirect"):
                r = self.redirect(child)
                own_redirects.append(r)
                self.redirects.append(r)
            elif kind == "comment":
                continue
            elif not child.is_named and kind in ("=~", "=="):
                self.problems.append(f"unexpected {kind!r}")  # ``[[`` parsed as a command
            else:
                self.problems.append(f"unsupported syntax in command: {kind}")
        rest, wrappers, via_xargs = self.strip_wrappers(args)
        simple = SimpleCommand(
            text=self.text(node),
            args=tuple(rest),
            wrappers=tuple(wrappers),
            assignments=tuple(assignments),
            redirects=tuple(own_redirects),
            via_xargs=via_xargs,
        )
        self.commands.append(simple)
        self.check_hidden(simple)

    def check_hidden(self, cmd: SimpleCommand) -> None:
        if not cmd.args:
            if cmd.wrappers:
                self.problems.append(f"{cmd.wrappers[-1]} without a command")
            return
        first = cmd.args[0]
        if first.kind != "literal" or first.value is None:
            self.hidden.append("expansion in command position")
            return
        name = first.value
        if not name:
            self.hidden.append("empty command name")
            return
        if name == "coproc":  # a reserved word the grammar reads as a command
            self.problems.append("coproc runs a command the analysis does not read")
            return
        if name in _ZSH_ISMS or name.startswith("="):
            self.hidden.append(f"zsh construct {name!r}")
        elif name in _SHELLS and len(cmd.args) > 1:
            self.hidden.append(f"{name} runs a script")
        elif name == "env" and len(cmd.args) > 1:
            self.hidden.append("env with a command")
        elif name == "exec" and len(cmd.args) == 1:
            self.opaque.append("exec changes the shell's file descriptors")
        elif name in _HIDING_COMMANDS and not (name == "env" and len(cmd.args) == 1):
            self.hidden.append(_HIDING_COMMANDS[name])
        elif name == "find" and any(a.value in _FIND_EXEC for a in cmd.args[1:]):
            self.hidden.append("find -exec")

    def strip_wrappers(self, args: list[Arg]) -> tuple[list[Arg], list[str], bool]:
        wrappers: list[str] = []
        via_xargs = False
        i = 0
        while i < len(args):
            head = args[i]
            if head.kind != "literal":
                break
            name = head.value
            j = _wrapper_end(name, args, i)
            if j is None:
                break
            if name == "xargs":
                via_xargs = True
            wrappers.append(name or "")
            i = j
        return args[i:], wrappers, via_xargs

    # -- words ----------------------------------------------------------------------------

    def arg(self, node: Node) -> Arg:
        text = self.text(node)
        value, kind = self.word_value(node)
        return Arg(text=text, value=value if kind != "dynamic" else None, kind=kind)

    def word_value(self, node: Node) -> tuple[str | None, ArgKind]:
        kind = node.type
        if kind == "word":
            raw = self.text(node)
            if _BRACE_EXPANSION.search(raw):
                self.opaque.append("brace expansion")
            return _unescape(raw), "glob" if _has_glob(raw) else "literal"
        if kind == "number":
            return self.text(node), "literal"
        if kind == "raw_string":
            return self.text(node)[1:-1], "literal"
        if kind == "string":
            parts: list[str] = []
            dynamic = False
            for child in node.children:
                if child.type == '"':
                    continue
                if child.type == "string_content":
                    parts.append(_unescape(self.text(child), _DQUOTE_ESCAPES))
                else:
                    dynamic = True
                    if child.type == "simple_expansion" and self.text(child) in _QUOTED_VARIABLES:
                        continue
                    if child.type == "simple_expansion":
                        self.opaque.append("variable")
                    self.scan(child)
            return ("".join(parts), "literal") if not dynamic else (None, "dynamic")
        if kind == "concatenation":
            if _BRACE_EXPANSION.search(self.text(node)):
                self.opaque.append("brace expansion")
            out: list[str] = []
            result: ArgKind = "literal"
            for child in node.children:
                if child.type == "word" and self.text(child) in ("{", "}"):
                    result = "glob" if result == "literal" else result
                value, sub = self.word_value(child)
                if sub == "dynamic" or value is None:
                    result = "dynamic"
                elif sub == "glob" and result == "literal":
                    result = "glob"
                out.append(value or "")
            return ("".join(out), result) if result != "dynamic" else (None, "dynamic")
        if kind == "brace_expression":
            self.opaque.append("brace expansion")
            return self.text(node), "glob"
        if kind == "simple_expansion":
            if self.text(node) not in _KNOWN_VARIABLES:
                self.opaque.append("variable")
            self.scan(node)
            return None, "dynamic"
        if kind == "expansion":
            self.scan(node)
            return None, "dynamic"
        if kind in ("command_substitution", "process_substitution", "arithmetic_expansion"):
            self.scan(node)
            return None, "dynamic"
        if kind in ("ansi_c_string", "translated_string"):
            self.opaque.append("ANSI-C or translated quoting")
            return None, "dynamic"
        self.problems.append(f"unsupported word: {kind}")
        self.scan(node)
        return None, "dynamic"

    def scan(self, node: Node) -> None:
        """Find what runs inside a word or expression: substitutions, prompt expansions."""
        kind = node.type
        if kind == "ERROR" or node.is_missing:
            self.problems.append("syntax error")
            return
        if kind == "command_substitution":
            first = node.children[0].type if node.children else ""
            self.opaque.append("backticks" if first == "`" else "command substitution")
            self.grouped(node, ("$(", ")", "`", "$(<"))
            return
        if kind == "process_substitution":
            self.opaque.append("process substitution")
            self.grouped(node, ("<(", ">(", ")"))
            return
        if kind == "arithmetic_expansion":
            self.opaque.append("arithmetic expansion")
        elif kind == "expansion":
            self.expansion(node)
        elif kind in _STATEMENT_TYPES and kind != "variable_assignment":
            self.statement(node)
            return
        for child in node.children:
            if child.is_named:
                self.scan(child)

    def expansion(self, node: Node) -> None:
        self.opaque.append("parameter expansion")
        tokens = [c.type for c in node.children]
        if "@" in tokens:
            at = tokens.index("@")
            op = self.text(node.children[at + 1]) if at + 1 < len(tokens) else ""
            if op in ("P", "E", "A", "K", "a", "k"):
                self.hidden.append(f"${{x@{op}}} expansion")
            else:
                self.opaque.append(f"${{x@{op}}} expansion")
        if "!" in tokens:
            self.opaque.append("indirect expansion")


def _wrapper_end(name: str | None, args: list[Arg], i: int) -> int | None:
    """Index just past the wrapper ``args[i]`` and its options, or None if not a wrapper."""
    n = len(args)

    def val(k: int) -> str | None:
        return args[k].value if k < n and args[k].kind == "literal" else None

    j = i + 1
    if name in ("nohup", "builtin"):
        return j
    if name == "command":
        if val(j) in ("-v", "-V"):
            return None
        while val(j) in ("-p", "--"):
            j += 1
        return j
    if name == "time":
        while val(j) in ("-p", "--"):
            j += 1
        v = val(j)
        return j if v is None or not v.startswith("-") else None
    if name == "xargs":
        v = val(j)
        return j if j < n and v is not None and not v.startswith("-") else None
    if name == "timeout":
        while (v := val(j)) is not None and v.startswith("-"):
            j += 2 if v in ("-s", "-k", "--signal", "--kill-after") else 1
            if v == "--":
                break
        return j + 1 if j < n else None
    if name == "nice":
        v = val(j)
        if v in ("-n", "--adjustment"):
            j += 2
        elif v is not None and v.startswith("-"):
            j += 1
        return j
    if name == "stdbuf":
        while (v := val(j)) is not None and v.startswith("-"):
            j += 2 if v in ("-i", "-o", "-e") else 1
        return j
    return None


_GLOB_CHARS = frozenset("*?[")
_BRACE_EXPANSION = re.compile(r"(?<!\\)\{[^{}\s]*(?:,|\.\.)[^{}\s]*\}")
_KNOWN_VARIABLES = frozenset({"$HOME"})
"""Variables whose value is known to the permission check (``$HOME`` is resolved there)."""
_QUOTED_VARIABLES = frozenset({"$HOME", "$PWD"})


def _has_glob(raw: str) -> bool:
    escaped = False
    brace = False
    for ch in raw:
        if escaped:
            escaped = False
        elif ch == "\\":
            escaped = True
        elif ch in _GLOB_CHARS:
            return True
        elif ch == "{":
            brace = True
        elif brace and ch in ",.":
            return True
    return False


_DQUOTE_ESCAPES = '$`"\\\n'
"""What a backslash escapes inside double quotes."""


def _unescape(raw: str, escapable: str | None = None) -> str:
    """``raw`` with its backslash escapes resolved (of ``escapable`` only, if given).

    A backslash before a newline joins the lines (both go).
    """
    if "\\" not in raw:
        return raw
    out: list[str] = []
    i = 0
    while i < len(raw):
        ch = raw[i]
        if ch == "\\" and i + 1 < len(raw) and (escapable is None or raw[i + 1] in escapable):
            if raw[i + 1] != "\n":
                out.append(raw[i + 1])
            i += 2
        else:
            out.append(ch)
            i += 1
    return "".join(out)


__all__ = [
    "MAX_ANALYSED_CHARS",
    "Analysis",
    "Arg",
    "Redirect",
    "SimpleCommand",
    "analyze",
    "is_read_only",
    "split_command",
]
