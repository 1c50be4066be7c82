"""Measure the research bridges: moves/s through each against the native API, and IS-MCTS against IS-MCTS.

    python benchmarks/bridges.py speed                      # Crazy Eights and Quäsenbö, 2 players
    python benchmarks/bridges.py speed --seconds 2 --repeats 5 --json
    python benchmarks/bridges.py speed --cpu                # CPU time: steadier on a loaded machine
    python benchmarks/bridges.py ismcts --games 1000        # ruledsl's ismcts vs OpenSpiel's, Quäsenbö
    python benchmarks/bridges.py ismcts --games 500 --first 500   # the second half, in another process

``speed`` plays uniform random playouts through each way in (every step applied counts as
a move): the native API (``legal_actions``/``apply_action``), integer ids
(``ruledsl.spaces.Decisions``), OpenSpiel (``pyspiel`` state from Python; with and without
``track``; and each again reading the mover's ``observation_tensor`` every move, as a
learner does), PettingZoo AEC
(``agent_iter``/``last``/``step``, no wrappers) and Gymnasium (one seat stepping, the other
played by the ``random`` bot). The ways run in alternating timed rounds, so that a loaded
machine's noise falls on all; the report gives each one's median moves/s and its median
ratio to native.

Each host API costs something even for a game that does nothing, and no bridge can be
faster than that: the *floors* are measured in the same rounds, so that every ratio can be
read against them. ``openspiel floor`` is a no-op game written in Python for ``pyspiel``
(games of 60 moves, 4 legal ids at every one; ``+ tensor``: its observer, as wide as the
game's observation tensor, read for the mover every move, setting one entry);
``pettingzoo floor`` a no-op AEC env (``last``/``step`` as PettingZoo's classic envs keep
them: rewards, terminations, ``_accumulate_rewards``; a fresh tensor of the game's width
and a fresh mask every ``observe``), played by the same loop as ``pettingzoo``;
``gymnasium floor`` a no-op ``gymnasium.Env`` handing out the same (every step one move).

``ismcts`` plays 2-player Quäsenbö, ruledsl's ``ismcts`` against OpenSpiel's
``ISMCTSBot`` (random rollouts) at the same number of iterations per move, seats swapped
every other game; it reports ruledsl's score (win 1, draw 1/2) with a 95% Wilson interval.
"""

from __future__ import annotations

import argparse
import json
import math
import platform
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import gymnasium  # noqa: E402
import numpy as np  # noqa: E402
import pyspiel  # noqa: E402
from pettingzoo import AECEnv  # noqa: E402

import ruledsl  # noqa: E402
import ruledsl.openspiel  # noqa: E402, F401  (registers "ruledsl")
from benchmarks.harness import random_playout  # noqa: E402
from ruledsl.agents import decide, make_agent  # noqa: E402
from ruledsl.gymnasium import RuledslEnv as GymEnv  # noqa: E402
from ruledsl.pettingzoo import env as aec_env  # noqa: E402
from ruledsl.spaces import spaces_for  # noqa: E402

#: One playout: (seed, rng) -> moves.
Way = Callable[[int, random.Random], int]

#: The floors' games: this many moves, this many legal ids at each.
FLOOR_MOVES, FLOOR_LEGAL = 60, [0, 1, 2, 3]
_FLOOR_TYPE = pyspiel.GameType(
    short_name="ruledsl_floor",
    long_name="a no-op game: what pyspiel costs from Python",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.DETERMINISTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=2,
    min_num_players=2,
    provides_information_state_string=False,
    provides_information_state_tensor=False,
    provides_observation_string=False,
    provides_observation_tensor=True,
    parameter_specification={"size": 1},
)


class FloorGame(pyspiel.Game):  # type: ignore[misc]
    def __init__(self, params: dict[str, object] | None = None) -> None:
        info = pyspiel.GameInfo(
            num_distinct_actions=len(FLOOR_LEGAL),
            max_chance_outcomes=0,
            num_players=2,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=0.0,
            max_game_length=FLOOR_MOVES,
        )
        super().__init__(_FLOOR_TYPE, info, params or {})
        self.size = int((params or {}).get("size", 1))  # type: ignore[call-overload]

    def new_initial_state(self) -> FloorState:
        return FloorState(self)

    def make_py_observer(self, iig_obs_type: object = None, params: object = None) -> FloorObserver:
        return FloorObserver(self.size)


