"""Every engine invariant, checked after each action of a game; and a random rule file played under them.

``check_invariants(state, game, seed, rng)`` is the one place the invariants are written
(used by tests/property/test_random_rules.py and benchmarks/random_rules.py); it raises
``Broken(invariant, detail)`` at the first that fails:

- ``conserved``: every card lies in exactly one zone, and ``loc`` says which;
- ``live``: a live state has a legal action, and ``has_legal_action`` agrees with
  ``legal_actions`` (a state over has neither);
- ``clone``: a clone is the same state, playing on in it leaves the first untouched, and
  the same action played in two clones gives the same state;
- ``replay``: the seed and the history played again give the same state (every
  ``REPLAY_EVERY`` actions and at the end: its cost grows with the game);
- ``steps``: a group choice offered card by card, completed by random picks, is the same
  as the whole action applied at once;
- ``knowledge``: each card's true zone is among those every player thinks it may be in;
- ``resample``: a resample for a seat leaves his observation as it was;
- ``tensor``: the bridges' tensor read from the state (``TensorLayout.state_entries``) holds
  the numbers of the seat's observation, for every seat and a spectator;
- ``twins``: two cards a seat cannot see, swapped (``ruledsl.tools.leaks``), leave his
  observation, the labels of his legal actions and the reasons his moves are refused as they were,
  also once one action is played on in both (a window may then be offered in one twin only);
- ``bot``: the greedy bot chooses a legal action.

``play_file(text, seed)`` checks the file formats to itself (``fmt``), plays it with random
moves for a player count drawn from its range, checks the invariants after every action,
and returns what broke (a rule that fails at run time is a break too: the files drawn by
tests/generate/rules.py never should).
"""

from __future__ import annotations

import random
import traceback
from typing import Any

from attrs import define, field

from ruledsl.agents import decide
from ruledsl.agents.greedy import GreedyAgent
from ruledsl.engine.state import GameState
from ruledsl.engine.values import Action
from ruledsl.format.fmt import format_source
from ruledsl.loading import check_source, load_checked, players_range
from ruledsl.spaces.tensors import TensorLayout
from ruledsl.syntax.parser import parse
from ruledsl.text.errors import RuleDslError
from ruledsl.text.source import Source
from ruledsl.tools import leaks

#: The bound on actions of each game played.
MAX_ACTIONS = 200
#: How often (in actions) a game is played again from its seed, besides at its end.
REPLAY_EVERY = 20
#: The surfaces compared between a state and its swap twins.
TWIN_SURFACES = {name: leaks.SURFACES[name] for name in ("observation", "legal actions", "refusal reasons")}
#: Those compared once one action is played on in both twins (not the refusals: they cost the most).
FOLLOWED_SURFACES = {name: TWIN_SURFACES[name] for name in ("observation", "legal actions")}


class Broken(Exception):
    """An invariant that does not hold."""

    def __init__(self, invariant: str, detail: str) -> None:
        super().__init__(f"{invariant}: {detail}")
        self.invariant = invariant
        self.detail = detail


def snapshot(state: GameState) -> tuple[Any, ...]:
    """Everything that makes a state what it is, as comparable values."""
    return (
        [list(z) for z in state.zones],
        list(state.loc),
        repr(state.gv),
        repr(state.pv),
        repr(state.cv),
        state.phase,
        state.turn,
        state.actor,
        state.direction,
        list(state.out),
        list(state.finished),
        list(state.round_out),
        state.rng,
        state.terminal,
        state.returns(),
        state.round,
        repr(state.auction),
        repr(state.windows),
        repr(state.held),
        repr(state.picking),
        None if state.face is None else list(state.face),
        None if state.known is None else [list(row) for row in state.known],
        [str(a) for a in state.history()],
    )


def diff(a: Any, b: Any, path: str = "") -> str:
    """Where two values differ first (a path of keys and indexes), with both values there."""
    if isinstance(a, dict) and isinstance(b, dict):
        for k in sorted(set(a) | set(b), key=str):
            if a.get(k) != b.get(k):
                return diff(a.get(k), b.get(k), f"{path}.{k}")
    elif isinstance(a, list | tuple) and isinstance(b, list | tuple) and len(a) == len(b):
        for i, (x, y) in enumerate(zip(a, b)):
            if x != y:
                return diff(x, y, f"{path}[{i}]")
    return f"{path or 'the value'}: {a!r:.300} != {b!r:.300}"


def _check(ok: bool, invariant: str, detail: str) -> None:
    if not ok:
        raise Broken(invariant, detail)


