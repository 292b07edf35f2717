"""Issue 13, observations: an agent sees what its seat may know, and nothing it hands
over leads back to the game."""

from __future__ import annotations

import types
from pathlib import Path
from typing import Any

import pytest

import cardscript
from cardscript.runtime.agents import GreedyAgent, HeuristicAgent, RandomAgent
from cardscript.runtime.decision import Agent
from cardscript.runtime.definition import GameDefinition
from cardscript.runtime.engine import Engine
from cardscript.runtime.errors import InvalidDecision
from cardscript.runtime.game import Game, GameState
from cardscript.runtime.observation import DecisionView, Observation, card_seen
from cardscript.runtime.search import SearchAgent

GAMES = [("injustice", 2), ("justice-league-dark", 3), ("hero-dice-batman", 2)]


def _reachable(root: Any, limit: int = 20000) -> list[Any]:
    """Everything reachable from ``root`` by attribute access on its state: instance
    ``__dict__`` and ``__slots__``, containers, bound methods' ``__self__``, functions'
    closures and defaults. Not class or module globals: from any function they lead to
    the whole interpreter (sys.modules), which no API can fence."""
    seen: dict[int, Any] = {}
    todo = [root]
    while todo and len(seen) < limit:
        x = todo.pop()
        if id(x) in seen or isinstance(x, (type, types.ModuleType, str, bytes, int, float, bool, type(None))):
            continue
        seen[id(x)] = x
        if isinstance(x, dict):
            todo.extend(x.keys())
            todo.extend(x.values())
        elif isinstance(x, (list, tuple, set, frozenset)):
            todo.extend(x)
        if isinstance(x, types.MethodType):
            todo.append(x.__self__)
            todo.append(x.__func__)
        if isinstance(x, types.FunctionType):
            todo.extend(c.cell_contents for c in (x.__closure__ or ()))
            todo.extend(x.__defaults__ or ())
        if hasattr(x, "__dict__") and not isinstance(x, types.FunctionType):
            todo.append(vars(x))
        for cls in type(x).__mro__:
            for name in getattr(cls, "__slots__", ()):
                if name != "__weakref__" and hasattr(x, name):
                    todo.append(getattr(x, name))
        for name in dir(x):  # properties and other computed attributes: what reading them gives
            if name.startswith("__"):
                continue
            try:
                v = getattr(x, name)
            except (RuntimeError, AttributeError):  # an answered decision's options: gone, as they should be
                continue
            if not isinstance(v, types.BuiltinMethodType):
                todo.append(v)
    return list(seen.values())


class Prober(Agent):
    """Plays at random, and at each decision walks what it was handed."""

    name = "prober"

    def __init__(self) -> None:
        self.inner = RandomAgent()
        self.found: list[str] = []
        self.walked = 0
        self.kept: list[tuple[Observation, DecisionView]] = []

    def bind(self, seat: int, seed: int) -> None:
        self.inner.bind(seat, seed)

    def choose(self, view: Observation, decision: DecisionView) -> list[int]:
        if self.walked < 40:  # a walk is slow; the first decisions cover every kind of view
            self.walked += 1
            for x in _reachable((view, decision, self)):
                if isinstance(x, (Game, GameState, GameDefinition, Engine)):
                    self.found.append(f"{type(x).__name__} from a {decision.kind} decision")
                if isinstance(x, weakref_types):
                    self.found.append(f"a weak reference ({x!r})")
        self.kept.append((view, decision))
        return self.inner.choose(view, decision)


weakref_types = (__import__("weakref").ref,)


@pytest.mark.parametrize("game,players", GAMES)
def test_nothing_handed_over_leads_to_the_game(game: str, players: int) -> None:
    d = cardscript.compile_game(game)
    probe = Prober()
    agents: list[Agent] = [probe] + [GreedyAgent() for _ in range(players - 1)]
    Engine(d, players, agents, seed=3).run()
    assert probe.walked > 10
    assert probe.found == []


def test_an_answered_decision_has_no_options_left() -> None:
    d = cardscript.compile_game("injustice")
    probe = Prober()
    Engine(d, 2, [probe, RandomAgent()], seed=2).run()
    assert len(probe.kept) > probe.walked  # the last one was not walked: nothing of it was read
    _view, old = probe.kept[-1]
    with pytest.raises(RuntimeError):
        _ = old.labels


