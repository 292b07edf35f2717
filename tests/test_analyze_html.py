"""cardscript analyze --html: one self-contained page of plots and tables, escaped,
written atomically, and shown by a headless Chromium with its plots (docs/analyze.md#html)."""

from __future__ import annotations

import base64
import json
import random
import re
import shutil
import struct
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest
from click.testing import CliRunner

from cardscript.dsl.cli.main import main
from cardscript.dsl.sim.analyze import analyze

EVIL = "<script>alert(1)</script>"
DOLLARS = "Cost $2$ & <b>bold</b>"  # mathtext and markup: both must be shown as written


def _row(seed: int, rng: random.Random) -> dict:
    """Two seats; whoever buys EVIL wins; DOLLARS is bought at random."""
    planted = rng.randrange(2)
    per_seat = []
    for i in range(2):
        buy = {DOLLARS: 1} if rng.random() < 0.5 else {}
        if i == planted:
            buy[EVIL] = 1
        per_seat.append({"seat": f"P{i + 1}", "chosen": {"buy": buy}, "played": buy, "gained": buy, "final": buy})
    return {"t": "game", "seed": seed, "seats": ["P1", "P2"], "bots": ["random", "random"],
            "scores": [10 + seed % 7, 5] if planted == 0 else [5, 10 + seed % 7], "winners": [f"P{planted + 1}"],
            "turns": 20 + seed % 9, "decisions": 100, "reason": "the <i>end</i>", "outcome": "", "per_seat": per_seat}


@pytest.fixture(scope="module")
def results(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("html") / "runs.jsonl"
    header = {"t": "run", "cardscript": 1, "game": "<i>game</i>", "players": 2, "bots": ["random", "random"],
              "with": [], "variants": [], "mix": [], "scripts": "x"}
    rng = random.Random(3)
    path.write_text("".join(json.dumps(r) + "\n" for r in [header, *(_row(s, rng) for s in range(1, 301))]))
    return path


def _pngs(page: str) -> list[tuple[int, int]]:
    """The (width, height) of every embedded PNG, read from its IHDR chunk."""
    sizes = []
    for data in re.findall(r'src="data:image/png;base64,([A-Za-z0-9+/=]+)"', page):
        raw = base64.b64decode(data)
        assert raw[:8] == b"\x89PNG\r\n\x1a\n"
        sizes.append(struct.unpack(">II", raw[16:24]))
    return sizes


def test_histograms_are_in_the_report() -> None:
    report = analyze([_row(s, random.Random(s)) for s in range(1, 10)])
    turns = report["histograms"]["turns"]
    assert sum(k for _, k in turns) == 9 and [v for v, _ in turns] == sorted({20 + s % 9 for s in range(1, 10)})
    assert sum(k for _, k in report["histograms"]["score"]) == 18


def test_the_page_is_self_contained_and_escaped(results: Path, tmp_path: Path) -> None:
    out = tmp_path / "report"  # made by the command
    res = CliRunner().invoke(main, ["analyze", str(results), "--html", str(out)])
    assert res.exit_code == 0, res.output
    page = (out / "index.html").read_text()
    assert [p.name for p in out.iterdir()] == ["index.html"]  # no temp file left behind
    # four plots (forest, seats, turns, scores), each a real picture
    sizes = _pngs(page)
    assert len(sizes) == 4 and all(w > 300 and h > 200 for w, h in sizes)
    assert page.count('<img class="plot"') == 4
    for name in ("forest", "seats", "turns", "scores"):
        assert f'<figure id="{name}">' in page
    # nothing loaded from elsewhere, and the page may not
    assert not re.search(r'(src|href)="(?!data:)', page)
    assert "default-src 'none'" in page
    # strangers' text is shown, never interpreted
    assert "<script" not in page.lower() and "&lt;script&gt;alert(1)&lt;/script&gt;" in page
    assert "<b>" not in page and "Cost $2$ &amp; &lt;b&gt;bold&lt;/b&gt;" in page
    assert "<i>" not in page and "&lt;i&gt;game&lt;/i&gt;" in page and "the &lt;i&gt;end&lt;/i&gt;" in page
    # the tables
    for title in ("Seat advantage", "Cards", "Distributions", "End reasons"):
        assert f"<h2>{title}</h2>" in page
    assert "+100.0" in page  # the planted card's impact


def test_html_output_is_checked_first_and_replaced_whole(results: Path, tmp_path: Path) -> None:
    a_file = tmp_path / "file"
    a_file.write_text("x")
    res = CliRunner().invoke(main, ["analyze", str(results), "--html", str(a_file)])
    assert res.exit_code == 2 and "is a file" in res.output and a_file.read_text() == "x"
    res = CliRunner().invoke(main, ["analyze", str(results), "--html", str(tmp_path / "no" / "such")])
    assert res.exit_code == 2 and "cannot make the folder" in res.output and "Traceback" not in res.output
    folder = tmp_path / "old"
    folder.mkdir()
    (folder / "index.html").write_text("old page")
    (tmp_path / "elsewhere.html").write_text("keep")
    link = tmp_path / "linked"
    link.mkdir()
    (link / "index.html").symlink_to(tmp_path / "elsewhere.html")
    res = CliRunner().invoke(main, ["analyze", str(results), "--html", str(link)])
    assert res.exit_code == 2 and "symbolic link" in res.output and (tmp_path / "elsewhere.html").read_text() == "keep"
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"t": "game"}\n')
    res = CliRunner().invoke(main, ["analyze", str(bad), "--html", str(folder)])
    assert res.exit_code == 2 and (folder / "index.html").read_text() == "old page"
    res = CliRunner().invoke(main, ["analyze", str(results), "--html", str(folder)])
    assert res.exit_code == 0 and (folder / "index.html").read_text().startswith("<!DOCTYPE html>")
    assert sorted(p.name for p in folder.iterdir()) == ["index.html"]


