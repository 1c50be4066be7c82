"""OpenSpiel's view of a rule file: ``import ruledsl.openspiel`` registers the python game "ruledsl".

    import pyspiel
    import ruledsl.openspiel  # noqa: F401  (registers "ruledsl")

    game = pyspiel.load_game("ruledsl", {"game": "my_game.game", "players": 2})

Parameters: ``game`` (a bundled game's name or a path to a .game file), ``players`` (0:
the least the game allows), ``options`` (``"name:value;name:value"``: OpenSpiel's
parameters are fixed per game type, a rule file's options are not),
``max_actions`` (0: ruledsl's default), ``track`` (keep what each player saw of the cards, so
that ``resample_from_infostate`` deals only where a card can be: on by default; off plays
faster and resamples among all unseen cards), ``recall`` (0: the information-state tensor
counts a player's own ids; N: it holds up to N of them in order, so that it tells apart
what the string does: ``_Observer``).

Chance: each draw of the rules is a chance node with its exact outcomes, equally likely:
a card dealt from a shuffled deck is one of the cards still in it, and a shuffle nobody sees
into is decided card by card only as it is read (``ruledsl.engine.chance``: ``Drawer``,
``LazyZone``), so Kuhn and Leduc poker have OpenSpiel's own trees. A step that draws is paused
at each chance node and goes on with the outcome chosen (``_Play``, ``_Stepper``: a greenlet);
a copy goes on by making the step again from where it began. Seeded play, elsewhere,
draws from its seed as ever. Actions are ``ruledsl.spaces.ActionSpace`` ids (a set
of cards is chosen card by card, then "done"); observations and information states come
from ``observation(seat)`` alone (``ruledsl.spaces.TensorLayout``), the public observer's
from a spectator's ``observation(None)``. An information state is the player's observation
now and his own ids: not perfect recall in general (docs/integrations.md says what it holds).
``max_game_length`` is a bound (``_longest_play``); OpenSpiel's Python solvers recurse once per
history and need Python's recursion limit above the longest play met (docs/integrations.md).
"""

from __future__ import annotations

import json
import math
import random
import threading
from typing import Any

try:
    import greenlet
    import numpy as np
    import pyspiel
except ImportError as error:  # the extra is not installed: say which
    raise ImportError(f"ruledsl.openspiel needs OpenSpiel ({error.name}): pip install 'ruledsl[openspiel]'") from None

from ruledsl.agents.view import canonical_state as canonical_view
from ruledsl.engine.chance import ChanceNeeded, Drawer, LazyZone, seed_state, seeded
from ruledsl.engine.program import Utility
from ruledsl.engine.state import GameState
from ruledsl.spaces import ActionSpace, Decisions, Spaces, spaces_for
from ruledsl.spaces.tensors import write_entries

# OpenSpiel wants a default for every parameter; the game has none worth guessing: say which.
_DEFAULTS: dict[str, Any] = {
    "game": "",
    "players": 0,
    "options": "",
    "max_actions": 0,
    "track": True,
    "recall": 0,
}


def _game_type(utility: Any = pyspiel.GameType.Utility.GENERAL_SUM) -> Any:
    """ruledsl's game type; a loaded game's says what its rules prove of its returns (``_utility``)."""
    return pyspiel.GameType(
        short_name="ruledsl",
        long_name="A ruledsl rule file",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=utility,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=16,
        min_num_players=1,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=_DEFAULTS,
    )


_GAME_TYPE = _game_type()


def _utility(utility: Utility) -> tuple[Any, float, float, float | None]:
    """OpenSpiel's utility kind, bounds and sum for what the rules prove of the returns.

    Places lie between -1 and +1 and need not add up to the same (a lone winner's +1 against
    the others' -1 each). Payoffs are zero-sum or constant-sum only when the checker proved
    it, and bounded only where it proved bounds: unbounded (infinite) otherwise, not guessed.
    """
    kinds = pyspiel.GameType.Utility
    total = utility.constant_sum
    kind = kinds.GENERAL_SUM if total is None else kinds.ZERO_SUM if total == 0 else kinds.CONSTANT_SUM
    low = -math.inf if utility.low is None else utility.low
    high = math.inf if utility.high is None else utility.high
    return kind, low, high, total


