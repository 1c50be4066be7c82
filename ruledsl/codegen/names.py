"""The glossary of generated code: every name it uses, each made or listed here with what it names.

Generated code names only what the compiler makes up: a prefix and a number (``D3``,
``v12``), or one of a few fixed names. No name comes from the rule file, so none can
collide with another or with Python's; the listing for a designer (``codegen.listing``)
opens with this glossary.
"""

from __future__ import annotations

import re

from attrs import frozen

#: Every family of names, in the order the glossary lists them.
FAMILIES: list[Prefix] = []


@frozen
class Prefix:
    """A family of generated names: its prefix and then the numbers of what it names (``CK3_0``)."""

    text: str
    meaning: str  # a line of the glossary
    numbered: bool = True  # False: one name, the prefix alone (SETUP)
    rule: bool = False  # a function whose lines carry the spans of their rule (tools.validate counts them)
    #: Listed only in code that uses it: a family added since listings were first kept, so that
    #: a game without the construct it names keeps the listing it had.
    when_used: bool = False

    def __call__(self, *numbers: int) -> str:
        if len(numbers) == 1:  # the common case, made thousands of times a load
            return f"{self.text}{numbers[0]}"
        return self.text + "_".join(str(x) for x in numbers)


def _family(text: str, meaning: str, *, numbered: bool = True, rule: bool = False, when_used: bool = False) -> Prefix:
    prefix = Prefix(text, meaning, numbered, rule, when_used)
    FAMILIES.append(prefix)
    return prefix


# ---------------------------------------------------------------- functions, by the rule they come from
DEFINE = _family("D", "D3(st, p, args...): the value of definition 3")
PROCEDURE = _family("PR", "PR3(st, p, args...): procedure 3 ('to ...')", rule=True)
TRIGGER = _family("TR", "TR12(st, p, moved): one 'when ... enter' rule (numbered as locals are)", rule=True)
TRIGGERS = _family("TRIG", "TRIG2(st, p, moved): the 'when ... enter' rules of zone 2, in order")
FIRE = _family("FIRE", "FIRE(st, p, dst, moved): the rules of whatever zone dst is", numbered=False)
SETUP = _family("SETUP", "SETUP(st, p): 'setup:'", numbered=False, rule=True)
ROUND_END = _family("ROUND_END", "ROUND_END(st, p): 'round end:'", numbered=False, rule=True)
LEGAL = _family("L", "L3(st, p, out): adds the legal actions of phase 3 to out")
ENTER = _family("E", "E3(st, p): phase 3's 'on enter:'", rule=True)
WON = _family("W", "W3(st, p, winner): auction 3's 'when won by ...:'", rule=True)
UNSOLD = _family("U", "U3(st, p): auction 3's 'when unsold:'", rule=True)
WINDOW_LEGAL = _family("WL", "WL2(st, p, out): adds the legal actions of window 2 to out")
ALL_PASS = _family("AP", "AP2(st, p): window 2's 'when all pass:'", rule=True, when_used=True)
ALL_CHOSEN = _family(
    "AC", "AC3(st, p): phase 3's 'when all chosen:' (a phase played together)", rule=True, when_used=True
)
TOGETHER_WHO = _family("TW", "TW3(st, p): who chooses in phase 3, played together, in seat order", when_used=True)
WINDOW_WHO = _family("WHO", "WHO2(st, p): who may act in window 2, in priority order")
APPLY = _family("X", "X5(st, p, key): applies action 5 with the choices its key names", rule=True)
LABEL = _family("LB", "LB5(key, show): action 5's label, from its key")
LABEL_ARGS = _family("LBA", "LBA5(args, show): action 5's label, from the values chosen")
STRENGTH = _family("ST", "ST5(st, p, key): the strength of bid 5")
RANK_KEY = _family("RANK_KEY", "RANK_KEY(st, p): a player's place in the ranking, best first", numbered=False)
SCORE = _family(
    "SCORE", "SCORE(st, p): a lone player's score, the ranking's first value", numbered=False, when_used=True
)
PAYOFF = _family("PAYOFF", "PAYOFF(st, p): a player's payoff ('payoff:')", numbered=False, when_used=True)
STANDING_KEY = _family("STANDING_KEY", "STANDING_KEY(st, p): a player's standing, best first", numbered=False)
CARD_LABEL = _family("CARD_LABEL", "CARD_LABEL(st, p, c): how card c reads ('label:')", numbered=False)
DOMAIN = _family("DM", "DM5_1(st, p, args): what choice 1 of action 5 may be (explaining a refusal)")
GROUPS = _family("GR", "GR5_1(st, p, args, cards, size): the groups choice 1 of action 5 offers")
RUN_PART = _family(
    "RP", "RP5_1(st, p, args, cards, size): whether cards may be part of a run choice 1 of action 5 offers"
)
CHECK = _family("CK", "CK5_0(st, p, args): condition 0 of action 5")
REASON = _family("RS", "RS5_0(st, p, args): the reason given when condition 0 of action 5 is false")

