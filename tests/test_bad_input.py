"""Hostile and broken input: every case gives a correct page, or a message naming the file, the line
(or entry) and the problem, and never a traceback; nothing from the content can run in a page.

The cases run through the command line, as an organiser runs it: the hostile build (whose warnings
print every kind of character) and a javascript: base URL (exit 2) as ``python -m generator`` in a
subprocess, the other cases through the same ``main()`` in this process (``check`` as a process is
tests/test_check.py's). Exit 0 with warnings, 1 with errors
(every other page still built), 2 when the build cannot run.
The hostile content folder is tests/fixtures/hostile/ (see its README); the browser half of these
checks is tests/browser/test_hostile_browser.py.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import re
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET
from dataclasses import dataclass
from html.parser import HTMLParser
from pathlib import Path

import pytest
import yaml

from conftest import REPO, write_list
from generator.commands.cli import main

HOSTILE = Path(__file__).parent / "fixtures" / "hostile" / "content"
MATHML_TAGS = frozenset("""math mrow mi mn mo mtext mspace ms msub msup msubsup munder mover
    munderover mfrac msqrt mroot mstyle mpadded mphantom menclose mtable mtr mtd mlabeledtr merror
    mmultiscripts mprescripts none semantics annotation""".split())
# Elements no page of the default theme has, and no content may bring.
FOREIGN_TAGS = frozenset("iframe frame frameset object embed applet base img video audio source style".split())
# The charts and the map are SVG the build draws: inside an <svg>, drawing elements and links only (no <script>,
# <foreignObject>, <image>, <use>, <animate>…, which could run or fetch something).
SVG_TAGS = frozenset("svg g title desc rect circle line path polyline polygon text tspan a".split())
URL_ATTRIBUTES = frozenset("href src action formaction srcset poster xlink:href data background".split())
BAD_SCHEME = re.compile(r"^[\x00-\x20]*(?:javascript|vbscript|data|file):", re.IGNORECASE)
CSP_META = '<meta http-equiv="Content-Security-Policy"'


def run(*args: str) -> subprocess.CompletedProcess:
    """``python -m generator ARGS``, as an organiser runs it."""
    result = subprocess.run([sys.executable, "-m", "generator", *args], env={**os.environ, "PYTHONPATH": str(REPO)},
                            capture_output=True, text=True, timeout=300)
    assert "Traceback" not in result.stderr, result.stderr
    return result


def cli(*args: str) -> subprocess.CompletedProcess:
    """The same command line in this process: the cases that only vary the input skip the interpreter's
    start-up (an exception would fail the test just as a traceback does)."""
    stderr = io.StringIO()
    with contextlib.redirect_stderr(stderr):
        status = main(list(args))
    return subprocess.CompletedProcess(args, status, "", stderr.getvalue())


def build(content: Path, out: Path, *extra: str, via=cli) -> subprocess.CompletedProcess:
    return via("build", "--content", str(content), "--out", str(out), *extra)


def check(content: Path, *extra: str, via=cli) -> subprocess.CompletedProcess:
    return via("check", "--content", str(content), *extra)


# -- the hostile content folder --------------------------------------------------------------------

def huge_abstract(size: int = 200_000) -> str:
    """A 200 KB abstract that reads like one: sentences with math, emphasis and a citation."""
    sentence = (r"We bound the regret of the \emph{learner} by $O(\sqrt{T \log K})$ over $T$ rounds "
                r"and $K$ arms \cite{auer2002}, improving on earlier work by a factor of $\log T$. ")
    return (sentence * (size // len(sentence) + 1))[:size].rsplit(" ", 1)[0] + "."


# Entries of bytes.txt, which hostile_content() writes with a BOM, CRLF line endings and a lone CR.
BYTE_ENTRIES = [
    "Control characters: a bell \x07, an escape \x1b[31m, a NUL \x00 and a right-to-left "
    "override \u202egnirts\u202c in an abstract.",
    "An entry with CRLF line endings\r\nthat goes on over a second line.",
    "An entry with a lone CR\rthat goes on over a second line.",
    huge_abstract(),
]


def hostile_content(target: Path) -> Path:
    """The hostile fixture folder, plus bytes.txt: the cases a text file in the repository holds badly."""
    shutil.copytree(HOSTILE, target)
    text = "\ufeffBytes that editors mangle\r\n\r\n" + "\r\n\r\n".join(BYTE_ENTRIES) + "\r\n"
    (target / "bytes.txt").write_bytes(text.encode("utf-8"))
    return target


@dataclass
class Built:
    content: Path
    out: Path
    result: subprocess.CompletedProcess

    def page_of(self, source: str, entry: int) -> str:
        """The slug of the page made from entry ``entry`` of the list ``source``."""
        for path in (self.content / "papers").glob("*.md"):
            meta = yaml.safe_load(path.read_text(encoding="utf-8").split("---\n")[1])
            if meta.get("source") == source and meta.get("entry") == entry:
                return meta["slug"]
        raise AssertionError(f"no page for entry {entry} of {source}")

    def html(self, source: str, entry: int) -> str:
        return (self.out / "papers" / f"{self.page_of(source, entry)}.html").read_text(encoding="utf-8")

    def abstract(self, source: str, entry: int) -> str:
        page = self.html(source, entry)
        return page[page.index('<section class="abstract"'):page.index("</section>")]

    def warnings_for(self, source: str, entry: int) -> list[str]:
        name = f"papers/{self.page_of(source, entry)}.md: warning: "
        return [line.split(name, 1)[1] for line in self.result.stderr.splitlines() if name in line]


@pytest.fixture(scope="module")
def hostile(tmp_path_factory) -> Built:
    root = tmp_path_factory.mktemp("hostile")
    content = hostile_content(root / "content")
    result = build(content, root / "site", "-v", via=run)  # every warning printed: the tests read them
    return Built(content, root / "site", result)


def test_hostile_content_builds_with_warnings_and_no_errors(hostile):
    assert hostile.result.returncode == 0, hostile.result.stderr
    # 26 entries, one of them (entry 20) a repeat of entry 12: published once
    assert re.search(r"built 24 papers, \d+ files into .* \(0 errors, \d+ warnings\)", hostile.result.stderr)
    stderr = hostile.result.stderr
    assert "proceedings.yaml:14: warning: unknown config key 'organiser'" in stderr
    assert "papers/hand-edited-hostile.md:9: warning: unknown front matter key 'reviewer'" in stderr
    assert re.search(r"hostile\.txt:\d+: warning: no tag of taxonomy\.yaml matches “Unbalanced dollar”", stderr)


# entry of hostile.txt → (what it is, what its page's abstract shows, what the build warns)
ENTRIES = {
    1: ("unbalanced $", ["$x + y is bounded"], []),
    2: ("an opening $ at the very end", ["ends the abstract $</p>"], []),
    3: ("unclosed braces", ['<span class="tex-error" title="missing argument for \\emph">'],
        ["missing argument for \\emph"]),
    4: ("\\begin{equation} without \\end", ["E = mc<sup>2</sup> and the environment"],
        ["\\begin{equation} without a matching \\end{equation}"]),
    5: ("\\\\", ["line<br>"], []),
    6: ("nested and self-referencing macros",
        ["<msub><mi>x</mi><mrow><mi>a</mi></mrow></msub><mo>+</mo>", "$\\selfref$</span>"],
        ["macro \\selfref expands without end", "macro \\twice expands without end",
         "macro \\ping expands without end"]),
    7: ("unknown macros", ['<span class="tex-unknown" title="undefined macro \\frobnicate">x</span>',
                           # in math, the name in place and the formula renders
                           '<math xmlns="http://www.w3.org/1998/Math/MathML" display="inline"><mrow><mrow><mi '
                           'mathvariant="normal" class="tex-unknown" title="undefined macro \\frobnicate">'
                           'frobnicate</mi>'],
        ["undefined macro \\frobnicate"]),
    8: ("\\left( without \\right", ["$\\left( x + y$</span>"], ["\\left without a matching \\right"]),
    9: ("5,000 nested braces in text", ["deep text"], []),
    10: ("5,000 nested braces in math", ["after the math"], ["formula too long (10,001 characters); shown as written"]),
    11: ("$$ display math, \\(…\\) and an escaped \\$",
         ['display="block"><mrow><munder><mo>∑</mo>', "<mi>a</mi><mo>+</mo><mi>b</mi>", "escaped $5 price"], []),
    12: ("currency", ["It costs $5 and $10 to run the model."], []),
    13: ("raw <script>, <img onerror> and <iframe>",
         ["Raw &lt;script&gt;alert(&quot;abstract&quot;)&lt;/script&gt;", "&lt;img src=x onerror=",
          "&lt;iframe src="], []),
    14: ("javascript: and data: links in Markdown", ["[js](javascript:alert(", "[png](data:image/png"], []),
    15: ("javascript: and data: links in \\url and \\href",
         ["LaTeX links javascript:alert(", "data:image/png;base64,iVBORw0KGgo=, click me",
          '<a href="https://example.org/">a good link</a>'], []),
    16: ("\\href and <script> in math, a macro hiding a link",
         ["<mtext>&lt;script&gt;alert(\"math\")&lt;/script&gt;</mtext>"], []),
    17: ("an HTML comment and a < that starts nothing",
         ["&lt;!-- a hidden note --&gt; and a lone &lt; that starts nothing, as in a&lt;b."], []),
    18: ("emoji, characters beyond U+FFFF, right-to-left text",
         ["Emoji 😀, letters beyond U+FFFF 𝔘𝔫𝔦𝔠𝔬𝔡𝔢 🧪", "עברית and العربية"], []),
    19: ("Markdown quotes nested 30 deep", ["a quote nested thirty deep"],
         ["lists or quotes nested too deeply; shown as written"]),
}


@pytest.mark.parametrize("entry", sorted(ENTRIES), ids=lambda n: f"{n}-{ENTRIES[n][0]}")
def test_each_hostile_entry_gives_its_page_and_its_warnings(hostile, entry):
    _, shown, warned = ENTRIES[entry]
    abstract = hostile.abstract("hostile.txt", entry)
    for text in shown:
        assert text in abstract, f"{text!r} not in {abstract[:2000]!r}"
    warnings = hostile.warnings_for("hostile.txt", entry)
    for message in warned:
        assert any(message in warning for warning in warnings), (message, warnings)
    if not warned:
        assert warnings == []


def test_math_keeps_only_mathml_and_no_link(hostile):
    abstract = hostile.abstract("hostile.txt", 16)
    assert abstract.count("<math ") == 4 and "href" not in abstract and "style" not in abstract


def test_a_repeated_abstract_is_published_once_and_named(hostile):
    assert hostile.page_of("hostile.txt", 12) == "it-costs-5-and-10-to-run-the-model"
    with pytest.raises(AssertionError):
        hostile.page_of("hostile.txt", 20)  # entry 20 repeats entry 12: no second page
    assert ("hostile.txt:41: warning: entry 20 repeats the abstract of entry 12 (line 25); published once"
            in hostile.result.stderr)


def test_bytes_editors_mangle(hostile):
    """A BOM, CRLF and a lone CR are line ends; control characters are dropped (a NUL too), and a
    direction override closed in the same abstract is kept."""
    papers = {p["slug"]: p for p in json.loads((hostile.out / "papers.json").read_text(encoding="utf-8"))}
    control = papers[hostile.page_of("bytes.txt", 1)]
    assert "a bell , an escape [31m, a NUL and" in control["abstract"]
    assert "\u202egnirts\u202c" in control["abstract"]
    for entry in (2, 3):
        page = (hostile.content / "papers" / f"{hostile.page_of('bytes.txt', entry)}.md").read_bytes()
        assert b"\r" not in page and b"\n\nAn entry with" in page and b"\nthat goes on over a second line.\n" in page
    huge = hostile.abstract("bytes.txt", 4)
    assert huge.count("<math ") > 4000 and huge.count("<em>learner</em>") > 1000 and "tex-error" not in huge


def test_check_warns_about_what_the_build_shows_as_written(hostile):
    result = check(hostile.content)
    assert result.returncode == 0, result.stderr
    stderr = result.stderr
    assert "hostile.txt:41: warning: entry 20 repeats the abstract of entry 12 (line 25)" in stderr
    assert ("hostile.txt:27: warning: entry 13 has HTML (<script>) outside the tags an abstract may use; "
            "it is shown as text") in stderr
    assert "hostile.txt:29: warning: entry 14 has a javascript:, vbscript: or data: link" in stderr
    assert "bytes.txt:3: warning: entry 1 contains direction-override characters" in stderr
    assert f"bytes.txt:11: warning: entry 4 is {len(BYTE_ENTRIES[3]):,} characters long; is it one abstract?" in stderr
    assert "(0 errors," in stderr
    assert check(hostile.content, "--strict").returncode == 1


def test_check_tells_a_link_from_prose(tmp_path):
    """Real abstracts say "streaming data: given a stream" (NeurIPS 2016); only a link is warned about."""
    content = tmp_path / "content"
    content.mkdir()
    write_list(content / "list.txt", "T", ["We study streaming data: given a stream of points, we cluster them.",
                                          "JavaScript: the language of the web, and data: a word.",
                                          "See data:text/html,<b>x</b> for the result.",
                                          "Run javascript:alert(1) to see it."])
    warned = [line for line in check(content).stderr.splitlines() if "javascript:, vbscript: or data: link" in line]
    assert [line.split(":")[1] for line in warned] == ["7", "9"]


# -- nothing from the content can run -----------------------------------------------------------------

class ActiveContent(HTMLParser):
    """Records anything in a page that could run or load: inline scripts, event handlers, style
    attributes, javascript:/data: URLs, foreign elements, and markup inside MathML that is not MathML."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.problems: list[str] = []
        self.in_math = 0
        self.in_svg = 0
        self.in_script = False
        self.in_data = False  # a JSON-LD block: data a browser never runs, which must hold JSON and no "<"

    def handle_starttag(self, tag, attrs):
        attributes = dict(attrs)
        self.in_data = tag == "script" and attributes.get("type") == "application/ld+json"
        if tag == "script" and not self.in_data:
            self.in_script = "src" not in attributes
            if self.in_script:
                self.problems.append("inline <script>")
        if tag in FOREIGN_TAGS:
            self.problems.append(f"<{tag}>")
        if self.in_math and tag not in MATHML_TAGS:
            self.problems.append(f"<{tag}> inside <math>")
        if self.in_svg and tag not in SVG_TAGS:
            self.problems.append(f"<{tag}> inside <svg>")
        self.in_math += tag == "math"
        self.in_svg += tag == "svg"
        for name, value in attrs:
            if name.startswith("on"):
                self.problems.append(f"<{tag} {name}=…>")
            if name == "style":
                self.problems.append(f"<{tag} style=…>")
            if name in URL_ATTRIBUTES and value and BAD_SCHEME.match(value):
                self.problems.append(f"<{tag} {name}={value!r}>")

    def handle_endtag(self, tag):
        self.in_math -= tag == "math" and self.in_math > 0
        self.in_svg -= tag == "svg" and self.in_svg > 0
        if tag == "script":
            self.in_script = self.in_data = False

    def handle_data(self, data):
        if self.in_data and ("<" in data or not isinstance(json.loads(data), dict)):
            self.problems.append(f"JSON-LD holding {data.strip()[:40]!r}")
        if self.in_script and data.strip():
            self.problems.append(f"script text {data.strip()[:40]!r}")


