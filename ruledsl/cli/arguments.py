"""The arguments several commands share: declaring them, and reading them (options, bounds, the game to load)."""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ruledsl.cli.exits import Usage
from ruledsl.cli.seats import check_specs
from ruledsl.engine.limits import DEFAULT_MAX_ACTIONS

if TYPE_CHECKING:
    from ruledsl.engine.game import Game
    from ruledsl.tools.executors import ClusterSecurity, Executor

#: The most games one batch plays: their results are held until the statistics are taken (a few KB a game).
MAX_GAMES = 1_000_000
#: The most processes a batch plays in: each holds the game compiled, and a machine has so many cores.
MAX_JOBS = 64


def add_load_arguments(
    p: argparse.ArgumentParser, players_help: str = "number of players (default: the least the game allows)"
) -> None:
    """Declare the game to load: GAME, --players and --option."""
    p.add_argument("game", metavar="GAME", help="a .game file or a bundled game's name")
    p.add_argument("--players", type=int, default=None, help=players_help)
    p.add_argument(
        "--option",
        action="append",
        metavar="NAME=VALUE",
        help="set a game option (repeatable); see 'ruledsl info GAME'",
    )


def add_game_arguments(p: argparse.ArgumentParser, seed_help: str, seats_help: str, seed: int | None) -> None:
    """Declare the game to play and who plays it: the load arguments, --seed and --seats."""
    add_load_arguments(p, "number of players (default: as many as --seats names, else the least the game allows)")
    p.add_argument("--seed", type=int, default=seed, help=seed_help)
    p.add_argument("--seats", metavar="AGENT,...", help=seats_help)


def add_max_actions_argument(p: argparse.ArgumentParser) -> None:
    """Declare --max-actions, the bound on a game's length."""
    p.add_argument(
        "--max-actions",
        type=int,
        default=DEFAULT_MAX_ACTIONS,
        metavar="N",
        help=f"stop a game after N actions, counted as stopped at the action bound (default {DEFAULT_MAX_ACTIONS:,})",
    )


def add_batch_arguments(p: argparse.ArgumentParser, n: int, n_help: str, printed: str) -> None:
    """Declare the arguments of a batch of bot games: how many, how long at most, in how many processes."""
    p.add_argument("-n", type=int, default=n, help=f"{n_help}; at most {MAX_GAMES:,}")
    add_max_actions_argument(p)
    add_placement_arguments(p)
    p.add_argument("--json", action="store_true", help=f"print {printed} as JSON")
    p.add_argument("--rotate", action="store_true", help="rotate the agents through the seats from game to game")


def add_placement_arguments(p: argparse.ArgumentParser) -> None:
    """Declare where a batch is played: --jobs (processes here) or --cluster (Dask)."""
    p.add_argument("--jobs", type=int, default=None, help=f"processes to use (default 1, at most {MAX_JOBS})")
    p.add_argument(
        "--cluster",
        metavar="ADDRESS",
        help="play on Dask instead (needs ruledsl[cluster]): local:N starts N worker processes here, "
        "tls://HOST:8786 joins a running scheduler (tcp:// only on this machine, or with --insecure-cluster); "
        "the results are those of --jobs 1 (see docs/cluster.md)",
    )
    tls = "for --cluster tls://: the PEM file of"
    p.add_argument(
        "--tls-ca-file", metavar="FILE", help=f"{tls} the authority the scheduler's certificate is signed by"
    )
    p.add_argument("--tls-cert", metavar="FILE", help=f"{tls} this machine's certificate")
    p.add_argument("--tls-key", metavar="FILE", help=f"{tls} this machine's private key (if not in --tls-cert)")
    p.add_argument(
        "--insecure-cluster",
        action="store_true",
        help="allow --cluster tcp:// to another machine: no encryption nor authentication, and Dask sends pickles, "
        "so everyone who can reach the scheduler and workers can run code here",
    )


def check_placement(args: argparse.Namespace) -> None:
    """Refuse --jobs and --cluster together, and numbers of processes that cannot be; --jobs then defaults to 1."""
    if args.cluster is not None and args.jobs is not None:
        raise Usage(
            f"--cluster and --jobs both say where to play: use --cluster {args.cluster} alone "
            "(local:N for N Dask processes here), or --jobs alone without Dask"
        )
    if args.jobs is None:
        args.jobs = 1
    if args.jobs < 1:
        raise Usage("--jobs must be at least 1")
    if args.jobs > MAX_JOBS:
        raise Usage(f"--jobs takes at most {MAX_JOBS} processes, not {args.jobs:,}")
    remote = args.cluster is not None and args.cluster.startswith(("tcp://", "tls://"))
    for flag in ("--tls-ca-file", "--tls-cert", "--tls-key", "--insecure-cluster"):
        if getattr(args, flag[2:].replace("-", "_")) not in (None, False) and not remote:
            raise Usage(f"{flag} goes with --cluster tls://HOST:PORT or tcp://HOST:PORT (a scheduler to join)")
    if args.cluster is not None:
        from ruledsl.tools.executors import ClusterError, parse_address

        try:
            parse_address(args.cluster, MAX_JOBS, cluster_security(args))  # an UnsafeCluster goes through: E70x
        except ClusterError as exc:
            raise Usage(str(exc)) from None


