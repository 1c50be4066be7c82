"""Random playthroughs of every bundled game keep every invariant (a hypothesis state machine)."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import Phase, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    precondition,
    rule,
    run_state_machine_as_test,
)

import ruledsl
from ruledsl.engine.state import GameState
from ruledsl.loading import check_file, options_of, players_range
from tests.generate.invariants import snapshot


def option_variants(game: str, players: int) -> list[dict[str, Any]]:
    """The default options, then one at a time: each flag flipped, each other choice, and
    each number one step from its default (the defaults are those of ``players``)."""
    variants: list[dict[str, Any]] = [{}]
    for o in options_of(check_file(game), players):
        if o.kind == "flag":
            variants.append({o.name: not o.default})
        elif o.kind == "choice":
            variants.extend({o.name: c} for c in o.choices if c != o.default)
        elif o.kind == "number":
            for value in (o.default + 1, o.default - 1):
                if (o.low is None or value >= o.low) and (o.high is None or value <= o.high):
                    try:
                        ruledsl.load_game(game, players=players, options={o.name: value})
                    except ruledsl.RuleDslError:
                        continue  # refused by the game's own 'require': try the other side
                    variants.append({o.name: value})
                    break
    return variants


def configurations() -> list[tuple[str, int, dict[str, Any]]]:
    configs = []
    for name in sorted(ruledsl.bundled_games()):
        low, high = players_range(check_file(name))
        for players in range(low, high + 1):
            configs.append((name, players, {}))
        middle = low + (high - low) // 2
        for options in option_variants(name, middle)[1:]:
            configs.append((name, middle, options))
    return configs


def hidden_from(state: GameState, player: int, z: int, c: int) -> bool:
    """Whether the rule file says ``player`` cannot see card ``c`` in zone instance ``z``.

    Worked out from the zone declarations, not by asking the engine: the test must not
    trust the code it tests.
    """
    prog = state.prog
    layout = prog.zones[prog.zone_family[z]]
    face = state.face[c] if state.face is not None else None
    if face is True:
        return False
    if isinstance(face, tuple) and layout.visibility != "mover":
        return player not in face  # shown to these players ('show CARDS to P': a private look)
    if layout.visibility == "owner":
        return prog.zone_owner[z] != player
    if layout.visibility == "others":  # seen by all but its owner
        return prog.zone_owner[z] == player or face is False
    return layout.visibility == "hidden" or face is False


def permute_hidden(state: GameState, player: int, rng: random.Random) -> GameState:
    """Return a copy in which the cards ``player`` cannot see have traded places."""
    copy = state.clone()
    places = [
        (z, i) for z, cards in enumerate(copy.zones) for i, c in enumerate(cards) if hidden_from(copy, player, z, c)
    ]
    before = [copy.zones[z][i] for z, i in places]
    cards = before[:]
    rng.shuffle(cards)
    for (z, i), c in zip(places, cards):
        copy.zones[z][i] = c
        copy.loc[c] = z
    # What every player was told of a card ('card var ..., public': a hint) stays with its place.
    for values, var in zip(copy.cv, copy.prog.card_vars):
        if var.visibility == "told":
            old = [values[c] for c in before]
            for c, value in zip(cards, old):
                values[c] = value
    copy._legal = None
    return copy


def assert_views_ignore_hidden_cards(state: GameState, seed: int) -> None:
    """Every player's view is the same however the cards hidden from him lie."""
    for player in range(state.num_players):
        permuted = permute_hidden(state, player, random.Random(seed))
        assert permuted.observation(player) == state.observation(player)


