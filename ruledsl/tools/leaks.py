"""Look for hidden cards a seat could read: swap cards he cannot see, compare every surface he reads.

A seat must learn nothing from where the cards he cannot see lie. The harness plays
random games of each rule file and makes, for each seat ``s``, twins he cannot tell apart
from them, in two ways:

- a *state twin*, at sampled states: two cards hidden from ``s`` change places (cards he
  knows the same of: the same places each could be, the same face, the same card
  variables; a variable naming one of them follows its place, as in a resample);
- the same twin *followed*: both played on side by side, each action with the two cards
  exchanged in its choices (a copy of one of them chosen stays itself), for as long as ``s``
  has seen neither and the table has been
  told the same (the rules may tell everybody something that hangs on the two cards:
  'go fish', a pair laid down; from there the games differ by the rules' own doing).
  It catches what the past tells (the labels of actions taken since, the lines the
  rules said, a resample's history), which a state twin shares with its first;
- a *held twin*, in a phase played together: the choices the others have already made in
  secret, made again at random (they take effect only once all have chosen);
- an *order twin*: in each zone, the cards hidden from ``s`` that he knows the same of
  (their places and faces; their variables may differ, they go with the cards) lie in
  reverse order. The order of cards he cannot see is not his to know: a hand kept in
  order would otherwise tell which card lies where.

Every surface he reads must give the same answer in a state and its twin; a difference
is a leak.

A surface is one function ``(state, seat, probe) -> value`` (any value ``==`` compares),
registered by name in ``SURFACES``; ``probe`` holds what must be asked the same way of
both twins (the candidate moves, a seeded generator). Later surfaces (tensors, web frames,
editor hovers) plug in with ``register("name", function)``: the harness and its tests
then check them over every shipped game.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Collection, Iterable, Iterator, Sequence
from typing import TYPE_CHECKING, Any

from attrs import define, field, frozen

from ruledsl.agents import process
from ruledsl.agents.view import SeatView
from ruledsl.engine import knowledge, stepping, together
from ruledsl.engine.fields import StateFields
from ruledsl.engine.reading import shown_action
from ruledsl.engine.state import GameState
from ruledsl.engine.values import said_to
from ruledsl.tools.records import person_view

if TYPE_CHECKING:
    from ruledsl.engine.game import Game
    from ruledsl.engine.values import Action


@frozen
class Probe:
    """What a surface asks the same way of a state and its twins."""

    texts: tuple[str, ...]  # moves as a player might type them
    actions: tuple[Action, ...]  # actions listed earlier in the game (some now illegal)
    seed: int  # for a surface that draws (a resample)


Surface = Callable[["GameState", int, Probe], Any]

#: Every surface a seat reads, by name (see ``register``).
SURFACES: dict[str, Surface] = {}


def register(name: str, surface: Surface) -> Surface:
    """Add a surface the harness checks: ``surface(state, seat, probe)`` returns what ``seat`` reads."""
    SURFACES[name] = surface
    return surface


def _observation(st: GameState, seat: int, probe: Probe) -> Any:
    return st.observation(seat)


def _legal_labels(st: GameState, seat: int, probe: Probe) -> Any:
    """His moves as he is shown them (``actions_seen_by``), not the engine's player to act: while
    a window is offered to another (whom, may hang on cards he does not see), he is shown his
    turn as it will be once it is let pass."""
    return [(str(a), shown_action(a, st.prog)) for a in st.actions_seen_by(seat)]


def _refusals(st: GameState, seat: int, probe: Probe) -> Any:
    moves: list[Any] = [*probe.texts, *probe.actions]
    return [st.why_illegal(m, player=seat) for m in moves]


def _last_action(st: GameState, seat: int, probe: Probe) -> Any:
    return st.describe_last(seat)


def _said(st: GameState, seat: int, probe: Probe) -> Any:
    """The lines the rules said since they were last taken, as he is told them."""
    return [said_to(line, seat) for line in st.log or []]


def _transcript(st: GameState, seat: int, probe: Probe) -> Any:
    """The actions so far as he saw them (the lines ``play`` and ``replay --as`` show him)."""
    return [str(a) for a in st.history_seen_by(seat)]


def _table(st: GameState, seat: int, probe: Probe) -> Any:
    """His view as ``play`` and ``replay --as`` draw it before his move."""
    return person_view(st, seat)


def _agent_view(st: GameState, seat: int, probe: Probe) -> Any:
    """All a SeatView answers, and every field of a resample it hands out (the agent's to read)."""
    view = SeatView(st, seat)
    sample = view.resample(random.Random(probe.seed))
    fields = {name: _plain(getattr(sample, name)) for name in StateFields.__slots__ if name not in _NOT_DATA}
    return (
        view.observation(),
        [str(a) for a in view.legal_actions()],
        view.is_terminal(),
        fields,
        sample.observation(seat),
        [str(a) for a in sample.history()],
        [str(a) for a in sample.legal_actions()],
        sample.describe_last(seat),
    )


def _process_agent(st: GameState, seat: int, probe: Probe) -> Any:
    """The very line a program seated as ``process:COMMAND`` is sent (``ruledsl.agents.process``)."""
    return process.message(SeatView(st, seat))


#: Fields of a state that hold no game data: the rules themselves, and what is compared as labels.
_NOT_DATA = frozenset({"game", "prog", "_hist", "_legal"})


def _plain(value: Any) -> Any:
    """A field's value with its histories (linked tuples of actions) as labels, so that ``==`` compares them."""
    if isinstance(value, tuple | list):
        return [_plain(v) for v in value]
    if type(value).__name__ == "Action":
        return str(value)
    if isinstance(value, GameState):
        # A resample's ``origin`` holds the copy a failed action rolls back to: compare its data
        # (its own ``origin`` points back at itself).
        return {name: _plain(getattr(value, name)) for name in StateFields.__slots__ if name not in _ORIGIN_FREE}
    return value


_ORIGIN_FREE = _NOT_DATA | {"origin"}


for _name, _surface in (
    ("observation", _observation),
    ("legal actions", _legal_labels),
    ("refusal reasons", _refusals),
    ("last action", _last_action),
    ("said", _said),
    ("transcript", _transcript),
    ("table", _table),
    ("agent view", _agent_view),
    ("process agent", _process_agent),
):
    register(_name, _surface)


# ============================================================================ twins


def hidden_pairs(st: GameState, seat: int, rng: random.Random, most: int) -> list[tuple[int, int]]:
    """Up to ``most`` pairs of cards hidden from ``seat`` that he knows the same of, at random."""
    hidden = [c for c in range(len(st.loc)) if not st.sees(seat, c)]
    names = st.prog.card_names
    pairs = [(a, b) for i, a in enumerate(hidden) for b in hidden[i + 1 :] if names[a] != names[b]]
    rng.shuffle(pairs)
    found: list[tuple[int, int]] = []
    for a, b in pairs:
        if len(found) >= most:
            break
        if _alike(st, seat, a, b) and _unseen_when_swapped(st, seat, a, b):
            found.append((a, b))
    return found


def twins(st: GameState, seat: int, rng: random.Random, most: int) -> Iterator[tuple[GameState, tuple[int, int]]]:
    """Yield up to ``most`` state twins of ``st`` for ``seat`` (see the module), each with its two cards."""
    for a, b in hidden_pairs(st, seat, rng, most):
        twin = st.clone()
        swap(twin, a, b)
        yield twin, (a, b)


def held_twins(st: GameState, seat: int, rng: random.Random, most: int) -> Iterator[GameState]:
    """Yield up to ``most`` twins of ``st`` whose choices held for other seats than ``seat`` (in a
    phase played together) are made again at random: he must not tell them from ``st``."""
    if st.held is None or all(q == seat for q, _ in st.held[1]):
        return
    for _ in range(most):
        twin = st.clone()
        together.rechoose_at_random(twin, seat, rng)
        if twin.held != st.held:
            yield twin


def order_twin(st: GameState, seat: int) -> GameState | None:
    """Return ``st`` with the cards hidden from ``seat`` that he knows the same of lying in
    reverse order in each zone (see the module), or None if that changes nothing."""
    twin = st.clone()
    # Cards a variable names stay in place: where such a card lies may be known (the card drawn
    # lies on top of the hand), and a resample makes the variable name the card dealt there.
    named = knowledge.cards_named(st)
    for cards in twin.zones:
        alike: dict[Any, list[int]] = {}
        for i, c in enumerate(cards):
            if not st.sees(seat, c) and c not in named:
                face = None if st.face is None else st.face[c]
                told = tuple(st.cv[i][c] for i in st.prog.told)
                alike.setdefault((None if st.known is None else st.known[seat][c], face, told), []).append(i)
        for places in alike.values():
            for i, c in zip(places, [cards[i] for i in reversed(places)]):
                cards[i] = c
    if twin.zones == st.zones:
        return None
    twin._legal = None
    return twin


def swap(st: GameState, a: int, b: int) -> None:
    """Exchange cards ``a`` and ``b`` in ``st``: each takes the other's place and face, a variable
    naming one names the other (their own variables are alike: see ``_alike``), and a choice held
    in a phase played together takes the other's cards."""
    pool = stepping.picking_pool(st)
    held_pools = None if st.held is None else [_chosen_from(st, q, held.defn) for q, held in st.held[1]]
    za, zb = st.loc[a], st.loc[b]
    ia, ib = st.zones[za].index(a), st.zones[zb].index(b)
    st.zones[za][ia], st.zones[zb][ib] = b, a
    st.loc[a], st.loc[b] = zb, za
    if st.face is not None:
        st.face[a], st.face[b] = st.face[b], st.face[a]
    knowledge._remap_variables(st, {a: b, b: a})
    knowledge.told_stay(st, {a: b, b: a})
    st._legal = None
    if st.held is not None and held_pools is not None:
        # A choice held in secret holds the two cards' kinds exchanged when one of them goes among
        # the cards it chooses from, as a set picked card by card does (below); None: not known.
        kinds = st.prog.card_kinds
        exchanged = {kinds[a]: kinds[b], kinds[b]: kinds[a]}
        st.held[1] = [
            (
                q,
                held
                if chosen is not None and (a in chosen) == (b in chosen)
                else _matching(together.legal_for(st, q), held, exchanged) or held,
            )
            for (q, held), chosen in zip(st.held[1], held_pools)
        ]
    if (a in pool) != (b in pool):
        # A set half chosen card by card holds the two cards' kinds exchanged, as the cards it is
        # chosen from do when one of them goes among them (two swapped elsewhere leave his picks alone).
        kinds = st.prog.card_kinds
        exchanged = {kinds[a]: kinds[b], kinds[b]: kinds[a]}
        assert st.picking is not None  # a pool is only given while picking
        defn, picked = st.picking
        st.picking = (defn, tuple(exchanged.get(k, k) for k in picked))


def _chosen_from(st: GameState, q: int, defn: Any) -> set[int] | None:
    """The cards seat ``q``'s action ``defn`` chooses among, its earlier choices not known; None where
    a pool of it cannot be told so (it hangs on an earlier choice)."""
    st.prog.action_checks()
    checks = defn.checks
    if checks is None:
        return None
    args = (None,) * len(checks.choices)
    cards: set[int] = set()
    for choice in checks.choices:
        if choice.kind in ("number", "value", "player"):
            continue
        try:
            pool = choice.domain(st, q, args)
        except Exception:  # a pool read from an earlier choice, unknown here
            return None
        pool = pool if choice.kind == "card" else pool[0]
        if pool is None:
            return None
        cards.update(pool)
    return cards


def _laid(st: GameState, a: int, b: int) -> bool:
    """Whether ``a`` or ``b`` lies in a zone 'seen by mover': who laid it belongs to its place (a
    swap leaves it there, as a resample does), and a seat who laid neither cannot tell it from
    any other card he does not see."""
    assert st.face is not None
    return isinstance(st.face[a], tuple) or isinstance(st.face[b], tuple)


def _alike(st: GameState, seat: int, a: int, b: int) -> bool:
    """Whether ``seat`` knows the same of cards ``a`` and ``b`` (and sees neither)."""
    if st.sees(seat, a) or st.sees(seat, b):
        return False
    if st.known is None or st.known[seat][a] != st.known[seat][b]:
        return False
    if st.face is not None and st.face[a] != st.face[b] and not _laid(st, a, b):
        return False
    revealed = st.last_revealed
    if revealed is not None and revealed[0] is st._hist and (a in revealed[1] or b in revealed[1]):
        return False
    # Those told to every player stay with the places (see ``swap``): they may differ.
    return all(values[a] == values[b] for i, values in enumerate(st.cv) if i not in st.prog.told)


def _unseen_when_swapped(st: GameState, seat: int, a: int, b: int) -> bool:
    twin = st.clone()
    swap(twin, a, b)
    return not (twin.sees(seat, a) or twin.sees(seat, b))


def _mapped(
    after: GameState, twin: GameState, action: Action, cards: tuple[int, int], pool: Collection[int] | None
) -> Action | None:
    """The action of ``twin`` that plays ``action`` (just played, giving ``after``) on the same
    cards, or None: a card it chose that is one of the two swapped is the other in the twin; any
    other card stays itself, a copy of one of the two among them. Where the cards chosen are known
    by their kinds alone, the kinds are exchanged, as ``swap`` does, when one of the two is in the
    ``pool`` they were chosen from (None: not known): a card picked in a set made card by card, a
    choice held in secret (its effects, which name the cards, wait until all have chosen)."""
    a, b = cards
    kinds = after.prog.card_kinds
    defn = action.defn
    exchanged = {kinds[a]: kinds[b], kinds[b]: kinds[a]}
    if defn.step_role == "pick" or defn.is_held:
        follows = pool is None or (a in pool) != (b in pool)
        return _matching(twin.legal_actions(), action, exchanged if follows else {})
    chosen = after.last_args  # the cards themselves, where the key names their kinds
    if len(chosen) != len(action.key):
        return _matching(twin.legal_actions(), action, exchanged)
    other = {a: b, b: a}
    want: list[Any] = []
    for i, value in enumerate(action.key):
        if isinstance(value, tuple):
            want.append(sorted(kinds[other.get(c, c)] for c in chosen[i]))
        elif i in defn.card_choices and isinstance(value, int) and value >= 0:
            want.append(kinds[other.get(chosen[i], chosen[i])])
        else:
            want.append(value)
    return _keyed(twin.legal_actions(), defn, want)


def _matching(candidates: list[Action], action: Action, kinds: dict[int, int]) -> Action | None:
    """The one of ``candidates`` that is ``action`` with the two cards' kinds exchanged, or None."""
    defn = action.defn
    want: list[Any] = []
    for i, value in enumerate(action.key):
        if isinstance(value, tuple):
            want.append(sorted(kinds.get(k, k) for k in value))
        elif (i in defn.card_choices or defn.step_role == "pick") and isinstance(value, int) and value >= 0:
            want.append(kinds.get(value, value))
        else:
            want.append(value)
    return _keyed(candidates, defn, want)


def _played_alike(st: GameState, twin: GameState, action: Action, cards: tuple[int, int]) -> bool:
    """Whether ``twin``'s last action chose the cards ``action`` chose in ``st``, the two swapped
    exchanged: a choice by kind takes the first card of that kind, which in the twin may be another
    copy. (Picks and choices held in secret are known by their kinds alone.)"""
    defn = action.defn
    if defn.step_role is not None or defn.is_held or not len(st.last_args) == len(twin.last_args) == len(action.key):
        return True
    a, b = cards
    other = {a: b, b: a}
    for i, value in enumerate(action.key):
        if isinstance(value, tuple):
            if sorted(other.get(c, c) for c in st.last_args[i]) != sorted(twin.last_args[i]):
                return False
        elif i in defn.card_choices and other.get(st.last_args[i], st.last_args[i]) != twin.last_args[i]:
            return False
    return True


def _keyed(candidates: list[Action], defn: Any, want: list[Any]) -> Action | None:
    """The one of ``candidates`` of rule ``defn`` whose key is ``want`` (a group's kinds sorted), or None."""
    for other in candidates:
        if other.defn is defn and len(other.key) == len(want):
            got = [sorted(v) if isinstance(v, tuple) else v for v in other.key]
            if got == want:
                return other
    return None


# ============================================================================ the run


@frozen
class Leak:
    """A surface that read differently in two states its seat cannot tell apart."""

    game: str
    players: int
    seed: int
    actions: int  # played before the state
    seat: int
    surface: str
    cards: tuple[str, str]  # the two cards swapped
    seen: Any
    twin_seen: Any
    twin: str = "state"  # or "followed": played on from a state twin; "held": the others' secret choices

    def __str__(self) -> str:
        return (
            f"{self.game} ({self.players} players, seed {self.seed}, after {self.actions} actions, {self.twin} twin): "
            f"P{self.seat}'s {self.surface} changes when {self.cards[0]} and {self.cards[1]} swap: "
            f"{self.seen!r} != {self.twin_seen!r}"
        )


@define
class Report:
    """What a run compared, and the leaks it found."""

    states: int = 0  # (state, seat) pairs looked at
    comparisons: int = 0  # twin x surface comparisons
    followed: int = 0  # twins played on side by side
    leaks: list[Leak] = field(factory=list)
    by_surface: dict[str, int] = field(factory=dict)


def check_game(
    game: Game,
    seeds: Iterable[int],
    samples: int,
    swaps: int,
    report: Report,
    surfaces: dict[str, Surface] | None = None,
    steps: int = 400,
    ahead: int = 24,
) -> Report:
    """Play one random game per seed; at ``samples`` of its states (the deal among them) compare
    every surface of each seat in ``swaps`` twins, then follow each twin for up to ``ahead``
    actions (see the module); add what was found to ``report``."""
    surfaces = SURFACES if surfaces is None else surfaces
    for seed in seeds:
        rng = random.Random(seed)
        path = _random_path(game, seed, rng, steps)
        at = {0, *rng.sample(range(len(path) + 1), min(samples, len(path) + 1) - 1)}
        st = game.new_initial_state(seed=seed, log=True, track=True)
        st.take_log()
        seen_actions: list[Action] = []
        for i in range(len(path) + 1):
            if i in at:
                for seat in range(st.num_players):
                    probe = _probe(st, seat, seen_actions, rng)
                    for twin, cards in twins(st, seat, rng, swaps):
                        _compare(game, seed, st, twin, seat, cards, probe, surfaces, report, "state")
                        follow(game, seed, st, twin, path[i : i + ahead], seat, cards, rng, surfaces, report)
                    for twin in held_twins(st, seat, rng, swaps):
                        _compare(game, seed, st, twin, seat, None, probe, surfaces, report, "held")
                    reordered = order_twin(st, seat)
                    if reordered is not None:
                        _compare(game, seed, st, reordered, seat, None, probe, surfaces, report, "order")
                    report.states += 1
            if i == len(path):
                break
            legal = st.legal_actions()
            seen_actions.extend(legal[:4])
            del seen_actions[:-24]
            st.apply_action(legal[path[i]])
            st.take_log()
    return report


def _random_path(game: Game, seed: int, rng: random.Random, steps: int) -> list[int]:
    """The index of each random action of one game (at most ``steps`` of them)."""
    st = game.new_initial_state(seed=seed)
    path: list[int] = []
    while not st.is_terminal() and len(path) < steps:
        legal = st.legal_actions()
        if not legal:
            break
        path.append(rng.randrange(len(legal)))
        st.apply_action(legal[path[-1]])
    return path


#: After how many actions a followed twin is compared on every surface (every action: what the rules said).
_LOOKS = frozenset({1, 2, 4, 8, 16, 32})


def follow(
    game: Game,
    seed: int,
    start: GameState,
    start_twin: GameState,
    path: Sequence[int],
    seat: int,
    cards: tuple[int, int],
    rng: random.Random,
    surfaces: dict[str, Surface],
    report: Report,
) -> None:
    """Play on from a state and its twin side by side (each action with the two cards exchanged
    in its choices: see ``_mapped``), comparing what ``seat`` reads, until he sees one of the two cards or the
    table is told something that hangs on them."""
    a, b = cards
    st, twin = start.clone(), start_twin.clone()
    st.log, twin.log = [], []  # kept, as in play: describe_last names a card all saw before it moved
    report.followed += 1
    seen_actions: list[Action] = []
    for step, index in enumerate(path, start=1):
        if st.is_terminal():
            return
        legal = st.legal_actions()
        action = legal[index]
        pool: Collection[int] | None = []
        if action.defn.step_role == "pick":
            pool = stepping.picking_pool(st)
        elif action.defn.is_held:
            pool = _chosen_from(st, st.current_player(), action.defn)
        st.apply_action(action)
        other = _mapped(st, twin, action, cards, pool)
        if other is None:
            return  # the player to act chose one of the two cards, and the games part
        seen_actions.extend(legal[:4])
        del seen_actions[:-24]
        twin.apply_action(other)
        if not _played_alike(st, twin, action, cards):
            return  # the twin's action took another copy of a kind: none there plays the same cards
        said, twin_said = st.take_log(seat), twin.take_log(seat)
        if not (_alike(st, seat, a, b) and _alike(twin, seat, b, a)) or _public(st, seat) != _public(twin, seat):
            # He saw one of them, or the rules told the table something that hangs on them
            # ('go fish', a pair laid down): from here the games differ by the rules' own doing.
            return
        if said != twin_said:
            report.leaks.append(_leak(game, seed, st, seat, "said", cards, "followed", said, twin_said))
        if step in _LOOKS:
            probe = _probe(st, seat, seen_actions, rng)
            _compare(game, seed, st, twin, seat, cards, probe, surfaces, report, "followed")


def _public(st: GameState, seat: int) -> Any:
    """What the whole table sees (zone sizes, cards in sight of all, variables), with the
    seat's own (his private variables) too: the part of his view the rules may make hang
    on hidden cards by telling everybody."""
    obs = st.observation(seat)
    obs.pop("legal_actions", None)
    obs["zones"] = [[c if st.sees(None, c) else None for c in z] for z in st.zones]
    # What the table is told of each place's card ('card var ..., public': a hint given on it).
    obs["told"] = [[[st.cv[i][c] for c in z] for z in st.zones] for i in st.prog.told]
    return obs, st.describe_last(None)


def _probe(st: GameState, seat: int, seen_actions: Sequence[Action], rng: random.Random) -> Probe:
    return Probe(texts=_typed_moves(st, seat, rng), actions=tuple(seen_actions), seed=rng.randrange(2**32))


def _compare(
    game: Game,
    seed: int,
    st: GameState,
    twin: GameState,
    seat: int,
    cards: tuple[int, int] | None,
    probe: Probe,
    surfaces: dict[str, Surface],
    report: Report,
    kind: str,
) -> None:
    for name, surface in surfaces.items():
        report.comparisons += 1
        report.by_surface[name] = report.by_surface.get(name, 0) + 1
        seen, other = surface(st, seat, probe), surface(twin, seat, probe)
        if seen != other:
            report.leaks.append(_leak(game, seed, st, seat, name, cards, kind, seen, other))


def _leak(
    game: Game,
    seed: int,
    st: GameState,
    seat: int,
    surface: str,
    cards: tuple[int, int] | None,
    kind: str,
    seen: Any,
    other: Any,
) -> Leak:
    names = st.prog.card_names
    # A held twin swaps no cards: what differs is the others' secret choices; an order twin, the order.
    if cards is not None:
        pair = (names[cards[0]], names[cards[1]])
    elif kind == "order":
        pair = ("the hidden cards of each zone", "the same in reverse order")
    else:
        pair = ("the others' held choices", "others")
    return Leak(game.name, game.players, seed, st.n_actions, seat, surface, pair, seen, other, kind)


def _typed_moves(st: GameState, seat: int, rng: random.Random) -> tuple[str, ...]:
    """Moves a player might type: the labels he was shown, and each action of the game with a
    few card names (drawn from all of the game's cards, never from where they are)."""
    prog = st.prog
    texts = [str(a) for a in st.history_seen_by(seat)[-6:]]
    texts += [str(a) for a in st.actions_seen_by(seat)[:6]]
    parts: list[Any] = [*prog.phases, *prog.windows]
    defs = [d for part in parts for d in part.actions]
    names = sorted(set(prog.card_names))
    for defn in rng.sample(defs, min(4, len(defs))):
        verb = defn.name.replace("_", " ")
        texts.append(verb)
        texts += [f"{verb} {name}" for name in rng.sample(names, min(3, len(names)))]
    return tuple(dict.fromkeys(texts))


def run(
    games: Sequence[Game], seeds: int, samples: int, swaps: int, surfaces: dict[str, Surface] | None = None
) -> Report:
    """Check each game over ``seeds`` random plays (see ``check_game``); return one report."""
    report = Report()
    for game in games:
        check_game(game, range(seeds), samples, swaps, report, surfaces)
    return report
