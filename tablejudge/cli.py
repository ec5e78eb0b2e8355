"""The ``tablejudge`` command. Bad input: exit code 2 and one line on stderr, always."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from typing import NoReturn

from engine.errors import EngineError
from indexes.errors import TablejudgeError
from tablejudge.commands import hint, leaves, play, serve, site, words

#: Modules with a ``register(subparsers)`` function, in the order their commands are listed.
COMMAND_MODULES = (words, play, hint, serve, site, leaves)


class UsageError(Exception):
    """argparse's complaint, raised instead of printed so that main() reports it on one line."""


class Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        raise UsageError(f"{self.prog}: {message}")


def build_parser() -> argparse.ArgumentParser:
    parser = Parser(prog="tablejudge", description="Settle word challenges for BOP!, PDQ and friends.")
    subparsers = parser.add_subparsers(dest="command", required=True, parser_class=Parser)
    for module in COMMAND_MODULES:
        module.register(subparsers)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    try:
        args = build_parser().parse_args(argv)
        return int(args.run(args) or 0)
    except UsageError as error:
        print(str(error), file=sys.stderr)
        return 2
    except (TablejudgeError, EngineError) as error:
        print(f"tablejudge: {error}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        # The reader went away (`tablejudge bop FRS | head`): stop quietly, as Python's docs advise.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1


if __name__ == "__main__":
    sys.exit(main())
