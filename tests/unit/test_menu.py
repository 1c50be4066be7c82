"""The play prompt's menus: a long list of actions grouped under the widest choices, every action kept."""

from __future__ import annotations

from pathlib import Path

import pytest

import ruledsl
from ruledsl.cli.menu import LONG_MENU, Group, menu_entries, reading_in_any_order
from ruledsl.engine.reading import shown_action

LONG_MENU_GAME = Path(__file__).resolve().parent.parent / "golden" / "cli" / "long_menu.game"


def flat(entries: list) -> list:
    """Every action of a menu and its groups' menus, in the order they are shown."""
    return [a for e in entries for a in (flat(list(e.entries)) if isinstance(e, Group) else [e])]


def cards(action) -> list:
    return sorted(c for choice in action.key if isinstance(choice, tuple) for c in choice)


def test_a_short_menu_is_not_grouped() -> None:
    state = ruledsl.load_game("quasenbo", players=2).new_initial_state(seed=1)
    legal = state.legal_actions()
    assert len(legal) <= LONG_MENU
    assert menu_entries(legal, str) == legal


@pytest.mark.parametrize("seed", [0, 1, 2, 3, 5])
def test_a_long_menu_groups_each_action_once_under_a_choice_that_holds_it(seed: int) -> None:
    state = ruledsl.load_game(str(LONG_MENU_GAME)).new_initial_state(seed=seed)
    legal = state.legal_actions()
    assert len(legal) > 100  # sixteen cards of two ranks, four decks: the case the menu is for
    entries = menu_entries(legal, str)
    assert len(entries) <= LONG_MENU
    assert sorted(map(str, flat(entries))) == sorted(map(str, legal))  # nothing lost, nothing twice
    for entry in entries:
        if isinstance(entry, Group):
            head = str(entry.title).split(" (or some of them")[0]
            widest = next(a for a in legal if str(a) == head)
            for action in flat(list(entry.entries)):
                assert all(cards(action).count(c) <= cards(widest).count(c) for c in cards(action))
            assert len(entry.entries) <= LONG_MENU  # a group too long is split by how many cards


def test_a_group_reads_as_its_widest_choice_and_a_count() -> None:
    state = ruledsl.load_game(str(LONG_MENU_GAME)).new_initial_state(seed=1)
    titles = [e.title for e in menu_entries(state.legal_actions(), str) if isinstance(e, Group)]
    assert "play 6♠ 6♠ 6♥ 6♦ 6♦ 6♣ (or some of them: 35 choices)" in titles


def test_cards_may_be_typed_in_any_order() -> None:
    state = ruledsl.load_game(str(LONG_MENU_GAME)).new_initial_state(seed=1)
    legal = state.legal_actions()

    def shown(a):
        return shown_action(a, state.prog)

    assert [str(a) for a in reading_in_any_order("play 6c 6d 6s", legal, shown)] == ["play 6♠ 6♦ 6♣"]
    assert reading_in_any_order("play 6c 6h 9s", legal, shown) == []
