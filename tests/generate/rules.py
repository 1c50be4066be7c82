"""Random rule files that check clean: hypothesis strategies over the nodes, written with the unparser.

In the spirit of Csmith and YARPGen for C compilers: each file drawn is a whole game that
``ruledsl check`` accepts (a diagnostic from the checker is a bug of this generator), built
from the constructs whose interplay the engine must get right: a deck, shared and per-player
zones of every visibility, variables of the game, the players and the cards, phases with
ordinary and group choices, deals, moves of whole zones, windows opened by a move (with or
without ``when all pass:``, some offering a phase's action), phases made of effects alone, phases
played together, auctions whose passes are not final (with a call), and rules triggered by cards
entering a zone (some of which move cards during a deal). Then the rest of the language, drawn last
(``more_of_the_language``): options, a deck made of them, a label of the cards, a procedure of every loop,
test and computation on cards, choices of a value, every way a game ends, a standing and a payoff;
tests/generate/coverage.py tells which constructs of the grammar the files use (a test wants them all).

Every game can always go on (each phase ends with an ``otherwise`` action, which is legal
when nothing else is) and ends by its own rules or by the bound on actions it is played
with. ``rule_files()`` draws the tree (``n.GameFile``); ``rule_texts()`` its text; and
``drawn_texts(count, seed)`` draws ``count`` texts deterministically from a seed (the same
seed, the same files), for the benchmark. Expressions are written as text and read with
``parse_expr``, the rest is built node by node.
"""

from __future__ import annotations

from typing import Any

import attrs
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import seed as seeded
from hypothesis import strategies as st

from ruledsl.format.unparse import unparse
from ruledsl.syntax import nodes as n
from ruledsl.syntax.parser import parse, parse_expr

_VISIBILITY_SHARED = ["public", "hidden", "mover"]
#: (A zone per player 'seen by others' took the place of the second 'owner': files draw as before.)
_VISIBILITY_OWN = ["owner", "others", "public", "hidden", "mover"]
#: Group choices of cards (the text after ``cs: ``), each with its shape.
_GROUPS = [
    "cards from hand",
    "2 cards from hand",
    "1 to 3 cards from hand",
    "cards of one rank from hand",
    "1 to 2 cards of one suit from hand",
    "2 cards of different suit from hand",
]
#: Runs (issue 39, item 4), in place of a group of one suit or of different suits half the time, read from a value drawn
#: already (so that the files drawn before runs came are drawn alike): with wild cards (the aces,
#: ``define ace``), of pairs, of one suit; each labelled with the values it spans.
_RUNS = [
    "2 to 3 cards in sequence of rank from hand with ace wild",
    "2 to 4 cards in pairs in sequence of rank from hand with ace wild",
    "3 cards in sequence of rank of one suit from hand with ace wild",
    "2 cards in sequence of rank from hand",
]
#: The wild cards of a run: a definition of one card.
_ACE = n.DefineDecl(name="ace", params=(n.TypedParam(name="c", type=n.CardType()),), body=parse_expr("c.rank == 1"))


def e(text: str) -> n.Expr:
    """An expression node, from its text."""
    return parse_expr(text)


def _text(*parts: str | n.Expr) -> n.Text:
    return n.Text(parts=tuple(parts))


def _action(
    name: str,
    body: list[n.Stmt],
    *,
    choices: tuple[n.Choice, ...] = (),
    when: str | None = None,
    label: n.Expr | None = None,
    otherwise: bool = False,
) -> n.ActionDecl:
    return n.ActionDecl(
        name=name,
        choices=choices,
        when=None if when is None else e(when),
        label=label,
        strength=None,
        body=tuple(body),
        otherwise=otherwise,
    )


def _card(name: str, pool: str = "hand") -> n.Choice:
    return n.Choice(name=name, shape=n.CardChoice(pool=e(pool)))


def _group(name: str, shape: str) -> n.Choice:
    # The shapes are read from an action's text: their nodes are the parser's own.
    tree = parse_game_head(f"action a({name}: {shape}):\n        again\n")
    return tree.choices[0]


def parse_game_head(action_text: str) -> n.ActionDecl:

    tree = parse(f'game "g"\nphase p:\n    {action_text}')
    phase = tree.decls[0]
    assert isinstance(phase, n.PhaseDecl)
    item = phase.items[0]
    assert isinstance(item, n.ActionDecl)
    return item


def _move(what: str, to: str, placement: str = "top", facing: str | None = None) -> n.Move:
    return n.Move(what=e(what), to=e(to), placement=placement, facing=facing)


def _if(cond: str, body: list[n.Stmt], else_: list[n.Stmt] | None = None) -> n.If:
    return n.If(branches=((e(cond), tuple(body)),), else_=tuple(else_ or ()))


class _Zones:
    """The zones of a game drawn: names, whether each is per player, visibility."""

    def __init__(self) -> None:
        self.decls: list[n.ZoneDecl] = []

    def add(self, name: str, per_player: bool, visibility: str) -> str:
        self.decls.append(n.ZoneDecl(name=name, per_player=per_player, visibility=visibility))
        return name

    def visibility(self, name: str) -> str:
        return next(z.visibility for z in self.decls if z.name == name)

    def shared(self) -> list[str]:
        return [z.name for z in self.decls if not z.per_player]

    def own(self) -> list[str]:
        return [z.name for z in self.decls if z.per_player]


