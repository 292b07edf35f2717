"""The ``cardscript`` command line (click). Thin: argument handling and output only.

This module holds the command group; the commands are in
:mod:`cardscript.dsl.cli.authoring` (check, cards, variants, compile, new, fmt, render)
and :mod:`cardscript.dsl.cli.playing` (play, simulate, test, replay), their shared
helpers in :mod:`cardscript.dsl.cli.common`.

Exit codes: 0 clean, 1 diagnostics with errors (or a failed test/replay), 2 usage error.
"""

from __future__ import annotations

import click

from cardscript.dsl.cli import authoring, playing
from cardscript.dsl.front import cache


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="cardscript")
@click.option("--debug", is_flag=True, hidden=True, help="show tracebacks of internal errors")
@click.option("--no-cache", is_flag=True,
              help="neither read nor write the cache of parsed scripts (also CARDSCRIPT_CACHE=off; docs/cache.md)")
def main(debug: bool, no_cache: bool) -> None:
    """cardscript: card games written as scripts — check, compile, play and test them."""
    if no_cache:
        previous = cache.set_disk_cache(False)
        click.get_current_context().call_on_close(lambda: cache.set_disk_cache(previous))


for _command in (authoring.check, authoring.cards, authoring.variants, authoring.compile_cmd, authoring.new,
                 authoring.fmt_cmd, authoring.render_cmd,
                 playing.play, playing.simulate, playing.test, playing.replay):
    main.add_command(_command)


if __name__ == "__main__":  # pragma: no cover
    main()
