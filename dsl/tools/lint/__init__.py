"""Static checks beyond syntax: warnings about a game that compiles (``cardscript check``).

Run after lowering, on a program without errors (:func:`lint`). Every finding is a
warning with its own stable code:

* ``CS501`` a trigger that never fires: no rule or effect emits its event (a ``when "E"``,
  or the verb of an ongoing ``when you VERB ...`` or ``the first time you VERB ...``);
* ``CS502`` a choice, condition or cost that can never be met: a card selector or a
  ``has`` test naming a type or keyword no card has, a type argument no card has, a
  counter compared with a value outside the counter's bounds (``burn 9`` when the
  burn effect needs ``your charge >= N`` and charge is 0..8);
* ``CS503`` a definition nothing uses: an effect never called, a counter, zone, type,
  ability label or attribute never named (libraries — ``ruleset`` scripts — are exempt:
  a game uses what it needs of them);
* ``CS504`` a card that never leaves the box: no setup or effect takes it out;
* ``CS505`` a trigger chain that can loop without bound: a ``when "E"`` rule or card
  trigger whose body, through the effects it calls, emits ``"E"`` again, with no
  ``first time each turn`` on the way;
* ``CS506`` a division or remainder by the constant 0 (``E / 0`` is always 0, ``E mod 0``
  always E);
* ``CS507`` a cost modifier of 0 (``cards cost 0 less``): it changes nothing;
* ``CS508`` a ``repeat 0:`` loop: its block never runs (a negative constant count is the
  error ``CS209``; a computed count of 0 or less is fine and runs the block no times).

``CS501`` also covers a delayed effect (``at the next "EVENT"``) on an event nothing emits.

The analysis is conservative where it cannot decide (a ``where`` it cannot evaluate
may hold; a ``resolve LABEL`` may run the LABEL ability of any card), so it warns only
about what is certain from the text. The parts:

* :mod:`~cardscript.dsl.tools.lint.values` — numbers as intervals, texts as sets,
  conditions as always / never / cannot tell;
* :mod:`~cardscript.dsl.tools.lint.facts` — what each body of the program does (events,
  effects and abilities it runs, calls);
* :mod:`~cardscript.dsl.tools.lint.checks` — the :class:`Linter` and its checks.
"""

from __future__ import annotations

from cardscript.dsl.diagnostics import Diagnostic
from cardscript.dsl.front.check import Symbols
from cardscript.dsl.front.loader import Program
from cardscript.dsl.tools.lint.checks import EFFECT_LIBRARY_KINDS, LIBRARY_KINDS, Linter
from cardscript.runtime.definition import GameDefinition

__all__ = ["EFFECT_LIBRARY_KINDS", "LIBRARY_KINDS", "Linter", "lint"]


def lint(program: Program, sym: Symbols, definition: GameDefinition) -> list[Diagnostic]:
    """Static checks of a compiled program; warnings only, sorted by place.

    Args:
        program: the loaded scripts (for the sources and which are libraries).
        sym: the program's declarations (:func:`cardscript.dsl.front.check.collect`).
        definition: the compiled game (for the cards' types, keywords and printings).
    """
    return Linter(program, sym, definition).run()