def _spaces(params: dict[str, Any]) -> Spaces:
    return spaces_for(
        str(params["game"]),
        int(params["players"]),
        str(params["options"]),
        int(params["max_actions"]),
    )


class RuledslGame(pyspiel.Game):  # type: ignore[misc]  # pyspiel has no types
    """A rule file loaded for OpenSpiel: one player count, one choice of options."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        given = {**_DEFAULTS, **(params or {})}
        if not given["game"]:
            raise ValueError('say which game: pyspiel.load_game("ruledsl", {"game": NAME_OR_PATH, ...})')
        space = _spaces(given).actions
        kind, low, high, total = _utility(space.game.program.utility)
        info = pyspiel.GameInfo(
            num_distinct_actions=space.num_distinct_actions,
            max_chance_outcomes=max(1, space.game.program.n_cards),  # a card, or a place below it
            num_players=space.game.players,
            min_utility=low,
            max_utility=high,
            utility_sum=total,
            max_game_length=_longest_play(space),
        )
        super().__init__(_game_type(kind), info, params or {})

    # Worked out from the parameters, not kept: OpenSpiel unpickles a game without calling __init__.
    @property
    def params(self) -> dict[str, Any]:
        """The game's parameters, defaults included."""
        return {**_DEFAULTS, **self.get_parameters()}

    @property
    def spaces(self) -> Spaces:
        """The loaded rule file, its action space and its tensor layout."""
        return _spaces(self.params)

    @property
    def track(self) -> bool:
        return bool(self.params["track"])

    def new_initial_state(self) -> RuledslState:
        """Return a state before setup: a chance node if setup draws (most often: a card to deal)."""
        return RuledslState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> _Observer | None:
        """Return the observer of the views of ``iig_obs_type``, or None for a view ruledsl has not.

        ruledsl has two views: a player's (the public part and his private part) and a
        spectator's (``observation(None)``: what every player sees, the public part alone).
        So: OpenSpiel's default type and a player's private and public information give a
        player's observation (with perfect recall: his information state, see the module's
        notes); public information alone, without perfect recall, gives the spectator's view,
        the same for every player; any other type (private information alone, or public
        alone with perfect recall) gives None, which OpenSpiel reads as not provided.
        """
        if iig_obs_type is None:
            return _Observer(self.spaces, False)
        if not iig_obs_type.public_info:
            return None
        if iig_obs_type.private_info == pyspiel.PrivateInfoType.SINGLE_PLAYER:
            return _Observer(self.spaces, iig_obs_type.perfect_recall, recall=int(self.params["recall"]))
        if iig_obs_type.private_info == pyspiel.PrivateInfoType.NONE and not iig_obs_type.perfect_recall:
            return _Observer(self.spaces, False, public=True)
        return None


def _groups(block: Any) -> int:
    return sum(1 for c in block.choices if c.is_group)


def _longest_play(space: ActionSpace) -> int:
    """The most histories a play can go through: OpenSpiel's ``max_game_length``.

    The game stops at its action bound (``max_actions``); each action is at most one id per
    choice, a card and "done" per card of a set chosen card by card; setup and each action draw
    at most a deck's worth of cards, a chance node each (a step that reshuffles and draws the
    whole deck again is the one case past it). A bound, not a length met: docs/integrations.md
    gives the lengths met in play, which set the recursion limit OpenSpiel's Python solvers need.
    """
    cards: int = space.game.program.n_cards
    ids = max([1, *(1 + (cards + 1) * _groups(b) for b in space.blocks)])
    return (space.game.max_actions + 1) * cards + space.game.max_actions * ids


