"""The gallery and the card faces of ``cardscript render``: :func:`write_html` writes one
self-contained page of framed cards filterable by type, :func:`write_svg` one
print-and-play SVG per card. The text comes from :mod:`cardscript.dsl.tools.render.cards`.

Every text from a script goes through :func:`cardscript.dsl.textsafe.xml`: escaped, and
without the characters XML forbids (a NUL in a card name would make the SVG unreadable).
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from cardscript.dsl.textsafe import xml
from cardscript.dsl.tools.render.cards import RenderedCard
from cardscript.dsl.tools.render.english import title

_CSS = """
body{font-family:Georgia,serif;background:#eee;margin:0;padding:16px;color:#222}
h1{font-size:22px;margin:0 0 8px}
#filters button{margin:0 4px 6px 0;padding:4px 10px;border:1px solid #555;\
border-radius:12px;background:#fff;cursor:pointer}
#filters button.on{background:#333;color:#fff}
#cards{display:flex;flex-wrap:wrap;gap:12px}
.card{width:230px;min-height:320px;border:3px solid #333;border-radius:12px;background:#fffdf5;padding:10px;
 box-sizing:border-box;display:flex;flex-direction:column;box-shadow:2px 2px 4px #999}
.card header{display:flex;justify-content:space-between;align-items:flex-start;gap:6px}
.name{font-weight:bold;font-size:15px}
.cost{min-width:26px;height:26px;border-radius:13px;background:#333;color:#fff;text-align:center;line-height:26px;
 font-weight:bold}
.type{font-style:italic;font-size:12px;border-bottom:1px solid #999;margin:4px 0 6px;padding-bottom:3px}
.text{font-size:13px;flex:1;line-height:1.35}
.text p{margin:0 0 5px}
.stats{font-size:11px;color:#555}
footer{display:flex;justify-content:space-between;font-size:12px;margin-top:6px}
.vp{font-weight:bold}
"""

_SCRIPT = """
window.addEventListener('load',function(){if(location.hash){show(decodeURIComponent(location.hash.slice(1)));}});
function show(t){document.querySelectorAll('#filters button').forEach(function(b){
 b.classList.toggle('on', b.dataset.type===t);});
 document.querySelectorAll('.card').forEach(function(c){
 var types=c.dataset.types.split('|');c.style.display=(t==='*'||types.indexOf(t)>=0)?'':'none';});}
"""


def _stats(card: RenderedCard, defaults: dict[str, Any]) -> str:
    extra = [f"{k} {v}" for k, v in card.attributes.items() if k not in ("cost", "vp") and v != defaults.get(k)]
    if card.faces:
        extra.append("faces: " + " ".join(card.faces))
    return ", ".join(extra)


def gallery_html(game: str, cards: list[RenderedCard], defaults: dict[str, Any]) -> str:
    """One self-contained page: a framed box per card, filterable by type (inline script)."""
    esc = xml
    types = sorted({t for c in cards for t in c.types})
    buttons = ['<button class="on" data-type="*" onclick="show(\'*\')">all</button>'] + [
        f'<button data-type="{esc(t)}" onclick="show({esc(json.dumps(t))})">{esc(title(t))}</button>' for t in types]
    boxes = []
    for c in cards:
        cost = f'<span class="cost">{esc(str(c.attributes["cost"]))}</span>' if "cost" in c.attributes else ""
        vp = f'<span class="vp">VP {esc(str(c.attributes["vp"]))}</span>' if "vp" in c.attributes else "<span></span>"
        boxes.append(
            f'<article class="card" data-types="{esc("|".join(c.types))}">'
            f'<header><span class="name">{esc(c.name)}</span>{cost}</header>'
            f'<div class="type">{esc(", ".join(title(t) for t in c.types) or "—")}</div>'
            f'<div class="text">{"".join(f"<p>{esc(p)}</p>" for p in c.paragraphs)}</div>'
            f'<div class="stats">{esc(_stats(c, defaults))}</div>'
            f'<footer>{vp}<span>\u00d7{c.copies}</span></footer></article>')
    return (f'<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8"><title>{esc(game)}</title>'
            f"<style>{_CSS}</style><script>{_SCRIPT}</script></head><body>\n"
            f"<h1>{esc(game)}: {len(cards)} cards</h1>\n<nav id=\"filters\">{''.join(buttons)}</nav>\n"
            f'<main id="cards">\n' + "\n".join(boxes) + "\n</main></body></html>\n")


def _wrap(text: str, width: int) -> list[str]:
    lines: list[str] = []
    for word in text.split():
        if lines and len(lines[-1]) + 1 + len(word) <= width:
            lines[-1] += " " + word
        else:
            lines.append(word)
    return lines


def card_svg(card: RenderedCard, game: str, defaults: dict[str, Any]) -> str:
    """A print-and-play card face, 63 x 88 mm (viewBox in tenths of a millimetre)."""
    esc = xml
    name_size = 34 if len(card.name) <= 22 else 26
    size, width = 26, 40
    lines = [ln for p in card.paragraphs for ln in [*_wrap(p, width), ""]][:-1]
    if len(lines) > 17:
        size, width = 18, 58
        lines = [ln for p in card.paragraphs for ln in [*_wrap(p, width), ""]][:-1]
    body = "".join(f'<tspan x="50" dy="{(size * 1.3 if ln else size * 0.6):.0f}">{esc(ln)}</tspan>' for ln in lines)
    cost = (f'<circle cx="560" cy="75" r="40" fill="#333"/><text x="560" y="88" font-size="36" fill="#fff" '
            f'text-anchor="middle" font-weight="bold">{esc(str(card.attributes["cost"]))}</text>'
            if "cost" in card.attributes else "")
    vp = (f'<text x="50" y="835" font-size="28" font-weight="bold">VP {esc(str(card.attributes["vp"]))}</text>'
          if "vp" in card.attributes else "")
    return (
        '<svg xmlns="http://www.w3.org/2000/svg" width="63mm" height="88mm" viewBox="0 0 630 880" '
        'font-family="Georgia, serif">\n'
        '<rect x="5" y="5" width="620" height="870" rx="40" fill="#fffdf5" stroke="#333" stroke-width="10"/>\n'
        f'<text x="50" y="90" font-size="{name_size}" font-weight="bold">{esc(card.name)}</text>\n{cost}\n'
        f'<text x="50" y="150" font-size="24" font-style="italic">'
        f'{esc(", ".join(title(t) for t in card.types))}</text>\n'
        '<line x1="40" y1="170" x2="590" y2="170" stroke="#999" stroke-width="2"/>\n'
        f'<text x="50" y="200" font-size="{size}">{body}</text>\n'
        f'<text x="50" y="790" font-size="20" fill="#555">{esc(_stats(card, defaults))}</text>\n{vp}\n'
        f'<text x="580" y="835" font-size="20" fill="#555" text-anchor="end">{esc(game)} \u00d7{card.copies}</text>\n'
        "</svg>\n")


def slug(name: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-") or "card"


def write_html(folder: Path, game: str, cards: list[RenderedCard], defaults: dict[str, Any]) -> Path:
    from cardscript.dsl.tools.fmt import write_atomic

    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "index.html"
    write_atomic(path, gallery_html(game, cards, defaults))
    return path


def write_svg(folder: Path, game: str, cards: list[RenderedCard], defaults: dict[str, Any]) -> list[Path]:
    from cardscript.dsl.tools.fmt import write_atomic

    folder.mkdir(parents=True, exist_ok=True)
    out: list[Path] = []
    for c in cards:
        base, n = slug(c.name), 1
        path = folder / f"{base}.svg"
        while path in out:
            n += 1
            path = folder / f"{base}-{n}.svg"
        write_atomic(path, card_svg(c, game, defaults))
        out.append(path)
    return out