def active_content(site: Path) -> dict[str, list[str]]:
    """Every page of the site with what it carries that could run; pages without a CSP meta too."""
    found = {}
    for path in sorted(site.rglob("*.html")):
        text = path.read_text(encoding="utf-8")
        parser = ActiveContent()
        parser.feed(text)
        parser.close()
        problems = parser.problems + ([] if CSP_META in text.split("</head>")[0] else ["no CSP meta"])
        if problems:
            found[path.relative_to(site).as_posix()] = problems
    return found


def test_no_page_carries_anything_that_can_run(hostile):
    pages = sorted(hostile.out.rglob("*.html"))
    assert len(pages) > 30
    assert active_content(hostile.out) == {}


def test_the_checker_sees_what_it_looks_for(tmp_path):
    """The scan above is not vacuous: it finds each thing it looks for."""
    page = tmp_path / "x.html"
    page.write_text('<head></head><script>alert(1)</script><a href=" JaVaScRiPt:x">a</a><p onclick="x" style="y">'
                    '<math><mi>x</mi><img src="data:x"></math><iframe src=x></iframe>', encoding="utf-8")
    assert sorted(active_content(tmp_path)["x.html"]) == sorted([
        "inline <script>", "script text 'alert(1)'", "<a href=' JaVaScRiPt:x'>", "<p onclick=…>",
        "<p style=…>", "<img>", "<img> inside <math>", "<img src='data:x'>", "<iframe>", "no CSP meta"])


