"""Short, faithful titles for abstracts that come without one.

Rules, in order: the contribution the abstract names ("we introduce FreeDave,
a …" → "FreeDave: A …"), else the object of "we study/propose …", else the
main clause of the first sentence (Chinese and Japanese abstracts: generator/derive/titles_cjk.py).
Every title is made of the abstract's own
words, so it can miss the emphasis but never invents a claim.
"""

from __future__ import annotations

import itertools
import re

from generator.derive.titles_acronyms import long_form as _long_form
from generator.derive.titles_cjk import cjk_title_candidates, is_cjk_abstract
from generator.latex.spaces import collapse

MAX_LENGTH = 100
UNTITLED = "Untitled paper"

# Words a title must not end on: they promise a continuation that was cut.
_DANGLING = frozenset(
    "a an the and or nor but yet so of for with without within to in on at by via from into onto over under as upon "
    "about against during before after like per its their our his her this these those that which whose who whom "
    "while when where whether if because although though since unless than versus vs such both each every either "
    "neither some any no not all is are was were be been being has have had can may will would should could must "
    "do does did it them they we us using based toward towards through throughout across between among".split()
)
# Where a too-long phrase is best cut, in order of preference (before the word).
_BREAK_TIERS = (
    frozenset("using via by through with without while leveraging featuring achieving allowing "
              "enabling based where whereas motivated inspired guided driven to".split()),
    frozenset("for of in on at from into over under across between among toward towards as".split()),
    frozenset("and or".split()),
)
# Punctuation a title must not end on.
_TRAILING = frozenset(" ,.;:-–—/&(")
_SHORT_PHRASE = 5  # words; a shorter description also takes its "that …" clause

# A command the renderer could not render stays in the plain text as written (\\begin{equation},
# \\foo): its name is no word of the abstract.
_COMMAND = re.compile(r"\\(?:begin|end)\s*\{[^{}]*\}|\\[A-Za-z]+")
# One class of the characters removed, their conditions after it (a lookbehind at the first that has none): the
# regex engine skips to those characters in C rather than trying every position, as it does for an alternation.
_MARKUP = re.compile(r"[$*\\{}`#~^_](?:(?<!_)|(?<!\w_)|(?!\w))")
_QUOTES = re.compile(r"[\"“”«»'‘’](?:(?<=[\"“”«»])|(?<!\w['‘’])|(?!\w))")
_MARKUP_STARTS = "$*\\{}`#~^_"  # the characters a match of _MARKUP starts with, of _QUOTES
_QUOTE_STARTS = "\"“”«»'‘’"
# A sentence ends at a mark that ends no abbreviation (looked behind at), before a space and a capital.
_SENTENCE_END = re.compile(r"([.!?])(?<!\be\.g.)(?<!\bi\.e.)(?<!\bal.)(?<!\bvs.)(?<!\bcf.)(?<!\bresp.)(?<!\bFig.)"
                           r"(?<!\bEq.)(?<!\bSec.)\s+(?=[A-Z0-9(])")
# Strong clause boundaries: a descriptive phrase ends here. Each starts where the lookahead says: twice as fast.
_CLAUSE = re.compile(
    r"(?=[\s;:.!?,])\s*(?:[;:.!?](?:\s|$)|\s[—–]\s|\s--\s|,?\s\(?(?:i|ii|iii|iv|[1-4]|[a-d])\)\s"
    r"|\s+and\s+(?:then\s+|\w+ly\s+)?(?:show|demonstrate|prove|propose|use|apply|evaluate|derive"
    r"|provide|present|introduce|develop|obtain|establish|give|analy[sz]e|study)\w*\b"
    r"|,\s+(?:namely|i\.e\.|e\.g\.|such as)|,?\s(?:where|whereas|while|because|since)\b"
    r"|(?P<relative>,?\s(?:that|which)\b))"
)

_NAME_WORD = r"(?:[A-Z0-9][\w\-–+]*|[a-z][\w\-–+]*[A-Z][\w\-–+]*)"
_NAME = rf"{_NAME_WORD}(?:\s+(?:(?:for|of|and|the|in|with|via|on|to)\s+)?{_NAME_WORD}){{0,7}}"
_ACRONYM = r"[A-Za-z0-9][\w\-–+]*[A-Z][\w\-–+]*|[A-Z][\w\-–+]*\d[\w\-–+]*"
_SUBJECT = (r"[WwaPpA](?<!\w[WwaPpA])(?:(?<=[Ww])e|(?<=a)nd|(?<=[Pp])aper|(?<=[Ww])ork|(?<=[Aa])rticle)\s+"
            r"(?:(?:\w+ly|then|further|also|here|now|first|thus|therefore)\s+)?")  # \b behind its first letter
