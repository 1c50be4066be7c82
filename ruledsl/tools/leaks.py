"""Look for hidden cards a seat could read: swap cards he cannot see, compare every surface he reads.

A seat must learn nothing from where the cards he cannot see lie. The harness plays
random games of each rule file, and at sampled states, for a seat ``s``, makes twins of
the state in which two cards hidden from ``s`` have changed places (cards he knows the
same of: the same places each could be, the same face, the same card variables; any
variable naming one of them follows its place, as in a resample). Each twin is a state
he cannot tell from the first, so every surface he reads must give the same answer in
both; a difference is a leak.

A surface is one function ``(state, seat, probe) -> value`` (any value ``==`` compares),
registered by name in ``SURFACES``; ``probe`` holds what must be asked the same way of
both twins (the candidate moves, a seeded generator). Later surfaces (tensors, web frames,
editor hovers) plug in with ``register("name", function)``: the harness and its tests
then check them over every shipped game.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import TYPE_CHECKING, Any

from attrs import define, field, frozen

from ruledsl.agents.view import SeatView
from ruledsl.engine import knowledge
from ruledsl.engine.reading import shown_action
from ruledsl.tools.records import describe_view, labels_by_name

if TYPE_CHECKING:
    from ruledsl.engine.game import Game
    from ruledsl.engine.state import GameState
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
    if st.is_terminal() or st.current_player() != seat:
        return None
    return [(str(a), shown_action(a, st.prog)) for a in st.legal_actions()]


def _refusals(st: GameState, seat: int, probe: Probe) -> Any:
    moves: list[Any] = [*probe.texts, *probe.actions]
    return [st.why_illegal(m, player=seat) for m in moves]


def _last_action(st: GameState, seat: int, probe: Probe) -> Any:
    return st.describe_last(seat)


def _transcript(st: GameState, seat: int, probe: Probe) -> Any:
    """The actions so far as he saw them (the lines ``play`` and ``replay --as`` show him)."""
    return [str(a) for a in st.history_seen_by(seat)]


def _table(st: GameState, seat: int, probe: Probe) -> Any:
    """His view as ``play`` and ``replay --as`` draw it before his move."""
    return describe_view(st.observation(seat), seat, labels_by_name(st.prog))


def _agent_view(st: GameState, seat: int, probe: Probe) -> Any:
    view = SeatView(st, seat)
    sample = view.resample(random.Random(probe.seed))
    return (
        view.observation(),
        [str(a) for a in view.legal_actions()],
        view.is_terminal(),
        sample.zones,
        sample.observation(seat),
        [str(a) for a in sample.history()],
        [str(a) for a in sample.legal_actions()],
    )


for _name, _surface in (
    ("observation", _observation),
    ("legal actions", _legal_labels),
    ("refusal reasons", _refusals),
    ("last action", _last_action),
    ("transcript", _transcript),
    ("table", _table),
    ("agent view", _agent_view),
):
    register(_name, _surface)


# ============================================================================ twins


def twins(st: GameState, seat: int, rng: random.Random, most: int) -> Iterator[tuple[GameState, tuple[int, int]]]:
    """Yield up to ``most`` copies of ``st``, each with two cards hidden from ``seat`` swapped
    (cards he knows the same of; see the module's docstring), and the two cards."""
    hidden = [c for c in range(len(st.loc)) if not st.sees(seat, c)]
    names = st.prog.card_names
    pairs = [(a, b) for i, a in enumerate(hidden) for b in hidden[i + 1 :] if names[a] != names[b]]
    rng.shuffle(pairs)
    made = 0
    for a, b in pairs:
        if made >= most:
            return
        if not _alike(st, seat, a, b):
            continue
        twin = _swapped(st, a, b)
        if twin.sees(seat, a) or twin.sees(seat, b):
            continue
        made += 1
        yield twin, (a, b)


def _alike(st: GameState, seat: int, a: int, b: int) -> bool:
    """Whether ``seat`` knows the same of cards ``a`` and ``b``."""
    if st.known is None or st.known[seat][a] != st.known[seat][b]:
        return False
    if st.face is not None and st.face[a] != st.face[b]:
        return False
    return all(values[a] == values[b] for values in st.cv)


def _swapped(st: GameState, a: int, b: int) -> GameState:
    twin = st.clone()
    za, zb = st.loc[a], st.loc[b]
    ia, ib = twin.zones[za].index(a), twin.zones[zb].index(b)
    twin.zones[za][ia], twin.zones[zb][ib] = b, a
    twin.loc[a], twin.loc[b] = zb, za
    knowledge._remap_variables(twin, {a: b, b: a})
    twin._legal = None
    return twin


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

    def __str__(self) -> str:
        return (
            f"{self.game} ({self.players} players, seed {self.seed}, after {self.actions} actions): "
            f"P{self.seat}'s {self.surface} changes when {self.cards[0]} and {self.cards[1]} swap: "
            f"{self.seen!r} != {self.twin_seen!r}"
        )


@define
class Report:
    """What a run compared, and the leaks it found."""

    states: int = 0  # (state, seat) pairs looked at
    comparisons: int = 0  # twin x surface comparisons
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
) -> Report:
    """Play one random game per seed, and at ``samples`` states of each compare every surface of
    each seat over ``swaps`` twins (see the module's docstring); add what was found to ``report``."""
    surfaces = SURFACES if surfaces is None else surfaces
    for seed in seeds:
        rng = random.Random(seed)
        st = game.new_initial_state(seed=seed, log=True, track=True)
        seen_actions: list[Action] = []
        path: list[int] = []
        # Play the game once to know its length, then sample the states to check in it.
        moves = 0
        probe_state = st.clone()
        while not probe_state.is_terminal() and moves < steps:
            legal = probe_state.legal_actions()
            if not legal:
                break
            k = rng.randrange(len(legal))
            path.append(k)
            probe_state.apply_action(legal[k])
            moves += 1
        at = set(rng.sample(range(len(path) + 1), min(samples, len(path) + 1)))
        for i in range(len(path) + 1):
            if i in at:
                _check_state(game, seed, st, seen_actions, rng, swaps, surfaces, report)
            if i == len(path):
                break
            legal = st.legal_actions()
            seen_actions.extend(legal[:4])
            del seen_actions[:-24]
            st.apply_action(legal[path[i]])
            st.take_log()
    return report


