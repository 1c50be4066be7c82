"""What one connection is sent: a seat's view of its table, built only from that seat's observation and texts.

The frame of seat ``s`` is made of ``state.observation(s)``, the labels of the legal actions
when ``s`` is to act, the transcript as ``s`` saw it (``describe_last(s)``) and what the
rule file declares (zone names, who owns which zone): never the state itself. A spectator's
frame is made the same way from ``observation(None)``, which shows only public cards.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from ruledsl.serve.tables import SPECTATOR
from ruledsl.tools.display import display_of, per_program
from ruledsl.tools.records import listed_player_variables, listed_variables

if TYPE_CHECKING:
    from ruledsl.engine.program import Program
    from ruledsl.serve.tables import Table

_RED = frozenset("♥♦")


def view_frame(table: Table, seat: int) -> dict[str, Any]:
    """The frame a connection of ``seat`` (SPECTATOR: a spectator) is sent after each change at ``table``."""
    # The version of his view, not of the table: it moves only when something in his frame does.
    return {"type": "view", "version": table.version_of(seat), **seen_view(table, seat)}


def view_key(table: Table, seat: int) -> str:
    """What the frame of ``seat`` but its version is made of, as a text (what ``Table.version_of`` counts the
    changes of): the lines he was told, the game's end, its error and his observation (his actions' labels
    with it); the rest is the table's, the same all game."""
    at = len(table.seats) if seat == SPECTATOR else seat
    state = table.state
    seen = None if state is None else state.observation(None if seat == SPECTATOR else seat)
    return repr((table.games, table.told[at], table.is_over(), table.error, seen))


def seen_view(table: Table, seat: int) -> dict[str, Any]:
    """The frame of ``seat`` but its type and version."""
    state = table.state
    viewer = None if seat == SPECTATOR else seat
    frame: dict[str, Any] = {
        "seat": viewer,
        "game": table.game.name,
        "players": table.game.players,
        "who": [
            f"P{q}" + (" (you)" if q == viewer else "" if q in table.humans else f" ({spec})")
            for q, spec in enumerate(table.seats)
        ],
        "transcript": list(table.transcript(seat)),
        "over": table.is_over(),
        "error": table.error,
        "actions": [],
    }
    # Who is here: a human seat while a page of it is open, a bot always.
    frame["present"] = [q not in table.humans or table.present[q] > 0 for q in range(len(table.seats))]
    frame["humans"] = list(table.humans)
    frame["rematch"] = sorted(table.rematch_asked)
    if table.is_over():
        frame["seed"] = table.seed
        frame["result"] = _result(table, viewer)
    if state is None:
        return frame
    obs = state.observation(viewer)
    prog = state.prog
    frame.update(
        phase=obs["phase"],
        round=obs["round"],
        direction=obs["direction"],
        current=None if obs["terminal"] else obs["current_player"],
        zones=_zones(obs, prog),
        # Each by the rule file's label, those set alone (as the terminal's view lists them).
        variables={display_of(prog).label(k): v for k, v in listed_variables(obs).items()},
        player_variables={display_of(prog).label(k): v for k, v in listed_player_variables(obs).items()},
        auction=obs["auction"],
        window=obs["window"] if viewer is not None and obs["window"] and obs["window"]["player"] == viewer else None,
        finished=obs["finished"],
        # A set of cards picked in steps so far: its chooser's view alone has it.
        picking=obs.get("picking"),
        # A phase played together: who has chosen (never what), who is awaited.
        together=obs.get("together"),
        returns=obs["returns"],
    )
    # While a window he cannot see is open to another seat, the actions listed are those his
    # observation shows: his once it is let pass (a move he chooses meanwhile is held till then).
    if viewer is not None and "legal_actions" in obs and table.error is None:
        frame["actions"] = _actions(state, viewer, frame["zones"])
    return frame


def _zones(obs: dict[str, Any], prog: Program) -> list[dict[str, Any]]:
    """The zones as the viewer sees them, in the order the rule file declares them, each card drawn as it is seen,
    as the rule file says to show them (a sorted zone's cards in order; one `unlisted when empty` left out while
    empty)."""
    display = display_of(prog)
    zones = []
    for layout in prog.zones:
        seen = obs["zones"][layout.name]
        for owner, zone in enumerate(seen) if layout.per_player else [(None, seen)]:
            if not display.listed(layout.name, zone["size"]):
                continue
            cards = zone.get("cards")
            if cards is not None:
                cards = [None if c is None else _card(c, prog) for c in display.cards(layout.name, cards)]
            zones.append(
                {
                    "name": layout.name,
                    "owner": owner,
                    "visibility": layout.visibility,
                    "size": zone["size"],
                    # None: a card the viewer does not see (drawn as a back); no list: none seen at all.
                    "cards": cards,
                    # Shown in order: no card of it is on top (else the last is).
                    "sorted": bool(layout.sorted_by),
                }
            )
    return zones


