"""The ``cardscript`` command line (click). Thin: argument handling and output only.

This module holds the command group; the commands are in
:mod:`cardscript.dsl.cli.authoring` (check, cards, variants, compile, new, fmt, render)
and :mod:`cardscript.dsl.cli.playing` (play, simulate, test, replay), analyze in
:mod:`cardscript.dsl.cli.analyzing`, compare in :mod:`cardscript.dsl.cli.comparing`, the language server in
:mod:`cardscript.dsl.cli.editing`; their shared
helpers in :mod:`cardscript.dsl.cli.common`.

Exit codes: 0 clean, 1 diagnostics with errors (or a failed test/replay), 2 usage error.
"""

from __future__ import annotations

import codecs
import importlib
import sys
from typing import Any

import click

from cardscript.dsl.front import cache

#: command name -> (module of cardscript.dsl.cli, attribute). A command's module is imported
#: when the command is run or listed (--help), so that `cardscript check` does not pay for
#: the imports of `play` and `simulate`.
_COMMANDS = {
    "check": ("authoring", "check"), "cards": ("authoring", "cards"), "variants": ("authoring", "variants"),
    "compile": ("authoring", "compile_cmd"), "new": ("authoring", "new"), "fmt": ("authoring", "fmt_cmd"),
    "render": ("authoring", "render_cmd"),
    "play": ("playing", "play"), "simulate": ("playing", "simulate"), "test": ("playing", "test"),
    "replay": ("playing", "replay"),
    "analyze": ("analyzing", "analyze"),
    "compare": ("comparing", "compare"),
    "lsp": ("editing", "lsp"),  # language server area (issue 15): imports pygls only when run
    "ladder": ("laddering", "ladder"),
}


class _LazyGroup(click.Group):
    """A group whose commands (:data:`_COMMANDS`) are imported on first use."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted({*super().list_commands(ctx), *_COMMANDS})

    def get_command(self, ctx: click.Context, cmd_name: str) -> Any:
        if cmd_name in _COMMANDS and cmd_name not in self.commands:
            module, attribute = _COMMANDS[cmd_name]
            command = getattr(importlib.import_module(f"cardscript.dsl.cli.{module}"), attribute)
            self.add_command(command, cmd_name)
        return super().get_command(ctx, cmd_name)


@click.group(cls=_LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="cardscript")
@click.option("--debug", is_flag=True,
              help="show the traceback of an internal error, for its report (also CARDSCRIPT_DEBUG=1)")
@click.option("--no-cache", is_flag=True,
              help="neither read nor write the cache of parsed scripts (also CARDSCRIPT_CACHE=off; docs/cache.md)")
def main(debug: bool, no_cache: bool) -> None:
    """cardscript: card games written as scripts — check, compile, play and test them."""
    _tolerate_narrow_encodings()
    if no_cache:
        previous = cache.set_disk_cache(False)
        click.get_current_context().call_on_close(lambda: cache.set_disk_cache(previous))


def _tolerate_narrow_encodings() -> None:
    """On a terminal whose encoding cannot write every character of the output (for
    example ``PYTHONIOENCODING=ascii``), print a '?' for the dashes, arrows and stars of
    logs and tables rather than fail with an UnicodeEncodeError in the middle of a game."""
    for stream in (sys.stdout, sys.stderr):
        encoding = getattr(stream, "encoding", None) or "utf-8"
        try:
            wide = codecs.lookup(encoding).name.startswith("utf")
        except LookupError:
            wide = False
        if not wide and hasattr(stream, "reconfigure"):
            stream.reconfigure(errors="replace")


if __name__ == "__main__":  # pragma: no cover
    main()
