"""What a seat sees: the observation of a state, which cards a player sees, and how the last action read to him.

``Observer`` is a part of ``GameState`` (a mixin: its methods are the state's own, so the
compiled rules' calls to ``sees`` and ``show_card`` cost what they did).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any

from ruledsl.engine import stepping
from ruledsl.engine.fields import Face, StateFields
from ruledsl.engine.together import waiting_for
from ruledsl.engine.values import HIDDEN_CARD, Action, Place, Said, unseen


class Observer(StateFields):
    """What each player (or a spectator, ``None``) sees of a GameState (see ``ruledsl.engine.state``)."""

    __slots__ = ()

    if TYPE_CHECKING:
        # GameState's own, which an Observer is always a part of.
        def current_player(self) -> int: ...

        def returns(self) -> list[float]: ...

        def legal_actions(self) -> list[Action]: ...

        def unoffered(self) -> Observer: ...

        def shown_to(self, player: int | None) -> tuple[Observer, bool]: ...

    def observation(self, player: int | None) -> dict[str, Any]:
        """Return exactly what ``player`` may see, as a JSON-serialisable dict (None: a spectator, who sees
        only what every seat sees)."""
        return _observe(self, player)

    def tensor_view(self, player: int | None) -> tuple[dict[str, Any], Observer]:
        """What ``player``'s observation tensor is made of (``ruledsl.spaces.TensorLayout``), without
        the texts only a reader needs: his observation with its zones left empty, no labels of his
        legal actions and no set he is picking; and the state he reads (``seen_by``), whose zones
        he is shown card by card by its ``shown_cards``, as his observation shows them."""
        st, _ = self.seen_by(player)
        return _seen(st, player, {}), st

    def seen_by(self, player: int | None) -> tuple[Observer, bool]:
        """Return the state ``player`` reads, and whether it is paused: this one, unless windows he
        cannot see are open (offered to another): then ``shown_to(player)``, play gone on as if
        they were let pass (docs/security.md, "Windows"). His observation, the actions he is shown
        and how his moves read are all worked out on it, so none depends on a window he cannot see."""
        if self.windows is not None and player != self.actor and not self.terminal:
            return self.shown_to(player)
        return self, False

    def actions_seen_by(self, player: int | None) -> list[Action]:
        """Return the actions ``player`` is shown as his: his legal actions when he is to act; while
        windows he cannot see are open, those he will have if they are let pass (he acts once they
        close); none when he is not to act (a spectator never is)."""
        st, paused = self.seen_by(player)
        if paused or st.terminal or player is None or st.actor != player:
            return []
        return st.legal_actions()

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
        """The last action's label with each card as ``viewer`` sees it where it lies now, as every seat
        saw it where it lay when the action was chosen (a state with a log), or the action showed it ('reveal')."""
        defn = action.defn
        if defn.is_held and viewer != self.last_actor:
            # A choice made in secret, in a phase played together: read, like any label, after its chooser's
            # name ("P1: choose in secret"), never what it was.
            return "choose in secret"
        if not defn.label_is_static and (action.public is None or _MARK not in action.public):
            return action.public if action.public is not None else defn.name.replace("_", " ")
        revealed = self.last_revealed
        shown = revealed[1] if revealed is not None and revealed[0] is self._hist else frozenset()
        before = self.last_before
        if before is None or before[0] is not self._hist:
            before = None

        def seen(c: int) -> bool:
            if c in shown or self.sees(viewer, c):
                return True
            return before is not None and self._lay_in_sight(c, before[1], before[2])

        if action.public is not None:  # a label computed from the state: its marked cards, named where seen
            names = self.prog.card_names
            return _MARKED.sub(lambda m: names[int(m[1])] if seen(int(m[1])) else HIDDEN_CARD, action.public)
        args = self.last_args
        for i in defn.card_choices:
            if action.key[i] < 0 and not seen(args[i]):
                # Chosen by its place, and still unseen: it reads as to its chooser, unnamed,
                # its attributes none.
                args = (*args[:i], None, *args[i + 1 :])
        return defn.label_args(args, lambda c: self.prog.card_names[c] if c is not None and seen(c) else HIDDEN_CARD)

    # ------------------------------------------------------------------ cards and zones

    def zone_shows_mover(self, z: int) -> bool:
        """Whether zone instance ``z`` shows each card to the player who moved it there ('seen by mover')."""
        return self.prog.zones[self.prog.zone_family[z]].visibility == "mover"

    def zone_visible(self, viewer: int | None, z: int) -> bool:
        """Whether ``viewer`` sees the cards of zone instance ``z`` (None: a spectator)."""
        vis = self.prog.zones[self.prog.zone_family[z]].visibility
        if vis == "public":
            return True
        if vis == "owner":
            return viewer is not None and self.prog.zone_owner[z] == viewer
        if vis == "others":  # every seat but its owner (a spectator sees what all the seats see)
            return viewer is not None and self.prog.zone_owner[z] != viewer
        return False

    def shown_cards(self, viewer: int | None, z: int) -> list[int | None] | None:
        """The cards of zone instance ``z`` as ``viewer`` is shown them, bottom to top: each card where
        he sees it, None where he does not; None when none are listed: he sees neither the zone
        nor any card in it (its size alone shows). Asked of the state he reads (``seen_by``)."""
        cards = self.zones[z]
        if self.face is None:
            return list(cards) if self.zone_visible(viewer, z) else None
        # (As the cards lie: a zone shuffled out of everyone's sight, whose order is not
        # decided yet, chance.LazyZone, shows None for each of them, in any order.)
        shown = [c if self.sees(viewer, c) else None for c in list.__iter__(cards)]
        # Listed, as without turned cards, where he sees the zone (even empty) or any card in it.
        if self.zone_visible(viewer, z) or any(c is not None for c in shown):
            return shown
        return None

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
            if face is not None:  # (mover,) laid in a zone 'seen by mover'; or the players shown it ('show')
                return viewer is not None and viewer in face
        return self.zone_visible(viewer, z)

    def _lay_in_sight(self, c: int, loc: list[int], face: list[Face] | None) -> bool:
        """Whether every seat saw card ``c`` where it lay (``loc``) and as it lay (``face``)."""
        if face is not None and face[c] is not None:
            return face[c] is True
        return self.zone_visible(None, loc[c])

    def all_visible(self, viewer: int | None, cards: Iterable[int]) -> bool:
        """Whether ``viewer`` sees every one of ``cards`` (as ``sees``; a zone asked about once in a row)."""
        face, loc = self.face, self.loc
        last_zone, seen = -1, True
        for c in cards:
            if face is not None and face[c] is not None:
                if not (face[c] is True or self.sees(viewer, c)):
                    return False
                continue
            z = loc[c]
            if z != last_zone:
                last_zone, seen = z, self.zone_visible(viewer, z)
            if not seen:
                return False
        return True

    def public_card(self, c: int | None) -> str:
        """A card in a label computed from the state, as the others are told it: by name where
        every seat sees it; else marked, to be named when it is told if they see it by then
        (laid face up by the action), as a label of the choices names it (``_describe_now``)."""
        if c is None:
            return "none"
        return self.prog.card_names[c] if self.sees(None, c) else f"{_MARK}{c}{_MARK}"

    def said(self, text: Callable[[Callable[[int | None], str]], str]) -> Said:
        """A ``say`` as each reader is told it: ``text(show)`` with ``show`` naming each card as
        he sees it now (a card in his own hand by name, to him alone), then as the spectators do;
        one text when all read it alike."""
        texts = tuple(text(functools.partial(self.show_card, v)) for v in (*range(self.n), None))
        return texts[-1] if all(t == texts[-1] for t in texts) else texts

    def show_card(self, viewer: int | None, c: int | Place | None) -> str:
        if c is None:
            return "none"
        if isinstance(c, Place):  # a card its chooser took by its place, in his label
            return unseen(c)
        return self.prog.card_names[c] if self.sees(viewer, c) else HIDDEN_CARD


def _tell(st: Observer, z: int, entry: dict[str, Any]) -> None:
    """Add to a zone's view the card variables every player is told, place by place (bottom to top;
    None where a card's is its first value), if any card lying there has one set: its owner knows
    them of the cards he cannot see (a hint given on a card of a hand seen by the others)."""
    cards = list(list.__iter__(st.zones[z]))
    for i in st.prog.told:
        values, default = st.cv[i], st.prog.card_var_init[i]
        if any(values[c] != default for c in cards):
            var = st.prog.card_vars[i]
            shown = [None if values[c] == default else var.show(st, None, values[c]) for c in cards]
            entry.setdefault("told", {})[var.name] = shown


#: Marks a card in a label computed from the state that the others may see once the action is over.
_MARK = "\x00"
_MARKED = re.compile(f"{_MARK}(\\d+){_MARK}")


def _zone_view(st: Observer, player: int | None, z: int) -> dict[str, Any]:
    """Zone instance ``z`` in ``player``'s observation: its size, its cards by name where listed."""
    entry: dict[str, Any] = {"size": len(st.zones[z])}
    shown = st.shown_cards(player, z)
    if shown is not None:
        names = st.prog.card_names
        entry["cards"] = [None if c is None else names[c] for c in shown]
    if st.prog.told:
        _tell(st, z, entry)
    return entry


