"""The golden set: hashes of the full event logs of the built-in games, to prove that a
speed or refactoring commit changes no game (issue 11, "Parity first").

Every built-in game, alone and with each of its variants (``mixing`` with the other DC
set mixed in), at every player count from 1 to 4 that the game allows and at its maximum,
with random, heuristic and mixed bots, over two seeds; the bots that look ahead (greedy,
search) on each base game once (:data:`LOOKAHEAD`). ``tests/test_golden.py`` replays
them all and compares; a rule fix that changes games re-baselines in its own commit::

    python bench/golden.py --update      # rewrite tests/golden/log_hashes.json
    python bench/golden.py               # compare, print the configurations that differ
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
import warnings
from collections.abc import Iterator
from pathlib import Path

import cardscript
from cardscript.dsl.front.variants import list_variants

GOLDEN = Path(__file__).resolve().parent.parent / "tests" / "golden" / "log_hashes.json"
GAMES = ("injustice", "justice-league-dark", "hero-dice-batman")
BOTS = ("random", "heuristic", "heuristic,random")
#: the bots that look ahead (greedy, search: seconds a game) play only each base game, at the
#: seat count given here, over the first seed: the full matrix of them would take half an hour
LOOKAHEAD = {"injustice": 2, "justice-league-dark": 2, "hero-dice-batman": 1}
LOOKAHEAD_BOTS = ("greedy", "search")
SEEDS = (1, 2)
#: the set a game's ``mixing`` variant is played with (Injustice's with Justice League Dark,
#: and the other way round)
MIX = {"injustice": ["justice-league-dark"], "justice-league-dark": ["injustice"]}


def mix_for(game: str, variants: list[str]) -> list[str]:
    """The sets to mix in for a configuration: MIX's for the ``mixing`` variant, else none."""
    return MIX.get(game, []) if "mixing" in variants else []


def configurations() -> Iterator[tuple[str, str, list[str]]]:
    """(key prefix, game, variant names) for each game alone and with each variant."""
    for game in GAMES:
        yield f"{game}", game, []
        for v in list_variants(game):
            yield f"{game}+{v.key}", game, [v.key]


def compile_quietly(game: str, variants: list[str], mix: list[str]) -> cardscript.GameDefinition:
    """compile_game without its CompileWarnings (the cards a mix leaves out are expected)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", cardscript.CompileWarning)
        return cardscript.compile_game(game, variants=variants, mix=mix)


def log_hash(log: list[dict]) -> str:
    """sha256 of the log as JSON lines (the bytes ``play --log`` writes), 16 hex digits."""
    h = hashlib.sha256()
    for entry in log:
        h.update(json.dumps(entry, sort_keys=True, separators=(",", ":")).encode())
        h.update(b"\n")
    return h.hexdigest()[:16]


def compute() -> dict[str, str]:
    """Every configuration's log hash, keyed ``game[+variant]/Np/bots/seed``."""
    out: dict[str, str] = {}
    for key, game, variants in configurations():
        mix = mix_for(game, variants)
        definition = compile_quietly(game, variants, mix)
        lo, hi = definition.players
        counts = [*range(lo, min(hi, 4) + 1), *([hi] if hi > 4 else [])]  # and the most a variant allows
        for players in counts:
            for bots in BOTS:
                for seed in SEEDS:
                    agents = bots.split(",")[:players]
                    result = cardscript.play_game(definition, players=players, agents=agents, seed=seed)
                    out[f"{key}/{players}p/{bots}/{seed}"] = log_hash(result.log)
        if key in LOOKAHEAD:
            players = LOOKAHEAD[key]
            for bots in LOOKAHEAD_BOTS:
                result = cardscript.play_game(definition, players=players, agents=[bots] * players, seed=SEEDS[0])
                out[f"{key}/{players}p/{bots}/{SEEDS[0]}"] = log_hash(result.log)
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--update", action="store_true", help="rewrite the golden file")
    args = ap.parse_args()
    now = compute()
    if args.update:
        GOLDEN.parent.mkdir(exist_ok=True)
        GOLDEN.write_text(json.dumps(now, indent=1, sort_keys=True) + "\n", encoding="utf-8")
        print(f"wrote {len(now)} hashes to {GOLDEN}")
        return 0
    old = json.loads(GOLDEN.read_text(encoding="utf-8"))
    diff = sorted(k for k in old.keys() | now.keys() if old.get(k) != now.get(k))
    for k in diff:
        print(f"differs: {k}  {old.get(k)} -> {now.get(k)}")
    print(f"{len(now) - len(diff)} of {len(now)} identical")
    return 1 if diff else 0


if __name__ == "__main__":
    sys.exit(main())
