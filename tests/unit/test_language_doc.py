"""docs/language.md: every complete rule file it shows (a ```game block) checks clean, and plays as the text says."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import ruledsl
from ruledsl.analysis.context import BUILTIN_NAMES
from ruledsl.loading import check_file
from ruledsl.syntax.grammar import reserved_words
from ruledsl.tools.compare import compare, outcome_rows, report_lines
from ruledsl.tools.records import result_lines
from ruledsl.tools.simulate import play_game, summarize
from tests.golden.test_golden import run_cli
from tests.scenarios.support import act, hand, labels

DOC = Path(__file__).resolve().parents[2] / "docs" / "language.md"
# A block marked as a fragment (docs/index.md) is part of a file, not a whole one.
_BLOCK = re.compile(r"(<!-- fragment -->\n)?^```game\n(.*?)^```$", re.MULTILINE | re.DOTALL)


def doc_games() -> dict[str, str]:
    """The rule files of the doc, by game name."""
    found = {}
    for fragment, text in _BLOCK.findall(DOC.read_text(encoding="utf-8")):
        if fragment:
            continue
        name = re.match(r'game "([^"]+)"', text)
        assert name is not None, f"a ```game block must open with its header: {text[:40]!r}"
        found[name.group(1)] = text
    return found


def load(tmp_path: Path, name: str, players: int = 2) -> ruledsl.GameState:
    path = tmp_path / "doc.game"
    path.write_text(doc_games()[name], encoding="utf-8")
    return ruledsl.load_game(path, players=players).new_initial_state(seed=0)


def test_the_doc_shows_rule_files() -> None:
    assert "Objection" in doc_games()


@pytest.mark.parametrize("name", sorted(doc_games()))
def test_each_rule_file_of_the_doc_checks_clean(tmp_path: Path, name: str) -> None:
    path = tmp_path / "doc.game"
    path.write_text(doc_games()[name], encoding="utf-8")
    assert check_file(path).warnings == ()


def test_a_phase_of_effects_alone_deals_and_hands_on(tmp_path: Path) -> None:
    state = load(tmp_path, "Objection")
    # Nobody acted in 'dealing': its effects ran and play went on to 'play'.
    assert state.phase_name() == "play"
    assert state.current_player() == 0
    assert labels(state) == ["lay card"]


def test_a_window_where_all_pass_runs_its_effects_and_may_go_to_a_phase(tmp_path: Path) -> None:
    state = load(tmp_path, "Objection", players=3)
    for quiet in range(3):
        actor = state.current_player()
        act(state, "lay card")
        # The two others are offered the window in turn; both let it pass.
        for _ in range(2):
            assert state.current_player() != actor
            assert labels(state) == ["object", "let it pass"]
            act(state, "let it pass")
        if quiet < 2:
            assert state.phase_name() == "play"
            assert state.current_player() == (actor + 1) % 3
            assert state.observation(0)["variables"]["quiet"] == quiet + 1
    # The third time nobody objected, 'go to counting' ended the game by the ranking:
    # each seat laid one card, so all three tie.
    assert state.is_terminal()
    assert state.returns() == [0.0, 0.0, 0.0]


def test_a_player_who_acts_in_the_window_skips_when_all_pass(tmp_path: Path) -> None:
    state = load(tmp_path, "Objection")
    act(state, "lay card")
    act(state, "object")
    assert state.is_terminal()
    assert state.returns() == [-1.0, 1.0]


def test_a_one_player_game_is_won_or_lost(tmp_path: Path) -> None:
    lost = load(tmp_path, "Patience of three", players=1)
    act(lost, "draw")
    act(lost, "stop")
    assert lost.returns() == [-1.0]
    assert lost.score() == 1
    assert result_lines(lost) == ["Result: P0 loses, score 1", "Returns: P0 -1"]
    won = load(tmp_path, "Patience of three", players=1)
    act(won, "draw")
    act(won, "draw")
    assert won.observation(0)["variables"]["score"] == 2
    act(won, "stop")
    assert won.returns() == [1.0]
    assert result_lines(won) == ["Result: P0 wins, score 2", "Returns: P0 +1"]


def test_only_a_lone_player_ranked_first_by_a_number_has_a_score(tmp_path: Path) -> None:
    patience = doc_games()["Patience of three"]
    variants = {
        "unranked": (patience.replace("ranking: highest score", ""), 1),
        "ranked_by_finishing": (
            patience.replace("ranking: highest score", "ranking: finishing order, then highest score"),
            1,
        ),
        "several_players": (patience.replace("players 1", "players 2"), 2),
    }
    for name, (text, players) in variants.items():
        path = tmp_path / f"{name}.game"
        path.write_text(text, encoding="utf-8")
        state = ruledsl.load_game(path, players=players).new_initial_state(seed=0)
        act(state, "draw")
        assert state.score() is None, name
        act(state, "stop")
        assert "score" not in result_lines(state)[0], name
        assert play_game(ruledsl.load_game(path, players=players), 0, ["random"] * players).score is None


def test_compare_tells_a_lone_players_mean_score(tmp_path: Path) -> None:
    path = tmp_path / "solo.game"
    path.write_text(doc_games()["Patience of three"], encoding="utf-8")
    game = ruledsl.load_game(path, players=1)
    records = [play_game(game, seed, ["random"]) for seed in range(10)]
    result = compare("variant", ["a", "b"], [records, records], 1, rotate=False)
    lengths = result["comparisons"][0]["lengths"]
    assert set(lengths) == {"actions", "score"}  # one seat: no turns, but the score
    assert lengths["score"]["before"] == sum(r.score or 0 for r in records) / 10
    assert any(line.lstrip().startswith("mean score") for line in report_lines(result, []))


def test_a_loser_among_several_players_lets_the_others_win(tmp_path: Path) -> None:
    path = tmp_path / "old.game"
    path.write_text(doc_games()["Patience of three"].replace("players 1", "players 3"), encoding="utf-8")
    state = ruledsl.load_game(path, players=3).new_initial_state(seed=0)
    act(state, "stop")
    assert state.returns() == [-1.0, 1.0, 1.0]
    assert result_lines(state)[0] == "Result: P1, P2 share the win"


def test_statistics_of_one_seat_count_losses_and_test_no_first_player(tmp_path: Path) -> None:
    path = tmp_path / "solo.game"
    path.write_text(doc_games()["Patience of three"], encoding="utf-8")
    game = ruledsl.load_game(path, players=1)
    records = [play_game(game, seed, ["random"]) for seed in range(40)]
    stats = summarize(records, 1, ["random"])
    wins = stats["seats"][0]["wins"]
    assert 0 < wins < 40
    assert stats["losses"] == 40 - wins
    assert stats["draws"] == 0
    code, text, _ = run_cli(["simulate", str(path), "-n", "40"])
    assert code == 0
    assert "first player" not in text
    assert "length in turns" not in text
    assert f"losses {40 - wins}, neither won nor lost 0" in text
    scores = [r.score for r in records]
    assert set(scores) <= {0, 1, 2, 3} and len(set(scores)) > 1
    assert stats["score"]["games"] == 40
    assert stats["score"]["mean"] == pytest.approx(sum(scores) / 40)
    low, high = stats["score"]["ci95"]
    assert low < stats["score"]["mean"] < high
    assert f"score: mean {sum(scores) / 40:.1f} ({low:.1f} to {high:.1f})" in text
    rows = outcome_rows(records, 1, rotate=False)
    assert "first player won alone" not in rows
    assert sum(rows["lost"](r) for r in records) == 40 - wins


def test_a_card_is_face_up_to_all_or_seen_by_one_player(tmp_path: Path) -> None:
    state = load(tmp_path, "Faces")
    mine = hand(state, 0)[0]
    # The table card lies face down: it may be flipped, not yet counted face up.
    assert labels(state) == ["flip hidden card 1", f"show {mine}"]
    act(state, "flip hidden card 1")
    # P1's card is seen by him alone until he shows it; the table card is face up now.
    theirs = hand(state, 1)[0]
    assert labels(state) == [f"show {theirs}", "done"]
    act(state, f"show {theirs}")
    assert labels(state) == [f"show {mine}", "done"]
    act(state, f"show {mine}")
    # Both shown: 'c is not seen by player after player' holds for no card of a hand.
    assert labels(state) == ["done"]


def test_the_doc_lists_every_reserved_word() -> None:
    text = DOC.read_text(encoding="utf-8")
    listed = re.search(r"The reserved words \(derived from the grammar;.*?\): (.*?)\. A procedure", text, re.DOTALL)
    assert listed is not None
    assert set(re.findall(r"`(\w+)`", listed.group(1))) == set(reserved_words())
    assert "`round` and\n  `direction`" in text and set(BUILTIN_NAMES) == {"round", "direction"}


def test_a_phase_played_together_holds_each_choice_until_all_have_chosen(tmp_path: Path) -> None:
    state = load(tmp_path, "Sealed Lots", players=3)
    assert state.phase_name() == "bidding" and state.current_player() == 0
    first = hand(state, 0)[0]
    act(state, f"offer {first}")
    assert state.current_player() == 1 and first in hand(state, 0)  # held: nothing moved
    assert state.describe_last(1) == "choose in secret"
    assert state.observation(2)["together"] == {"chosen": [0], "waiting": [1, 2]}
    act(state, "fold")
    act(state, "fold")
    assert first not in hand(state, 0) and state.current_player() == 0  # applied; the next lot


def test_a_simultaneous_reveal_turns_both_cards_up_together(tmp_path: Path) -> None:
    state = load(tmp_path, "Turn Up")
    mine = hand(state, 0)[0]
    act(state, f"lay {mine}")
    assert state.observation(1)["zones"]["table"] == [{"size": 0, "cards": []}, {"size": 0, "cards": []}]
    act(state, labels(state)[0])
    won = state.observation(0)["zones"]["won"]
    assert sum(z["size"] for z in won) == 2 and any(mine in z["cards"] for z in won)


def test_sets_too_many_to_list_are_chosen_card_by_card(tmp_path: Path) -> None:
    state = load(tmp_path, "Sheddings")
    offered = labels(state)
    assert "discard: pick the cards" in offered and "fifteen: pick the cards" in offered
    assert any(label.startswith("lay ") for label in offered)
    game = state.game
    for seed in range(3):
        result = play_game(game, seed, ["random", "random"])
        assert result.error is None and result.returns != [0.0, 0.0]
