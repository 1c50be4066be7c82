"""A table of the server: one game, its seats and their secret tokens, bots in the seats no human takes.

A ``Table`` knows nothing of the network: ``app.py`` hands it the moves that come in and
sends each connection what ``frames.py`` builds from the table for that connection's seat.
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

if TYPE_CHECKING:
    from ruledsl.engine.game import Game
    from ruledsl.engine.state import GameState
    from ruledsl.serve.journal import Journal, Stored

#: The transcript lines a table keeps for each viewer: the newest, as a page shows them.
MAX_TRANSCRIPT = 300

#: A spectator's place in the lists kept per viewer: after the seats.
SPECTATOR = -1


class MoveRefused(Exception):
    """A move a seat sent that changes nothing: the message says why, in words that seat may read."""


class Unreplayable(Exception):
    """A stored table whose moves do not fit the game it is reopened in: a store kept before the options were,
    restarted under other ones (the message says which move)."""


class Table:
    """One game played at one table: the state, who sits where, and what each seat has been told.

    ``tokens[q]`` is the secret of human seat ``q`` (None for a bot), ``spectator`` the
    secret of the spectators' link; ``version`` counts the changes of the table, and
    ``version_of`` those of each viewer's view (what a frame says: a move sent for an older
    view is refused), which moves only when his view does: never when a window he cannot see
    is let pass (docs/security.md, "Windows"). The seed is drawn anew for each game (64 bits, from the
    system's randomness) and shown only once the game is over: it gives away every card.
    """

    def __init__(
        self,
        game: Game,
        seats: Sequence[str],
        log_dir: str | Path | None = None,
        seed: int | None = None,
        journal: Journal | None = None,
        stored: Stored | None = None,
    ) -> None:
        from ruledsl.agents import parse_spec

        self.journal = journal
        self.id = secrets.token_urlsafe(9) if stored is None else stored.id
        self.game = game
        self.seats = list(seats)
        self.humans = [q for q, spec in enumerate(self.seats) if parse_spec(spec)[0] == "human"]
        self.tokens: list[str | None] = [
            secrets.token_urlsafe(18) if q in self.humans else None for q in range(len(seats))
        ]
        self.spectator = secrets.token_urlsafe(18)
        self.log_dir = Path(log_dir) if log_dir is not None else None
        self.version = 0
        # Each viewer's (seats, then the spectators) view version, and the last view he was shown.
        self.views: list[tuple[int, str]] = [(0, "")] * (len(self.seats) + 1)
        self.games = 0
        self.present = [0] * len(self.seats)  # the pages open of each seat (app.py counts them)
        self.rematch_asked: set[int] = set()
        self.replaying = False
        if stored is not None:
            self._restore(stored)
            return
        if journal is not None:
            journal.opened(
                self.id, _rules(game), self.seats, self.tokens, self.spectator, game.options, game.max_actions
            )
        self.deal(seed)

    def _restore(self, stored: Stored) -> None:
        """Come back to a stored table's last game: its links and seed as they were, its actions replayed."""
        from ruledsl.agents import decide

        self.tokens, self.spectator = list(stored.tokens), stored.spectator
        self.games, self.version = stored.game - 1, stored.version - 1
        self.replaying = True
        try:
            self.deal(stored.seed)
            for n, (seat, index) in enumerate(stored.actions):
                if self.is_over() or self.state is None:
                    break
                if seat != self.state.current_player() or not 0 <= index < len(self.state.legal_actions()):
                    raise Unreplayable(f"its move {n + 1} (P{seat}'s) does not fit this game")
                if seat not in self.humans:
                    decide(self.agents[seat], self.state, seat)  # the bot's own randomness, drawn as it was
                self._apply(seat, self.state.legal_actions()[index])
        finally:
            self.replaying = False
        if self.is_over():
            self.rematch_asked = set(stored.rematch)
            if self.rematch_asked and self.rematch_asked >= set(self.humans):
                self.deal()  # the server died between the last vote and the new deal
                return
        self.play_bots()  # the server may have died between two bots' moves

    # ------------------------------------------------------------------ who is at the table

    def seat_of(self, token: str) -> int:
        """The seat whose token is ``token``, SPECTATOR for the spectators' one; KeyError for any other."""
        for q, secret in enumerate(self.tokens):
            if secret is not None and secrets.compare_digest(secret, token):
                return q
        if secrets.compare_digest(self.spectator, token):
            return SPECTATOR
        raise KeyError(token)

    def links(self, base: str) -> list[tuple[str, str]]:
        """Each human seat's private link and the spectators' one, as (who, address)."""
        links = [(f"P{q}", f"{base}/t/{self.id}/{token}") for q, token in enumerate(self.tokens) if token is not None]
        links.append(("spectators", f"{base}/t/{self.id}/{self.spectator}"))
        return links

    # ------------------------------------------------------------------ the game

    def deal(self, seed: int | None = None) -> None:
        """Start a new game at this table: a new secret seed (unless ``seed`` is given: for tests), the bots
        seated anew, and play to the first human."""
        from ruledsl.agents import needs_tracking, seat_agent
        from ruledsl.text.errors import RuleRuntimeError

        self.seed = secrets.randbits(64) if seed is None else seed
        self.games += 1
        self.rematch_asked = set()
        self.version += 1
        self.agents = {q: seat_agent(spec, self.seed, q) for q, spec in enumerate(self.seats) if q not in self.humans}
        self.actors: list[int] = []
        self.error: str | None = None
        self.logged = False
        # A move a seat chose while a window he could not see was open: played once it closes.
        self.held: dict[int, tuple[Any, int]] = {}
        # What each viewer has been told, seats first and the spectators last.
        self.transcripts: list[list[str]] = [[] for _ in range(len(self.seats) + 1)]
        self.told = [0] * len(self.transcripts)  # the lines each viewer was told, kept or not
        self.state: GameState | None = None
        if self.journal is not None and not self.replaying:
            self.journal.dealt(self.id, self.games, self.seed, self.version)
        try:
            self.state = self.game.new_initial_state(
                seed=self.seed, log=True, track=needs_tracking(self.agents.values())
            )
        except RuleRuntimeError as exc:
            self._stopped(exc)
            return
        self._tell_said(self.state)
        self._note_views()
        if not self.replaying:
            self.play_bots()

    def is_over(self) -> bool:
        """Whether this table's game has ended (or a rule stopped it)."""
        return self.state is None or self.error is not None or self.state.is_terminal()

    def version_of(self, seat: int) -> int:
        """The version of ``seat``'s view (SPECTATOR: the spectators'): how many times it changed. A
        change he does not see (a window offered to another, let pass) leaves it as it is."""
        return self.views[len(self.seats) if seat == SPECTATOR else seat][0]

    def _note_views(self) -> None:
        """After each change of the table: move the version of each viewer whose view it changed."""
        from ruledsl.serve.frames import view_key

        for at in range(len(self.views)):
            key = view_key(self, SPECTATOR if at == len(self.seats) else at)
            version, last = self.views[at]
            if key != last:
                self.views[at] = (version + 1, key)

    def to_act(self) -> int | None:
        """The seat to act now, None once the game is over."""
        return None if self.is_over() or self.state is None else self.state.current_player()

    def move(
        self, seat: int, version: int, index: int | None = None, text: str | None = None, bots: bool = True
    ) -> None:
        """Play ``seat``'s move, chosen by its place in the legal actions or typed; then the bots' moves.

        Raise MoveRefused, the table unchanged, for a move that is not this seat's to make,
        one made for an older view, or one the rules do not allow (with their reason).
        """
        state = self.state
        if version != self.version_of(seat):
            raise MoveRefused("the game has moved on since that view: look again, then choose")
        if self.is_over() or state is None:
            raise MoveRefused("the game is over")
        self.held.pop(seat, None)
        # While a window he cannot see is open to another seat, he reads the state as if it were let
        # pass (his turn, maybe): his move is read there, and held until the window closes.
        shown = cast("GameState", state.seen_by(seat)[0])
        legal = state.actions_seen_by(seat)
        if not legal:
            # Not "another's turn": a window offered to another seat is his secret (it tells what he holds).
            raise MoveRefused("you have no move to make now")
        if index is not None:
            if not 0 <= index < len(legal):
                raise MoveRefused(f"there is no action {index + 1}: choose from 1 to {len(legal)}")
            action = legal[index]
        else:
            assert text is not None
            found = shown.actions_reading(text)
            if len(found) > 1:
                raise MoveRefused(f"'{text}' reads like {len(found)} of your actions: choose one of them")
            if not found:
                from ruledsl.engine.reading import NO_REASON

                reason = state.why_illegal(text, seat)
                why = f": {reason}" if reason and reason != NO_REASON else ""
                raise MoveRefused(f"'{text}' is not one of your actions now{why}")
            action = found[0]
        if shown is not state:
            self.held[seat] = (action, version)
            return
        self._apply(seat, action)
        if bots:
            self.play_bots()

    def play_bots(self) -> None:
        """Let the bots move until a human is to act or the game is over."""
        while self.play_bot():
            pass

    def play_bot(self) -> bool:
        """Make the one move that waits on no human, if there is one: a bot's, or a move held while a
        window was open. Return whether a move was made (the server shows each before the next)."""
        from ruledsl.agents import decide

        if self.is_over():
            return False
        assert self.state is not None
        seat = self.state.current_player()
        if seat in self.humans:
            action, version = self.held.pop(seat, (None, None))
            # A move held while a window was open: played if the window was let pass (his view
            # is the one he chose in); dropped if someone acted in it (he chooses again).
            if action is None or version != self.version_of(seat) or action not in self.state.legal_actions():
                return False
            self._apply(seat, action)
            return True
        self._apply(seat, decide(self.agents[seat], self.state, seat))
        return True

    def rematch(self, seat: int) -> None:
        """``seat`` asks for a new game at this table, once this one is over: it is dealt when every human
        seat has asked; the links stay the same. The vote is kept in the store (a restart counts it)."""
        if not self.is_over():
            raise MoveRefused("the game is not over yet")
        if self.journal is not None and seat not in self.rematch_asked:
            self.journal.asked(self.id, self.games, seat)
        self.rematch_asked.add(seat)
        if self.rematch_asked >= set(self.humans):
            self.deal()

    def _apply(self, seat: int, action: Any) -> None:
        """Apply one action and tell every viewer what it may know of it."""
        from ruledsl.text.errors import RuleRuntimeError

        state = self.state
        assert state is not None
        if self.journal is not None and not self.replaying:  # kept before the move is shown to anyone
            self.journal.acted(self.id, self.games, len(self.actors), seat, state.legal_actions().index(action))
        try:
            state.apply_action(action)
        except RuleRuntimeError as exc:
            self.actors.append(seat)
            self._stopped(exc)
            return
        self.actors.append(seat)
        self.version += 1
        for viewer, lines in enumerate(self.transcripts):
            seen = state.describe_last(None if viewer == len(self.seats) else viewer)
            if seen:
                lines.append(f"P{seat}: {seen}")
                self.told[viewer] += 1
        self._tell_said(state)
        if state.is_terminal():
            from ruledsl.tools.records import result_lines

            self._tell_all(result_lines(state))
            self._tell_all([f"Seed: {self.seed} (ruledsl play --seed {self.seed} deals this game again)"])
            self.write_log()
        self._note_views()

    def _stopped(self, error: Any) -> None:
        """End the game a rule failed in: every viewer is told the error, and the record says it."""
        from ruledsl.text.render import one_line

        self.version += 1
        self.error = one_line(str(error))
        self._tell_all([f"The game stopped: {self.error}", f"Seed: {self.seed}"])
        self.write_log(error)
        self._note_views()

    def _tell_said(self, state: GameState) -> None:
        """Tell each viewer the rules' 'say' lines as he reads them (a card named to those who see it)."""
        from ruledsl.engine.values import said_to

        said = state.take_said()
        spectators = len(self.transcripts) - 1
        for viewer, transcript in enumerate(self.transcripts):
            transcript.extend(f"  {said_to(line, None if viewer == spectators else viewer)}" for line in said)
            self.told[viewer] += len(said)
            del transcript[:-MAX_TRANSCRIPT]

    def _tell_all(self, lines: list[str]) -> None:
        for viewer, transcript in enumerate(self.transcripts):
            transcript.extend(lines)
            self.told[viewer] += len(lines)
            del transcript[:-MAX_TRANSCRIPT]

    def transcript(self, seat: int) -> list[str]:
        """What ``seat`` (SPECTATOR: the spectators) has been told of this game, the newest lines."""
        return self.transcripts[seat]

    # ------------------------------------------------------------------ the record

    def record(self, error: Any = None) -> dict[str, Any]:
        """The record of this table's game so far, as ``ruledsl replay`` reads it."""
        from ruledsl.tools.records import build_record, record_of_state

        if self.state is None:
            return build_record(self.game, self.seed, self.seats, [], [], None, False, error=error)
        return record_of_state(self.game, self.seed, self.seats, self.state, self.actors, error)

    def write_log(self, error: Any = None) -> None:
        """Append this table's game, once over, to its file in the log folder (if there is one)."""
        if self.log_dir is None or self.logged or self.replaying:  # replayed: written before the server died
            return
        from ruledsl.tools.records import write_records

        self.logged = True
        write_records(self.log_dir / f"table-{self.id}.jsonl", [self.record(error)])


def _rules(game: Game) -> tuple[str, str, str | None]:
    """A game's rules as the store keeps them: (hash, text, the rule file they were read from if any)."""
    from ruledsl.tools.records import rules_hash

    return rules_hash(game), game.source.text, None if game.file is None else str(game.file)