class Playthrough(RuleBasedStateMachine):
    game: ruledsl.Game

    @initialize(seed=st.integers(0, 2**32 - 1))
    def deal(self, seed: int) -> None:
        self.seed = seed
        self.state = self.game.new_initial_state(seed=seed)
        self.stale: list[ruledsl.Action] = []

    def live(self) -> bool:
        return not self.state.is_terminal()

    @precondition(live)
    @rule(data=st.data())
    def play(self, data: st.DataObject) -> None:
        legal = self.state.legal_actions()
        action = data.draw(st.sampled_from(legal), label="action")
        self.stale = [a for a in legal if a != action]
        self.state.apply_action(action)
        # After every action: a copy is independent, the seed and the actions replay
        # it exactly, and no player sees the cards hidden from him.
        if self.live():
            self.clone_is_independent(data)
        self.replay_is_identical()
        self.hidden_cards_stay_hidden(data)

    def clone_is_independent(self, data: st.DataObject) -> None:
        before = snapshot(self.state)
        twin = self.state.clone()
        action = data.draw(st.sampled_from(twin.legal_actions()), label="twin action")
        twin.apply_action(action)
        assert snapshot(self.state) == before

    def replay_is_identical(self) -> None:
        again = self.game.new_initial_state(seed=self.seed)
        for action in self.state.history():
            again.apply_action(action)
        assert snapshot(again) == snapshot(self.state)

    def hidden_cards_stay_hidden(self, data: st.DataObject) -> None:
        assert_views_ignore_hidden_cards(self.state, data.draw(st.integers(0, 2**16), label="permutation"))

    @rule()
    def stale_actions_are_refused(self) -> None:
        legal = self.state.legal_actions()
        for action in self.stale[:3]:
            if action not in legal:
                with pytest.raises(ruledsl.IllegalActionError):
                    self.state.clone().apply_action(action)

    @invariant()
    def cards_are_conserved(self) -> None:
        prog = self.state.prog
        seen = sorted(c for zone in self.state.zones for c in zone)
        assert seen == list(range(prog.n_cards))
        for z, zone in enumerate(self.state.zones):
            for c in zone:
                assert self.state.loc[c] == z

    @invariant()
    def a_live_game_can_go_on(self) -> None:
        if self.live():
            assert 0 <= self.state.current_player() < self.state.num_players
            assert self.state.legal_actions()
            assert self.state.returns() == [0.0] * self.state.num_players
        else:
            assert self.state.current_player() == ruledsl.TERMINAL
            assert self.state.legal_actions() == []

    def teardown(self) -> None:
        # From whatever position the machine reached, random play goes on to the end,
        # which comes within the game's bound on actions; the cheap invariants hold at
        # every step, and the others once more at the end.
        if not hasattr(self, "state"):
            return
        rng = random.Random(self.seed)
        state = self.state
        played = len(state.history())
        while not state.is_terminal():
            assert played < state.max_actions
            played += 1
            legal = state.legal_actions()
            assert legal
            state.apply_action(rng.choice(legal))
            self.cards_are_conserved()
        self.a_live_game_can_go_on()
        assert len(state.returns()) == state.num_players
        self.replay_is_identical()
        assert_views_ignore_hidden_cards(state, rng.randrange(2**16))


CONFIGS = configurations()


@pytest.mark.parametrize(
    ("name", "players", "options"),
    CONFIGS,
    ids=[f"{n}-{p}p-" + ("-".join(f"{k}={v}" for k, v in o.items()) or "default") for n, p, o in CONFIGS],
)
def test_random_playthrough_keeps_invariants(name: str, players: int, options: dict[str, Any]) -> None:
    game = ruledsl.load_game(name, players=players, options=options)

    class Machine(Playthrough):
        pass

    Machine.game = game
    run_state_machine_as_test(Machine, settings=settings(max_examples=8, stateful_step_count=60, deadline=None))


def test_the_view_check_catches_a_view_that_shows_every_hand(monkeypatch: pytest.MonkeyPatch) -> None:
    """The hidden-card invariant above must be able to fail: break zone visibility and watch it."""
    monkeypatch.setattr(GameState, "zone_visible", lambda self, viewer, z: True)

    class Machine(Playthrough):
        pass

    Machine.game = ruledsl.load_game("quasenbo", players=3)
    quick = settings(
        max_examples=20,
        stateful_step_count=20,
        deadline=None,
        report_multiple_bugs=False,
        phases=[Phase.explicit, Phase.reuse, Phase.generate],  # no need to shrink what must fail
    )
    with pytest.raises(AssertionError):
        run_state_machine_as_test(Machine, settings=quick)