def test_hostile_config_title_and_description_are_text(hostile):
    index = (hostile.out / "index.html").read_text(encoding="utf-8")
    assert "<title>&lt;script&gt;alert(&#34;config title&#34;)&lt;/script&gt; Proceedings &amp; &lt;b&gt;Co&lt;/b&gt;" \
        in index
    assert 'content="&#34;&gt;&lt;img src=x onerror=alert(&#34;description&#34;)&gt;&lt;/title&gt;' in index


def test_hand_edited_title_and_tags_are_text(hostile):
    page = (hostile.out / "papers" / "hand-edited-hostile.html").read_text(encoding="utf-8")
    assert '<h1 class="page-title">&lt;script&gt;alert(&quot;page title&quot;)&lt;/script&gt; &amp; &lt;img' in page
    assert ">&lt;script&gt;alert(&#34;tag&#34;)&lt;/script&gt;</a>" in page
    assert 'href="../tags/etc-passwd.html">../../etc/passwd</a>' in page
    tags = sorted(p.name for p in (hostile.out / "tags").glob("*.html"))
    assert "etc-passwd.html" in tags and all(re.fullmatch(r"[a-z0-9-]+(\.[0-9]+)?\.html", name) for name in tags)
    assert not (hostile.out.parent / "etc").exists()


