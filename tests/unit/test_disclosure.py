"""W406: texts and public variables that tell players an attribute of a card they cannot see."""

from __future__ import annotations

from pathlib import Path

import pytest

import ruledsl
from ruledsl.analysis.checker import check
from ruledsl.syntax.parser import parse
from ruledsl.text.source import Source

# Line numbers matter: the tests name them. RULES is where each test writes its phase.
GAME = """\
game "Tell"
players 2 to 4
values rank: 2, 3, 4, 5
card rank: rank
zone stock: shared, hidden
zone hand: per player, owner
zone pile: shared, public
var last: rank = none
var secret: rank = none, hidden
player var mine: rank = none, owner
player var shown: rank = none
deck:
    card "{rank}" for rank in 2 to 5
setup:
    shuffle stock
    deal 1 from stock to each hand
to keep(c: card):
    move c to pile
define worth(c: card) = c.rank
define best_of(cs: cards) = highest worth(x) for x in cs
phase play:
    action finish:
        end game, winner player
RULES
"""
RULES = GAME.split("\n").index("RULES") + 1

OWN = "a card in 'hand' that only its owner sees"


def warnings(rules: str) -> list[tuple[str, int, int]]:
    """The W406 warnings of the game with ``rules`` in its phase: (message, line, column)."""
    text = GAME.replace("RULES\n", rules)
    checked = check(parse(text, "t.game"), Source("t.game", text))
    return [(d.message, d.line, d.column) for d in checked.warnings if d.code == "W406"]


# ============================================================================ told


