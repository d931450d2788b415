"""Agent Skills: folders with a SKILL.md the model loads on demand through the Skill tool."""
