"""The planning tools: TodoWrite, the Task tools (a task list kept in SQLite), AskUserQuestion."""
