import datetime as dt

import pytest

from dataclasses import field, fields, make_dataclass

from generator.model.config import SHAPES, Config, config_digest, load_config, shapes, undeclared_fields
from generator.errors import ConfigError
from generator.latex import MacroDef


def load(tmp_path, text):
    (tmp_path / "proceedings.yaml").write_text(text, encoding="utf-8")
    warnings = []
    return load_config(tmp_path, warnings.append), warnings


def test_missing_config_means_defaults(tmp_path):
    assert load_config(tmp_path, lambda d: None) == Config()


def test_all_keys_are_parsed(tmp_path):
    config, warnings = load(tmp_path, (
        "title: My Workshop\ndate: 2026-12-06\nbase_url: https://org.github.io/ws\n"
        "language: zh-CN\npapers_per_page: 20\n"
        "macros:\n  dVC: 'd_{\\mathrm{VC}}'\n  '\\norm': {body: '\\lVert #1 \\rVert', args: 1}\n"
    ))
    assert warnings == []
    assert config.title == "My Workshop"
    assert config.date == dt.date(2026, 12, 6)
    assert config.base_url == "https://org.github.io/ws/"
    assert config.base_path == "/ws/"
    assert config.language == "zh-CN"
    assert config.papers_per_page == 20
    assert config.macros == {"dVC": MacroDef(r"d_{\mathrm{VC}}"), "norm": MacroDef(r"\lVert #1 \rVert", 1)}


def test_unknown_key_warns_with_line(tmp_path):
    _, warnings = load(tmp_path, "title: T\ntitel: typo\n")
    assert len(warnings) == 1
    assert warnings[0].line == 2 and "titel" in warnings[0].message


def test_every_invalid_value_is_reported_at_once(tmp_path):
    with pytest.raises(ConfigError) as info:
        load(tmp_path, "date: tomorrow\nbase_url: javascript:alert(1)\npapers_per_page: 0\n")
    message = str(info.value)
    assert "proceedings.yaml:1: date" in message
    assert "proceedings.yaml:2: base_url" in message
    assert "proceedings.yaml:3: papers_per_page" in message


def test_broken_yaml_names_the_line(tmp_path):
    with pytest.raises(ConfigError) as info:
        load(tmp_path, "title: ok\nmacros: [unclosed\n")
    assert info.value.line in (2, 3)
    assert "invalid YAML" in str(info.value)


def test_config_must_be_a_mapping(tmp_path):
    with pytest.raises(ConfigError, match="mapping"):
        load(tmp_path, "- a\n- b\n")


def test_text_from_the_config_is_cleaned_as_a_pages_text_is(tmp_path):
    """A vertical tab or a NUL in proceedings.yaml would reach <title> on every page (invalid XML and HTML)."""
    config, _ = load(tmp_path, 'title: "Proceedings of\\v ML\\x00\\u200b 2026"\n'
                               'description: "One line.\\nAnother\\x0c line."\neditors: ["Ada\\x07 Lovelace"]\n')
    assert config.title == "Proceedings of ML 2026"
    assert config.description == "One line.\nAnother line."
    assert not any(char in str(config) for char in "\x00\x07\x0b\x0c\u200b")


def test_every_config_field_says_which_outputs_it_shapes():
    """A new field must declare what it shapes (``metadata=shapes(…)``): the cache's digests are made of
    the fields that shape each output, so a field that says nothing would leave them guessing."""
    assert undeclared_fields() == [], "declare what these fields shape: metadata=shapes(...) (model/config.py)"
    for f in fields(Config):
        assert set(f.metadata["shapes"]) <= SHAPES.keys(), f.name
        if "abstracts" in f.metadata["shapes"]:  # every page shows abstracts
            assert "pages" in f.metadata["shapes"], f.name


def test_a_field_that_says_nothing_is_found_and_counted_in_every_digest():
    extended = make_dataclass("Extended", [("quokka", str, field(default=""))], bases=(Config,), frozen=True)
    assert undeclared_fields(extended) == ["quokka"]
    for shape in SHAPES:  # a miss rather than a stale hit, until it says
        assert config_digest(extended(quokka="a"), shape) != config_digest(extended(quokka="b"), shape)
    with pytest.raises(ValueError):
        shapes()
    with pytest.raises(ValueError):
        shapes("pagez")


def _another(value, name: str):
    """A value of the same kind as ``value`` that differs from it."""
    if isinstance(value, bool):
        return not value
    if isinstance(value, int):
        return value + 1
    if isinstance(value, tuple):
        return (*value, "Another")
    if isinstance(value, dict):
        return {**value, "another": MacroDef("x")}
    if value is None and name.endswith("date"):
        return dt.date(2024, 7, 1)
    return f"{value or ''}another"


def test_each_digest_moves_with_exactly_the_fields_that_shape_it():
    base = Config()
    for f in fields(Config):
        changed = Config(**{f.name: _another(getattr(base, f.name), f.name)})
        moved = {shape for shape in SHAPES if config_digest(changed, shape) != config_digest(base, shape)}
        assert moved == set(f.metadata["shapes"]), f.name
    with pytest.raises(ValueError):
        config_digest(base, "pagez")
