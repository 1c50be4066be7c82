"""`when cs enter p.hand:` runs for the player whose zone received the cards, named p."""

from __future__ import annotations

from pathlib import Path

import ruledsl
from ruledsl.engine.state import GameState

# Deals two cards to each of three players; an action gives the top card of the actor's
# hand to another player, by one of several ways of naming the zone.
GIVE = """\
game "Give"
players 3
values rank: 1, 2, 3
card rank: rank
zone deck: shared, hidden
zone hand: per player, owner
zone pile: shared, public
player var got = 0
deck:
    4 × card "c{rank}" for rank in 1 to 3
when cs enter p.hand:
    add size of cs to p.got
    say "{p} now has {p.got} in a hand of {size of p.hand}, given by {player}"
setup:
    deal 2 from deck to each hand
phase play:
    action give(q: player from players after player):
        GIVE
        end game, draw
"""


def played(tmp_path: Path, give: str, rules: str = GIVE) -> list[str]:
    """The log of the deal, then of the first player giving a card to the next (P1)."""
    path = tmp_path / "give.game"
    path.write_text(rules.replace("GIVE", give), encoding="utf-8")
    state: GameState = ruledsl.load_game(path, players=3).new_initial_state(seed=0, log=True)
    state.apply_action(state.legal_actions()[0])
    return state.take_log()


def test_p_is_the_player_whose_hand_received_the_cards_not_the_actor(tmp_path: Path) -> None:
    log = played(tmp_path, "move top of hand to q.hand")
    assert log[:6] == [
        f"P{p} now has {n} in a hand of {n}, given by P0" for n in (1, 2) for p in range(3)
    ]  # dealt during the setup, which seat 0 runs
    assert log[6:] == ["P1 now has 3 in a hand of 3, given by P0"]


def test_p_is_found_however_the_zone_is_named(tmp_path: Path) -> None:
    expected = "P1 now has 3 in a hand of 3, given by P0"
    assert played(tmp_path, "let there = q.hand\n        move top of hand to there")[6] == expected
    assert played(tmp_path, "move top of hand to (if yes then q.hand else pile)")[6] == expected


def test_the_actors_own_hand_makes_him_p(tmp_path: Path) -> None:
    log = played(tmp_path, "move top of deck to hand")
    assert log[6] == "P0 now has 3 in a hand of 3, given by P0"


def test_rules_on_a_zone_with_and_without_an_owner_both_run(tmp_path: Path) -> None:
    rules = GIVE.replace("setup:", 'when ds enter hand:\n    say "{size of hand} in the actor\'s hand"\nsetup:')
    log = played(tmp_path, "move top of hand to q.hand", rules)
    assert log[-2:] == ["P1 now has 3 in a hand of 3, given by P0", "1 in the actor's hand"]


# A rule on cards entering a hand empties the deck while 'deal' is still dealing from it:
# the deal must see the deck empty and stop, never deal cards that have gone elsewhere.
EMPTIED = """\
game "Emptied"
players 3
values rank: 1, 2, 3
card rank: rank
zone deck: shared, hidden
zone hand: per player, owner
zone spare: shared, hidden
deck:
    4 × card "c{rank}" for rank in 1 to 3
when cs enter hand:
    move all of deck to spare
setup:
    SETUP
phase play:
    action go:
        GO
        end game, draw
"""


def conserved(state: GameState) -> None:
    """Every card lies in exactly one zone, the one ``loc`` names: none lost, none doubled."""
    where = [(z, c) for z, cards in enumerate(state.zones) for c in cards]
    assert sorted(c for _, c in where) == list(range(len(state.loc))), "cards lost or doubled"
    assert all(state.loc[c] == z for z, c in where)


def emptied(tmp_path: Path, setup: str, go: str, track: bool) -> GameState:
    path = tmp_path / "emptied.game"
    path.write_text(EMPTIED.replace("SETUP", setup).replace("GO", go), encoding="utf-8")
    return ruledsl.load_game(path, players=3).new_initial_state(seed=0, track=track)


def test_a_deal_stops_when_a_rule_it_sets_off_empties_its_source(tmp_path: Path) -> None:
    for track in (False, True):
        state = emptied(tmp_path, "deal 2 from deck to each hand", "shuffle deck", track)
        conserved(state)
        assert [len(z) for z in state.zones] == [0, 1, 0, 0, 11]  # deck, 3 hands, spare
        assert (state.known is not None) == track


def test_a_deal_stops_when_its_source_is_emptied_while_knowledge_is_kept(tmp_path: Path) -> None:
    # Dealt by an action, after the setup: what each player knows of the cards is kept then.
    state = emptied(tmp_path, "shuffle deck", "deal 2 from deck to each hand", track=True)
    assert state.known is not None
    state.apply_action(state.legal_actions()[0])
    conserved(state)
    assert [len(z) for z in state.zones] == [0, 1, 0, 0, 11]
