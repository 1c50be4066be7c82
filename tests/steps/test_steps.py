"""Sets of cards chosen card by card (issue 29, item 3): too many sets to list, so offered in steps."""

from __future__ import annotations

import functools
import itertools
import random
import tempfile
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import ruledsl
from ruledsl.agents import SeatView, decide, make_agent
from ruledsl.engine import stepping
from ruledsl.engine.state import GameState
from ruledsl.engine.values import Action
from ruledsl.spaces.actions import ActionSpace, Decisions
from ruledsl.text.errors import IllegalActionError
from ruledsl.tools import leaks
from ruledsl.tools.records import load_recorded_game, record_of_game, replay
from ruledsl.tools.simulate import play_game
from tests.golden.test_golden import run_cli

HERE = Path(__file__).resolve().parent
STEPS = HERE / "steps.game"  # hands of 26: 'cards from hand' and '2 to 4 cards' are stepped, 'lay' listed
SMALL = (HERE / "small.game").read_text(encoding="utf-8")  # hands of 6: every set listed


@functools.cache
def steps_game() -> ruledsl.Game:
    return ruledsl.load_game(str(STEPS))


@functools.cache
def small_game(hand: int) -> ruledsl.Game:
    path = Path(tempfile.mkdtemp()) / f"small{hand}.game"
    path.write_text(SMALL.replace("deal 6", f"deal {hand}"), encoding="utf-8")
    return ruledsl.load_game(str(path), players=2)


def labels(state: GameState) -> list[str]:
    return [str(a) for a in state.legal_actions()]


def begun(state: GameState, name: str) -> Action:
    return next(a for a in state.legal_actions() if str(a) == f"{name}: pick the cards")


class TestOffered:
    def test_a_choice_of_too_many_sets_is_offered_in_steps_and_the_others_are_listed(self) -> None:
        state = steps_game().new_initial_state(1)
        offered = labels(state)
        assert offered.count("discard: pick the cards") == 1 and offered.count("fifteen: pick the cards") == 1
        assert all(s.startswith("lay ") for s in offered[:-2])  # 'lay' lists its groups, as before
        state.apply_action(begun(state, "discard"))
        picks = labels(state)
        assert len(picks) == 26 and all(p.startswith("pick ") for p in picks)  # no "done": three cards at least
        for _ in range(3):
            state.apply_action(state.legal_actions()[0])
        assert labels(state)[-1] == "done"

    def test_a_pick_is_offered_only_where_the_set_can_still_be_completed(self) -> None:
        game = steps_game()
        rng = random.Random(0)
        for seed in range(3):
            state = game.new_initial_state(seed)
            state.apply_action(begun(state, "fifteen"))
            while state.picking is not None:
                legal = state.legal_actions()
                assert legal, "a half-made set must always be completable"
                picked = state.picking[1]
                for a in legal:
                    if a.defn.step_role == "pick":
                        # Some whole of 2 to 4 cards adding up to 15 begins with the picks and this card.
                        assert _completable(state, (*picked, a.key[0]))
                state.apply_action(rng.choice(legal))
            last = state.history()[-1]
            assert last.name == "fifteen" and len(last.key[0]) in (2, 3, 4)
            assert sum(_rank(state, k) for k in last.key[0]) == 15

    def test_steps_do_not_enter_the_history_and_the_whole_does_once(self) -> None:
        state = steps_game().new_initial_state(2, log=True)
        state.apply_action(begun(state, "discard"))
        for _ in range(3):
            state.apply_action(state.legal_actions()[0])
        assert state.n_actions == 0 and state.history() == []
        state.apply_action(state.legal_actions()[-1])  # done
        assert state.n_actions == 1 and state.picking is None
        (whole,) = state.history()
        assert str(whole).startswith("discard ") and len(whole.key[0]) == 3
        assert state.describe_last(0) == str(whole) and state.describe_last(1) == str(whole)

    def test_a_search_past_the_budget_is_r507_never_a_hang(self, tmp_path: Path) -> None:
        # Any number of cards adding up to 1,000, which no set of 26 cards reaches: every set must be tried.
        text = STEPS.read_text(encoding="utf-8").replace("== 15", "== 1000").replace("2 to 4 cards", "cards")
        path = tmp_path / "never.game"
        path.write_text(text, encoding="utf-8")
        state = ruledsl.load_game(str(path)).new_initial_state(0)
        with pytest.raises(ruledsl.RuleRuntimeError) as err:
            state.legal_actions()
        assert err.value.diagnostics[0].code == "R507"
        assert err.value.diagnostics[0].span.start.line == 36  # the action 'fifteen'


