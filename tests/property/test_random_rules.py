"""Random valid rule files (tests/generate/rules.py) keep every engine invariant (tests/generate/invariants.py).

A bounded run for CI; the long run is benchmarks/random_rules.py (docs/performance.md).
"""

from __future__ import annotations

import functools
import json
import random
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings

import ruledsl
from ruledsl.engine.state import GameState
from ruledsl.loading import check_source
from ruledsl.spaces.tensors import TensorLayout
from ruledsl.text.source import Source
from tests.generate.coverage import constructs_met, grammar_constructs
from tests.generate.invariants import FOLLOWED_SURFACES, Broken, check_invariants, play_file
from tests.generate.rules import drawn_texts, rule_texts


@settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
@given(rule_texts())
def test_a_random_rule_file_keeps_every_invariant(text: str) -> None:
    outcome = play_file(text, 0)
    assert outcome.breaks == [], text
    assert outcome.games == 1


def test_the_same_seed_draws_the_same_files_and_they_check_clean() -> None:
    texts = drawn_texts(12, seed=3)
    assert texts == drawn_texts(12, seed=3) and texts != drawn_texts(12, seed=4)
    assert len(set(texts)) >= 10
    for text in texts:
        check_source(Source("random.game", text))  # raises CheckError on any error


@functools.cache
def _files_drawn() -> list[str]:
    """The files both tests below read (drawn once: some 5 s)."""
    return drawn_texts(160, seed=1)


def test_the_files_drawn_hold_the_constructs_listed() -> None:
    joined = "\n".join(_files_drawn())  # group choices are one in a few files
    for construct in (
        "per player, owner",
        "per player, hidden",
        "per player, public",
        "seen by mover",
        "shared, public",
        "player var score = 0, owner",
        "card var marked",
        "together",
        "window snap",
        "when all pass:",
        "when all chosen:",
        "cards from hand)",
        "cards of one rank from hand",
        "deal 14 from deck to each hand",
        "move all of",
        "when cs enter p.hand:",
        "when cs enter hand:",
        "otherwise",
        "face down",
        "finish player for the round",
        "cards in sequence of rank from hand with ace wild",
        "cards in pairs in sequence of rank from hand with ace wild",
        "from {run_low(cs)} to {run_high(cs)}",
        "sorted by (suit, rank)",
        "sorted by rank",
        "unlisted when empty",
        "count sets s of cards in cs where",
        "show top of deck to player",
        "offer meld0 from play",
        "until 3 passes:",
        "add c.rank to laid",
        'label "the score"',
        'must if able size of cs >= 2, "two cards or more: you can"',
    ):
        assert construct in joined, construct


#: The constructs of the grammar (tests/generate/coverage.py) that the files drawn never use, each with why.
_NOT_DRAWN = {
    # The unparser writes the copies of a card as '3 × card', the canonical spelling; 'x' is the same
    # construct (copies) spelt in ASCII, read by the parser into the same node (tests/unit/test_parser.py).
    '"x"': "the unparser writes copies with '×'",
}


def test_the_files_drawn_use_every_construct_of_the_grammar() -> None:
    """Every rule of grammar/ruledsl.lark (its name or alias, as a parse tree holds it) and every
    keyword or symbol it spells out is met in the files drawn, but for the exceptions listed."""
    missing = grammar_constructs() - constructs_met(_files_drawn())
    assert missing - _NOT_DRAWN.keys() == set(), (
        "the generator draws none of these: add them to tests/generate/rules.py"
    )
    # An exception is a construct of the grammar, and the files drawn do not use it: else it is struck out.
    assert _NOT_DRAWN.keys() <= missing


def test_a_construct_added_to_the_grammar_and_never_drawn_is_reported() -> None:
    # Guard: the constructs are read from the grammar, not from a list; a statement added to it is missed.
    from lark import Lark

    from ruledsl.resources import grammar_path
    from ruledsl.syntax.grammar import grammar

    text = grammar_path().read_text(encoding="utf-8")
    added = text.replace("| call_stmt) _NL", '| call_stmt | frob_stmt) _NL\nfrob_stmt: "frobnicate" expr')
    assert added != text
    parser = Lark(added, **grammar().options.options)  # built as ruledsl.syntax builds it
    texts = drawn_texts(3, seed=1)
    missing = grammar_constructs(parser) - constructs_met(texts, parser)
    assert {"frob_stmt", '"frobnicate"'} <= missing
    with_it = [texts[0].replace("setup:\n", "setup:\n    frobnicate 1\n", 1)]
    assert {"frob_stmt", '"frobnicate"'} <= constructs_met(with_it, parser)


