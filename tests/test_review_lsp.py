"""Review of ``cardscript lsp`` as a careless client: requests about a document the client
never opened, whose file is missing or not UTF-8, get an empty answer, never an internal
error (a JSON-RPC error with a Python traceback)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

pytest_lsp = pytest.importorskip("pytest_lsp")
from lsprotocol import types as T  # noqa: E402
from pygls.uris import from_fs_path  # noqa: E402
from pytest_lsp import ClientServerConfig, LanguageClient  # noqa: E402

pytestmark = pytest.mark.asyncio(loop_scope="module")


@pytest_lsp.fixture(scope="module", loop_scope="module",
                    config=ClientServerConfig(server_command=[sys.executable, "-m", "cardscript", "lsp"]))
async def client(lsp_client: LanguageClient):
    await lsp_client.initialize_session(T.InitializeParams(capabilities=T.ClientCapabilities()))
    yield
    await lsp_client.shutdown_session()


def _uri(path: Path) -> str:
    uri = from_fs_path(str(path))
    assert uri is not None
    return uri


def _requests(client: LanguageClient, uri: str) -> list:  # type: ignore[type-arg]
    doc = T.TextDocumentIdentifier(uri=uri)
    at = T.Position(line=0, character=1)
    return [
        client.text_document_formatting_async(T.DocumentFormattingParams(
            text_document=doc, options=T.FormattingOptions(tab_size=2, insert_spaces=True))),
        client.text_document_hover_async(T.HoverParams(text_document=doc, position=at)),
        client.text_document_definition_async(T.DefinitionParams(text_document=doc, position=at)),
        client.text_document_completion_async(T.CompletionParams(text_document=doc, position=at)),
        client.text_document_document_symbol_async(T.DocumentSymbolParams(text_document=doc)),
    ]


async def test_requests_about_a_missing_unopened_file_get_empty_answers(client: LanguageClient,
                                                                        tmp_path: Path) -> None:
    # formatting read the document's text from disk and answered FileNotFoundError (-32603)
    uri = _uri(tmp_path / "never-there.cards")
    formatting, hover, definition, completion, symbols = [await r for r in _requests(client, uri)]
    assert formatting is None and hover is None and list(definition) == [] and list(symbols) == []
    assert list(completion.items) == []


async def test_requests_about_an_unopened_non_utf8_file_get_empty_answers(client: LanguageClient,
                                                                          tmp_path: Path) -> None:
    # every feature read the file to compare it with the last analysis: UnicodeDecodeError
    path = tmp_path / "latin1.cards"
    path.write_bytes(b'card "Caf\xe9": hero, cost 3\n  play: +2 power\n')
    formatting, hover, definition, completion, symbols = [await r for r in _requests(client, _uri(path))]
    assert formatting is None and hover is None and list(definition) == [] and list(symbols) == []
    assert list(completion.items) == []


async def _published(client: LanguageClient, uri: str, want_empty: bool) -> list:  # type: ignore[type-arg]
    """The next diagnostics published for ``uri`` that are (not) empty."""
    import asyncio

    async def wait() -> list:  # type: ignore[type-arg]
        while True:
            got = client.diagnostics.get(uri)
            if got is not None and (len(got) == 0) == want_empty:
                return list(got)
            await client.wait_for_notification(T.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)

    return await asyncio.wait_for(wait(), timeout=60)


async def test_an_edit_that_breaks_a_file_not_open_publishes_its_diagnostics(client: LanguageClient) -> None:
    # renaming 'meter burn' in game.rules breaks the cards that use it in cards.cards; with
    # cards.cards not open nothing was published anywhere, while `cardscript check` fails
    from cardscript.dsl.front.loader import builtin_root

    rules = builtin_root() / "injustice" / "game.rules"
    cards = _uri(builtin_root() / "injustice" / "cards.cards")
    text = rules.read_text(encoding="utf-8")
    assert "effect meter burn " in text
    uri = _uri(rules)
    client.text_document_did_open(T.DidOpenTextDocumentParams(T.TextDocumentItem(
        uri=uri, language_id="cardscript", version=1, text=text.replace("effect meter burn ", "effect meter blast "))))
    broken = await _published(client, cards, want_empty=False)
    assert any(d.code == "CS202" and "meter burn" in d.message for d in broken)
    client.text_document_did_change(T.DidChangeTextDocumentParams(
        text_document=T.VersionedTextDocumentIdentifier(uri=uri, version=2),
        content_changes=[T.TextDocumentContentChangeWholeDocument(text=text)]))
    assert await _published(client, cards, want_empty=True) == []  # mended: cleared
    client.text_document_did_close(T.DidCloseTextDocumentParams(T.TextDocumentIdentifier(uri=uri)))