# ---------------------------------------------------------------- tables and constants
ATTRIBUTE = _family("A", "A2[c]: attribute 2 of card c")
DISPLAY = _family("DISP", "DISP1[i]: how member i of values declaration 1 is shown")
CONSTANT = _family("K", "K7: a constant (a message, a hint, a set of numbers)")
NAMED = _family("NAMED", "NAMED7: the cards of one name ('is named')")
SPAN = _family("S", "S7: a rule's place in the file (a 'go to', for R502)")
ACTION_DEF = _family("AD", "AD5: action 5's definition")
ACTION_CONST = _family("CONST", "CONST5: action 5 when it has no choices (always one object)")
ACTION_CACHE = _family("ACT", "ACT5[key]: action 5 with these choices (made once)")

# ---------------------------------------------------------------- locals, numbered by one counter per compilation
LOCAL = _family("v", "v12: a rule's local, parameter or choice")
HOISTED = _family("h", "h12: a value computed once, before the loops listing an action's choices")
CARD = _family("c", "c12: a card being moved or dealt")
ZONE = _family("z", "z12: a zone's index, or its list of cards")
MOVED = _family("m", "m12: the cards a move moved")
SHOWN = _family("s", "s12: a card being shown, or a bid's strength")
PLAYER = _family("p", "p12: the player a 'go to ... with' names")
DEALT = _family("q", "q12: the player dealt to")
ROUND = _family("i", "i12: a round of dealing")
ORDER = _family("o", "o12: the players in the order they are dealt to")
PLAIN = _family("plain", "plain12: whether cards may move without tracking anyone's knowledge")
CHECKED = _family("w", "w12: a value checked before use (a winner)")
ROUNDS = _family("seq", "seq12: what a 'for each' goes through")
ROUNDS_LEFT = _family("it", "it12: the rounds of a 'for each' not yet gone through (a 'stop' gives them back)")
POOL = _family("pool", "pool12: the cards a choice is made from")
SEEN = _family("seen", "seen12: the kinds of card already offered")
KIND_KEY = _family("k", "k12: a card's kind (or place, for a card its chooser does not see)")
PLACE_INDEX = _family("j", "j12: a card's place in its pool, from the top")
READ_ONCE = _family("t", "t12: an attribute a test reads more than once, read once")
GROUP_VALUE = _family("val", "val12: the value a group of cards shares")
NUMBERS = _family("r", "r12: the numbers a choice is made from")

#: Fixed names: what each function's parameters and temporaries are, and what linking provides.
FIXED: dict[str, str] = {
    "st": "the game state",
    "p": "the acting player",
    "Z": "st.zones: the lists of cards, one per zone (and player)",
    "out": "the list legal actions are added to",
    "key": "an action's choices, as numbers and card kinds",
    "args": "an action's choices, as values",
    "show": "how a label or a 'say' names a card (to one reader)",
    "dst, moved": "the zone cards entered, and those cards",
    "cards, size": "the cards groups are made from, and their size",
    "c": "the card CARD_LABEL shows",
    "m_, r_, fam, base_, c_, k_, exc_, x, _": "a function's temporaries",
    "op_*": "the operations of ruledsl.engine.ops",
    "len, range, sum...": "the only built-ins generated code may call (linking.SAFE_BUILTINS)",
    "KIND, REP": "each card's kind; each kind's first card",
    "NAMES": "each card's name",
    "ZFAM": "each zone list's declaration",
    "ALLP, ALLCARDS": "every player; every card",
    "MISS": "no value yet (a definition's memo)",
    "PLACE, SHOW_NAME": "a card chosen by its place; a card's name, or its place",
    "Action, INTERN, GameOver, RoundOver": "engine values",
    "ANY_ERROR, LABEL_FAILED": "a label that cannot be shown (R504)",
}

#: The functions whose lines are the rule's own: a tool reading the source tells them by name.
RULE_FUNCTION = re.compile(
    "|".join(
        [f"({'|'.join(f.text for f in FAMILIES if f.rule and f.numbered)})\\d+"]
        + [f.text for f in FAMILIES if f.rule and not f.numbered]
    )
)


def glossary(code: str) -> str:
    """The glossary of ``code`` as comment lines, for the head of its listing."""
    lines = ["# Names in this code (ruledsl/codegen/names.py): a prefix and a number, or a fixed name."]
    lines += [
        f"#   {f.text + ('…' if f.numbered else ''):<12} {f.meaning}"
        for f in FAMILIES
        if not f.when_used or re.search(rf"\bdef {f.text}" + (r"\d" if f.numbered else r"\("), code)
    ]
    lines += ["# Fixed names:"]
    lines += [f"#   {name}: {meaning}" for name, meaning in FIXED.items()]
    return "\n".join(lines)


def comment(text: str) -> str:
    """``text`` made safe as one comment line: nothing in it can end the comment."""
    if text.isprintable():  # nearly always: no character to look at one by one
        return "# " + text
    return "# " + "".join(ch if ch.isprintable() else "?" for ch in text)
