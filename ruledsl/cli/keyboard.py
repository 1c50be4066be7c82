"""A human at the keyboard: hand it over between seats, show a seat its view, and read its choice."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, TextIO

from ruledsl.cli.menu import Entry, Group, Picker, line_of, menu_entries, reading_in_any_order
from ruledsl.cli.picking import pick, pickers
from ruledsl.engine.limits import MAX_MOVE_TEXT
from ruledsl.engine.reading import NO_REASON, normalise, shown_action
from ruledsl.text.errors import IllegalActionError
from ruledsl.text.render import clip, one_line
from ruledsl.tools.records import person_view

if TYPE_CHECKING:
    from ruledsl.engine.state import GameState


def hand_over(seat: int, out: TextIO, inp: TextIO) -> None:
    """Between two humans at one keyboard: wait until the next one has it, with the last one's cards gone.

    On a terminal the screen is cleared; otherwise (a transcript) the cards were never
    on a screen to hide.
    """
    print(f"=== pass the keyboard to P{seat}; P{seat}, press Enter when the others cannot see", file=out, flush=True)
    if not inp.readline():
        raise EOFError
    if out.isatty():
        out.write("\033[2J\033[H")  # clear the screen, cursor to the top
        out.flush()
    print(f"=== P{seat}", file=out)


def view_lines(state: GameState, seat: int) -> list[str]:
    """Render what ``seat`` sees, from its observation alone, each line fit to print."""
    return [one_line(line) for line in person_view(state, seat)]


def choose_human(state: GameState, seat: int, out: TextIO, inp: TextIO) -> Any:
    """Show the human seat its view and legal actions; read a choice until one is valid.

    A long menu is grouped (``ruledsl.cli.menu``): a number opens a group's own menu, 0 goes
    back; text is read against every legal action, whichever menu is shown.
    """
    for line in view_lines(state, seat):
        print(line, file=out)
    legal = state.legal_actions()

    def shown(a: Any) -> str:
        return shown_action(a, state.prog)

    listed, picked = pickers(legal)  # a set of many cards is chosen card by card
    menus: list[tuple[str, list[Entry]]] = [("", [*menu_entries(listed, shown), *picked])]  # opened, the last shown
    _print_menu(menus, shown, out)
    while True:
        entries = menus[-1][1]
        print(f"P{seat} (you)> ", end="", file=out, flush=True)
        line = inp.readline()
        if not line:
            raise EOFError
        text = line.strip()
        if not text:
            continue
        if text.lower() in ("q", "quit", "exit"):
            raise EOFError
        if text.lower() in ("?", "help", "h"):
            suits = " (♠♥♦♣ may be typed s h d c)" if any(ch in str(a) for a in legal for ch in "♠♥♦♣") else ""
            groups = (
                " A line ending in › holds several actions: its number shows them, 0 goes back."
                if len(menus) > 1 or any(isinstance(e, Group) for e in entries)
                else ""
            )
            if picked:
                groups += " A line 'choose N cards one by one' opens the cards: toggle them, then 'done'."
            if any(a.defn.step_role is not None for a in legal):
                groups += (
                    " Cards chosen one by one ('pick', then 'done') may also be typed at once, "
                    "the action and all its cards ('discard 7♠ 7♥ 2♣')."
                )
            print(
                f"Type the number of an action, or its text{suits}; 'v' shows your view again; 'q' quits.{groups} "
                "A move the rules do not allow now is refused with the reason, and the game goes on unchanged.",
                file=out,
            )
            continue
        if text.lower() in ("v", "view"):
            for view_line in view_lines(state, seat):
                print(view_line, file=out)
            _print_menu(menus, shown, out)
            continue
        if len(text) > MAX_MOVE_TEXT:
            print(f"A move of {len(text):,} characters is longer than any move: type its number, or 'help'.", file=out)
            continue
        if text.isascii() and text.isdigit() and len(text) <= 9:  # '²' is no number; a menu is not that long
            i = int(text)
            if i == 0 and len(menus) > 1:
                menus.pop()
                _print_menu(menus, shown, out)
                continue
            if 1 <= i <= len(entries):
                entry = entries[i - 1]
                if isinstance(entry, Picker):
                    chosen = pick(state, entry, out, inp, f"P{seat} (you)> ")
                    if chosen is not None:
                        return chosen
                    _print_menu(menus, shown, out)
                    continue
                if not isinstance(entry, Group):
                    return entry
                menus.append((entry.title, list(entry.entries)))
                _print_menu(menus, shown, out)
                continue
            back = ", or 0 to go back" if len(menus) > 1 else ""
            print(f"There is no action {i}: choose from 1 to {len(entries)}{back}.", file=out)
            continue
        wanted = normalise(text)
        matches = [a for a in legal if wanted in (normalise(str(a)), normalise(shown(a)))]
        if not matches:
            matches = reading_in_any_order(text, legal, shown)
        if not matches:
            matches = [a for a in legal if normalise(str(a)).startswith(wanted)]
        if not matches and any(a.defn.step_role is not None for a in legal):
            matches = _typed_whole(state, text)
        if len(matches) == 1:
            return matches[0]
        if len(matches) > 1:
            print(
                one_line(
                    f"'{clip(text, 80)}' could be: "
                    + "; ".join(
                        [
                            *(str(a) for a in matches[:6]),
                            *([f"and {len(matches) - 6} more"] if len(matches) > 6 else []),
                        ]
                    )
                    + ". Type more of it, or its number."
                ),
                file=out,
            )
        else:
            # Why not, in the rules' words (never about cards he cannot see); the game is unchanged.
            reason = state.why_illegal(text)
            why = f": {reason}" if reason and reason != NO_REASON else ""
            print(
                one_line(
                    f"'{clip(text, 80)}' is not one of your actions now{why}. "
                    f"Type a number from 1 to {len(entries)}, or 'help'."
                ),
                file=out,
            )


def _typed_whole(state: GameState, text: str) -> list[Any]:
    """A set of cards offered card by card, typed whole: the action it reads as, if legal whole."""
    try:
        return [state.action_from_string(text)]
    except IllegalActionError:
        return []


def _print_menu(menus: list[tuple[str, list[Entry]]], shown: Any, out: TextIO) -> None:
    """Print the menu last opened: numbered lines, under the title of the group it shows, if any."""
    title, entries = menus[-1]
    if title:
        print(one_line(" › ".join(t for t, _ in menus[1:]) + ":"), file=out)
    width = len(str(len(entries)))
    for i, entry in enumerate(entries, 1):
        print(f"  {i:>{width}}) {one_line(line_of(entry, shown))}", file=out)
    if title:
        print(f"  {0:>{width}}) back", file=out)


def watch_the_rest(humans: int, out: TextIO, inp: TextIO) -> bool:
    """Ask the humans, all out of a game that goes on, whether to watch it; False: fast-forward."""
    who = "You are" if humans == 1 else "You are all"
    print(
        f"{who} out. Press Enter to watch the rest, or f to fast-forward to the result: ", end="", file=out, flush=True
    )
    line = inp.readline()
    if not line:
        raise EOFError
    answer = line.strip().lower()
    if answer in ("q", "quit", "exit"):
        raise EOFError
    return answer not in ("f", "fast-forward")
