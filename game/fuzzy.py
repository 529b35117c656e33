"""Names with typos: which of the names a caller passes are near what was typed. Both the rules'
name resolution (game/notation.py `resolve`) and the bot's autocomplete rank through here.

Nothing here decides what the asker may see: callers pass only the names their asker may see (their
own hand, the ships on the table), so a near match can never reach a hidden card or a secret order.
Names are compared case- and accent-folded (`fold`), as exact names are."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence

from rapidfuzz import fuzz, process

# For resolving a typed name into one: an Indel similarity (0-100) of the whole names. "Kestral" is 86
# from "Kestrel"; one wrong letter in a five-letter name is 80; a different name scores far lower.
RESOLVE_CUTOFF = 75.0
# Two names whose scores are this close are both plausible: the typo is refused naming them rather
# than silently picking one ("Hawk" and "Hark" for "Hawrk").
AMBIGUOUS_WITHIN = 8.0
# Suggestions are looser than resolution (the asker picks from them), and are scored against each
# part of a name too ("londn" against the "london" of "Europe/London") and against its start as long
# as what was typed (a typo while still typing: "Invins" against "Invinc…").
SUGGEST_CUTOFF = 70.0
# Fewer letters than this are matched as typed only: a near miss of two or three letters is noise.
SUGGEST_FROM = 4


def fold(name: str) -> str:
    """Case- and accent-insensitive form of a name."""
    decomposed = unicodedata.normalize("NFKD", name)
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch)).casefold().strip()


def nearest(typed: str, names: Sequence[str]) -> list[str]:
    """The names `typed` is a typo of, best first: one when it is clear, several when two or more are
    about as close (the caller refuses naming them), none when nothing is near."""
    key = fold(typed)
    if not key or not names:
        return []
    folded = [fold(n) for n in names]
    scored = process.extract(key, folded, scorer=fuzz.ratio, score_cutoff=RESOLVE_CUTOFF, limit=None)
    if not scored:
        return []
    # ties keep the callers' order (process.extract sorts by score, then by position)
    best = scored[0][1]
    return [names[i] for _, score, i in scored if best - score < AMBIGUOUS_WITHIN]


def ranked(typed: str, names: Sequence[str]) -> list[str]:
    """The names worth suggesting for what has been typed so far: every name containing it, in the
    callers' order, then the near misses, best first. Nothing typed: every name."""
    return [names[i] for i in ranked_at(typed, names)]


def ranked_at(typed: str, names: Sequence[str]) -> list[int]:
    """`ranked`, as positions in `names`: for names that may repeat (two members called Sam)."""
    key = _spaced(typed)
    if not key:
        return list(range(len(names)))
    containing = [i for i, n in enumerate(names) if key in _spaced(n)]
    if len(key) < SUGGEST_FROM:
        return containing
    forms: list[str] = []
    owner: list[int] = []
    for i, name in enumerate(names):
        for form in _forms(_spaced(name), len(key)):
            forms.append(form)
            owner.append(i)
    seen = set(containing)
    near: list[int] = []
    for _, _, at in process.extract(key, forms, scorer=fuzz.ratio, score_cutoff=SUGGEST_CUTOFF, limit=None):
        if owner[at] not in seen:
            seen.add(owner[at])
            near.append(owner[at])
    return containing + near


def _spaced(name: str) -> str:
    """Folded, with the underscores of time zones ("America/New_York") as the spaces people type."""
    return fold(name).replace("_", " ")


def _forms(name: str, length: int) -> set[str]:
    """What a typed text is compared with: the whole name, each part from where it starts ("york",
    "new york", "america/new york"), and the start of each as long as what was typed."""
    starts = [0] + [m.end() for m in re.finditer(r"[/ \-]", name)]
    tails = {name[s:] for s in starts if name[s:]}
    return tails | {t[:length] for t in tails if len(t) > length}
