"""Workspace trust: which project directories may run and loosen things from their own files.

A committed ``.claude/settings.json`` (or ``.hands/settings.json``) comes with the code:
whoever wrote the repository wrote it. Its hooks, ``env``, approvals of ``.mcp.json``
servers, allow rules and ``additionalDirectories`` (and a ``defaultMode`` of
``acceptEdits`` or ``bypassPermissions``) count only once the user trusts the workspace
(:mod:`hands.config.untrusted` lists them); its deny and ask rules always apply, and the
user's own ``settings.local.json`` always counts.

Trusted workspaces are listed in ``trusted.json`` in the hands home (``$HANDS_HOME``,
else ``$HOME/.hands``). A workspace is the git repository root of a directory, or the
directory itself outside a repository; trusting a directory trusts everything below it.
A "no" to the trust question is recorded too (``declined``), so the question is not
asked again; ``hands trust`` changes the answer. Front ends that never ask (``-p``,
``hands tool``, ``hands mcp``, ``hands batch``, the adapters) trust nothing by
themselves: see :mod:`hands.config.project_trust`.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any, cast

from hands.core.env import given

TRUST_FILE = "trusted.json"


def trust_file(env: Mapping[str, str] | None = None) -> Path:
    """Where the trusted workspaces are recorded."""
    env = os.environ if env is None else env
    explicit = given("HANDS_HOME", env)
    if explicit:
        return Path(explicit).expanduser() / TRUST_FILE
    home = env.get("HOME") or env.get("USERPROFILE")
    return (Path(home) if home else Path.home()) / ".hands" / TRUST_FILE


def workspace_of(directory: Path | str) -> Path:
    """The workspace ``directory`` belongs to: its git repository root, else itself."""
    start = Path(os.path.normpath(Path(directory).expanduser().absolute()))
    for parent in (start, *start.parents):
        if (parent / ".git").exists():
            return parent
    return start


def trusted_dirs(env: Mapping[str, str] | None = None) -> tuple[Path, ...]:
    """Every trusted directory (an unreadable or malformed file trusts nothing)."""
    return _listed(env, "trusted")


def declined_dirs(env: Mapping[str, str] | None = None) -> tuple[Path, ...]:
    """Every workspace whose trust question was answered "no" (not asked again)."""
    return _listed(env, "declined")


def _listed(env: Mapping[str, str] | None, key: str) -> tuple[Path, ...]:
    path = trust_file(env)
    try:
        data: object = json.loads(path.read_text(encoding="utf-8") or "{}")
    except (OSError, UnicodeDecodeError, json.JSONDecodeError):
        return ()
    if not isinstance(data, dict):
        return ()
    entries = cast(dict[str, Any], data).get(key)
    if not isinstance(entries, list):
        return ()
    return tuple(
        Path(os.path.normpath(e)) for e in cast(list[Any], entries) if isinstance(e, str) and e
    )


def is_declined(directory: Path | str, env: Mapping[str, str] | None = None) -> bool:
    """Whether the user answered "no" to trusting the workspace of ``directory``."""
    return workspace_of(directory) in declined_dirs(env)


def decline(directory: Path | str, env: Mapping[str, str] | None = None) -> Path:
    """Remember that the user refused to trust the workspace of ``directory``."""
    workspace = workspace_of(directory)
    _write(trust_file(env), trusted_dirs(env), (*declined_dirs(env), workspace))
    return workspace


def is_trusted(directory: Path | str, env: Mapping[str, str] | None = None) -> bool:
    """Whether the workspace of ``directory`` (or a directory above it) is trusted."""
    trusted = trusted_dirs(env)
    if not trusted:
        return False
    workspace = workspace_of(directory)
    candidates = {workspace, *workspace.parents}
    real = Path(os.path.realpath(workspace))
    candidates.update((real, *real.parents))
    return any(t in candidates for t in trusted)


def trust(directory: Path | str | None = None, env: Mapping[str, str] | None = None) -> Path:
    """Trust the workspace of ``directory`` (default: the current one); returns it."""
    workspace = workspace_of(directory if directory is not None else Path.cwd())
    if not workspace.is_dir():
        raise NotADirectoryError(f"{workspace} is not a directory")
    declined = tuple(d for d in declined_dirs(env) if d != workspace)
    _write(trust_file(env), (*trusted_dirs(env), workspace), declined)
    return workspace


def untrust(directory: Path | str, env: Mapping[str, str] | None = None) -> bool:
    """Stop trusting the workspace of ``directory``; whether it was trusted itself."""
    workspace = workspace_of(directory)
    current = trusted_dirs(env)
    kept = tuple(d for d in current if d != workspace)
    if len(kept) == len(current):
        return False
    _write(trust_file(env), kept, declined_dirs(env))
    return True


def how_to_trust(workspace: Path) -> str:
    """The command that trusts ``workspace``, for warnings."""
    return f"hands trust {_quote(str(workspace))}"


def _quote(text: str) -> str:
    import shlex

    return shlex.quote(text)


def _write(path: Path, dirs: Iterable[Path], declined: Iterable[Path] = ()) -> None:
    data: dict[str, list[str]] = {"trusted": list(dict.fromkeys(str(d) for d in dirs))}
    refused = list(dict.fromkeys(str(d) for d in declined))
    if refused:
        data["declined"] = refused
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f"{path.name}.{os.getpid()}.tmp")
    tmp.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")
    tmp.replace(path)