class _Play:
    """The play inside a RuledslState: copied by ``clone`` (deepcopy), pickled as its moves.

    ``decisions`` is the play as it stands after the last step made whole (None before setup
    is); a step (setup, or a player's id) that draws runs in a ``_Stepper`` from ``before``
    (None: setup) and pauses at each chance node, ``need`` holding its outcomes, until an
    outcome is given (``drawer.given``). A copy, or a play in another thread, cannot share the
    paused step: it makes the step again from ``before`` with the outcomes given so far.
    """

    __slots__ = ("params", "moves", "decisions", "before", "waiting", "drawer", "need", "fresh", "stepper", "copied")

    def __init__(self, params: dict[str, Any]) -> None:
        self.params = params
        self.moves: list[int] = []  # every id and chance outcome so far, in order
        self.decisions: Decisions | None = None
        self.before: Decisions | None = None
        self.waiting = -1  # the id whose step waits on chance (-1: setup)
        self.drawer = Drawer(ask=_pause)
        self.need: list[tuple[int, float]] | None = None
        self.stepper: _Stepper | None = None  # the step paused at a chance node, if this play holds it
        self.copied = False  # a copy not stepped yet (``_step``)
        # Setup is made when first asked about (``ready``): OpenSpiel's clone makes a new
        # initial state, then copies the play into it, which would throw a setup away.
        self.fresh = True

    def ready(self) -> _Play:
        """The play, setup made: as far as it goes before its first chance node, the same for every
        play of one game, so made once per game (``_SETUPS``). OpenSpiel asks for it more often than
        it seems: its ``observation_tensor`` works the tensor's size out anew at each call, from a
        new initial state's tensor."""
        if self.fresh:
            self.fresh = False
            key = tuple(sorted(self.params.items()))
            made = _SETUPS.get(key)
            if made is None:
                self._step()  # its paused step is its own: the others make setup's first draw again
                if len(_SETUPS) >= 32:
                    _SETUPS.clear()
                made = _SETUPS[key] = (self.decisions, self.need)
            # Shared as a play's copies share them (``__deepcopy__``): a step makes a copy to change.
            self.decisions, self.need = made
        return self

    def _step(self) -> None:
        """Go on with the waiting step, given the last outcome; or make it from where it began."""
        drawer = self.drawer
        if self.copied and self.stepper is None:
            # A copy's first step is made here, cut short at a chance node: tree searches step
            # each copy once (OpenSpiel's ``child``), and would leave a paused step behind each.
            self.copied = False
            drawer.used = 0
            try:
                made: Decisions | None = _make_step(self.params, self.before, self.waiting, drawer)
            except ChanceNeeded as needed:
                self.need = needed.outcomes
                return
        else:
            stepper = self._stepper()
            try:
                need = stepper.switch() if stepper.job is not None else stepper.switch(drawer.given[-1])
            except BaseException:
                self.stepper = None  # a rule failed: the step ends with it (see ``apply``)
                raise
            if need is not None:  # paused at a chance node
                self.need = need
                return
            made, stepper.made, self.stepper = stepper.made, None, None
            stepper.rest()
        self.decisions, self.before, self.need = made, None, None
        drawer.given = []
        drawer.used = 0

    def _stepper(self) -> _Stepper:
        """The stepper that holds the waiting step, paused; or one given the step to make (``job``)."""
        stepper = self.stepper
        if stepper is not None:
            try:
                stepper.parent = greenlet.getcurrent()
                return stepper
            except ValueError:  # paused in another thread: made again here
                pass
        self.drawer.used = 0
        stepper = self.stepper = _Stepper.idle()
        stepper.job = (self.params, self.before, self.waiting, self.drawer)
        return stepper

    def apply(self, move: int) -> None:
        """Take a player's id, or a chance outcome while ``need`` is set; a rule that fails changes nothing."""
        kept = (self.before, self.waiting, self.need, len(self.drawer.given), len(self.moves))
        try:
            self._take(move)
        except Exception:
            self.before, self.waiting, self.need = kept[:3]
            del self.drawer.given[kept[3] :], self.moves[kept[4] :]
            raise

    def _take(self, move: int) -> None:
        if self.need is not None:
            if move not in {o for o, _ in self.need}:
                raise ValueError(f"chance outcome {move} is not one of {[o for o, _ in self.need]}")
            self.drawer.given.append(move)
        else:
            decisions = self.decisions
            assert decisions is not None
            if move not in decisions.legal_actions():  # refused before anything is made
                raise decisions._illegal(move)
            self.before, self.waiting = decisions, move
        self.moves.append(move)
        self._step()

    def __deepcopy__(self, memo: dict[int, Any]) -> _Play:
        copy = _Play.__new__(_Play)
        copy.params, copy.moves, copy.waiting, copy.need = self.params, self.moves[:], self.waiting, self.need
        copy.fresh = self.fresh
        copy.drawer = Drawer(self.drawer.given[:], ask=_pause)
        copy.stepper = None  # the paused step is this play's: the copy makes it again when it goes on
        copy.copied = True
        # Never changed in place (a step makes a copy of them: _fork), so shared.
        copy.decisions, copy.before = self.decisions, self.before
        return copy

    def __reduce__(self) -> tuple[Any, ...]:
        return (_replayed, (self.params, self.moves))


