"""hands says things in its own words: no model-facing text equals another agent's.

``OTHER`` holds short hashes of the texts another coding agent sends for the same cases
(tool results, background notices, refusals, hook blocks, tool and parameter
descriptions), each taken whole, line by line and sentence by sentence after
:func:`pieces` normalised it. Only the hashes are kept. A hands text of the same case, or
any piece of it, must hash to none of them. Facts and structure may be shared (a first
line ``Exit code N``, the tags of a notice): pieces under four words are not compared,
and tags are blanked.
"""

from __future__ import annotations

import hashlib
import re
from pathlib import Path
from typing import Any

import anyio
import pytest

from hands.core.context import ToolContext
from hands.core.inbox import Inbox
from hands.core.messages import ToolUseBlock
from hands.core.outcome import ToolCallOutcome
from hands.core.session import Session
from hands.pipeline.execution import run_tool_use
from hands.pipeline.pool import ToolPool, all_base_tools
from hands.pipeline.runtime import ToolRuntime
from hands.tools.bash.bash import BashTool
from hands.tools.bash.task_output import TaskOutputTool
from hands.tools.bash.task_stop import TaskStopTool
from hands.tools.web.web_fetch import WebFetchTool
from hooks.kit import cmd, engine_for, group
from support import project_rules_engine

pytestmark = pytest.mark.anyio

