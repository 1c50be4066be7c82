"""The game state and its public API: start a play, copy it, list and apply legal actions.

``GameState`` is OpenSpiel's State: one play of a game, changed in place by
``apply_action``. Its other jobs are mixins, one module each, so that a method call costs
no more than it would on one class: ``turns`` (phases, windows, auctions and rounds after
an action), ``observer`` (what each player sees; everything a player may see comes from
``observation``) and ``failures`` (errors placed at the rule they come from).
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from ruledsl.engine import chance, knowledge, ops, stepping
from ruledsl.engine.failures import FAILED_RULE, RULE_ERRORS, Failures
from ruledsl.engine.fields import Face, StateFields
from ruledsl.engine.limits import MAX_MOVE_TEXT, MAX_OFFERED
from ruledsl.engine.observer import Observer
from ruledsl.engine.reading import NO_REASON, normalise
from ruledsl.engine.together import Together, rechoose_at_random
from ruledsl.engine.turns import TurnMachine, offers, pass_action
from ruledsl.engine.values import GO_TO, NEXT_TURN, TERMINAL, Action, GameOver, RoundOver, Said, said_to
from ruledsl.text.errors import RuleRuntimeError
from ruledsl.text.render import clip, clipped

if TYPE_CHECKING:
    from ruledsl.engine.game import Game


class GameState(TurnMachine, Together, Observer, Failures):
    """One play of a game: the cards, variables and whose turn it is.

    Engine-owned fields (phase, turn, actor, direction, round) stay apart from the
    game's data (zones, gv/pv/cv variables).
    """

    __slots__ = ()  # the fields are StateFields'

    # ------------------------------------------------------------------ creation

    @classmethod
    def new(
        cls,
        game: Game,
        seed: int,
        log: bool = False,
        track: bool = False,
        count: bool = False,
        drawer: chance.Drawer | None = None,
    ) -> GameState:
        prog = game.program
        st = cls.__new__(cls)
        st.game = game
        st.prog = prog
        st.n = prog.players
        st.zones = [[] for _ in prog.zone_family]
        # Every card starts in the first zone declared, in deck order (bottom to top).
        st.zones[0] = list(range(prog.n_cards))
        st.loc = [0] * prog.n_cards
        st.gv = [_copy(v) for v in prog.game_var_init]
        st.pv = [[_copy(v) for _ in range(prog.players)] for v in prog.player_var_init]
        st.cv = [[_copy(v) for _ in range(prog.n_cards)] for v in prog.card_var_init]
        st.phase = 0
        st.turn = 0
        st.actor = 0
        st.direction = 1
        st.out = [False] * prog.players
        st.finished = []
        st.round_out = []
        st.rng = chance.seed_state(seed) if drawer is None else drawer
        st._hist = None  # the actions so far, newest first: (action, older) pairs, shared by clones
        st.n_actions = 0
        st.terminal = False
        st.ret = None
        st.round = 1
        st.auction = None
        st.windows = None
        st.pending_phase = None
        st.face = [None] * prog.n_cards if prog.uses_faces else None
        st.log = [] if log else None
        st.last_args = ()
        st.last_actor = None
        st.last_shown = None  # see _round_over
        st.last_revealed = None  # (the history then, the cards) revealed by the last action
        st.last_before = None
        st.truncated = False
        st.max_actions = game.max_actions
        st.known = None
        st.seen = None
        st.track = track  # keep what each player knows of the cards (for resampling)
        st.fired = [0] * len(prog.events) if count else None  # times each of prog.events ran
        st.origin = (seed, 0)
        st.held = None
        st.picking = None
        st.next_kind = NEXT_TURN
        st.next_goto = None
        st.steps = 0
        st.calls = 0
        st.work = 0
        st.opened = None
        st.memo = None
        st._legal = None
        st._run(st._start_round)
        return st

    def clone(self) -> GameState:
        """Return an independent copy: applying actions to one never changes the other."""
        c = GameState.__new__(GameState)
        c.game = self.game
        c.prog = self.prog
        c.n = self.n
        rng = c.rng = self.rng
        if type(rng) is int:
            c.zones = [z[:] for z in self.zones]
        else:  # outcomes given from outside: a zone whose order is not decided yet stays so
            c.zones = [chance.copy_zone(z, rng) for z in self.zones]
        c.loc = self.loc[:]
        c.gv = [v[:] if type(v) is list else v for v in self.gv]
        c.pv = [[v[:] if type(v) is list else v for v in row] for row in self.pv]
        c.cv = [row[:] for row in self.cv]
        c.phase = self.phase
        c.turn = self.turn
        c.actor = self.actor
        c.direction = self.direction
        c.out = self.out[:]
        c.finished = self.finished[:]
        c.round_out = self.round_out[:]
        c._hist = self._hist  # never changed in place, so a clone shares it
        c.n_actions = self.n_actions
        c.terminal = self.terminal
        c.ret = self.ret
        c.round = self.round
        a = self.auction
        c.auction = None if a is None else [a[0], a[1], a[2][:], a[3], a[4]]
        c.windows = None if self.windows is None else [(w, q[:]) for w, q in self.windows]
        c.pending_phase = self.pending_phase
        c.face = None if self.face is None else self.face[:]
        c.log = None if self.log is None else self.log[:]
        c.last_args = self.last_args
        c.last_actor = self.last_actor
        c.last_shown = self.last_shown
        c.last_revealed = self.last_revealed
        c.last_before = self.last_before  # never changed in place: shared
        c.truncated = self.truncated
        c.max_actions = self.max_actions
        c.known = None if self.known is None else [row[:] for row in self.known]
        c.seen = self.seen  # never changed in place: shared
        c.track = self.track
        c.fired = None  # a copy is for search: what it plays out is not the game's
        c.origin = self.origin
        c.held = None if self.held is None else [self.held[0][:], self.held[1][:]]
        c.picking = self.picking  # never changed in place: shared
        c.next_kind = NEXT_TURN
        c.next_goto = None
        c.steps = 0
        c.calls = 0
        c.work = 0
        c.opened = None
        c.memo = None
        c._legal = self._legal  # never changed in place: legal_actions hands out copies
        return c

    # ------------------------------------------------------------------ OpenSpiel's API

    def current_player(self) -> int:
        """Return the seat that must act, or TERMINAL (-4) once the game is over."""
        return TERMINAL if self.terminal else self.actor

    def is_terminal(self) -> bool:
        return self.terminal

    def returns(self) -> list[float]:
        """Return each player's result: all zero until the game is over."""
        return list(self.ret) if self.ret is not None else [0.0] * self.n

    def history(self) -> list[Action]:
        """Return the actions applied so far."""
        out = []
        node = self._hist
        while node is not None:
            out.append(node[0])
            node = node[1]
        out.reverse()
        return out

    def history_seen_by(self, seat: int) -> list[Action]:
        """Return the actions so far as ``seat`` saw them, each labelled as he was shown it.

        His own actions are the actions themselves; another's is an action of the same rule
        whose label is the one he saw ("give back two hidden cards") and whose choices are
        not kept; one he did not see (a window let pass by another) is left out. A state
        that tracks knowledge (``track=True``) keeps the labels as they were shown; any other
        gives each action of another, and every window let pass, by its rule's name alone.
        """
        hist = self.history()
        if self.seen is not None or not hist:
            shown = []
            node = self.seen
            while node is not None:
                shown.append(node)
                node = node[2]
            shown.reverse()
            if len(shown) == len(hist):
                out = []
                for action, (actor, labels, _older) in zip(hist, shown, strict=True):
                    if actor == seat:
                        out.append(action)
                    elif labels[seat]:
                        out.append(Action(action.defn, (), label=labels[seat]))
                return out
        return [
            Action(a.defn, (), label=a.defn.name.replace("_", " "))
            for a in hist
            if not (a.defn.is_pass and a.defn.owner_kind == "window")
        ]

    @property
    def hist(self) -> list[Action]:
        """The actions applied so far (a new list: see history())."""
        return self.history()

    def legal_actions(self) -> list[Action]:
        """Return the actions the current player may take, in a stable order."""
        legal = self._legal
        if legal is None:
            legal = self._legal = self._compute_legal()
        return legal[:]

    def apply_action(self, action: Action) -> None:
        """Apply a legal action; raise IllegalActionError, with the reason, for any other."""
        legal = self._legal
        if legal is None:
            legal = self._legal = self._compute_legal()
        for a in legal:
            if a is action:
                break
        else:
            # An equal action from elsewhere (a clone, a replay) stands for the listed one.
            for a in legal:
                if a == action:
                    action = a
                    break
            else:
                if not self.accepts_whole(action):
                    raise self._illegal(self._why_illegal(action))
                self.picking = None  # a whole set typed while it was being picked replaces the picks
        if action.defn.owner_kind == "step":
            # A step of a set chosen card by card: the state's half-made set changes, nothing else
            # (no history, no count of actions); ``done`` applies the whole action.
            self._legal = None
            whole = stepping.take_step(self, action)
            if whole is not None:
                self.apply_action(whole)
            return
        # An action applies whole or not at all: if a rule fails, the state goes back to where
        # it was (see _roll_back), then the error is raised. Nothing is copied on the way in.
        logged = 0  # the lines of the log before the action
        try:
            self._legal = None
            self._hist = (action, self._hist)
            if self.log is not None:
                logged = len(self.log)
                # For the transcript: a card all saw where it lay stays named after it goes out of sight.
                self.last_before = (self._hist, self.loc[:], None if self.face is None else self.face[:])
            self.n_actions += 1
            p = self.last_actor = self.actor
            defn = action.defn
            self.next_kind = NEXT_TURN
            self.opened = None
            self.steps = self.calls = self.work = 0
            try:
                if defn.is_held:
                    self._hold(p, action)
                elif defn.owner_kind == "phase":
                    defn.apply(self, p, action.key)
                    if self.opened is None and self.next_kind != GO_TO:
                        # The usual case, without windows or phases: hand the turn on here.
                        turn = self.turn
                        if self.next_kind == NEXT_TURN or self.out[turn]:
                            turn = (turn + self.direction) % self.n
                            if self.out[turn]:
                                turn = ops.next_to_act(self, self.turn)
                            self.turn = turn
                        self.actor = turn
                    else:
                        self._resolve()
                else:
                    self._apply_special(defn, p, action)
            except GameOver as over:
                self._run(self._game_over, over)
            except RoundOver:
                # The round end rules and the next round's setup run here, outside the try above.
                self._run(self._round_over)
            except RULE_ERRORS as exc:
                raise self._rule_failed(exc) from None
            if self.n_actions >= self.max_actions and not self.terminal:
                self.truncated = True
                self._end([0.0] * self.n)
        except BaseException as exc:
            # A rule's failure, or the caller's own exception cutting the action short (his
            # alarm, KeyboardInterrupt): either way the action is undone, then the error raised.
            self._roll_back(logged)
            if isinstance(exc, RuleRuntimeError):
                exc.action = action
            raise
        if self.known is not None:
            self.seen = (p, tuple(self.describe_last(q) for q in range(self.n)), self.seen)

    def accepts_whole(self, action: Action) -> bool:
        """Whether an action not listed is a set of cards offered card by card now, and legal whole
        (a record, a move typed whole): checked directly, without listing every set."""
        if self.terminal or not isinstance(action, Action) or action.defn.stepped is None:
            return False
        if self.prog.uses_memo:
            self.memo = {}
        self.steps = self.calls = self.work = 0
        try:
            return stepping.accepts_whole(self, action)
        except RULE_ERRORS as exc:
            raise self._rule_failed(exc) from None
        finally:
            self.memo = None

    def rebase(self) -> None:
        """Make the state as it is now the place a failed action rolls back from.

        A failed action is undone by playing the actions before it again, from the seed
        (``new_initial_state``) or from the last ``rebase``: code that changes a state other
        than by ``apply_action`` (a resample, a scenario) calls this once it is done.
        """
        snapshot = self.clone()
        snapshot.log = None
        snapshot.fired = None if self.fired is None else self.fired[:]
        # The copy rolls back to itself: it must not lead to an older origin (a resample's to the
        # true deal).
        snapshot.origin = self.origin = (snapshot, None)

    def roll_back_to(self, start: GameState) -> None:
        """Make ``start``, the state this one was copied from before its last action, the place a
        failed action rolls back to (a step made on a copy: ``ruledsl.openspiel``)."""
        self.origin = (start, None)

    def _roll_back(self, logged: int) -> None:
        """Put the state back as it was before the action that just failed (the newest in its history).

        Nothing is copied before an action (that would slow every action down): the actions
        before it are played again from ``origin``, which the same rules, seed and actions
        make the same state, byte for byte. A log keeps the lines it had before the action.
        """
        actions = self.history()[:-1]
        origin = start, played = self.origin
        if played is None:  # all of the start's own actions (counted only now: a roll back is rare)
            played = len(start.history())
        keep_log = self.log is not None
        if isinstance(start, GameState):
            base = start.clone()
            base.log = [] if keep_log else None
            base.fired = None if start.fired is None else start.fired[:]
        else:
            base = GameState.new(self.game, start, log=keep_log, track=self.track, count=self.fired is not None)
        base.max_actions = self.max_actions
        for a in actions[played:]:
            base.apply_action(a)
        log = None if self.log is None else self.log[:logged]
        for name in StateFields.__slots__:
            setattr(self, name, getattr(base, name))
        self.log = log
        self.origin = origin

    def resample(self, player: int, rng: random.Random) -> GameState:
        """Return a state that looks the same to ``player``, its hidden cards dealt anew.

        Each card he cannot see goes to a place it could be, given what he has seen
        (when the state tracks it: ``new_initial_state(seed, track=True)``); zone sizes,
        his cards and every public card stay. The new state's future randomness is
        drawn from ``rng``.
        """
        copy = knowledge.resample(self, player, rng)
        if copy.held is not None:
            # The others' choices held in a phase played together are theirs to know: made again.
            rechoose_at_random(copy, player, rng)
            copy.rebase()
        return copy

    # ------------------------------------------------------------------ more of the API

    @property
    def num_players(self) -> int:
        return self.n

    def phase_name(self) -> str:
        return self.prog.phases[self.phase].name

    def action_from_string(self, text: str) -> Action:
        """Return the legal action whose label reads ``text`` (as the ``play`` prompt reads it: case,
        spaces, commas and brackets ignored, ``s h d c`` for ``♠♥♦♣``).

        Text that two legal actions read alike names neither: IllegalActionError, as for text
        that names none (choose from ``legal_actions()`` by position instead).
        """
        if len(text) > MAX_MOVE_TEXT:
            raise self._illegal(_too_long(text))
        found = self.actions_reading(text)
        if len(found) == 1:
            return found[0]
        if found:
            raise self._illegal(
                f"'{clip(text, 80)}' reads like {len(found)} legal actions now: their labels do not tell them apart"
            )
        reason = self.prog.refusals.why_illegal(self, text)
        why = "" if reason is None or reason == NO_REASON else f": {reason}"
        raise self._illegal(f"'{clip(text, 80)}' is not a legal action now{why}")

    def actions_reading(self, text: str) -> list[Action]:
        """The legal actions whose label reads ``text`` (see ``action_from_string``): one, unless labels collide."""
        wanted = normalise(text)
        legal = self.legal_actions()
        found = [a for a in legal if normalise(str(a)) == wanted]
        if not found and (self.picking is not None or any(a.defn.step_role == "begin" for a in legal)):
            # A set of cards offered card by card, typed whole ("discard 7♠ 7♥ 2♣", a record's
            # action): read through the action's label, and checked whole.
            readings = self.prog.refusals.readings(self, text)
            found = [a for d, key in readings if d.stepped is not None and self.accepts_whole(a := Action(d, key))]
        return found

    def take_log(self, viewer: int | None = None) -> list[str]:
        """Return and clear the lines rules wrote with 'say' (when the state keeps a log), as
        ``viewer`` is told them (None: a spectator, who names only cards every seat sees)."""
        return [said_to(line, viewer) for line in self.take_said()]

    def take_said(self) -> list[Said]:
        """Return and clear the lines rules wrote with 'say', each for every reader (``said_to``)."""
        if self.log is None:
            return []
        lines, self.log = self.log, []
        return lines

    # ------------------------------------------------------------------ called by compiled rules

    def set_faces(self, cards: Iterable[int], face: Face) -> None:
        """Lay cards as ``face`` says, where they lie ('turn up', and ``ops.move`` for the cards it moves)."""
        if self.face is not None:
            ops.lay(self, list(cards), face)

    def reveal(self, cards: Iterable[int]) -> None:
        cards = list(cards)
        last = self.last_revealed
        before = last[1] if last is not None and last[0] is self._hist else frozenset()
        self.last_revealed = (self._hist, before | frozenset(cards))
        if self.known is not None:
            knowledge.revealed(self, cards)
        if self.log is not None and cards:
            self.log.append("revealed: " + " ".join(self.prog.card_names[c] for c in cards))

    def show_to(self, cards: Iterable[int], player: int) -> None:
        """'show CARDS to P' (``ops.show_to``)."""
        ops.show_to(self, cards, player)

    def open_window(self, window: int, players: list[int]) -> None:
        if self.opened is None:
            self.opened = []
        self.opened.append((window, [q for q in players if not self.out[q]]))

    # ------------------------------------------------------------------ listing legal actions

    def offer_steps(self, defn: Any, out: list[Action], must: bool = False) -> None:
        """Offer ``defn`` card by card, its sets being too many to list (the compiled listing calls this);
        with ``must``, only if some set meets its 'must if able' conditions."""
        stepping.offer_steps(self, defn, out, must)

    def has_legal_action(self) -> bool:
        """Whether the player to act has a legal action: ``bool(legal_actions())``, found without
        listing them all (the listing stops at the first)."""
        if self.terminal:
            return False
        if self._legal is not None:
            return bool(self._legal)
        if self.picking is not None:
            return True  # a set half made can always be completed: only such picks are offered
        if self.windows is not None:
            return True  # letting a window pass is always legal
        phase = self.prog.phases[self.phase]
        if phase.is_auction and phase.pass_def is not None:
            return True
        prog = self.prog
        self.steps = self.calls = self.work = 0  # as _compute_legal lists them
        if prog.uses_memo:
            self.memo = {}
        try:
            return offers(self, phase.legal, self.actor)
        except RULE_ERRORS as exc:
            raise self._rule_failed(exc) from None
        finally:
            if prog.uses_memo:
                self.memo = None

    def _compute_legal(self) -> list[Action]:
        if self.terminal:
            return []
        out: list[Action] = []
        prog = self.prog
        self.steps = self.calls = self.work = 0  # the numbers chosen from count against it
        # While the actions are listed the state cannot change: definitions are memoised.
        if prog.uses_memo:
            self.memo = {}
        try:
            if self.picking is not None:
                out = stepping.steps_offered(self)
            elif self.windows is None:
                phase = prog.phases[self.phase]
                phase.legal(self, self.actor, out)
                if phase.is_auction and phase.pass_def is not None:
                    out.append(pass_action(phase.pass_def))
            else:
                window = prog.windows[self.windows[0][0]]
                window.legal(self, self.actor, out)
                out.append(pass_action(window.pass_def))
        except RULE_ERRORS as exc:
            raise self._rule_failed(exc) from None
        finally:
            if prog.uses_memo:
                self.memo = None
        if len(out) > MAX_OFFERED:
            raise self.too_many_offered(out[-1].defn)
        return out

    # ------------------------------------------------------------------ refused moves

    def why_illegal(self, move: Action | str, player: int | None = None) -> str | None:
        """Return why ``move`` is not legal for ``player`` (default: the player to act) now, in
        words he may read, or None if it is legal. ``move`` is an Action or a move as typed
        (``"play the Author"``). The reason names no card he cannot see, and tells nothing
        that depends on one (see ``ruledsl.codegen.refusal``)."""
        if isinstance(move, str) and len(move) > MAX_MOVE_TEXT:
            return _too_long(move)
        return self.prog.refusals.why_illegal(self, move, player)

    def _why_illegal(self, action: object) -> str:
        if self.terminal:
            return "the game is over"
        if not isinstance(action, Action):
            return f"{action!r} is not an action"
        if action.defn.game is not None and action.defn.game is not self.prog:
            return f"'{action}' is an action of another game"
        names = ", ".join(clipped([f"'{a}'" for a in self.legal_actions()], 8))
        try:
            shown = str(action)
            reason = self.prog.refusals.why_illegal(self, action)
        except FAILED_RULE:
            # An Action made by hand, whose choices no rule could make (a card that does not
            # exist, a text for a number): no label, no reason can be worked out from them (a
            # label's own error, R504, included: it is about choices nobody could make).
            return f"{action.defn.name}{action.key!r} is no action of this game; P{self.actor} may: {names}"
        why = f": {reason}" if reason is not None and reason != NO_REASON else ""
        return f"'{shown}' is not legal now{why}; P{self.actor} may: {names}"


def _too_long(text: str) -> str:
    """Why a typed move longer than MAX_MOVE_TEXT is refused unread."""
    return f"a move of {len(text):,} characters is longer than any move ({MAX_MOVE_TEXT:,} at most)"


def _copy(value: Any) -> Any:
    return value[:] if type(value) is list else value
