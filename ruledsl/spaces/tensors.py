"""A player's observation as a fixed-length list of numbers, read from ``observation(seat)`` alone.

The layout is worked out once per loaded game (``TensorLayout``); every part of it comes
from the rule file, in this order (``segments()`` names them with their widths):

* the seat itself, the player to act (as this seat sees it), whether the game is over,
  the phase, the round and the direction of play;
* per zone (each player's own, for a zone of every player): how many cards lie there, how
  many of each card kind he sees there, and the kind of its top card when he sees it; a
  card he cannot see counts in the size alone, so its whereabouts never show;
* the variables he sees (numbers as they are, yes/no as 1/0, a card or a value one-hot, a
  set of cards as counts per kind, a player one-hot), each player's too, and for card
  variables which card kinds carry a value other than the default (its value when a number);
* what every player is told of the cards of each zone (card variables written 'public'), as
  the zone's view tells it: place by place, bottom to top (as many places as the deck has
  cards), 1 where a value was told of the card lying there, then the value as a variable's;
* who is out, the finishing order, the window he is offered and the auction's bidder and
  passers; in a game with a phase played together, who has chosen in secret and who is
  awaited (never what: the choices are not in the observation).

Text variables and the standing bid's label are left out (the strings carry them). The
information state adds the ids of his own actions so far, counted (``ActionSpace``):
what he did, which he always knows; what the others did shows in the observation.
"""

from __future__ import annotations

from collections.abc import Callable, MutableMapping
from typing import Any

from ruledsl.engine import ops
from ruledsl.engine.game import Game

#: The bounds the bridges declare for every entry (float32 holds every integer up to it exactly);
#: a game whose numbers (scores, say) go past it would need a wider space.
BOUND = float(2**24)

#: An encoder writes one value into ``out`` from ``at`` on.
_Writer = Callable[[MutableMapping[int, float], int, Any], None]