@pytest.mark.parametrize(
    ("rules", "message", "column"),
    [
        (
            '    action ask(c: card from hand):\n        say "{player} asks for {c.rank}s"\n',
            f"this text tells every player the rank of 'c', {OWN}",
            33,
        ),
        (
            '    action ask(c: card from hand):\n        label "ask for {c.rank}s"\n',
            f"this label tells the other players the rank of 'c', {OWN}",
            25,
        ),
        (
            "    action ask(c: card from hand):\n        set last = c.rank\n",
            f"'last', which every player sees, is set from the rank of 'c', {OWN}",
            20,
        ),
        (
            "    action ask(c: card from hand):\n        set shown = c.rank\n",
            f"'shown', which every player sees, is set from the rank of 'c', {OWN}",
            21,
        ),
        (
            '    action peek:\n        let r = (top of stock).rank\n        say "a {r} on top"\n',
            "this text tells every player the rank of 'top of stock' (through 'r'), a card in 'stock' that nobody sees",
            17,
        ),
        (  # read through a condition: how many of a rank he holds
            '    action ask(r: rank):\n        say "{count c in hand where c.rank == r}"\n',
            f"this text tells every player the rank of 'c', {OWN}",
            37,
        ),
        (
            '    action best:\n        say "{highest c.rank for c in hand}"\n',
            f"this text tells every player the rank of 'c', {OWN}",
            23,
        ),
        (
            '    action all:\n        for each c in hand:\n            say "{c.rank}"\n',
            f"this text tells every player the rank of 'c', {OWN}",
            19,
        ),
        (  # read by a definition
            '    action ask(c: card from hand):\n        say "{worth(c)}"\n',
            f"this text tells every player the rank of 'c' (through 'worth(c)'), {OWN}",
            15,
        ),
        (
            '    action ask:\n        say "{best_of(hand)}"\n',
            f"this text tells every player the rank of 'hand' (through 'best_of(hand)'), {OWN}",
            15,
        ),
        (  # a card chosen by its place: the engine reads 'c.rank' as none in a label, not a definition
            '    action draw(c: card from stock):\n        label "draw a {worth(c)}"\n',
            "this label tells the other players the rank of 'c' (through 'worth(c)'), a card in 'stock' that "
            "nobody sees",
            24,
        ),
        (  # another player's own variable
            "    action tell(q: player from players after player, c: card from hand):\n        set q.mine = c.rank\n",
            f"'q.mine', which its player sees, is set from the rank of 'c', {OWN}",
            22,
        ),
        (  # his own variable, of a card nobody sees
            "    action peek:\n        set mine = (top of stock).rank\n",
            "'mine', which its player sees, is set from the rank of 'top of stock', a card in 'stock' that nobody sees",
            20,
        ),
        (  # his own variable, of a card he chose by its place
            "    action take(c: card from (player after player).hand):\n        set mine = c.rank\n",
            "'mine', which its player sees, is set from the rank of 'c', a card in 'hand' that only its owner sees",
            20,
        ),
        (  # read by a 'let', then moved by writing it again
            '    action peek:\n        let c = top of pile\n        move top of pile to hand\n        say "{c.rank}"\n',
            f"this text tells every player the rank of 'c', {OWN}",
            15,
        ),
        (
            "    action peek:\n        let r = (top of pile).rank\n        move top of pile to hand\n"
            '        say "{r}"\n',
            f"this text tells every player the rank of 'top of pile' (through 'r'), {OWN}",
            15,
        ),
        (  # the other end of the zone than the card shown
            "    action peek:\n        reveal top of stock\n        set last = (bottom of stock).rank\n",
            "'last', which every player sees, is set from the rank of 'bottom of stock', a card in 'stock' that "
            "nobody sees",
            20,
        ),
        (  # a card shown on top of the zone, then another put there
            "    action peek:\n        reveal top of stock\n        move top of hand to stock\n"
            "        set last = (top of stock).rank\n",
            "'last', which every player sees, is set from the rank of 'top of stock', a card in 'stock' that "
            "nobody sees",
            20,
        ),
        (  # played, but taken back into the hand by the same action
            "    action ask(c: card from hand):\n        move c to pile\n        move c to hand\n"
            '        label "{c.rank}"\n',
            f"this label tells the other players the rank of 'c', {OWN}",
            17,
        ),
        (  # cards joined from zones, one of which hides them
            '    action best:\n        say "{highest c.rank for c in hand + pile}"\n',
            f"this text tells every player the rank of 'c', {OWN}",
            23,
        ),
        (  # a card named by a 'let' in a loop nested in another loop
            "    action all:\n        for each p in players:\n            for each q in players:\n"
            '                let c = top of q.hand\n                say "{c.rank}"\n',
            f"this text tells every player the rank of 'c', {OWN}",
            23,
        ),
        (  # a zone named by a 'let' in the outer loop, gone over by the inner one
            "    action all:\n        for each p in players:\n            let h = p.hand\n"
            '            for each c in h:\n                say "{c.rank}"\n',
            f"this text tells every player the rank of 'c', {OWN}",
            23,
        ),
        (  # his own variable, of a card in the hand of a player surely not him
            "    action peek(q: player from players after player):\n        set mine = (top of q.hand).rank\n",
            f"'mine', which its player sees, is set from the rank of 'top of q.hand', {OWN}",
            20,
        ),
        (
            "    action peek(q: player from (cards x in players where x != player)):\n"
            "        set mine = (top of q.hand).rank\n",
            f"'mine', which its player sees, is set from the rank of 'top of q.hand', {OWN}",
            20,
        ),
        (
            "    action peek:\n        for each q in players where player != q:\n"
            "            set mine = (top of q.hand).rank\n",
            f"'mine', which its player sees, is set from the rank of 'top of q.hand', {OWN}",
            24,
        ),
        (
            "    action peek:\n        for each q in players after player:\n"
            "            set mine = (top of q.hand).rank\n",
            f"'mine', which its player sees, is set from the rank of 'top of q.hand', {OWN}",
            24,
        ),
        (  # moved in every branch, to a place some readers do not see in one of them
            "    action play(c: card from hand):\n        if c.rank > 3:\n            move c to pile\n"
            '        else:\n            move c to stock\n        say "{c.rank}"\n',
            "this text tells every player the rank of 'c', a card in 'stock' that nobody sees",
            15,
        ),
    ],
)
def test_an_attribute_of_a_card_some_readers_cannot_see_is_told(rules: str, message: str, column: int) -> None:
    line = RULES + rules.count("\n") - 1
    assert warnings(rules) == [(message, line, column)]


def test_a_rule_run_when_cards_enter_a_hand_tells_their_attributes() -> None:
    rules = 'when cs enter hand:\n    say "{cs.rank} drawn"\n'
    assert warnings(rules) == [(f"this text tells every player the rank of 'cs', {OWN}", RULES + 1, 11)]


def test_a_rule_naming_the_owner_of_the_hand_tells_others_but_not_him() -> None:
    rule = "when cs enter p.hand:\n"
    told = rule + '    say "{cs.rank} drawn"\n    set p.shown = (top of p.hand).rank\n'
    assert warnings(told) == [
        (f"this text tells every player the rank of 'cs', {OWN}", RULES + 1, 11),
        (f"'p.shown', which every player sees, is set from the rank of 'top of p.hand', {OWN}", RULES + 2, 19),
    ]
    # His own variable, read by him alone, who sees the cards in his hand.
    assert warnings(rule + "    set p.mine = cs.rank\n    set p.mine = (top of p.hand).rank\n") == []