@st.composite
def rule_files(draw: Any) -> n.GameFile:
    """Draw a whole game that checks clean (see the module)."""
    low = draw(st.integers(1, 3), label="fewest players")
    high = draw(st.integers(max(2, low), 4), label="most players")
    big = draw(st.integers(0, 7), label="big hands") == 0  # hands too big to list every set
    suits = 3 if big else draw(st.integers(1, 3), label="suits")
    ranks = 12 if big else draw(st.integers(2, 8), label="ranks")
    copies = 1 if big else draw(st.integers(1, 2), label="copies")
    hand_size = 14 if big else draw(st.integers(0, 4), label="hand size")
    high = min(high, 2) if big else high
    low = min(low, high)

    zones = _Zones()
    zones.add("deck", False, draw(st.sampled_from(["hidden", "hidden", "public"]), label="deck visibility"))
    zones.add("hand", True, draw(st.sampled_from(_VISIBILITY_OWN), label="hand visibility"))
    zones.add("pile", False, draw(st.sampled_from(_VISIBILITY_SHARED), label="pile visibility"))
    for i in range(draw(st.integers(0, 3), label="more zones")):
        per_player = draw(st.booleans(), label="per player")
        vis = draw(st.sampled_from(_VISIBILITY_OWN if per_player else _VISIBILITY_SHARED), label="visibility")
        zones.add(f"z{i}", per_player, vis)
    score_vis = draw(st.sampled_from(["public", "owner", "hidden"]), label="score visibility")
    marked = draw(st.booleans(), label="card variable")

    decls: list[n.Decl] = [
        n.PlayersDecl(low=n.Number(value=low), high=n.Number(value=high)),
        n.ValuesDecl(name="suit", members=tuple(n.ValueMember(name=s) for s in ["a", "b", "c"][:suits])),
        n.AttributeDecl(name="rank", type=n.NamedType(name="number")),
        n.AttributeDecl(name="suit", type=n.NamedType(name="suit")),
        *zones.decls,
        n.VarDecl(scope="game", name="turns", type=None, init=n.Number(value=0)),
        n.VarDecl(scope="player", name="score", type=None, init=n.Number(value=0), visibility=score_vis),
    ]
    if marked:
        # Told to every player (a hint) where the hands are seen by all but their owner.
        told = "told" if zones.visibility("hand") == "others" else "public"
        decls.append(n.VarDecl(scope="card", name="marked", type=None, init=n.BoolLit(value=False), visibility=told))
        # A variable naming a card: shown only to who sees the card, remapped by a resample.
        decls.append(n.VarDecl(scope="player", name="last", type=n.CardType(), init=n.NoneLit(), visibility=score_vis))
        # Sets that grow: the ranks each player has laid, the suits laid by all.
        of_number = n.SetType(element=n.NamedType(name="number"))
        decls.append(n.VarDecl(scope="player", name="laid", type=of_number, init=e("{}"), visibility=score_vis))
        of_suit = n.SetType(element=n.NamedType(name="suit"))
        shared_vis = "hidden" if score_vis == "owner" else score_vis  # a game variable has no owner
        decls.append(n.VarDecl(scope="game", name="suits_laid", type=of_suit, init=e("{}"), visibility=shared_vis))
    last_suit = ["a", "b", "c"][suits - 1]
    entry = n.CardEntry(
        name="{rank}{suit}",
        copies=None if copies == 1 else n.Number(value=copies),
        loops=(
            n.CardLoop(name="rank", low=n.Number(value=1), high=n.Number(value=ranks)),
            n.CardLoop(name="suit", low=e("a"), high=e(last_suit)),
        ),
    )
    decls.append(n.DeckDecl(entries=(entry,)))

    limit = draw(st.integers(3, 40), label="turns to the end")
    window = draw(st.sampled_from([None, "plain", "all pass", "all pass go to"]), label="window")
    extra = draw(st.sampled_from([None, "effects", "actions", "together"]), label="second phase")

    setup: list[n.Stmt] = [n.Shuffle(zone=e("deck"))]
    if draw(st.booleans(), label="cut"):
        setup.append(n.Cut(zone=e("deck")))
    if hand_size:
        setup.append(n.Deal(count=n.Number(value=hand_size), source=e("deck"), target="hand"))
    for z in zones.own():
        if z != "hand" and draw(st.booleans(), label=f"deal to {z}"):
            facing = draw(st.sampled_from([None, "up", "down"]), label="dealt facing")
            count = n.Number(value=draw(st.integers(1, 2), label="dealt"))
            setup.append(n.Deal(count=count, source=e("deck"), target=z, facing=facing))
    if draw(st.booleans(), label="turn a card"):
        setup.append(_move("top of deck", "pile", facing=draw(st.sampled_from([None, "up", "down"]))))
    if draw(st.booleans(), label="setup goes to play"):
        setup.append(n.GoTo(phase="play"))
    decls.append(n.SetupDecl(body=tuple(setup)))

    finish = draw(st.integers(0, 3), label="finish") == 0  # a player with nothing left goes out
    play = _play_phase(draw, zones, extra, window, limit, marked, finish, big)
    decls.append(play)
    if "wild='ace'" in repr(play):
        decls.append(_ACE)
    if extra == "effects":
        decls.append(_effects_phase(draw, zones))
    elif extra == "actions" and limit % 4 == 1:
        # An auction whose passes are not final, in a quarter of these files: read from the turn limit
        # drawn already, so the files drawn before it came stay drawn alike.
        decls.append(_auction_phase(limit))
    elif extra == "actions":
        decls.append(_other_phase(draw, zones, limit))
    elif extra == "together":
        decls.append(_together_phase(draw, zones, low >= 2 and not finish))
    if window is not None:
        phases = ["play"] + (["other"] if extra in ("effects", "actions") else [])
        snap = _window(draw, zones, window, zones.visibility("hand") in ("owner", "public"), phases)
        # The play phase's first group offered out of turn too ('offer meld0 from play'), in a third of
        # the files: read from a value drawn already, so the files drawn before it came stay drawn alike.
        # (Not with big hands: a window lists its sets whole, never card by card.)
        melds = [i for i in play.items if isinstance(i, n.ActionDecl) and i.name == "meld0"]  # type: ignore[attr-defined]
        if melds and not big and limit % 3 == 0:
            assert isinstance(snap, n.WindowDecl)
            snap = attrs.evolve(snap, items=(n.OfferItem(name="meld0", phase="play"), *snap.items))
        decls.append(snap)
    decls.extend(_triggers(draw, zones))
    if any(isinstance(d, n.PhaseDecl) and ("EndRound()" in repr(d) or "for_round=True" in repr(d)) for d in decls):
        decls.append(_round_end(draw, zones))
    decls.append(n.RankingDecl(keys=(n.RankingKey(order="highest", value=e("score")),)))
    # Drawn last, so that the files drawn before they were added are drawn still.
    shown = [_shown(draw, d) for d in decls]
    more = _Drawn(big=big, sees_own=zones.visibility("hand") in ("owner", "public"), finish=finish, copies=copies)
    return n.GameFile(header=n.GameHeader(name="Random"), decls=tuple(more_of_the_language(draw, shown, more)))


