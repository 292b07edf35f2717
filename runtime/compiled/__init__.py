"""Compiled effects (issue 11, "lowering produces specialised callables"): the effect
objects of a :class:`~cardscript.runtime.definition.GameDefinition` turned into nested
Python closures, the form the engine runs.

The effect objects (:mod:`cardscript.runtime.effects`) stay what the front end lowers to:
the IR, what the tools walk (hoisting, the action index, the JSON IR) and the reference
of what each statement does. The first time a block runs in a game of a definition,
:func:`block` compiles it, and every block, statement, condition and expression in it,
into closures:

* **no dispatch at run time.** A closure is chosen for each node when it is compiled, by
  the node's class and the shape of its operands: a number written in the script is a
  constant (``+1 power`` adds 1, ``repeat 5`` loops five times), 'your C' of a counter no
  passive ability adds to is a list index, 'it' is ``ctx.it``;
* **fused children.** A closure does the work of the small nodes under it instead of
  calling them (a block of one statement, a comparison with a constant side, the counter
  change of ``+N C``, the move of 'the top card of your deck');
* **what nobody reads is not kept.** A block records each statement's result ('if you
  do') and the change clock ('if they were affected') only where a later statement can
  read them (:func:`~.analysis.reads_previous`).

A node the compiler has no closure for runs as it always did: its bound method is its
closure, and any block it runs compiles on its first run. Every closure does exactly what
the object's method does — the same state changes, result, steps of the step budget,
logged entries and errors (with the same script positions and chains) —
``tests/test_compiled.py`` plays every built-in game both ways and compares.

Closures are made once per definition and block (``Seq._fn`` holds the definition with the
closure) and read nothing of one game but ``g`` and ``ctx``: every game of the definition
runs them, at any number of seats. A traced game (``Game.tracing``, ``cardscript test
-v``) runs the objects, whose blocks record each statement's script position.

``CARDSCRIPT_COMPILED=0`` (or ``false``, ``no``, ``off``, in any case) in the environment
turns compiling off (the objects run); the module flag :data:`ENABLED` does the same for
the games started after it changes.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any

#: compile blocks to closures (``CARDSCRIPT_COMPILED=0``: run the effect objects)
ENABLED = os.environ.get("CARDSCRIPT_COMPILED", "1").strip().lower() not in ("0", "false", "no", "off")

#: a compiled statement or block: ``fn(g, ctx) -> int``; a condition ``-> bool``; an
#: expression ``-> value``; a selector ``-> list``
Fn = Callable[..., Any]


def block(seq: Any, g: Any) -> Fn:
    """The closure of block ``seq`` (a :class:`~cardscript.runtime.effects.flow.Seq`) for
    the definition of game ``g``, compiled at its first use and kept on the block."""
    entry = seq._fn
    if entry is not None and entry[0] is g.d:
        return entry[1]
    try:
        from cardscript.runtime.compiled.compiler import Compiler

        return Compiler(g).block(seq)
    except RecursionError:
        # Compiled where Python's stack is already deep (a script nested near its limits, run
        # deep in a chain of effects): this block runs as its objects (blocks inside it compile
        # when they run), the same game.
        seq._fn = (g.d, seq.run_objects, None)
        return seq.run_objects
