"""Issue 10, caches: nothing cardscript reads back from disk can run code.

* Lark's own cache (``cache=True``: a pickle under a predictable name in the system temp
  folder) is gone; the parser loads prebuilt tables shipped in the package as JSON, which
  must match the grammar (drift test) and parse exactly like a parser built from it.
* The AST cache is JSON decoded only into the AST's classes, in a folder of the current
  user that nobody else can write, bounded, written atomically, and off with ``--no-cache``
  or ``CARDSCRIPT_CACHE=off``.
"""

from __future__ import annotations

import ast as pyast
import hashlib
import json
import os
import pickle
import stat
import subprocess
import sys
import tempfile
import tomllib
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from lark import Lark, Token, Tree
from lark.exceptions import UnexpectedInput

from cardscript.dsl.cli.main import main
from cardscript.dsl.diagnostics import Span
from cardscript.dsl.front import ast as A
from cardscript.dsl.front import ast_json, cache, parse, parser_tables
from cardscript.dsl.front.build import build

ROOT = Path(__file__).resolve().parent.parent
SCRIPT_SUFFIXES = (".cards", ".rules", ".variant", ".scenario")
TEXT = 'card "Punch": hero, cost 3\n  play: +1 power\n'
OTHER = 'card "Kick": hero, cost 9\n  play: +7 power\n'
NAME = "fan/punch.cards"


class _Plant:
    """A pickle that, when loaded, creates a marker folder: proof that loading ran code."""

    def __init__(self, marker: Path):
        self.marker = marker

    def __reduce__(self):
        return (os.makedirs, (str(self.marker),))


def _plant(marker: Path) -> bytes:
    return pickle.dumps(_Plant(marker))


def _shape(value: object) -> object:
    """A node as nested tuples, spans included (``==`` on nodes ignores spans)."""
    if isinstance(value, A.Node):
        return (type(value).__name__, value.span, tuple(_shape(value.__dict__[f]) for f in value._fields))
    if isinstance(value, tuple):
        return tuple(_shape(v) for v in value)
    return value


@pytest.fixture
def folder(tmp_path, monkeypatch):
    """An empty cache folder of the current user (mode 0700), with no AST in memory."""
    where = tmp_path / "cache"
    where.mkdir(mode=0o700)
    monkeypatch.setenv("CARDSCRIPT_CACHE", str(where))
    cache._disk_cache.cache_clear()
    cache._AST_CACHE.clear()
    yield where
    cache._disk_cache.cache_clear()
    cache._AST_CACHE.clear()


def _entry(text: str = TEXT, name: str = NAME) -> str:
    return f"ast-{cache._key(name, text)[:32]}.json"


def _old_entry(text: str = TEXT, name: str = NAME) -> str:
    """The file name the pickle cache of issue 9 read for a script."""
    front = ROOT / "dsl" / "front"
    h = hashlib.sha256(parse.grammar_text().encode())
    for module in sorted(p for package in ("ast", "build") for p in (front / package).glob("*.py")):
        h.update(module.relative_to(front).as_posix().encode() + b"\0")
        h.update(module.read_bytes())
    key = hashlib.sha256(f"{h.hexdigest()[:16]}\0{name}\0{text}".encode()).hexdigest()
    return f"ast-{key[:32]}.pickle"


def _poison(where: Path, text: str = TEXT, name: str = NAME) -> A.Script:
    """Entries for ``text`` holding the AST of another script, in both the old (pickle) and the
    new (JSON) form: whoever reads them gets the wrong cards."""
    wrong = build(OTHER, name)
    (where / _old_entry(text, name)).write_bytes(pickle.dumps(wrong))
    (where / _entry(text, name)).write_text(
        ast_json.dumps(wrong, {"format": cache.FORMAT, "key": cache._key(name, text)}), encoding="utf-8")
    return wrong


def _fresh_read(text: str = TEXT, name: str = NAME) -> A.Script:
    cache._AST_CACHE.clear()
    got = cache.build_cached(text, name)
    assert _shape(got) == _shape(build(text, name))
    return got