_SMALL = """\
game "g"
players 2
card rank: number
zone deck: shared, hidden
zone hand: per player, owner
deck:
    card "{rank}" for rank in 1 to 6
setup:
    shuffle deck
    deal 2 from deck to each hand
phase play:
    action lay(c: card from hand):
        move c to deck
    action rest otherwise:
        end game, draw
"""


def _small() -> tuple[ruledsl.Game, GameState]:
    from ruledsl.loading import load_checked

    game = load_checked(check_source(Source("g.game", _SMALL)), 2)
    return game, game.new_initial_state(seed=1, track=True)


def test_the_invariants_hold_in_a_small_game() -> None:
    game, state = _small()
    check_invariants(state, game, 1, random.Random(0), bot=True)


@pytest.mark.parametrize(
    ("invariant", "spoil"),
    [
        ("conserved", lambda st: st.loc.__setitem__(st.zones[1][0], 0)),
        ("knowledge", lambda st: st.known[0].__setitem__(st.zones[2][0], 1)),
        ("replay", lambda st: st.gv.__setitem__(0, 99) if st.gv else st.zones[0].reverse()),
    ],
)
def test_a_spoilt_state_breaks_its_invariant(invariant: str, spoil: object) -> None:
    # Guards: each check can fail.
    game, state = _small()
    spoil(state)  # type: ignore[operator]
    state._legal = None
    with pytest.raises(Broken) as info:
        check_invariants(state, game, 1, random.Random(0))
    assert info.value.invariant == invariant


def test_has_legal_action_disagreeing_breaks_live(monkeypatch: pytest.MonkeyPatch) -> None:
    game, state = _small()
    monkeypatch.setattr(GameState, "has_legal_action", lambda self: False)
    with pytest.raises(Broken) as info:
        check_invariants(state, game, 1, random.Random(0))
    assert info.value.invariant == "live"


def test_a_resample_that_shows_a_hidden_card_breaks_resample(monkeypatch: pytest.MonkeyPatch) -> None:
    game, state = _small()
    real = GameState.resample

    def showing(self: GameState, player: int, rng: random.Random) -> GameState:
        copy = real(self, player, rng)
        c = copy.zones[2].pop()  # P1's card goes into P0's hand
        copy.zones[1].append(c)
        copy.loc[c] = 1
        return copy

    monkeypatch.setattr(GameState, "resample", showing)
    with pytest.raises(Broken) as info:
        check_invariants(state, game, 1, random.Random(0))
    assert info.value.invariant == "resample"


def test_a_tensor_read_from_another_seats_view_breaks_tensor(monkeypatch: pytest.MonkeyPatch) -> None:
    game, state = _small()
    monkeypatch.setattr(
        TensorLayout, "state_entries", lambda self, st, seat: self.observation_entries(st.observation(0))
    )
    with pytest.raises(Broken) as info:
        check_invariants(state, game, 1, random.Random(0))
    assert info.value.invariant == "tensor" and "seat 1" in info.value.detail


def test_a_file_that_does_not_check_is_a_break() -> None:
    outcome = play_file(_SMALL.replace("move c to deck", "move c to nowhere"), 0)
    # Nor is it laid out as fmt writes it (no blank lines between declarations): a break too.
    assert [b["invariant"] for b in outcome.breaks] == ["fmt", "check"]


def test_the_benchmark_prints_its_figures_as_json(tmp_path, capsys) -> None:  # type: ignore[no-untyped-def]
    from benchmarks import random_rules

    assert random_rules.main(["--files", "3", "--seed", "7", "--json", "--out", str(tmp_path)]) == 0
    figures = json.loads(capsys.readouterr().out)
    assert (figures["files"], figures["games"]) == (3, 3)
    assert figures["actions"] > 0 and figures["breaks"] == []


def test_the_benchmark_gives_the_same_figures_in_two_processes(tmp_path, capsys) -> None:  # type: ignore[no-untyped-def]
    from benchmarks import random_rules

    runs = []
    for jobs in ("1", "2"):
        assert random_rules.main(["--files", "3", "--seed", "7", "--json", "--out", str(tmp_path), "--jobs", jobs]) == 0
        figures = json.loads(capsys.readouterr().out)
        runs.append({k: v for k, v in figures.items() if k not in ("seconds", "slowest")})
        assert sorted(i for i, _ in figures["slowest"]) == [0, 1, 2]
    assert runs[0] == runs[1]


def test_a_swap_outside_the_pickers_hand_leaves_his_picks_alone() -> None:
    """Found by the generator (file 89 of --seed 2008): a set half chosen card by card, and two cards
    of the pile swapped as twins; the picks' kinds were exchanged although neither card was the
    picker's, so the twin's picks named cards he does not hold and its listing differed."""
    text = (Path(__file__).parents[1] / "generate" / "found" / "picks_swapped_outside_the_hand.game").read_text()
    assert play_file(text, 89).breaks == []