def test_machine_readable_files_stay_data(hostile):
    papers = json.loads((hostile.out / "papers.json").read_text(encoding="utf-8"))
    assert len(papers) == 24
    shipped = sorted((hostile.out / "assets" / "search").glob("*.js"))
    assert len(shipped) >= 4  # the manifest, a term shard, a display block, the tags
    for path in shipped:
        search = path.read_text(encoding="utf-8")
        assert "<script" not in search.lower() and "</" not in search, path.name
    for path in hostile.out.rglob("*.xml"):
        ET.fromstring(path.read_bytes())


def test_published_site_with_a_date_and_a_base_url_stays_safe(tmp_path):
    """The feed, the sitemap and the citation tags only appear with a date and a base URL."""
    content = hostile_content(tmp_path / "content")
    config = content / "proceedings.yaml"
    config.write_text(config.read_text(encoding="utf-8") + "date: 2026-12-06\n", encoding="utf-8")
    result = build(content, tmp_path / "site", "--base-url", "https://example.org/proc/")
    assert result.returncode == 0, result.stderr
    assert active_content(tmp_path / "site") == {}
    site = tmp_path / "site"
    xml = {path.relative_to(site).parent.as_posix() + "/" if path.parent != site else path.name
           for path in site.rglob("*.xml")}
    # The volume's feed, sitemap and MODS, and a feed beside each topic's page (the lists name no authors).
    assert xml == {"feed.xml", "sitemap.xml", "proceedings.mods.xml", "tags/"}, xml
    assert (site / "proceedings.bib").is_file()
    for path in (tmp_path / "site").rglob("*.xml"):
        root = ET.fromstring(path.read_bytes())  # the control characters of bytes.txt would break XML
        assert not [e for e in root.iter() if e.tag.rsplit("}", 1)[-1] in ("script", "img", "iframe")]