#: Each game's setup made as far as its first chance node: (the play, or None; the outcomes it waits on, or None).
_SETUPS: dict[tuple[tuple[str, Any], ...], tuple[Decisions | None, list[tuple[int, float]] | None]] = {}


class _Stepper(greenlet.greenlet):  # type: ignore[misc]  # greenlet's types are partial
    """A stack of its own to make steps of the rules in (``_steps``), so that a chance node
    pauses the step (``_pause``) rather than cutting it short to make it again from its start
    with each outcome: a deal of n cards costs n draws, not n²/2.

    A play holds its stepper while the step waits on chance; made whole, the step hands the
    stepper back to its thread's idle ones (a new greenlet costs eight times a switch). Its
    frames never reference the stepper or the play: a paused greenlet in a reference cycle is
    never collected, and a play dropped at a chance node must free the step it holds."""

    job: tuple[dict[str, Any], Decisions | None, int, Drawer] | None
    made: Decisions | None

    _idle = threading.local()

    @classmethod
    def idle(cls) -> _Stepper:
        """An idle stepper of this thread, or a new one."""
        idle = cls._idle_ones()
        stepper = idle.pop() if idle else cls(_steps)
        stepper.parent = greenlet.getcurrent()
        return stepper

    def rest(self) -> None:
        """Go back among this thread's idle steppers (a few are kept)."""
        idle = self._idle_ones()
        if len(idle) < 4:
            idle.append(self)

    @classmethod
    def _idle_ones(cls) -> list[_Stepper]:
        """This thread's idle steppers (a greenlet is switched to only in its own thread)."""
        idle: list[_Stepper] = cls._idle.__dict__.setdefault("steppers", [])
        return idle


def _steps() -> None:
    """A stepper's life: make each step it is given (``job``) whole, then hand it back and wait.

    It names itself in no local of this frame (see ``_Stepper``)."""
    while True:
        greenlet.getcurrent().made = _make_step(*_job())
        greenlet.getcurrent().parent.switch(None)  # None: made whole, not paused


def _job() -> tuple[dict[str, Any], Decisions | None, int, Drawer]:
    stepper = greenlet.getcurrent()
    job, stepper.job = stepper.job, None
    return job  # type: ignore[no-any-return]


def _pause(outcomes: list[tuple[int, float]]) -> int:
    """``Drawer.ask``: pause the step for the chance node, and return the outcome given to it."""
    if type(greenlet.getcurrent()) is not _Stepper:  # drawn outside a step (an observation): no node to pause at
        raise ChanceNeeded(outcomes)
    outcome: int = greenlet.getcurrent().parent.switch(outcomes)
    return outcome


def _make_step(params: dict[str, Any], before: Decisions | None, waiting: int, drawer: Drawer) -> Decisions:
    """The step a play waits on made from where it began (``before``; None: setup), drawing from ``drawer``."""
    if before is None:
        made = _spaces(params).new_play(0, bool(params["track"]), drawer)
    else:
        made = _fork(before, drawer)
        made.state.roll_back_to(before.state)  # where it began, not the first deal
        made.apply_action(waiting)
    if not made.state.terminal:
        made.legal_actions()  # the rules that list them may read cards: drawn here too
    return made


def _fork(decisions: Decisions, drawer: Drawer) -> Decisions:
    """A copy of ``decisions`` whose state draws from ``drawer``."""
    copy = decisions.clone()
    state = copy.state
    state.rng = drawer
    for z in state.zones:
        if type(z) is LazyZone:
            z.drawer = drawer
    return copy


