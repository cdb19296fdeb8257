"""The ``tichu`` command line (docs/api.md "Command line")."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, TextIO

from tichu_core import (
    Game,
    TichuError,
    Variant,
    VariantError,
    __version__,
    list_variants,
    load_variant,
)
from tichu_core.frontends.text.render import printable

# --------------------------------------------------------------------------- variant files
# The commands that only read variant files. They return the exit status and print
# their report to stdout, so that tests can call them without the argument parser.


def _unplayable(variant: Variant) -> str | None:
    """Why no game can be built from ``variant`` (its plugins resolved, a hand dealt), or None."""
    try:
        Game(variant, seed=0)
    except TichuError as exc:
        from tichu_core.frontends.cli.failures import failure_location

        where = failure_location(exc)  # a plugin's own line, where one fails
        return str(exc) if where is None else f"{exc}\n  {where}"
    return None


def cli_variants() -> int:
    """`tichu variants`: one line per variant: name, players, description; 1 if any
    variant cannot be played (its line says why)."""
    names = list_variants()
    width = max((len(name) for name in names), default=0)
    status = 0
    for name in names:
        try:
            variant = load_variant(name)
        except VariantError as exc:
            _say(f"{name:<{width}}  invalid: {exc.problems[0]}")
            status = 1
            continue
        problem = _unplayable(variant)
        if problem is not None:
            _say(f"{name:<{width}}  not playable: {problem}")
            status = 1
            continue
        # One line per variant: a newline in a description is shown, never printed.
        _say(f"{name:<{width}}  {variant.players:>2} players  {printable(variant.description)}")
    return status


def _say(line: str, file: TextIO | None = None) -> None:
    """A line holding text from variant files (names, descriptions, messages quoting
    keys): printed with its control characters escaped, never acting on the terminal.
    A line of a multi-line message stays a line."""
    print("\n".join(printable(part) for part in line.split("\n")), file=file)


def cli_check(paths: list[str], allow_imports: bool = False, play: int = 0, seed: int = 0) -> int:
    """`tichu check FILE…`: validate files (a directory means its `*.toml`) and build a
    game of each, so that its plugins are resolved and checked; with ``play``, also play
    that many random matches of each under the engine's invariants (from ``seed``,
    `tichu_core.testing.check_variant`); 1 if any fail."""
    files: list[Path] = []
    for given in map(Path, paths):
        files.extend(sorted(given.glob("*.toml")) if given.is_dir() else [given])
    if not files:
        print("no variant files given", file=sys.stderr)
        return 1
    status = 0
    for file in files:
        try:
            variant = load_variant(file, allow_imports=allow_imports)
        except VariantError as exc:
            _say(str(exc))
            status = 1
            continue
        problem = _unplayable(variant)
        if problem is not None:
            _say(f"{file}: {problem}")
            status = 1
            continue
        plugins = ", ".join(variant.plugins)
        _say(f"OK {file} ({variant.name}, {variant.players} players; plugins: {plugins})")
        if play:
            from tichu_core.testing import check_variant

            try:
                report = check_variant(variant, matches=play, seed=seed)
            except AssertionError as exc:
                _say(f"{file}: an invariant broke: {exc}")
                status = 1
                continue
            except TichuError as exc:  # a plugin failed in a random match
                from tichu_core.frontends.cli.failures import failure_location

                where = failure_location(exc)
                _say(f"{file}: {exc}" + ("" if where is None else f"\n  {where}"))
                status = 1
                continue
            _say(f"OK {file}: {report}")
    return status


def cli_schema() -> int:
    """`tichu schema`: print the JSON Schema of a variant file."""
    from tichu_core import dump_schema_json

    print(dump_schema_json(), end="")
    return 0


def cli_plugins(
    variant: str = "standard", *, as_json: bool = False, allow_imports: bool = False
) -> int:
    """`tichu plugins [VARIANT_OR_FILE]`: the plugins the variant loads, in the order they
    are asked, where each comes from and which hooks it implements (docs/plugins.md)."""
    from tichu_core.frontends.cli.plugins import plugins_report

    report = plugins_report(load_variant(variant, allow_imports=allow_imports))
    if as_json:
        print(report.to_json())
    else:
        for line in report.lines():
            _say(line)
    return 0


# --------------------------------------------------------------------------- commands


def _cmd_variants(args: argparse.Namespace) -> int:
    return cli_variants()


def _cmd_check(args: argparse.Namespace) -> int:
    return cli_check(
        args.files, allow_imports=args.allow_imports, play=args.play, seed=args.seed or 0
    )


def _cmd_schema(args: argparse.Namespace) -> int:
    return cli_schema()


def _cmd_plugins(args: argparse.Namespace) -> int:
    return cli_plugins(args.variant, as_json=args.json, allow_imports=args.allow_imports)


def _assignments(args: argparse.Namespace) -> list[str]:
    """The `--set KEY=VALUE` overrides, with `--players N` as `players=N`."""
    assignments = list(args.set or [])
    if args.players is not None:
        assignments.append(f"players={args.players}")
    return assignments


def _load(args: argparse.Namespace) -> Variant:
    from tichu_core import parse_overrides

    overrides = parse_overrides(_assignments(args))
    return load_variant(args.variant, overrides=overrides, allow_imports=args.allow_imports)


def _cmd_demo(args: argparse.Namespace) -> int:
    from rich.text import Text

    from tichu_core.frontends.bots import make_bot, play_match
    from tichu_core.frontends.text.render import Transcript, match_end_text, safe_text

    variant = _load(args)
    game = Game(variant, seed=args.seed)
    # Events are fed as they happen: the titles asked at a hand's start are that hand's.
    transcript = Transcript(
        score_lines=game.score_lines, titles=lambda: game.observation(None).titles
    )
    # The match end in force, read from the game's variant: the description may predate
    # an override (standard's says "game to 1000" under --set game.target=300).
    rules = game.variant.game
    transcript.console.print(
        Text.assemble(
            ("tichu demo", "bold"),
            ": ",
            safe_text(f"{variant.name} — {variant.description}"),
            f" ({game.players} players, {game.seats} seats; "
            f"{match_end_text(rules.target, rules.hands)}; seed {game.seed}; bots: {args.bot})",
        )
    )
    # Bots only: the transcript shows everything (every seat's cards), a referee's view.
    transcript.feed(game.event_log)
    bots = [make_bot(args.bot, game.seed + p) for p in range(game.players)]
    play_match(game, bots, on_action=lambda action, events: transcript.feed(events))
    return 0


def _cmd_simulate(args: argparse.Namespace) -> int:
    from tichu_core.frontends.sim.simulate import simulate

    return simulate(variant=args.variant, out=args.out, **_run_arguments(args))


def _run_arguments(args: argparse.Namespace) -> dict[str, Any]:
    """What `simulate`, `compare` and `duel` take alike from their options (`run_options`;
    `duel` names its two bots instead of `--bots`)."""
    bots = {"bots": args.bots} if "bots" in args else {}
    return bots | {
        "games": args.games,
        "workers": args.workers,
        "seed": args.seed,
        "overrides": _assignments(args),
        "allow_imports": args.allow_imports,
        "quiet": args.quiet,
        "backend": args.backend,
        "address": args.address,
    }


def _cmd_compare(args: argparse.Namespace) -> int:
    from tichu_core.frontends.sim.compare import compare

    return compare(args.first, args.second, chart=args.chart, out=args.out, **_run_arguments(args))


def _cmd_duel(args: argparse.Namespace) -> int:
    from tichu_core.frontends.sim.duel import duel

    return duel(
        args.first,
        args.second,
        variant=args.variant,
        chart=args.chart,
        out=args.out,
        **_run_arguments(args),
    )


def _cmd_play(args: argparse.Namespace) -> int:
    from tichu_core.frontends.cli.terminal import play_in_terminal

    return play_in_terminal(
        _load(args), seat=args.seat, seed=args.seed, bot=args.bot, bot_delay=args.bot_delay
    )


def _cmd_replay(args: argparse.Namespace) -> int:
    from tichu_core.frontends.cli.replay import cli_replay

    result: int = cli_replay(
        args.files,
        json_out=args.json,
        verbose=not args.quiet,
        allow_imports=args.allow_imports,
    )
    return result


def _cmd_bench(args: argparse.Namespace) -> int:
    from tichu_core.frontends.bench.figures import main as bench_main

    return bench_main(samples=args.samples, hands=args.hands)


def _cmd_serve(args: argparse.Namespace) -> int:
    try:
        from tichu_core.frontends.web.app import serve
    except ImportError as error:  # starlette / uvicorn come with the `web` extra
        print(
            f"tichu serve needs the web extra: pip install 'tichu[web]' ({error})", file=sys.stderr
        )
        return 2
    from tichu_core.frontends.web.protocol import Limits
    from tichu_core.frontends.web.store import StoreError
    from tichu_core.frontends.web.tables import Expiry

    try:
        serve(
            args.host,
            args.port,
            args.db,
            bot_delay=args.bot_delay,
            allowed_hosts=args.allowed_host,
            expiry=Expiry(idle=args.idle_expiry, finished=args.finished_expiry),
            limits=Limits(
                max_tables=args.max_tables,
                tables_per_client=args.tables_per_client,
                bots_per_client=args.bots_per_client,
                bot_actions_per_second=args.bot_rate,
                away_grace=args.away_grace,
                connections_per_client=args.connections_per_client,
                max_records=args.max_records,
            ),
            bomb_window=args.bomb_window,
            trusted_proxies=args.trusted_proxy,
        )
    except StoreError as error:
        _say(f"tichu serve: error: {error}", file=sys.stderr)
        return 2
    return 0


def _seconds(text: str) -> float:
    """The argparse type of `--bot-delay`: seconds from 0 to 10."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected seconds (got {text[:20]!r})") from None
    if not 0 <= value <= 10:
        raise argparse.ArgumentTypeError(f"must be 0 to 10 seconds (got {text[:20]})")
    return value


