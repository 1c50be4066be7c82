"""Run compiled rules on a game state: legal actions, applying them, turns, windows, auctions, the end.

``GameState`` is OpenSpiel's State: one play of a game, changed in place by
``apply_action``. Everything a player may see comes from ``observation``.
"""

from __future__ import annotations

import collections
import random
import sys
import traceback
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from ruledsl.engine import chance, knowledge, ops, refusal
from ruledsl.engine.limits import MAX_CHAINED_PHASES, STEP_BUDGET
from ruledsl.engine.values import (
    AGAIN,
    GO_TO,
    HIDDEN_CARD,
    NEXT_TURN,
    TERMINAL,
    Action,
    ActionDef,
    GameOver,
    RoundOver,
)
from ruledsl.text.errors import Diagnostic, IllegalActionError, RuleDslError, RuleRuntimeError
from ruledsl.text.render import clipped

if TYPE_CHECKING:
    from ruledsl.game import Game


class GameState:
    """One play of a game: the cards, variables and whose turn it is.

    Engine-owned fields (phase, turn, actor, direction, round) stay apart from the
    game's data (zones, gv/pv/cv variables).
    """

    __slots__ = (
        "game",
        "prog",
        "n",
        "zones",
        "loc",
        "gv",
        "pv",
        "cv",
        "phase",
        "turn",
        "actor",
        "direction",
        "out",
        "finished",
        "rng",
        "_hist",
        "n_actions",
        "terminal",
        "ret",
        "round",
        "auction",
        "windows",
        "pending_phase",
        "face",
        "log",
        "last_args",
        "last_actor",
        "last_shown",
        "last_revealed",
        "truncated",
        "max_actions",
        "known",
        "track",
        "fired",
        # transient, while an action runs:
        "next_kind",
        "next_goto",
        "steps",
        "calls",
        "opened",
        "memo",
        "_legal",
    )

    # ------------------------------------------------------------------ creation

    @classmethod
    def new(cls, game: Game, seed: int, log: bool = False, track: bool = False, count: bool = False) -> GameState:
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
        st.rng = chance.seed_state(seed)
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
        st.truncated = False
        st.max_actions = game.max_actions
        st.known = None
        st.track = track  # keep what each player knows of the cards (for resampling)
        st.fired = [0] * len(prog.events) if count else None  # times each of prog.events ran
        st.next_kind = NEXT_TURN
        st.next_goto = None
        st.steps = 0
        st.calls = 0
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
        c.zones = [z[:] for z in self.zones]
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
        c.rng = self.rng
        c._hist = self._hist  # never changed in place, so a clone shares it
        c.n_actions = self.n_actions
        c.terminal = self.terminal
        c.ret = self.ret
        c.round = self.round
        a = self.auction
        c.auction = None if a is None else [a[0], a[1], a[2][:], a[3]]
        c.windows = None if self.windows is None else [(w, q[:]) for w, q in self.windows]
        c.pending_phase = self.pending_phase
        c.face = None if self.face is None else self.face[:]
        c.log = None
        c.last_args = self.last_args
        c.last_actor = self.last_actor
        c.last_shown = self.last_shown
        c.last_revealed = self.last_revealed
        c.truncated = self.truncated
        c.max_actions = self.max_actions
        c.known = None if self.known is None else [row[:] for row in self.known]
        c.track = self.track
        c.fired = None  # a copy is for search: what it plays out is not the game's
        c.next_kind = NEXT_TURN
        c.next_goto = None
        c.steps = 0
        c.calls = 0
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
                raise self._illegal(self._why_illegal(action))
        self._legal = None
        self._hist = (action, self._hist)
        self.n_actions += 1
        p = self.last_actor = self.actor
        defn = action.defn
        self.next_kind = NEXT_TURN
        self.opened = None
        self.steps = self.calls = 0
        try:
            if defn.owner_kind == "phase":
                defn.apply(self, p, action.key)
                if self.opened is None and self.next_kind != GO_TO:
                    # The usual case, without windows or phases: hand the turn on here.
                    turn = self.turn
                    if self.next_kind == NEXT_TURN or self.out[turn]:
                        turn = (turn + self.direction) % self.n
                        if self.out[turn]:
                            turn = ops.step(self, self.turn, 1)
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
        except RuleDslError:
            raise
        except Exception as exc:
            raise self._rule_failed(exc) from None
        if self.n_actions >= self.max_actions and not self.terminal:
            self.truncated = True
            self._end([0.0] * self.n)

    def observation(self, player: int) -> dict[str, Any]:
        """Return exactly what ``player`` may see, as a JSON-serialisable dict."""
        return _observe(self, player)

    def resample(self, player: int, rng: random.Random) -> GameState:
        """Return a state that looks the same to ``player``, its hidden cards dealt anew.

        Each card he cannot see goes to a place it could be, given what he has seen
        (when the state tracks it: ``new_initial_state(seed, track=True)``); zone sizes,
        his cards and every public card stay. The new state's future randomness is
        drawn from ``rng``.
        """
        return knowledge.resample(self, player, rng)

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
        found = self.actions_reading(text)
        if len(found) == 1:
            return found[0]
        if found:
            raise self._illegal(
                f"'{text}' reads like {len(found)} legal actions now: their labels do not tell them apart"
            )
        reason = refusal.why_illegal(self, text)
        why = "" if reason is None or reason == refusal.NO_REASON else f": {reason}"
        raise self._illegal(f"'{text}' is not a legal action now{why}")

    def actions_reading(self, text: str) -> list[Action]:
        """The legal actions whose label reads ``text`` (see ``action_from_string``): one, unless labels collide."""
        wanted = refusal.normalise(text)
        return [a for a in self.legal_actions() if refusal.normalise(str(a)) == wanted]

    def describe_last(self, viewer: int | None) -> str:
        """Return the last action's label as ``viewer`` saw it when it was played (None: a spectator).

        The text is empty when the viewer did not see the action at all: letting a window
        pass, which only the player offered it knows of.
        """
        if self._hist is None:
            return ""
        action = self._hist[0]
        if viewer is not None and viewer == self.last_actor:
            return str(action)
        if action.defn.is_pass and action.defn.owner_kind == "window":
            return ""
        shown = self.last_shown
        if shown is not None and shown[0] is self._hist:
            return shown[1][self.n if viewer is None else viewer]
        return self._describe_now(action, viewer)

    def _describe_now(self, action: Action, viewer: int | None) -> str:
        """The last action's label with each card as ``viewer`` sees it where it lies now, or was
        shown it by the action ('reveal')."""
        defn = action.defn
        if not defn.label_is_static:
            return action.public if action.public is not None else defn.name.replace("_", " ")
        revealed = self.last_revealed
        shown = revealed[1] if revealed is not None and revealed[0] is self._hist else frozenset()

        def seen(c: int) -> bool:
            return c in shown or self.sees(viewer, c)

        args = self.last_args
        for i in defn.card_choices:
            if action.key[i] < 0 and not seen(args[i]):
                # Chosen by its place, and still unseen: it reads as to its chooser, unnamed,
                # its attributes none.
                args = (*args[:i], None, *args[i + 1 :])
        return defn.label_args(args, lambda c: self.prog.card_names[c] if c is not None and seen(c) else HIDDEN_CARD)

    def take_log(self) -> list[str]:
        """Return and clear the lines rules wrote with 'say' (when the state keeps a log)."""
        if self.log is None:
            return []
        lines, self.log = self.log, []
        return lines

    # ------------------------------------------------------------------ what players see

    def zone_visible(self, viewer: int | None, z: int) -> bool:
        """Whether ``viewer`` sees the cards of zone instance ``z`` (None: a spectator)."""
        vis = self.prog.zones[self.prog.zone_family[z]].visibility
        if vis == "public":
            return True
        if vis == "owner":
            return viewer is not None and self.prog.zone_owner[z] == viewer
        return False

    def sees(self, viewer: int | None, c: int) -> bool:
        """Whether ``viewer`` sees which card ``c`` is, where it lies now."""
        z = self.loc[c]
        if self.face is not None:
            face = self.face[c]
            if face is True:
                return True
            if face is False:
                vis = self.prog.zones[self.prog.zone_family[z]].visibility
                return vis == "owner" and viewer is not None and self.prog.zone_owner[z] == viewer
        return self.zone_visible(viewer, z)

    def all_visible(self, viewer: int | None, cards: Iterable[int]) -> bool:
        """Whether ``viewer`` sees every one of ``cards`` (as ``sees``; a zone asked about once in a row)."""
        face, loc = self.face, self.loc
        last_zone, seen = -1, True
        for c in cards:
            if face is not None and face[c] is not None:
                if not (face[c] or self.sees(viewer, c)):
                    return False
                continue
            z = loc[c]
            if z != last_zone:
                last_zone, seen = z, self.zone_visible(viewer, z)
            if not seen:
                return False
        return True

    def show_card(self, viewer: int | None, c: int | None) -> str:
        if c is None:
            return "none"
        return self.prog.card_names[c] if self.sees(viewer, c) else HIDDEN_CARD

    # ------------------------------------------------------------------ called by compiled rules

    def set_faces(self, cards: Iterable[int], face: bool | None) -> None:
        if self.face is not None:
            cards = list(cards)
            for c in cards:
                self.face[c] = face
            if self.known is not None:
                knowledge.refresh(self, cards)

    def reveal(self, cards: Iterable[int]) -> None:
        cards = list(cards)
        last = self.last_revealed
        before = last[1] if last is not None and last[0] is self._hist else frozenset()
        self.last_revealed = (self._hist, before | frozenset(cards))
        if self.known is not None:
            knowledge.revealed(self, cards)
        if self.log is not None and cards:
            self.log.append("revealed: " + " ".join(self.prog.card_names[c] for c in cards))

    def open_window(self, window: int, players: list[int]) -> None:
        if self.opened is None:
            self.opened = []
        self.opened.append((window, [q for q in players if not self.out[q]]))

    def over_budget(self) -> None:
        raise self._stopped(
            "R501",
            f"this rule looped more than {self._budget()} times in one action; it would never end",
            "make sure the loop's condition becomes false, or that 'stop' is reached",
        )

    def too_many_calls(self) -> None:
        """R508: definitions and procedures were used more than the step budget allows in one action."""
        raise self._stopped(
            "R508",
            f"definitions and procedures were used more than {self._budget()} times in one action",
            "one that uses another twice doubles the work at each level: name a value once with 'let', "
            "or work it out in fewer steps",
        )

    def hidden_group(self, player: int) -> None:
        """R509: a choice of several cards would offer, and so name, cards its chooser cannot see."""
        raise self._stopped(
            "R509",
            f"this choice of cards would offer P{player} groups of cards he cannot see, naming them",
            "offer only cards he sees (a condition can keep the action for when they are), or let him "
            "choose unseen cards one at a time ('c: card from ...': by their place)",
        )

    def too_many_choices(self, groups: bool = False) -> None:
        """R507: a choice offers more actions than the step budget (``groups``: of cards, else of numbers)."""
        if groups:
            hint = "choose a set number of cards ('2 cards from hand'), or from fewer: nobody can choose among so many"
        else:
            hint = "narrow the range of its numbers: nobody can choose among so many"
        raise self._stopped(
            "R507", f"with this choice there are more than {self._budget()} actions to choose from", hint
        )

    def _stopped(self, code: str, message: str, hint: str) -> RuleRuntimeError:
        """The error of a limit met by the rule of the compiled line that called the caller."""
        frame = sys._getframe(2)
        span = self.prog.span_of_line(frame.f_lineno) if frame.f_code.co_filename == self.prog.filename else None
        return RuleRuntimeError([Diagnostic(code, message, span, hint, source=self.game.source)])

    @staticmethod
    def _budget() -> str:
        return f"{STEP_BUDGET:,}"

    # ------------------------------------------------------------------ turns

    def bid_still_covered(self) -> bool:
        """Whether the standing bid of an auction is still one its bidder could make.

        A bid is checked against its bidder's hidden cards when it is made; a state whose
        hidden cards were dealt anew must keep it possible (he may have to pay it).
        """
        auction = self.auction
        if (
            auction is None
            or auction[3] is None
            or self.windows is not None
            or not self.prog.phases[self.phase].is_auction
        ):
            return True
        probe = self.clone()
        probe.auction = [None, None, auction[2][:], None]
        probe.actor = auction[1]
        probe._legal = None
        return auction[3] in probe._compute_legal()

    def has_legal_action(self) -> bool:
        """Whether the player to act has a legal action: ``bool(legal_actions())``, found without
        listing them all (the listing stops at the first)."""
        if self.terminal:
            return False
        if self._legal is not None:
            return bool(self._legal)
        if self.windows is not None:
            return True  # letting a window pass is always legal
        phase = self.prog.phases[self.phase]
        if phase.is_auction and phase.pass_def is not None:
            return True
        prog = self.prog
        self.steps = self.calls = 0  # as _compute_legal lists them
        if prog.uses_memo:
            self.memo = {}
        try:
            return _offers(self, phase.legal, self.actor)
        except RuleDslError:
            raise
        except Exception as exc:
            raise self._rule_failed(exc) from None
        finally:
            if prog.uses_memo:
                self.memo = None

    def _compute_legal(self) -> list[Action]:
        if self.terminal:
            return []
        out: list[Action] = []
        prog = self.prog
        self.steps = self.calls = 0  # the numbers chosen from count against it
        # While the actions are listed the state cannot change: definitions are memoised.
        if prog.uses_memo:
            self.memo = {}
        try:
            if self.windows is None:
                phase = prog.phases[self.phase]
                phase.legal(self, self.actor, out)
                if phase.is_auction and phase.pass_def is not None:
                    out.append(_pass_action(phase.pass_def))
            else:
                window = prog.windows[self.windows[0][0]]
                window.legal(self, self.actor, out)
                out.append(_pass_action(window.pass_def))
        except RuleDslError:
            raise
        except Exception as exc:
            raise self._rule_failed(exc) from None
        finally:
            if prog.uses_memo:
                self.memo = None
        return out

    def _apply_special(self, defn: ActionDef, p: int, action: Action) -> None:
        """Apply an action of a window or an auction."""
        self.next_goto = None
        if defn.owner_kind == "window":
            if defn.is_pass:
                defn.apply(self, p, action.key)
                self._window_pass()
                return
            # Whoever acts in a window takes the turn: play goes on from him.
            self.windows = None
            self.pending_phase = None
            self.turn = p
            defn.apply(self, p, action.key)
            self._resolve()
            return
        self._bid(defn, p, action)

    def _resolve(self) -> None:
        """Hand the turn on as the rules asked, then open any window."""
        kind = self.next_kind
        target = None
        if kind == GO_TO:
            target, player, _where = self.next_goto
            if player is not None:
                self.turn = player
        elif kind == AGAIN:
            if self.out[self.turn]:
                self.turn = ops.step(self, self.turn, 1)
        else:
            self.turn = ops.step(self, self.turn, 1)
        opened, self.opened = self.opened, None
        if opened:
            self.windows = opened
            self.pending_phase = target
            if self._next_window_actor():
                return
        self._continue(target)

    def _continue(self, target: int | None) -> None:
        for _ in range(MAX_CHAINED_PHASES):
            if target is None:
                break
            target = self._enter(target)
        else:
            where = self.next_goto[2] if self.next_goto is not None else None  # the last 'go to' taken
            raise RuleRuntimeError(
                [
                    Diagnostic(
                        "R502",
                        "phases keep handing on to each other without any player acting",
                        where,
                        "let one 'go to' of the cycle depend on a condition that changes, or move it into an action",
                        source=self.game.source,
                    )
                ]
            )
        self.windows = None
        self.actor = self.turn

    def _enter(self, phase_index: int) -> int | None:
        """Enter a phase (its 'on enter' rules run); return the next phase if they go on."""
        self.phase = phase_index
        phase = self.prog.phases[phase_index]
        if self.out[self.turn]:
            self.turn = ops.step(self, self.turn, 1)
        if phase.is_auction:
            self.auction = [None, None, list(self.out), None]
        if phase.enter is None:
            return None
        self.next_kind = NEXT_TURN
        self.next_goto = None
        phase.enter(self, self.turn)
        if self.next_kind == GO_TO:
            target, player, _where = self.next_goto
            if player is not None:
                self.turn = player
            return target
        return None

    # ------------------------------------------------------------------ windows

    def _next_window_actor(self) -> bool:
        """Find the first player of the open windows who has something to do; False if none."""
        windows = self.windows
        while windows:
            window_index, queue = windows[0]
            window = self.prog.windows[window_index]
            while queue:
                q = queue[0]
                self.memo = {}
                try:
                    offered = _offers(self, window.legal, q)
                finally:
                    self.memo = None
                if offered:
                    self.actor = q
                    return True
                queue.pop(0)
            windows.pop(0)
        self.windows = None
        return False

    def _window_pass(self) -> None:
        assert self.windows is not None
        self.windows[0][1].pop(0)
        if self._next_window_actor():
            return
        target, self.pending_phase = self.pending_phase, None
        self._continue(target)

    # ------------------------------------------------------------------ auctions

    def _bid(self, defn: ActionDef, p: int, action: Action) -> None:
        auction = self.auction
        assert auction is not None
        if defn.is_pass:
            auction[2][p] = True
            defn.apply(self, p, action.key)
        else:
            assert defn.strength is not None
            auction[0] = defn.strength(self, p, action.key)
            auction[1] = p
            auction[3] = action  # the standing bid, re-checked when hidden cards are resampled
            defn.apply(self, p, action.key)
        active = [q for q in range(self.n) if not auction[2][q]]
        phase = self.prog.phases[self.phase]
        if auction[1] is not None and active == [auction[1]]:
            winner = auction[1]
            self.next_kind = NEXT_TURN
            self.next_goto = None
            self.turn = winner
            if phase.won is not None:
                phase.won(self, winner, winner)
            self._resolve()
        elif auction[1] is None and not active:
            self.next_kind = NEXT_TURN
            self.next_goto = None
            if phase.unsold is not None:
                phase.unsold(self, self.turn)
            self._resolve()
        else:
            q = p
            for _ in range(self.n):
                q = (q + self.direction) % self.n
                if not auction[2][q]:
                    break
            self.turn = self.actor = q

    # ------------------------------------------------------------------ rounds and the end

    def _start_round(self) -> None:
        self.steps = self.calls = 0
        self.next_kind = NEXT_TURN
        self.next_goto = None
        self.opened = None
        self.turn = 0
        self.windows = None
        try:
            self.prog.setup(self, 0)
            if self.next_kind == GO_TO:
                target, player, _where = self.next_goto
                if player is not None:
                    self.turn = player
            else:
                target = 0
            self.opened = None
            self._continue(target)
            if self.track:
                knowledge.start(self)
        except GameOver as over:
            self._game_over(over)
        except RoundOver:
            self._round_over()

    def _round_over(self) -> None:
        if self._hist is not None:
            # The next round gathers and deals the cards again: fix the last action's text
            # as each player saw it before its cards leave the places it put them.
            action = self._hist[0]
            viewers: list[int | None] = [*range(self.n), None]
            self.last_shown = (self._hist, [self._describe_now(action, v) for v in viewers])
        if self.prog.round_end is None:
            self._game_over(GameOver())
            return
        self.next_kind = NEXT_TURN
        self.next_goto = None
        try:
            self.prog.round_end(self, self.turn)
        except GameOver as over:
            self._game_over(over)
            return
        self.round += 1
        self._start_round()

    def _game_over(self, over: GameOver) -> None:
        if over.draw:
            self._end([0.0] * self.n)
        elif over.winner is not None:
            self._end([1.0 if q == over.winner else -1.0 for q in range(self.n)])
        elif over.winners:
            # Each winner gets the whole win, as a lone winner does: partners score alike.
            self._end([1.0 if q in over.winners else -1.0 for q in range(self.n)])
        else:
            self._end(self._ranked_returns())

    def _end(self, returns: list[float]) -> None:
        self.terminal = True
        self.ret = returns
        self.windows = None
        self._legal = None

    def ranking(self) -> list[list[int]]:
        """Return the players by rank, best first; tied players share a group."""
        prog = self.prog
        if prog.ranking == "finishing" or (prog.ranking == "none" and self.finished):
            order = list(self.finished)
            rest = [q for q in range(self.n) if q not in order]
            groups = [[q] for q in order]
            if rest:
                groups.append(rest)
            return groups
        if prog.ranking == "keys" and prog.rank_key is not None:
            return self._grouped(prog.rank_key)
        return [list(range(self.n))]

    def standings(self) -> list[list[int]] | None:
        """Return how the players stand now, best first (tied players grouped), by the game's
        'standing:'; None for a game that declares none."""
        key = self.prog.standing_key
        if key is None:
            return None
        return self._grouped(key)

    def _grouped(self, key: Any) -> list[list[int]]:
        """Players sorted by ``key(state, player)``, best (smallest) first, equal keys grouped."""
        self.calls = 0  # asked for at any time (standings), not only while an action runs
        keys = {q: key(self, q) for q in range(self.n)}
        groups: list[list[int]] = []
        for q in sorted(range(self.n), key=lambda q: keys[q]):
            if groups and keys[groups[-1][0]] == keys[q]:
                groups[-1].append(q)
            else:
                groups.append([q])
        return groups

    def _ranked_returns(self) -> list[float]:
        """Returns from the ranking: +1 first to -1 last, tied players averaging their places."""
        return ops.place_values(self.ranking(), self.n)

    # ------------------------------------------------------------------ errors

    def _run(self, fn: Any, *args: Any) -> Any:
        """Call into compiled rules; turn a failure inside them into a RuleRuntimeError."""
        try:
            return fn(*args)
        except RuleDslError:
            raise
        except Exception as exc:
            raise self._rule_failed(exc) from None

    def _rule_failed(self, exc: Exception) -> Exception:
        """Return the RuleRuntimeError for a failure inside compiled rules (or ``exc`` itself,
        a fault of ruledsl, when no rule of the file was running)."""
        spans = [
            span
            for frame, line in traceback.walk_tb(exc.__traceback__)
            if frame.f_code.co_filename == self.prog.filename and (span := self.prog.span_of_line(line)) is not None
        ]
        if isinstance(exc, RecursionError):
            # The rules that set each other off fill the stack: the most frequent there, the
            # first of them reached when tied (max keeps the first), is a rule of the cycle.
            counts = collections.Counter(spans)
            span = max(counts, key=counts.__getitem__) if counts else None
            if counts and counts[span] == 1:
                # No rule twice on the stack: no cycle, but a chain of rules too long to run.
                message = f"the rules nested too deeply while running: at least {len(spans):,} rules inside one another"
                hint = (
                    "each rule here runs the next, none of them twice, deeper than ruledsl can follow; "
                    "make the chain shorter (a procedure may do the work of several)"
                )
            else:
                message = "the rules nested too deeply while running"
                hint = "rules here set each other off without end; one of them must stop doing so"
            return RuleRuntimeError([Diagnostic("R503", message, span, hint, source=self.game.source)])
        span = spans[-1] if spans else None
        if span is None:
            return exc
        return RuleRuntimeError(
            [Diagnostic("R504", _runtime_message(exc), span, _runtime_hint(exc), source=self.game.source)]
        )

    def _illegal(self, reason: str) -> IllegalActionError:
        """The error for an action that is not legal, at the phase or window being played."""
        span = None
        if not self.terminal:
            symbols = self.game.checked.symbols
            if self.windows is not None:
                span = symbols.windows[self.prog.windows[self.windows[0][0]].name].decl.span
            else:
                span = symbols.phases[self.prog.phases[self.phase].name].decl.span
        hint = "choose one of the legal actions (legal_actions() lists them)"
        return IllegalActionError(reason, [Diagnostic("R505", reason, span, hint, source=self.game.source)])

    def why_illegal(self, move: Action | str, player: int | None = None) -> str | None:
        """Return why ``move`` is not legal for ``player`` (default: the player to act) now, in
        words he may read, or None if it is legal. ``move`` is an Action or a move as typed
        (``"play the Author"``). The reason names no card he cannot see, and tells nothing
        that depends on one (see ``ruledsl.engine.refusal``)."""
        return refusal.why_illegal(self, move, player)

    def _why_illegal(self, action: object) -> str:
        if self.terminal:
            return "the game is over"
        if not isinstance(action, Action):
            return f"{action!r} is not an action"
        if action.defn.game is not None and action.defn.game is not self.prog:
            return f"'{action}' is an action of another game"
        reason = refusal.why_illegal(self, action)
        why = f": {reason}" if reason is not None and reason != refusal.NO_REASON else ""
        names = ", ".join(clipped([f"'{a}'" for a in self.legal_actions()], 8))
        return f"'{action}' is not legal now{why}; P{self.actor} may: {names}"


