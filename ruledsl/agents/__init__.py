"""Players that choose actions, each from its seat's view: random, first, greedy, ismcts; and cheat.

An agent is given a ``SeatView`` (its observation, its legal actions, and resampled
states for search), never the true state; ``decide`` builds that view for the play and
simulate loops. Only ``cheat``, a perfect-information ceiling, is handed the true state.
Agents are named in --seats as ``NAME`` or ``NAME:OPTION=VALUE:...``; a program of one's own,
run in another process, as ``process:COMMAND`` (``ruledsl.agents.process``).
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any, ClassVar

from ruledsl.agents.base import Agent, AgentSpecError, Option, evaluate, rollout
from ruledsl.agents.greedy import GreedyAgent
from ruledsl.agents.ismcts import CheatAgent, IsmctsAgent
from ruledsl.agents.process import ProcessAgent, ProcessAgentError, parse_process_spec
from ruledsl.agents.view import OmniscientView, SeatView

if TYPE_CHECKING:
    from ruledsl.engine.state import GameState
    from ruledsl.engine.values import Action

__all__ = [
    "AGENTS",
    "Agent",
    "AgentChoiceError",
    "AgentSpecError",
    "CheatAgent",
    "FirstAgent",
    "GreedyAgent",
    "IsmctsAgent",
    "OmniscientView",
    "Option",
    "ProcessAgent",
    "ProcessAgentError",
    "RandomAgent",
    "SeatView",
    "agent_seed",
    "seat_agent",
    "canonical_spec",
    "close_agents",
    "decide",
    "evaluate",
    "make_agent",
    "needs_tracking",
    "parse_spec",
    "rollout",
    "split_seats",
]


def agent_seed(game_seed: int, seat: int) -> int:
    """Each seat's agent in this process gets its own seed, fixed by the game's seed.

    It can be undone (it gives away the low 32 bits of the game's seed): an agent in this
    process could reach the true state anyway, and the pinned fixed-seed games rely on it.
    An agent in another process gets ``private_seed`` instead."""
    return (game_seed * 1_000_003 + seat * 7_919 + 17) & 0xFFFFFFFF


def private_seed(game_seed: int, seat: int) -> int:
    """The seed of a seat's agent in another process: a one-way function of the game's seed.

    A hash (sha256) of the game's seed and the seat, so that nothing the agent is given leads
    back to the seed and with it to every hidden card; the same seed and seat give the same
    agent seed (a game replays), another seat another."""
    digest = hashlib.sha256(f"ruledsl agent seed\0{game_seed}\0{seat}".encode("ascii")).digest()
    return int.from_bytes(digest[:8], "big")


class RandomAgent:
    """Picks uniformly among the legal actions (seeded: a game replays exactly)."""

    name: ClassVar[str] = "random"
    omniscient: ClassVar[bool] = False
    resamples: ClassVar[bool] = False
    OPTIONS: ClassVar[dict[str, Option]] = {}

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def choose(self, view: SeatView) -> Action:
        return self.rng.choice(view.legal_actions())


class FirstAgent:
    """Always picks the first legal action (a fixed, trivial baseline)."""

    name: ClassVar[str] = "first"
    omniscient: ClassVar[bool] = False
    resamples: ClassVar[bool] = False
    OPTIONS: ClassVar[dict[str, Option]] = {}

    def __init__(self, seed: int = 0) -> None:
        del seed

    def choose(self, view: SeatView) -> Action:
        return view.legal_actions()[0]


#: Agent kinds by name; each is built with a seed and the options it declares.
AGENTS: dict[str, Any] = {
    "random": RandomAgent,
    "first": FirstAgent,
    "greedy": GreedyAgent,
    "ismcts": IsmctsAgent,
    "cheat": CheatAgent,
    "process": ProcessAgent,
}


def split_seats(seats: str) -> list[str]:
    """Split a --seats text at its commas, but not at a comma in quotes: a process agent's
    command may hold one (``process:python3 bot.py --names 'a,b',random``)."""
    entries: list[str] = []
    entry: list[str] = []
    quote, escaped = "", False
    for ch in seats:
        if escaped:
            escaped = False
        elif ch == "\\" and quote != "'":
            escaped = True
        elif quote:
            quote = "" if ch == quote else quote
        elif ch in "'\"":
            quote = ch
        elif ch == ",":
            entries.append("".join(entry))
            entry = []
            continue
        entry.append(ch)
    entries.append("".join(entry))
    return entries


def parse_spec(spec: str) -> tuple[str, dict[str, str]]:
    """Split 'ismcts:iterations=500:c=1.4' into ('ismcts', {'iterations': '500', 'c': '1.4'});
    'process:timeout=5:python3 bot.py' into ('process', {'timeout': '5', 'command': 'python3 bot.py'})."""
    head, _, rest = spec.strip().partition(":")
    if head.strip().lower() == "process":
        return "process", parse_process_spec(rest)
    name, *parts = spec.strip().split(":")
    options: dict[str, str] = {}
    for part in parts:
        key, eq, value = part.partition("=")
        if not eq or not key.strip():
            raise AgentSpecError(f"agent option '{part}' should read name=value, as in ismcts:iterations=500")
        if key.strip() in options:
            raise AgentSpecError(f"agent option '{key.strip()}' is given twice in '{spec.strip()}'")
        options[key.strip()] = value.strip()
    return name.strip().lower(), options


def canonical_spec(spec: str) -> str:
    """The one spelling of a --seats entry, so that 'RANDOM' and ' random' are one agent in a report."""
    name, options = parse_spec(spec)
    command = options.pop("command", None) if name == "process" else None
    return name + "".join(f":{k}={v}" for k, v in options.items()) + (f":{command}" if command is not None else "")


def make_agent(spec: str, seed: int) -> Any:
    """Build the agent a --seats entry names (not 'human': the command line plays those)."""
    name, texts = parse_spec(spec)
    factory = AGENTS.get(name)
    if factory is None:
        known = ", ".join(sorted([*AGENTS, "human"]))
        raise AgentSpecError(f"unknown agent '{name}'; known agents: {known}")
    declared: dict[str, Option] = factory.OPTIONS
    values = {}
    for key, text in texts.items():
        option = declared.get(key)
        if option is None:
            known = ", ".join(declared) if declared else "none"
            raise AgentSpecError(f"agent '{name}' has no option '{key}'; its options: {known}")
        values[key] = option.parse(name, key, text)
    return factory(seed=seed, **values)


def seat_agent(spec: str, game_seed: int, seat: int) -> Any:
    """Build the agent of ``seat`` in the game of ``game_seed``, seeded from both: with
    ``agent_seed`` in this process, with ``private_seed`` in another (``process:COMMAND``)."""
    outside = parse_spec(spec)[0] == ProcessAgent.name
    return make_agent(spec, (private_seed if outside else agent_seed)(game_seed, seat))


class AgentChoiceError(RuntimeError):
    """An agent chose an action that is not one of its seat's legal actions: a fault of the agent."""


def decide(agent: Any, state: GameState, seat: int) -> Action:
    """Ask ``agent`` for its action at ``seat``, showing it only that seat's view.

    What it chooses must be one of the seat's legal actions; anything else is the agent's
    fault, never the rule file's (it would otherwise be refused as R505, placed in the rules).
    """
    view = OmniscientView(state, seat) if agent.omniscient else SeatView(state, seat)
    action = agent.choose(view)
    if state.current_player() != seat or action not in state.legal_actions():
        name = getattr(agent, "name", type(agent).__name__)
        raise AgentChoiceError(f"agent '{name}' chose an action that is not one of P{seat}'s legal actions")
    return action


def close_agents(agents: Iterable[Any]) -> None:
    """End the agents that hold something to end (a process agent's program)."""
    for agent in agents:
        close = getattr(agent, "close", None)
        if close is not None:
            close()


def needs_tracking(agents: Iterable[Any]) -> bool:
    """Whether a game must track what each seat has seen (some agent resamples)."""
    return any(agent.resamples for agent in agents)