def test_a_swap_of_his_own_unseen_card_outside_the_pool_leaves_his_picks_alone() -> None:
    """Found by the generator (file 90 of --seed 2008): a set half chosen from the hand, and the
    picker's own face-down card (in another zone of his) swapped with one of the pile; the picks'
    kinds were exchanged because the card's zone was his, though not the zone the set is chosen from."""
    text = (Path(__file__).parents[1] / "generate" / "found" / "picks_swapped_from_his_face_down_card.game").read_text()
    assert play_file(text, 90).breaks == []


def test_the_steps_of_a_group_read_in_a_menu_with_the_cards_labels() -> None:
    """Found by the generator (file 37 of --seed 1): a group chosen card by card in a game with a
    ``label card``; reading a step in a menu (the leak harness's labels, ``play``, ``serve``) called
    its label with the namer of cards, as a compiled label is called, and it crashed."""
    text = (Path(__file__).parents[1] / "generate" / "found" / "picks_read_with_card_labels.game").read_text()
    assert play_file(text, 37).breaks == []


def _engines_turn(st: GameState, seat: int, probe: object) -> object:
    """The harness's old reading of a seat's legal actions: the engine's player to act, not what he is shown."""
    if st.is_terminal() or st.current_player() != seat:
        return None
    return [str(a) for a in st.legal_actions()]


@pytest.mark.parametrize("spoilt", [False, True])
def test_a_twin_played_on_meets_a_window_offered_as_cards_lie(spoilt: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    """Which seat a window is offered to may hang on cards the next player does not see
    (tests/leaks/window_offered.game). A state twin made while it is open has it offered alike: only
    a twin played on past the move that opens it meets the case (Tichu's bombs, where the leak
    harness read the engine's player to act, not the seat's turn as he is shown it)."""
    if spoilt:
        monkeypatch.setitem(FOLLOWED_SURFACES, "legal actions", _engines_turn)
    text = (Path(__file__).parents[1] / "leaks" / "window_offered.game").read_text()
    breaks = [b for seed in range(4) for b in play_file(text, seed).breaks]
    assert [b["invariant"] for b in breaks][:1] == (["twins"] if spoilt else [])


def test_a_copy_of_a_swapped_card_chosen_is_the_same_choice_in_the_twin() -> None:
    """Found by the generator (file 336 of --seed 2008) once the twins were played on: a player lays
    his own 2a while the other 2a, hidden from him, is one of the two swapped; the twin played 3a,
    the chosen kinds exchanged though the card chosen was neither of the two."""
    text = (Path(__file__).parents[1] / "generate" / "found" / "a_copy_of_a_swapped_card_chosen.game").read_text()
    assert play_file(text, 336).breaks == []


def test_a_twin_that_takes_another_copy_of_the_kind_parts_from_its_first() -> None:
    """Found by the generator (file 170 of --seed 7): P1 lays 1b, one of the two cards swapped within
    his hand; in the twin 'lay 6b' takes another 6b lying before the swapped one, and P0, who sees
    where the cards he dealt lie ('seen by mover'), saw the hands differ. No action of the twin plays
    the same cards: the games part there, as when the player chooses one of the two."""
    text = (Path(__file__).parents[1] / "generate" / "found" / "another_copy_taken_in_the_twin.game").read_text()
    assert play_file(text, 170).breaks == []


def test_a_choice_held_in_secret_follows_a_swap_only_of_the_cards_it_chooses_from() -> None:
    """Found by the generator (file 24 of --seed 5012) once the twins were played on: P0 holds
    'offer 2b' in a phase played together, a copy of 2b in his hand, while the two cards swapped
    are the other 2b and a 3a in his hidden z1; the twin's held choice took the kinds exchanged
    (offer 3a), and his hand differed once all had chosen. As picks do, a held choice follows a
    swap only when exactly one of the two is among the cards it chooses from."""
    text = (Path(__file__).parents[1] / "generate" / "found" / "held_choice_of_a_copy_left_alone.game").read_text()
    assert play_file(text, 24).breaks == []


def test_a_choice_held_in_secret_of_a_copy_is_the_same_choice_in_the_followed_twin() -> None:
    """Found by the generator (file 21 of --seed 5012): P2 offers his own 1b in secret while the two
    cards swapped are the other 1b and a 1a, neither among the cards he chooses from; the followed
    twin offered 1a (the kinds exchanged), and his hand differed once all had chosen."""
    text = (Path(__file__).parents[1] / "generate" / "found" / "held_choice_of_his_own_copy_followed.game").read_text()
    assert play_file(text, 21).breaks == []