def _copy(value: Any) -> Any:
    return value[:] if type(value) is list else value


class _Found(Exception):
    """A legal function found an action, where one is enough to know (see ``_offers``)."""


class _FirstAction(list):  # type: ignore[type-arg]
    """The list a legal function puts its actions in when only whether there is one matters:
    the first appended stops it (a list still, for the length 'otherwise' actions test)."""

    __slots__ = ()

    def append(self, action: Action) -> None:
        raise _Found


def _offers(st: GameState, legal: Any, q: int) -> bool:
    """Whether the compiled legal function ``legal`` offers ``q`` an action (a window's pass aside),
    found without listing them all: the groups of cards still to build are never built."""
    try:
        legal(st, q, _FirstAction())
    except _Found:
        return True
    return False


def _pass_action(defn: ActionDef) -> Action:
    prog_intern = defn.game.intern if defn.game is not None else None
    key = (defn.index, ())
    if prog_intern is not None:
        a = prog_intern.get(key)
        if a is None:
            a = prog_intern[key] = Action(defn, ())
        return a
    return Action(defn, ())


def _runtime_message(exc: Exception) -> str:
    if isinstance(exc, ZeroDivisionError):
        return "division by zero"
    if isinstance(exc, TypeError) and "NoneType" in str(exc):
        return "a value was needed here, but there was none (an empty zone's top card, or an unset variable)"
    if isinstance(exc, IndexError):
        return str(exc) if "seat" in str(exc) else "a card or player was asked for that is not there"
    if isinstance(exc, (ops.RangeTooLong, ops.RuleFailed)):
        return str(exc)
    if isinstance(exc, OverflowError):
        return "a number too large to work with (such as the length of a huge range)"
    if isinstance(exc, LookupError):
        return "a chosen card is no longer where it was"
    return f"this rule failed: {exc}"


