"""hands' tools inside other agent frameworks.

pydantic-ai, the OpenAI Agents SDK and LangChain/LangGraph.

Each adapter is its own module and imports its framework only when it is imported:
:mod:`hands.adapters.pydantic_ai`, :mod:`hands.adapters.openai_agents`,
:mod:`hands.adapters.langchain`. All three stand on :class:`hands.adapters.toolbox.Toolbox`.
"""
