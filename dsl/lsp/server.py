"""``cardscript lsp``: the language server, on pygls, over standard input and output.

Each open buffer is checked in its game (:mod:`cardscript.dsl.lsp.analysis`) when it is
opened and :data:`DEBOUNCE` seconds after the last change, and its diagnostics are
published (those of the program's other files too, open or not: an edit of a rule can
break a card elsewhere). Every open buffer stands for its file in every check. Completion,
hover, go-to-definition and document symbols come from :mod:`cardscript.dsl.lsp.features`;
formatting from :func:`cardscript.dsl.tools.fmt.format_text` (no edit on a syntax error).

Positions: LSP counts UTF-16 code units, spans count code points; pygls's position codec
converts between them on each buffer's lines.
"""

from __future__ import annotations

import asyncio
import os
from pathlib import Path

from lsprotocol import types as T
from pygls.lsp.server import LanguageServer
from pygls.uris import from_fs_path, to_fs_path
from pygls.workspace import TextDocument

from cardscript.dsl.diagnostics import CompileError, Diagnostic, InternalError, Span
from cardscript.dsl.lsp import features as F
from cardscript.dsl.lsp.analysis import Analysis, analyse, same_file, shown_name

#: Seconds of quiet after a change before the buffer is checked.
DEBOUNCE = 0.15
_SEVERITY = {"error": T.DiagnosticSeverity.Error, "warning": T.DiagnosticSeverity.Warning,
             "note": T.DiagnosticSeverity.Information}
_COMPLETION_KIND = {"card": T.CompletionItemKind.Class, "effect": T.CompletionItemKind.Function,
                    "keyword": T.CompletionItemKind.Keyword, "zone": T.CompletionItemKind.Module,
                    "counter": T.CompletionItemKind.Variable, "attribute": T.CompletionItemKind.Property,
                    "type": T.CompletionItemKind.TypeParameter, "label": T.CompletionItemKind.Event}
_SYMBOL_KIND = {"card": T.SymbolKind.Class, "effect": T.SymbolKind.Function, "action": T.SymbolKind.Method}


class CardscriptServer(LanguageServer):
    """The server: the last analysis of each buffer, and the pending debounced checks."""

    def __init__(self) -> None:
        from importlib.metadata import PackageNotFoundError, version

        try:
            v = version("cardscript")
        except PackageNotFoundError:  # run from a source tree that is not installed
            v = "0"
        super().__init__("cardscript", v, text_document_sync_kind=T.TextDocumentSyncKind.Incremental)
        self.analyses: dict[str, Analysis] = {}
        self.pending: dict[str, asyncio.Task[None]] = {}
        self.unopened: set[str] = set()  # files not open whose diagnostics were published, to clear later

    def document(self, uri: str) -> TextDocument:
        return self.workspace.get_text_document(uri)

    def source(self, uri: str) -> str | None:
        """The buffer's text; for a document the client did not open, its file's, or None
        when that cannot be read (no such file, not UTF-8): a request about it gets no answer
        rather than an internal error."""
        try:
            return self.document(uri).source
        except (OSError, UnicodeDecodeError):
            return None

    def analysis(self, uri: str) -> Analysis | None:
        """The analysis of the buffer's current text (checked now when it is stale)."""
        text = self.source(uri)
        if text is None:
            return None
        held = self.analyses.get(uri)
        if held is not None and held.text == text.replace("\r\n", "\n").replace("\r", "\n"):
            return held
        return self.check(uri)

    def check(self, uri: str) -> Analysis | None:
        """Check a buffer and publish its diagnostics and those of the other open buffers of
        its program; None for a buffer with no file on disk (its folder decides its game)."""
        path = to_fs_path(uri)
        if path is None or not os.path.isfile(path):
            return None
        others = {}
        for other in list(self.workspace.text_documents.values()):
            p = to_fs_path(other.uri)
            if p is not None and other.uri != uri and os.path.isfile(p):
                others[p] = other.source
        an = analyse(Path(path), self.document(uri).source, others)
        self.analyses[uri] = an
        self.publish(uri, an.diagnostics)
        opened = set()
        for other_uri in list(self.workspace.text_documents):
            p = to_fs_path(other_uri)
            if p is not None:
                opened.add(os.path.realpath(p))
            if other_uri != uri and p is not None and os.path.realpath(p) in an.elsewhere:
                self.publish(other_uri, an.elsewhere[os.path.realpath(p)])
        for real, diags in an.elsewhere.items():
            # as `check` reports them: renaming an effect breaks the cards that call it, open or not
            file_uri = from_fs_path(real)
            if real in opened or file_uri is None or not (diags or file_uri in self.unopened):
                continue
            self.publish_unopened(file_uri, real, diags)
        return an

    def publish_unopened(self, uri: str, path: str, diags: list[Diagnostic]) -> None:
        """Publish the diagnostics of a file the client has not opened (its text from disk,
        for the UTF-16 columns; empty when it cannot be read), or clear them."""
        try:
            text = Path(path).read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            text = ""
        doc = TextDocument(uri, text)
        out = [lsp_diagnostic(d, doc) for d in diags]
        self.text_document_publish_diagnostics(T.PublishDiagnosticsParams(uri=uri, diagnostics=out))
        if diags:
            self.unopened.add(uri)
        else:
            self.unopened.discard(uri)

    def publish(self, uri: str, diags: list[Diagnostic]) -> None:
        doc = self.document(uri)
        out = [lsp_diagnostic(d, doc) for d in diags]
        self.text_document_publish_diagnostics(T.PublishDiagnosticsParams(uri=uri, diagnostics=out,
                                                                          version=doc.version))

    def schedule(self, uri: str) -> None:
        task = self.pending.pop(uri, None)
        if task is not None:
            task.cancel()

        async def later() -> None:
            await asyncio.sleep(DEBOUNCE)
            self.pending.pop(uri, None)
            try:
                self.check(uri)
            except Exception as exc:  # noqa: BLE001 - a compiler bug is shown, and the server goes on
                self.window_show_message(T.ShowMessageParams(T.MessageType.Error,
                                                             f"cardscript: internal error checking {uri}: {exc!r}"))

        self.pending[uri] = asyncio.ensure_future(later())


