"""`cardscript lsp` driven by pytest-lsp as a real client over stdio (issue 15): diagnostics
for a broken card (as `cardscript check` gives them), completion at a phrase, hover on a
card, definition of an effect, symbols and formatting, on the built-in scripts. A broken
card goes into a temporary copy of the game folder, never into cardscripts/. One server
serves the whole module, so each test costs a few requests."""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import pytest

pytest_lsp = pytest.importorskip("pytest_lsp")
from lsprotocol import types as T  # noqa: E402
from pygls.uris import from_fs_path  # noqa: E402
from pytest_lsp import ClientServerConfig, LanguageClient  # noqa: E402

from cardscript.dsl.front.loader import builtin_root  # noqa: E402
from cardscript.dsl.front.pipeline import check_paths  # noqa: E402

ROOT = builtin_root()
CARDS = ROOT / "injustice" / "cards.cards"
CORE = ROOT / "dc-core" / "core.rules"
pytestmark = pytest.mark.asyncio(loop_scope="module")


@pytest_lsp.fixture(scope="module", loop_scope="module",
                    config=ClientServerConfig(server_command=[sys.executable, "-m", "cardscript", "lsp"]))
async def client(lsp_client: LanguageClient):
    await lsp_client.initialize_session(T.InitializeParams(capabilities=T.ClientCapabilities(),
                                                           root_uri=from_fs_path(str(ROOT))))
    yield
    await lsp_client.shutdown_session()


def _open(client: LanguageClient, path: Path, text: str | None = None) -> str:
    uri = from_fs_path(str(path))
    assert uri is not None
    client.text_document_did_open(T.DidOpenTextDocumentParams(T.TextDocumentItem(
        uri=uri, language_id="cardscript", version=1, text=path.read_text(encoding="utf-8") if text is None else text)))
    return uri


def _at(path: Path, needle: str, offset: int = 0, occurrence: int = 0) -> T.Position:
    """The position of the ``occurrence``-th ``needle`` in a file, plus ``offset`` columns."""
    lines = path.read_text(encoding="utf-8").splitlines()
    hits = [(n, line.index(needle)) for n, line in enumerate(lines) if needle in line]
    n, col = hits[occurrence]
    return T.Position(line=n, character=col + offset)


