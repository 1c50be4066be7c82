"""A phase played together (issue 29, item 1): the checker's errors (E499), fmt, and a property over random play."""

from __future__ import annotations

import random
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

import ruledsl
from ruledsl.engine import together
from ruledsl.format.fmt import format_source
from ruledsl.syntax.parser import parse
from tests.unit.test_checker import MINIMAL, NEXT_LINE, append, diagnostics, replace, summary

SEALED_BID = Path(__file__).parents[1] / "leaks" / "sealed_bid.game"

#: The minimal game, going to a phase played together.
TOGETHER = append(
    "phase pick together:\n"
    "    action take(c: card from deck):\n"
    "        move c to hand\n"
    "    when all chosen:\n"
    "        go to play\n",
    replace("shuffle deck", "go to pick"),
)


def found(text: str) -> list[tuple[str, str]]:
    return [(d.code, d.message) for d in diagnostics(text)]


class TestChecker:
    def test_a_phase_played_together_checks_clean(self) -> None:
        assert diagnostics(TOGETHER) == ()

    def test_for_some_players_checks_clean(self) -> None:
        assert diagnostics(TOGETHER.replace("pick together:", "pick together for left of player:")) == ()

    def test_without_when_all_chosen_is_e499(self) -> None:
        text = TOGETHER.replace("    when all chosen:\n        go to play\n", "")
        assert [summary(d) for d in diagnostics(text)] == [
            (
                "E499",
                "phase 'pick' is played together but has no 'when all chosen:'",
                NEXT_LINE,
                1,
                "say where play goes once every choice has taken effect: when all chosen: go to <phase>",
            )
        ]

    def test_go_to_in_a_held_action_is_e499(self) -> None:
        text = TOGETHER.replace("        move c to hand\n", "        move c to hand\n        go to play\n")
        assert [summary(d) for d in diagnostics(text)] == [
            (
                "E499",
                "'go to' in action 'take' of phase 'pick', played together: its effects are held until all have "
                "chosen, and then run one after another",
                NEXT_LINE + 3,
                9,
                "decide where play goes in 'when all chosen:'",
            )
        ]

    def test_again_through_a_procedure_is_e499(self) -> None:
        text = append("to more:\n    again\n", TOGETHER.replace("        move c to hand\n", "        more\n"))
        assert ("E499", "'again' in action 'take' of phase 'pick', played together: its effects are held until "
                "all have chosen, and then run one after another") in found(text)  # fmt: skip

    def test_one_action_without_choices_is_e499(self) -> None:
        text = TOGETHER.replace("take(c: card from deck):\n        move c to hand", 'take:\n        say "took"')
        assert found(text) == [
            (
                "E499",
                "phase 'pick' is played together, but its one action 'take' has no choices: there is nothing to "
                "choose in secret",
            )
        ]

    def test_several_actions_without_choices_are_a_secret_choice(self) -> None:
        text = TOGETHER.replace(
            "take(c: card from deck):\n        move c to hand",
            'rock:\n        say "rock"\n    action paper:\n        say "paper"',
        )
        assert diagnostics(text) == ()

    def test_when_all_chosen_outside_a_phase_played_together_is_e499(self) -> None:
        text = MINIMAL + "    when all chosen:\n        end game\n"
        assert found(text) == [("E499", "'when all chosen' belongs in a phase played together")]

    def test_a_second_when_all_chosen_is_e202(self) -> None:
        text = TOGETHER + "    when all chosen:\n        end game\n"
        assert found(text) == [("E202", "phase 'pick' has a second 'when all chosen:'")]

    def test_together_for_a_number_is_e301(self) -> None:
        text = TOGETHER.replace("pick together:", "pick together for 3:")
        assert found(text) == [("E301", "a phase is played together by players, not a number")]


class TestFormat:
    def test_fmt_keeps_a_phase_played_together(self) -> None:
        text = SEALED_BID.read_text(encoding="utf-8")
        assert format_source(text, str(SEALED_BID)) == text

    def test_fmt_writes_for_players_back(self) -> None:
        text = TOGETHER.replace("pick together:", "pick together for players:")
        assert parse(format_source(text, "t.game"), "t.game") == parse(text, "t.game")
        assert "phase pick together for players:\n" in format_source(text, "t.game")


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), players=st.integers(2, 4))
def test_random_play_never_shows_a_held_choice(seed: int, players: int) -> None:
    """Property: in random play, at every state of a phase played together, each seat reads the same
    (view, last action, transcript, his own moves) whatever the others have chosen in secret; the
    cards are conserved and the game ends."""
    game = ruledsl.load_game(str(SEALED_BID), players=players)
    rng = random.Random(seed)
    state = game.new_initial_state(seed=seed, track=True)
    n_cards = state.prog.n_cards
    while not state.is_terminal():
        assert sum(len(z) for z in state.zones) == n_cards
        if state.held is not None:
            for seat in range(players):
                twin = state.clone()
                together.rechoose_at_random(twin, seat, rng)
                for read in (
                    lambda s, q=seat: s.observation(q),
                    lambda s, q=seat: s.describe_last(q),
                    lambda s, q=seat: [str(a) for a in s.history_seen_by(q)],
                    lambda s, q=seat: [str(a) for a in s.legal_actions()] if s.current_player() == q else None,
                ):
                    assert read(state) == read(twin)
        state.apply_action(rng.choice(state.legal_actions()))
    assert state.n_actions <= 3 * players