def lsp_range(span: Span, doc: TextDocument) -> T.Range:
    """A span (1-based, code points, end exclusive; 0: unknown) as an LSP range on the buffer."""
    lines = doc.lines
    line = max(span.line - 1, 0)
    start = T.Position(line=line, character=max(span.column - 1, 0))
    if span.end_line:
        end = T.Position(line=span.end_line - 1, character=max(span.end_column - 1, 0))
    else:  # no end: to the end of the line
        text = lines[line] if line < len(lines) else ""
        end = T.Position(line=line, character=len(text.rstrip("\n")))
    return doc.position_codec.range_to_client_units(lines, T.Range(start=start, end=end))


def lsp_diagnostic(d: Diagnostic, doc: TextDocument) -> T.Diagnostic:
    """A diagnostic as LSP sends it: ``cardscript check``'s code and message, the hint after it."""
    where = d.span if d.span is not None else Span("", 1, 1, 1, 1)
    message = d.message + (f"\nhint: {d.hint}" if d.hint else "")
    return T.Diagnostic(range=lsp_range(where, doc), message=message, severity=_SEVERITY.get(d.severity),
                        code=d.code, source="cardscript")


def _location(span: Span) -> T.Location:
    uri = from_fs_path(os.path.realpath(span.file)) or span.file
    line, col = max(span.line - 1, 0), max(span.column - 1, 0)
    try:  # the target is usually not open: its text for the UTF-16 columns
        text = Path(span.file).read_text(encoding="utf-8").splitlines()
    except OSError:
        text = []
    doc = TextDocument(uri, "\n".join(text))
    start = doc.position_codec.position_to_client_units(doc.lines, T.Position(line=line, character=col))
    return T.Location(uri=uri, range=T.Range(start=start, end=start))


def _position(doc: TextDocument, pos: T.Position) -> tuple[int, int]:
    p = doc.position_codec.position_from_client_units(doc.lines, pos)
    return p.line, p.character


server = CardscriptServer()


@server.feature(T.TEXT_DOCUMENT_DID_OPEN)
def _did_open(ls: CardscriptServer, params: T.DidOpenTextDocumentParams) -> None:
    ls.unopened.discard(params.text_document.uri)  # published from now on as an open buffer
    ls.check(params.text_document.uri)


@server.feature(T.TEXT_DOCUMENT_DID_CHANGE)
def _did_change(ls: CardscriptServer, params: T.DidChangeTextDocumentParams) -> None:
    ls.schedule(params.text_document.uri)