OTHER = frozenset(
    """
    014b9bfd3365 026aba493216 0282264e6472 0393842f5f42 05f8a0fecc74 063313202491
    06607762e316 066325c94e96 0749d126e7ec 07e87eccedd0 07e975cd8108 0848786fd1b8
    0880c36f4f06 0911a510a409 09e8d1edd7ab 0a28a51d76a7 0a75e0920ff4 0b54b3fe1ae0
    0c4ea07edce6 0e1b570cb06b 0eafd6194755 0ec8f35132b0 0f87e2be87ec 0f8afba8a931
    0fb5cf96a660 10530cdc8d58 10642780d847 1170f0175195 11fb80555e45 1320e9f3028d
    1384e223381e 15c4865e891c 16a489a866e2 16b67df456c3 16dbcbded87f 1792334bbb0c
    17b8ee861cfc 17d1944a7d75 19124466848c 1a6dd95e1e4e 1a7e25f71a7c 1aa866abff9b
    1aee21eda71e 1d0a6b8cc695 1d2ee6ba14e3 1d67f0e6f282 1dc57f2c60b4 1dd287ac0830
    1e46f6ae31cc 1ebbbb15a724 1ee4515243fe 210a6455f824 216da0899045 219c4921decc
    22d1073bc62c 22fe1ce7fb95 2337f323b203 234c9bebfd3c 23e97b38aff6 24896f11dd00
    25c92f084327 26e75b6151d8 27b47fbac385 27c0b7c6e068 27e0471d0cb2 27fcc68b8056
    28101f336beb 28d18e290ee6 28f94de8ca18 2aebf6c9fd80 2b28d3560ce7 2bdc66e2c6a1
    2c232a96bb86 2c4610f307e9 2ce234834898 2cfea539b561 2eb6bfd615c0 2ee35ae897d3
    2f877bb4176e 2f9f31fda623 30350271b90d 30c23e2f8fb3 3139259066e6 319984c66137
    31a3fcdbcde4 31adab25be34 34cad0fd6dcb 34d1d5423075 35b9150b6305 35f9ecaf6584
    37650cf686ff 376c9544281e 3771430f6144 377be9288dac 38a7bb8584ff 38f16ce6e0b0
    3a29029616a8 3cc0672a3330 3cdc9d8869e2 3d5ba9ab7305 3d7b45d604e0 3e3a64b8a341
    3f23d8df68fa 4062ce2f94e7 430d7f11882d 43234eee1874 438c6eee086d 43db70237885
    451f83ca6398 4526a5a75352 45695fd7ac7f 45732f42d88f 45bbb6a4b9bf 462ba35f510c
    4640b00419e7 4734317f9464 477770bfd7b6 47effdb94f00 48f52b06567c 490b24f1ff56
    499e95d43067 4a3358aef160 4a3d8b576b6b 4a777c3c12df 4aed807744c0 4b6cc80c3c86
    4b96f93bbfdf 4d48e92f128f 4d4bb66ec391 4dcc9ac366ef 4eccbdec6cfb 4f1da49af8c0
    5223725cf35f 5282a616aa19 52c81ece8756 530b5b8d6ad4 530f8d12b23c 539aaf14aa9d
    53b0924a0cdf 557beadab04e 5613fcf736bb 568dce463dd0 56a891f17e42 56e831ea1488
    584e3898a6cd 592579ab5393 5aa31588a924 5d9c73855260 5e1fa5814d13 5e236fb490bf
    5e2de7ab9580 5f04a2bdbef5 5f36efd43416 60b11c675f5e 60d797152456 6148890052de
    61e68618091e 62b8540db551 636d0750e62f 645a90d5d574 64cfd5e24a35 650aeb120cfb
    66632cf8b000 67a859079ae5 67f907088b9c 68991ff15e87 68babe8f2175 68c633ac3add
    68e670d1457f 68eb92f1b9a6 691ba59672de 691baa1fd5c0 6a0a0825e227 6ac4ea15985f
    6b1cb9648b3c 6b4d305ea255 6c8c3ffa4d5d 6d6f78325bd1 70e71b6ae8df 70f0d2a172b7
    72339b179ef0 72734262faf4 73f4073e42e9 74a97f14c76b 75c597673019 7608b8e33113
    768bf34aa274 76d9866f1f1f 772a038ffc39 77a34afd8522 77d74e8b9b37 789d4939a343
    7902f5f32589 79eaf88acf2b 7a5c56132b64 7ac24711cdcc 7ad9fe64349b 7b8065a396a1
    7db1fb992d54 7e002a5c9bc2 7e099e7d75e5 7ef0a164546c 7fe393507ad6 80b02b30c66d
    81957ad0599a 8277bd9cfbde 83b23134ecf7 857648dee974 85a98cbd6162 85ace767a66d
    85e62221b113 867067fe3ce1 872719ce8162 8759ee2f15f4 88b2779ad11a 891fa86d9e72
    8a98e1b26b14 8b1337c59dc2 8b3fd0608959 8bc7a9e29930 8d45084f1864 8dfcf96e2b87
    8e2d0c7ebae3 8e465d165f8a 8f6f566c0d43 8fdffe987611 90152d67f012 90a5d8e3fa41
    90cf38adc608 91926f1054ed 91b5f8e430f8 91b706846426 91e15222b06a 9294e9cb0d44
    92cec64c0970 932af7ffbb24 9374ee7953e3 938c2f54a2d4 93c7814d458b 946b4957ca8d
    950e21ce69d2 95873d9e6a99 96288c243ac4 970c0709b9a8 97fc3f370f30 9858283c1e38
    98943c74aaa8 98f7c7ea9041 98fe9c0b6c77 993f1c924ea5 998df361db59 99a9f38fd55c
    9ab2f559193a 9b24d04e6c09 9b6a2ce5de92 9b8a0af70fb2 9ba71ace7ca5 9d472eff1f87
    9e70096787b2 9f2032d58ee6 9f3501904e68 a0d72a323d41 a0f72272deb6 a13d2f7e73fb
    a181442de6c4 a1941f45e66b a1e5a68b2446 a21709b099f5 a229fd87ef3a a3f8a8aff186
    a41cb9801bc5 a46476c067d4 a4f5648978bc a51269f7c778 a596b3e41aa8 a66607704d41
    a795c915602f a8918018572b a977c6ffa465 aaab6ac00879 aadbad8ce16f ab15a09b35f4
    ab691a71ff98 ad4fdc517d13 ad68bdb16fea ada9dae78078 ae97e0284285 aec5e737ae96
    aee005c5f78b af2324e84dd5 af4a52cfa7b5 b0e71d106e6b b292fea0b6e4 b2f0c0751a18
    b331114a42d3 b374e906abde b403c717c368 b429b338eec7 b4ef2dfdd3a1 b5030cacf5c4
    b55852b8c185 b57e10c9e77a b6536284e63e b6ccc309d7d3 b6d14454cf4f b6d494956809
    b6ed7045423a b8ab1d98568d b8b02a73e893 b8b3891b78de b8fcdb7d6515 b93960a3df0f
    b989af005d92 b990d9764a35 b99347c839d0 b9c9e024e266 ba3e98ca7721 ba58cfc1905e
    ba6c5bb1ba84 ba89055e6f03 bafde9e172e8 bbb383dd6b24 bca87cfab53f bef22f114191
    bf55ec123a0c c0cf7686b4bb c127a2351bcd c1c682c7ae39 c1cc3526192f c1df133896dc
    c20c9372998d c272c373e987 c2c8806926c9 c30ae3b63d26 c4a415a21ff9 c4b3714ad4a7
    c61cea68cb60 c66ded51e591 c678247a3aad c68eb75f82ec c6a24b7253fa c6cc024a496e
    c6e0f0010e45 c711bff3e7e7 c84c4d7cc7e1 c86be776ab06 c929a412a190 c9fc3bb666f4
    ca23d3a382c6 ca53d3c2ea95 ca5a87c1b9be cb914ab4c7e5 cce853686354 cdc84456bf56
    ce420714b0ee ce8915c4e3a4 ce9cbb545384 cf976db09600 d076fa9a8fcd d077fee4bb25
    d0a49ab51030 d1b0bf628c11 d23369aabee7 d285631f0fd9 d3489ea9dcc1 d3528d994358
    d36d566611f0 d4c49b77bfaa d4d79c88471c d4f3547135bc d5061d6c6648 d577a28d5a78
    d5cfc54be731 d620788f2f47 d660fcbcbb47 d6bab0d2222f d7955a2762f0 d7e3d6c82c13
    d7fdc56f7c4d d81a16fe0fca d89c82018d1f d8aada479485 d8e4007243c6 d8e9d6d8a50b
    d9e4c0380ce1 da7873a4719a db5dc0b7d3a8 db75538a48af dc693aa1b95e dc8e43181096
    dcea88009e16 dd1fbab724ec dd4fdb38ad87 dff4d6961567 e02ae08d7a43 e073fce0756e
    e13f3b1a12f9 e2255f1e1d06 e3520a497b46 e4052c4f33d8 e5219a450d29 e68d50f82814
    e715bf8eab32 e8a511a9ae49 e8b7813d73f8 e99d9e17b0d2 e9d6e1ee0fea e9eb7d4efd3c
    ea0e6a19e420 ea8cca902eee eaad6820be88 eab7db9109bb ebf0b100d931 ec61f0bec8f3
    ee20bf984fa4 eee1cf8cb3c3 ef50e7516e77 f000b06c9e0c f090d9616028 f1a40587004b
    f2cbe0eee6b4 f2db197cb39e f344125f4351 f35f9bd53e51 f37203ea238a f3a43e0363fc
    f3dd75bf7d5d f4320024e314 f53dc50e760d f56b99399a95 f69cd64f3ffc f7bed88e7acd
    f8276cc903c3 f9be23eaaad5 fac19d8e5181 fba41b91c7c8 fc9566880af7 fd6f32b607af
    """.split()
)

