"""Through each framework that asks "does this call need approval?" before running it
(openai-agents' ``needs_approval``, LangGraph's pause before the work): input that does
not validate is reported to the model, and no PreToolUse hook sees it, as in hands' own
loop. A valid call of the same message reaches the hook once."""

from __future__ import annotations

from pathlib import Path

import anyio
import pytest
from adapter_scenario import Step, project_with_counting_hook
from one_message import FRAMEWORKS

STEPS = [
    Step(id="v1", name="Bash", input={"command": ["ls"]}),  # not a string: invalid
    Step(id="v2", name="Bash", input={"command": "echo valid", "timeout": -5}),  # out of range
    Step(id="v3", name="Bash", input={"command": "echo valid"}),
]


@pytest.mark.parametrize("framework", list(FRAMEWORKS))
def test_invalid_input_is_reported_and_no_pre_tool_use_hook_sees_it(
    tmp_path: Path, framework: str
) -> None:
    module, through = FRAMEWORKS[framework]
    pytest.importorskip(module)
    root, log = project_with_counting_hook(tmp_path)
    seen = anyio.run(through, root, STEPS)
    for invalid in ("v1", "v2"):
        text, is_error = seen[invalid]
        assert is_error and "Bash" in text, (invalid, text)
    text, is_error = seen["v3"]
    assert text.strip() == "valid" and not is_error
    assert log.read_text().splitlines() == ["echo valid"]  # the hook saw only the valid call
