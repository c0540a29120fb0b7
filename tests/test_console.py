"""What the commands print: control characters from the content reach the terminal escaped."""

from __future__ import annotations

import io


from generator.reporter import ConsoleReporter

from record_fixtures import jsonl_content, records, run_cli


# -- 10. terminal escapes ---------------------------------------------------------------------------

def test_control_characters_are_escaped_in_everything_the_console_prints():
    stream = io.StringIO()
    reporter = ConsoleReporter(stream)
    reporter.warn("undefined macro in “\x1b[2KFake\x1b]8;;http://evil\x07title\u202e”", "papers/a.md", 3,
                  code="latex-unknown-macro")
    reporter.info("done\r\x9b31m")
    printed = stream.getvalue()
    assert "\x1b" not in printed and "\x07" not in printed and "\r" not in printed and "\x9b" not in printed
    assert "\\x1b[2KFake\\x1b]8;;http://evil\\x07title\\u202e" in printed and printed.count("\n") == 2


def test_a_title_with_escapes_reaches_the_terminal_escaped(tmp_path):
    content = jsonl_content(tmp_path, records(title="\x1b[2K\x1b]0;pwned\x07Title with \\undefinedmacro"))
    status, err = run_cli("build", "--content", str(content), "--out", str(tmp_path / "site"))
    assert status == 0 and "undefinedmacro" in err
    # Control characters are dropped as the source is read (generator/text/cleantext.py): none is left to show.
    assert "\x1b" not in err and "\x07" not in err and "[2K]0;pwnedTitle" in err
