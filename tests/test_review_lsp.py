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