FILE_TOOLS = {"Read", "Write", "Edit", "MultiEdit", "NotebookEdit", "Glob", "Grep"}
"""Their texts are checked with those tools."""


def pieces(text: str) -> set[str]:
    """The normalised whole, lines and sentences of ``text`` with four words or more."""
    text = re.sub(r"(?:~|\.)?(?:/[\w.@+~-]+)+/?", "<path>", text)
    text = re.sub(r"\b(?:toolu_\w+|b[0-9a-z]{8})\b", "<id>", text)
    text = re.sub(r"\d[\d,.]*", "<n>", text)
    out: set[str] = set()

    def add(piece: str) -> None:
        piece = re.sub(r"\s+", " ", piece).strip().lower().strip(" .:;!?")
        if len(piece.split()) >= 4:
            out.add(piece)

    add(text)
    for line in text.splitlines():
        add(re.sub(r"</?[a-z_-]+>", " ", line))
        for sentence in re.split(r"(?<=[.!?])\s+", line):
            add(re.sub(r"</?[a-z_-]+>", " ", sentence))
    return out


def digest(piece: str) -> str:
    return hashlib.sha256(piece.encode()).hexdigest()[:12]


def shared(texts: dict[str, str], other: frozenset[str] = OTHER) -> list[str]:
    """The cases whose text has a piece another agent sends too."""
    return [
        f"{case}: {piece!r}"
        for case, text in texts.items()
        for piece in sorted(pieces(text))
        if digest(piece) in other
    ]


def test_the_check_finds_a_shared_sentence_in_a_longer_text() -> None:
    theirs = "Output went to /tmp/x/12.txt after 3 tries."
    hashes = frozenset(digest(p) for p in pieces(theirs))
    ours = "Line one stays ours.\nWe ran it. Output went to /var/run/y.log after 45 tries!"
    assert shared({"case": ours}, hashes) == ["case: 'output went to after tries'"]
    assert shared({"case": "Line one stays ours, and so does this."}, hashes) == []
    assert len(OTHER) > 100 and all(re.fullmatch(r"[0-9a-f]{12}", h) for h in OTHER)


