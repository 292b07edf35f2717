"""Cards in zones: moving them, refilling empty zones, and the random outcomes
(shuffles, die rolls, random picks) with the game's one RNG or as a scenario rigged them."""

from __future__ import annotations

from random import Random

from cardscript.runtime.errors import MOVE_STEPS, RigError
from cardscript.runtime.game.state import GameState

#: from this many cards on, :meth:`ZoneOps.move_all` takes them out of their slot in one pass
BULK_MOVE = 8


class ZoneOps(GameState):
    """What the game does with cards in zones (part of :class:`~cardscript.runtime.game.Game`)."""

    def visible(self, slot: int) -> list[int]:
        """Cards a selector sees in a slot: all of them, or only the top of a stack."""
        cards = self.slots[slot]
        if self.d.zones[self.slot_zone[slot]].stack:
            return cards[-1:]
        return cards

    def ensure(self, slot: int, count: int, bottom: bool = False) -> None:
        """Refill a zone from its ``refill_from`` zone when ``count`` cards must be taken
        from its top (or, with ``bottom``, its bottom) and it holds fewer.

        DC rulebooks, "Shuffling Your Deck" (ruling INJ-24): the cards still in the zone are
        taken first, so they stay where they are; the refill zone is shuffled and goes
        beneath them (above them, when taking from the bottom), and the taking carries on.
        Nothing happens when the refill zone is empty.

        Args:
            slot: the zone slot cards are taken from.
            count: how many cards are needed.
            bottom: cards are taken from the bottom end.
        """
        cards = self.slots[slot]
        if len(cards) >= count:
            return
        z = self.d.zones[self.slot_zone[slot]]
        if z.refill_from < 0:
            return
        src = self.slot(z.refill_from, self.slot_owner[slot])
        if not self.slots[src]:
            return
        # All at once, bottom card first, as one move of each would put them (and log them).
        moved = list(self.slots[src])
        self.slots[src].clear()
        self.steps += MOVE_STEPS * len(moved)
        self._moved_many(moved, src, slot)
        self._shuffle_cards(moved, slot)
        if bottom:
            cards.extend(moved)
        else:
            cards[:0] = moved
        if self.logging:
            self.emit_log({"t": "refill", "zone": self.slot_name(slot)})
        if self.enter_zones and z.index in self.enter_zones:  # 'when a card enters ZONE' (cards2 area)
            for c in moved:
                self.entered(c, slot)  # type: ignore[attr-defined]  # EntryOps, in Game

    def move(self, card: int, slot: int, bottom: bool = False) -> None:
        """Put a card on the top (or the bottom) of a slot. Taking the top card of a zone,
        the usual move, costs O(1); a card from elsewhere in it costs a search of the zone."""
        old = self.loc[card]
        slots = self.slots
        cards = slots[old]
        if cards[-1] == card:
            cards.pop()
        else:
            del cards[cards.index(card)]
        if bottom:
            slots[slot].insert(0, card)
        else:
            slots[slot].append(card)
        # _moved(card, old, slot), written out: the most frequent change of all
        self.loc[card] = slot
        self.came_from[card] = old
        owners, touched, owner = self.slot_owner, self.touched, self.owner
        to = owners[slot]
        p = owners[old]
        clock = self.clock  # ticked in a local: one store of the attribute, not three
        if p >= 0:
            clock += 1
            touched[p] = clock
        if to >= 0:
            clock += 1
            touched[to] = clock
        p = owner[card]
        if p >= 0:
            clock += 1
            touched[p] = clock
        self.clock = clock
        if to >= 0:
            if p < 0:
                owner[card] = to
        elif self.slot_card[slot] < 0:
            owner[card] = -1
        if self.controller:
            self.controller.pop(card, None)
        self.face_up[card] = self.slot_face_up[slot]
        if self.logging:
            self.emit_log({"t": "move", "card": self.card_name(card), "id": card,
                           "from": self.slot_name(old), "to": self.slot_name(slot)})
        if self.enter_zones and self.slot_zone[slot] in self.enter_zones:  # 'when a card enters ZONE' (cards2)
            self.entered(card, slot)  # type: ignore[attr-defined]  # EntryOps, in Game

    def move_all(self, cards: list[int], slot: int, bottom: bool = False) -> None:
        """:meth:`move` of each of ``cards`` in order, onto the top (or the bottom) of
        ``slot``, with the same result. Many distinct cards out of one other slot (a setup
        taking 40 markers out of a box of hundreds) leave it in one pass, where a move of
        each would search the slot for each card; their bookkeeping is each card's, in order.
        Cards entering a zone that a trigger watches move one by one, as a trigger may read
        the zones between two moves."""
        loc = self.loc
        if len(cards) >= BULK_MOVE and not (self.enter_zones and self.slot_zone[slot] in self.enter_zones):
            old = loc[cards[0]]
            gone = set(cards)
            if old != slot and len(gone) == len(cards) and all(loc[c] == old for c in cards):
                pile = self.slots[old]
                pile[:] = [c for c in pile if c not in gone]
                if bottom:
                    self.slots[slot][:0] = cards[::-1]
                else:
                    self.slots[slot].extend(cards)
                self._moved_many(cards, old, slot)
                return
        move = self.move
        for c in cards:
            move(c, slot, bottom)

    def _moved(self, card: int, old: int, slot: int) -> None:
        """Everything a move changes besides the order of the two slots (:meth:`move` has
        its own copy, written out: keep the two the same)."""
        self.loc[card] = slot
        self.came_from[card] = old
        # touch() of each of the three, inlined (a tick each, even for the same player twice):
        # the most frequent change of all
        owners, touched, owner = self.slot_owner, self.touched, self.owner
        to = owners[slot]
        p = owners[old]
        clock = self.clock
        if p >= 0:
            clock += 1
            touched[p] = clock
        if to >= 0:
            clock += 1
            touched[to] = clock
        p = owner[card]
        if p >= 0:
            clock += 1
            touched[p] = clock
        self.clock = clock
        # A card in a player's zone is theirs unless it already belongs to someone (a foe's
        # card you play stays theirs); a card in a shared zone belongs to nobody.
        if to >= 0:
            if p < 0:
                owner[card] = to
        elif self.slot_card[slot] < 0:
            owner[card] = -1
        # Control taken of a card ends when the card moves.
        if self.controller:
            self.controller.pop(card, None)
        self.face_up[card] = self.slot_face_up[slot]
        if self.logging:
            self.emit_log({"t": "move", "card": self.card_name(card), "id": card,
                           "from": self.slot_name(old), "to": self.slot_name(slot)})

    def _moved_many(self, cards: list[int], old: int, slot: int) -> None:
        """:meth:`_moved` of each of ``cards`` in order, all from slot ``old`` to ``slot``: the
        same changes, without a call per card. A logged game logs each card's move as it
        happens (:meth:`_moved` of each: a listener reads the state of each entry)."""
        if self.logging or len(cards) < 2:
            moved = self._moved
            for c in cards:
                moved(c, old, slot)
            return
        loc, came_from, touched, owner, face_up = self.loc, self.came_from, self.touched, self.owner, self.face_up
        p_old, to = self.slot_owner[old], self.slot_owner[slot]
        shared = to < 0 and self.slot_card[slot] < 0  # a card in a shared zone belongs to nobody
        face = self.slot_face_up[slot]
        clock = self.clock
        if p_old >= 0 and to >= 0:
            # from a player's zone to a player's (a discard, a draw): the loop below, without its tests
            for card in cards:
                loc[card] = slot
                came_from[card] = old
                touched[p_old] = clock + 1
                clock += 2
                touched[to] = clock
                p = owner[card]
                if p >= 0:
                    clock += 1
                    touched[p] = clock
                else:
                    owner[card] = to
                face_up[card] = face
            self.clock = clock
            if self.controller:
                for card in cards:
                    self.controller.pop(card, None)
            return
        for card in cards:
            loc[card] = slot
            came_from[card] = old
            if p_old >= 0:
                clock += 1
                touched[p_old] = clock
            if to >= 0:
                clock += 1
                touched[to] = clock
            p = owner[card]
            if p >= 0:
                clock += 1
                touched[p] = clock
            if to >= 0:
                if p < 0:
                    owner[card] = to
            elif shared:
                owner[card] = -1
            face_up[card] = face
        self.clock = clock
        if self.controller:
            for card in cards:
                self.controller.pop(card, None)

    def shuffle(self, slot: int) -> None:
        """Shuffle a slot with the game's RNG (or as a scenario rigged it)."""
        self._shuffle_cards(self.slots[slot], slot)

    def _shuffle_cards(self, cards: list[int], slot: int) -> None:
        """Shuffle ``cards`` in place: a whole slot, or cards about to go into ``slot``."""
        self.steps += len(cards)
        rng = self.rng
        if type(rng) is Random:
            # Random.shuffle written out, the same draws (CPython's: for i from the end, swap
            # with j = _randbelow(i + 1), drawing bit_length(i + 1) bits until they are below
            # it): a call less per card of every shuffle (tests/test_move_inline.py)
            bits = rng.getrandbits
            for i in range(len(cards) - 1, 0, -1):
                m = i + 1
                width = m.bit_length()
                j = bits(width)
                while j >= m:
                    j = bits(width)
                cards[i], cards[j] = cards[j], cards[i]
        else:  # an RNG of another kind (set by its user): its own shuffle
            rng.shuffle(cards)
        if self.rigged and self.rigged[0][0] == "shuffle":
            names = self.rigged.pop(0)[1]
            top: list[int] = []
            for name in names:
                c = next((c for c in reversed(cards) if self.card_name(c) == name and c not in top), None)
                if c is None:
                    raise RigError(f"no {name!r} left to put on top of {self.slot_name(slot)}")
                top.append(c)
            cards[:] = [c for c in cards if c not in top] + top[::-1]

    def roll(self, die: int) -> str:
        """Roll one die: a random face (or the next rigged one). Returns the face."""
        faces = self.d.cards[self.card_type[die]].faces
        if self.rigged and self.rigged[0][0] == "roll":
            wanted = self.rigged[0][1]
            face = wanted.pop(0)
            if not wanted:
                self.rigged.pop(0)
            if face not in faces:
                raise RigError(f"{self.card_name(die)} has no face {face!r}: its faces are {list(faces)}")
        else:
            face = (self.rng if self._rng_shared else self._rng).choice(faces)  # the property only to copy a shared RNG
        self.face_value[die] = face
        if self.logging:
            self.emit_log({"t": "roll", "die": self.card_name(die), "id": die, "face": face})
        return face

    def pick_random(self, pool: list[int], n: int) -> list[int]:
        """``n`` distinct cards of ``pool`` at random (or as rigged by a scenario)."""
        if self.rigged and self.rigged[0][0] == "random":
            answers = self.rigged[0][1]
            out: list[int] = []
            while len(out) < n and answers:
                a = answers.pop(0)
                left = [c for c in pool if c not in out]
                c = left[a] if isinstance(a, int) and not isinstance(a, bool) and 0 <= a < len(left) else \
                    next((c for c in left if self.card_name(c) == a), None)
                if c is None:
                    raise RigError(f"{a!r} is not among {[self.card_name(c) for c in left]}")
                out.append(c)
            if not answers:
                self.rigged.pop(0)
            return out
        if n == 1:
            return [self.rng.choice(pool)]
        return self.rng.sample(pool, n)

