"""The tool pool: built-ins and extra tools, filtered, de-duplicated and sorted by name."""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from hands.core.tool import Tool, ToolSpec

if TYPE_CHECKING:
    from hands.core.decision import PermissionPolicy
    from hands.core.subject import RuleSubject


@dataclass(frozen=True, kw_only=True, slots=True)
class Builtin:
    """Where a built-in tool lives, so one tool can be loaded without the others."""

    name: str
    module: str
    cls: str
    aliases: tuple[str, ...] = ()
    offered: Callable[[], bool] | None = None
    """The tool's ``is_enabled`` answered without importing its module (None: always on).
    A pool leaves out a built-in this says no to; one it says yes to is still asked."""
    served_beside: str | None = None
    """When the pool leaves this built-in out, a call to it is still served while the pool
    has the tool named here: models trained on an older or the other tool set call it
    (TodoWrite in a session of Task tools, the legacy LS beside Glob)."""

    def load(self) -> Tool[Any, Any]:
        """Import the module and make the tool."""
        return self.tool_class()()

    def tool_class(self) -> type[Tool[Any, Any]]:
        """Import the module; the tool's class (its declarations, without an instance)."""
        return getattr(importlib.import_module(self.module), self.cls)


def _browser_offered() -> bool:
    from hands.tools.browser import offered

    return offered()


def _tasks_on() -> bool:
    from hands.tools.planning import tasks_enabled

    return tasks_enabled()


def _todos_on() -> bool:
    return not _tasks_on()


def _browser(action: str, cls: str) -> Builtin:
    """A browser tool's row: ``Browser_<action>`` in its own module, alias ``browser_<action>``."""
    return Builtin(
        name=f"Browser_{action}",
        module=f"hands.tools.browser.browser_{action}",
        cls=cls,
        aliases=(f"browser_{action}",),
        offered=_browser_offered,
    )


def _never() -> bool:
    return False


def _task(name: str, module: str, cls: str) -> Builtin:
    return Builtin(
        name=name,
        module=f"hands.tools.planning.{module}",
        cls=cls,
        offered=_tasks_on,
        served_beside="TodoWrite",
    )


# Every built-in tool, imported only when the pool (or that one tool) is built.
BUILTIN_TOOLS: tuple[Builtin, ...] = (
    Builtin(
        name="Read",
        module="hands.tools.file.read",
        cls="ReadTool",
        aliases=("View", "NotebookRead"),
    ),
    Builtin(name="Write", module="hands.tools.file.write", cls="WriteTool"),
    Builtin(name="Edit", module="hands.tools.file.edit", cls="EditTool"),
    Builtin(name="MultiEdit", module="hands.tools.file.multi_edit", cls="MultiEditTool"),
    Builtin(name="NotebookEdit", module="hands.tools.file.notebook_edit", cls="NotebookEditTool"),
    Builtin(name="Glob", module="hands.tools.search.glob", cls="GlobTool"),
    Builtin(name="Grep", module="hands.tools.search.grep", cls="GrepTool"),
    Builtin(
        name="LS",
        module="hands.tools.search.ls",
        cls="LSTool",
        aliases=("LSTool",),
        offered=_never,
        served_beside="Glob",
    ),
    Builtin(name="Bash", module="hands.tools.bash.bash", cls="BashTool"),
    Builtin(name="WebFetch", module="hands.tools.web.web_fetch", cls="WebFetchTool"),
    Builtin(name="WebSearch", module="hands.tools.web.web_search", cls="WebSearchTool"),
    _browser("navigate", "BrowserNavigateTool"),
    _browser("snapshot", "BrowserSnapshotTool"),
    _browser("click", "BrowserClickTool"),
    _browser("type", "BrowserTypeTool"),
    _browser("select_option", "BrowserSelectOptionTool"),
    _browser("press_key", "BrowserPressKeyTool"),
    _browser("hover", "BrowserHoverTool"),
    _browser("scroll", "BrowserScrollTool"),
    _browser("wait_for", "BrowserWaitForTool"),
    _browser("back", "BrowserBackTool"),
    _browser("forward", "BrowserForwardTool"),
    _browser("screenshot", "BrowserScreenshotTool"),
    _browser("tabs", "BrowserTabsTool"),
    _browser("close", "BrowserCloseTool"),
    Builtin(
        name="EnterPlanMode", module="hands.tools.plan.enter_plan_mode", cls="EnterPlanModeTool"
    ),
    Builtin(
        name="ExitPlanMode",
        module="hands.tools.plan.exit_plan_mode",
        cls="ExitPlanModeTool",
        aliases=("exit_plan_mode",),
    ),
    Builtin(name="CronCreate", module="hands.tools.schedule.cron_create", cls="CronCreateTool"),
    Builtin(name="CronList", module="hands.tools.schedule.cron_list", cls="CronListTool"),
    Builtin(name="CronDelete", module="hands.tools.schedule.cron_delete", cls="CronDeleteTool"),
    Builtin(
        name="ScheduleWakeup",
        module="hands.tools.schedule.schedule_wakeup",
        cls="ScheduleWakeupTool",
    ),
    Builtin(
        name="EnterWorktree",
        module="hands.tools.worktree.enter_worktree",
        cls="EnterWorktreeTool",
    ),
    Builtin(
        name="ExitWorktree",
        module="hands.tools.worktree.exit_worktree",
        cls="ExitWorktreeTool",
    ),
    Builtin(name="Monitor", module="hands.tools.bash.monitor", cls="MonitorTool"),
    Builtin(
        name="TaskOutput",
        module="hands.tools.bash.task_output",
        cls="TaskOutputTool",
        aliases=("BashOutput", "AgentOutputTool"),
    ),
    Builtin(
        name="TaskStop",
        module="hands.tools.bash.task_stop",
        cls="TaskStopTool",
        aliases=("KillShell", "KillBash"),
    ),
    Builtin(name="ListAgents", module="hands.tools.agent.list_agents", cls="ListAgentsTool"),
    Builtin(name="SendMessage", module="hands.tools.agent.send_message", cls="SendMessageTool"),
    Builtin(
        name="TodoWrite",
        module="hands.tools.planning.todo_write",
        cls="TodoWriteTool",
        offered=_todos_on,
        served_beside="TaskCreate",
    ),
    _task("TaskCreate", "task_create", "TaskCreateTool"),
    _task("TaskGet", "task_get", "TaskGetTool"),
    _task("TaskList", "task_list", "TaskListTool"),
    _task("TaskUpdate", "task_update", "TaskUpdateTool"),
    Builtin(
        name="AskUserQuestion",
        module="hands.tools.planning.ask_user_question",
        cls="AskUserQuestionTool",
    ),
)