def check_invariants(
    state: GameState, game: Any, seed: int, rng: random.Random, *, bot: bool = False, replay: bool = True
) -> None:
    """Check every invariant of the module on ``state``, played from ``seed`` (tracked); raise Broken.
    ``bot``: ask the greedy bot too; ``replay``: play the whole history again from the seed (the
    cost grows with the game: ``play_file`` does it every ``REPLAY_EVERY`` actions and at the end)."""
    n_cards = state.prog.n_cards
    _check(sorted(c for z in state.zones for c in z) == list(range(n_cards)), "conserved", f"zones {state.zones}")
    bad = [(c, z) for z, cards in enumerate(state.zones) for c in cards if state.loc[c] != z]
    _check(not bad, "conserved", f"loc disagrees for (card, zone) {bad}")

    legal = state.legal_actions()
    fresh = state.clone()
    fresh._legal = None
    has = fresh.has_legal_action()
    if state.is_terminal():
        _check(not legal and not has, "live", "a state over offers actions")
    else:
        _check(bool(legal), "live", f"no legal action in phase {state.phase_name()}")
        _check(has, "live", "has_legal_action says no where legal_actions lists some")

    _check_knowledge(state, rng)
    _check_tensors(state, game)
    before = snapshot(state)
    twin = state.clone()
    _check(snapshot(twin) == before, "clone", "a clone differs from its state")
    if legal:
        action = rng.choice(legal)
        twin.apply_action(action)
        _check(snapshot(state) == before, "clone", "playing on in a clone changed its state")
        again = state.clone()
        again.apply_action(action)
        _check(snapshot(again) == snapshot(twin), "clone", f"{action} played in two clones gives two states")
    if replay:
        _check_replay(state, game, seed, before)
    _check_steps(state, legal, rng)
    _check_twins(state, game, seed, rng, legal)
    if bot and legal and len(legal) > 1:
        seat = state.current_player()
        chosen = decide(GreedyAgent(seed=rng.randrange(2**32), samples=2, depth=2), state.clone(), seat)
        _check(chosen in legal, "bot", f"the greedy bot chose {chosen}, not among {[str(a) for a in legal]}")


#: The tensor layout of each game met lately (a layout is worked out once a game: the zones, the values).
_LAYOUTS: dict[int, tuple[Any, TensorLayout]] = {}


def _check_tensors(state: GameState, game: Any) -> None:
    """The bridges' tensors, read from the state a seat reads (``state_entries``), are those of his
    observation (``observation_entries``), for every seat and a spectator: a second way to what a
    seat sees, which must tell no more, nor less, than his observation."""
    kept = _LAYOUTS.get(id(game))
    if kept is None or kept[0] is not game:
        if len(_LAYOUTS) >= 4:
            _LAYOUTS.clear()
        kept = _LAYOUTS[id(game)] = (game, TensorLayout(game, 0))  # own ids are not read here
    layout = kept[1]
    for seat in (*range(state.n), None):
        read, shown = layout.state_entries(state, seat), layout.observation_entries(state.observation(seat))
        _check(read == shown, "tensor", f"the tensor read from the state for seat {seat}: {diff(read, shown)}")


def _check_replay(state: GameState, game: Any, seed: int, before: tuple[Any, ...]) -> None:
    """The seed and the history played again give the same state."""
    again = game.new_initial_state(seed=seed, track=True)
    for action in state.history():
        again.apply_action(action)
    if state.picking is not None:
        again.picking = state.picking  # steps stay out of the history
        again._legal = None
    _check(
        snapshot(again) == before,
        "replay",
        f"the seed and history played again differ: {diff(before, snapshot(again))}",
    )


def _check_steps(state: GameState, legal: list[Action], rng: random.Random) -> None:
    """A set chosen card by card is the whole set applied at once."""
    if state.picking is not None:
        return
    for begin in [a for a in legal if a.defn.step_role == "begin"][:2]:
        by_steps = state.clone()
        by_steps.log = []
        by_steps.apply_action(begin)
        while by_steps.picking is not None:
            by_steps.apply_action(rng.choice(by_steps.legal_actions()))
        whole = by_steps.history()[-1]
        at_once = state.clone()
        at_once.log = []
        at_once.apply_action(Action(whole.defn, whole.key))
        _check(snapshot(at_once) == snapshot(by_steps), "steps", f"{whole} by steps is not {whole} at once")
        for seat in [*range(state.num_players), None]:
            _check(at_once.observation(seat) == by_steps.observation(seat), "steps", f"{whole}: P{seat}'s view")
        _check(at_once.log == by_steps.log, "steps", f"{whole}: what the rules said")