class _Spy(Agent):
    """Records, per decision, the view's zones and the labels and options it was given."""

    name = "spy"
    forecasts = True  # its greedy looks ahead: the engine must record the game

    def __init__(self) -> None:
        self.inner = GreedyAgent()
        self.records: list[tuple[dict[str, Any], list[str], tuple[Any, ...], int]] = []

    def bind(self, seat: int, seed: int) -> None:
        self.inner.bind(seat, seed)
        self.seat = seat

    def choose(self, view: Observation, decision: DecisionView) -> list[int]:
        self.records.append((view.zones, decision.labels, decision.options, view.turn))
        return self.inner.choose(view, decision)


@pytest.mark.parametrize("game,players", GAMES)
def test_hidden_cards_show_as_sizes_only(game: str, players: int) -> None:
    """A foe's private zone and every hidden zone show None per card (their size); the
    seat's own private zones and public zones show names."""
    d = cardscript.compile_game(game)
    spies = [_Spy() for _ in range(players)]
    e = Engine(d, players, spies, seed=5)
    e.run()
    g = e.game
    kinds = {g.slot_name(s): (g.d.zones[g.slot_zone[s]], g.slot_owner[s]) for s in range(len(g.slots))}
    named_own = named_public = 0
    for seat, spy in enumerate(spies):
        for zones, _labels, _options, _turn in spy.records:
            for slot_name, cards in zones.items():
                z, owner = kinds[slot_name]
                if z.visibility == "hidden":
                    assert all(c is None for c in cards), (slot_name, cards)
                elif z.face_down:  # a face-down stack: only a card turned face up (its top) shows
                    assert all(c is None for c in cards[:-1]), (slot_name, cards)
                elif z.visibility == "private" and owner == seat:
                    assert all(c is not None for c in cards), (slot_name, cards)
                    named_own += bool(cards)
                elif z.visibility == "public" and not z.stack:  # (a card turned face down: None)
                    named_public += any(c is not None for c in cards)
    assert named_public
    if game != "hero-dice-batman":  # its hand is public
        assert named_own


class _HandSpy(Agent):
    """The heuristic bot, but remembers the hidden cards of every card decision it is offered
    (not greedy: what a seat is offered does not depend on the bot, and greedy's lookahead
    made this test take 20 s; _Spy above plays greedy, for a game the engine records)."""

    name = "hand-spy"

    def __init__(self) -> None:
        self.inner = HeuristicAgent()
        self.labels: list[str] = []
        self.hidden_options = 0

    def bind(self, seat: int, seed: int) -> None:
        self.inner.bind(seat, seed)

    def choose(self, view: Observation, decision: DecisionView) -> list[int]:
        self.labels.extend(decision.labels)
        self.hidden_options += sum(o is None for o in decision.options) if decision.kind == "card" else 0
        return self.inner.choose(view, decision)


def test_labels_never_name_a_card_the_seat_cannot_see() -> None:
    """Every card option of every decision, judged by the engine's own rule at the moment
    it is offered: a card the seat may not see is labelled "a hidden card"."""
    from cardscript.runtime.game import decisions as decisions_module
    from cardscript.runtime.observation import HIDDEN, seat_labels

    checked: list[int] = [0, 0]
    original = decisions_module.ask

    def checking(g: Game, agent: Agent, d: Any) -> list[int]:
        if d.kind == "card":
            labels = seat_labels(g, d.player, d)
            for card, label in zip(d.options, labels, strict=True):
                hidden = not card_seen(g, card, d.player)
                checked[hidden] += 1
                assert (label == HIDDEN) == hidden
        return original(g, agent, d)

    decisions_module.ask = checking  # type: ignore[assignment]
    try:
        for game, players in GAMES:
            definition = cardscript.compile_game(game)
            for seed in (1, 2):
                Engine(definition, players, [_HandSpy() for _ in range(players)], seed=seed).run()
    finally:
        decisions_module.ask = original
    assert checked[0] > 100  # seen cards were checked; hidden ones may be rare in these games