_INTRO = rf"{_SUBJECT}(?:introduce|propose|present|develop|derive|design|build|construct|release)s?\s+"
_ARTICLE = r"(?:(?:the|a|an|our)\s+)?"
_INTRO_ACRONYM = re.compile(rf"{_INTRO}{_ARTICLE}(?P<long>[^(),.;:]{{2,90}}?)\s*\((?P<name>{_ACRONYM})\)")
# A name ends the noun phrase: "(EM) algorithm" or "PAC-Bayes bounds" use a name as an adjective.
_NAME_END = re.compile(r"(?:\s*\([^()]*\))?(?:\s*[,.;:]|\s+(?:as|that|which|for|to|is|and)\b|\s*$)")
_ADJECTIVES = re.compile(r"^(?:(?:novel|new)\s+)+")
_INTRO_NAME = re.compile(rf"{_INTRO}{_ARTICLE}(?P<name>{_NAME})(?={_NAME_END.pattern})")
_CALLED = re.compile(
    r",?\s+(?:called|named|dubbed|termed|coined|we\s+(?:call|term|name|dub)"
    rf"(?:\s+(?:it|this|them|(?:this|our|the|these|such)\s+[\w\-]+))?)\s+(?P<name>{_NAME})"
)
# The words _CALLED needs, found by a scan that skips to their letters (_CALLED tries every space).
_CALLING = re.compile(r"called|named|dubbed|termed|coined|we\s+(?:call|term|name|dub)")
_PASSIVE = re.compile(
    rf"(?P<long>(?:[A-Z][\w\-–]*\s+(?:(?:for|of|and|the|in|with|on|to|via)\s+)*){{1,8}})\((?P<name>{_ACRONYM})\)\s+"
    r"(?:is|are|was|were)\s+(?:\w+ly\s+)?(?:proposed|introduced|presented|developed)\b"
)
_PASSIVE_VERBS = ("proposed", "introduced", "presented", "developed")
# A word each of _INTRO_ACRONYM, _INTRO_NAME, _PASSIVE and _CALLED needs: a cheap test before them.
_NAMING_VERB = re.compile(r"introduce|propose|present|develop|derive|design|build|construct|release"
                          r"|call|name|dub|term|coined")
# Its words, those _INTRO's verbs hold (_INTRO_ACRONYM, _INTRO_NAME, _PASSIVE) and those _CALLING's: substring scans
# find them sooner than it does.
_INTRO_VERBS = tuple(_NAMING_VERB.pattern.split("|")[:9])
_CALLING_WORDS = tuple(_NAMING_VERB.pattern.split("|")[9:])
_APPOSITIVE = re.compile(r"\s*(?:,\s*|\s+as\s+|,\s*which\s+is\s+)(?P<desc>(?:a|an|the)\s.*)")
_PURPOSE = re.compile(r"\s+(?P<desc>for\s.*)")
_NOUN_BEFORE = re.compile(r".*\b((?:a|an|the|this|these|our|its)\s[^,;:()]*)$", re.IGNORECASE)
_DETERMINER = re.compile(r"^(?:this|our|its|these)\b\s*", re.IGNORECASE)
_PARENTHESIS = re.compile(r"^\s*\([^()]*\)")
_LONG_AFTER = re.compile(r"\s*\(([A-Z][\w\-]*(?:\s+[\w\-]+){1,7})\)")
_OBJECT = re.compile(
    rf"{_SUBJECT}(?:study|studie|analy[sz]e|investigate|consider|address|examine|explore|characterize|revisit"
    r"|formalize|propose|introduce|present|develop|describe|design|derive|provide|give|establish)(?:e?s)?"
    r"(?:(?:,|\s+and|\s+or)\s+[a-z]+)*\s+(?P<object>.*)"
)
_WEAK_OBJECT = re.compile(
    r"(?:this|these|that|those|it|them|such|some|to|whether|if|here|both|in|on|at|with|for|from|by"
    r"|of|upon|an?\s+(?:analysis|study)|(?:[\w\-]+\s+){0,2}(?:evidence|results?|experiments?|examples?|simulations?"
    r"|insights?|comparisons?))\b",
    re.IGNORECASE,
)
# A lead-in ends at a comma outside parentheses: "In prior work (Smith, 2014), we …" is one lead-in.
_LEAD_IN = re.compile(
    r"(?=[A-Z])(?:[A-Z][a-z]+ly|[A-Z][a-z]+(?:ing|ed)\s+(?:on|by|upon|from|with)|In|For|On|Over|Across|Under|With|Despite"
    r"|Although|While|Since|As|Given|Because|When|Unlike|To|Due to|Here|However|Moreover|Thus|Today|Nowadays)\b"
    r"(?:[^,()]|\([^()]*\)){0,80},\s+"
)
# A sentence that opens with a citation ("Smith et al. showed …", "[12] proposed …") names others' work.
_CITATION_START = re.compile(
    r"^(?:[A-Z][\w\-']+(?:\s+(?:and|&)\s+[A-Z][\w\-']+)?\s+(?:et\s+al\b|\(\d{4}[a-z]?\))|\[\d)"
)
# A citation in parentheses or brackets, "(Smith et al., 2019; Doe, 2020)", "[12, 14]": no part of a title.
_CITATION = re.compile(r"\s*\((?:[^()]*\b(?:1[89]|20)\d\d[a-z]?\b|[^()]*\bet al\b)[^()]*\)|\s*\[[\d,;\s–-]+\]")
# A label before the abstract: "(Extended abstract)", "[Invited talk]".
_LABEL = re.compile(r"^\s*[(\[][^()\[\]]{1,40}[)\]]\s*")
_CONJUNCTION = re.compile(r"^(?:and|or|but|nor|yet|so)\b,?\s*", re.IGNORECASE)
_DANGLING_PARENTHESIS = re.compile(r"\s*\((\w+)\)$")
# Text up to a closing parenthesis that was never opened: the end of a citation cut in two.
_CLOSED_EARLY = re.compile(r"^[^()]*\)[\s,;:.]*")
_ANAPHORA = re.compile(r"\b(?:this|these|those|such|above|aforementioned)\b", re.IGNORECASE)
_FILLER = re.compile(r"^(?:\(?(?:i{1,3}|iv|[1-4]|[a-d])\)\s+)?(?:the\s+|this\s+paper\s+|this\s+work\s+)?"
                     r"(?:(?:problem|task|question)\s+of\s+)?", re.IGNORECASE)
