"""Settings of the shell tool, in the shape of the ``sandbox`` settings key."""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, cast

from hands.config.sandbox import merged_sandbox

if TYPE_CHECKING:
    from hands.config.settings import Settings
    from hands.core.session import Session
    from hands.permissions.domains import NetworkDomains

DEFAULT_TIMEOUT_MS = 120_000
MAX_TIMEOUT_MS = 600_000


@dataclass(frozen=True, kw_only=True, slots=True)
class SandboxSettings:
    """``sandbox.*``: whether commands run inside bubblewrap, and what they may reach."""

    enabled: bool = False
    allowed_domains: tuple[str, ...] = ()
    """``sandbox.network.allowedDomains``: reachable through a filtering proxy."""
    denied_domains: tuple[str, ...] = ()
    """``sandbox.network.deniedDomains``: never reachable, even when an allowed entry matches."""
    allow_unsandboxed_commands: bool = True
    """``sandbox.allowUnsandboxedCommands``: whether ``dangerouslyDisableSandbox`` works."""
    allow_write: tuple[str, ...] = ()
    """``sandbox.filesystem.allowWrite``: writable paths besides the working directories."""
    auto_allow: bool = True
    """``sandbox.autoAllowBashIfSandboxed``: a sandboxed command needs no approval."""
    excluded_commands: tuple[str, ...] = ()
    """``sandbox.excludedCommands``: programs that run outside the sandbox (``docker``)."""

    @classmethod
    def from_settings(cls, settings: Mapping[str, Any]) -> SandboxSettings:
        """Read the ``sandbox`` key of a settings file."""
        raw = settings.get("sandbox")
        if not isinstance(raw, Mapping):
            return cls()
        sandbox = cast(Mapping[str, Any], raw)
        network = sandbox.get("network")
        empty: Mapping[str, Any] = {}
        net = cast(Mapping[str, Any], network) if isinstance(network, Mapping) else empty
        filesystem = sandbox.get("filesystem")
        fs = cast(Mapping[str, Any], filesystem) if isinstance(filesystem, Mapping) else empty
        return cls(
            enabled=bool(sandbox.get("enabled", False)),
            allowed_domains=_strings(net.get("allowedDomains")),
            denied_domains=_strings(net.get("deniedDomains")),
            allow_unsandboxed_commands=bool(sandbox.get("allowUnsandboxedCommands", True)),
            allow_write=_strings(fs.get("allowWrite")),
            auto_allow=sandbox.get("autoAllowBashIfSandboxed", True) is not False,
            excluded_commands=_strings(sandbox.get("excludedCommands")),
        )

    def excludes(self, command: str) -> bool:
        """Whether ``command`` starts a program of ``excludedCommands`` (runs unsandboxed).

        An entry is a program name (``docker``) or a program with its first arguments
        (``npm run``); every simple command of a compound line is checked.
        """
        if not self.excluded_commands:
            return False
        from hands.shell.analysis import analyze

        entries = [tuple(e.split()) for e in self.excluded_commands if e.strip()]
        for cmd in analyze(command).commands:
            argv = cmd.argv
            if any(argv[: len(entry)] == entry for entry in entries):
                return True
        return False


@dataclass(frozen=True, kw_only=True, slots=True)
class BashSettings:
    """How the shell tool behaves in one session."""

    sandbox: SandboxSettings = field(default_factory=SandboxSettings)
    default_timeout_ms: int = DEFAULT_TIMEOUT_MS
    max_timeout_ms: int = MAX_TIMEOUT_MS
    background_on_timeout: bool = True
    """Move a timed-out command to the background instead of killing it (a command whose
    first word is ``sleep`` is killed all the same)."""
    maintain_project_dir: bool = False
    """Never carry the working directory over between calls."""
    background_tasks: bool = True

    @classmethod
    def from_settings(
        cls, settings: Mapping[str, Any], env: Mapping[str, str] | None = None
    ) -> BashSettings:
        """Settings-file keys plus the ``BASH_*`` environment variables."""
        env = os.environ if env is None else env
        default = _int(env.get("BASH_DEFAULT_TIMEOUT_MS"), DEFAULT_TIMEOUT_MS)
        maximum = max(_int(env.get("BASH_MAX_TIMEOUT_MS"), MAX_TIMEOUT_MS), default)
        return cls(
            sandbox=SandboxSettings.from_settings(settings),
            default_timeout_ms=default,
            max_timeout_ms=maximum,
            background_on_timeout=settings.get("bashBackgroundOnTimeout", True) is not False,
            maintain_project_dir=env.get("CLAUDE_BASH_MAINTAIN_PROJECT_WORKING_DIR") == "1",
            background_tasks=env.get("CLAUDE_CODE_DISABLE_BACKGROUND_TASKS") != "1",
        )


def install(session: Session, settings: Settings, *, network: NetworkDomains) -> BashSettings:
    """Give ``session`` the Bash settings of every settings file (and the environment).

    The ``sandbox`` objects are merged across files (an untrusted project file's keeps
    only what tightens, :attr:`Settings.sandbox_layers`); its network lists are
    ``network`` (the sandbox's own joined by the fetch tool's ``domain:`` rules, read by
    :func:`hands.permissions.network.network_domains`).
    """
    sandbox = merged_sandbox(settings.sandbox_layers)
    old = sandbox.get("network")
    net = dict(cast(Mapping[str, Any], old)) if isinstance(old, Mapping) else {}
    net["allowedDomains"], net["deniedDomains"] = list(network.allowed), list(network.denied)
    sandbox["network"] = net
    background = settings.value("bashBackgroundOnTimeout")
    bash = BashSettings.from_settings(
        {"sandbox": sandbox, "bashBackgroundOnTimeout": background is not False}
    )
    session.service(BashSettings, lambda: bash)
    return bash


def _strings(value: object) -> tuple[str, ...]:
    if not isinstance(value, list):
        return ()
    return tuple(v for v in cast(list[object], value) if isinstance(v, str))


def _int(raw: str | None, default: int) -> int:
    try:
        value = int(raw) if raw else default
    except ValueError:
        return default
    return value if value > 0 else default