def _positive_number(text: str) -> float:
    """The argparse type of a positive finite number (expiry seconds, a rate)."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number (got {text[:20]!r})") from None
    if not 0 < value < 1e9:
        raise argparse.ArgumentTypeError(f"must be above 0 and finite (got {text[:20]})")
    return value


# --------------------------------------------------------------------------- argument types
# Each argument is checked as it is parsed: a bad one is an argparse error (usage, the
# argument's name and what is wrong, exit status 2), never a traceback later.

# Worker processes are forked all at once: more than a few per CPU only slows the run,
# and an absurd count would fork the machine to a halt.
WORKERS_PER_CPU = 4


def _whole_number(least: int | None = None, most: int | None = None) -> Callable[[str], int]:
    """The argparse type of a whole-number argument, between `least` and `most`."""

    def parse(text: str) -> int:
        shown = text if len(text) <= 20 else f"{text[:17]}..."
        try:
            value = int(text)
        except ValueError:
            digits = text.strip().lstrip("+-")
            if digits.isdecimal():  # beyond Python's limit on digits converted
                raise argparse.ArgumentTypeError(
                    f"too large a number ({len(digits)} digits)"
                ) from None
            raise argparse.ArgumentTypeError(f"expected a whole number (got {shown!r})") from None
        if least is not None and value < least:
            raise argparse.ArgumentTypeError(f"must be at least {least} (got {value})")
        if most is not None and value > most:
            raise argparse.ArgumentTypeError(f"must be at most {most} (got {shown})")
        return value

    return parse


# Every command's --seed: the seeds a game takes (a signed 64-bit int, as saves hold it),
# also where the command derives the games' seeds from it (simulate, compare).
_seed = _whole_number(least=-(2**63), most=2**63 - 1)  # as Game checks it (a test holds both)


def _max_workers() -> int:
    return WORKERS_PER_CPU * (os.cpu_count() or 1)


def _bot(name: str) -> str:
    """The argparse type of `--bot`: a known bot's name (bundled or registered in the
    entry-point group `tichu.bots`)."""
    from tichu_core.frontends.bots import bot_names, unknown_bot_message

    if name not in bot_names():
        raise argparse.ArgumentTypeError(unknown_bot_message(name))
    return name


def _bots(text: str) -> list[str]:
    """The argparse type of `--bots`: known bots' names separated by commas."""
    return [_bot(name.strip()) for name in text.split(",")]


