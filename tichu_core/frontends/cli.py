"""The ``tichu`` command line (SPEC.md "Command line")."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from pathlib import Path

from tichu_core import Game, TichuError, Variant, VariantError, list_variants, load_variant

# --------------------------------------------------------------------------- variant files
# The commands that only read variant files. They return the exit status and print
# their report to stdout, so that tests can call them without the argument parser.


def _unplayable(variant: Variant) -> str | None:
    """Why no game can be built from ``variant`` (its plugins resolved, a hand dealt), or None."""
    try:
        Game(variant, seed=0)
    except TichuError as exc:
        return str(exc)
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
            print(f"{name:<{width}}  invalid: {exc.problems[0]}")
            status = 1
            continue
        problem = _unplayable(variant)
        if problem is not None:
            print(f"{name:<{width}}  not playable: {problem}")
            status = 1
            continue
        print(f"{name:<{width}}  {variant.players:>2} players  {variant.description}")
    return status


def cli_check(paths: list[str], allow_imports: bool = False) -> int:
    """`tichu check FILE…`: validate files (a directory means its `*.toml`) and build a
    game of each, so that its plugins are resolved and checked; 1 if any fail."""
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
            print(exc)
            status = 1
            continue
        problem = _unplayable(variant)
        if problem is not None:
            print(f"{file}: {problem}")
            status = 1
            continue
        plugins = ", ".join(variant.plugins)
        print(f"OK {file} ({variant.name}, {variant.players} players; plugins: {plugins})")
    return status


def cli_schema() -> int:
    """`tichu schema`: print the JSON Schema of a variant file."""
    from tichu_core.variants.loading import dump_schema_json

    print(dump_schema_json(), end="")
    return 0


# --------------------------------------------------------------------------- commands


def _cmd_variants(args: argparse.Namespace) -> int:
    return cli_variants()


def _cmd_check(args: argparse.Namespace) -> int:
    return cli_check(args.files, allow_imports=args.allow_imports)


def _cmd_schema(args: argparse.Namespace) -> int:
    return cli_schema()


def _assignments(args: argparse.Namespace) -> list[str]:
    """The `--set KEY=VALUE` overrides, with `--players N` as `players=N`."""
    assignments = list(args.set or [])
    if args.players is not None:
        assignments.append(f"players={args.players}")
    return assignments


def _load(args: argparse.Namespace) -> Variant:
    from tichu_core.variants.loading import parse_overrides

    overrides = parse_overrides(_assignments(args))
    return load_variant(args.variant, overrides=overrides, allow_imports=args.allow_imports)


def _unknown_bot(name: str) -> bool:
    """Whether ``name`` is no bot (then said on stderr)."""
    from tichu_core.frontends.bots import BOTS

    if name in BOTS:
        return False
    print(f"tichu: error: unknown bot {name!r}; known: {', '.join(BOTS)}", file=sys.stderr)
    return True


def _cmd_demo(args: argparse.Namespace) -> int:
    from tichu_core.frontends.bots import make_bot, play_match
    from tichu_core.frontends.render import Transcript

    if _unknown_bot(args.bot):
        return 2
    variant = _load(args)
    game = Game(variant, seed=args.seed)
    # Events are fed as they happen: the titles asked at a hand's start are that hand's.
    transcript = Transcript(
        score_lines=game.score_lines, titles=lambda: game.observation(None).titles
    )
    transcript.console.print(
        f"[bold]tichu demo[/bold]: {variant.name} — {variant.description} "
        f"({game.players} players, {game.seats} seats; seed {game.seed}; bots: {args.bot})"
    )
    # Bots only: the transcript shows everything (every seat's cards), a referee's view.
    transcript.feed(game.event_log)
    bots = [make_bot(args.bot, game.seed + p) for p in range(game.players)]
    play_match(game, bots, on_action=lambda action, events: transcript.feed(events))
    return 0


def _cmd_simulate(args: argparse.Namespace) -> int:
    from tichu_core.frontends.simulate import simulate

    return simulate(
        variant=args.variant,
        games=args.games,
        workers=args.workers,
        seed=args.seed,
        bots=args.bots.split(","),
        overrides=_assignments(args),
        allow_imports=args.allow_imports,
    )


def _cmd_play(args: argparse.Namespace) -> int:
    from tichu_core.frontends.terminal import play_in_terminal

    if _unknown_bot(args.bot):
        return 2
    return play_in_terminal(_load(args), seat=args.seat, seed=args.seed, bot=args.bot)


def _cmd_replay(args: argparse.Namespace) -> int:
    from tichu_core.frontends.replay_cli import cli_replay

    result: int = cli_replay(args.file, json_out=args.json, verbose=not args.quiet)
    return result


def _cmd_bench(args: argparse.Namespace) -> int:
    from tichu_core.frontends.bench import main as bench_main

    return bench_main(samples=args.samples, hands=args.hands)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="tichu", description="Tichu rules engine: variants, bots, replays and benchmarks."
    )
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    def variant_options(sub: argparse.ArgumentParser) -> None:
        sub.add_argument("--variant", default="standard", help="variant name or .toml path")
        sub.add_argument(
            "--set",
            action="append",
            metavar="KEY=VALUE",
            help="override an option, e.g. --set game.target=500 (repeatable)",
        )
        sub.add_argument(
            "--players",
            type=int,
            default=None,
            metavar="N",
            help="table size (the option `players`, e.g. 5..12 for grand_seigneur)",
        )
        sub.add_argument("--seed", type=int, default=None, help="seed for shuffling and bots")
        sub.add_argument(
            "--allow-imports",
            action="store_true",
            help="let the variant import plugin modules named by dotted path",
        )

    sub = commands.add_parser("variants", help="list the bundled and registered variants")
    sub.set_defaults(run=_cmd_variants)

    sub = commands.add_parser("check", help="validate variant files")
    sub.add_argument("files", nargs="+")
    sub.add_argument("--allow-imports", action="store_true")
    sub.set_defaults(run=_cmd_check)

    sub = commands.add_parser("schema", help="print the JSON Schema of a variant file")
    sub.set_defaults(run=_cmd_schema)

    sub = commands.add_parser("demo", help="watch one bot match, printed as a transcript")
    variant_options(sub)
    sub.add_argument("--bot", default="greedy", help="bot for every player (random, greedy)")
    sub.set_defaults(run=_cmd_demo)

    sub = commands.add_parser("play", help="play against bots in the terminal")
    variant_options(sub)
    sub.add_argument(
        "--seat",
        type=int,
        default=0,
        help="your seat in the first hand; you stay that player when seats change",
    )
    sub.add_argument("--bot", default="greedy", help="bot for the other players (random, greedy)")
    sub.set_defaults(run=_cmd_play)

    sub = commands.add_parser("simulate", help="bot matches with a summary table")
    variant_options(sub)
    sub.add_argument("--games", type=int, default=100)
    sub.add_argument("--workers", type=int, default=1)
    sub.add_argument("--bots", default="random", help="comma-separated bot per player, cycled")
    sub.set_defaults(run=_cmd_simulate)

    sub = commands.add_parser(
        "replay", help="replay a saved game JSON or a Brettspielwelt .tch log"
    )
    sub.add_argument("file")
    sub.add_argument("--json", metavar="OUT", help="write the rounds as our game records")
    sub.add_argument("--quiet", action="store_true", help="only the summary")
    sub.set_defaults(run=_cmd_replay)

    sub = commands.add_parser("bench", help="performance figures (docs/performance.md)")
    sub.add_argument("--samples", type=int, default=2000, help="hands per move-generation figure")
    sub.add_argument("--hands", type=int, default=300, help="random-bot hands to play")
    sub.set_defaults(run=_cmd_bench)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        result: int = args.run(args)
    except TichuError as error:
        print(f"tichu: error: {error}", file=sys.stderr)
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
