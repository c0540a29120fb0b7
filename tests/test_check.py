"""`proceedings check`: validates without writing, exit codes follow errors and --strict. The first test runs
`python -m generator check` in a process of its own; the others the same command line in this process."""

from conftest import cli, process, write_list


def tree(folder):
    return {p: p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def test_clean_content_passes_and_nothing_is_written(seed_content):
    before = tree(seed_content)
    result = process("check", "--content", str(seed_content))
    assert result.returncode == 0, result.stderr
    assert "checked 19 list entries and 19 pages" in result.stderr
    assert tree(seed_content) == before


def test_warnings_pass_unless_strict(tmp_path):
    content = tmp_path / "c"
    content.mkdir()
    write_list(content / "list.txt", "T", ["Same words here about learning.", "Same words here about learning."])
    plain = cli("check", "--content", str(content))
    assert plain.returncode == 0 and "repeats the abstract of entry 1" in plain.stderr and "list.txt:5" in plain.stderr
    assert "1 to create" in plain.stderr  # the repeat is published once
    assert cli("check", "--content", str(content), "--strict").returncode == 1
    assert not (content / "papers").exists()


def test_errors_fail_with_file_and_line(seed_content):
    page = sorted((seed_content / "papers").glob("*.md"))[0]
    page.write_text(page.read_text(encoding="utf-8").replace("tags:", "tags: 7\nx: [", 1), encoding="utf-8")
    result = cli("check", "--content", str(seed_content))
    assert result.returncode == 1
    assert f"papers/{page.name}:" in result.stderr and "Traceback" not in result.stderr


def test_broken_custom_template_is_an_error(seed_content):
    templates = seed_content / "theme" / "templates"
    templates.mkdir(parents=True)
    (templates / "tag.html").write_text("{% extends 'base.html' %}{% block content %}{{ nope( }}{% endblock %}")
    result = cli("check", "--content", str(seed_content))
    assert result.returncode == 2 and "tag.html" in result.stderr and "Traceback" not in result.stderr


def test_undefined_macros_are_listed_with_their_papers_and_the_config_line(tmp_path):
    """Each undefined macro once, with every paper using it and the macros: line that would define it."""
    content = tmp_path / "c"
    content.mkdir()
    write_list(content / "list.txt", "T", [
        r"We bound $\rsvrg + \atk{x}$ for all learners of the class.",
        r"Our regret is $O(\rsvrg \sqrt{T})$ in the adversarial setting.",
        r"A different abstract about $\alpha$ and nothing undefined.",
    ])
    result = cli("check", "--content", str(content))
    assert result.returncode == 0, result.stderr
    lines = [line for line in result.stderr.splitlines() if line.startswith("undefined macro \\")]
    assert lines == [
        "undefined macro \\atk, used by 1 paper (list.txt:3); to define it, add under macros: in "
        "proceedings.yaml:  atk: '…'",
        "undefined macro \\rsvrg, used by 2 papers (list.txt:3, list.txt:5); to define it, add under macros: in "
        "proceedings.yaml:  rsvrg: '…'",
    ]
    (content / "proceedings.yaml").write_text("title: T\nmacros:\n  rsvrg: 'w^\\star'\n  atk: '\\mathcal{F}'\n",
                                              encoding="utf-8")
    assert "undefined macro" not in cli("check", "--content", str(content)).stderr


def test_guessed_macros_are_listed_once_with_the_line_that_pins_them(tmp_path):
    """An author's conventional macro renders by its guess, and check says how to pin or correct it."""
    content = tmp_path / "c"
    content.mkdir()
    write_list(content / "list.txt", "T", [
        r"We bound $\wstar + \cuF$ for all learners of the class, with \fhat in text.",
        r"Our regret is $O(\wstar \sqrt{T})$ in the adversarial setting.",
    ])
    result = cli("check", "--content", str(content))
    assert result.returncode == 0, result.stderr
    assert "undefined macro" not in result.stderr
    lines = [line for line in result.stderr.splitlines() if line.startswith("guessed \\")]
    assert lines == [
        "guessed \\cuF as \\mathcal{F}, used by 1 paper (list.txt:3); to pin or correct it, add under macros: "
        "in proceedings.yaml:  cuF: '\\mathcal{F}'",
        "guessed \\fhat as \\hat{f}, used by 1 paper (list.txt:3); to pin or correct it, add under macros: "
        "in proceedings.yaml:  fhat: '\\hat{f}'",
        "guessed \\wstar as {w}^{\\star}, used by 2 papers (list.txt:3, list.txt:5); to pin or correct it, add "
        "under macros: in proceedings.yaml:  wstar: '{w}^{\\star}'",
    ]
    (content / "proceedings.yaml").write_text("title: T\nmacros:\n  wstar: 'w_*'\n", encoding="utf-8")
    pinned = cli("check", "--content", str(content)).stderr
    assert "guessed \\wstar" not in pinned and "guessed \\fhat" in pinned
