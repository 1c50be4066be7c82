"""Every built-in agent chooses among its seat's true legal actions, in every game it plays.

A bot that searches resampled deals meets actions legal in one deal and not in another
(tests/property/hint.game: whether "tell P1 his red cards" is legal hangs on P1's hand,
hidden from the teller). What it plays must still be one of ``state.legal_actions()``.
"""

from __future__ import annotations

from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

import ruledsl
from ruledsl.agents import decide, make_agent

HINT = Path(__file__).resolve().parent / "hint.game"
#: Each built-in agent, cheap enough that games run to their end here.
SPECS = [
    "random",
    "first",
    "greedy:samples=2:depth=2",
    "ismcts:iterations=10:depth=5",
    "ismcts:iterations=10:depth=5:others=random",
    "cheat:iterations=10:depth=5",
]
#: The hidden-legality game first, then bundled ones (players, a stretch of actions each).
GAMES = [(str(HINT), 2, 60), (str(HINT), 3, 60), ("cheat", 3, 25), ("quasenbo", 2, 25), ("uno", 2, 25)]


@settings(max_examples=30)
@given(game=st.sampled_from(GAMES), spec=st.sampled_from(SPECS), seed=st.integers(0, 2**16))
def test_every_choice_is_a_legal_action(game: tuple[str, int, int], spec: str, seed: int) -> None:
    name, players, actions = game
    state = ruledsl.load_game(name, players=players).new_initial_state(seed=seed, track=True)
    agents = [make_agent(spec, seed + seat) for seat in range(players)]
    for _ in range(actions):
        if state.is_terminal():
            break
        seat = state.current_player()
        action = decide(agents[seat], state, seat)
        assert action in state.legal_actions(), (spec, seat, str(action))
        state.apply_action(action)


def test_greedy_meets_a_move_illegal_in_some_deals() -> None:
    """The case that stopped runs with R505: greedy tried its every legal move on resampled deals."""
    game = ruledsl.load_game(HINT, players=2)
    for seed in range(10):
        state = game.new_initial_state(seed=seed, track=True)
        agents = [make_agent("greedy:samples=4:depth=2", seed + seat) for seat in range(2)]
        while not state.is_terminal():
            seat = state.current_player()
            action = decide(agents[seat], state, seat)
            assert action in state.legal_actions()
            state.apply_action(action)