class TensorLayout:
    """Where each part of a player's view lies in his tensors (one layout per loaded game)."""

    def __init__(self, game: Game, num_distinct_actions: int) -> None:
        prog = game.program
        self.game = game
        self.n = n = prog.players
        self.num_distinct_actions = num_distinct_actions
        kinds = prog.card_kinds
        self.n_kinds = k = len(prog.kind_reps)
        self._kind_of = {name: kinds[c] for c, name in enumerate(prog.card_names)}
        self._player_of = {ops.show_player(q): q for q in range(n)}
        self._phase_of = {p.name: i for i, p in enumerate(prog.phases)}
        self._window_of = {w.name: i for i, w in enumerate(prog.windows)}
        symbols = game.checked.symbols
        self._segments: list[tuple[str, int]] = []
        self._add("player", n)
        self._add("current_player", n)
        self._add("terminal", 1)
        self._add("phase", len(prog.phases))
        self._add("round, direction", 2)
        self._card_kind = prog.card_kinds  # by card
        #: Per zone instance: its name, its owner (None: the game's), its instance, where it lies.
        self._zones: list[tuple[str, int | None, int, int]] = []
        for layout in prog.zones:
            for q in range(n) if layout.per_player else [None]:
                name = _zone_name(layout.name, q)
                at = self._add(f"zone {name}: size, kinds seen, top", 1 + 2 * k)
                self._zones.append((layout.name, q, layout.base + (q or 0), at))
        self._game_vars: list[tuple[str, _Writer, int]] = []
        for v in prog.game_vars:
            if v.visibility == "public":
                write, width = self._encoder(symbols.game_vars[v.name].type)
                self._game_vars.append((v.name, write, self._add(f"variable {v.name}", width)))
        self._player_vars: list[tuple[str, _Writer, int, int]] = []
        for v in prog.player_vars:
            if v.visibility != "hidden":
                write, width = self._encoder(symbols.player_vars[v.name].type)
                self._player_vars.append((v.name, write, width, self._add(f"player variable {v.name}", n * width)))
        self._card_vars: list[tuple[str, int]] = [
            (v.name, self._add(f"card variable {v.name}", k)) for v in prog.card_vars
        ]
        # The card variables told to every player, as each zone's view tells them: place by place.
        told_vars = [prog.card_vars[i].name for i in prog.told]
        told = [(v, *self._encoder(symbols.card_vars[v].type)) for v in told_vars]
        self._told: list[tuple[str, int | None, list[tuple[str, _Writer, int, int]]]] = []
        for zone, q, _, _ in self._zones if told else ():
            name = _zone_name(zone, q)
            segments = [
                (v, write, 1 + w, self._add(f"told {v} in zone {name}, by place", prog.n_cards * (1 + w)))
                for v, write, w in told
            ]
            self._told.append((zone, q, segments))
        self._out = self._add("out", n)
        self._finished = self._add("finishing order", n)
        self._window = self._add("window offered", len(prog.windows))
        self._auction = self._add("auction: bidder, passed", 2 * n)
        # Only a game with a phase played together has this part: every other keeps its tensor.
        together = any(phase.together for phase in prog.phases)
        self._together = self._add("played together: chosen, awaited", 2 * n) if together else None
        self.observation_size = self._size()
        self._history = self._add("own actions (counts by id)", num_distinct_actions)
        self.information_state_size = self._size()

    def _size(self) -> int:
        return sum(w for _, w in self._segments)

    def _add(self, name: str, width: int) -> int:
        at = self._size()
        self._segments.append((name, width))
        return at

    def segments(self, information_state: bool = False) -> list[tuple[str, int]]:
        """The parts of the tensor, in order, with their widths."""
        return self._segments if information_state else self._segments[:-1]

    def _encoder(self, t: Any) -> tuple[_Writer, int]:
        """How a variable of type ``t`` is written, and its width."""
        kind = t.kind
        if kind in ("number", "flag"):

            def scalar(out: MutableMapping[int, float], at: int, v: Any) -> None:
                if isinstance(v, bool | int | float):
                    out[at] = float(v)

            return scalar, 1
        if kind in ("card", "cards"):
            return self._counts(self._kind_of), self.n_kinds
        if kind in ("player", "players"):
            return self._counts(self._player_of), self.n
        if kind == "value" or (kind == "set" and t.of != "number"):
            displays = self.game.checked.symbols.values[t.of].displays
            return self._counts({d: i for i, d in enumerate(displays)}), len(displays)
        if kind == "tuple" and t.of:
            values = self.game.checked.symbols.values
            places = [
                {d: i + 1 for i, d in enumerate(values[of].displays)} if of in values else {} for of in t.of.split(",")
            ]

            def items(out: MutableMapping[int, float], at: int, v: Any) -> None:
                # The observation shows numbers, and values by name: a value is its place in its list, from 1.
                for i, x in enumerate(v):
                    out[at + i] = float(x) if isinstance(x, int) else float(places[i].get(x, 0))

            return items, len(places)
        if kind == "set":

            def size(out: MutableMapping[int, float], at: int, v: Any) -> None:
                out[at] = float(len(v))

            return size, 1
        return (lambda out, at, v: None), 0

    @staticmethod
    def _counts(index: dict[Any, int]) -> _Writer:
        def write(out: MutableMapping[int, float], at: int, v: Any) -> None:
            for x in v if isinstance(v, list) else [v]:
                i = index.get(x)  # None and 'a hidden card' count nowhere
                if i is not None:
                    out[at + i] = out.get(at + i, 0.0) + 1.0

        return write

    # ------------------------------------------------------------------ filling

    def observation(self, obs: dict[str, Any]) -> list[float]:
        """Return the observation tensor of ``obs`` (an ``observation(seat)`` dict)."""
        return self.dense(self.observation_entries(obs), self.observation_size)

    def information_state(self, obs: dict[str, Any], own_ids: list[int]) -> list[float]:
        """Return the information-state tensor: ``obs`` and the ids of the seat's own actions so far."""
        return self.dense(self.information_state_entries(obs, own_ids), self.information_state_size)

    def observation_entries(self, obs: dict[str, Any]) -> dict[int, float]:
        """The entries of the observation tensor of ``obs`` that may be other than 0, by index.

        A tensor is mostly zeros: a bridge writes these into an array of zeros, faster than it
        converts a whole list (``dense`` makes the list)."""
        out: dict[int, float] = {}
        self._fill(obs, out)
        return out

    def information_state_entries(self, obs: dict[str, Any], own_ids: list[int]) -> dict[int, float]:
        """The entries of the information-state tensor that may be other than 0, by index."""
        return self.with_own(self.observation_entries(obs), own_ids)

    def state_entries(self, state: Any, seat: int | None) -> dict[int, float]:
        """``observation_entries(state.observation(seat))``, the same numbers worked out without the
        texts of his observation: its zones read card by card from the state he reads
        (``Observer.shown_cards``), the rest from his ``tensor_view``; so he is told nothing his
        observation does not show."""
        if self.game.program.told:  # what is told of cards shows in the zones' texts: read them
            return self.observation_entries(state.observation(seat))
        rest, seen = state.tensor_view(seat)
        out: dict[int, float] = {}
        for _, _, z, base in self._zones:
            self._zone(out, base, len(seen.zones[z]), seen.shown_cards(seat, z), self._card_kind)
        self._fill_rest(rest, out)
        return out

    def with_own(self, out: dict[int, float], own_ids: list[int]) -> dict[int, float]:
        """Add to observation entries the counts of the seat's own ids: the information state's."""
        base = self._history
        for i in own_ids:
            out[base + i] = out.get(base + i, 0.0) + 1.0
        return out

    def recalled_size(self, recall: int) -> int:
        """The size of the information-state tensor that recalls ``recall`` own ids in order."""
        return self.observation_size + recall * self.num_distinct_actions

    def recalled_entries(self, obs: dict[str, Any], own_ids: list[int]) -> dict[int, float]:
        """The information-state tensor with perfect recall: ``obs``, then the seat's own ids in
        the order he chose them, one-hot each (the t-th id in the t-th block of
        ``num_distinct_actions``): two orders of the same ids differ, where counts merge them.
        The caller makes room for them (``recalled_size``)."""
        return self.with_recalled(self.observation_entries(obs), own_ids)

    def with_recalled(self, out: dict[int, float], own_ids: list[int]) -> dict[int, float]:
        """Add to observation entries the seat's own ids in order (``recalled_entries``)."""
        base, width = self.observation_size, self.num_distinct_actions
        for t, i in enumerate(own_ids):
            out[base + t * width + i] = 1.0
        return out

    @staticmethod
    def dense(entries: dict[int, float], size: int) -> list[float]:
        """The whole tensor of ``size`` numbers with these entries."""
        out = [0.0] * size
        for i, v in entries.items():
            out[i] = v
        return out

    def _fill(self, obs: dict[str, Any], out: dict[int, float]) -> None:
        """Write ``obs`` into ``out``: each index is set once or only added to, so a missing one is 0."""
        zones, kind_of = obs["zones"], self._kind_of
        for name, q, _, base in self._zones:
            view = zones[name] if q is None else zones[name][q]
            self._zone(out, base, view["size"], view.get("cards"), kind_of)
        if self._told:
            self._fill_told(zones, out)
        self._fill_rest(obs, out)

    def _zone(self, out: dict[int, float], base: int, size: int, cards: Any, kind_of: Any) -> None:
        """Write a zone: its ``size``, how many of each kind he sees among ``cards`` (those he is
        shown, None where he does not see one; None: not listed), the kind of the top one if he sees it."""
        out[base] = float(size)
        if cards:
            first = base + 1
            for c in cards:
                if c is not None:
                    i = first + kind_of[c]
                    if i in out:  # a second card of a kind (two decks)
                        out[i] += 1.0
                    else:
                        out[i] = 1.0
            top = cards[-1]
            if top is not None:
                out[first + self.n_kinds + kind_of[top]] = 1.0

    def _fill_rest(self, obs: dict[str, Any], out: dict[int, float]) -> None:
        """Write all of ``obs`` but its zones."""
        n = self.n
        seat = obs["player"]
        if seat is not None:  # a spectator (the public view) is no seat
            out[seat] = 1.0
        current = obs["current_player"]
        if 0 <= current < n and not obs["terminal"]:
            out[n + current] = 1.0
        if obs["terminal"]:
            out[2 * n] = 1.0
        at = 2 * n + 1
        out[at + self._phase_of[obs["phase"]]] = 1.0
        at += len(self._phase_of)
        out[at] = float(obs["round"])
        out[at + 1] = 1.0 if obs["direction"] == "clockwise" else -1.0
        kind_of = self._kind_of
        variables = obs["variables"]
        for name, write, base in self._game_vars:
            write(out, base, variables[name])
        player_vars = obs["player_variables"]
        for name, write, width, base in self._player_vars:
            for q, v in enumerate(player_vars[name]):
                if v is not None:
                    write(out, base + q * width, v)
        card_vars = obs["card_variables"]
        for name, base in self._card_vars:
            for card, v in card_vars.get(name, ()):
                i = base + kind_of[card]
                out[i] = out.get(i, 0.0) + (float(v) if isinstance(v, int | float) else 1.0)
        for q, gone in enumerate(obs["out"]):
            if gone:
                out[self._out + q] = 1.0
        for place, q in enumerate(obs["finished"]):
            out[self._finished + q] = float(place + 1)
        window = obs["window"]
        if window is not None:
            out[self._window + self._window_of[window["name"]]] = 1.0
        auction = obs["auction"]
        if auction is not None:
            if auction["bidder"] is not None:
                out[self._auction + auction["bidder"]] = 1.0
            for q in auction["passed"]:
                out[self._auction + n + q] = 1.0
        chosen = obs.get("together")
        if chosen is not None and self._together is not None:
            for q in chosen["chosen"]:
                out[self._together + q] = 1.0
            for q in chosen["waiting"]:
                out[self._together + n + q] = 1.0

    def _fill_told(self, zones: dict[str, Any], out: dict[int, float]) -> None:
        """Write what every player is told of the cards of each zone (``told`` in its view): for each
        place, bottom to top, 1 where a value was told, then the value as a variable's (none: zeros)."""
        for zone, q, segments in self._told:
            told = (zones[zone] if q is None else zones[zone][q]).get("told")
            if told is None:
                continue
            for var, write, width, base in segments:
                for place, v in enumerate(told.get(var, ())):
                    if v is not None:  # None: nothing told of the card lying there
                        out[base + place * width] = 1.0
                        write(out, base + place * width + 1, v)


def _zone_name(name: str, q: int | None) -> str:
    """A zone as the segments name it: each player's own of a zone of every player with his seat."""
    return name if q is None else f"{name}[P{q}]"


def write_entries(array: Any, entries: dict[int, float]) -> None:
    """Write ``entries`` into ``array`` (a numpy array, say), every other entry 0."""
    array.fill(0)
    for i, v in entries.items():  # a few dozen: faster one by one than converted to arrays
        array[i] = v