def test_a_revealed_card_is_seen_for_the_rest_of_the_turn() -> None:
    """'Each foe ... reveals a Villain from their hand': the revealed card shows in the
    foe's hand (and in ``revealed``) while it stays there, that turn only."""
    d = cardscript.compile_game("injustice")
    seen_foe_names: list[tuple[int, str, bool]] = []

    class Peek(HeuristicAgent):  # what is revealed does not depend on the bot: the cheap one
        def choose(self, view: Observation, decision: DecisionView) -> list[int]:
            foe = 1 - view.seat
            names = {name for _z, name in view.revealed}
            for name in view.zone("hand", foe):
                if name is not None:
                    seen_foe_names.append((view.turn, name, name in names))
            return super().choose(view, decision)

    for seed in range(1, 30):
        Engine(d, 2, [Peek(), Peek()], seed=seed).run()
        if seen_foe_names:
            break
    assert seen_foe_names, "no game of these seeds revealed a card of a hand"
    assert all(was_revealed for _t, _n, was_revealed in seen_foe_names)


def test_the_bots_play_the_same_games() -> None:
    """Random and heuristic through their views: the games of tests/test_golden.py's kind
    are the same game twice (the golden hashes themselves are tests/test_golden.py's; the
    lookahead bots' sameness across processes is tests/test_bots_issue13.py's)."""
    d = cardscript.compile_game("injustice")
    a = cardscript.play_game(d, players=3, agents=["heuristic", "random"], seed=9)
    b = cardscript.play_game(d, players=3, agents=["heuristic", "random"], seed=9)
    assert a.log == b.log


def test_a_seats_log_never_names_a_card_it_could_not_see() -> None:
    """--log-for's log, checked entry by entry as the game runs: when the full log names a
    card the seat cannot see (a foe's draw, a card going into a deck), the seat's log
    adds no card name for it; a foe's draws are counted."""
    from cardscript.runtime.observation import event_subject, slot_seen
    from cardscript.runtime.seatlog import SeatLog

    d = cardscript.compile_game("injustice")
    e = Engine(d, 2, [HeuristicAgent(), HeuristicAgent()], seed=3)  # the bot is not what is tested
    g = e.game
    seat_log = SeatLog(g, 0)
    slots = {g.slot_name(s): s for s in range(len(g.slots))}
    hidden_named = [0]
    before = [0]

    def check(entry: dict[str, Any]) -> None:
        new = seat_log.entries[before[0]:]
        card = entry["id"] if entry["t"] == "move" else \
            event_subject(g) if entry["t"] == "event" and "card" in entry else None  # plays, reveals: public
        if card is not None:
            unseen = not card_seen(g, card, 0)
            if entry["t"] == "move":
                unseen = unseen and not slot_seen(g, slots[entry["from"]], 0)
            if unseen:
                hidden_named[0] += 1
                assert all("card" not in n for n in new), (entry, new)
        before[0] = len(seat_log.entries)

    g.listeners.extend([seat_log, check])
    e.run()
    assert hidden_named[0] > 50  # foes' draws, shuffles into decks: checked
    assert all("id" not in x for x in seat_log.entries)
    assert any(x["t"] == "move" and x.get("count", 0) >= 5 and x["to"] == "P2 hand" for x in seat_log.entries)
    foe_choices = [x for x in seat_log.entries if x["t"] == "decision" and x["player"] == 1]
    assert foe_choices and all(set(x) == {"t", "player", "kind", "purpose"} for x in foe_choices)
    assert "seed" not in seat_log.entries[0]


def test_play_log_for_writes_the_seats_log(tmp_path: Any) -> None:
    import json

    from click.testing import CliRunner

    from cardscript.dsl.cli.main import main as cli

    full, mine = tmp_path / "full.jsonl", tmp_path / "p2.jsonl"
    res = CliRunner().invoke(cli, ["play", "injustice", "-q", "--seed", "4", "--log", str(full),
                                   "--log-for", "2", str(mine)])
    assert res.exit_code == 0, res.output
    lines = [json.loads(x) for x in mine.read_text().splitlines()]
    assert lines[0]["t"] == "setup" and "seed" not in lines[0]
    own = [x for x in lines if x["t"] == "decision" and x["player"] == 1]
    assert own and all("options" in x for x in own)
    # P1's draws: named in the full log, counted in P2's
    draws = [x for x in lines if x["t"] == "move" and (x["from"], x["to"]) == ("P1 deck", "P1 hand")]
    assert draws and all("card" not in x and x["count"] >= 1 for x in draws)
    full_draws = [json.loads(x) for x in full.read_text().splitlines()]
    assert any(x.get("t") == "move" and (x["from"], x["to"]) == ("P1 deck", "P1 hand") and "card" in x
               for x in full_draws)
    assert all("id" not in x for x in lines)
    bad = CliRunner().invoke(cli, ["play", "injustice", "-q", "--log-for", "3", str(mine)])
    assert bad.exit_code != 0 and "seats 1 to 2" in bad.output


