"""The planning tools: TodoWrite, the Task tools (a task list kept in SQLite), AskUserQuestion.

What other layers may use (the screen's checklist, the session's lists, the project's
task list) is named here and imported on first use; the family's ``_modules`` are its own.
"""

import typing

from hands import _lazy

if typing.TYPE_CHECKING:
    from hands.tools.planning._checklist import checklist, progress_words
    from hands.tools.planning._task_board import TaskBoard
    from hands.tools.planning._task_list import project_tasks, tasks_enabled
    from hands.tools.planning._task_store import Task
    from hands.tools.planning._todos import TodoItem, TodoList

_EXPORTS = {
    "Task": "._task_store",
    "TaskBoard": "._task_board",
    "TodoItem": "._todos",
    "TodoList": "._todos",
    "checklist": "._checklist",
    "progress_words": "._checklist",
    "project_tasks": "._task_list",
    "tasks_enabled": "._task_list",
}

__getattr__, __dir__ = _lazy.exports(__name__, _EXPORTS)

__all__ = [
    "Task",
    "TaskBoard",
    "TodoItem",
    "TodoList",
    "checklist",
    "progress_words",
    "project_tasks",
    "tasks_enabled",
]
