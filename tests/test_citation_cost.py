"""The cold build's citation work (issue 43, session 19): each shortcut taken for a common case writes exactly
what the general path writes, for any text a venue's file may hold."""

from __future__ import annotations

from hypothesis import example, given, settings
from hypothesis import strategies as st

from generator.model.volume import Volume
from generator.publish import jsonld
from generator.publish.bibtex import BibTeX

# Titles as venues write them, at worst: every character the parser's rules start at, quotes straight and
# curly, apostrophes, math, commands, capitals in words (braced), CJK, white space of every kind.
TITLE = st.text(st.sampled_from(list("aZ Q2:-–—.,;?!()'\"‘’“”`$\\{}[]<>&#%^_~*+=@|/\n\t\r\x00\u00a0é山")),
                max_size=24)


class _Parsed(BibTeX):
    """The writer without its shortcut: every title parsed."""

    def _plain(self, source: str) -> bool:
        return False


WRITER, PARSED = BibTeX(Volume("V")), _Parsed(Volume("V"))


@settings(max_examples=400, deadline=None)
@given(TITLE)
@example("Self-Supervised Learning: A Survey")
@example("LoRA-style Adapters -- and More")
@example("A `quoted' Title ``with'' Marks")
@example("Newton's Method in 3-D: x^2 and $x^2$")
def test_a_plain_title_is_written_as_the_parser_writes_it(title: str) -> None:
    assert WRITER.title(title) == PARSED.title(title)


def test_most_real_titles_take_the_shortcut() -> None:
    # A colon and a lone hyphen are text to the parser: a title holding them is still plain.
    assert WRITER._plain("Self-Supervised Learning: A Survey of 2RDM Methods")
    for title in ("Bounds -- Tight", "The $k$-Means Problem", "A \\textit{Note}", "“Quoted” Words", "a_b"):
        assert not WRITER._plain(title)



@settings(max_examples=300, deadline=None)
@given(st.text(st.sampled_from(list('a<>&"\'\\/\u2028\u2029é山{}:,')), max_size=30))
def test_a_script_is_made_safe_as_translate_made_it(text: str) -> None:
    assert jsonld._script_safe(text) == text.translate(str.maketrans(jsonld._UNSAFE))
    assert "<" not in jsonld._script_safe(text) and "&" not in jsonld._script_safe(text)