class _ActionsProbe(RandomAgent):
    """A random bot that checks, at each action decision, that ``DecisionView.actions`` says
    of each option what ``options`` says of its action (issue 11: the heuristic bot chooses
    from ``actions``, reading no card)."""

    checked = 0
    granted = 0

    def choose(self, view: Observation, d: DecisionView) -> list[int]:
        if d.kind == "action":
            kinds = d.actions
            assert [None if o is None else (o.order, o.hinted, o.granted) for o in d.options] == \
                [None if a is None else tuple(a) for a in kinds]
            assert all(a is None or (a.order, a.hinted, a.granted) == tuple(a) for a in kinds)
            _ActionsProbe.checked += 1
            _ActionsProbe.granted += sum(1 for a in kinds if a is not None and a.granted)
        else:
            assert d.actions == ()
        return super().choose(view, d)


def test_the_actions_of_a_decision_are_what_its_options_say_of_their_actions() -> None:
    tour = Path(__file__).resolve().parent.parent / "examples" / "language-tour"  # cards that grant actions
    d = cardscript.compile_game("injustice", expansions=[str(tour)])
    for seed in range(1, 7):
        Engine(d, 2, [_ActionsProbe(), _ActionsProbe()], seed, log=False).run()
    assert _ActionsProbe.checked > 500 and _ActionsProbe.granted > 0


class _ByAction(HeuristicAgent):
    """The heuristic bot, noting what the engine hands its pick_action and pick_values (issue 11)."""


    def __init__(self, seen: list[Any]) -> None:
        self.seen = seen

    def pick_action(self, actions: Any, values: Any) -> int:
        pick = super().pick_action(actions, values)
        self.seen.append(([None if a is None else tuple(a) for a in actions], list(values), pick))
        return pick

    def pick_values(self, kind: str, purpose: str, size: int, low: int, high: int, values: Any) -> list[int]:
        picks = super().pick_values(kind, purpose, size, low, high, values)
        self.seen.append((kind, purpose, size, low, high, list(values), picks))
        return picks


class _ByView(HeuristicAgent):
    """The heuristic bot asked through its view, noting what the view says of each action decision."""

    by_action = False

    def __init__(self, seen: list[Any]) -> None:
        self.seen = seen

    def choose(self, view: Observation, d: DecisionView) -> list[int]:
        picks = super().choose(view, d)
        if d.kind == "action":
            self.seen.append(([None if a is None else tuple(a) for a in d.actions], list(d.values), picks[0]))
        elif d.kind != "player":
            self.seen.append((d.kind, d.purpose, d.size, d.low, d.high, list(d.values), picks))
        return picks


def test_an_agent_that_picks_by_action_is_handed_what_its_view_says() -> None:
    """A ``by_action`` and ``by_values`` agent (the heuristic bot) gets, per action decision, the
    ActionKinds and values its DecisionView would give, per other decision (a choice of
    player aside) its kind, purpose, shape and values, and so plays the same game (granted
    actions included)."""
    tour = Path(__file__).resolve().parent.parent / "examples" / "language-tour"
    d = cardscript.compile_game("injustice", expansions=[str(tour)])
    for seed in (1, 2, 3):
        fast: list[Any] = []
        viewed: list[Any] = []
        a = Engine(d, 2, [_ByAction(fast), _ByAction(fast)], seed, log=False).run()
        b = Engine(d, 2, [_ByView(viewed), _ByView(viewed)], seed, log=False).run()
        assert len(fast) > 100 and fast == viewed
        assert (a.scores, a.turns, a.decisions) == (b.scores, b.turns, b.decisions)


