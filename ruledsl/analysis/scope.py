"""The names bound inside one rule while it is checked, and what the rule may use there."""

from __future__ import annotations

from typing import Any

from attrs import define, field

from ruledsl.analysis.symbols import LocalSym


@define
class Scope:
    """Names bound inside one rule, and what the rule may use."""

    locals: dict[str, LocalSym] = field(factory=dict)
    parent: Scope | None = None
    has_player: bool = True  # `player`, and a bare per-player name, mean the acting player's
    load_time: bool = False  # only options, players and constants (option defaults, the deck)
    in_loop: bool = False
    options_visible: set[str] | None = None  # in option defaults: the options declared before
    players_guard: bool = False  # under a condition on 'players' (a seat may exist only with enough players)

    def child(self, **changes: Any) -> Scope:
        """Return a scope inside this one, with what it may use unless ``changes`` says otherwise."""
        kw: dict[str, Any] = dict(
            parent=self,
            has_player=self.has_player,
            load_time=self.load_time,
            in_loop=self.in_loop,
            options_visible=self.options_visible,
            players_guard=self.players_guard,
        )
        kw.update(changes)
        return Scope(**kw)

    def lookup(self, name: str) -> LocalSym | None:
        """Return the local a name means here, the innermost first; None if it is not local."""
        scope: Scope | None = self
        while scope is not None:
            if name in scope.locals:
                return scope.locals[name]
            scope = scope.parent
        return None

    def visible_locals(self) -> list[str]:
        """Return every local name seen here, the innermost first."""
        names: list[str] = []
        scope: Scope | None = self
        while scope is not None:
            names.extend(scope.locals)
            scope = scope.parent
        return names