def _rank(state: GameState, kind: int) -> int:
    name = state.prog.card_names[state.prog.kind_reps[kind]]
    return {"A": 1, "J": 11, "Q": 12, "K": 13}.get(name[:-1]) or int(name[:-1])


def _completable(state: GameState, kinds: tuple[int, ...]) -> bool:
    hand = Counter(state.prog.card_kinds[c] for c in state.zones[_hand_zone(state)])
    rest = [k for k in sorted(hand) for _ in range(hand[k] - kinds.count(k))]
    for extra in range(0, 5 - len(kinds)):
        for more in itertools.combinations(rest, extra):
            total = (*kinds, *more)
            if 2 <= len(total) <= 4 and sum(_rank(state, k) for k in total) == 15:
                return True
    return False


def _hand_zone(state: GameState) -> int:
    layout = next(z for z in state.prog.zones if z.name == "hand")
    return layout.base + state.actor


class TestWholeEqualsSteps:
    @settings(max_examples=25, deadline=None)
    @given(seed=st.integers(0, 2**16), hand=st.integers(3, 8))
    def test_the_sets_reached_by_steps_are_the_sets_listed(self, seed: int, hand: int) -> None:
        state = small_game(hand).new_initial_state(seed)
        listed = state.legal_actions()
        for defn in {a.defn for a in listed if a.key}:
            wanted = {a.key[0] for a in listed if a.defn is defn}
            reached = set()
            todo: list[tuple[int, ...]] = [()]
            visited = set()
            while todo:
                kinds = todo.pop()
                if kinds in visited:
                    continue  # the same cards picked in another order
                visited.add(kinds)
                probe = state.clone()
                probe.picking, probe._legal = (defn, kinds), None
                for a in probe.legal_actions():
                    if a.defn.step_role == "pick":
                        todo.append(tuple(sorted((*kinds, a.key[0]))))
                    else:
                        assert a.defn.step_role == "done"
                        reached.add(kinds)
            assert reached == wanted, defn.name
            # And each set, listed or not, is accepted whole exactly when it is listed.
            hand_kinds = sorted(state.prog.card_kinds[c] for c in state.zones[_hand_zone(state)])
            search = stepping._Search(state, state.actor, defn)
            for size in range(1, len(hand_kinds) + 1):
                for kinds in set(itertools.combinations(hand_kinds, size)):
                    assert search.is_whole(kinds) == (kinds in wanted), (defn.name, kinds)

    @pytest.mark.parametrize("seed", range(4))
    def test_applying_a_whole_set_is_applying_its_steps(self, seed: int) -> None:
        game = steps_game()
        by_steps = game.new_initial_state(seed, log=True)
        rng = random.Random(seed)
        by_steps.apply_action(begun(by_steps, rng.choice(["discard", "fifteen"])))
        while by_steps.picking is not None:
            by_steps.apply_action(rng.choice(by_steps.legal_actions()))
        (whole,) = by_steps.history()
        at_once = game.new_initial_state(seed, log=True)
        assert whole not in at_once.legal_actions()
        at_once.apply_action(Action(whole.defn, whole.key))
        assert str(at_once.history()[0]) == str(whole)
        for seat in (0, 1, None):
            assert at_once.observation(seat) == by_steps.observation(seat)
        assert at_once.zones == by_steps.zones and at_once.log == by_steps.log

    def test_a_whole_set_typed_or_asked_about_is_read_and_checked_whole(self) -> None:
        state = steps_game().new_initial_state(3)
        hand = [state.prog.card_names[c] for c in state.zones[_hand_zone(state)]]
        typed = "discard " + " ".join(reversed(hand[:3]))
        action = state.action_from_string(typed)
        assert action.name == "discard" and action not in state.legal_actions()
        assert state.why_illegal(typed) is None and state.why_illegal(action) is None
        refused = state.why_illegal("discard " + hand[0])
        assert refused is not None and "three cards at least" in refused
        with pytest.raises(IllegalActionError):
            state.apply_action(Action(action.defn, ((action.key[0][0],),)))
        state.apply_action(action)
        assert state.history() == [action]

    def test_a_whole_set_typed_while_picking_replaces_the_picks(self) -> None:
        state = steps_game().new_initial_state(3)
        hand = [state.prog.card_names[c] for c in state.zones[_hand_zone(state)]]
        state.apply_action(begun(state, "discard"))
        state.apply_action(state.legal_actions()[5])
        state.apply_action(state.action_from_string("discard " + " ".join(hand[:4])))
        assert state.picking is None and len(state.history()[0].key[0]) == 4


