"""Awards as venues write them: a column of its own, a yes/no flag, or a word in a notes column.

ISMIR's Mini-Conf export has a flag column, ``AwardNominee`` (``Yes``/``No``, elsewhere ``True``,
``1``); SIGDIAL's has ``notes`` holding "Best Paper Nominee" beside notes that are no award
("REMOTE": the talk is given remotely); others have ``award`` ("Best paper"). Each becomes the paper's
``award`` (model.Details), one rule for every format:

- ``award``/``awards``: the text as written; a flag word (``Yes``, ``1``) is an award the column does not
  name, "Award"; ``No``, ``0``, ``False`` are none.
- a flag column (``AwardNominee``, ``best_paper``…): a true value is the column's own name in words
  ("Award nominee", "Best paper"), a false one none, any other text kept when it reads as an award.
- ``notes``/``note``: only a note that reads as an award or a nomination — it names an award, a prize,
  a nomination, a best or outstanding paper, an honourable mention — is kept; every other note is not
  published (it was meant for the programme's organisers).
"""

from __future__ import annotations

import re
from typing import Any

from generator.model.link_patterns import column_words

# Columns of awards' own (the text is the award) and columns of notes (kept only when they read as one).
AWARD_COLUMNS = ("award", "awards", "paper_award")
NOTE_COLUMNS = ("notes", "note", "remarks")
# Every other column model.Details reads an award from is a flag (`AwardNominee`, `best_paper`: yes/no), whose
# name says what the paper has.
_TRUE = frozenset({"yes", "y", "true", "t", "1", "x", "✓", "✔"})
_FALSE = frozenset({"no", "n", "false", "f", "0", "", "-", "n/a", "na", "none", "null"})
# What an award or a nomination is called ("Best Paper Nominee", "Outstanding paper award", "Honorable Mention").
_AWARD_WORDS = re.compile(r"\b(?:awards?|prizes?|best|outstanding|distinguished|nominees?|nominated|nominations?|"
                          r"honou?rable\s+mentions?|winners?|finalists?)\b", re.IGNORECASE)


def reads_as_award(text: str) -> bool:
    """Whether a note names an award or a nomination ("Best Paper Nominee"), not an organiser's remark."""
    return bool(_AWARD_WORDS.search(text))


def award_value(column: str, value: Any) -> str:
    """The award a cell of ``column`` (as the source spells it) gives; "" for none."""
    if isinstance(value, bool):
        value = "yes" if value else "no"
    text = " ".join(str(value if value is not None else "").split())
    key = re.sub(r"[\s-]+", "_", column.strip().lower())
    flag = text.casefold()
    if key in NOTE_COLUMNS:
        return text if reads_as_award(text) else ""
    if flag in _FALSE:
        return ""
    if key in AWARD_COLUMNS:
        return "Award" if flag in _TRUE else text
    if flag in _TRUE:
        return column_words(column)
    return text if reads_as_award(text) else ""
