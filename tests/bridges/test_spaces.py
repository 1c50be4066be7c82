"""Integer actions and tensors of every named game: a bijection, sorted legal ids, tensors hiding the hidden."""

from __future__ import annotations

import random
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import ruledsl
from ruledsl.loading import check_file, players_range
from ruledsl.resources import named_games
from ruledsl.spaces import ActionSpace, Decisions, SpaceError, TensorLayout
from ruledsl.text.errors import IllegalActionError
from ruledsl.tools import leaks

GAMES = sorted(named_games())


def counts(name: str) -> list[int]:
    low, high = players_range(check_file(name))
    return sorted({low, high})


def played(name: str, players: int, seed: int, steps: int) -> Decisions:
    """A tracked play after up to ``steps`` random ids."""
    game = ruledsl.load_game(name, players=players)
    play = Decisions(ActionSpace(game), game.new_initial_state(seed=seed, track=True))
    rng = random.Random(seed)
    for _ in range(steps):
        if play.is_terminal():
            break
        play.apply_action(rng.choice(play.legal_actions()))
    return play


@pytest.mark.parametrize("name", GAMES)
@settings(max_examples=8, deadline=None)
@given(seed=st.integers(0, 10**6), steps=st.integers(0, 150), pick=st.integers(0, 1))
def test_legal_ids_are_a_bijection_onto_legal_actions(name: str, seed: int, steps: int, pick: int) -> None:
    players = counts(name)[pick % len(counts(name))]
    play = played(name, players, seed, steps)
    space = play.space
    assert space.num_distinct_actions == ActionSpace(ruledsl.load_game(name, players=players)).num_distinct_actions
    if play.is_terminal():
        assert play.legal_actions() == []
        return
    legal = play.state.legal_actions()
    tokens = [space.tokens(a) for a in legal]
    assert len(set(tokens)) == len(legal)  # one id sequence per action: the map is one to one
    for t in tokens:
        assert all(0 <= i < space.num_distinct_actions for i in t)
        assert len(t) == 1 or t[-1] == space.done
    at = len(play.pending)  # a set of cards half chosen: its first ids are taken
    going_on = [(a, t) for a, t in zip(legal, tokens) if t[:at] == play.pending and len(t) > at]
    ids = play.legal_actions()
    assert ids == sorted(set(ids)) and ids
    assert ids == sorted({t[at] for _, t in going_on})
    for a, t in going_on:
        if len(t) == 1:
            assert play.action_of(t[0]) is a
    # Following the ids of one legal action, a step at a time, applies exactly that action.
    action, chosen = going_on[random.Random(seed).randrange(len(going_on))]
    copy = play.clone()
    for i in chosen[at:]:
        assert i in copy.legal_actions()
        copy.apply_action(i)
    assert copy.state.history()[-1] == action


def test_an_id_not_legal_now_is_refused_and_changes_nothing() -> None:
    play = played("quasenbo", 2, seed=3, steps=0)
    wrong = next(i for i in range(play.space.num_distinct_actions) if i not in play.legal_actions())
    before = play.state.observation(0)
    with pytest.raises(IllegalActionError, match="not legal now"):
        play.apply_action(wrong)
    assert play.state.observation(0) == before and play.pending == ()
    with pytest.raises(SpaceError):
        play.space.describe(play.space.num_distinct_actions)


def test_which_games_are_flat() -> None:
    """Sets of cards are chosen card by card; every other game has one id per action."""
    flat = {name: ActionSpace(ruledsl.load_game(name, players=counts(name)[0])).is_flat for name in GAMES}
    assert {name for name, is_flat in flat.items() if not is_flat} == {
        "cartes_magiques",
        "cribbage",  # two cards laid away
        "hearts",  # three cards passed
        "gin_rummy",
        "katzenjammer_blues",
        "president",
        "scopa",
        "tichu",  # pairs, straights, full houses, bombs
    }


def test_a_set_of_cards_is_chosen_card_by_card_then_done() -> None:
    game = ruledsl.load_game("president", players=3)
    space = ActionSpace(game)
    for seed in range(20):
        play = Decisions(space, game.new_initial_state(seed=seed))
        pairs = [a for a in play.state.legal_actions() if a.name == "play" and len(a.key[0]) == 2]
        if pairs:
            break
    t = space.tokens(pairs[0])
    assert len(t) == 4 and t[-1] == space.done
    assert space.describe(t[1]).startswith("pick ") and space.describe(t[3]) == "done"
    player = play.current_player()
    play.apply_action(t[0])
    play.apply_action(t[1])
    assert play.pending == t[:2] and play.current_player() == player  # nothing applied yet
    assert play.legal_actions() and all(i >= t[1] for i in play.legal_actions())  # kinds come in order
    play.apply_action(t[2])
    play.apply_action(t[3])
    assert play.state.history()[-1] == pairs[0] and play.pending == ()