def _replayed(params: dict[str, Any], moves: list[int]) -> _Play:
    play = _Play(params).ready()
    for move in moves:
        play.apply(move)
    return play


class RuledslState(pyspiel.State):  # type: ignore[misc]  # pyspiel has no types
    """One play: the rule file's game chosen id by id, each draw of its rules a chance node."""

    def __init__(self, game: RuledslGame) -> None:
        super().__init__(game)
        # OpenSpiel copies a state by deep-copying its attributes: one, the play (see _Play).
        self._play = _Play(game.params)

    @property
    def play(self) -> _Play:
        """The play underneath, setup made."""
        return self._play.ready()

    @property
    def decisions(self) -> Decisions | None:
        """The play underneath, chosen id by id (its ``state`` is ruledsl's GameState); None before setup is made."""
        return self.play.decisions

    def current_player(self) -> int:
        play = self.play
        if play.need is not None:
            return int(pyspiel.PlayerId.CHANCE)
        assert play.decisions is not None
        if play.decisions.state.terminal:
            return int(pyspiel.PlayerId.TERMINAL)
        return play.decisions.state.actor

    def _legal_actions(self, player: int) -> list[int]:
        play = self.play
        if play.need is not None or play.decisions is None or play.decisions.state.actor != player:
            return []
        return play.decisions.legal_actions()

    def legal_actions(self, player: int | None = None) -> list[int]:
        """Return the legal ids, ascending (of ``player``: none unless he is to act).

        What OpenSpiel's own ``legal_actions`` gives, without its five calls from C++ back
        into Python (player, terminal, chance, player again, then the ids): called from
        Python, as IS-MCTS and a training loop do, it was a third of a step. Called from C++,
        OpenSpiel's goes on calling ``_legal_actions``."""
        play = self.play
        if play.need is not None:  # whoever asks, as OpenSpiel's own
            return [o for o, _ in play.need]
        if player is not None and player < 0:
            return []
        assert play.decisions is not None
        state = play.decisions.state
        if state.terminal or (player is not None and player != state.actor):
            return []
        return play.decisions.legal_actions()

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return list(self.play.need or [])

    def _apply_action(self, action: int) -> None:
        self.play.apply(int(action))

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"chance outcome {action}"
        return str(self.get_game().spaces.actions.describe(int(action)))

    def is_terminal(self) -> bool:
        play = self.play
        return play.need is None and play.decisions is not None and play.decisions.state.terminal

    def returns(self) -> list[float]:
        play = self.play
        if play.need is not None or play.decisions is None:
            return [0.0] * self.get_game().num_players()
        return play.decisions.state.returns()

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> RuledslState:
        """Return a state ``player_id`` cannot tell from this one, made from what he knows alone.

        The cards he cannot see are dealt anew from ``probability_sampler`` (a callable giving
        a number in [0, 1); none: Python's ``random``) starting from the copy the engine deals
        from his knowledge alone (``agents.view``'s canonical state), never from where they
        really are: the same sampler gives the same result for any two states he cannot tell
        apart. A shuffle nobody has looked into stays undecided."""
        clone: RuledslState = self.clone()
        play = clone.play
        decisions = play.decisions if play.need is None else play.before
        if decisions is None:  # setup is still being made: nothing is dealt yet
            return clone
        play.drawer.given = []  # the outcomes drawn for the true cards: drawn anew for these
        seed = int(probability_sampler() * 2**31) if callable(probability_sampler) else random.getrandbits(31)
        state = decisions.state
        lazy = {z: cards.hidden for z, cards in enumerate(state.zones) if type(cards) is LazyZone}
        plain = state.clone()
        plain.zones = [list.copy(z) for z in plain.zones]
        plain.rng = seed_state(0)
        resampled = canonical_view(plain, player_id).resample(player_id, random.Random(seed))
        resampled.rng = play.drawer
        for z, hidden in lazy.items():
            resampled.zones[z] = LazyZone(resampled.zones[z], hidden, play.drawer)
        # The others' own moves belong to the true deal: he knows only his own.
        own = [ids if q == player_id else [] for q, ids in enumerate(decisions.own)]
        made = Decisions(decisions.space, resampled, decisions.pending, own)
        if play.need is None:
            play.decisions = made
        else:
            play.before = made
            play._step()
        return clone

    def seeded_state(self, seed: int) -> GameState:
        """ruledsl's state as it stands (after the last step made whole), drawing from ``seed``
        from now on: for the engine's own agents (``ruledsl.agents``), which search by playing
        copies of it. The cards of a shuffle not decided yet lie in an order drawn from the seed."""
        decisions = self.play.decisions if self.play.need is None else self.play.before
        if decisions is None:
            raise ValueError("setup is not made yet: play its chance nodes first")
        state: GameState = seeded(decisions.state, seed)
        return state

    def __str__(self) -> str:
        play = self.play
        if play.need is not None:
            return f"chance node after {play.moves}"
        assert play.decisions is not None
        state = play.decisions.state
        return f"{state.n_actions} actions, phase {state.phase_name()}: {play.moves}"


