"""The toolbox every adapter stands on: one session, hands' permissions, hooks and order."""

from __future__ import annotations

from pathlib import Path

import anyio
import pytest
from adapter_scenario import project_with_counting_hook

from hands.adapters.scheduling import CallGate
from hands.adapters.toolbox import Toolbox


def test_a_call_that_needs_approval_waits_and_runs_once_approved(tmp_path: Path) -> None:
    root, log = project_with_counting_hook(tmp_path)
    command = "python3 -c \"open('out.txt', 'w')\""

    async def go() -> None:
        async with Toolbox(cwd=root, trusted=True) as box:
            assert await box.would_ask("Bash", {"command": command}, call_id="a1")
            assert not await box.would_ask("Bash", {"command": "ls"}, call_id="a2")
            box.forget("a2")
            waiting = await box.call("Bash", {"command": command}, call_id="a1")
            assert waiting.pending is not None and waiting.is_error
            assert waiting.pending.tool_name == "Bash" and "approval" in waiting.text
            assert not (root / "out.txt").exists()
            denied = await box.call("Bash", {"command": command}, approval="denied")
            assert denied.is_error and denied.pending is None and "not run" in denied.text
            assert not (root / "out.txt").exists()
            done = await box.call("Bash", {"command": command}, call_id="a3", approval="approved")
            assert not done.is_error and (root / "out.txt").exists()

    anyio.run(go)
    # would_ask ran the hook for a1 and a2 and kept a1's verdict for the a1 call; the
    # denied call and a3 ran it once each
    assert log.read_text().splitlines() == [command, "ls", command, command]


def test_invalid_input_is_reported_before_any_pre_tool_use_hook_runs(tmp_path: Path) -> None:
    root, log = project_with_counting_hook(tmp_path)

    async def go() -> None:
        async with Toolbox(cwd=root, trusted=True) as box:
            # a command that is not a string, and a timeout out of range: both invalid
            for bad in ({"command": ["ls"]}, {"command": "ls", "timeout": -5}):
                assert not await box.would_ask("Bash", bad, call_id="bad")
                result = await box.call("Bash", bad, call_id="bad")
                assert result.is_error and result.pending is None
            assert await box.would_ask("Bash", {"command": "rm -rf built"}, call_id="ok")

    anyio.run(go)
    assert log.read_text().splitlines() == ["rm -rf built"]  # only the valid call


def test_the_session_carries_read_state_and_the_working_directory(tmp_path: Path) -> None:
    root = tmp_path / "project"
    (root / "sub").mkdir(parents=True)
    (root / "notes.txt").write_text("old\n")

    async def go() -> None:
        async with Toolbox(cwd=root, trusted=True, permission_mode="acceptEdits") as box:
            unread = await box.call(
                "Edit",
                {"file_path": str(root / "notes.txt"), "old_string": "old", "new_string": "new"},
            )
            assert unread.is_error and "Read" in unread.text  # read first, as in a conversation
            assert not (await box.call("Read", {"file_path": str(root / "notes.txt")})).is_error
            edited = await box.call(
                "Edit",
                {"file_path": str(root / "notes.txt"), "old_string": "old", "new_string": "new"},
            )
            assert not edited.is_error and (root / "notes.txt").read_text() == "new\n"
            await box.call("Bash", {"command": "cd sub"})
            where = await box.call("Bash", {"command": "pwd"})
            assert where.text.strip().endswith("/sub")

    anyio.run(go)


def test_unknown_tools_and_bad_input_are_errors_the_model_can_act_on(tmp_path: Path) -> None:
    async def go() -> None:
        async with Toolbox(cwd=tmp_path, trusted=True) as box:
            unknown = await box.call("Nope", {})
            assert unknown.is_error and "Read" in unknown.text  # the available tools are named
            bad = await box.call("Read", {"file_path": 3})
            assert bad.is_error and "file_path" in bad.text
            assert not await box.would_ask("Read", {"file_path": 3})

    anyio.run(go)