class FloorObserver:
    def __init__(self, size: int) -> None:
        self.tensor = np.zeros(size, np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: FloorState, player: int) -> None:
        self.tensor[0] = player

    def string_from(self, state: FloorState, player: int) -> str:
        return ""


class FloorState(pyspiel.State):  # type: ignore[misc]
    def __init__(self, game: FloorGame) -> None:
        super().__init__(game)
        self.n = 0

    def current_player(self) -> int:
        return int(pyspiel.PlayerId.TERMINAL) if self.n >= FLOOR_MOVES else self.n % 2

    def _legal_actions(self, player: int) -> list[int]:
        return FLOOR_LEGAL

    def _apply_action(self, action: int) -> None:
        self.n += 1

    def is_terminal(self) -> bool:
        return self.n >= FLOOR_MOVES

    def returns(self) -> list[float]:
        return [0.0, 0.0]

    def __str__(self) -> str:
        return ""


pyspiel.register_game(_FLOOR_TYPE, FloorGame)


class FloorAEC(AECEnv):  # type: ignore[misc]
    """A no-op AEC env of two agents: what PettingZoo's loop costs, with a tensor of ``size`` and a mask."""

    metadata = {"render_modes": [], "name": "floor_v0", "is_parallelizable": False}

    def __init__(self, size: int) -> None:
        super().__init__()
        self.size = size
        self.possible_agents = ["player_0", "player_1"]

    def reset(self, seed: int | None = None, options: object = None) -> None:
        self.n = 0
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, object]] = {a: {} for a in self.agents}
        self.agent_selection = self.agents[0]

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        mask = np.zeros(len(FLOOR_LEGAL), np.int8)
        mask[FLOOR_LEGAL] = 1
        return {"observation": np.zeros(self.size, np.float32), "action_mask": mask}

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self._cumulative_rewards[agent] = 0.0
        self.n += 1
        if self.n >= FLOOR_MOVES:
            for a in self.agents:
                self.rewards[a] = 0.0
                self.terminations[a] = True
        else:
            self.rewards = dict.fromkeys(self.agents, 0.0)
            self.agent_selection = self.possible_agents[self.n % 2]
        self._accumulate_rewards()


class FloorGym(gymnasium.Env):  # type: ignore[misc]
    """A no-op Gymnasium env: a fresh tensor of ``size`` and mask every step."""

    def __init__(self, size: int) -> None:
        self.size = size
        self.observation_space = gymnasium.spaces.Box(-1, 1, (size,), np.float32)
        self.action_space = gymnasium.spaces.Discrete(len(FLOOR_LEGAL))

    def _out(self) -> tuple[np.ndarray, dict[str, object]]:
        mask = np.zeros(len(FLOOR_LEGAL), np.int8)
        mask[FLOOR_LEGAL] = 1
        return np.zeros(self.size, np.float32), {"action_mask": mask}

    def reset(self, *, seed: int | None = None, options: object = None) -> tuple[np.ndarray, dict[str, object]]:
        super().reset(seed=seed)
        self.n = 0
        return self._out()

    def step(self, action: object) -> tuple[np.ndarray, float, bool, bool, dict[str, object]]:
        self.n += 1
        obs, info = self._out()
        return obs, 0.0, self.n >= FLOOR_MOVES, False, info


