"""The language server (``cardscript lsp``, docs/editors.md): :mod:`.analysis` checks a
buffer in its game, :mod:`.incremental` re-builds only the edited items, :mod:`.features`
answers completion, hover, definition and symbols, :mod:`.server` speaks LSP (pygls)."""
