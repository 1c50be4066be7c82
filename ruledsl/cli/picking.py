"""Choose a group of cards at the keyboard card by card: toggle them, see the choice, confirm.

An action whose one choice is a set of cards of a fixed size (pass three, a meld of four)
lists every set; past ``LONG_MENU`` of them the menu offers one line instead, which opens a
picker: the cards that can still complete a legal set are numbered, a number (or a card's
name) toggles one, ``done`` confirms once the cards chosen make a legal set. What is chosen
is one of the listed legal actions, never more: a picker changes how a choice is asked for.
Sets the engine itself offers card by card (``begin``, ``pick``, ``done``) need none.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, TextIO

from ruledsl.cli.menu import LONG_MENU, Picker
from ruledsl.engine.reading import normalise
from ruledsl.text.render import one_line

if TYPE_CHECKING:
    from ruledsl.engine.state import GameState
    from ruledsl.engine.values import Action


def _kinds(action: Action) -> tuple[int, ...] | None:
    """The card kinds an action chooses, if its one choice is a set of cards."""
    key = action.key
    if len(key) == 1 and isinstance(key[0], tuple) and key[0] and all(type(k) is int for k in key[0]):
        return key[0]
    return None


def pickers(legal: Sequence[Action]) -> tuple[list[Action], list[Picker]]:
    """Split ``legal`` into the actions a menu lists and the pickers of the actions whose sets are
    too many to list (more than LONG_MENU, all of one size)."""
    sets: dict[Any, list[Action]] = {}
    for action in legal:
        if _kinds(action) is not None:
            sets.setdefault(action.defn, []).append(action)
    picked = set()
    found: list[Picker] = []
    for defn, group in sets.items():
        sizes = {len(_kinds(a) or ()) for a in group}
        if len(group) > LONG_MENU and len(sizes) == 1:
            picked.add(defn)
            name = _common_words([str(a) for a in group]) or defn.name.replace("_", " ")
            found.append(Picker(f"{name}: choose {sizes.pop()} cards one by one ({len(group)} ways)", tuple(group)))
    return [a for a in legal if a.defn not in picked], found


def _common_words(labels: list[str]) -> str:
    """The words every label begins with ('pass' of 'pass 3♥ 4♦ 5♣', 'pass 6♣ 9♣ Q♦'...)."""
    first = labels[0].split()
    n = len(first)
    for label in labels[1:]:
        words = label.split()
        n = next((i for i in range(min(n, len(words))) if words[i] != first[i]), min(n, len(words)))
    return " ".join(first[:n])


def pick(state: GameState, picker: Picker, out: TextIO, inp: TextIO, prompt: str) -> Action | None:
    """Read a set of cards toggled one by one; return its action when confirmed, None to go back."""
    prog = state.prog
    names: Callable[[int], str] = lambda k: prog.card_names[prog.kind_reps[k]]  # noqa: E731
    sets = [(Counter(_kinds(a) or ()), a) for a in picker.sets]
    chosen: list[int] = []
    while True:
        have = Counter(chosen)
        whole = next((a for c, a in sets if c == have), None)
        grow = sorted({k for c, _ in sets if not have - c for k in c if c[k] > have[k]})
        # In one order, chosen or not (a number keeps its card); another card of a kind chosen,
        # where a legal set holds more of it, on a line of its own.
        offered = sorted([(k, True) for k in have] + [(k, False) for k in grow])
        print(one_line(f"{picker.title}"), file=out)
        print("chosen: " + (", ".join(names(k) for k in chosen) or "(none)"), file=out)
        width = len(str(len(offered)))
        for i, (k, on) in enumerate(offered, 1):
            print(f"  {i:>{width}}) {'[x]' if on else '[ ]'} {names(k)}", file=out)
        if whole is not None:
            print(f"  {'d':>{width}}) done: {whole}", file=out)
        print(f"  {0:>{width}}) back", file=out)
        while True:
            print(prompt, end="", file=out, flush=True)
            line = inp.readline()
            if not line:
                raise EOFError
            text = line.strip()
            if text.lower() in ("q", "quit", "exit"):
                raise EOFError
            if text.lower() in ("d", "done") and whole is not None:
                return whole
            if text == "0" or text.lower() == "back":
                return None
            if text.isascii() and text.isdigit() and 1 <= int(text) <= len(offered):
                k, on = offered[int(text) - 1]
                break
            by_name = [(k, on) for k, on in offered if normalise(names(k)) == normalise(text)]
            if by_name:
                k, on = by_name[0]
                break
            print(
                f"Type a number from 1 to {len(offered)} to take a card or put it back"
                + (", 'done' to confirm" if whole is not None else "")
                + ", or 0 to go back.",
                file=out,
            )
        if on:
            chosen.remove(k)
        else:
            chosen.append(k)