# ---------------------------------------------------------------- no pickle anywhere
# dsl/, runtime/, grammar/ and every other folder the package is made of (pyproject's package-dir).
PACKAGE_FOLDERS = sorted({"dsl", "runtime", "grammar"} | set(
    tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]["package-dir"].values()))
CODE_FORMATS = {"pickle", "_pickle", "cPickle", "cloudpickle", "dill", "marshal", "shelve", "jsonpickle", "joblib"}


def test_no_code_bearing_format_in_the_package():
    """No pickle (or marshal, shelve, dill...) import, no ``cache=True`` and no ``cache=`` given
    to Lark, anywhere in the compiler, the runtime or the grammar package."""
    bad = []
    for folder in PACKAGE_FOLDERS:
        for path in sorted((ROOT / folder).rglob("*.py")):
            source = path.read_text(encoding="utf-8")
            where = path.relative_to(ROOT)
            if "cache=True" in source.replace(" ", ""):
                bad.append(f"{where}: cache=True")
            for node in pyast.walk(pyast.parse(source)):
                if isinstance(node, pyast.Import):
                    bad += [f"{where}:{node.lineno}: import {a.name}" for a in node.names
                            if a.name.split(".")[0] in CODE_FORMATS]
                elif isinstance(node, pyast.ImportFrom) and (node.module or "").split(".")[0] in CODE_FORMATS:
                    bad.append(f"{where}:{node.lineno}: from {node.module} import")
                elif isinstance(node, pyast.Call) and any(k.arg == "cache" for k in node.keywords):
                    bad.append(f"{where}:{node.lineno}: a cache= argument")
    assert bad == []


def test_the_grammar_package_ships_only_text():
    shipped = sorted(p.name for p in (ROOT / "grammar").iterdir() if p.is_file())
    assert all(p.endswith((".py", ".lark", ".parser.json")) for p in shipped), shipped
    assert not (ROOT / "grammar" / parser_tables.TABLES_FILE).read_bytes().startswith(b"\x80")


# ---------------------------------------------------------------- Lark's temp-folder cache
OLD_LARK_OPTIONS: dict[str, Any] = {"parser": "lalr", "lexer": "contextual", "propagate_positions": True,
                                    "maybe_placeholders": False}


def test_a_pickle_planted_at_larks_temp_cache_never_runs(tmp_path, monkeypatch):
    temp = tmp_path / "tmp"
    temp.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(temp))
    marker = tmp_path / "ran"
    # Control: where Lark(cache=True) with the old options keeps its cache, a planted pickle runs.
    Lark(parse.grammar_text(), postlex=parse._Indenter(), cache=True, **OLD_LARK_OPTIONS)
    (cached,) = temp.glob(".lark_*")
    cached.write_bytes(b"0\n" + _plant(marker))
    Lark(parse.grammar_text(), postlex=parse._Indenter(), cache=True, **OLD_LARK_OPTIONS)
    assert marker.exists()
    marker.rmdir()
    cached.write_bytes(b"0\n" + _plant(marker))
    # cardscript's parser, from the shipped tables and from the grammar, never looks there.
    try:
        for tables in (parser_tables.read(), None):
            monkeypatch.setattr(parser_tables, "read", lambda tables=tables: tables)
            parse.get_parser.cache_clear()
            build(TEXT, NAME)
            assert not marker.exists()
    finally:
        parse.get_parser.cache_clear()


def test_a_pickle_planted_in_the_ast_cache_never_runs(folder, tmp_path):
    marker = tmp_path / "ran"
    for name in (_old_entry(), _entry(), _entry().replace(".json", ".pickle")):
        (folder / name).write_bytes(_plant(marker))
    _fresh_read()
    assert not marker.exists()
    assert not list(folder.glob("*.pickle")), "entries of the old pickle cache are removed"
    assert (folder / _entry()).read_bytes().startswith(b"{")


