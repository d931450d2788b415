"""The Bash tool: one ``bash`` process per command, in its own process group."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pydantic import Field, field_validator

from hands.core.context import ToolContext
from hands.core.decision import (
    SANDBOX_AUTO_ALLOW,
    PermissionDecision,
    allow,
    ask,
    deny,
    passthrough,
)
from hands.core.schema import ToolInput
from hands.core.subject import runs_command
from hands.core.tool import Progress, Tool, ToolResult
from hands.tools.bash._settings import MAX_TIMEOUT_MS, BashSettings
from hands.tools.bash._shells import BackgroundShells

if TYPE_CHECKING:
    from rich.console import RenderableType

    from hands.tools.bash._process import ShellProcess
    from hands.tools.bash._runner import Capture

MAX_COMMAND_BYTES = 120_000
"""One argument to exec may not exceed 128 KiB on Linux; longer scripts go in a file."""
ASK_ABOVE_CHARS = 10_000
MAX_ERROR_CHARS = 10_000

DESCRIPTION = """\
Run a shell command with bash and return its combined stdout and stderr.

- Each call starts a fresh bash process. The working directory carries over to the next \
call while it stays inside the project's working directories; exported variables and \
shell state do not.
- `timeout` is in milliseconds (default 120000, at most 600000). A command still running \
then goes on as a background task, and a notice comes when it ends; one whose first \
word is `sleep` is killed instead, with every process it started.
- Prefer the dedicated tools for reading, searching and editing files; use Bash for \
builds, tests, git and other programs.
- Quote paths that contain spaces. Chain dependent steps with `&&`; run independent, \
read-only commands as separate calls so they can run in parallel.
- Set `run_in_background` for long-running commands (servers, watchers). You get a task \
id and an output file right away, and a notice in the conversation when the task ends \
(no need to poll); read new output with TaskOutput and stop the task with TaskStop. \
With `timeout` as well, the task is stopped once it has run that long. Do not append \
`&` yourself.
- Write `description` as a short active-voice summary of what the command does.
- Commands have no terminal and no stdin: avoid interactive programs and pagers.
- Output longer than about 30000 characters is saved to a file and you get a preview.
"""


class BashInput(ToolInput):
    """Input of the Bash tool."""

    command: str = Field(description="Shell code for bash to run")
    timeout: int | None = Field(
        default=None,
        ge=0,
        description=f"How long it may run, in milliseconds (at most {MAX_TIMEOUT_MS}; 0 or "
        "absent: the default); for a background task, when it is stopped",
    )
    description: str | None = Field(
        default=None,
        description="A short active-voice description of what the command does, "
        "e.g. 'List files in the current directory'",
    )
    run_in_background: bool = Field(
        default=False,
        description="Start it as a background task and return at once; a notice comes when it ends",
    )
    dangerouslyDisableSandbox: bool = Field(
        default=False,
        description="Run this command outside the sandbox (only when the settings allow it)",
    )

    @field_validator("timeout")
    @classmethod
    def _clamp(cls, value: int | None) -> int | None:
        # 0 is "no particular limit": the default, as Claude Code takes it
        return None if not value else min(value, MAX_TIMEOUT_MS)


@dataclass(frozen=True, kw_only=True, slots=True)
class BashOutput:
    """What a Bash call produced."""

    stdout: str
    """Merged stdout and stderr of the command."""
    stderr: str = ""
    """Notices added by the tool (cwd reset, omitted output...)."""
    exit_code: int | None = None
    interrupted: bool = False
    timed_out_after_ms: int | None = None
    return_code_interpretation: str | None = None
    background_task_id: str | None = None
    output_path: str | None = None
    background_limit_ms: int | None = None
    """How long the background task may run before it is stopped (``None``: no limit)."""
    sandboxed: bool = False


class BashTool(Tool[BashInput, BashOutput]):
    """Run shell commands; read-only ones (by syntax-tree analysis) run in parallel."""

    name = "Bash"
    session_states = (BackgroundShells,)
    in_background_agents = True
    subject = runs_command(shell=True)
    always_load = True
    simple_mode = True
    description = DESCRIPTION
    input_model = BashInput
    max_result_chars = 30_000
    handles_own_timeout = True
    cascades_errors = True

    def __init__(self, settings: BashSettings | None = None) -> None:
        self._settings = settings

    def settings_for(self, ctx: ToolContext) -> BashSettings:
        """The tool's own settings, else the session's."""
        if self._settings is not None:
            return self._settings
        return ctx.session.service(BashSettings)

    # -- flags ----------------------------------------------------------------------------

    def is_read_only(self, input: BashInput) -> bool:
        if input.run_in_background:
            return False
        from hands.shell.analysis import is_read_only

        return is_read_only(input.command)

    def is_concurrency_safe(self, input: BashInput) -> bool:
        return self.is_read_only(input)

    def is_destructive(self, input: BashInput) -> bool:
        from hands.shell.analysis import analyze

        analysis = analyze(input.command)
        if not analysis.understood:
            return True
        destructive = {"rm", "rmdir", "dd", "mkfs", "shred", "truncate", "mv", "chmod", "chown"}
        if any(c.name in destructive for c in analysis.commands):
            return True
        return any(r.writes_file and r.op in (">", ">|", "&>") for r in analysis.redirects)

    # -- permissions ----------------------------------------------------------------------

    async def validate_input(self, input: BashInput, ctx: ToolContext) -> str | None:
        command = input.command
        if not command.strip():
            return "The command is empty. Pass the shell command to run in `command`."
        if "\x00" in command:
            return "The command contains a NUL byte, which cannot be passed to a shell."
        from hands.shell.characters import hidden_character  # lazy: start-up

        hidden = hidden_character(command)
        if hidden is not None:
            return (
                f"The command contains a non-printing character ({hidden}), which would be "
                "invisible to whoever reviews it. Remove it, or write it as an escape such "
                "as $'\\r' or printf '\\r'."
            )
        size = len(command.encode("utf-8", "surrogatepass"))
        if size > MAX_COMMAND_BYTES:
            return (
                f"The command is too long ({size:,} bytes; at most {MAX_COMMAND_BYTES:,}). "
                "Write the script to a file and run that file instead."
            )
        if input.run_in_background and not self.settings_for(ctx).background_tasks:
            return "Background tasks are disabled in this session; run the command normally."
        return None

    async def check_permissions(self, input: BashInput, ctx: ToolContext) -> PermissionDecision:
        sandbox = self.settings_for(ctx).sandbox
        if input.dangerouslyDisableSandbox and sandbox.enabled:
            if not sandbox.allow_unsandboxed_commands:
                return deny(
                    "Running commands outside the sandbox is not allowed by the settings "
                    "(sandbox.allowUnsandboxedCommands is false). Run it sandboxed instead."
                )
            return ask("Run this command outside the sandbox?")
        if len(input.command) > ASK_ABOVE_CHARS:
            return ask(f"The command is longer than {ASK_ABOVE_CHARS:,} characters.")
        if sandbox.auto_allow and self.runs_sandboxed(input, ctx):
            return allow(SANDBOX_AUTO_ALLOW)
        return passthrough()

    def runs_sandboxed(self, input: BashInput, ctx: ToolContext) -> bool:
        """Whether this call would run inside the sandbox."""
        sandbox = self.settings_for(ctx).sandbox
        if not sandbox.enabled:
            return False
        if input.dangerouslyDisableSandbox and sandbox.allow_unsandboxed_commands:
            return False
        return not sandbox.excludes(input.command)

    async def preview(self, input: BashInput, ctx: ToolContext) -> str | None:
        lines = input.command.count("\n") + 1
        return input.command if lines == 1 else f"{lines} lines:\n{input.command}"

    # -- execution ------------------------------------------------------------------------

    async def call(
        self, input: BashInput, ctx: ToolContext, progress: Progress
    ) -> ToolResult[BashOutput]:
        from hands.config import env_file
        from hands.tools.bash._process import read_cwd, spawn
        from hands.tools.bash._runner import run_foreground
        from hands.tools.bash._snapshot import ShellSnapshot
        from hands.tools.bash.sandbox import sandbox as sb

        settings = self.settings_for(ctx)
        notes: list[str] = []
        cwd = ctx.cwd
        if not cwd.is_dir():
            cwd = ctx.root
            notes.append(
                f"The directory the shell was in no longer exists; commands now run in {cwd}."
            )
        use_sandbox = self.runs_sandboxed(input, ctx)
        timeout_ms = input.timeout if input.timeout is not None else settings.default_timeout_ms
        timeout_ms = min(timeout_ms, settings.max_timeout_ms)
        if use_sandbox:
            await sb.start_network(ctx, settings.sandbox)
        setup, setup_note = await ShellSnapshot.for_session(ctx.session).prelude()
        if setup_note:
            notes.append(f"Note: {setup_note}")
        exports, env_notes = env_file.prelude(ctx.session)
        notes += env_notes
        prelude = setup + exports

        if input.run_in_background:
            shells = BackgroundShells.for_session(ctx.session)
            task = shells.start(
                input.command,
                cwd=cwd,
                ctx=ctx,
                sandbox=settings.sandbox if use_sandbox else None,
                description=input.description,
                prelude=prelude,
                limit_ms=input.timeout,
            )
            return ToolResult(
                output=BashOutput(
                    stdout="",
                    background_task_id=task.id,
                    output_path=str(task.output_path),
                    background_limit_ms=input.timeout,
                    sandboxed=use_sandbox,
                )
            )

        report_cwd = not settings.maintain_project_dir
        launch = sb.prepare(
            input.command, cwd=cwd, ctx=ctx, settings=settings.sandbox if use_sandbox else None
        )
        try:
            proc = spawn(
                launch.argv,
                cwd=cwd,
                env=launch.env,
                report_cwd=report_cwd,
                extra_fds=launch.fds,
                setup=prelude,
            )
        finally:
            launch.close()

        def to_background(p: ShellProcess, capture: Capture) -> bool:
            if not settings.background_tasks or not settings.background_on_timeout:
                return False
            if starts_with_sleep(input.command):
                return False  # a wait that ran out: nothing is gained by waiting longer
            shells = BackgroundShells.for_session(ctx.session)
            task = shells.adopt(
                p,
                input.command,
                capture.text(),
                ctx=ctx,
                limit_ms=settings.max_timeout_ms,
                description=input.description,
            )
            moved.append(task.id)
            moved.append(str(task.output_path))
            return True

        moved: list[str] = []

        def emit(chunk: str) -> None:
            progress(chunk)

        try:
            outcome = await run_foreground(
                proc, timeout_s=timeout_ms / 1000, progress=emit, on_timeout=to_background
            )
            final_cwd = read_cwd(proc) if report_cwd and not outcome.timed_out else None
        finally:
            if not moved:
                proc.close_cwd()  # an adopted shell still writes its cwd there on exit
            if use_sandbox:
                notes += sb.remove_created(launch, ctx.session.directory / "quarantine")
        if outcome.detached:
            return ToolResult(
                output=BashOutput(
                    stdout=outcome.capture.text(),
                    timed_out_after_ms=timeout_ms,
                    background_task_id=moved[0],
                    output_path=moved[1],
                    background_limit_ms=settings.max_timeout_ms,
                    sandboxed=use_sandbox,
                )
            )

        modifier = None
        if report_cwd and not outcome.timed_out:
            modifier, note = _cwd_change(ctx, cwd, final_cwd)
            if note:
                notes.append(note)
        elif cwd != ctx.cwd:
            modifier = _move_to(cwd)

        text = outcome.capture.text().rstrip("\n")
        code = outcome.exit_code
        if outcome.stopped:
            notes.append(_stopped_note(outcome.stopped))
        if outcome.too_much_output:
            from hands.tools.bash._runner import MAX_OUTPUT_BYTES

            notes.append(
                f"The command printed more than {MAX_OUTPUT_BYTES // (1024 * 1024)} MiB and "
                "was stopped. Redirect large output to a file and inspect it with head/grep."
            )
        if outcome.timed_out:
            output = BashOutput(
                stdout=text,
                stderr="\n".join(notes),
                exit_code=code,
                interrupted=True,
                timed_out_after_ms=timeout_ms,
                sandboxed=use_sandbox,
            )
            return ToolResult(output=output, is_error=True, context_modifier=modifier)

        from hands.tools.bash._semantics import interpret_exit

        meaning = interpret_exit(input.command, code if code is not None else -1)
        is_error = meaning.is_error or outcome.too_much_output
        if use_sandbox and is_error:
            hint = sb.failure_hint(text, launch.blocked(), sb.bound_paths(ctx, settings.sandbox))
            if hint:
                notes.append(hint)
        output = BashOutput(
            stdout=text,
            stderr="\n".join(notes),
            exit_code=code,
            return_code_interpretation=meaning.interpretation,
            sandboxed=use_sandbox,
        )
        return ToolResult(output=output, is_error=is_error, context_modifier=modifier)

    # -- rendering ------------------------------------------------------------------------

    def to_content(self, output: BashOutput) -> str:
        from hands.tools.bash._ending import duration, shell_code  # lazy: start-up

        if output.background_task_id is not None:
            return _background_content(output)
        parts: list[str] = []
        if (
            output.exit_code is not None
            and output.exit_code != 0
            and (output.return_code_interpretation is None or output.timed_out_after_ms)
        ):
            parts.append(f"Exit code {shell_code(output.exit_code)}")
        if output.stdout:
            parts.append(output.stdout)
        if output.timed_out_after_ms is not None:
            parts.append(
                f"Killed when its {duration(output.timed_out_after_ms)} timeout ran out, "
                "together with every process it had started. For a longer run give a "
                "larger timeout, or start it with run_in_background."
            )
        if output.stderr:
            parts.append(output.stderr)
        if output.return_code_interpretation:
            parts.append(f"(exit code {output.exit_code}: {output.return_code_interpretation})")
        text = "\n".join(parts)
        failed = output.timed_out_after_ms is not None or (
            output.exit_code not in (0, None) and output.return_code_interpretation is None
        )
        if failed and len(text) > MAX_ERROR_CHARS:
            from hands.core.outcome import truncate_middle

            text = truncate_middle(text, MAX_ERROR_CHARS)
        return text

    def user_facing_name(self, input: BashInput | None = None) -> str:
        if input is not None and self._settings is not None and self._settings.sandbox.enabled:
            return "Bash" if input.dangerouslyDisableSandbox else "SandboxedBash"
        return "Bash"

    def describe_input(self, input: BashInput) -> str:
        text = " ".join(input.command.split("\n")[:1])
        if "\n" in input.command:
            text += " …"
        if input.run_in_background:
            text += " (background)"
        return text if len(text) <= 80 else text[:79] + "…"

    def render_progress(self, data: Any) -> RenderableType:
        from hands.core.render import dim_text

        lines = str(data).rstrip("\n").splitlines()[-5:]
        return dim_text("\n    ".join(lines))

    def render_result(self, output: BashOutput) -> RenderableType:
        from hands.core.render import result_text

        if output.background_task_id is not None:
            return result_text(f"Running in the background (id {output.background_task_id})")
        content = self.to_content(output)
        return result_text(content if content.strip() else "(No output)")


def _cwd_change(ctx: ToolContext, started: Path, final: str | None) -> tuple[Any, str | None]:
    target: Path | None = None
    note: str | None = None
    if final:
        new = Path(final)
        if new != started:
            if ctx.is_inside_working_dirs(new):
                target = new
            else:
                target = ctx.root
                note = (
                    f"The command ended outside the project's working directories, so the "
                    f"next command starts in {ctx.root} again."
                )
    if target is None and started != ctx.cwd:
        target = started
    if target is None or target == ctx.cwd:
        return None, note
    return _move_to(target), note


def _move_to(target: Path) -> Callable[[ToolContext], ToolContext]:
    def modifier(c: ToolContext) -> ToolContext:
        # pin the project directory, so that "inside the working directories" keeps
        # meaning the directory the session started in
        return c.with_changes(cwd=target, project_dir=c.root)

    return modifier


def starts_with_sleep(command: str) -> bool:
    """Whether the command's first word is ``sleep``.

    Such a command is killed at its timeout rather than moved to the background.
    """
    words = command.split(maxsplit=1)
    return bool(words) and words[0].rstrip(";&|") == "sleep"


def _background_content(output: BashOutput) -> str:
    from hands.tools.bash._ending import duration  # lazy: start-up

    task, path = output.background_task_id, output.output_path
    limit = output.background_limit_ms
    if output.timed_out_after_ms is None:
        text = f"Started in the background as task {task}; its output goes to {path}."
    else:
        text = (
            f"Not finished after {duration(output.timed_out_after_ms)}, so it goes on in "
            f"the background as task {task} (output: {path}). It is still running: do not "
            "start it a second time."
        )
    text += " A notice comes into this conversation when it ends"
    text += f"; if it runs {duration(limit)} it is stopped." if limit else "."
    text += " For its output so far, Read that file or call TaskOutput; TaskStop ends it."
    if output.timed_out_after_ms is not None:
        so_far = output.stdout.rstrip("\n")
        text += f"\nOutput so far:\n{so_far}" if so_far else "\nIt had printed nothing yet."
    return text


def _stopped_note(programs: tuple[str, ...]) -> str:
    counts = Counter(programs)
    named = ", ".join(f"{name} ×{n}" if n > 1 else name for name, n in counts.most_common(5))
    if len(counts) > 5:
        named += ", …"
    n = len(programs)
    return (
        f"Stopped {n} process{'es' if n != 1 else ''} the command left running ({named}): "
        "what a command starts in the background (&, nohup, setsid) ends when the command "
        "does. To keep a program running, start it with run_in_background: true and check "
        "on it with TaskOutput."
    )