def test_without_matplotlib_the_page_is_refused_in_words(results: Path, tmp_path: Path,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # import matplotlib now raises ImportError
    res = CliRunner().invoke(main, ["analyze", str(results), "--html", str(tmp_path)])
    assert res.exit_code == 1 and "cardscript[report]" in res.output and "Traceback" not in res.output
    assert not (tmp_path / "index.html").exists()


def _chromium() -> str | None:
    return next((p for n in ("chromium", "chromium-browser", "google-chrome") if (p := shutil.which(n))), None)


def _browser(binary: str, *args: str) -> subprocess.CompletedProcess[str]:
    profile = tempfile.mkdtemp(prefix="cardscript-chromium-")
    try:
        return subprocess.run([binary, "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                               "--disable-component-update", "--disable-sync", "--no-first-run",
                               f"--user-data-dir={profile}", *args], check=False, capture_output=True, text=True,
                              timeout=120)
    finally:
        shutil.rmtree(profile, ignore_errors=True)


def test_a_real_batch_in_a_headless_browser(tmp_path: Path) -> None:
    binary = _chromium()
    if binary is None:
        pytest.skip("no chromium binary (apt-get install -y chromium)")
    runs = tmp_path / "runs.jsonl"
    res = CliRunner().invoke(main, ["simulate", "injustice", "-n", "30", "--players", "2", "--jobs", "1",
                                    "--out", str(runs), "--json"])
    assert res.exit_code == 0, res.output
    assert CliRunner().invoke(main, ["analyze", str(runs), "--html", str(tmp_path / "r")]).exit_code == 0
    page = (tmp_path / "r" / "index.html").as_uri()
    # the DOM as the browser built it: the four plots, at their drawn sizes
    dom = _browser(binary, "--dump-dom", page).stdout
    images = re.findall(r'<img class="plot" alt="([^"]*)" width="(\d+)" height="(\d+)" src="data:image/png', dom)
    assert [alt for alt, _, _ in images] == ["forest plot of card impact", "seat advantage", "turns histogram",
                                             "score histograms"]
    assert all(int(w) > 300 and int(h) > 200 for _, w, h in images)
    assert "Injustice Lex Luthor" in dom and "<script" not in dom
    # what it drew: not a blank page (blue bars and red or grey marks on white)
    from matplotlib.image import imread

    shot = tmp_path / "page.png"
    _browser(binary, f"--screenshot={shot}", "--window-size=1000,1400", page)
    pixels = imread(str(shot))[:, :, :3]
    coloured = (abs(pixels[:, :, 0] - pixels[:, :, 2]) > 0.2).mean()  # neither white, grey nor black
    dark = (pixels.max(axis=2) < 0.5).mean()
    assert coloured > 0.01 and dark > 0.001, (coloured, dark)