class TestHidden:
    def test_the_half_made_set_is_in_its_choosers_view_alone(self) -> None:
        state = steps_game().new_initial_state(4, track=True)
        chooser = state.actor
        before = {seat: state.observation(seat) for seat in (1 - chooser, None)}
        state.apply_action(begun(state, "discard"))
        for _ in range(2):
            state.apply_action(state.legal_actions()[-1])
        view = state.observation(chooser)
        assert view["picking"]["action"] == "discard" and len(view["picking"]["cards"]) == 2
        for seat, seen in before.items():
            assert state.observation(seat) == seen  # nothing changes for the others while he picks
            assert "picking" not in state.observation(seat)
        # A resample keeps his own picks for him, and gives the other seat none.
        assert SeatView(state, chooser).resample(random.Random(0)).picking == state.picking
        assert SeatView(state, 1 - chooser).resample(random.Random(0)).picking is None

    def test_the_leak_harness_swaps_cards_of_a_half_made_set(self) -> None:
        game = steps_game()
        path = leaks._random_path(game, 0, random.Random(0), 40)  # the harness's path for seed 0
        state, picking = game.new_initial_state(0), 0
        for i in path:
            state.apply_action(state.legal_actions()[i])
            picking += state.picking is not None
        assert picking >= 5  # states with a set half made, among those the harness samples
        report = leaks.Report()
        leaks.check_game(game, range(1), 8, 2, report, steps=40)
        assert report.comparisons > 0 and not report.leaks, "\n".join(str(x)[:300] for x in report.leaks[:3])


class TestPlayers:
    @pytest.mark.parametrize("agent", ["random", "ismcts:iterations=10:depth=4"])
    def test_an_agent_plays_to_the_end_and_the_record_replays_without_steps(self, agent: str) -> None:
        game = steps_game()
        result = play_game(game, 5, [agent, "random"], keep_labels=True)
        assert result.error is None and result.returns != [0.0, 0.0]
        record = record_of_game(game, result)
        assert len(record["actions"]) == len(record["actors"])
        again = replay(record, load_recorded_game(record, str(STEPS)))
        assert again.returns() == result.returns

    def test_check_simulate_plays_it_without_r507(self) -> None:
        code, out, err = run_cli(["check", "--simulate", "6", str(STEPS)])
        assert code == 0, out + err
        assert "R507" not in out + err and " 6       6       0       0       0" in out

    def test_play_takes_a_step_and_a_whole_set(self) -> None:
        state = steps_game().new_initial_state(1)
        hand = [state.prog.card_names[c] for c in state.zones[_hand_zone(state)]]
        typed = f"discard: pick the cards\npick {hand[0]}\nhelp\ndiscard {' '.join(hand[1:4])}\nq\n"
        code, out, _ = run_cli(["play", str(STEPS), "--seats", "human,random", "--seed", "1"], stdin=typed)
        assert "picking cards to discard: " + hand[0] in out
        assert "may also be typed at once" in out
        played = next(line for line in out.splitlines() if "P0: discard " in line)  # after the prompt
        assert sorted(played.split("P0: discard ")[1].split()) == sorted(hand[1:4])


