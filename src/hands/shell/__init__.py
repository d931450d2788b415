"""Shell-command analysis shared by the Bash tool and the permission engine."""