# -- the base URL ------------------------------------------------------------------------------------

@pytest.mark.parametrize("url", ["javascript:alert(1)", 'https://x/"><script>alert(1)</script>', "data:text/html,x",
                                 "https://x/a b/", "https://x/'onmouseover='alert(1)", "http://x\\y/", "//x.org/"])
def test_a_base_url_that_could_break_out_is_refused(tmp_path, url):
    content = tmp_path / "content"
    content.mkdir()
    write_list(content / "list.txt", "T", ["An abstract about graphs."])
    result = build(content, tmp_path / "site", "--base-url", url, via=run if url.startswith("javascript") else cli)
    assert result.returncode == 2 and "--base-url must be" in result.stderr, result.stderr
    assert not (tmp_path / "site").exists()
    (content / "proceedings.yaml").write_text(yaml.safe_dump({"base_url": url}), encoding="utf-8")
    result = build(content, tmp_path / "site")
    assert result.returncode == 2 and "proceedings.yaml:1: base_url must be" in result.stderr, result.stderr


# -- lists: text cases ---------------------------------------------------------------------------------

def list_folder(tmp_path: Path, raw: bytes, name: str = "list.txt") -> Path:
    content = tmp_path / "content"
    content.mkdir()
    (content / name).write_bytes(raw)
    return content


