"""Players that choose actions: they see only their observation and their legal actions."""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from ruledsl.interpreter import GameState
    from ruledsl.runtime.state import Action


class Agent(Protocol):
    """Something that picks one of its legal actions."""

    name: str

    def choose(self, state: GameState, seat: int) -> Action: ...


class RandomAgent:
    """Picks uniformly among the legal actions (seeded: a game replays exactly)."""

    name = "random"

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def choose(self, state: GameState, seat: int) -> Action:
        # legal_actions() is all it reads: what the seat may do, nothing hidden.
        return self.rng.choice(state.legal_actions())


class FirstAgent:
    """Always picks the first legal action (a fixed, trivial baseline)."""

    name = "first"

    def __init__(self, seed: int = 0) -> None:
        del seed

    def choose(self, state: GameState, seat: int) -> Action:
        return state.legal_actions()[0]


#: Agent kinds by name; each is built with a seed and keyword options.
AGENTS: dict[str, Any] = {"random": RandomAgent, "first": FirstAgent}


class AgentSpecError(ValueError):
    """A --seats entry that names no agent or gives it bad options."""


def parse_spec(spec: str) -> tuple[str, dict[str, str]]:
    """Split 'ismcts:iterations=500:c=1.4' into ('ismcts', {'iterations': '500', 'c': '1.4'})."""
    name, *parts = spec.strip().split(":")
    options: dict[str, str] = {}
    for part in parts:
        key, eq, value = part.partition("=")
        if not eq or not key.strip():
            raise AgentSpecError(f"agent option '{part}' should read name=value, as in ismcts:iterations=500")
        options[key.strip()] = value.strip()
    return name.strip().lower(), options


def make_agent(spec: str, seed: int) -> Any:
    """Build the agent a --seats entry names (not 'human': the command line plays those)."""
    name, options = parse_spec(spec)
    factory = AGENTS.get(name)
    if factory is None:
        known = ", ".join(sorted([*AGENTS, "human"]))
        raise AgentSpecError(f"unknown agent '{name}'; known agents: {known}")
    try:
        return factory(seed=seed, **options)
    except TypeError as exc:
        raise AgentSpecError(f"bad options for agent '{name}': {exc}") from None