def _check_knowledge(state: GameState, rng: random.Random) -> None:
    """Each card is where every player thinks it may be; a resample looks the same to its seat."""
    if state.known is not None:
        for q, row in enumerate(state.known):
            wrong = [c for c, z in enumerate(state.loc) if not row[c] >> z & 1]
            _check(not wrong, "knowledge", f"P{q} rules cards {wrong} out of the zones they are in")
    for seat in range(state.num_players):
        seen = state.observation(seat)
        resampled = state.resample(seat, random.Random(rng.randrange(2**32)))
        got = resampled.observation(seat)
        _check(got == seen, "resample", f"P{seat}'s observation changes in a resample: {diff(seen, got)}")


def _check_twins(state: GameState, game: Any, seed: int, rng: random.Random, legal: list[Action]) -> None:
    """Two cards a seat cannot see, swapped, leave what he reads as it was, also once one action
    is played on in both (a window the move opens may be offered to another seat in one twin only)."""
    for seat in range(state.num_players):
        probe = leaks.Probe(texts=tuple(str(a) for a in legal[:4]), actions=tuple(legal[:4]), seed=rng.randrange(2**32))
        for twin, (a, b) in leaks.twins(state, seat, rng, 1):
            cards = state.prog.card_names
            for name, surface in TWIN_SURFACES.items():
                seen, other = surface(state, seat, probe), surface(twin, seat, probe)
                why = f"P{seat}'s {name} changes when {cards[a]} and {cards[b]} swap: {diff(seen, other)}"
                _check(seen == other, "twins", why)
            if legal:
                # The action played on is not drawn from ``rng``, so that the games played stay as they were.
                report = leaks.Report()
                path, own_rng = [state.n_actions % len(legal)], random.Random(seed)
                leaks.follow(game, seed, state, twin, path, seat, (a, b), own_rng, FOLLOWED_SURFACES, report)
                if report.leaks:
                    leak = report.leaks[0]
                    why = f"P{seat}'s {leak.surface} changes when {cards[a]} and {cards[b]} swap, one action on"
                    raise Broken("twins", f"{why}: {diff(leak.seen, leak.twin_seen)}")


@define
class Outcome:
    """What playing one rule file gave."""

    games: int = 0
    actions: int = 0
    breaks: list[dict[str, Any]] = field(factory=list)


def play_file(text: str, seed: int, *, games: int = 1, max_actions: int = MAX_ACTIONS, bot_every: int = 10) -> Outcome:
    """Check ``text`` formats to itself, then play ``games`` random games of it under every invariant."""
    out = Outcome()
    try:
        formatted = format_source(text)
        if formatted != text or parse(formatted) != parse(text):
            out.breaks.append({"seed": seed, "invariant": "fmt", "detail": "the file does not format to itself"})
        checked = check_source(Source("random.game", text))
    except RuleDslError as exc:
        out.breaks.append({"seed": seed, "invariant": "check", "detail": str(exc)})
        return out
    low, high = players_range(checked)
    rng = random.Random(seed)
    for k in range(games):
        players = rng.randint(low, high)
        game_seed = seed * 1000 + k
        where = {"seed": game_seed, "players": players}
        state = None
        try:
            game = load_checked(checked, players, {}, max_actions=max_actions)
            state = game.new_initial_state(seed=game_seed, track=True)
            out.games += 1
            check_invariants(state, game, game_seed, rng)
            while not state.is_terminal():
                state.apply_action(rng.choice(state.legal_actions()))
                out.actions += 1
                bot = out.actions % bot_every == 0
                replay = out.actions % REPLAY_EVERY == 0 or state.is_terminal()
                check_invariants(state, game, game_seed, rng, bot=bot, replay=replay)
        except Broken as exc:
            out.breaks.append({**where, "actions": _played(state), "invariant": exc.invariant, "detail": exc.detail})
        except RuleDslError as exc:
            out.breaks.append({**where, "actions": _played(state), "invariant": "runtime", "detail": str(exc)})
        except Exception as exc:  # noqa: BLE001 - any other error is a crash, reported with the file
            detail = f"{type(exc).__name__}: {exc}\n{traceback.format_exc()}"
            out.breaks.append({**where, "actions": _played(state), "invariant": "crash", "detail": detail})
    return out


def _played(state: GameState | None) -> int:
    return 0 if state is None else len(state.history())