def cluster_security(args: argparse.Namespace) -> ClusterSecurity:
    """How --cluster reaches a remote scheduler: the --tls-* files and --insecure-cluster."""
    from ruledsl.tools.executors import ClusterSecurity

    return ClusterSecurity(args.tls_ca_file, args.tls_cert, args.tls_key, args.insecure_cluster)


def open_executor(args: argparse.Namespace) -> Executor:
    """Start what --jobs or --cluster asks for (a Dask cluster may take seconds); a cluster that fails is a Usage."""
    from ruledsl.tools.executors import ClusterError, open_executor

    try:
        return open_executor(args.jobs, args.cluster, MAX_JOBS, cluster_security(args))
    except ClusterError as exc:
        raise Usage(str(exc)) from None


def parse_options(pairs: Sequence[str]) -> dict[str, str]:
    """Read the NAME=VALUE pairs of --option."""
    options: dict[str, str] = {}
    for pair in pairs:
        name, eq, value = pair.partition("=")
        if not eq or not name:
            raise Usage(f"--option takes NAME=VALUE, not '{pair}'")
        if name.strip() in options:
            raise Usage(f"--option {name.strip()} is given twice ({name.strip()}={options[name.strip()]}, {pair})")
        options[name.strip()] = value.strip()
    return options


def parse_vary(text: str, least: int) -> tuple[str, list[str]]:
    """Read an OPTION=V1,V2,... of --vary: the option's name and at least ``least`` values, as typed."""
    name, eq, listed = text.partition("=")
    name = name.strip()
    values = [v.strip() for v in listed.split(",") if v.strip()]
    if not eq or not name or len(values) < least:
        some = "two values or more" if least == 2 else "one value or more"
        raise Usage(f"--vary takes an option and {some}, as double=no,yes; not '{text}'")
    return name, values


def options_text(options: dict[str, Any]) -> str:
    """The options a game is played with, as --option would give them: 'decks=1, double=no'."""
    from ruledsl.text.render import show_value

    return ", ".join(f"{k}={show_value(v)}" for k, v in sorted(options.items()))


def load_from(args: argparse.Namespace, extra: dict[str, str] | None = None, text: str | None = None) -> Game:
    """Load the game the arguments name; ``extra`` adds options to --option's. ``text``: the rules' text, read
    already (kept by ``serve --data``: the rule file is gone), in place of the file's."""
    from ruledsl.loading import check_source, load_checked, load_game
    from ruledsl.text.errors import OptionError
    from ruledsl.text.source import Source

    players = args.players
    seats = getattr(args, "seats", None)
    options = {**parse_options(args.option or []), **(extra or {})}
    max_actions = args.max_actions

    def load(players: int | None) -> Game:
        if text is None:
            return load_game(args.game, players=players, options=options, max_actions=max_actions)
        checked = check_source(Source(str(args.game), text))
        return load_checked(checked, players, options, max_actions, Path(args.game).resolve())

    if seats:
        check_specs(seats)  # a mistyped agent is the mistake to report, not the count it implies
    if players is not None or not seats:
        return load(players)
    from ruledsl.agents import split_seats

    players = len(split_seats(seats))  # '--seats human,random,random' says how many play
    try:
        return load(players)
    except OptionError as exc:
        if exc.diagnostics[0].code != "E603":
            raise
        s = "s" if players != 1 else ""
        raise Usage(
            f"--seats names {players} seat{s}: {exc.diagnostics[0].message}; name one agent per player"
        ) from None


def check_max_actions(args: argparse.Namespace) -> None:
    """Refuse an action bound below 1: before loading the game."""
    if args.max_actions < 1:
        raise Usage(f"--max-actions takes a number of actions of at least 1, not {args.max_actions}")


def check_batch(args: argparse.Namespace) -> None:
    """Refuse the numbers of a batch of bot games that cannot be: before loading the game."""
    check_max_actions(args)
    if args.n < 1:
        raise Usage("-n must be at least 1")
    if args.n > MAX_GAMES:
        raise Usage(f"-n takes at most {MAX_GAMES:,} games, not {args.n:,}")
    check_placement(args)
