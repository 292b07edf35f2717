"""``cardscript lsp``: the language server for editors (registered on the group in
:mod:`cardscript.dsl.cli.main`; docs/editors.md). pygls is imported only when it runs, so
no other command pays for it, and a missing pygls is a usage error naming the extra."""

from __future__ import annotations

import click


@click.command("lsp")
@click.option("--stdio", is_flag=True, help="talk over standard input and output (the default and only transport; "
              "accepted because editors pass it)")
def lsp(stdio: bool) -> None:
    """Run the language server (LSP over stdio): diagnostics, completion, hover, definitions, formatting."""
    try:
        from cardscript.dsl.lsp.server import serve
    except ImportError as exc:  # pygls is the optional extra `cardscript[lsp]`
        raise click.UsageError(f"the language server needs pygls ({exc.name or 'pygls'} is missing): "
                               "pip install 'cardscript[lsp]'") from None
    serve()