# ---------------------------------------------------------------- an untrusted folder
def _other_owner(path: Path) -> None:
    if os.geteuid() != 0:
        pytest.skip("giving a folder to another user needs root")
    os.chown(path, 4242, 4242, follow_symlinks=False)


UNTRUSTED_FOLDERS = {
    "owned by another user": _other_owner,
    "world-writable": lambda p: p.chmod(0o777),
    "group-writable": lambda p: p.chmod(0o770),
}


@pytest.mark.parametrize("how", sorted(UNTRUSTED_FOLDERS))
def test_an_untrusted_cache_folder_is_neither_read_nor_written(folder, how):
    _poison(folder)
    UNTRUSTED_FOLDERS[how](folder)
    before = sorted(p.name for p in folder.iterdir())
    _fresh_read()
    _fresh_read(OTHER, "fan/kick.cards")
    assert sorted(p.name for p in folder.iterdir()) == before


def test_a_symlinked_cache_folder_is_neither_read_nor_written(folder, tmp_path, monkeypatch):
    _poison(folder)
    link = tmp_path / "link"
    link.symlink_to(folder, target_is_directory=True)
    monkeypatch.setenv("CARDSCRIPT_CACHE", str(link))
    cache._disk_cache.cache_clear()
    before = sorted(p.name for p in folder.iterdir())
    _fresh_read()
    _fresh_read(OTHER, "fan/kick.cards")
    assert sorted(p.name for p in folder.iterdir()) == before


def _entry_of_other_owner(path: Path) -> None:
    _other_owner(path)


def _entry_symlink(path: Path) -> None:
    target = path.parent.parent / "elsewhere.json"
    path.rename(target)
    path.symlink_to(target)


def _entry_fifo(path: Path) -> None:
    path.unlink()
    os.mkfifo(path, 0o600)


UNTRUSTED_ENTRIES = {
    "owned by another user": _entry_of_other_owner,
    "world-writable": lambda p: p.chmod(0o666),
    "group-writable": lambda p: p.chmod(0o660),
    "a symlink": _entry_symlink,
    "a FIFO": _entry_fifo,
}


@pytest.mark.parametrize("how", sorted(UNTRUSTED_ENTRIES))
def test_an_untrusted_entry_is_not_read(folder, how):
    _poison(folder)
    UNTRUSTED_ENTRIES[how](folder / _entry())
    _fresh_read()


def test_the_poisoned_entry_would_be_read_if_trusted(folder):
    """The control of the tests above: the same entry, trusted, is what the cache returns."""
    wrong = _poison(folder)
    cache._AST_CACHE.clear()
    assert _shape(cache.build_cached(TEXT, NAME)) == _shape(wrong)


def test_the_folder_is_made_private_and_entries_too(tmp_path, monkeypatch):
    where = tmp_path / "a" / "b" / "cardscript"
    monkeypatch.setenv("CARDSCRIPT_CACHE", str(where))
    cache._disk_cache.cache_clear()
    cache._AST_CACHE.clear()
    try:
        _fresh_read()
    finally:
        cache._disk_cache.cache_clear()
        cache._AST_CACHE.clear()
    assert stat.S_IMODE(where.stat().st_mode) == 0o700
    (entry,) = where.iterdir()
    assert entry.name == _entry() and stat.S_IMODE(entry.stat().st_mode) == 0o600


# ---------------------------------------------------------------- hostile JSON
def _valid_entry() -> dict[str, Any]:
    return json.loads(ast_json.dumps(build(TEXT, NAME), {"format": cache.FORMAT, "key": cache._key(NAME, TEXT)}))


def _with_ast(ast: object) -> str:
    return json.dumps({**_valid_entry(), "ast": ast})


def _card(entry: dict[str, Any]) -> dict[str, Any]:
    return entry["ast"]["f"][1][0]  # Script(file, items, kind): the first item is the card


def _mutate(change) -> str:
    entry = _valid_entry()
    change(entry)
    return json.dumps(entry)


