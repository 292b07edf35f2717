"""What a batch plays, as plain text: the same options as ``cardscript play`` (game,
expansions, variants, mixed sets, seats, bots), so that a worker process can compile
the game itself and any one game can be replayed from the command line."""

from __future__ import annotations

import json
import shlex
from dataclasses import asdict, dataclass
from typing import Any

from cardscript.runtime.definition import GameDefinition


@dataclass(frozen=True)
class BatchSpec:
    """The options of a batch, as the user gave them.

    Attributes:
        game: the GAME argument (a built-in name or a path).
        players: seats of every game.
        bots: the ``--bots`` value (names cycled over the seats).
        with_paths, variants, mixes: the ``--with``, ``--variant`` and ``--mix`` values, in order.
        detail: per-seat card counts in each row (needs each game's log: about a third slower).
    """

    game: str
    players: int
    bots: str
    with_paths: tuple[str, ...] = ()
    variants: tuple[str, ...] = ()
    mixes: tuple[str, ...] = ()
    detail: bool = False

    def to_json(self) -> str:
        """The spec as JSON text: what a worker process receives (never a pickled object)."""
        return json.dumps(asdict(self), sort_keys=True)

    @classmethod
    def from_json(cls, text: str) -> BatchSpec:
        """The spec :meth:`to_json` wrote."""
        raw: dict[str, Any] = json.loads(text)
        for key in ("with_paths", "variants", "mixes"):
            raw[key] = tuple(raw[key])
        return cls(**raw)

    def compile(self) -> GameDefinition:
        """Compile the game as ``cardscript play`` does (warnings are not printed: the
        command printed them once already).

        Raises:
            CompileError: the scripts have errors.
        """
        from cardscript.dsl.front.pipeline import compile_game
        from cardscript.dsl.front.variants import game_scripts

        extra, cards = game_scripts(self.game, list(self.with_paths), list(self.variants), list(self.mixes))
        return compile_game(self.game, extra, cards)[0]

    def replay_command(self, seed: int) -> str:
        """The exact ``cardscript play`` command that plays the game of ``seed`` again,
        with its log: the same scripts, seats, bots and seed give the same game."""
        argv = ["cardscript", "play", self.game, "--players", str(self.players), "--seed", str(seed),
                "--bots", self.bots]
        for option, values in (("--with", self.with_paths), ("--variant", self.variants), ("--mix", self.mixes)):
            for v in values:
                argv += [option, v]
        return " ".join(shlex.quote(a) for a in argv)