@pytest.mark.parametrize("name", GAMES)
@settings(max_examples=8, deadline=None)
@given(seed=st.integers(0, 10**6), steps=st.integers(0, 150), pick=st.integers(0, 100))
def test_tensors_do_not_change_when_hidden_cards_are_dealt_anew(name: str, seed: int, steps: int, pick: int) -> None:
    players = counts(name)[pick % len(counts(name))]
    play = played(name, players, seed, steps)
    layout = TensorLayout(play.state.game, play.space.num_distinct_actions)
    viewer = pick % players
    obs = layout.observation(play.state.observation(viewer))
    info = layout.information_state(play.state.observation(viewer), play.own[viewer])
    assert len(obs) == layout.observation_size and len(info) == layout.information_state_size
    for k in range(3):
        other = play.state.resample(viewer, random.Random(seed + k))
        assert layout.observation(other.observation(viewer)) == obs
        assert layout.information_state(other.observation(viewer), play.own[viewer]) == info
        assert layout.state_entries(other, viewer) == layout.state_entries(play.state, viewer)


@pytest.mark.parametrize("name", [*GAMES, str(Path(__file__).with_name("window_draw.game"))])
def test_tensors_read_from_the_state_are_those_of_the_observation(name: str) -> None:
    """The bridges' tensors, worked out without the texts of the observation (``state_entries``),
    hold the very numbers of the observation's (``observation_entries``): every seat's and a
    spectator's, at every step of whole games, windows open and cards turned included."""
    for players in counts(name):
        for seed in range(2):
            play = played(name, players, seed, 0)
            layout = TensorLayout(play.state.game, play.space.num_distinct_actions)
            rng = random.Random(seed)
            for _ in range(400):
                state = play.state
                for seat in (*range(players), None):
                    assert layout.state_entries(state, seat) == layout.observation_entries(state.observation(seat))
                seat = state.actor
                own = play.own[seat]
                assert layout.with_own(layout.state_entries(state, seat), own) == layout.information_state_entries(
                    state.observation(seat), own
                )
                if play.is_terminal():
                    break
                play.apply_action(rng.choice(play.legal_actions()))


def test_a_tensor_shows_what_the_player_sees() -> None:
    """Two deals give a player two hands: his tensors differ; his hand's kinds are counted."""
    game = ruledsl.load_game("quasenbo", players=2)
    layout = TensorLayout(game, ActionSpace(game).num_distinct_actions)
    a, b = (game.new_initial_state(seed=s) for s in (1, 2))
    assert layout.observation(a.observation(0)) != layout.observation(b.observation(0))
    names = [seg for seg, _ in layout.segments()]
    assert any(seg.startswith("zone hand[P0]") for seg in names)
    assert sum(w for _, w in layout.segments()) == layout.observation_size
    assert sum(w for _, w in layout.segments(information_state=True)) == layout.information_state_size


def hinted(players: int) -> tuple[ruledsl.GameState, ruledsl.GameState]:
    """A Hanabi deal after P0 told P1 of his cards of one colour, and that state with nothing told."""
    game = ruledsl.load_game("hanabi", players=players)
    st = game.new_initial_state(seed=1)
    st.apply_action(next(a for a in st.legal_actions() if str(a).startswith("tell P1") and "cards" in str(a)))
    untold = st.clone()
    for i in game.program.told:
        untold.cv[i] = [game.program.card_var_init[i]] * len(untold.cv[i])
    return st, untold


def test_a_hint_is_in_the_tensors_of_every_player_by_place() -> None:
    """Hanabi's hints (card variables told to every player) are in the tensors, place by place, as the
    zone's view tells them: the player told sees them on the cards he cannot see."""
    st, untold = hinted(players=2)
    layout = TensorLayout(st.game, ActionSpace(st.game).num_distinct_actions)
    colours = ["white", "yellow", "green", "blue", "red"]
    told = st.observation(1)["zones"]["hand"][1]["told"]["told_colour"]
    places = [(p, colours.index(v)) for p, v in enumerate(told) if v is not None]
    assert places
    for viewer in (0, 1, None):  # the hint changes every player's tensors, the player told's among them
        assert layout.observation(st.observation(viewer)) != layout.observation(untold.observation(viewer))
    names = [seg for seg, _ in layout.segments()]
    base = sum(w for _, w in layout.segments()[: names.index("told told_colour in zone hand[P1], by place")])
    width = 1 + len(colours)  # told or not, then the colour one-hot
    for viewer in (0, 1, None):
        tensor = layout.observation(st.observation(viewer))
        for p, colour in places:
            assert tensor[base + p * width] == 1.0 and tensor[base + p * width + 1 + colour] == 1.0
        assert sum(tensor[base : base + st.prog.n_cards * width]) == 2 * len(places)
    assert len(layout.observation(st.observation(1))) == layout.observation_size
    assert sum(w for _, w in layout.segments()) == layout.observation_size