class TestBridges:
    def test_steps_are_the_ids_of_the_same_set_listed(self) -> None:
        game = steps_game()
        space = ActionSpace(game)
        play = Decisions(space, game.new_initial_state(6))
        rng = random.Random(6)
        for _ in range(40):
            if play.is_terminal():
                break
            ids = play.legal_actions()
            assert ids == sorted(set(ids))
            play.apply_action(rng.choice(ids))
        for action in play.state.history():
            assert space.tokens(action)[0] < space.pick_base  # a head, then picks and done
        begin = stepping.stepped(play.state.prog.phases[0].actions[1]).begin
        assert space.describe(space.tokens(begin)[0]).startswith("discard")


def test_an_agent_sees_the_steps_as_legal_actions() -> None:
    state = steps_game().new_initial_state(7)
    state.apply_action(begun(state, "fifteen"))
    action = decide(make_agent("random", 1), state, state.actor)
    assert action.defn.step_role in ("pick", "done")


TWO_MELDS = """\
game "Two melds"
players 2
card rank: number
zone deck: shared, hidden
zone hand: per player, owner
zone table: shared, public
deck:
    card "{rank}" for rank in 1 to 26
setup:
    deal 13 from deck to each hand
phase play:
    action meld(cs: cards from hand):
        move cs to table
    action lay(cs: cards from hand):
        move cs to table
        end game
"""


def test_two_choices_of_sets_each_few_enough_but_too_many_together_are_stepped(tmp_path: Path) -> None:
    # Found by the random rule files (issue 37): each action's 8,191 sets of a 13-card hand are
    # fewer than STEP_AT, but both listed are 16,382, past MAX_OFFERED: R507 for a plain game.
    # An action's sets are offered in steps once listing them would pass the actions' limit.
    path = tmp_path / "two_melds.game"
    path.write_text(TWO_MELDS, encoding="utf-8")
    state = ruledsl.load_game(str(path)).new_initial_state(seed=0)
    offered = labels(state)
    assert len(offered) == 2**13 - 1 + 1 and "lay: pick the cards" in offered
    state.apply_action(begun(state, "lay"))
    assert len(state.legal_actions()) == 13  # a pick per card, no 'done' before one is picked


def test_a_set_chosen_card_by_card_after_an_auction_is_taken(tmp_path: Path) -> None:
    """Found by the generator (file 18 of --seed 3008): an auction, then a phase choosing a set card by card;
    the auction's state stays once it is over, and 'done' was refused as if the auction still ran."""
    path = tmp_path / "after_auction.game"
    path.write_text(
        STEPS.read_text(encoding="utf-8")
        .replace("    deal 26 from deck to each hand\n", "    deal 26 from deck to each hand\n    go to bidding\n")
        .replace(
            "phase play:\n",
            "auction bidding until 1 passes:\n    action bid(n: number 1 to 3):\n        strength n\n"
            '    pass:\n        label "pass"\n    when won by w:\n        go to play\n'
            "    when unsold:\n        go to play\n\nphase play:\n",
        ),
        encoding="utf-8",
    )
    state = ruledsl.load_game(str(path)).new_initial_state(1)
    for label in ("bid 2", "pass"):
        state.apply_action(next(a for a in state.legal_actions() if str(a) == label))
    assert state.phase_name() == "play"
    state.apply_action(begun(state, "discard"))
    for _ in range(3):
        state.apply_action(next(a for a in state.legal_actions() if str(a).startswith("pick ")))
    state.apply_action(next(a for a in state.legal_actions() if str(a) == "done"))
    assert state.picking is None and state.observation(0)["zones"]["pile"]["size"] == 3


def test_a_step_reads_in_a_menu_with_the_cards_labels() -> None:
    # A pick names its card by its label in a menu, as a whole set's label does; its text stays the name.
    from ruledsl.engine.reading import shown_action

    game = ruledsl.load_game(str(HERE.parents[1] / "tests" / "generate" / "found" / "picks_read_with_card_labels.game"))
    state = game.new_initial_state(seed=1)
    (begin,) = state.legal_actions()
    assert shown_action(begin, state.prog) == "meld: pick the cards"
    state.apply_action(begin)
    pick = next(a for a in state.legal_actions() if str(a).startswith("pick"))
    assert shown_action(pick, state.prog) == "pick rank " + str(pick).removeprefix("pick ")