def slugs(site: Path) -> list[str]:
    return [p["slug"] for p in json.loads((site / "papers.json").read_text(encoding="utf-8"))]


def test_a_list_with_only_a_title_builds_an_empty_site(tmp_path):
    content = list_folder(tmp_path, b"Only a title\n")
    result = build(content, tmp_path / "site")
    assert result.returncode == 0 and "built 0 papers" in result.stderr, result.stderr
    assert slugs(tmp_path / "site") == []


def test_an_empty_list_is_refused_naming_the_file(tmp_path):
    content = list_folder(tmp_path, b"\n   \n\t\n")
    for result in (build(content, tmp_path / "site"), check(content)):
        assert result.returncode == 2
        assert "list.txt:1: the list is empty; its first line should be the proceedings title" in result.stderr


def test_blank_and_whitespace_only_entries_are_no_entries(tmp_path):
    content = list_folder(tmp_path, b"T\n\n   \n\t\n\n\nFirst abstract about graphs.\n\n \n\n\n\n"
                                    b"Second about kernels.\n")
    result = build(content, tmp_path / "site")
    assert result.returncode == 0 and "built 2 papers" in result.stderr and "warning:" not in result.stderr


def test_a_list_that_is_not_utf8_is_read_in_the_encoding_detected_naming_file_and_line(tmp_path):
    content = list_folder(tmp_path, "T\n\nFine abstract.\n\nLatin-1 café here.\n".encode("latin-1"))
    for result in (build(content, tmp_path / "site"), check(content)):
        assert result.returncode == 0, result.stderr
        assert ("list.txt:5: warning: not UTF-8 (byte 0xe9 here is the first that is not): read as Windows-1252"
                in result.stderr)
    assert "Latin-1 café here." in "".join(p.read_text(encoding="utf-8") for p in (content / "papers").glob("*.md"))


def test_a_list_file_that_is_binary_is_refused(tmp_path):
    content = list_folder(tmp_path, bytes(range(256)) * 4)
    result = build(content, tmp_path / "site")
    assert result.returncode == 2 and "list.txt:1: byte 0x00 is not UTF-8" in result.stderr


# -- pages: broken front matter, wrong fields ----------------------------------------------------------

GOOD_FIELDS = "id: p1\ntitle: A page\nslug: a-page\ntags: [graphs]\norder: 1\n"
# page text → (exit status, what stderr says, naming file and line)
PAGES = {
    "broken YAML": ("---\nid: p1\ntitle: [unclosed\nslug: a\n---\n\nBody.\n",
                    1, "papers/page.md:4: error: invalid YAML"),
    "tab in YAML": ("---\nid: p1\n\ttitle: x\n---\n\nBody.\n", 1, "papers/page.md:3: error: invalid YAML"),
    "front matter never closed": ("---\n" + GOOD_FIELDS + "\nBody.\n", 1,
                                  "papers/page.md:1: error: the front matter is never closed"),
    "no front matter": ("Just a body.\n", 1, "papers/page.md:1: error: no front matter"),
    "front matter is a list": ("---\n- a\n- b\n---\n\nBody.\n", 1,
                               "papers/page.md:2: error: expected a mapping of `key: value` lines"),
    "missing title": ("---\nid: p1\nslug: a-page\n---\n\nBody.\n", 1, "papers/page.md:1: error: `title` is missing"),
    "title of the wrong type": ("---\nid: p1\ntitle: [a, b]\nslug: a-page\n---\n\nBody.\n", 1,
                                "papers/page.md:3: error: `title` must be text"),
    "tags of the wrong type": ("---\nid: p1\ntitle: T\nslug: a-page\ntags: 7\n---\n\nBody.\n", 1,
                               "papers/page.md:5: error: `tags` must be a list of tag names"),
    "order of the wrong type": ("---\nid: p1\ntitle: T\nslug: a-page\norder: first\n---\n\nBody.\n", 1,
                                "papers/page.md:5: error: `order` must be a whole number, not 'first'"),
    "a slug that escapes the output folder": ("---\nid: p1\ntitle: T\nslug: ../../evil\n---\n\nBody.\n", 1,
                                              "papers/page.md:4: error: `slug` must be lowercase letters"),
    "a slug with a path": ("---\nid: p1\ntitle: T\nslug: /etc/passwd\n---\n\nBody.\n", 1,
                           "papers/page.md:4: error: `slug` must be lowercase letters"),
    "no body (a paper without an abstract)": ("---\n" + GOOD_FIELDS + "---\n\n   \n", 0, None),
    "not UTF-8": (("---\n" + GOOD_FIELDS + "---\n\nCaf\udce9.\n"), 1,
                  "papers/page.md:9: error: byte 0xe9 is not UTF-8; save the page as UTF-8"),
    "unknown keys": ("---\n" + GOOD_FIELDS + "authorz: [me]\n---\n\nBody.\n", 0,
                     "papers/page.md:7: warning: unknown front matter key 'authorz'"),
    "CR line endings": (("---\n" + GOOD_FIELDS + "---\n\nBody over\ntwo lines.\n").replace("\n", "\r"), 0, None),
}


