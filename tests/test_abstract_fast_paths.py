"""Issue #43: the abstracts' rendering and the titles' rules made cheaper render and derive what the plain versions
did, byte for byte: each faster form is checked here against the form it replaced."""

from __future__ import annotations

import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from generator.latex import AbstractRenderer
from generator.latex import textgroups
from test_latex_properties import FRAGMENTS

# The text rule's stops before a lone hyphen was let through (a hyphen starts a rule only as ``--``).
OLD_TERMINATOR = re.compile(r"[\n$&*\-<\[\\\]^_`{}~]")
HYPHENS = ["-", "--", "---", "----", "a-b", "-$x$-", "x-", "-}", "{-", "\\-", "-\\emph{a}-", "<!--", "-->", "*-*"]
abstracts = st.lists(st.one_of(st.sampled_from(FRAGMENTS + HYPHENS), st.text(max_size=4)), max_size=40).map("".join)
SETTINGS = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def rendered(text: str) -> tuple:
    renderer = AbstractRenderer()
    block, inline = renderer.render(text, remember=False), renderer.render_inline(text)
    return block, inline


@SETTINGS
@given(text=abstracts)
def test_hyphens_render_as_when_each_stopped_the_text(text):
    new = rendered(text)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(textgroups, "_TERMINATOR", OLD_TERMINATOR)
        old = rendered(text)
    assert new == old