def _observe(st: Observer, player: int | None) -> dict[str, Any]:
    # Only a player offered a window knows it (being offered one tells what he holds): the
    # others (and spectators) see the state as it would be had it been offered to nobody, or
    # paused where going on would deal them cards (TurnMachine.shown_to).
    st, paused = st.seen_by(player)
    zones: dict[str, Any] = {}
    for layout in st.prog.zones:
        if layout.per_player:
            zones[layout.name] = [_zone_view(st, player, layout.base + q) for q in range(st.n)]
        else:
            zones[layout.name] = _zone_view(st, player, layout.base)
    obs = _seen(st, player, zones)
    if st.picking is not None and st.actor == player and not st.terminal:
        # The set he is choosing card by card: his alone, nobody else's view changes while he picks.
        obs["picking"] = stepping.picking_view(st, player)
    if not st.terminal and st.actor == player and not paused:
        obs["legal_actions"] = [str(a) for a in st.legal_actions()]
    return obs


def _seen(st: Observer, player: int | None, zones: dict[str, Any]) -> dict[str, Any]:
    """``player``'s observation of the state he reads (``seen_by``) with these ``zones``, but for the
    labels of his legal actions and the set he is picking (``_observe`` adds them)."""
    prog = st.prog
    names = prog.card_names
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
        default, values = prog.card_var_init[i], st.cv[i]
        if values.count(default) == len(values):  # none set (most often): no card to ask about
            continue
        shown = [
            [names[c], v.show(st, player, value)]
            for c, value in enumerate(values)
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
        window = {"name": prog.windows[st.windows[0][0]].name, "player": st.actor}
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
    if st.held is not None and not st.terminal:
        obs["together"] = waiting_for(st)  # who has chosen in secret, and who is awaited
    return obs