def test_the_gate_runs_safe_calls_together_and_the_others_alone_in_order() -> None:
    events: list[str] = []

    async def go() -> None:
        gate = CallGate()

        async def call(name: str, exclusive: bool, delay: float) -> None:
            async with gate.hold(exclusive=exclusive):
                events.append(f"start {name}")
                await anyio.sleep(delay)
                events.append(f"end {name}")

        async with anyio.create_task_group() as tg:
            for name, exclusive in [("r1", False), ("r2", False), ("w", True), ("r3", False)]:
                tg.start_soon(call, name, exclusive, 0.05)
                await anyio.sleep(0.005)  # started in this order, as a framework would

    anyio.run(go)
    assert events[:2] == ["start r1", "start r2"]  # the two reads overlap
    w = events.index("start w")
    assert {"end r1", "end r2"} <= set(events[:w])  # the write waits for both
    assert events[w + 1] == "end w" and events[w + 2] == "start r3"  # and r3 for the write


def test_a_cancelled_waiter_gives_its_turn_back() -> None:
    async def go() -> None:
        gate = CallGate()
        order: list[str] = []
        async with gate.hold(exclusive=True):
            with anyio.move_on_after(0.02):
                async with gate.hold(exclusive=True):
                    order.append("never")
        async with gate.hold(exclusive=True):
            order.append("after")
        assert order == ["after"]

    anyio.run(go)


def test_reserved_places_set_the_order_whoever_reaches_the_gate_first() -> None:
    async def go() -> None:
        gate = CallGate()
        for call_id in ("a", "b", "c"):  # the message's order
            gate.reserve(call_id, exclusive=call_id != "b", claimed=True)
        events: list[str] = []
        b_ran = anyio.Event()

        async def call(call_id: str, exclusive: bool) -> None:
            async with gate.hold(exclusive=exclusive, call_id=call_id):
                events.append(call_id)
                if call_id == "b":
                    b_ran.set()

        async with anyio.create_task_group() as tg:
            tg.start_soon(call, "c", True)  # the last one is ready first
            tg.start_soon(call, "b", False)
            await anyio.wait_all_tasks_blocked()
            assert events == []  # b (safe) waits for a (unsafe), c for both
            gate.withdraw("a")  # a will not run now (it waits for the user)
            await b_ran.wait()
        assert events == ["b", "c"]
        assert gate.settled("a") and gate.settled("c")
        gate.reserve("a", exclusive=True)  # a settled call takes no place again
        async with gate.hold(exclusive=True, call_id="z"):
            pass  # nothing ahead of it

    anyio.run(go)


def test_a_place_reserved_for_a_call_that_never_comes_expires(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import hands.adapters.scheduling as scheduling

    monkeypatch.setattr(scheduling, "UNCLAIMED_S", 0.0)

    async def go() -> None:
        gate = CallGate()
        gate.reserve("skipped", exclusive=True, claimed=False)  # its framework never hands it over
        gate.reserve("next", exclusive=True, claimed=False)
        async with gate.hold(exclusive=True, call_id="next"):
            assert not gate.settled("next")
        assert gate.settled("skipped") and gate.settled("next")

    anyio.run(go)


def test_a_claimed_place_never_expires(monkeypatch: pytest.MonkeyPatch) -> None:
    import hands.adapters.scheduling as scheduling

    monkeypatch.setattr(scheduling, "UNCLAIMED_S", 0.0)

    async def go() -> None:
        gate = CallGate()
        gate.reserve("slow", exclusive=True)  # its hooks are still running
        gate.reserve("next", exclusive=True)
        ran: list[str] = []

        async def next_call() -> None:
            async with gate.hold(exclusive=True, call_id="next"):
                ran.append("next")

        async with anyio.create_task_group() as tg:
            tg.start_soon(next_call)
            await anyio.wait_all_tasks_blocked()
            assert ran == []
            async with gate.hold(exclusive=True, call_id="slow"):
                ran.append("slow")
        assert ran == ["slow", "next"]

    anyio.run(go)


@pytest.mark.parametrize("mode", ["dontAsk"])
def test_dont_ask_never_pauses_it_denies(tmp_path: Path, mode: str) -> None:
    async def go() -> None:
        async with Toolbox(cwd=tmp_path, trusted=True, permission_mode=mode) as box:  # type: ignore[arg-type]
            command = {"command": "python3 -c 'print(1)'"}
            assert not await box.would_ask("Bash", command)
            result = await box.call("Bash", command)
            assert result.is_error and result.pending is None and "dontAsk" in result.text

    anyio.run(go)