@pytest.mark.parametrize("case", sorted(PAGES))
def test_each_broken_page_is_named_with_its_line_and_the_rest_builds(tmp_path, case):
    text, status, message = PAGES[case]
    content = tmp_path / "content"
    write_list(tmp_path / "list.txt", "T", ["An abstract about graph neural networks."])
    content.mkdir()
    shutil.copy(tmp_path / "list.txt", content / "list.txt")
    (content / "papers").mkdir()
    (content / "papers" / "page.md").write_bytes(text.encode("utf-8", "surrogateescape"))
    result = build(content, tmp_path / "site")
    assert result.returncode == status, result.stderr
    if message:
        assert message in result.stderr
    assert "an-abstract-about-graph-neural-networks" in slugs(tmp_path / "site")
    assert check(content).returncode == status
    if status == 0 and message:
        assert check(content, "--strict").returncode == 1


def test_pages_whose_slugs_collide_keep_the_first_and_name_the_other(tmp_path):
    content = tmp_path / "content"
    (content / "papers").mkdir(parents=True)
    write_list(content / "list.txt", "T", [])
    for name in ("a", "b"):
        page = f"---\nid: {name}\ntitle: Same\nslug: same\n---\n\nBody {name}.\n"
        (content / "papers" / f"{name}.md").write_text(page, encoding="utf-8")
    page = "---\nid: a\ntitle: Other\nslug: other\n---\n\nBody c.\n"
    (content / "papers" / "c.md").write_text(page, encoding="utf-8")
    result = build(content, tmp_path / "site")
    assert result.returncode == 1
    assert slugs(tmp_path / "site") == ["same"]
    assert "papers/b.md" in result.stderr and "papers/c.md" in result.stderr
    for line in ("papers/b.md:4: error: slug 'same' is already the slug of a.md",
                 "papers/c.md:2: error: id 'a' is already the id of a.md"):
        assert line in result.stderr  # the message names the field and its line


# -- config, taxonomy and theme -------------------------------------------------------------------------

CONFIGS = {
    "broken YAML": ("title: [unclosed\n", "proceedings.yaml:2: invalid YAML"),
    "not a mapping": ("- a\n- b\n", "proceedings.yaml:1: expected a mapping"),
    "wrong types": ("language: 42\nmacros: 5\ndate: tomorrow\n", "proceedings.yaml:1: language must be a language tag"),
    "a macro using an argument it does not take": ("macros:\n  inner: 'x_{#1}'\n",
                                                   "macro inner: its body uses #1 but the macro takes 0 arguments"),
    "a macro name that is not letters": ("macros:\n  'a b': x\n", "macro name 'a b' must be letters only"),
    "not UTF-8": ("title: caf\udce9\n", "proceedings.yaml:1: byte 0xe9 is not UTF-8; save the config as UTF-8"),
}