def _view(decisions: Decisions, seat: int | None) -> dict[str, Any]:
    """``decisions.observation(seat)``, even where showing it draws.

    While a window is open to another, a seat is shown play gone on as if it had passed
    (``GameState.shown_to``), which may deal: then it is worked out on a copy drawing from a
    fixed seed. What he is shown does not hang on the cards so drawn: any that would come into
    his sight leave him the paused view instead, and the others he does not see."""
    try:
        return decisions.observation(seat)
    except ChanceNeeded:
        shown: dict[str, Any] = seeded(decisions.state, 0).observation(seat)
        return shown


class _Observer:
    """OpenSpiel's PyObserver: a seat's observation (or information state) as a tensor and a string.

    A public observer (``public``) shows a spectator's view to every player: the observation
    tensor's layout, its "player" part all zero, and the spectator's observation as text.
    With ``recall`` (the game's parameter, above 0) an information-state tensor holds the
    player's own ids in order, up to that many (``TensorLayout.recalled_entries``), not counted."""

    def __init__(self, spaces: Spaces, perfect_recall: bool, public: bool = False, recall: int = 0) -> None:
        self.spaces = spaces
        self.perfect_recall = perfect_recall
        self.public = public
        self.recall = recall if perfect_recall else 0
        layout = spaces.tensors
        size = layout.information_state_size if perfect_recall else layout.observation_size
        if self.recall:
            size = layout.recalled_size(self.recall)
        self.tensor = np.zeros(size, np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: RuledslState, player: int) -> None:
        decisions = state.play.decisions  # at a chance node: as it stood before the step that draws
        if decisions is None:
            self.tensor.fill(0)
            return
        seat = None if self.public else player
        layout = self.spaces.tensors
        try:  # read from the state he reads, without the texts of his observation
            entries = layout.state_entries(decisions.state, seat)
        except ChanceNeeded:  # showing it draws: as his observation, on a copy (_view)
            entries = layout.observation_entries(_view(decisions, seat))
        if self.recall:
            entries = layout.with_recalled(entries, self._recalled(decisions.own[player], player))
        elif self.perfect_recall:
            entries = layout.with_own(entries, decisions.own[player])
        write_entries(self.tensor, entries)

    def _recalled(self, own: list[int], player: int) -> list[int]:
        if len(own) > self.recall:
            many = "action" if self.recall == 1 else "actions"
            raise ValueError(
                f"recall holds {self.recall} own {many}; P{player} has taken {len(own)}: "
                f"load the game with recall >= {len(own)} (or with max_actions, which bounds it)"
            )
        return own

    def string_from(self, state: RuledslState, player: int) -> str:
        decisions = state.play.decisions
        if decisions is None:
            return "before setup"
        text = json.dumps(_view(decisions, None if self.public else player), sort_keys=True, ensure_ascii=False)
        if self.perfect_recall:
            mine = decisions.own[player]
            text += f" own {mine} pending {list(decisions.pending) if decisions.state.actor == player else []}"
        return text


pyspiel.register_game(_GAME_TYPE, RuledslGame)