@server.feature(T.TEXT_DOCUMENT_DID_SAVE)
def _did_save(ls: CardscriptServer, params: T.DidSaveTextDocumentParams) -> None:
    ls.schedule(params.text_document.uri)


@server.feature(T.TEXT_DOCUMENT_DID_CLOSE)
def _did_close(ls: CardscriptServer, params: T.DidCloseTextDocumentParams) -> None:
    uri = params.text_document.uri
    ls.analyses.pop(uri, None)
    task = ls.pending.pop(uri, None)
    if task is not None:
        task.cancel()
    ls.text_document_publish_diagnostics(T.PublishDiagnosticsParams(uri=uri, diagnostics=[]))


@server.feature(T.TEXT_DOCUMENT_COMPLETION, T.CompletionOptions(trigger_characters=['"', " "]))
def _completion(ls: CardscriptServer, params: T.CompletionParams) -> T.CompletionList:
    an = ls.analysis(params.text_document.uri)
    if an is None:
        return T.CompletionList(is_incomplete=False, items=[])
    line, col = _position(ls.document(params.text_document.uri), params.position)
    plain, snippet = T.InsertTextFormat.PlainText, T.InsertTextFormat.Snippet
    items = [T.CompletionItem(label=i.label, kind=_COMPLETION_KIND.get(i.kind), detail=i.detail,
                              insert_text=i.insert, insert_text_format=snippet if i.snippet else plain)
             for i in F.completions(an, line, col)]
    return T.CompletionList(is_incomplete=False, items=items)


@server.feature(T.TEXT_DOCUMENT_HOVER)
def _hover(ls: CardscriptServer, params: T.HoverParams) -> T.Hover | None:
    an = ls.analysis(params.text_document.uri)
    if an is None:
        return None
    target = F.target_at(an, *_position(ls.document(params.text_document.uri), params.position))
    if target is None:
        return None
    return T.Hover(contents=T.MarkupContent(kind=T.MarkupKind.Markdown, value=target.doc))


@server.feature(T.TEXT_DOCUMENT_DEFINITION)
def _definition(ls: CardscriptServer, params: T.DefinitionParams) -> list[T.Location]:
    an = ls.analysis(params.text_document.uri)
    if an is None:
        return []
    target = F.target_at(an, *_position(ls.document(params.text_document.uri), params.position))
    if target is None or target.span is None:
        return []
    return [_location(target.span)]


@server.feature(T.TEXT_DOCUMENT_DOCUMENT_SYMBOL)
def _symbols(ls: CardscriptServer, params: T.DocumentSymbolParams) -> list[T.DocumentSymbol]:
    an = ls.analysis(params.text_document.uri)
    if an is None:
        return []
    doc = ls.document(params.text_document.uri)
    out = []
    for s in F.symbols(an):
        first = lsp_range(Span(s.span.file, s.span.line, 1), doc)  # the item's first line names it
        whole = lsp_range(s.span, doc)
        if (whole.end.line, whole.end.character) < (first.end.line, first.end.character):
            whole = T.Range(start=whole.start, end=first.end)
        out.append(T.DocumentSymbol(name=s.name, kind=_SYMBOL_KIND[s.kind], range=whole, selection_range=first,
                                    detail=s.detail or None))
    return out


@server.feature(T.TEXT_DOCUMENT_FORMATTING)
def _formatting(ls: CardscriptServer, params: T.DocumentFormattingParams) -> list[T.TextEdit] | None:
    from cardscript.dsl.tools.fmt import format_text

    doc = ls.document(params.text_document.uri)
    path = to_fs_path(params.text_document.uri)
    source = ls.source(params.text_document.uri)
    if source is None:
        return None
    try:
        out = format_text(source, shown_name(Path(path)) if path else "<buffer>")
    except (CompileError, InternalError):  # a syntax error: the buffer is left as it is
        return None
    if out == source:
        return []
    end = T.Position(line=len(doc.lines), character=0)
    return [T.TextEdit(range=T.Range(start=T.Position(line=0, character=0), end=end), new_text=out)]


def serve() -> None:
    """Run the server on standard input and output until the client ends it."""
    server.start_io()


__all__ = ["CardscriptServer", "lsp_diagnostic", "lsp_range", "same_file", "serve", "server"]
