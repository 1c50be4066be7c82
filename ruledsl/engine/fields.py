"""The fields of a game state, declared once: ``GameState`` holds them, and each of its parts reads them."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, TypeAlias

if TYPE_CHECKING:
    from ruledsl.engine.chance import Drawer
    from ruledsl.engine.game import Game
    from ruledsl.engine.program import Program
    from ruledsl.engine.values import Action, Said
    from ruledsl.text.source import Span

#: The actions so far, newest first, as (action, older) pairs: never changed in place, so
#: clones share it, and ``is`` tells whether anything was played since.
History: TypeAlias = "tuple[Action, History] | None"
#: Each action as each seat saw it, newest first: (actor, label per seat, older).
SeenHistory: TypeAlias = "tuple[int, tuple[str, ...], SeenHistory] | None"

#: How a card lies: face up (True), face down (False), as its zone shows it (None), or, in a
#: zone 'seen by mover', face down but seen by the player who moved it there: ``(mover,)``;
#: or seen by the players named, those who saw it where it lies and those it was shown to
#: ('show CARDS to P'), until it moves or is turned.
Face: TypeAlias = "bool | tuple[int, ...] | None"

#: Windows still to offer: (window index, the players still to be asked), first first.
Windows: TypeAlias = "list[tuple[int, list[int]]]"


class StateFields:
    """The data of one play of a game; ``GameState`` and its mixins (see ``ruledsl.engine.state``) add the behaviour.

    The slots are here, beside their types, so that every part of a state is checked against
    the same fields; the compiled rules read and write them by these names.
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
        "round_out",
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
        "last_before",
        "truncated",
        "max_actions",
        "known",
        "seen",
        "track",
        "fired",
        "origin",
        "held",
        "picking",
        # transient, while an action runs:
        "next_kind",
        "next_goto",
        "steps",
        "calls",
        "work",
        "opened",
        "memo",
        "_legal",
    )

    game: Game
    prog: Program
    n: int  # players
    zones: list[list[int]]  # the cards of each zone instance, bottom to top
    loc: list[int]  # the zone instance each card is in
    gv: list[Any]  # game variables
    pv: list[list[Any]]  # player variables: [variable][player]
    cv: list[list[Any]]  # card variables: [variable][card]
    phase: int
    turn: int  # whose turn it is; the actor differs while a window or an auction asks others
    actor: int
    direction: int  # 1 clockwise, -1 counterclockwise
    out: list[bool]  # players out of the game
    finished: list[int]  # players in the order they finished
    round_out: list[int]  # players out for this round only ('finish P for the round'), in that order
    rng: int | Drawer  # the state of ``chance``'s generator, or outcomes given from outside (the OpenSpiel bridge)
    _hist: History
    n_actions: int
    terminal: bool
    ret: list[float] | None  # the returns, once the game is over
    round: int
    auction: (
        list[Any] | None
    )  # the auction under way: [standing strength, bidder, who passed, standing bid, passes in a row]
    windows: Windows | None
    pending_phase: int | None  # where play goes once the open windows pass
    face: list[Face] | None  # each card face up, face down, as its zone shows it, or seen by its mover
    log: list[Said] | None  # lines said by the rules, when kept
    last_args: tuple[Any, ...]  # the chosen values of the last action
    last_actor: int | None
    last_shown: tuple[History, list[str]] | None  # the last action's text per viewer, fixed at a round's end
    last_revealed: tuple[History, frozenset[int]] | None  # the cards the last action revealed
    # With a log: where each card lay, and its face, when the last action was chosen
    last_before: tuple[History, list[int], list[Face] | None] | None
    truncated: bool  # stopped at max_actions
    max_actions: int
    known: list[list[int]] | None  # [player][card]: the zones it could be in, as bits (see knowledge)
    seen: SeenHistory  # kept with ``known``: each action's label as each seat saw it
    track: bool
    fired: list[int] | None  # times each of prog.events ran, when counted
    # Where a failed action rolls back from: the seed of ``new`` or a copy made by ``rebase`` (or
    # ``roll_back_to``), and the actions played before it (None: the copy's own). Never changed in
    # place: clones share it.
    origin: tuple[Any, int | None]
    #: In a phase played together: [the seats still to choose, the (seat, action) chosen so far];
    #: else None (see ``ruledsl.engine.together``).
    held: list[Any] | None
    #: A set of cards being chosen card by card: (the action, the kinds picked so far, ascending);
    #: else None (see ``ruledsl.engine.stepping``). Seen by the player to act alone.
    picking: tuple[Any, tuple[int, ...]] | None
    next_kind: int  # NEXT_TURN, AGAIN or GO_TO
    next_goto: tuple[int, int | None, Span | None] | None  # (phase, player, where) of a 'go to'
    steps: int
    calls: int
    work: int  # the elements the action's expressions went through (sorted, counted, summed...)
    opened: Windows | None  # windows the action opened
    memo: dict[Any, Any] | None  # definitions' values while legal actions are listed
    _legal: list[Action] | None