def build_parser() -> argparse.ArgumentParser:
    # The bot of `demo`, `simulate` and `compare` unless told otherwise: the registry's
    # (the strongest that keeps a table's pace; `search` is rule-aware but slower).
    from tichu_core.frontends.bots import DEFAULT_BOT

    parser = argparse.ArgumentParser(
        prog="tichu", description="Tichu rules engine: variants, bots, replays and benchmarks."
    )
    parser.add_argument("--version", action="version", version=f"tichu {__version__}")
    parser.add_argument(
        "--traceback",
        action="store_true",
        help="on an error, print the whole Python trace (a plugin author's friend)",
    )
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    def variant_options(sub: argparse.ArgumentParser) -> None:
        sub.add_argument(
            "--variant", default="standard", help="variant name or .toml path (default: standard)"
        )
        sub.add_argument(
            "--set",
            action="append",
            metavar="KEY=VALUE",
            help="override an option, e.g. --set game.target=500 (repeatable)",
        )
        sub.add_argument(
            "--players",
            type=_whole_number(),
            default=None,
            metavar="N",
            help="table size (the option `players`, e.g. 5..12 for grand_seigneur; default: "
            "the variant's)",
        )
        sub.add_argument(
            "--seed",
            type=_seed,
            default=None,
            help="seed for shuffling and bots (default: from the clock)",
        )
        sub.add_argument(
            "--allow-imports",
            action="store_true",
            help="let the variant import plugin modules named by dotted path",
        )

    def run_options(sub: argparse.ArgumentParser, bots: str | None) -> None:
        """Who plays the matches of `simulate`, `compare` and `duel` (None: no `--bots`),
        where they run, and the progress bar."""
        sub.add_argument(
            "--workers",
            type=_whole_number(least=1, most=_max_workers()),
            default=1,
            help=f"worker processes (at most {WORKERS_PER_CPU} per CPU; default: 1)",
        )
        if bots is not None:
            sub.add_argument(
                "--bots",
                type=_bots,
                default=bots,
                help=f"comma-separated bot per player, cycled (default: {bots})",
            )
        sub.add_argument(
            "--backend",
            choices=["local", "ray"],
            default="local",
            help="local: this machine's processes (--workers); ray: a Ray cluster (default: local)",
        )
        sub.add_argument(
            "--address",
            metavar="ADDR",
            help="with --backend ray: the cluster's address (`ray start --head` prints it)",
        )
        sub.add_argument("--quiet", action="store_true", help="no progress bar")

    sub = commands.add_parser("variants", help="list the bundled and registered variants")
    sub.set_defaults(run=_cmd_variants)

    sub = commands.add_parser("check", help="validate variant files")
    sub.add_argument("files", nargs="+")
    sub.add_argument("--allow-imports", action="store_true")
    sub.add_argument(
        "--play",
        type=_whole_number(least=0),
        default=0,
        metavar="N",
        help="also play N random matches of each under the engine's invariants "
        "(tichu_core.testing.check_variant; docs/plugins.md)",
    )
    sub.add_argument(
        "--seed",
        type=_seed,
        default=0,
        help="seed of the first of those matches (default: 0; the others follow it)",
    )
    sub.set_defaults(run=_cmd_check)

    sub = commands.add_parser("schema", help="print the JSON Schema of a variant file")
    sub.set_defaults(run=_cmd_schema)

    sub = commands.add_parser(
        "plugins", help="list the plugins a variant loads and the hooks each implements"
    )
    sub.add_argument(
        "variant",
        nargs="?",
        default="standard",
        metavar="VARIANT_OR_FILE",
        help="variant name or .toml path (default: standard)",
    )
    sub.add_argument("--json", action="store_true", help="machine-readable output")
    sub.add_argument(
        "--allow-imports",
        action="store_true",
        help="let the variant import plugin modules named by dotted path",
    )
    sub.set_defaults(run=_cmd_plugins)

    sub = commands.add_parser("demo", help="watch one bot match, printed as a transcript")
    variant_options(sub)
    sub.add_argument(
        "--bot",
        type=_bot,
        default=DEFAULT_BOT,
        help="bot for every player (random, greedy, heuristic or a registered one; "
        f"default: {DEFAULT_BOT})",
    )
    sub.set_defaults(run=_cmd_demo)

    sub = commands.add_parser("play", help="play against bots in the terminal")
    variant_options(sub)
    sub.add_argument(
        "--seat",
        type=_whole_number(least=0),
        default=0,
        help="your seat in the first hand; you stay that player when seats change",
    )
    sub.add_argument(
        "--bot",
        type=_bot,
        default=DEFAULT_BOT,
        help="bot for the other players: a level, easy (learning), medium (a sensible "
        "player), hard (thinks ahead, briefly) or expert (the strongest), or any bot name "
        "(random, greedy, heuristic, search, ... or a registered one; docs/bots.md; "
        f"default: medium, the {DEFAULT_BOT} bot, as in demo, simulate, compare and the "
        "web table)",
    )
    sub.add_argument(
        "--bot-delay",
        type=_seconds,
        default=0.5,
        metavar="SECONDS",
        help="while you may still call Tichu, the pause before each bot action in which "
        "t + Enter calls (default 0.5)",
    )
    sub.set_defaults(run=_cmd_play)

    sub = commands.add_parser("simulate", help="bot matches with a summary table")
    variant_options(sub)
    sub.add_argument(
        "--games", type=_whole_number(least=1), default=100, help="matches to play (default: 100)"
    )
    run_options(sub, bots=DEFAULT_BOT)
    sub.add_argument(
        "--out",
        metavar="FILE.jsonl",
        help="one JSON line per match; rerunning the same command resumes the file",
    )
    sub.set_defaults(run=_cmd_simulate)

    sub = commands.add_parser(
        "compare", help="the same seeded matches under two variants, and their differences"
    )
    sub.add_argument("first", metavar="A", help="variant name or .toml path")
    sub.add_argument("second", metavar="B", help="variant name or .toml path")
    sub.add_argument(
        "--games",
        type=_whole_number(least=2),
        default=200,
        help="pairs to play: one match under A and one under B on the same deals (default: 200)",
    )
    sub.add_argument(
        "--set",
        action="append",
        metavar="KEY=VALUE",
        help="override an option of both variants, e.g. --set game.target=500 (repeatable)",
    )
    sub.add_argument(
        "--players",
        type=_whole_number(),
        default=None,
        metavar="N",
        help="table size of both (default: each variant's)",
    )
    sub.add_argument(
        "--seed", type=_seed, default=None, help="run seed, for both (default: from the clock)"
    )
    sub.add_argument(
        "--allow-imports",
        action="store_true",
        help="let the variants import plugin modules named by dotted path",
    )
    run_options(sub, bots=DEFAULT_BOT)
    sub.add_argument(
        "--chart",
        metavar="FILE.png",
        help="draw the differences and the per-pair differences (needs tichu[plots])",
    )
    sub.add_argument(
        "--out",
        metavar="FILE.jsonl",
        help="one JSON line per pair (both matches); rerunning the same command resumes it",
    )
    sub.set_defaults(run=_cmd_compare)

    sub = commands.add_parser(
        "duel",
        help="two bots in duplicate play: every deal twice, the sides swapped (docs/bots.md)",
    )
    sub.add_argument("first", metavar="A", type=_bot, help="bot A (random, greedy, heuristic, …)")
    sub.add_argument("second", metavar="B", type=_bot, help="bot B")
    variant_options(sub)
    sub.add_argument(
        "--games",
        type=_whole_number(least=2),
        default=100,
        help="deals to play, each twice (so 2N matches; default: 100)",
    )
    run_options(sub, bots=None)
    sub.add_argument(
        "--out",
        metavar="FILE.jsonl",
        help="one JSON line per deal (both matches); rerunning the same command resumes it",
    )
    sub.add_argument(
        "--chart",
        metavar="FILE.png",
        help="draw the differences and the per-deal differences (needs tichu[plots])",
    )
    sub.set_defaults(run=_cmd_duel)

    sub = commands.add_parser(
        "replay", help="replay saved game JSON files or Brettspielwelt .tch logs"
    )
    sub.add_argument("files", nargs="+", metavar="FILE")
    sub.add_argument(
        "--json",
        metavar="OUT",
        help="write the rounds as our game records (never one of the FILEs)",
    )
    sub.add_argument("--quiet", action="store_true", help="only the summary")
    sub.add_argument(
        "--allow-imports",
        action="store_true",
        help="let saved games import the plugin modules their variant names by dotted path",
    )
    sub.set_defaults(run=_cmd_replay)

    sub = commands.add_parser("bench", help="performance figures (docs/performance.md)")
    sub.add_argument(
        "--samples",
        type=_whole_number(least=1),
        default=2000,
        help="hands per move-generation figure (default: 2000)",
    )
    sub.add_argument(
        "--hands",
        type=_whole_number(least=1),
        default=300,
        help="random-bot hands to play (default: 300)",
    )
    sub.set_defaults(run=_cmd_bench)

    sub = commands.add_parser("serve", help="the web table: play in the browser (docs/web.md)")
    sub.add_argument(
        "--host", default="127.0.0.1", help="address to listen on (default: 127.0.0.1)"
    )
    sub.add_argument(
        "--port", type=_whole_number(least=0, most=65535), default=8000, help="port (default: 8000)"
    )
    sub.add_argument(
        "--db",
        default="tichu-tables.db",
        metavar="FILE",
        help="SQLite file of the tables (default: tichu-tables.db)",
    )
    sub.add_argument(
        "--bot-delay",
        type=_seconds,
        default=0.5,
        metavar="SECONDS",
        help="pause before each bot action, so that people can follow (default 0.5)",
    )
    sub.add_argument(
        "--allowed-host",
        action="append",
        default=[],
        metavar="NAME",
        help="a host name requests may be addressed to, besides localhost, 127.0.0.1, ::1 "
        "and --host (repeatable; '*' for any; default: none)",
    )
    sub.add_argument(
        "--idle-expiry",
        type=_positive_number,
        default=6 * 3600.0,
        metavar="SECONDS",
        help="an unfinished table nobody follows goes after this long unchanged (default 21600)",
    )
    sub.add_argument(
        "--finished-expiry",
        type=_positive_number,
        default=600.0,
        metavar="SECONDS",
        help="a finished or failed table nobody follows goes after this long (default 600)",
    )
    sub.add_argument(
        "--max-records",
        type=_whole_number(least=0, most=1_000_000),
        default=200,
        metavar="N",
        help="finished matches' records kept; the oldest beyond are deleted (default 200)",
    )
    sub.add_argument(
        "--max-tables",
        type=_whole_number(least=1, most=100_000),
        default=1000,
        help="tables the server holds at most (default 1000)",
    )
    sub.add_argument(
        "--tables-per-client",
        type=_whole_number(least=1, most=100_000),
        default=20,
        help="tables one client address may hold (default 20)",
    )
    sub.add_argument(
        "--bots-per-client",
        type=_whole_number(least=0, most=1_000_000),
        default=60,
        help="bots one client address may seat at the tables held (default 60)",
    )
    sub.add_argument(
        "--bot-rate",
        type=_positive_number,
        default=50.0,
        metavar="ACTIONS",
        help="bot actions a second, all tables together (default 50)",
    )
    sub.add_argument(
        "--connections-per-client",
        type=_whole_number(least=1, most=1_000_000),
        default=100,
        metavar="N",
        help="connections one client holds at once; every loopback address is one client "
        "(default 100)",
    )
    sub.add_argument(
        "--trusted-proxy",
        action="append",
        default=[],
        metavar="ADDRESS",
        help="a reverse proxy's address whose X-Forwarded-For names the client "
        "(repeatable; default: none, a client is the address it connects from)",
    )
    sub.add_argument(
        "--away-grace",
        type=_positive_number,
        default=60.0,
        metavar="SECONDS",
        help="seconds a place waits for its person after the connection is gone, before "
        "a bot plays it until the person returns (default 60)",
    )
    sub.add_argument(
        "--bomb-window",
        type=_seconds,
        default=2.0,
        metavar="SECONDS",
        help="seconds the bots wait after a play a connected person may want to bomb "
        "(0 to 10; default 2)",
    )
    sub.set_defaults(run=_cmd_serve)
    for sub in commands.choices.values():  # also after the command: tichu demo --traceback
        sub.add_argument("--traceback", action="store_true", default=argparse.SUPPRESS)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command `argv` (default: the process's arguments); return its exit status."""
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as stop:
        # argparse has said what was wrong (or printed the help): its status is ours.
        return 0 if stop.code is None else stop.code if isinstance(stop.code, int) else 2
    try:
        result: int = args.run(args)
    except TichuError as error:
        from tichu_core.frontends.cli.failures import failure_location, print_trace

        if args.traceback:
            print_trace(error)
            return 2
        # Messages quote files (keys, names): shown, never acting on the terminal.
        _say(f"tichu: error: {error}", file=sys.stderr)
        where = failure_location(error)  # a plugin's own line, where one failed
        if where is not None:
            _say(f"  {where}", file=sys.stderr)
            _say("  (tichu --traceback ... shows the whole trace)", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        # The reader went away (e.g. `tichu demo | head`): stop quietly.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 1
    return result


if __name__ == "__main__":
    sys.exit(main())
