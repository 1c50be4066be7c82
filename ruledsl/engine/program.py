"""The compiled program: what the code generator hands the engine to play, and nothing it runs itself.

A ``Program`` is one game compiled for one player count and one choice of options: its
cards, where its zones' lists are, its phases, windows and variables, and the compiled
functions of its rules. The engine reads it; ``ruledsl.codegen`` builds it. The protocols
here are what the engine asks of the parts the code generator plugs in.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

from attrs import define, field

from ruledsl.engine.reading import Refusals
from ruledsl.engine.values import Action, ActionDef
from ruledsl.text.source import Span


class Probes(Protocol):
    """Switches the line probes of a program compiled with them (``ruledsl.codegen.probes.LineProbes``)."""

    def record(self, lines: set[int]) -> None: ...

    def stop(self) -> None: ...


@define(frozen=True)
class Utility:
    """What a game's returns are, and what the rules prove of them (None: not known).

    ``scores``: the returns are the game's payoffs ('payoff:'), else places (+1 first down
    to -1 last). ``low`` and ``high`` bound every return; ``constant_sum`` is what the
    returns of every game add up to, when they always add up to the same.
    """

    scores: bool
    low: float | None
    high: float | None
    constant_sum: float | None


#: The returns of a game without 'payoff:': places, +1 first down to -1 last, whose sum may vary.
PLACES = Utility(scores=False, low=-1.0, high=1.0, constant_sum=None)


@define
class ZoneLayout:
    """Where a zone's lists are: ``base`` is the index of its (first) instance."""

    name: str
    per_player: bool
    visibility: str
    base: int
    family: int
    sorted_by: tuple[str, ...] = ()  # the card attributes people are shown its cards in the order of
    unlisted_when_empty: bool = False  # left out of the views shown to people while it holds no card


@define
class PhaseInfo:
    """A phase, compiled: its actions and the functions of its rules (``legal`` lists the actions)."""

    name: str
    index: int
    is_auction: bool
    actions: list[ActionDef]
    legal: Callable[..., None]
    enter: Callable[..., None] | None
    won: Callable[..., None] | None
    unsold: Callable[..., None] | None
    pass_def: ActionDef | None
    span: Span | None = None  # of its declaration: where a refused move is reported
    together: bool = False  # played together: each chooser's choice is held until all have chosen
    who: Callable[..., list[int]] | None = None  # who chooses, when played together for some players
    all_chosen: Callable[..., None] | None = None  # its 'when all chosen:', once every held choice took effect
    passes: int | None = None  # an auction 'until N passes': passing is not final, N in a row after a bid end it


@define
class WindowInfo:
    """A window, compiled: its actions, who may act in it (``who``) and how to let it pass."""

    name: str
    index: int
    actions: list[ActionDef]
    legal: Callable[..., None]
    who: Callable[..., list[int]]
    pass_def: ActionDef
    span: Span | None = None  # of its declaration: where a refused move is reported
    all_pass: Callable[..., None] | None = None  # its 'when all pass:', run when it closes with nobody acting


@define
class VarInfo:
    """A variable of the game, its players or its cards: what the observation shows of it."""

    name: str
    visibility: str
    show: Callable[..., Any]  # (state, viewer, value) -> JSON value
    kind: str = "number"  # the kind of its type: number, card, cards...
    unlisted: bool = False  # bookkeeping: observed, but left out of the views shown to people
    label: str | None = None  # how the views shown to people name it (the rule file's 'label'; else its name)


@define
class Program:
    """A game compiled for one player count and one choice of options."""

    name: str
    players: int
    options: dict[str, Any]
    card_names: tuple[str, ...]
    #: How each card reads to people where they see it ('label card'; else its name).
    card_labels: tuple[str, ...]
    card_kinds: tuple[int, ...]
    kind_reps: tuple[int, ...]
    unique_kinds: bool
    attribute_tables: dict[str, tuple[Any, ...]]
    zones: list[ZoneLayout]
    zone_family: tuple[int, ...]
    zone_owner: tuple[int, ...]
    phases: list[PhaseInfo]
    windows: list[WindowInfo]
    setup: Callable[..., None]
    round_end: Callable[..., None] | None
    rank_key: Callable[..., tuple[Any, ...]] | None
    ranking: str  # "keys", "finishing" or "none"
    standing_key: Callable[..., tuple[Any, ...]] | None
    game_var_init: list[Any]
    player_var_init: list[Any]
    card_var_init: list[Any]
    game_vars: list[VarInfo]
    player_vars: list[VarInfo]
    card_vars: list[VarInfo]
    uses_faces: bool
    uses_memo: bool  # whether listing legal actions calls definitions, which memoise
    line_spans: list[Span | None]
    #: The rules and announcements counted when a state counts them (``fired``), in order.
    events: tuple[str, ...]
    filename: str
    source_code: str
    #: Explains refused moves (why_illegal), in the rules' words: the code generator's.
    refusals: Refusals
    intern: dict[tuple[Any, ...], Action] = field(factory=dict)
    #: Switches the probes of a program compiled with them (``compile_game(probes=True)``), else None.
    probes: Probes | None = None
    #: Compiles the ActionChecks of every action (see ruledsl.codegen.refusal); None once done.
    checks: Callable[[], None] | None = None
    #: A one-player game's score, the number its ranking starts with (``SCORE(st, p)``), else None.
    score_key: Callable[..., Any] | None = None
    #: Each player's payoff when the game ends (``PAYOFF(st, p)``, 'payoff:'), else None: places are the returns.
    payoff: Callable[..., Any] | None = None
    #: What the returns are and what is known of them.
    utility: Utility = PLACES
    #: The card variables told to every player (written 'public'), by index: from ``card_vars``.
    told: tuple[int, ...] = field(init=False)

    def __attrs_post_init__(self) -> None:
        self.told = tuple(i for i, v in enumerate(self.card_vars) if v.visibility == "told")

    def action_checks(self) -> None:
        """Make sure every action has the ActionChecks that explain its refusal."""
        if self.checks is not None:
            build, self.checks = self.checks, None
            build()

    @property
    def n_cards(self) -> int:
        return len(self.card_names)

    def span_of_line(self, line: int) -> Span | None:
        if 1 <= line <= len(self.line_spans):
            return self.line_spans[line - 1]
        return None
