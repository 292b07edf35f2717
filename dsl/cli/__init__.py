"""The ``cardscript`` command line (click)."""

from cardscript.dsl.cli.main import main

__all__ = ["main"]