async def _diagnostics(client: LanguageClient, uri: str) -> list[T.Diagnostic]:
    await client.wait_for_notification(T.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    while uri not in client.diagnostics:
        await client.wait_for_notification(T.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    return client.diagnostics[uri]


async def test_diagnostics_for_a_broken_card_are_checks(client: LanguageClient, tmp_path: Path):
    game = tmp_path / "injustice"
    shutil.copytree(ROOT / "injustice", game)
    cards = game / "cards.cards"
    good = cards.read_text(encoding="utf-8")
    broken = good.replace("draw a card", "drow a card", 1)
    assert broken != good
    uri = _open(client, cards, broken)  # the buffer, unsaved: the file on disk is still good
    got = await _diagnostics(client, uri)
    # what `cardscript check` says of the same text saved, in the same game
    saved = tmp_path / "saved"
    shutil.copytree(game, saved)
    (saved / "cards.cards").write_text(broken, encoding="utf-8")
    want = [d for d in check_paths([str(saved)]).diagnostics if d.severity == "error"]
    assert want and [d.code for d in got] == [d.code for d in want]
    assert [d.message.split("\nhint:")[0] for d in got] == [d.message for d in want]
    assert [(d.range.start.line + 1, d.range.start.character + 1) for d in got] == \
        [(d.span.line, d.span.column) for d in want if d.span is not None]
    assert got[0].code == "CS202" and got[0].source == "cardscript"

    # typing the fix clears them (didChange, debounced)
    line = got[0].range.start.line
    fixed = broken.splitlines()[line].replace("drow", "draw")
    client.text_document_did_change(T.DidChangeTextDocumentParams(
        text_document=T.VersionedTextDocumentIdentifier(uri=uri, version=2),
        content_changes=[T.TextDocumentContentChangePartial(
            range=T.Range(start=T.Position(line=line, character=0),
                          end=T.Position(line=line, character=len(broken.splitlines()[line]))),
            text=fixed)]))
    await client.wait_for_notification(T.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    assert list(client.diagnostics[uri]) == []
    assert cards.read_text(encoding="utf-8") == good


async def test_completion_at_a_phrase(client: LanguageClient):
    uri = _open(client, CARDS)
    pos = _at(CARDS, "play: +2 power", len("play: "))
    got = await client.text_document_completion_async(T.CompletionParams(T.TextDocumentIdentifier(uri), pos))
    assert got is not None
    items = got.items if isinstance(got, T.CompletionList) else got
    labels = {i.label: i for i in items}
    attack = labels["attack {T: players} {B: block}"]  # dc-core's effect, in scope in the game
    assert attack.kind == T.CompletionItemKind.Function and attack.insert_text == "attack ${1:T}:"
    assert "move {C: cards} to {Z: zone}" in labels  # a built-in primitive
    assert labels["Sword and Shield"].insert_text == '"Sword and Shield"'
    assert labels["power"].kind == T.CompletionItemKind.Variable  # a counter
    assert "hand" in labels and "card" in labels  # a zone, a keyword
    # inside a string: card names only
    pos = _at(CARDS, '"Sword and Shield"', 1)
    got = await client.text_document_completion_async(T.CompletionParams(T.TextDocumentIdentifier(uri), pos))
    items = got.items if isinstance(got, T.CompletionList) else got
    assert items and all(i.kind == T.CompletionItemKind.Class for i in items)


async def test_hover_on_a_card_shows_its_rendered_text(client: LanguageClient):
    uri = _open(client, CARDS)
    got = await client.text_document_hover_async(T.HoverParams(T.TextDocumentIdentifier(uri),
                                                               _at(CARDS, "Sword and Shield", 3)))
    assert got is not None and isinstance(got.contents, T.MarkupContent)
    assert got.contents.value.startswith("**Sword and Shield**")
    assert "+2 Power. Attack: Target foe gains a Weakness." in got.contents.value
    # on a call phrase: the effect's definition and the comments that document it
    got = await client.text_document_hover_async(T.HoverParams(T.TextDocumentIdentifier(uri),
                                                               _at(CARDS, "attack target foe: they gain", 2)))
    assert got is not None and "effect attack {T: players} {B: block}" in got.contents.value


async def test_definition_of_an_effect_across_the_games_scripts(client: LanguageClient):
    uri = _open(client, CARDS)
    got = await client.text_document_definition_async(T.DefinitionParams(
        T.TextDocumentIdentifier(uri), _at(CARDS, "attack target foe: they gain", 2)))
    assert isinstance(got, list) and len(got) == 1
    core_lines = CORE.read_text(encoding="utf-8").splitlines()
    assert got[0].uri == from_fs_path(str(CORE.resolve()))
    assert core_lines[got[0].range.start.line].startswith("effect attack {T: players} {B: block}")
    # a card name in a string leads to the card
    got = await client.text_document_definition_async(T.DefinitionParams(
        T.TextDocumentIdentifier(uri), _at(CARDS, '"Sword and Shield"', 2)))
    assert got and got[0].range.start.line == _at(CARDS, 'card "Sword and Shield"').line


async def test_symbols_and_formatting(client: LanguageClient):
    uri = _open(client, CARDS)
    got = await client.text_document_document_symbol_async(T.DocumentSymbolParams(T.TextDocumentIdentifier(uri)))
    assert got is not None
    names = {s.name: s for s in got if isinstance(s, T.DocumentSymbol)}
    assert names["Sword and Shield"].kind == T.SymbolKind.Class
    assert names["Sword and Shield"].selection_range.start.line == _at(CARDS, 'card "Sword and Shield"').line
    opts = T.FormattingOptions(tab_size=2, insert_spaces=True)
    edits = await client.text_document_formatting_async(T.DocumentFormattingParams(T.TextDocumentIdentifier(uri), opts))
    assert edits is not None and list(edits) == []  # the built-in scripts are formatted
    core = _open(client, CORE)
    got = await client.text_document_document_symbol_async(T.DocumentSymbolParams(T.TextDocumentIdentifier(core)))
    assert any(s.kind == T.SymbolKind.Function and s.name.startswith("attack") for s in got or [])


async def test_formatting_refuses_a_syntax_error_and_formats_a_messy_buffer(client: LanguageClient, tmp_path: Path):
    script = tmp_path / "lib.rules"
    script.write_text("ruleset \"x\"\n", encoding="utf-8")
    uri = _open(client, script, 'ruleset "x"\ncounter  score :per player,0\n')
    opts = T.FormattingOptions(tab_size=2, insert_spaces=True)
    edits = await client.text_document_formatting_async(T.DocumentFormattingParams(T.TextDocumentIdentifier(uri), opts))
    assert edits and edits[0].new_text == 'ruleset "x"\ncounter score: per player, 0\n'
    bad = _open(client, tmp_path / "lib.rules", 'ruleset "x"\ncounter score per player\n')
    client.text_document_did_change(T.DidChangeTextDocumentParams(
        text_document=T.VersionedTextDocumentIdentifier(uri=bad, version=2),
        content_changes=[T.TextDocumentContentChangeWholeDocument(text='ruleset "x"\ncounter score per player\n')]))
    edits = await client.text_document_formatting_async(T.DocumentFormattingParams(T.TextDocumentIdentifier(bad), opts))
    assert edits is None
