"""Choose the validator's moves: at random, then, in a game that goes on too long, moves that make progress.

Random players never end some games: in a rummy nobody knocks, in a patience the cards go
back and forth. ``check --simulate`` plays at random first (so that a game a finding names
is the one ``ruledsl play --seats random,...`` shows, as long as it was short), and past
``PROGRESS_AFTER`` actions each player looks one move ahead: he takes a move that ends the
game, else one that ends the round, else one that changes the phase, else one that improves
his place by the game's ``standing:`` (or ``ranking:``), and otherwise moves at random.
Nothing here knows any game: only what the state says of itself.
"""

from __future__ import annotations

import random

from ruledsl.engine.state import GameState
from ruledsl.engine.values import Action
from ruledsl.text.errors import RuleDslError

#: Actions of purely random play before the players seek progress.
PROGRESS_AFTER = 500

#: At most this many legal actions are looked at, one move ahead, for each choice.
_LOOKED_AT = 24


def progressing_action(state: GameState, legal: list[Action], rng: random.Random) -> Action:
    """Return the legal action that makes the most progress one move ahead (ties and no progress: at random)."""
    if len(legal) == 1:
        return legal[0]
    looked = legal if len(legal) <= _LOOKED_AT else rng.sample(legal, _LOOKED_AT)
    p = state.current_player()
    before = _place(state, p)
    best: list[Action] = []
    best_score = 0
    for action in looked:
        score = _progress(state, action, p, before)
        if score > best_score:
            best, best_score = [action], score
        elif score == best_score and score > 0:
            best.append(action)
    return rng.choice(best) if best else rng.choice(legal)


def _progress(state: GameState, action: Action, p: int, before: tuple[object, ...] | None) -> int:
    """How much ``action`` advances the game, one move ahead: 4 ends it, 3 a round, 2 a phase, 1 a better place."""
    after = state.clone()
    try:
        after.apply_action(action)
    except RuleDslError:
        return 0  # played for real, it fails there and is reported; it makes no progress
    if after.is_terminal():
        return 4
    if after.round != state.round:
        return 3
    if after.phase != state.phase:
        return 2
    if before is not None:
        place = _place(after, p)
        try:
            return 1 if place is not None and place < before else 0
        except TypeError:  # keys holding values of different kinds: no better, no worse
            return 0
    return 0


def _place(state: GameState, p: int) -> tuple[object, ...] | None:
    """Player p's sort key by the game's standing (else its ranking): smaller is better; None if it has neither."""
    prog = state.prog
    key = prog.standing_key if prog.standing_key is not None else prog.rank_key
    if key is None:
        return None
    state.calls = state.work = 0
    try:
        return tuple(key(state, p))
    except Exception:  # a rule that fails in the key is found where it runs for real; here it only ranks
        return None