@pytest.mark.parametrize("case", sorted(CONFIGS))
def test_a_broken_config_stops_the_build_naming_file_and_line(tmp_path, case):
    text, message = CONFIGS[case]
    content = tmp_path / "content"
    content.mkdir()
    write_list(content / "list.txt", "T", ["An abstract about graphs."])
    (content / "proceedings.yaml").write_bytes(text.encode("utf-8", "surrogateescape"))
    for result in (build(content, tmp_path / "site"), check(content)):
        assert result.returncode == 2 and message in result.stderr, result.stderr
    assert not (tmp_path / "site").exists()


def test_every_problem_of_a_config_is_reported_at_once(tmp_path):
    content = tmp_path / "content"
    content.mkdir()
    write_list(content / "list.txt", "T", ["An abstract about graphs."])
    (content / "proceedings.yaml").write_text("language: 42\nmacros: 5\ndate: tomorrow\nextra: 1\n", encoding="utf-8")
    stderr = build(content, tmp_path / "site").stderr
    for line in ("proceedings.yaml:1: language", "proceedings.yaml:2: macros", "proceedings.yaml:3: date",
                 "proceedings.yaml:4: warning: unknown config key 'extra'"):
        assert line in stderr


# template text → what stderr says (file and line)
TEMPLATES = {
    "a runtime error": ('{% extends "default/index.html" %}\n{% block content %}\n{{ 1 / 0 }}\n{% endblock %}\n',
                        "templates/index.html:3: ZeroDivisionError: division by zero"),
    "an undefined attribute": ('{% extends "default/index.html" %}\n{% block content %}\n{{ site.nope.deeper }}\n'
                               "{% endblock %}\n",
                               "templates/index.html:3: 'generator.render.site_info.SiteInfo object' "
                               "has no attribute 'nope'"),
    "a macro that calls itself": ("{% macro m() %}{{ m() }}{% endmacro %}\n{{ m() }}\n",
                                  "templates/index.html:1: RecursionError"),
    "bytes that are not UTF-8": ("ok\ncaf\udce9 {{ x }}\n",
                                 "templates/index.html:2: template syntax error: byte 0xe9 is not UTF-8"),
    "a missing parent": ('\n{% extends "missing.html" %}\n',
                         "templates/index.html:2: no template named 'missing.html'"),
}


@pytest.mark.parametrize("case", sorted(TEMPLATES))
def test_a_broken_custom_template_stops_the_build_naming_file_and_line(tmp_path, case):
    text, message = TEMPLATES[case]
    content = tmp_path / "content"
    (content / "theme" / "templates").mkdir(parents=True)
    write_list(content / "list.txt", "T", ["An abstract about graphs."])
    (content / "theme" / "templates" / "index.html").write_bytes(text.encode("utf-8", "surrogateescape"))
    for result in (build(content, tmp_path / "site"), check(content)):
        assert result.returncode == 2 and message in result.stderr, result.stderr
    assert not (tmp_path / "site").exists()


def test_outputs_never_share_a_path(tmp_path):
    """A tag whose page name is another page's (the topic index, or another tag's page 2) would
    silently replace it."""
    content = tmp_path / "content"
    (content / "papers").mkdir(parents=True)
    write_list(content / "list.txt", "T", [])
    (content / "proceedings.yaml").write_text("papers_per_page: 2\n", encoding="utf-8")
    for number, tags in enumerate((["Index", "Foo"], ["Index", "Foo"], ["Index", "Foo"], ["Foo 2"]), start=1):
        (content / "papers" / f"p{number}.md").write_text(
            f"---\nid: p{number}\ntitle: Paper {number}\nslug: paper-{number}\ntags: {tags}\norder: {number}\n---\n\n"
            f"Abstract {number}.\n", encoding="utf-8")
    from generator.pipeline.stages import Options, Pipeline
    from generator.pipeline.rendering import site_renderer
    from generator.reporter import Reporter
    from generator.pipeline.sinks import NullSink

    run = Pipeline(content, NullSink(), Options(cache=False)).run(Reporter(), until="rendered")
    papers = run.rendered
    paths = [output.path for output in site_renderer(run.project, papers).outputs(papers)]
    repeated = sorted({path for path in paths if paths.count(path) > 1})
    assert repeated == []  # no output written twice (a tag named "Index", a page numbered like another tag)