_ARTICLE_NOVEL = re.compile(r"^(a|the)\s+(?:novel|new)\s+(?=[b-df-hj-np-tv-z])", re.IGNORECASE)
_ACRONYM_USE = re.compile(r"[A-Z](?<!\w[A-Z])[A-Za-z0-9]*[A-Z]s?\b")  # \b behind its first letter, as _SUBJECT


def title_candidates(plain: str) -> list[str]:
    """Titles for the abstract, best first; never empty. Independent of other papers, so that
    they can be worked out in parallel and made unique afterwards with ``pick_title``."""
    text = _clean(plain)
    if not text:
        return [UNTITLED]
    if is_cjk_abstract(text):  # Chinese and Japanese: phrases, not words between spaces
        return cjk_title_candidates(text)
    sentences = _split_sentences(text)
    candidates = [c for c in (_named_title(sentences, text), _phrase_title(sentences, text)) if c]
    return candidates or [UNTITLED]


def _clean(plain: str) -> str:
    """Drop markup the renderer may have left, and quotes that a cut could unbalance.

    Each pattern is applied only to a text holding a character its matches start with (a scan in C): most
    abstracts hold no markup and no quote, and a regex's own scan is ten times slower."""
    if "\\" in plain:
        plain = _COMMAND.sub(" ", plain)
    if any(map(plain.__contains__, _MARKUP_STARTS)):
        plain = _MARKUP.sub("", plain)
    if any(map(plain.__contains__, _QUOTE_STARTS)):
        plain = _QUOTES.sub("", plain)
    return collapse(plain)


def _split_sentences(text: str) -> list[str]:
    parts = _SENTENCE_END.split(text)  # each sentence's text, then the mark that ends it (the group); the last's
    sentences = [*map(str.__add__, parts[:-1:2], parts[1::2]), parts[-1]]
    return [s for s in sentences if s]


def _named_title(sentences: list[str], text: str) -> str | None:
    """ "Name: description" for the first contribution the abstract names."""
    for sentence in sentences:
        found = _named_in(sentence)
        if found:
            name, long_form, after = found
            if long_form:
                return _fit(f"{name}: {_capitalise(long_form)}")
            return _with_description(name, after, sentences, text)
    return None


