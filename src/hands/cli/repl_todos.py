"""``/todos``: the session's todo list (TodoWrite) and the project's task list."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.text import Text

from hands.cli.tasks_list import show
from hands.tools.planning import TodoList, checklist, progress_words, project_tasks

if TYPE_CHECKING:
    from hands.cli.repl import Repl


async def run(repl: Repl, arg: str) -> bool:
    """Print the todo list, then the task list when it has tasks."""
    setup = repl.setup
    console = repl.console
    todos = setup.session.service(TodoList).items
    name, tasks = project_tasks(setup.session.home, setup.cwd)
    if todos:
        console.print(Text(f"Todo list · {progress_words(todos)}", style="bold"))
        console.print(checklist(todos))
    if tasks:
        show(console, name, tasks)
    if not todos and not tasks:
        console.print(Text("No todo list and no tasks yet.", style="dim"))
    return True