def ways(name: str, players: int) -> dict[str, Way]:
    """Each way of playing ``name`` at random, from the native API to each bridge."""
    game = ruledsl.load_game(name, players=players)
    spaces = spaces_for(name, players)
    spiel = pyspiel.load_game("ruledsl", {"game": name, "players": players})
    untracked = pyspiel.load_game("ruledsl", {"game": name, "players": players, "track": False})
    aec = aec_env(name, players=players)
    gym = GymEnv(name, players=players, opponents="random")
    size = spaces.tensors.observation_size  # the floors' tensors are as wide as the game's
    floor = pyspiel.load_game("ruledsl_floor", {"size": size})
    floor_aec, floor_gym = FloorAEC(size), FloorGym(size)

    def native(seed: int, rng: random.Random) -> int:
        return random_playout(game.new_initial_state(seed=seed), rng)

    def ids(seed: int, rng: random.Random) -> int:
        return random_playout(spaces.new_play(seed, track=False), rng)

    def openspiel(seed: int, rng: random.Random) -> int:  # chance nodes' outcomes picked by rng too
        return random_playout(spiel.new_initial_state(), rng)

    def openspiel_untracked(seed: int, rng: random.Random) -> int:
        return random_playout(untracked.new_initial_state(), rng)

    def tensors(spiel_game: pyspiel.Game) -> Way:
        def playout(seed: int, rng: random.Random) -> int:  # as a learner does: the mover's tensor, every move
            state, moves = spiel_game.new_initial_state(), 0
            while not state.is_terminal():
                if not state.is_chance_node():
                    state.observation_tensor(state.current_player())
                state.apply_action(rng.choice(state.legal_actions()))
                moves += 1
            return moves

        return playout

    def aec_loop(env: AECEnv) -> Way:
        def playout(seed: int, rng: random.Random) -> int:
            env.reset(seed=seed)
            moves = 0
            for _agent in env.agent_iter():
                obs, _, termination, truncation, _ = env.last()
                if termination or truncation:
                    env.step(None)
                    continue
                env.step(rng.choice(np.flatnonzero(obs["action_mask"])))
                moves += 1
            return moves

        return playout

    def floor_gymnasium(seed: int, rng: random.Random) -> int:
        _, info = floor_gym.reset(seed=seed)
        done, moves = False, 0
        while not done:
            _, _, done, _, info = floor_gym.step(rng.choice(np.flatnonzero(info["action_mask"])))
            moves += 1
        return moves

    def gymnasium(seed: int, rng: random.Random) -> int:
        _, info = gym.reset(seed=seed)
        done, moves = False, 0
        while not done:
            _, _, terminated, truncated, info = gym.step(rng.choice(np.flatnonzero(info["action_mask"])))
            done = terminated or truncated
            moves += 1
        # The bot's moves are moves too: count the whole game.
        return gym.play.state.n_actions if gym.play is not None else moves

    return {
        "native": native,
        "ids": ids,
        "openspiel": openspiel,
        "openspiel, track=False": openspiel_untracked,
        "openspiel + tensor": tensors(spiel),
        "openspiel, track=False + tensor": tensors(untracked),
        "pettingzoo": aec_loop(aec),
        "gymnasium": gymnasium,
        "openspiel floor (no-op game)": lambda seed, rng: random_playout(floor.new_initial_state(), rng),
        "openspiel floor (no-op game) + tensor": tensors(floor),
        "pettingzoo floor (no-op AEC env)": aec_loop(floor_aec),
        "gymnasium floor (no-op env)": floor_gymnasium,
    }


def timed(way: Way, seconds: float, seed: int, clock: Callable[[], float] = time.perf_counter) -> float:
    rng = random.Random(seed)
    moves, games = 0, 0
    start = clock()
    while clock() - start < seconds:
        moves += way(seed + games, rng)
        games += 1
    return moves / (clock() - start)


def speed(
    name: str, players: int, seconds: float, repeats: int, only: list[str] | None = None, cpu: bool = False
) -> dict[str, object]:
    clock = time.process_time if cpu else time.perf_counter
    every = {w: way for w, way in ways(name, players).items() if w == "native" or not only or w in only}
    for way in every.values():
        timed(way, 0.2, 0)  # warm up
    rounds: dict[str, list[float]] = {w: [] for w in every}
    for r in range(repeats):
        for w, way in every.items():
            rounds[w].append(timed(way, seconds, 1000 * r, clock))
    ratios = {w: statistics.median(a / b for a, b in zip(rounds[w], rounds["native"])) for w in every}
    return {
        "game": name,
        "players": players,
        "moves_per_s": {w: statistics.median(v) for w, v in rounds.items()},
        "ratio_to_native": ratios,
    }