def test_the_warning_says_how_to_mark_a_tell_as_the_rule() -> None:
    text = GAME.replace("RULES\n", '    action ask(c: card from hand):\n        say "{c.rank}"\n')
    (d,) = check(parse(text, "t.game"), Source("t.game", text)).warnings
    assert d.hint == (
        "if the rules tell it, 'reveal c' first (every player is shown the card); to announce a value a player "
        "holds, make it a choice of the action (r: rank, with 'when' he holds one)"
    )


# ============================================================================ not told


@pytest.mark.parametrize(
    "rules",
    [
        # The card is shown to everybody by the rule itself.
        '    action show(c: card from hand):\n        reveal c\n        say "a {c.rank}"\n',
        '    action play(c: card from hand):\n        move c to pile\n        say "a {c.rank}"\n',
        # Told, then played face up by the same action: nobody reads the text before it lies in sight.
        '    action play(c: card from hand):\n        label "play a {c.rank}"\n        say "{c.rank}"\n'
        "        set last = c.rank\n        move c to pile\n",
        '    action play(c: card from hand):\n        move c to hand face up\n        say "a {c.rank}"\n',
        # A value chosen by the player: announcing it is the rule (asking for a rank in Go Fish).
        '    action ask(r: rank) when any c in hand where c.rank == r:\n        label "ask for {r}s"\n',
        # Read from the top of a zone, then that card played face up.
        '    action peek:\n        let c = top of stock\n        move top of stock to pile\n        say "{c.rank}"\n',
        '    action peek:\n        let r = (top of stock).rank\n        move top of stock to pile\n        say "{r}"\n',
        '    action peek:\n        say "{(top of stock).rank}"\n        move top of stock to pile\n',
        # Variables no other player sees.
        "    action note(c: card from hand):\n        set mine = c.rank\n        set secret = c.rank\n",
        "    action note(c: card from hand):\n        set player.mine = c.rank\n",
        # A card he took, by its place, into his own hand.
        "    action take(c: card from (player after player).hand):\n        move c to hand\n"
        "        set mine = c.rank\n",
        # Another player's hand: its owner may be the reader.
        "    action note(q: player from players, c: card from q.hand):\n        set q.mine = c.rank\n",
        # A card chosen by its place, unseen by the chooser: its attributes read 'none' in a label.
        '    action draw(c: card from stock):\n        label "draw a {c.rank}"\n        move c to hand\n',
        # Where the card lies is not sure: moved in one branch only, or given to a procedure.
        "    action play(c: card from hand):\n        if c.rank > 3:\n            move c to pile\n"
        '        say "{c.rank}"\n',
        '    action play(c: card from hand):\n        keep(c)\n        say "{c.rank}"\n',
        # The card itself, shown to each reader as he sees it.
        '    action ask(c: card from hand):\n        say "{player} asks with {c}"\n',
        # The end of a zone read after its card was shown there, or put there face up (a trump under the stock).
        "    action trump:\n        reveal top of stock\n        set last = (top of stock).rank\n",
        "    action trump:\n        turn up bottom of stock\n        set last = (bottom of stock).rank\n",
        "    action trump:\n        move top of stock to stock at bottom face up\n"
        "        set last = (bottom of stock).rank\n",
        "    action trump:\n        move top of hand to stock face up\n        set last = (top of stock).rank\n",
        # His own variable, of a hand that may be his own.
        "    action peek(q: player from players):\n        set mine = (top of q.hand).rank\n",
        "    action peek:\n        for each q in players where q != seat 0:\n"
        "            set mine = (top of q.hand).rank\n",
        # Zones joined, every card of them shown first; cards chosen among those face up.
        "    action show:\n        for each p in players:\n            reveal p.hand + pile\n"
        '            say "{highest c.rank for c in p.hand + pile}"\n',
        '    action show:\n        say "{highest c.rank for c in (cards x in hand + stock where x is face up)}"\n',
    ],
)
def test_nothing_is_reported_where_nothing_hidden_is_told(rules: str) -> None:
    assert warnings(rules) == []


