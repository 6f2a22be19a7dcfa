"""What the renamed variants of games share (``--obfuscate``; :mod:`stratbench.core.obfuscation`).

A game that supports obfuscation renames only what the model reads and
writes. :class:`Labels` holds one game's renaming of its action ids and maps
an answer back; :class:`WordSwap` renames whole words in free text (a card
game's card and action names) and back; :func:`mark_symbols` picks a board's
one-character marks.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from stratbench.core.obfuscation import Obfuscation
from stratbench.core.types import IllegalActionError

MARK_ALPHABETS = {"random": "ABDEFHJKLMNPQRSTUVZ", "mystery": "#@*+%&$"}
"""One-character marks for a board under ``random`` (letters) and ``mystery`` (symbols); ``deceptive`` swaps."""


def check_protocol(game: str, protocol: str, obfuscation: Obfuscation | None) -> None:
    """Refuses a renaming under a paper protocol, whose prompts are the released code's, verbatim.

    Raises:
        ValueError: naming the game and the protocol.
    """
    if obfuscation is not None and protocol != "default":
        raise ValueError(f"{game}: --obfuscate renames the default protocol only, not the {protocol!r} protocol "
                         "(its prompts are the released code's, verbatim)")


def mark_symbols(obfuscation: Obfuscation, scope: str, marks: Sequence[str]) -> dict[str, str]:
    """Renames a board's marks (``X``, ``O``) to one character each, seeded by ``scope``."""
    return obfuscation.rename(marks, scope, alphabet=MARK_ALPHABETS.get(obfuscation.mode))


class Labels:
    """One game's renaming of its action ids: ``shown`` for the model, ``original`` to read an answer back."""

    def __init__(self, renamed: Mapping[str, str]) -> None:
        self.renamed = dict(renamed)
        self._back = {label.lower(): action for action, label in self.renamed.items()}

    def shown(self, action: str) -> str:
        """The label the model sees for an action id."""
        return self.renamed[action]

    def original(self, answer: str) -> str | None:
        """The action id an answer names (a label, any case), or None."""
        return self._back.get(answer.strip().lower())

    def read(self, answer: str, legal: Sequence[str]) -> str:
        """The legal action id an answer names.

        Raises:
            IllegalActionError: naming the answer and the legal actions by their labels (the runner's own
                message would list the engine's ids).
        """
        found = self.original(answer)
        if found is None or found not in legal:
            raise IllegalActionError(not_legal(answer, [self.shown(action) for action in legal]))
        return found


class WordSwap:
    """Renames whole words of free text (any case, the first letter's case kept), all at once, and back.

    Args:
        renamed: Each original word and its new name; the originals are matched case-insensitively.
    """

    def __init__(self, renamed: Mapping[str, str]) -> None:
        self.renamed = {old.lower(): new for old, new in renamed.items()}
        self._back = {new.lower(): old for old, new in renamed.items()}
        self._forward_pattern = _words(self.renamed)
        self._back_pattern = _words(self._back)

    def forward(self, text: str) -> str:
        """Writes ``text`` with the new names."""
        return self._forward_pattern.sub(lambda m: _cased(self.renamed[m[0].lower()], m[0]), text)

    def back(self, text: str) -> str:
        """Writes an answer in the new names with the original ones."""
        return self._back_pattern.sub(lambda m: _cased(self._back[m[0].lower()], m[0]), text)


def not_legal(answer: str, labels: Sequence[str]) -> str:
    """The refusal of an answer that names no legal action, worded as the runner's, with the shown labels."""
    return f"{answer.strip()!r} is not a legal action. Legal actions: {', '.join(labels)}"


def _words(names: Mapping[str, str]) -> re.Pattern[str]:
    alternatives = "|".join(re.escape(name) for name in sorted(names, key=len, reverse=True))
    return re.compile(rf"(?<![\w-])(?:{alternatives})(?![\w-])", re.IGNORECASE)


def _cased(word: str, like: str) -> str:
    """``word`` with its first letter's case as in ``like``."""
    return word[:1].upper() + word[1:] if like[:1].isupper() else word[:1].lower() + word[1:]