def _shown(draw: Any, d: n.Decl) -> n.Decl:
    """How a zone or a listed variable is shown to people: the zone sorted, left out while empty; the variable
    labelled. Display only: the game played is the same."""
    if isinstance(d, n.ZoneDecl):
        order = draw(st.sampled_from([(), (), ("rank",), ("suit", "rank"), ("rank", "suit")]), label=f"{d.name} order")
        return attrs.evolve(d, sorted_by=order, unlisted_when_empty=draw(st.booleans(), label=f"{d.name} unlisted"))
    if isinstance(d, n.VarDecl) and d.scope != "card" and d.visibility != "hidden":
        if draw(st.booleans(), label=f"{d.name} label"):
            return attrs.evolve(d, label=f"the {d.name}")
    return d


def _somewhere(draw: Any, zones: _Zones, label: str) -> str:
    """A zone cards may go to from a hand: a shared one, or one of the player's own."""
    return draw(st.sampled_from([z for z in zones.shared() + zones.own() if z not in ("hand", "deck")]), label=label)


def _play_phase(
    draw: Any,
    zones: _Zones,
    extra: str | None,
    window: str | None,
    limit: int,
    marked: bool,
    finish: bool,
    big: bool,
) -> n.Decl:
    items: list[n.Node] = []
    if draw(st.booleans(), label="on enter"):
        items.append(n.OnEnter(body=(n.Add(value=n.Number(value=1), target=e("turns")),)))
    if draw(st.booleans(), label="draw"):
        again = [_if("size of hand < 2", [n.Again()])] if draw(st.booleans(), label="again") else []
        items.append(_action("draw", [_move("top of deck", "hand"), *again], when="deck is not empty"))
    placement = draw(st.sampled_from(["top", "top", "bottom", "random"]), label="laid at")
    facing = draw(st.sampled_from([None, "up", "down"]), label="laid facing")
    lay: list[n.Stmt] = [_move("c", _somewhere(draw, zones, "lay to"), placement, facing)]
    if draw(st.booleans(), label="score the card"):
        lay.append(n.Add(value=e("c.rank"), target=e("score")))
    if marked:
        lay.insert(0, n.SetStmt(target=e("c.marked"), value=n.BoolLit(value=True)))
        lay.insert(0, n.SetStmt(target=e("last"), value=e("c")))
        lay.append(n.Add(value=e("c.rank"), target=e("laid")))
        lay.append(n.Add(value=e("c.suit"), target=e("suits_laid")))
    if draw(st.booleans(), label="say"):
        lay.append(n.Say(message=_text(e("player"), " lays ", e("c"))))
    if draw(st.booleans(), label="reverse"):
        lay.append(_if("c.rank % 2 == 0", [n.Reverse()]))
    if finish:
        # Never the last player in: with every player out, the game goes on (reported to the lead).
        went = "hand is empty and deck is empty and players after player is not empty"
        # Out for the round only, in half the files: back in at the next round's setup (a 'round end:'
        # follows). Read from a value drawn already, so the files drawn before it came stay as they were.
        for_round = limit % 2 == 0
        lay.append(_if(went, [n.Finish(player=n.ActingPlayer(), for_round=for_round)]))
    if window is not None:
        lay.append(n.Open(window="snap"))
    # The conditions read only what every player sees (sizes, variables, the chosen card):
    # one reading a hidden card would tell the player to act something of it, by the rules' own doing.
    # and the chosen card only where its chooser sees it.
    sees_hand = zones.visibility("hand") in ("owner", "public")
    when = "c.rank > size of pile % 4" if sees_hand and draw(st.booleans(), label="lay rule") else None
    label = _text("lay ", e("c")) if draw(st.booleans(), label="lay label") else None
    decl = _action("lay", lay, choices=(_card("c"),), when=when, label=label)
    if draw(st.booleans(), label="require"):
        # A refused move's reason: read only what all see.
        bound = draw(st.integers(2, 9))
        reason = n.RequireClause(cond=e(f"size of pile < {bound}"), reason=_text("the pile is full"))
        if sees_hand and bound % 2 == 0:
            # 'Must if able', where the chooser sees his cards: read from the value drawn already,
            # so the files drawn before it came stay drawn alike.
            reason = n.RequireClause(cond=e(f"c.rank > {bound}"), reason=_text("a higher card if able"), able=True)
        decl = attrs.evolve(decl, requires=(reason,))
    items.append(decl)
    # A group is chosen among cards the chooser sees (R509 otherwise).
    # (Big hands have that one alone: listing the sets of 14 cards of the other shapes is slow.)
    sees_own = zones.visibility("hand") in ("owner", "public")
    groups = draw(st.integers(1 if big else 0, 1 if big else 2), label="groups") if sees_own else 0
    for i in range(groups):
        # With hands of 14 cards, the first is any set of them: 16,383 sets, chosen card by card.
        shape = _GROUPS[0] if big and i == 0 else draw(st.sampled_from(_GROUPS), label="group")
        label = None
        if shape in _GROUPS[-2:] and (limit + i) % 2 == 0:
            shape = _RUNS[(limit // 2 + len(items)) % len(_RUNS)]
            label = _text("meld ", e("cs"), " from ", e("run_low(cs)"), " to ", e("run_high(cs)"))
        body: list[n.Stmt] = [_move("cs", _somewhere(draw, zones, "group to"))]
        if draw(st.booleans(), label="score the group"):
            # Counting sets, in a third of the files (read from the value drawn already, so the files
            # drawn before it came stay drawn alike): the sets of the group whose ranks add up to a five.
            counted = "count sets s of cards in cs where (total c.rank for c in s) % 5 == 0"
            if shape.startswith("cards"):
                # A group of any size (a hand of 23 has 8,388,607 sets: R511, rightly): its pairs alone.
                counted = "count sets s of cards in cs where size of s == 2 and (total c.rank for c in s) % 5 == 0"
            body.append(n.Add(value=e(counted if limit % 3 == 0 else "size of cs"), target=e("score")))
        meld = _action(f"meld{i}", body, choices=(_group("cs", shape),), label=label)
        if (limit + i) % 3 == 1:
            # 'Must if able' across the phase, on a group (listed whole or picked card by card): read
            # from values drawn already, so the files drawn before it came stay drawn alike.
            must = n.RequireClause(cond=e("size of cs >= 2"), reason=_text("two cards or more: you can"), must=True)
            meld = attrs.evolve(meld, requires=(must,))
        elif (limit + i) % 3 == 2:
            # 'Require if able' on a group (listed whole or picked card by card), read alike: a
            # condition some card meets, which the search for a set completes at once.
            able = n.RequireClause(
                cond=e("any c in cs where c.rank % 2 == 0"), reason=_text("an even card: you can"), able=True
            )
            meld = attrs.evolve(meld, requires=(able,))
        items.append(meld)
    source = draw(st.sampled_from([z for z in zones.shared() if z != "deck"]), label="sweep from")
    swept = draw(st.booleans(), label="sweep")
    if swept:
        to = draw(st.sampled_from(["hand", "deck"]), label="sweep to")
        body = [_move(f"all of {source}", to)]
        if to == "deck":
            body.append(n.Shuffle(zone=e("deck")))
        items.append(_action("sweep", body, when=f"{source} is not empty"))
    look = draw(st.sampled_from([None, "turn up", "turn down", "reveal"]), label="look")
    if look is not None:
        # Never a hand's card turned down: its owner would choose it unseen, by the rules' doing.
        places = ["top of pile", "top of deck", "all of pile"] + (["top of hand"] if look != "turn down" else [])
        what = draw(st.sampled_from(places), label="look at")
        stmt: n.Stmt = n.Reveal(what=e(what)) if look == "reveal" else n.TurnFace(up=look == "turn up", what=e(what))
        if look == "reveal" and (what != "all of pile" or swept):
            # A private look, read from what was drawn already (so earlier files draw alike): the
            # deck's top to the player, the others to his left-hand neighbour (his hand's top: a
            # Baron's comparison).
            stmt = n.Show(what=e(what), to=e("player" if what == "top of deck" else "left of player"))
        zone = what.split(" of ")[1]
        items.append(_action("look", [stmt], when=f"{zone} is not empty"))
    own = [z for z in zones.own() if z != "hand"]
    if own and draw(st.booleans(), label="gather"):
        z = draw(st.sampled_from(own), label="gather from")
        items.append(_action("gather", [_move(f"all of {z}", "hand")], when=f"{z} is not empty"))
    if extra in ("effects", "actions", "together"):
        when = "turns % 3 == 0" if draw(st.booleans(), label="switch rule") else None
        items.append(_action("switch", [n.GoTo(phase="other")], when=when))
    if draw(st.booleans(), label="finish"):
        items.append(_action("finish", [n.EndGame()], when="deck is empty"))
    rest: list[n.Stmt] = [
        n.Add(value=n.Number(value=1), target=e("turns")),
        _if(f"turns > {limit}", [n.EndGame()]),
    ]
    ending = draw(st.sampled_from([None, "refill", "round"]), label="deck empty")
    if ending == "refill":
        rest.insert(0, _if("deck is empty", [_move(f"all of {source}", "deck"), n.Shuffle(zone=e("deck"))]))
    elif ending == "round":
        rest.insert(0, _if("deck is empty", [n.EndRound()]))
    items.append(_action("rest", rest, otherwise=True))
    return n.PhaseDecl(name="play", items=tuple(items))


def _effects_phase(draw: Any, zones: _Zones) -> n.Decl:
    """A phase of effects alone: it deals a card to each player, then hands play on."""
    target = draw(st.sampled_from(zones.own()), label="deal to")
    body: list[n.Stmt] = [n.Deal(count=n.Number(value=1), source=e("deck"), target=target)]
    if draw(st.booleans(), label="end when empty"):
        body.insert(0, _if("deck is empty", [n.EndGame()]))
    body.append(n.GoTo(phase="play", player=draw(st.sampled_from([None, e("left of player")]))))
    return n.PhaseDecl(name="other", items=(n.OnEnter(body=tuple(body)),))


def _other_phase(draw: Any, zones: _Zones, limit: int) -> n.Decl:
    """A second phase of actions: give a card to another player, or go back."""
    to = draw(st.sampled_from(zones.own()), label="give to")
    give = _action(
        "give",
        [_move("c", f"q.{to}"), n.GoTo(phase="play", player=draw(st.sampled_from([None, e("q")]), label="to q"))],
        choices=(_card("c"), n.Choice(name="q", shape=n.PlayerChoice(pool=e("players after player")))),
    )
    back = _action("back", [n.Add(value=n.Number(value=1), target=e("turns")), n.GoTo(phase="play")], otherwise=True)
    return n.PhaseDecl(name="other", items=(give, back))


def _auction_phase(limit: int) -> n.Decl:
    """An auction 'until N passes': bids of 1 to 3, a call (bounded: it scores, up to 3), then back to play."""
    number = n.Choice(name="n", shape=n.NumberChoice(low=n.Number(value=1), high=n.Number(value=3)))
    bid = attrs.evolve(_action("bid", [n.Add(value=e("n"), target=e("turns"))], choices=(number,)), strength=e("n"))
    call = _action("call", [n.Add(value=n.Number(value=1), target=e("score"))], when="score < 3")
    won = n.WonHandler(var="w", body=(n.Add(value=n.Number(value=1), target=e("w.score")), n.GoTo(phase="play")))
    unsold = n.UnsoldHandler(body=(n.GoTo(phase="play"),))
    items = (bid, call, n.PassDecl(label=_text("pass"), body=()), won, unsold)
    return n.PhaseDecl(name="other", items=items, is_auction=True, passes=1 + limit % 3)


def _together_phase(draw: Any, zones: _Zones, others: bool) -> n.Decl:
    """A phase played together: each lays a card in secret, or declines; then back to play."""
    to = _somewhere(draw, zones, "offer to")
    offer = _action("offer", [_move("c", to)], choices=(_card("c"),), label=_text("offer ", e("c")))
    decline = _action("decline", [n.Add(value=n.Number(value=1), target=e("score"))])
    done: list[n.Stmt] = [n.Add(value=n.Number(value=1), target=e("turns"))]
    if to in zones.shared() and draw(st.booleans(), label="gather"):
        done.append(_move(f"all of {to}", "pile"))
    done.append(n.GoTo(phase="play"))
    # Some players choose, never nobody (R599): the others after the player only while some are
    # sure to be in (two players or more, none going out).
    who = draw(st.sampled_from([None, e("players after player")]), label="who") if others else None
    return n.PhaseDecl(
        name="other", items=(offer, decline, n.AllChosenHandler(body=tuple(done))), together=True, who=who
    )


def _window(draw: Any, zones: _Zones, kind: str, sees_hand: bool, phases: list[str]) -> n.Decl:
    snap = _action(
        "snap",
        [_move("c", "pile"), n.Add(value=n.Number(value=2), target=e("score"))],
        choices=(_card("c"),),
        when="c.rank % 3 == size of pile % 3" if sees_hand else "size of pile % 3 == 0",
    )
    items: list[n.Node] = [snap, n.PassDecl(label=_text("let it pass"), body=())]
    if kind != "plain":
        body: list[n.Stmt] = [n.Add(value=n.Number(value=1), target=e("turns"))]
        if kind == "all pass go to":
            body.append(n.GoTo(phase=draw(st.sampled_from(phases), label="all pass goes to")))
        items.append(n.AllPassHandler(body=tuple(body)))
    who = draw(st.sampled_from(["players after player", "player", "left of player"]), label="window for")
    return n.WindowDecl(name="snap", who=e(who), items=tuple(items))


def _round_end(draw: Any, zones: _Zones) -> n.Decl:
    """Every card back to the deck (the setup deals again), and the game over after a few rounds."""
    body: list[n.Stmt] = [_move(f"all of {z}", "deck") for z in zones.shared() if z != "deck"]
    for z in zones.own():
        body.append(n.ForEach(var="p", iterable=e("players"), body=(_move(f"all of p.{z}", "deck"),)))
    body.append(_if(f"round == {draw(st.integers(1, 3), label='rounds')}", [n.EndGame()]))
    return n.RoundEndDecl(body=tuple(body))


def _triggers(draw: Any, zones: _Zones) -> list[n.Decl]:
    out: list[n.Decl] = []
    if draw(st.booleans(), label="count entries"):
        out.append(n.TriggerDecl(var="cs", zone=e("pile"), body=(n.Add(value=e("size of cs"), target=e("turns")),)))
    kind = draw(st.sampled_from([None, "cap", "sweep", "score"]), label="hand trigger")
    if kind == "cap":
        # A hand over five cards gives its top card back to the deck (during deals too).
        body: tuple[n.Stmt, ...] = (_if("size of p.hand > 5", [_move("top of p.hand", "deck", "bottom")]),)
        out.append(n.TriggerDecl(var="cs", owner="p", zone=e("hand"), body=body))
    elif kind == "sweep":
        # Moves a whole zone while a deal may be going on.
        source = draw(st.sampled_from(zones.shared()), label="trigger sweeps")
        to = "pile" if source == "deck" else "deck"
        out.append(n.TriggerDecl(var="cs", zone=e("hand"), body=(_move(f"all of {source}", to),)))
    elif kind == "score":
        out.append(
            n.TriggerDecl(
                var="cs", owner="p", zone=e("hand"), body=(n.Add(value=n.Number(value=1), target=e("p.score")),)
            )
        )
    return out


def rule_texts() -> st.SearchStrategy[str]:
    """The text of a random game (see ``rule_files``)."""
    return rule_files().map(unparse)


def drawn_texts(count: int, seed: int) -> list[str]:
    """``count`` rule files drawn deterministically from ``seed``: the same seed, the same files."""
    out: list[str] = []

    @seeded(seed)
    @settings(
        max_examples=count,
        database=None,
        deadline=None,
        phases=[Phase.generate],
        suppress_health_check=list(HealthCheck),
    )
    @given(rule_texts())
    def collect(text: str) -> None:
        if len(out) < count:
            out.append(text)

    collect()
    return out


# ---------------------------------------------------------------- the rest of the language
#
# The constructs of the grammar the games above do not use (tests/generate/coverage.py tells which; the
# test of tests/property/test_random_rules.py asserts every one is drawn), each drawn in some files: options
# and a deck that reads them, a label of the cards, a standing and a payoff, a procedure of every loop
# and test that the lay runs, choices of a value and of groups of a value, and the ways a game ends.
# They are drawn after all the rest, so that the files drawn before them draw their first part alike.
# What they compute from cards a player may not see goes into hidden variables only (read by no text
# and no condition of an action: that would show the cards to him).


@attrs.frozen
class _Drawn:
    """What was drawn already that the rest of the language must fit."""

    big: bool  # hands of 14 cards: no more groups listed whole
    sees_own: bool  # each player sees his hand: groups of it may be chosen (R509)
    finish: bool  # players go out: a finishing order
    copies: int  # of each card


def _decls(text: str) -> list[n.Decl]:
    """Declarations, from their text."""
    return list(parse(f'game "g"\n{text}').decls)


#: Options, of a number (with its doc) and of words; the deck reads one, a requirement reads the deck.
_OPTIONS = """\
option bonus: 0 to 3 = BONUS
    "points a player adds for a card of rank 1"
option style: "plain", "fancy" = STYLE
require size of every card >= 2, "too few cards for {players} players"
"""

#: A procedure of every loop and test, on cards the player may not see: what it finds goes into
#: hidden variables alone. A tuple variable, a player variable kept out of the views.
_TALLY = """\
var tally = 0, hidden
var best: (number, suit) = (0, a), hidden
player var calls = 0, unlisted
define low(cs: cards) = lowest c.rank for c in cs
to tally_up(p: player, cs: cards):
    let k = count c in cs where c.rank > 1
    let run = 0
    for each c in cs where c.rank % 2 == 1 or c is "1a":
        add 1 to k
    while k > 3:
        subtract 2 from k
    repeat 2 times:
        add 1 to run
    repeat:
        subtract 1 from k
        if k <= 1:
            stop
    if any c in cs where c.rank == 1 and c is not "2a":
        set tally = k + run
    else if no c in cs where not (c.rank != 2):
        set tally = -k * 2 / 1
    else:
        set tally = (count c in cs) - size of (cards c in cs where c.suit in {a} and c.rank not in {2, 3})
    if cs is not empty and (every c in cs satisfies c.rank >= 1):
        set best = ((the c in cs with highest c.rank).rank, (first c in cs where c.rank >= 0).suit)
    else if cs is not empty:
        set best = ((the c in cs with lowest c.rank where c.rank > 0).rank, (topmost c in cs where yes).suit)
    if cs is not empty:
        set tally = tally + (total c.rank for c in cs) + (distinct c.suit for c in cs) + low(cs)
        set tally = tally + (highest position of c for c in cs) + (highest c.suit as number for c in cs)
    if some cards c in cs with total c.rank == 5:
        add 1 to tally
    add (count sets s of cards in cs where size of s == 2 and (total c.rank for c in s) == 5) to tally
    let ranked = cards c in cs sorted by (c.rank, c.suit) descending
    if (the item 1 of ranked) != none and {(the item 1 of ranked).rank} overlaps {1, 2}:
        add size of all but top 1 of ranked to tally
    set tally = tally + size of run of p.hand sharing suit + size of top 2 of every card
    set tally = tally + size of bottom 2 of p.hand + (if p.hand is empty then 1 else 0)
    if p.hand is not empty and ((bottom of p.hand) is face up or (top of p.hand) is not face up):
        add 1 to tally
    if p.hand is not empty and ((top of p.hand) is seen by p or (top of p.hand) is not seen by p):
        add 1 to tally
    for each q in players starting with player after p where q is not out and q is out or yes:
        add 1 to tally
    if player before p == right of p or seat 0 == p:
        add 1 to tally
"""
#: A card an option puts in the deck (another in its place), its attributes given.
_DECK_OF_OPTIONS = """\
deck:
    if bonus > 0:
        card "joker": rank 0, suit a
    else:
        card "blank": rank 0, suit a
"""
#: What the procedure reads of the options, where there are some.
_TALLY_OPTIONS = """\
    if any x in (1 to 3) where x == bonus and style == "fancy":
        add 1 to calls
"""

#: How a game ends besides a plain 'end game' (or a draw): each outcome with its players.
_OUTCOMES = {
    "winner": "the q in players with highest q.score",
    "winners": "players starting with player",
    "loser": "player before player",
    "losers": "cards q in players where q == player",
}


def more_of_the_language(draw: Any, decls: list[n.Decl], drawn: _Drawn) -> list[n.Decl]:
    """The game's declarations with the rest of the language drawn into them (see above)."""
    out = list(decls)
    options = draw(st.booleans(), label="options")
    if options:
        out[1:1] = _decls(_OPTIONS.replace("BONUS", "1").replace("STYLE", '"plain"'))
        out = [_deck_of_options(draw, d, drawn) if isinstance(d, n.DeckDecl) else d for d in out]
    if draw(st.booleans(), label="card label"):
        out.extend(_decls('label card c as "{c.rank} of {c.suit}"'))
    if draw(st.booleans(), label="tally"):
        out.extend(_decls(_TALLY + (_TALLY_OPTIONS if options else "")))
        out = [_runs(d, "lay", "tally_up(player, hand)") for d in out]
    if draw(st.booleans(), label="value choice"):
        out = [_with_choices(draw, d, drawn) for d in out]
    ending = draw(st.sampled_from([None, *_OUTCOMES, "draw"]), label="ending")
    if ending is not None:
        outcome: dict[str, Any] = {"draw": True} if ending == "draw" else {ending: e(_OUTCOMES[ending])}
        out = [_ends_with(d, outcome) for d in out]
    standing = draw(st.sampled_from([None, "hand", "order"]), label="standing")
    if standing is not None:
        first = "finishing order" if standing == "order" and drawn.finish else "lowest size of hand"
        out.extend(_decls(f"standing: {first}, then highest score"))
    if drawn.finish and draw(st.booleans(), label="ranked by finishing"):
        out = [
            _decls("ranking: finishing order, then highest score")[0] if isinstance(d, n.RankingDecl) else d
            for d in out
        ]
    payoff = draw(st.sampled_from([None, "score", "bounded"]), label="payoff")
    if payoff is not None:
        out.extend(_decls("payoff: score" if payoff == "score" else "payoff: score - turns, from -100000 to 100000"))
    if options:
        # The options' defaults, which the games are played with: both sides of the deck's 'if'.
        bonus, style = (
            draw(st.integers(0, 3), label="bonus"),
            draw(st.sampled_from(['"plain"', '"fancy"']), label="style"),
        )
        (bonus_decl, style_decl) = _decls(_OPTIONS.replace("BONUS", str(bonus)).replace("STYLE", style))[:2]
        out = [bonus_decl if _named(d, "bonus") else style_decl if _named(d, "style") else d for d in out]
    if draw(st.booleans(), label="read in texts"):
        # What every player may know, read where they read it: a label reading the card chosen (its rank read
        # as none by whoever does not see it), a line telling sizes and faces.
        label = e('if c.rank > 2 then "lay {c}, a high card" else "lay {c}"')
        say = n.Say(
            message=e('"{player} keeps {size of hand}; the pile holds {(count c in pile where c is face up)} up"')
        )
        out = [_lay_reads(d, label, say) for d in out]
    if draw(st.booleans(), label="shifts"):
        # Cards moved by a procedure, from either end of a zone, in loops: where the engine tracks who knows what.
        out.extend(_decls(_SHIFT))
        out = [_with_action(d, "action shift_cards when turns % 2 == 0:\n        shift(player)\n") for d in out]
    out = _often(draw, out, drawn)
    start = draw(st.sampled_from([None, "seat 0", "right of player", "player after player"]), label="deal from")
    if start is not None:
        out = [_replaced(d, lambda x: attrs.evolve(x, start=e(start)) if isinstance(x, n.Deal) else x) for d in out]
    return out


def _often(draw: Any, out: list[n.Decl], drawn: _Drawn) -> list[n.Decl]:
    """What the files drew in a few of them only, in more: groups of every shape, an auction, and a group
    offered out of turn. (A group is chosen among cards the chooser sees: R509.)"""
    if drawn.sees_own and not drawn.big and draw(st.booleans(), label="groups of every shape"):
        (groups,) = _decls(_GROUPS_OFTEN)
        assert isinstance(groups, n.PhaseDecl)
        out = [attrs.evolve(d, items=(*d.items[:-1], *groups.items, d.items[-1])) if _is_play(d) else d for d in out]
        if _ACE not in out:
            out.append(_ACE)  # the wild cards
    if not any(isinstance(d, n.PhaseDecl) and d.is_auction for d in out) and draw(st.booleans(), label="auction"):
        out.append(attrs.evolve(_auction_phase(draw(st.integers(0, 2), label="passes")), name="bidding"))
        out = [_with_action(d, "action bid_now when turns % 5 == 2:\n        go to bidding\n") for d in out]
    few = any(isinstance(d, n.PhaseDecl) and "name='few'" in repr(d) for d in out)
    if few and draw(st.booleans(), label="offer few"):
        out = [
            attrs.evolve(d, items=(n.OfferItem(name="few", phase="play"), *d.items))
            if isinstance(d, n.WindowDecl)
            else d
            for d in out
        ]
    return out


#: A procedure that moves cards from either end of a zone, a few at a time, in loops.
_SHIFT = """\
to shift(p: player):
    if size of deck > 3:
        move bottom of deck to pile
        move top 2 of deck to p.hand
    let moved = 0
    while deck is not empty and moved < 2:
        move bottom 1 of deck to pile face down
        add 1 to moved
    if size of pile > 4:
        move all but top 2 of pile to deck at random
        shuffle deck
    for each q in players starting with p where size of q.hand < 2:
        if deck is not empty:
            move top of deck to q.hand
    if deck is not empty:
        reveal bottom of deck
"""


def _is_play(d: n.Decl) -> bool:
    return isinstance(d, n.PhaseDecl) and d.name == "play"


def _with_action(d: n.Decl, text: str) -> n.Decl:
    """The play phase, with the actions of ``text`` before its otherwise action."""
    if not _is_play(d):
        return d
    (phase,) = _decls(f"phase play:\n    {text}")
    assert isinstance(phase, n.PhaseDecl)
    return attrs.evolve(d, items=(*d.items[:-1], *phase.items, d.items[-1]))


def _named(d: n.Decl, name: str) -> bool:
    return isinstance(d, n.OptionDecl) and d.name == name


def _lay_reads(d: n.Decl, label: n.Expr, say: n.Stmt) -> n.Decl:
    """The play phase, its lay labelled by ``label`` and saying ``say`` last."""
    if not (isinstance(d, n.PhaseDecl) and d.name == "play"):
        return d
    items = tuple(
        attrs.evolve(i, label=label, body=(*i.body, say)) if isinstance(i, n.ActionDecl) and i.name == "lay" else i
        for i in d.items
    )
    return attrs.evolve(d, items=items)


def _deck_of_options(draw: Any, deck: n.DeckDecl, drawn: _Drawn) -> n.DeckDecl:
    """The deck, with a card that an option puts in (or another in its place), its copies maybe repeated."""
    entries = list(deck.entries)
    if draw(st.booleans(), label="repeat the deck"):
        entries = [n.DeckRepeat(count=n.Number(value=drawn.copies), body=(attrs.evolve(entries[0], copies=None),))]
    (extra,) = _decls(_DECK_OF_OPTIONS)
    assert isinstance(extra, n.DeckDecl)
    return attrs.evolve(deck, entries=(*entries, *extra.entries))


def _statements(text: str) -> tuple[n.Stmt, ...]:
    """Statements, from their text (a setup's)."""
    (setup,) = _decls(f"setup:\n    {text}\n")
    assert isinstance(setup, n.SetupDecl)
    return setup.body


def _runs(d: n.Decl, action: str, text: str) -> n.Decl:
    """The play phase, with the statements of ``text`` run at the end of its ``action``."""
    if not (isinstance(d, n.PhaseDecl) and d.name == "play"):
        return d
    items = [
        attrs.evolve(i, body=(*i.body, *_statements(text))) if isinstance(i, n.ActionDecl) and i.name == action else i
        for i in d.items
    ]
    return attrs.evolve(d, items=tuple(items))


def _with_choices(draw: Any, d: n.Decl, drawn: _Drawn) -> n.Decl:
    """The play phase, with an action that names a value (and ends the turn), and groups of a value."""
    if not (isinstance(d, n.PhaseDecl) and d.name == "play"):
        return d
    # Whether a card is seen, or face up, is known to all: a condition may read it.
    seen = "pile is empty or (top of pile) is seen by player or (top of pile) is face up"
    text = f"action name_suit(s: suit, k: number 1 to 2) when turns % 4 == 1 and ({seen}):\n"
    text += "        add position of s * k to score\n        end turn\n"
    return _with_action(d, text)


#: Groups of every shape, in a few files each before: a few cards, a card (a high one if able), of one rank (of two or
#: fewer), of a value named, of different suits, in sequence (with wild cards, of one suit, in pairs, in triples).
_GROUPS_OFTEN = """\
phase play:
    action pair(cs: 1 to 2 cards of one rank from hand):
        move cs to pile
    action suited(t: suit, cs: cards of suit t from hand):
        move cs to pile
    action triple(cs: 6 cards in triples in sequence of rank from hand):
        move cs to pile
    action odd(cs: 2 cards of different suit from hand):
        move cs to pile
    action few(cs: 1 to 2 cards from hand):
        move cs to pile
    action wild_run(cs: 2 to 3 cards in sequence of rank from hand with ace wild):
        move cs to pile
    action high(c: card from hand):
        require if able c.rank > 2, "a high card if you can"
        move c to pile
    action same(cs: cards of one rank from hand):
        move cs to pile
    action suit_run(cs: 3 cards in sequence of rank of one suit from hand):
        move cs to pile
    action pair_run(cs: 2 to 4 cards in pairs in sequence of rank from hand):
        move cs to pile
"""


def _ends_with(d: n.Decl, outcome: dict[str, Any]) -> n.Decl:
    """The declaration, each plain 'end game' of its phases ending so."""
    return _replaced(d, lambda node: attrs.evolve(node, **outcome) if isinstance(node, n.EndGame) else node)


def _replaced(node: Any, change: Any) -> Any:
    """A node with ``change`` applied to every node within it, from the leaves up."""
    if isinstance(node, tuple):
        return tuple(_replaced(x, change) for x in node)
    if not isinstance(node, n.Node):
        return node
    fields = {f.name: _replaced(getattr(node, f.name), change) for f in attrs.fields(type(node)) if f.init}
    return change(attrs.evolve(node, **fields))