def test_a_hint_in_the_tensors_tells_no_hidden_card() -> None:
    """The told values stay with their places: a resample, and the leak harness's twins (which keep
    them with the places), give the player the same tensors."""
    st, _ = hinted(players=3)
    layout = TensorLayout(st.game, ActionSpace(st.game).num_distinct_actions)
    for viewer in range(3):
        tensor = layout.observation(st.observation(viewer))
        for k in range(3):
            assert layout.observation(st.resample(viewer, random.Random(k)).observation(viewer)) == tensor
    surface = {"tensor": lambda state, seat, probe: layout.observation(state.observation(seat))}
    report = leaks.check_game(st.game, range(3), 4, 2, leaks.Report(), surfaces=surface)
    assert report.comparisons > 0 and report.followed > 0
    assert not report.leaks, "\n".join(str(leak)[:400] for leak in report.leaks[:5])


def two_card_game(tmp_path: Path, title: str, rest: str) -> ruledsl.Game:
    """A two-player game of two cards, ranked 1 and 2: its title, then ``rest`` of its rule file."""
    rules = tmp_path / f"{title.lower()}.game"
    head = f'game "{title}"\n\nplayers 2\n\nvalues rank: 1, 2\n\ncard rank: rank\n\n'
    rules.write_text(head + rest, encoding="utf-8")
    return ruledsl.load_game(str(rules), players=2)


def test_a_value_told_that_reads_as_none_is_marked_told(tmp_path: Path) -> None:
    """A number told 0 where nothing told is 3 shows as 0: the mark before it says it was told."""
    game = two_card_game(
        tmp_path,
        "Marks",
        """zone deck: shared, hidden
zone hand: per player, seen by others

card var mark = 3, public

deck:
    card "c{rank}" for rank in 1 to 2

setup:
    deal 1 from deck to each hand
    go to play with seat 0

phase play:
    action tell:
        label "tell"
        for each c in (player after player).hand:
            set c.mark = 0
        end game, winner player
""",
    )
    layout = TensorLayout(game, ActionSpace(game).num_distinct_actions)
    st = game.new_initial_state(seed=0)
    before = layout.observation(st.observation(1))
    st.apply_action(st.legal_actions()[0])
    names = [seg for seg, _ in layout.segments()]
    at = sum(w for _, w in layout.segments()[: names.index("told mark in zone hand[P1], by place")])
    after = layout.observation(st.observation(1))
    assert after[at : at + 2] == [1.0, 0.0] and before[at : at + 2] == [0.0, 0.0]
    assert after != before


@pytest.mark.parametrize(
    ("module", "missing", "extra"),
    [
        ("openspiel", "pyspiel", "openspiel"),
        ("pettingzoo", "pettingzoo", "pettingzoo"),
        ("gymnasium", "gymnasium", "pettingzoo"),
    ],
)
def test_a_bridge_without_its_extra_says_what_to_install(module: str, missing: str, extra: str) -> None:
    hide = f"import sys; sys.modules[{missing!r}] = None\n"
    code = hide + f"try:\n import ruledsl.{module}\nexcept ImportError as e:\n print(e)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert f"pip install 'ruledsl[{extra}]'" in out and "Traceback" not in out


def test_a_number_past_the_range_worked_out_at_load_is_a_clear_error(tmp_path: Path) -> None:
    """A bound fixed only in play counts up to the deck's size (here 2): a number past it cannot be numbered."""
    game = two_card_game(
        tmp_path,
        "Counting",
        """zone stock: shared, hidden

deck:
    card "c{rank}" for rank in 1 to 2

var most = 9

setup:
    go to play with seat 0

phase play:
    action say(n: number 0 to most):
        label "say {n}"
        end game, winner player
""",
    )
    space = ActionSpace(game)
    assert space.num_distinct_actions == 3  # 0 to 2: the deck's size
    play = Decisions(space, game.new_initial_state(seed=0))
    with pytest.raises(SpaceError, match="the number 3 chosen .* is outside 0 to 2"):
        play.legal_actions()