def _named_in(sentence: str) -> tuple[str, str, str] | None:
    """(name, long form, text after the name) when the sentence introduces a named thing (a pattern is tried only
    on a sentence holding a word it needs: one of _INTRO's verbs, of _CALLING's words)."""
    if any(map(sentence.__contains__, _INTRO_VERBS)):
        found = _introduced_in(sentence)
        if found:
            return found
    calling = any(map(sentence.__contains__, _CALLING_WORDS)) and _CALLING.search(sentence)
    match = _CALLED.search(sentence) if calling else None
    if match and _is_name(match["name"]):
        noun = _NOUN_BEFORE.search(sentence, max(0, match.start() - 100), match.start())
        if noun:
            return match["name"], "", f", {_DETERMINER.sub(_indefinite, noun[1])}"
        return match["name"], "", _PARENTHESIS.sub("", sentence[match.end() :], count=1)
    return None


def _introduced_in(sentence: str) -> tuple[str, str, str] | None:
    """What ``_named_in`` finds where "we introduce …" or "… (ACR) is proposed" names it."""
    bracket = "(" in sentence  # _INTRO_ACRONYM and _PASSIVE need one: "(ACR)"
    match = _INTRO_ACRONYM.search(sentence) if bracket else None
    if match and _NAME_END.match(sentence, match.end()):
        long_form = _long_form(match["name"], match["long"])
        # The whole object must spell the acronym: "a method for Continual Learning (CL)" names nothing new.
        if long_form and _ADJECTIVES.sub("", match["long"]).strip() == long_form:
            return match["name"], long_form, sentence[match.end() :]
    match = _INTRO_NAME.search(sentence)
    if match and (_is_name(match["name"]) or _APPOSITIVE.match(sentence, match.end())):
        after = sentence[match.end() :]
        long_after = _LONG_AFTER.match(after)
        return match["name"], long_after[1] if long_after else "", after
    passive = bracket and any(map(sentence.__contains__, _PASSIVE_VERBS))  # words _PASSIVE needs: a scan in C
    match = _PASSIVE.search(sentence) if passive else None
    if match and (long_form := _long_form(match["name"], match["long"])):
        return match["name"], long_form, ""
    return None


def _indefinite(match: re.Match[str]) -> str:
    """ "this class of …" → "a class of …": the description must stand on its own."""
    return "" if match[0].lower().startswith("these") else "a "


def _is_name(name: str) -> bool:
    """A coined name looks coined: an inner capital, a digit, a hyphen or several capitalised words."""
    words = name.split()
    first = words[0]
    coined = len(words) > 1 or any(c.isupper() or c.isdigit() for c in first[1:]) or "-" in first
    return coined and first[0].isalpha() and first.lower() not in {"we", "our", "this", "these", "in", "the"}


def _with_description(name: str, after: str, sentences: list[str], text: str) -> str:
    """ "Name: A … framework" from the appositive, else "Name for …", else "Name: <phrase>"."""
    after = _PARENTHESIS.sub("", after, count=1)  # "IO-Net (i.e. InlierOutlierNet), a …"
    appositive = _APPOSITIVE.match(after)
    if appositive:
        desc = _drop_novel(_until_clause(appositive["desc"]))
        if len(desc.split()) >= 2:
            return _fit(f"{name}: {_capitalise(desc)}")
    purpose = _PURPOSE.match(after)
    if purpose:
        return _fit(f"{name} {_until_clause(purpose['desc'])}")
    phrase = _phrase_title(sentences, text)
    return _fit(f"{name}: {phrase}") if phrase and name not in phrase else _fit(phrase or name)


def _phrase_title(sentences: list[str], text: str) -> str:
    """The object of "we study/propose …", else the first sentence's main clause."""
    for sentence in sentences:
        match = _OBJECT.search(sentence)
        if match and not _WEAK_OBJECT.match(match["object"]):
            phrase = _FILLER.sub("", _drop_novel(_until_clause(match["object"])))
            if len(phrase.split()) >= 3 and not _ANAPHORA.search(phrase):
                return _fit(_capitalise(_expand_acronyms(phrase, text)))
    opening = next((s for s in sentences if not _CITATION_START.match(s)), sentences[0])
    first = _LEAD_IN.sub("", _CITATION.sub("", _LABEL.sub("", opening)), count=1)
    phrase = _CONJUNCTION.sub("", _FILLER.sub("", _until_clause(first)))
    return _fit(_capitalise(_expand_acronyms(phrase, text))) if phrase else ""


def _until_clause(phrase: str) -> str:
    """The phrase up to its first clause boundary; a short one keeps its "that …" clause."""
    match = _CLAUSE.search(phrase)
    if not match:
        return phrase.strip(" ,")
    head = phrase[: match.start()].strip(" ,")
    if match["relative"] and len(head.split()) < _SHORT_PHRASE:
        rest = _CLAUSE.search(phrase, match.end())
        return phrase[: rest.start() if rest else len(phrase)].strip(" ,")
    return head