HOSTILE = {
    "not JSON": "}{",
    "truncated": json.dumps(_valid_entry())[:-40],
    "not UTF-8": b"\xff\xfe{",
    "a pickle": b"\x80\x04K\x01.",
    "empty": "",
    "a list": "[]",
    "an unknown class": _with_ast({"@": "system", "s": [1, 1, 0, 0], "f": ["rm -rf /"]}),
    "a dotted name": _with_ast({"@": "os.system", "s": [1, 1, 0, 0], "f": ["true"]}),
    "the base class": _with_ast({"@": "Node", "s": [1, 1, 0, 0], "f": []}),
    "a class outside the AST": _with_ast({"@": "Span", "s": [1, 1, 0, 0], "f": ["x", 1, 1, 0, 0]}),
    "a field too many": _mutate(lambda e: e["ast"]["f"].append("extra")),
    "a field too few": _mutate(lambda e: e["ast"]["f"].pop()),
    "a field of the wrong type": _mutate(lambda e: _card(e)["f"].__setitem__(0, 7)),
    "a bool for an int": _mutate(lambda e: e["ast"]["s"].__setitem__(0, True)),
    "an object in a field": _mutate(lambda e: _card(e)["f"].__setitem__(0, {"a": 1})),
    "a bad span": _mutate(lambda e: e["ast"].__setitem__("s", ["x"])),
    "another file's script": _mutate(lambda e: e["ast"]["f"].__setitem__(0, "elsewhere.cards")),
    "another key": _mutate(lambda e: e.__setitem__("key", "0" * 64)),
    "another format": _mutate(lambda e: e.__setitem__("format", 99)),
    "deep nesting": _with_ast("DEEP").replace('"DEEP"', "[" * 200_000 + "]" * 200_000),
}


@pytest.mark.parametrize("how", sorted(HOSTILE))
def test_a_hostile_json_entry_is_ignored(folder, how):
    payload = HOSTILE[how]
    (folder / _entry()).write_bytes(payload if isinstance(payload, bytes) else payload.encode())
    _fresh_read()


def test_an_entry_over_the_size_limit_is_not_read(folder, monkeypatch):
    _poison(folder)
    monkeypatch.setattr(cache, "MAX_ENTRY_BYTES", 100)
    _fresh_read()


def test_deep_asts_are_simply_not_cached(folder, monkeypatch):
    """An AST nested deeper than Python's recursion limit allows is built, not cached."""
    nested = A.Num(Span(NAME, 1, 1), 1)
    for _ in range(5000):
        nested = A.BinOp(Span(NAME, 1, 1), "+", nested, A.Num(Span(NAME, 1, 1), 1))
    deep = A.Script(Span(NAME, 1, 1), NAME, (A.TieBreak(Span(NAME, 1, 1), (nested,)),))
    monkeypatch.setattr(cache, "build", lambda text, name: deep)
    assert cache.build_cached("deep", NAME) is deep
    assert list(folder.iterdir()) == []
    deep_json = '{"@":"BinOp","s":[1,1,0,0],"f":["+",' * 5000 + '{"@":"Num","s":[1,1,0,0],"f":[1]}' \
        + ',{"@":"Num","s":[1,1,0,0],"f":[1]}]}' * 5000
    with pytest.raises(ValueError):
        ast_json.loads(deep_json, NAME)


# ---------------------------------------------------------------- the JSON form itself
def _script_files() -> list[Path]:
    folders = ("cardscripts", "examples", "docs/examples", "tests/scenarios")
    return sorted(p for f in folders for p in (ROOT / f).rglob("*") if p.suffix in SCRIPT_SUFFIXES)


def test_every_builtin_script_round_trips_exactly():
    files = _script_files()
    assert len(files) > 20
    for path in files:
        name = str(path.relative_to(ROOT))
        script = build(path.read_text(encoding="utf-8"), name)
        back = ast_json.loads(ast_json.dumps(script, {}), name)["ast"]
        assert _shape(back) == _shape(script), name