def wilson(score: float, n: int, z: float = 1.96) -> tuple[float, float]:
    if n == 0:
        return (0.0, 1.0)
    p = score / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return (centre - half, centre + half)


def ismcts_match(games: int, iterations: int, seed: int, first: int = 0) -> dict[str, object]:
    from open_spiel.python.algorithms import ismcts, mcts

    spiel = pyspiel.load_game("ruledsl", {"game": "quasenbo", "players": 2})
    space = spiel.spaces.actions
    score = 0.0
    start = time.perf_counter()
    for g in range(first, first + games):
        ours = g % 2  # seats swapped every other game
        rng = np.random.RandomState(seed + g)
        theirs = ismcts.ISMCTSBot(spiel, mcts.RandomRolloutEvaluator(1, rng), 2.0, iterations, random_state=rng)
        agent = make_agent(f"ismcts:iterations={iterations}", seed + g)
        state = spiel.new_initial_state()
        deal = random.Random(seed + g)
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(deal.choice(state.chance_outcomes())[0])
            elif state.current_player() == ours:
                # Our agent searches by playing copies of the engine's state: one drawing from a seed.
                action = decide(agent, state.seeded_state(deal.getrandbits(63)), ours)
                # Apply through OpenSpiel, id by id, so both bots see the same state.
                for i in space.tokens(action):
                    state.apply_action(i)
            else:
                state.apply_action(theirs.step(state))
        r = state.returns()[ours]
        points = 1.0 if r > 0 else 0.5 if r == 0 else 0.0
        score += points
        # One line a game on stderr: a long run shows its progress, and shards can be added up.
        print(json.dumps({"game": g, "ours": ours, "points": points}), file=sys.stderr, flush=True)
    low, high = wilson(score, games)
    return {
        "games": games,
        "first": first,
        "iterations": iterations,
        "ruledsl_score": score / games if games else None,
        "interval_95": [low, high],
        "seconds": time.perf_counter() - start,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="what", required=True)
    s = sub.add_parser("speed")
    s.add_argument("--games", nargs="*", default=["crazy_eights", "quasenbo"])
    s.add_argument("--players", type=int, default=2)
    s.add_argument("--seconds", type=float, default=1.0)
    s.add_argument("--repeats", type=int, default=3)
    s.add_argument("--json", action="store_true")
    s.add_argument("--ways", nargs="*", help="only these ways in (and native), by the names the report gives")
    s.add_argument(
        "--cpu", action="store_true", help="time in CPU seconds (process_time): steadier on a loaded machine"
    )
    m = sub.add_parser("ismcts")
    m.add_argument("--games", type=int, default=1000)
    m.add_argument("--iterations", type=int, default=100)
    m.add_argument("--seed", type=int, default=0)
    m.add_argument("--first", type=int, default=0, help="index of the first game (to run a long match in shards)")
    args = parser.parse_args()
    machine = f"{platform.python_implementation()} {platform.python_version()}, {platform.machine()}"
    if args.what == "speed":
        results = [speed(name, args.players, args.seconds, args.repeats, args.ways, args.cpu) for name in args.games]
        if args.json:
            print(json.dumps({"machine": machine, "results": results}, indent=2))
            return
        unit = "s CPU" if args.cpu else "s"
        print(f"# {machine}; median of {args.repeats} rounds of {args.seconds}{unit} each, ways alternating")
        for r in results:
            print(f"{r['game']}, {r['players']} players:")
            for w, v in r["moves_per_s"].items():  # type: ignore[attr-defined]
                print(f"  {w:<38} {v:>10,.0f} moves/s   x{r['ratio_to_native'][w]:.2f} of native")  # type: ignore[index]
    else:
        result = ismcts_match(args.games, args.iterations, args.seed, args.first)
        print(json.dumps({"machine": machine, **result}, indent=2))


if __name__ == "__main__":
    main()