class Calls:
    def __init__(self, root: Path, **runtime: Any) -> None:
        self.session = Session()
        self.ctx = ToolContext(cwd=root, session=self.session, permission_mode="bypassPermissions")
        pool = ToolPool([BashTool(), TaskOutputTool(), TaskStopTool(), WebFetchTool()])
        self.runtime = ToolRuntime(tools=pool, **runtime)
        self.n = 0

    async def __call__(self, name: str, **input: Any) -> str:
        self.n += 1
        outcome: ToolCallOutcome = await run_tool_use(
            ToolUseBlock(id=f"toolu_{self.n}", name=name, input=input),
            self.ctx,
            self.runtime,
            progress=lambda _: None,
        )
        if outcome.context_modifier is not None:
            self.ctx = outcome.context_modifier(self.ctx)
        return outcome.block.text


async def test_bash_and_task_texts_are_hands_own(tmp_path: Path) -> None:
    call = Calls(tmp_path)
    texts = {
        "empty": await call("Bash", command="true"),
        "bgstart": await call("Bash", command="echo OUT:x", run_in_background=True),
        "bgfail": await call("Bash", command="echo OUT:f; exit 4", run_in_background=True),
        "bgtimeout": await call("Bash", command="sleep 30", run_in_background=True, timeout=300),
        "moved": await call("Bash", command="echo OUT:a; sleep 1", timeout=300),
        "killed": await call("Bash", command="sleep 3", timeout=300),
        "cwdreset": await call("Bash", command="cd / && echo OUT:x"),
        "spill": await call("Bash", command="seq 1 40000"),
        "blank": await call("Bash", command="   "),
        "stopnope": await call("TaskStop", task_id="nope"),
        "outnope": await call("TaskOutput", task_id="nope", block=False),
        "unknown": await call("TodoWrite", todos=[]),
        "fetchbad": await call("WebFetch", url="notaurl", prompt="x"),
        "fetchdown": await call("WebFetch", url="http://127.0.0.1:9/x", prompt="x"),
    }
    inbox = call.session.service(Inbox)
    with anyio.fail_after(15):
        while inbox.outstanding(None):
            await inbox.wait(None)
            await anyio.sleep(0.05)
    for n, notice in enumerate(inbox.take(None)):
        texts[f"notice {n}"] = notice
    assert len(texts) == 18  # every job's notice came
    assert shared(texts) == []
    await call.session.aclose()


async def test_refusals_and_hook_blocks_are_hands_own(tmp_path: Path) -> None:
    home = tmp_path / "home"
    home.mkdir()
    denying = Calls(tmp_path, policy=project_rules_engine(tmp_path, home, deny=["Bash(rm:*)"]))
    denying.ctx = denying.ctx.with_changes(permission_mode="default")
    texts = {
        "denyrule": await denying("Bash", command="rm -rf x"),
        "askplain": await denying("Bash", command="touch y"),
    }
    strict = Calls(tmp_path, policy=project_rules_engine(tmp_path, home))
    strict.ctx = strict.ctx.with_changes(permission_mode="dontAsk")
    texts["dontask"] = await strict("Bash", command="touch y")
    hooks = engine_for({"PreToolUse": [group("Bash", cmd("echo 'policy says no' >&2; exit 2"))]})
    blocked = Calls(tmp_path, hooks=hooks)
    texts["hookblock"] = await blocked("Bash", command="echo OUT:hi")
    deny_json = (
        'echo \'{"hookSpecificOutput": {"hookEventName": "PreToolUse", '
        '"permissionDecision": "deny", "permissionDecisionReason": "policy says no"}}\''
    )
    blocked_json = Calls(
        tmp_path, hooks=engine_for({"PreToolUse": [group("Bash", cmd(deny_json))]})
    )
    texts["hookjsondeny"] = await blocked_json("Bash", command="echo OUT:hi")
    assert all("OUT:" not in t for t in texts.values())  # none of them ran
    assert shared(texts) == []


def test_tool_and_parameter_descriptions_are_hands_own() -> None:
    texts: dict[str, str] = {}
    for tool in all_base_tools():
        if tool.name in FILE_TOOLS:
            continue
        texts[tool.name] = tool.description
        for name, spec in tool.input_schema.get("properties", {}).items():
            if spec.get("description"):
                texts[f"{tool.name}.{name}"] = spec["description"]
    assert {"Bash", "Bash.command", "TaskStop.task_id", "WebFetch.url"} <= set(texts)
    assert shared(texts) == []