def test_the_allow_list_is_the_ast_package():
    allowed = ast_json.node_classes()
    assert "Script" in allowed and "CardDef" in allowed and "Node" not in allowed
    assert all(cls.__module__.startswith("cardscript.dsl.front.ast.") for cls in allowed.values())


# ---------------------------------------------------------------- bounds, atomic writes
def test_the_cache_stays_within_its_bounds(folder, monkeypatch):
    monkeypatch.setattr(cache, "MAX_ENTRIES", 5)
    for n in range(12):
        cache.build_cached(f'card "C{n}": hero, cost {n}\n  play: +1 power\n', NAME)
    names = sorted(p.name for p in folder.iterdir())
    assert len(names) == 5
    assert _entry('card "C11": hero, cost 11\n  play: +1 power\n') in names, "the newest entry stays"
    size = (folder / names[0]).stat().st_size
    monkeypatch.setattr(cache, "MAX_BYTES", 3 * size + size // 2)
    cache.build_cached(TEXT, NAME)
    assert len(list(folder.iterdir())) == 3
    assert sum(p.stat().st_size for p in folder.iterdir()) <= cache.MAX_BYTES


def test_a_failed_write_leaves_no_entry_and_no_temporary_file(folder, monkeypatch):
    def fail(*args, **kwargs):
        raise OSError("disk full")

    monkeypatch.setattr(cache.os, "replace", fail)
    _fresh_read()
    assert list(folder.iterdir()) == []


def test_stale_temporary_files_are_removed(folder):
    stale, recent = folder / ".ast-0123.tmp", folder / ".ast-4567.tmp"
    stale.write_text("half")
    recent.write_text("being written")
    os.utime(stale, (1, 1))
    _fresh_read()
    assert not stale.exists() and recent.exists()


# ---------------------------------------------------------------- off
def test_no_cache_option_writes_nothing(folder):
    runner = CliRunner()
    result = runner.invoke(main, ["--no-cache", "cards", "injustice", "--format", "json"])
    assert result.exit_code == 0, result.output
    assert list(folder.iterdir()) == []
    assert cache._enabled, "the option does not outlive the command"
    cache._AST_CACHE.clear()
    result = runner.invoke(main, ["cards", "injustice", "--format", "json"])  # control: it does write
    assert result.exit_code == 0, result.output
    assert list(folder.iterdir()) != []


def test_cache_off_in_the_environment_writes_nothing(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.setenv("CARDSCRIPT_CACHE", "off")
    cache._disk_cache.cache_clear()
    cache._AST_CACHE.clear()
    try:
        _fresh_read()
        monkeypatch.delenv("CARDSCRIPT_CACHE")  # control: the default folder is used
        cache._disk_cache.cache_clear()
        assert not (tmp_path / "xdg").exists()
        _fresh_read()
    finally:
        cache._disk_cache.cache_clear()
        cache._AST_CACHE.clear()
    assert [p.name for p in (tmp_path / "xdg" / "cardscript").iterdir()] == [_entry()]


# ---------------------------------------------------------------- the shipped parser tables
def _flat(tree: Tree) -> list[tuple[Any, ...]]:
    """Every tree node and token, with its type and position (Token ``==`` compares text only)."""
    out: list[tuple[Any, ...]] = []
    stack: list[Any] = [tree]
    while stack:
        item = stack.pop()
        if isinstance(item, Tree):
            m = item.meta
            pos = tuple(getattr(m, a, None) for a in ("line", "column", "end_line", "end_column", "start_pos"))
            out.append((item.data, *pos, len(item.children)))
            stack.extend(reversed(item.children))
        else:
            assert isinstance(item, Token)
            out.append((item.type, str(item), item.line, item.column, item.end_line, item.end_column, item.start_pos))
    return out


def _outcome(parser: Lark, text: str) -> object:
    try:
        return _flat(parser.parse(text if text.endswith("\n") else text + "\n"))
    except UnexpectedInput as exc:
        return (type(exc).__name__, exc.line, exc.column, sorted(getattr(exc, "expected", ()) or ()),
                sorted(getattr(exc, "allowed", ()) or ()))
    except Exception as exc:  # noqa: BLE001 - e.g. a DedentError: it must be the same one
        return (type(exc).__name__, str(exc))


def test_the_parser_is_loaded_from_the_shipped_tables():
    parse.get_parser.cache_clear()
    assert parse.get_parser().source_path == "<deserialized>"


def test_the_shipped_tables_are_current():
    """Drift test: the file equals a fresh build. After changing the grammar run
    ``python -m cardscript.dsl.front.parse --write-tables``."""
    shipped = parser_tables.read()
    assert shipped is not None, "grammar/cardscript.parser.json is missing"
    assert shipped["grammar_sha256"] == parser_tables.grammar_sha256(parse.grammar_text()), \
        "the grammar changed: run python -m cardscript.dsl.front.parse --write-tables"
    if shipped["lark_version"] != parser_tables.lark.__version__:
        pytest.skip(f"tables made with Lark {shipped['lark_version']}; this is {parser_tables.lark.__version__}")
    fresh = parser_tables.tables_of(parse.build_parser(), parse.grammar_text(), parse.OPTIONS)
    assert parser_tables.shipped_path().read_text(encoding="utf-8") == parser_tables.dumps(fresh), \
        "the tables are stale: run python -m cardscript.dsl.front.parse --write-tables"


def test_the_tables_do_not_depend_on_the_run():
    """Lark numbers its states differently in every process; the file must not."""
    code = ("from cardscript.dsl.front import parse as P, parser_tables as T\n"
            "print(T.dumps(T.tables_of(P.build_parser(), P.grammar_text(), P.OPTIONS)))")
    outs = {subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                           env={**os.environ, "PYTHONHASHSEED": seed}).stdout for seed in ("1", "2")}
    assert len(outs) == 1


def test_the_loaded_parser_parses_exactly_like_a_fresh_one():
    parse.get_parser.cache_clear()
    loaded, fresh = parse.get_parser(), parse.build_parser()
    assert loaded.source_path == "<deserialized>"
    assert {k: v for k, v in loaded.options.options.items() if k != "postlex"} == \
        {k: v for k, v in fresh.options.options.items() if k != "postlex"}
    assert type(loaded.options.postlex) is type(fresh.options.postlex) is parse._Indenter
    texts = [p.read_text(encoding="utf-8") for p in _script_files()]
    texts += [p.read_text(encoding="utf-8") for p in sorted((ROOT / "tests" / "broken").rglob("*")) if p.is_file()]
    texts += ['card "A": hero\n  play: draw a card\n    oops\n', 'card "A" hero\n', "import os\n", "  x\n",
              'card "A": hero\n  play: (draw\n   a card)\n', 'card "A": hero\n   play: x\n  defense: y\n', ""]
    for text in texts:
        assert _outcome(loaded, text) == _outcome(fresh, text), text[:80]


def test_missing_or_foreign_tables_fall_back_to_the_grammar(monkeypatch):
    good = parser_tables.read()
    assert good is not None
    variants = {
        "missing": None,
        "another grammar": {**good, "grammar_sha256": "0" * 64},
        "another Lark": {**good, "lark_version": "0.0"},
        "other options": {**good, "options": {**good["options"], "maybe_placeholders": True}},
        "another format": {**good, "format": 0},
        "broken states": {**good, "states": [["x"]]},
        "broken memo": {**good, "memo": [{"__type__": "os.system"}]},
    }
    fresh = _outcome(parse.build_parser(), TEXT)  # once: each LALR build from the grammar takes most of a second
    try:
        for tables in variants.values():
            monkeypatch.setattr(parser_tables, "read", lambda tables=tables: tables)
            parse.get_parser.cache_clear()
            parser = parse.get_parser()
            assert parser.source_path != "<deserialized>"
            assert _outcome(parser, TEXT) == fresh
    finally:
        parse.get_parser.cache_clear()