FETCHER = "WebFetch"
"""The built-in that fetches URLs for the model: its ``domain:`` rules open the network."""


class ToolPool:
    """An immutable, name-sorted set of tools with lookup by name or alias."""

    def __init__(
        self, tools: Iterable[Tool[Any, Any]] = (), *, serves_unlisted: bool = True
    ) -> None:
        self.serves_unlisted = serves_unlisted
        """Whether a call to a built-in left out is served beside its partner
        (:attr:`Builtin.served_beside`); a sub-agent's chosen tool set does not."""
        ordered = sorted(tools, key=lambda t: t.name)
        self._tools: tuple[Tool[Any, Any], ...] = tuple(ordered)
        self._by_name: dict[str, Tool[Any, Any]] = {}
        for tool in ordered:
            for alias in tool.aliases:
                self._by_name.setdefault(alias, tool)
        for tool in ordered:
            self._by_name[tool.name] = tool

    def find(self, name: str) -> Tool[Any, Any] | None:
        """The tool called ``name`` (or with that alias), if any."""
        return self._by_name.get(name)

    @property
    def names(self) -> tuple[str, ...]:
        """Every tool's canonical name, sorted."""
        return tuple(t.name for t in self._tools)

    def __iter__(self) -> Iterator[Tool[Any, Any]]:
        return iter(self._tools)

    def __len__(self) -> int:
        return len(self._tools)

    def __contains__(self, name: object) -> bool:
        return name in self._by_name

    def specs(self) -> list[ToolSpec]:
        """The tool definitions of a model request, in request order."""
        return [tool.spec() for tool in self._tools]

    def with_tools(self, extra: Iterable[Tool[Any, Any]]) -> ToolPool:
        """A pool with ``extra`` added; tools already here keep their names."""
        return ToolPool(merge(self._tools, extra), serves_unlisted=self.serves_unlisted)


def all_base_tools() -> list[Tool[Any, Any]]:
    """A fresh instance of every built-in tool."""
    return [entry.load() for entry in BUILTIN_TOOLS]


def offered_base_tools() -> list[Tool[Any, Any]]:
    """A fresh instance of each built-in that may be enabled now; the others stay unloaded.

    What a pool keeps of :func:`all_base_tools` (a pool also asks each tool it loads).
    Each check runs once: the browser's rows share one.
    """
    answers: dict[Callable[[], bool], bool] = {}

    def offered(entry: Builtin) -> bool:
        check = entry.offered
        if check is None:
            return True
        if check not in answers:
            answers[check] = check()
        return answers[check]

    return [entry.load() for entry in BUILTIN_TOOLS if offered(entry)]


