"""``python -m cardscript``: the command line, as the ``cardscript`` entry point."""

from cardscript.dsl.cli import main

main(prog_name="cardscript")