def test_a_subclass_that_answers_actions_its_own_way_is_asked_through_its_view() -> None:
    class Mine(HeuristicAgent):
        def _action(self, view: Observation, d: DecisionView) -> int:
            return 0

    class Said(HeuristicAgent):
        by_action = True

        def choose(self, view: Observation, d: DecisionView) -> list[int]:
            return super().choose(view, d)

    assert HeuristicAgent.by_action and Said.by_action and HeuristicAgent.by_values and Mine.by_values
    assert not Mine.by_action and not GreedyAgent.by_action and not SearchAgent.by_action
    assert GreedyAgent.by_values and not SearchAgent.by_values and not Said.by_values  # greedy's are the heuristic's
    assert _ByAction.by_action and _ByAction.by_values  # it overrides pick_action and pick_values: asked them
    assert not _ActionsProbe.blind and RandomAgent.blind


def test_a_subclass_that_overrides_choose_and_pick_action_has_both_asked() -> None:
    """Its choose() (the heuristic's, through super) asks its own pick_action and pick_values."""
    calls: list[str] = []

    class Logging(HeuristicAgent):
        def choose(self, view: Observation, d: DecisionView) -> list[int]:
            calls.append("choose")
            return super().choose(view, d)

        def pick_action(self, actions: Any, values: Any) -> int:
            calls.append("action")
            return super().pick_action(actions, values)

        def pick_values(self, kind: str, purpose: str, size: int, low: int, high: int, values: Any) -> list[int]:
            calls.append("values")
            return super().pick_values(kind, purpose, size, low, high, values)

    d = cardscript.compile_game("injustice")
    Engine(d, 2, [Logging(), Logging()], 1, log=False).run()
    assert {"choose", "action", "values"} <= set(calls)


def test_a_bad_pick_by_action_stops_the_game_with_the_usual_error() -> None:
    class Wrong(HeuristicAgent):
        name = "wrong"

        def pick_action(self, actions: Any, values: Any) -> int:
            return len(actions)

    d = cardscript.compile_game("injustice")
    with pytest.raises(InvalidDecision, match=r"wrong answered \[\d+\] to an action decision of P1 with \d+ options"):
        Engine(d, 2, [Wrong(), Wrong()], 1, log=False).run()


class _Answers(Agent):
    """Answers every decision with ``make(decision)``."""

    name = "answers"

    def __init__(self, make: Any) -> None:
        self.make = make

    def choose(self, view: Observation, d: DecisionView) -> Any:
        return self.make(d)


@pytest.mark.parametrize("make", [lambda d: None, lambda d: 3, lambda d: [0.0] * d.low, lambda d: ["0"] * d.low,
                                  lambda d: [True] * d.low, lambda d: [d.size], lambda d: [0, 0]],
                         ids=["None", "an int", "floats", "texts", "bools", "out of range", "twice"])
def test_an_answer_that_is_not_indices_stops_the_game_with_a_clear_error(make: Any) -> None:
    """Not a traceback from inside the engine, nor a game played on a wrong answer."""
    d = cardscript.compile_game("injustice")
    with pytest.raises(InvalidDecision, match=r"answers answered .* of P1 with \d+ options, needing"):
        Engine(d, 2, [_Answers(make), _Answers(make)], 1, log=False).run()


class _Indexes(int):
    """An integer type of another library (as numpy's): an index, not an int."""

    __slots__ = ()


def test_indices_of_any_integer_type_or_in_a_tuple_are_taken_as_ints() -> None:
    d = cardscript.compile_game("injustice")
    plain = Engine(d, 2, [_Answers(lambda d: list(range(d.low))) for _ in range(2)], 1, log=False).run()
    for make in (lambda d: tuple(range(d.low)), lambda d: [_Indexes(i) for i in range(d.low)]):
        other = Engine(d, 2, [_Answers(make) for _ in range(2)], 1, log=False).run()
        assert (other.scores, other.turns, other.decisions) == (plain.scores, plain.turns, plain.decisions)


class _BadRandom(RandomAgent):
    """A blind bot whose pick answers a text: taken by the engine without decide()."""

    def pick(self, size: int, low: int, high: int) -> Any:
        return ["0"]


def test_a_blind_agents_bad_pick_in_an_action_window_gives_the_usual_error() -> None:
    d = cardscript.compile_game("injustice")
    with pytest.raises(InvalidDecision, match=r"random answered \['0'\] to an? \w+ decision of P1"):
        Engine(d, 2, [_BadRandom(), _BadRandom()], 1, log=False).run()