def _check_state(
    game: Game,
    seed: int,
    st: GameState,
    seen_actions: Sequence[Action],
    rng: random.Random,
    swaps: int,
    surfaces: dict[str, Surface],
    report: Report,
) -> None:
    for seat in range(st.num_players):
        probe = Probe(texts=_typed_moves(st, seat, rng), actions=tuple(seen_actions), seed=rng.randrange(2**32))
        seen = {name: surface(st, seat, probe) for name, surface in surfaces.items()}
        report.states += 1
        for twin, (a, b) in twins(st, seat, rng, swaps):
            for name, surface in surfaces.items():
                report.comparisons += 1
                report.by_surface[name] = report.by_surface.get(name, 0) + 1
                other = surface(twin, seat, probe)
                if other != seen[name]:
                    names = st.prog.card_names
                    report.leaks.append(
                        Leak(
                            game.name,
                            game.players,
                            seed,
                            st.n_actions,
                            seat,
                            name,
                            (names[a], names[b]),
                            seen[name],
                            other,
                        )
                    )


def _typed_moves(st: GameState, seat: int, rng: random.Random) -> tuple[str, ...]:
    """Moves a player might type: the labels he was shown, and each action of the game with a
    few card names (drawn from all of the game's cards, never from where they are)."""
    prog = st.prog
    texts = [str(a) for a in st.history_seen_by(seat)[-6:]]
    if st.current_player() == seat:
        texts += [str(a) for a in st.legal_actions()[:6]]
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
