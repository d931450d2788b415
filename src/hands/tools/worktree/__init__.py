"""EnterWorktree and ExitWorktree: the session moves into a git worktree and back."""
