"""Generic rules of English the renderer writes with: title case, articles, verb
agreement, sentences and lists. Nothing here knows a game or a script."""

from __future__ import annotations

import re

_MAY = re.compile(r"^(\S+ ){0,2}may ")

#: English words that glue a sentence (articles, pronouns, prepositions, conjunctions):
#: a card may be named with one of them ("A", "It"), yet in running text the word is the
#: English word, not the name ("draw a card" is not "draw A card")
FUNCTION_WORDS = frozenset({
    "a", "an", "the", "it", "its", "this", "that", "these", "those", "them", "they", "their", "you", "your",
    "he", "his", "she", "her", "we", "our", "us", "i", "me", "my", "of", "to", "in", "on", "at", "by", "for",
    "from", "with", "into", "onto", "up", "down", "out", "over", "under", "and", "or", "but", "nor", "not", "no",
    "so", "if", "as", "then", "than", "each", "every", "all", "any", "some", "one"})


def title(words: str) -> str:
    """'super power' -> 'Super Power', 'main-deck' -> 'Main Deck' (hyphens read as spaces)."""
    return " ".join(w[:1].upper() + w[1:] for w in words.replace("-", " ").split())


def article(noun: str) -> str:
    return ("an " if noun[:1].lower() in "aeiou" else "a ") + noun


def third_person(verb: str) -> str:
    """The verb after a singular subject: draw -> draws, reach -> reaches, carry -> carries."""
    if verb == "have":
        return "has"
    if verb.endswith(("s", "sh", "ch", "x", "z", "o")):
        return verb + "es"
    if len(verb) > 1 and verb.endswith("y") and verb[-2] not in "aeiou":
        return verb[:-1] + "ies"
    return verb + "s"


def sentence(text: str) -> str:
    text = text.strip()
    if not text:
        return ""
    text = text[0].upper() + text[1:]
    return text if text.endswith((".", "!", "?")) else text + "."


def capitalise_sentences(text: str) -> str:
    """A capital after '. ' and ': ' ("Keyword: Draw a card. If you do, ..."); not after
    "one: ", where the modes of a choice follow in lower case ("Choose one: draw a card;
    or ...", the DC sets' wording)."""
    return re.sub(r"(?<!\bone)([.!?:]\s+)([a-z])", lambda m: m.group(1) + m.group(2).upper(), text)


#: Nouns English does not count: their plural is the noun itself ("Equipment cost 2 less").
UNCOUNTABLE = frozenset({"equipment", "gear", "ammunition", "armor", "armour", "clothing", "information",
                         "luggage", "furniture", "jewelry", "jewellery", "software", "hardware"})


def plural(noun: str) -> str:
    """'Card' -> 'Cards', 'Hero' -> 'Heroes', 'Equipment' -> 'Equipment' (its last word, in English)."""
    last = noun.rsplit(" ", 1)[-1].lower()
    if last in UNCOUNTABLE:
        return noun
    if len(last) > 1 and last.endswith("y") and last[-2] not in "aeiou":
        return noun[:-1] + "ies"
    return noun + ("es" if last.endswith(("o", "s", "sh", "ch", "x")) else "s")


def and_list(parts: list[str]) -> str:
    parts = [p for p in parts if p]
    if len(parts) <= 2:
        return " and ".join(parts)
    return ", ".join(parts[:-1]) + ", and " + parts[-1]


def quoted(text: str) -> str:
    return f"\u201c{text}\u201d"


def listed(parts: list[str]) -> str:
    """Clauses as one list: "a, b, and c"; "a, then you may b" when a later clause is optional."""
    parts = [p for p in parts if p]
    if any(_MAY.match(p) for p in parts[1:]):
        return ", then ".join(parts)
    return and_list(parts)