def _drop_novel(phrase: str) -> str:
    """ "a novel training-free method" → "a training-free method" (only when the article still fits)."""
    return _ARTICLE_NOVEL.sub(r"\1 ", phrase)


def _expand_acronyms(phrase: str, text: str) -> str:
    """Spell out acronyms the abstract defined, so a phrase title reads on its own."""
    for acronym in dict.fromkeys(_ACRONYM_USE.findall(phrase)):
        defined = text.find(f"({acronym})")
        if defined < 0 or f"({acronym})" in phrase:
            continue
        long_form = _long_form(acronym, " ".join(text[max(0, defined - 80) : defined].split()[-8:]))
        if long_form and long_form not in phrase and len(phrase) + len(long_form) <= MAX_LENGTH:
            at_start = text.startswith(long_form) or f". {long_form}" in text
            if at_start and long_form[1:].islower():
                long_form = long_form[0].lower() + long_form[1:]
            # The long form as written: a backslash in it is doubled, as re.sub reads its replacement.
            phrase = re.sub(rf"\b{re.escape(acronym)}\b", long_form.replace("\\", "\\\\"), phrase, count=1)
    return phrase


def _capitalise(phrase: str) -> str:
    """Capitalise the first letter, unless it starts a coined name ("vq-wav2vec", "k-means")."""
    first = phrase.split(" ", 1)[0]
    if any(c.isupper() or c.isdigit() for c in first[1:]) or first[1:2] == "-":
        return phrase
    return phrase[:1].upper() + phrase[1:]


def _fit(title: str, limit: int = MAX_LENGTH) -> str:
    """Shorten to ``limit`` at the best natural break; never end on a dangling word or punctuation."""
    title = _tidy(title)
    if len(title) <= limit:
        return title
    words = title.split(" ")
    floor = len(title.split(": ")[0]) + 20 if ": " in title else 30  # keep the name and some description
    ends = list(itertools.accumulate(len(w) + 1 for w in words))  # end of word i, plus one
    for tier in _BREAK_TIERS:
        cuts = [i + 1 for i in range(len(words) - 1) if floor < ends[i] <= limit + 1 and words[i + 1].lower() in tier]
        if cuts:
            return _tidy(" ".join(words[: cuts[-1]]))
    return _cut_words(words, limit - 1) + "…"


def _cut_words(words: list[str], limit: int) -> str:
    kept: list[str] = []
    length = -1
    for word in words:
        length += len(word) + 1
        if length > limit:
            break
        kept.append(word)
    return _tidy(" ".join(kept)) or words[0][:limit]


def _tidy(title: str) -> str:
    """Balance parentheses, then drop trailing punctuation and dangling words.

    Works back from the end with an index, so a long run of dangling words ("a a a …")
    costs one pass, not one pass per word.
    """
    if ")" in title:  # (which _CLOSED_EARLY needs: most titles hold none)
        title = _CLOSED_EARLY.sub("", title)
    if title.count("(") > title.count(")"):
        title = title[: title.rfind("(")]
    end = len(title)
    while True:
        while end and title[end - 1] in _TRAILING:
            end -= 1
        # "…the spatial (where)": a function word fits in the last 20 characters, so look no further back.
        word = title[end - 1 : end] == ")" and _DANGLING_PARENTHESIS.search(title, max(0, end - 20), end)
        if word and _dangles(word[1]):
            end = word.start()
            continue
        # A dash joins words as a space does: "…versions–based". A function word is short: look back 20.
        back = max(0, end - 20)
        space = max(title.rfind(" ", back, end), title.rfind("–", back, end), title.rfind("—", back, end))
        if space < 0 or not _dangles(title[space + 1 : end]):
            return title[:end]
        end = space


def _dangles(word: str) -> bool:
    """A word that promises a continuation; an acronym in capitals ("IT", "AS") is a name."""
    return word.lower() in _DANGLING and not (len(word) > 1 and word.isupper())


def pick_title(candidates: list[str], taken: set[str] | frozenset[str]) -> str:
    """The first free candidate, else the first with " (2)", " (3)"… appended."""
    for candidate in candidates:
        if candidate not in taken:
            return candidate
    number = 2
    while True:
        suffix = f" ({number})"
        title = _cut_words(candidates[0].split(" "), MAX_LENGTH - len(suffix)) + suffix
        if title not in taken:
            return title
        number += 1
