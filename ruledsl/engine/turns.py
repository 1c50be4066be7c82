"""Hand the turn on: phases entered, windows offered, auctions bid, rounds started and the game ended.

``TurnMachine`` is a part of ``GameState`` (a mixin: its methods are the state's own, so a
call costs what it did), holding what happens after an action's rule has run.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ruledsl.engine import knowledge, ops
from ruledsl.engine.failures import RULE_ERRORS
from ruledsl.engine.fields import StateFields
from ruledsl.engine.limits import MAX_CHAINED_PHASES
from ruledsl.engine.values import AGAIN, GO_TO, NEXT_TURN, Action, ActionDef, GameOver, RoundOver
from ruledsl.text.errors import Diagnostic, RuleRuntimeError

if TYPE_CHECKING:
    from ruledsl.engine.state import GameState


class TurnMachine(StateFields):
    """The turn, window, auction and round machine of a GameState (see ``ruledsl.engine.state``)."""

    __slots__ = ()

    if TYPE_CHECKING:
        # GameState's and Observer's own, which a TurnMachine is always a part of.
        def clone(self) -> GameState: ...

        def _describe_now(self, action: Action, viewer: int | None) -> str: ...

        def _run(self, fn: Any, *args: Any) -> Any: ...

        def _rule_failed(self, exc: Exception) -> Exception: ...

        def _start_together(self) -> None: ...

        def sees(self, viewer: int | None, c: int) -> bool: ...

    # ------------------------------------------------------------------ turns

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
            assert self.next_goto is not None  # a 'go to' sets both
            target, player, _where = self.next_goto
            if player is not None:
                self.turn = player
        elif kind == AGAIN:
            if self.out[self.turn]:
                self.turn = ops.next_to_act(self, self.turn)
        else:
            self.turn = ops.next_to_act(self, self.turn)
        opened, self.opened = self.opened, None
        if opened:
            self.windows = opened
            self.pending_phase = target
            if self._next_window_actor():
                return
            # Offered to nobody: a 'when all pass:' that ran may have said where play goes on.
            target, self.pending_phase = self.pending_phase, None
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
        if self.held is None and self.prog.phases[self.phase].together:
            self._start_together()

    def _enter(self, phase_index: int) -> int | None:
        """Enter a phase (its 'on enter' rules run); return the next phase if they go on."""
        self.phase = phase_index
        self.held = None
        phase = self.prog.phases[phase_index]
        if self.out[self.turn]:
            self.turn = ops.next_to_act(self, self.turn)
        # The auction under way: none once play has gone to a phase that is not one.
        self.auction = [None, None, list(self.out), None, 0] if phase.is_auction else None
        if phase.enter is None:
            return None
        self.next_kind = NEXT_TURN
        self.next_goto = None
        phase.enter(self, self.turn)
        if self.next_kind == GO_TO:
            assert self.next_goto is not None  # a 'go to' sets both
            target, player, _where = self.next_goto
            if player is not None:
                self.turn = player
            return target
        if not phase.actions and not phase.is_auction:
            raise RuleRuntimeError(
                [
                    Diagnostic(
                        "R506",
                        f"phase '{phase.name}' has no action, and its 'on enter:' did not hand play on",
                        phase.span,
                        "end every way through its 'on enter:' with 'go to <phase>', 'end round' or 'end game'",
                        source=self.game.source,
                    )
                ]
            )
        return None

    # ------------------------------------------------------------------ windows

    def unoffered(self) -> GameState:
        """Return a copy of the state as it would be had the open windows been offered to nobody.

        A window is offered only to a player who can act in it, so that it is open tells
        what he holds: every other player is shown this copy (his observation, why a move
        is refused), where play has already gone on, each window's 'when all pass:' run.
        (Had the move gone on into a phase whose entry deals cards, they are dealt in the
        copy as they would be then.)
        """
        copy = self.clone()
        if copy.windows is None:
            return copy
        copy._legal = None  # the actions listed are the window's, for the player offered it
        try:
            # Offered to nobody, each open window closes as if all passed: its 'when all pass:' runs.
            for window_index, _queue in copy.windows:
                handler = copy.prog.windows[window_index].all_pass
                if handler is not None:
                    copy._all_passed(handler)
            copy.windows = None
            target, copy.pending_phase = copy.pending_phase, None
            copy._continue(target)
        except GameOver as over:
            copy._run(copy._game_over, over)
        except RoundOver:
            copy._run(copy._round_over)
        except RULE_ERRORS as exc:
            raise copy._rule_failed(exc) from None
        return copy

    def shown_to(self, player: int | None) -> tuple[GameState, bool]:
        """Return the state ``player`` is shown while windows are open to another, and whether it is paused.

        It is ``unoffered()``, play gone on as if nobody had been offered the windows, unless
        going on would show him a card he does not see now (a deal, a card turned up): those
        cards are not dealt yet, and which they will be depends on the windows' outcome and on
        cards he cannot see. He is then shown the state paused: as it stands, the windows
        hidden, the turn player still to move on, no legal actions. A pause tells him that
        the table waits on someone, never on whom nor for what (docs/security.md).
        """
        gone_on = self.unoffered()
        # What a seat sees of a card hangs on where it lies and how it faces: only a card
        # whose place or face going on changed can have come into his sight.
        loc, face, later_face = self.loc, self.face, gone_on.face
        if gone_on.loc == loc and face == later_face:  # most often: the turn moved on, no card
            return gone_on, False
        changed = [
            c
            for c, z in enumerate(gone_on.loc)
            if z != loc[c] or (face is not None and later_face is not None and face[c] != later_face[c])
        ]
        if (face is None) != (later_face is None):
            changed = list(range(len(loc)))
        if not any(gone_on.sees(player, c) and not self.sees(player, c) for c in changed):
            return gone_on, False
        paused = self.clone()
        paused.windows = None
        paused.actor = paused.turn
        paused._legal = []
        return paused, True

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
                    offered = offers(self, window.legal, q)
                finally:
                    self.memo = None
                if offered:
                    self.actor = q
                    return True
                queue.pop(0)
            windows.pop(0)
            if window.all_pass is not None:
                self._all_passed(window.all_pass)
        self.windows = None
        return False

    def _all_passed(self, handler: Any) -> None:
        """Run a window's 'when all pass:' (nobody in it acted); a 'go to' there says where play goes on."""
        self.next_kind = NEXT_TURN
        self.next_goto = None
        handler(self, self.turn)
        if self.next_kind == GO_TO:
            assert self.next_goto is not None  # a 'go to' sets both
            target, player, _where = self.next_goto
            if player is not None:
                self.turn = player
            self.pending_phase = target

    def _window_pass(self) -> None:
        assert self.windows is not None
        self.windows[0][1].pop(0)
        if self._next_window_actor():
            return
        target, self.pending_phase = self.pending_phase, None
        self._continue(target)

    # ------------------------------------------------------------------ auctions

    def _bid(self, defn: ActionDef, p: int, action: Action) -> None:
        """A bid, a call or a pass. Passing is final, and the auction ends with one bidder left; or, in an
        auction 'until N passes', not: N passes in a row after a bid end it (every player's, with none)."""
        auction = self.auction
        assert auction is not None
        phase = self.prog.phases[self.phase]
        if defn.is_pass:
            if phase.passes is None:
                auction[2][p] = True
            auction[4] += 1
        else:
            auction[4] = 0
            if defn.strength is not None:  # a call (double, redouble) leaves the standing bid
                auction[0] = defn.strength(self, p, action.key)
                auction[1] = p
                auction[3] = action  # the standing bid, re-checked when hidden cards are resampled
        defn.apply(self, p, action.key)
        active = [q for q in range(self.n) if not auction[2][q]]
        if phase.passes is None:
            won = auction[1] is not None and active == [auction[1]]
            unsold = auction[1] is None and not active
        else:
            won = auction[1] is not None and auction[4] >= phase.passes
            unsold = auction[1] is None and auction[4] >= len(active)
        if won:
            winner = auction[1]
            self.next_kind = NEXT_TURN
            self.next_goto = None
            self.turn = winner
            if phase.won is not None:
                phase.won(self, winner, winner)
            self._resolve()
        elif unsold:
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
        probe.auction = [None, None, auction[2][:], None, 0]
        probe.actor = auction[1]
        probe._legal = None
        return auction[3] in probe._compute_legal()

    # ------------------------------------------------------------------ rounds and the end

    def _start_round(self) -> None:
        for q in self.round_out:  # out for the last round only: back in this one
            self.out[q] = False
        self.round_out = []
        self.steps = self.calls = self.work = 0
        self.next_kind = NEXT_TURN
        self.next_goto = None
        self.opened = None
        self.turn = 0
        self.windows = None
        try:
            self.prog.setup(self, 0)
            if self.next_kind == GO_TO:
                assert self.next_goto is not None  # a 'go to' sets both
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
        elif over.losers:
            # Every other player wins; alone at the table, the player just loses.
            self._end([-1.0 if q in over.losers else 1.0 for q in range(self.n)])
        else:
            self._end(self._ranked_returns())

    def _end(self, returns: list[float]) -> None:
        """End the game with these returns, or with the payoffs of a game that declares them."""
        payoff = self.prog.payoff
        if payoff is not None:
            self.calls = self.work = 0  # worked out after the last action ran
            returns = [float(self._run(payoff, self, q)) for q in range(self.n)]
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

    def score(self, seat: int = 0) -> Any:
        """Return a one-player game's score: the number its ranking starts with ('ranking:
        highest on_foundations'), worked out now; None for a game that keeps none."""
        key = self.prog.score_key
        if key is None:
            return None
        self.calls = self.work = 0  # asked for at any time, not only while an action runs
        return key(self, seat)

    def _grouped(self, key: Any) -> list[list[int]]:
        """Players sorted by ``key(state, player)``, best (smallest) first, equal keys grouped."""
        self.calls = self.work = 0  # asked for at any time (standings), not only while an action runs
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


class _Found(Exception):
    """A legal function found an action, where one is enough to know (see ``offers``)."""


class _FirstAction(list):  # type: ignore[type-arg]
    """The list a legal function puts its actions in when only whether there is one matters:
    the first appended stops it (a list still, for the length 'otherwise' actions test)."""

    __slots__ = ()

    def append(self, action: Action) -> None:
        raise _Found


def offers(st: StateFields, legal: Any, q: int) -> bool:
    """Whether the compiled legal function ``legal`` offers ``q`` an action (a window's pass aside),
    found without listing them all: the groups of cards still to build are never built."""
    try:
        legal(st, q, _FirstAction())
    except _Found:
        return True
    return False


def pass_action(defn: ActionDef) -> Action:
    """Return the action of letting a window or an auction pass: one Action per program, as listed actions are."""
    prog_intern = defn.game.intern if defn.game is not None else None
    key = (defn.index, ())
    if prog_intern is not None:
        a = prog_intern.get(key)
        if a is None:
            a = prog_intern[key] = Action(defn, ())
        return a
    return Action(defn, ())
