"""A set of thousands of cards compiles in time linear in its cards: no step looks at every
card for each card (a 20 000-card expansion took minutes to check; now about 2 s). Counted,
not timed: the per-card work that was quadratic is not done at all for the usual cards."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from cardscript.dsl.front import check as check_mod
from cardscript.dsl.front.pipeline import compile_game


def _expansion(tmp_path: Path, cards: int, extra: str = "") -> Path:
    body = "".join(f'card "C{i}": hero, cost 1\n' for i in range(cards))
    (tmp_path / "big.cards").write_text(f'expansion "Big"\nuses "injustice"\n{body}{extra}', encoding="utf-8")
    return tmp_path / "big.cards"


def test_new_card_names_are_not_placed_among_all_cards(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[str] = []
    real = check_mod.add_card

    def counted(cards: Any, sets: Any, item: Any, *a: Any) -> Any:
        calls.append(item.name)
        return real(cards, sets, item, *a)

    monkeypatch.setattr(check_mod, "add_card", counted)
    d, _w, _p = compile_game("injustice", [_expansion(tmp_path, 400)])
    assert sum(ct.name.startswith("C") and ct.name[1:].isdigit() for ct in d.cards) == 400
    assert not [n for n in calls if n.startswith("C") and n[1:].isdigit()]  # every name new: no search


def test_a_card_name_given_twice_is_still_placed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[str] = []
    real = check_mod.add_card
    monkeypatch.setattr(check_mod, "add_card", lambda cards, sets, item, *a: calls.append(item.name) or
                        real(cards, sets, item, *a))
    path = _expansion(tmp_path, 3, 'card "C1": hero, cost 2\n')
    with pytest.raises(Exception, match="C1"):
        compile_game("injustice", [path])  # CS203: the same set defines it twice
    assert calls == ["C1"]