def find_builtin(name: str) -> Builtin | None:
    """The registry entry of the built-in called ``name`` (or with that alias)."""
    for entry in BUILTIN_TOOLS:
        if name == entry.name or name in entry.aliases:
            return entry
    return None


def served_unlisted(name: str, pool: ToolPool) -> Tool[Any, Any] | None:
    """A built-in the pool left out that a call to ``name`` is served by, if any.

    Only one whose :attr:`Builtin.served_beside` tool is in ``pool``: a pool without it
    (simple mode, a blanket deny rule) serves none, nor does a sub-agent's tool set.
    """
    if not pool.serves_unlisted:
        return None
    entry = find_builtin(name)
    if entry is None or entry.served_beside is None or pool.find(entry.served_beside) is None:
        return None
    if pool.find(entry.name) is not None:
        return None
    return entry.load()


def resolve(name: str, pool: ToolPool) -> Tool[Any, Any] | None:
    """The tool a call to ``name`` runs: the pool's, else a built-in served unlisted."""
    return pool.find(name) or served_unlisted(name, pool)


class BuiltinGrammar(Mapping[str, "RuleSubject | None"]):
    """Each built-in's name and aliases → its declared subject, imported only when asked.

    The rule parser's grammar for the built-ins: a settings file's ``Bash(...)`` rule
    imports the Bash tool's module to read its declaration; the other modules stay
    unloaded. ``only``: the built-ins to cover (by canonical name; default: every one).
    """

    def __init__(self, only: Iterable[str] | None = None) -> None:
        keep = None if only is None else frozenset(only)
        self._entries = {
            n: e
            for e in BUILTIN_TOOLS
            if keep is None or e.name in keep
            for n in (e.name, *e.aliases)
        }

    def __getitem__(self, name: str) -> RuleSubject | None:
        return self._entries[name].tool_class().subject

    def canonical(self, name: str) -> str:
        """The built-in's own name for one of its names or aliases."""
        entry = self._entries.get(name)
        return entry.name if entry is not None else name

    def __contains__(self, name: object) -> bool:
        return name in self._entries

    def __iter__(self) -> Iterator[str]:
        return iter(self._entries)

    def __len__(self) -> int:
        return len(self._entries)


def merge(first: Iterable[Tool[Any, Any]], then: Iterable[Tool[Any, Any]]) -> list[Tool[Any, Any]]:
    """``first`` plus those of ``then`` whose name is not taken (built-ins win)."""
    merged = list(first)
    taken = {t.name for t in merged}
    for tool in then:
        if tool.name not in taken:
            taken.add(tool.name)
            merged.append(tool)
    return merged


def assemble_pool(
    *,
    base: Sequence[Tool[Any, Any]] | None = None,
    extra: Iterable[Tool[Any, Any]] = (),
    simple: bool = False,
    denied: Iterable[str] = (),
    only: Iterable[str] | None = None,
) -> ToolPool:
    """Build the pool: base → simple-mode filter → deny filter → enabled → + extra, sorted.

    ``denied`` names tools a blanket deny rule removes (the permission engine supplies
    them); ``only`` keeps just the named tools (a sub-agent's allowlist).
    """
    tools = list(offered_base_tools() if base is None else base)
    if simple:
        tools = [t for t in tools if t.simple_mode]
    blocked = set(denied)
    keep = None if only is None else set(only)
    merged = merge(tools, extra)
    selected = [
        t
        for t in merged
        if t.name not in blocked and (keep is None or t.name in keep) and t.is_enabled()
    ]
    return ToolPool(selected)


def pool_for(
    policy: PermissionPolicy | None = None,
    *,
    base: Sequence[Tool[Any, Any]] | None = None,
    extra: Iterable[Tool[Any, Any]] = (),
    simple: bool = False,
    only: Iterable[str] | None = None,
) -> ToolPool:
    """The pool a session offers: base → simple → the policy's blanket denials → + extra.

    Disabled tools are left out and the pool is sorted, as :func:`assemble_pool` does. A
    blanket deny rule (``WebFetch``, ``mcp__x``, a bare ``Read``, which also removes the
    other tools that read paths) takes a tool out of base and extra alike.
    """
    tools = list(offered_base_tools() if base is None else base)
    added = list(extra)
    denied: list[str] = []
    if policy is not None:
        denied = [t.name for t in (*tools, *added) if policy.denies_tool(t)]
    return assemble_pool(base=tools, extra=added, simple=simple, denied=denied, only=only)
