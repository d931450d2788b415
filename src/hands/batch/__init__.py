"""``hands batch``: many isolated agent sessions from a task file, on this machine or Ray.

:mod:`~hands.batch.tasks` reads the task file, :mod:`~hands.batch.session` runs one task
(its own workdir and hands home, Bash in the sandbox, a ``check`` that scores it),
:mod:`~hands.batch.engines` runs many (a local pool or Ray tasks),
:mod:`~hands.batch.results` writes and resumes the results file.
"""