class _Deck:
    """What frames need of a program's cards, worked out once: each card as drawn, and a pattern that finds cards
    in a label."""

    def __init__(self, prog: Program) -> None:
        self.prog = prog
        self.drawn: dict[str, dict[str, Any]] = {}
        self.named: dict[str, str] = {}  # the name of the card each name or label is
        tables = prog.attribute_tables
        for c, (name, label) in enumerate(zip(prog.card_names, prog.card_labels)):
            suit: int | None = None
            if "suit" in tables and isinstance(tables["suit"][c], int):
                suit = tables["suit"][c]
            elif "suits" in tables and isinstance(tables["suits"][c], int) and tables["suits"][c] > 0:
                suit = (tables["suits"][c] & -tables["suits"][c]).bit_length() - 1  # the first suit of its set
            # Cards of one name are alike: the first stands for them all.
            self.drawn.setdefault(name, {"name": name, "label": label, "suit": suit, "red": bool(_RED & set(label))})
            self.named.setdefault(name, name)
            self.named.setdefault(label, name)
        alternatives = "|".join(re.escape(t) for t in sorted(self.named, key=len, reverse=True))
        # A card's name as a whole: not '8♣' inside '18♣'.
        self.pattern = re.compile(rf"(?<![\w♠♥♦♣])(?:{alternatives})(?![\w♠♥♦♣])")

    def cards_in(self, *texts: str) -> set[str]:
        """The names of the cards ``texts`` name, by name or by label."""
        return {self.named[m] for text in texts for m in self.pattern.findall(text)}


def _deck(prog: Program) -> _Deck:
    """The cards of ``prog``, worked out the first time a frame of it is built."""
    return per_program(_Deck, prog)


def _card(name: str, prog: Program) -> dict[str, Any]:
    """A card the viewer sees: its name, how it reads, and what colours it (from the rule file's attributes)."""
    return _deck(prog).drawn[name]


def _actions(state: Any, seat: int, zones: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The seat's legal actions: how each reads, and which of the cards it sees each names (to play by a click)."""
    from ruledsl.engine.reading import shown_action

    visible = {card["name"] for zone in zones for card in zone["cards"] or () if card is not None}
    deck = _deck(state.prog)
    actions = []
    for i, action in enumerate(state.actions_seen_by(seat)):
        label = shown_action(action, state.prog)
        named = [name for name in sorted(deck.cards_in(str(action), label)) if name in visible]
        entry: dict[str, Any] = {"index": i, "label": label, "cards": named}
        chosen = _group(action, state.prog)
        if chosen is not None and set(chosen) <= visible:
            # A group of cards chosen at once: the page lets them be picked card by card, and
            # offers this action once its cards are the ones picked.
            entry["group"] = action.defn.name
            entry["set"] = chosen
        actions.append(entry)
    return actions


def _group(action: Any, prog: Program) -> list[str] | None:
    """The names of the cards of ``action`` when its one choice is a group of cards (None for any other action)."""
    if action.defn.step_role is not None or len(action.key) != 1 or type(action.key[0]) is not tuple:
        return None
    kinds = action.key[0]
    if not all(type(k) is int and k >= 0 for k in kinds):
        return None  # cards chosen by their place: not seen
    return [prog.card_names[k] for k in kinds]


def shown_number(value: Any) -> str:
    """A score as a person reads it: a whole number as such, any other with at most two decimals."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return "–" if value is None else str(value)
    if float(value).is_integer():
        return f"{int(value):+d}" if value else "0"
    return f"{value:+.2f}".rstrip("0").rstrip(".")


def _result(table: Table, viewer: int | None) -> dict[str, Any]:
    """The end of the game as the banner shows it: the winners, each seat's place, the scores, the seed."""
    from ruledsl.engine.ops import winners_of
    from ruledsl.tools.records import result_lines

    state = table.state
    result: dict[str, Any] = {"seed": table.seed, "winners": [], "places": [], "scores": [], "text": ""}
    if state is None or table.error is not None:
        result["text"] = f"The game stopped: {table.error}"
        return result
    returns = state.returns()
    result["winners"] = list(winners_of(returns))
    places = [0] * len(returns)
    done = 0
    for group in state.ranking():
        for q in group:
            places[q] = done + 1
        done += len(group)
    result["places"] = places
    result["scores"] = [shown_number(r) for r in returns]
    result["text"] = result_lines(state)[0]
    return result
