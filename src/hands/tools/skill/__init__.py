"""Agent Skills: folders with a SKILL.md the model loads on demand through the Skill tool.

What other layers may use is named here and imported on first use; the family's
``_modules`` are its own.
"""

import typing

from hands import _lazy

if typing.TYPE_CHECKING:
    from hands.tools.skill._skills import Skill, SkillSet, load_skills, read_skill_dir

_EXPORTS = {
    "Skill": "._skills",
    "SkillSet": "._skills",
    "load_skills": "._skills",
    "read_skill_dir": "._skills",
}

__getattr__, __dir__ = _lazy.exports(__name__, _EXPORTS)

__all__ = [
    "Skill",
    "SkillSet",
    "load_skills",
    "read_skill_dir",
]