def _runtime_hint(exc: Exception) -> str | None:
    if isinstance(exc, TypeError) and "NoneType" in str(exc):
        return "guard it with a test such as 'if deck is not empty:' or '!= none'"
    if isinstance(exc, ops.RuleFailed):
        return exc.hint
    if isinstance(exc, ops.RangeTooLong):
        return "narrow the range: a rule goes through each of its numbers, and may not go through so many"
    return None


def _observe(st: GameState, player: int) -> dict[str, Any]:
    prog = st.prog
    names = prog.card_names
    zones: dict[str, Any] = {}
    for layout in prog.zones:

        def view(z: int) -> dict[str, Any]:
            cards = st.zones[z]
            entry: dict[str, Any] = {"size": len(cards)}
            if st.face is None:
                if st.zone_visible(player, z):
                    entry["cards"] = [names[c] for c in cards]
            else:
                shown = [names[c] if st.sees(player, c) else None for c in cards]
                if any(s is not None for s in shown):
                    entry["cards"] = shown
            return entry

        if layout.per_player:
            zones[layout.name] = [view(layout.base + q) for q in range(st.n)]
        else:
            zones[layout.name] = view(layout.base)
    game_vars = {v.name: v.show(st, player, st.gv[i]) for i, v in enumerate(prog.game_vars) if v.visibility == "public"}
    player_vars = {}
    for i, v in enumerate(prog.player_vars):
        if v.visibility == "hidden":
            continue
        player_vars[v.name] = [
            v.show(st, player, st.pv[i][q]) if (v.visibility == "public" or q == player) else None for q in range(st.n)
        ]
    card_vars: dict[str, list[Any]] = {}
    for i, v in enumerate(prog.card_vars):
        default = prog.card_var_init[i]
        shown = [
            [names[c], v.show(st, player, value)]
            for c, value in enumerate(st.cv[i])
            if value != default and st.sees(player, c)
        ]
        if shown:
            card_vars[v.name] = shown
    auction = None
    if st.auction is not None and prog.phases[st.phase].is_auction and not st.terminal:
        standing = st.auction[3]
        auction = {
            "standing": None if standing is None else str(standing),
            "bidder": st.auction[1],
            "passed": list(st.auction[2]),
        }
    window = None
    current = st.current_player()
    if st.windows is not None and not st.terminal:
        if player == st.actor:
            window = {"name": prog.windows[st.windows[0][0]].name, "player": st.actor}
        else:
            # Only a player offered a window knows it (being offered one tells what he
            # holds): the others see the turn about to go on.
            current = st.turn
    obs: dict[str, Any] = {
        "game": prog.name,
        "player": player,
        "players": st.n,
        "current_player": current,
        "phase": prog.phases[st.phase].name,
        "round": st.round,
        "direction": "clockwise" if st.direction == 1 else "counterclockwise",
        "zones": zones,
        "variables": game_vars,
        "player_variables": player_vars,
        "card_variables": card_vars,
        # Bookkeeping the rules mark 'unlisted': known to the player, but not worth a line of his view.
        "unlisted": [v.name for v in (*prog.game_vars, *prog.player_vars) if v.unlisted],
        "out": list(st.out),
        "finished": list(st.finished),
        "auction": auction,
        "window": window,
        "terminal": st.terminal,
        "returns": st.returns() if st.terminal else None,
    }
    if not st.terminal and st.actor == player:
        obs["legal_actions"] = [str(a) for a in st.legal_actions()]
    return obs