def test_what_the_warning_flags_is_told_at_run_time(tmp_path: Path) -> None:
    """The leak is real: the other player reads the rank of a card he cannot see."""
    path = tmp_path / "tell.game"
    path.write_text(
        GAME.replace(
            "RULES\n",
            '    action ask(c: card from hand):\n        label "ask for {c.rank}s"\n        say "{c.rank}"\n'
            "        set last = c.rank\n",
        ),
        encoding="utf-8",
    )
    state = ruledsl.load_game(path, players=2).new_initial_state(seed=1, log=True)
    state.take_log()
    (held,) = state.observation(0)["zones"]["hand"][0]["cards"]
    state.apply_action(next(a for a in state.legal_actions() if str(a).startswith("ask")))
    assert "cards" not in state.observation(1)["zones"]["hand"][0]
    assert state.describe_last(1) == f"ask for {held}s"
    assert state.take_log() == [held]
    assert state.observation(1)["variables"]["last"] == held


def test_another_players_own_variable_tells_him_at_run_time(tmp_path: Path) -> None:
    rules = "    action tell(c: card from hand):\n        set (player after player).mine = c.rank\n"
    assert [w[0] for w in warnings(rules)] == [
        f"'(player after player).mine', which its player sees, is set from the rank of 'c', {OWN}"
    ]
    path = tmp_path / "tell.game"
    path.write_text(GAME.replace("RULES\n", rules), encoding="utf-8")
    state = ruledsl.load_game(path, players=2).new_initial_state(seed=1)
    (held,) = state.observation(0)["zones"]["hand"][0]["cards"]
    state.apply_action(next(a for a in state.legal_actions() if str(a).startswith("tell")))
    assert "cards" not in state.observation(1)["zones"]["hand"][0]
    assert state.observation(1)["player_variables"]["mine"][1] == held


@pytest.mark.parametrize(
    ("rules", "card", "column"),
    [
        ("    action draw(c: card from stock) when c.rank > 3:\n        move c to hand\n", "'c'", 42),
        (
            '    action draw(c: card from stock):\n        require c.rank > 3, "too low"\n        move c to hand\n',
            "'c'",
            17,
        ),
        ("    action draw when (top of stock).rank > 3:\n        move top of stock to hand\n", "'top of stock'", 22),
    ],
)
def test_a_condition_on_a_card_its_player_cannot_see_is_told_by_his_actions(rules: str, card: str, column: int) -> None:
    line = RULES + (1 if "require" in rules else 0)
    assert warnings(rules) == [
        (
            f"this condition tells the player, by the actions he is offered, the rank of {card}, a card in 'stock' "
            "that nobody sees",
            line,
            column,
        )
    ]


def test_a_condition_on_a_card_he_sees_is_his_to_know() -> None:
    assert warnings("    action play(c: card from hand) when c.rank > 3:\n        move c to pile\n") == []


def test_what_a_condition_on_an_unseen_card_tells_is_real(tmp_path: Path) -> None:
    """The actions offered differ with the cards at the places he chooses among, unseen."""
    path = tmp_path / "draw.game"
    path.write_text(
        GAME.replace("RULES\n", "    action draw(c: card from stock) when c.rank > 3:\n        move c to hand\n"),
        encoding="utf-8",
    )
    game = ruledsl.load_game(path, players=2)
    menus = {tuple(str(a) for a in game.new_initial_state(seed=seed).legal_actions()) for seed in range(8)}
    assert len(menus) > 1


def _tutorial_game(step: str) -> str:
    """The whole rule file docs/tutorial.md shows at the end of section ``step``."""
    text = (Path(__file__).parents[2] / "docs" / "tutorial.md").read_text(encoding="utf-8")
    section = text.split(f"\n## {step}")[1].split("\n## ")[0]
    return section.split('```game title="shed.game"\n')[1].split("```")[0]


@pytest.mark.parametrize(
    ("step", "told", "untold", "line"),
    [
        # Section 6: without the reveal, the scores tell what the hands and reserves hold.
        ("6.", "        reveal p.hand + p.reserve\n", "", 82),
        # Section 4: a text of the card turned over, not shown to everybody.
        ("4.", "        reveal c\n", '        say "{player} turns over a {c.value}"\n', 42),
    ],
)
def test_the_tutorial_warns_where_it_says_it_does(step: str, told: str, untold: str, line: int) -> None:
    text = _tutorial_game(step)
    assert told in text
    for rules, expected in [(text, []), (text.replace(told, untold), [line])]:
        checked = check(parse(rules, "shed.game"), Source("shed.game", rules))
        assert [d.line for d in checked.warnings if d.code == "W406"] == expected
