"""A series is one pipeline of volumes (issue 26): builds take turns and swap the whole site in, no
killed or raced build leaves a folder a later build refuses, the series' own names are reserved, and
`serve` on a series is the volume's live server (reload script, error banner, same-origin reload)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from series_fixtures import make_series
from conftest import REPO, copy_content
from generator.commands.build import build
from generator.commands.cli import main
from generator.reporter import Reporter
from test_serve import Served, get, wait_for
from test_serve_http import request


def site_files(site: Path) -> dict[str, bytes]:
    return {p.relative_to(site).as_posix(): p.read_bytes() for p in site.rglob("*") if p.is_file()}


def cli(*args: str) -> subprocess.Popen:
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    return subprocess.Popen([sys.executable, "-m", "generator", *args], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, env=env, text=True)


def whole(site: Path, volumes: list[str]) -> None:
    """Every volume's home and papers, and the series' own pages, are there."""
    for name in ["index.html", "papers.json", "search.html", "people/index.html"]:
        assert (site / name).is_file(), name
    records = json.loads((site / "papers.json").read_text(encoding="utf-8"))
    assert sorted({r["volume_path"] for r in records}) == volumes
    for record in records:
        assert (site / record["url"]).is_file(), record["url"]
    for volume in volumes:
        assert (site / volume / "index.html").is_file()


@pytest.mark.slow
def test_two_builds_of_a_series_at_once_both_finish_and_leave_a_whole_site(tmp_path):
    content = make_series(tmp_path)
    site = tmp_path / "site"
    first, second = cli("build", "--content", str(content), "--out", str(site)), None
    time.sleep(0.3)
    second = cli("build", "--content", str(content), "--out", str(site))
    outputs = [process.communicate(timeout=300) for process in (first, second)]
    assert [first.returncode, second.returncode] == [0, 0], outputs
    assert any("waiting for it to finish" in err for _, err in outputs)
    whole(site, ["2019", "2020", "2021", "2022", "2023"])
    assert sorted(p.name for p in tmp_path.iterdir()) == ["archive", "site"]  # no staging or lock left
    assert main(["build", "--content", str(content), "--out", str(site)]) == 0


@pytest.mark.slow
def test_a_killed_series_build_leaves_a_site_the_next_build_replaces(tmp_path):
    content = make_series(tmp_path)
    site = tmp_path / "site"
    process = cli("build", "--content", str(content), "--out", str(site), "--no-cache")
    wait_for(lambda: (tmp_path / ".site.staging" / "2020").is_dir() or process.poll() is not None,
             "the build never staged a volume")
    process.send_signal(signal.SIGKILL)
    process.wait(10)
    assert not (site / "2019").exists() or (site / "index.html").is_file()  # never half a site
    assert main(["build", "--content", str(content), "--out", str(site)]) == 0
    whole(site, ["2019", "2020", "2021", "2022", "2023"])


def test_a_failing_first_build_leaves_nothing_a_later_build_refuses(tmp_path, capsys, series_content):
    content = series_content
    (content / "theme" / "templates").mkdir(parents=True)
    (content / "theme" / "templates" / "archive.html").write_text("{% extends 'nothing.html' %}", encoding="utf-8")
    assert main(["build", "--content", str(content), "--out", str(tmp_path / "site")]) == 2
    assert "archive.html" in capsys.readouterr().err
    assert not (tmp_path / "site").exists()
    (content / "theme" / "templates" / "archive.html").unlink()
    assert main(["build", "--content", str(content), "--out", str(tmp_path / "site")]) == 0
    whole(tmp_path / "site", ["2019", "2020", "2021", "2022", "2023"])


@pytest.mark.parametrize("name", ["search.html", "papers.json", "index.html", "feed.xml", "Assets"])
def test_a_volume_named_like_a_file_of_the_series_is_refused_and_the_rest_builds(tmp_path, capsys, name,
                                                                                  series_content):
    content = series_content
    (content / "2019").rename(content / name)
    assert main(["build", "--content", str(content), "--out", str(tmp_path / "site")]) == 1
    assert f"a volume may not be named {name!r}" in capsys.readouterr().err
    whole(tmp_path / "site", ["2020", "2021", "2022", "2023"])


@pytest.mark.parametrize("only_links", [False, True], ids=["beside-volumes", "all-links"])
def test_a_volume_that_is_a_link_is_left_out_and_said_so(tmp_path, capsys, only_links):
    """A link to a folder is not read, as a link out is never read as a source or a page: a warning names it."""
    content = make_series(tmp_path)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (content / "2019").rename(elsewhere / "2019")
    (content / "2019").symlink_to(elsewhere / "2019", target_is_directory=True)
    if only_links:
        for year in ("2020", "2021", "2022", "2023"):
            (content / year).rename(elsewhere / year)
            (content / year).symlink_to(elsewhere / year, target_is_directory=True)
    code = main(["build", "--content", str(content), "--out", str(tmp_path / "site")])
    err = capsys.readouterr().err
    assert "2019: warning: is a link to a folder; not built as a volume" in err, err
    assert code == 0
    if only_links:  # still a series (not a volume with no sources), of no volume, and each link named
        assert "a series of 0 volumes" in err and "2023: warning: is a link to a folder" in err
    else:
        whole(tmp_path / "site", ["2020", "2021", "2022", "2023"])
    assert not (elsewhere / "2019" / "papers").exists()  # nothing written into the folder linked to


def test_a_volume_folder_name_is_percent_encoded_wherever_it_is_an_address(tmp_path, capsys):
    """Spaces, "%" and CJK in a volume's folder name are encoded in its address; "#" and "?" would end the
    address's path, so such a folder is refused by name (not with a --base-url message)."""
    content = tmp_path / "series"
    for name in ("2024 spring", "100%", "学会", "a#b"):
        (content / name).mkdir(parents=True)
        (content / name / "papers.csv").write_text("UID,title,authors,abstract\np1,Quasar Kernels,Jane Doe,"
                                                   "Quasar spectra fitted.\n", encoding="utf-8")
        (content / name / "proceedings.yaml").write_text("date: 2024-01-01\n", encoding="utf-8")
    (content / "proceedings.yaml").write_text("title: S\nbase_url: https://example.org/s/\n", encoding="utf-8")
    site = tmp_path / "site"
    assert main(["build", "--content", str(content), "--out", str(site)]) == 1
    err = capsys.readouterr().err
    assert "a#b: error: a volume's folder name is its address, which may not hold #" in err, err
    assert "--base-url" not in err
    encoded = {"2024 spring": "2024%20spring", "100%": "100%25", "学会": "%E5%AD%A6%E4%BC%9A"}
    records = json.loads((site / "papers.json").read_text(encoding="utf-8"))
    assert sorted(r["url"] for r in records) == sorted(f"{e}/papers/quasar-kernels.html" for e in encoded.values())
    home = (site / "index.html").read_text(encoding="utf-8")
    sitemap = (site / "sitemap.xml").read_text(encoding="utf-8")
    person = (site / "people" / "jane-doe.html").read_text(encoding="utf-8")
    for name, href in encoded.items():
        assert f'href="{href}/index.html"' in home and f"https://example.org/s/{href}/sitemap.xml" in sitemap
        assert f"{href}/papers/quasar-kernels.html" in person
        page = (site / name / "papers" / "quasar-kernels.html").read_text(encoding="utf-8")
        assert f'content="https://example.org/s/{href}/papers/quasar-kernels.html"' in page


def test_a_volumes_config_warning_names_its_file_once(tmp_path, capsys, monkeypatch, series_content):
    content = series_content
    config = content / "2020" / "proceedings.yaml"
    config.write_text((config.read_text(encoding="utf-8") if config.exists() else "") + "colour: blue\n",
                      encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    assert main(["build", "--content", content.name, "--out", "site"]) == 0
    line = len(config.read_text(encoding="utf-8").splitlines())
    assert f"\n2020/proceedings.yaml:{line}: warning: unknown config key 'colour'" in capsys.readouterr().err


@pytest.mark.slow
def test_a_series_built_over_a_one_volume_site_keeps_nothing_of_it(tmp_path):
    single = copy_content(tmp_path / "single")
    site = tmp_path / "site"
    build(single, site, Reporter())
    assert (site / "papers").is_dir() and (site / "proceedings.bib").is_file()
    build(make_series(tmp_path), site, Reporter())
    assert not (site / "papers").exists() and not (site / "tags").exists() and not (site / "proceedings.bib").exists()
    whole(site, ["2019", "2020", "2021", "2022", "2023"])


@pytest.mark.slow
def test_a_volume_that_fails_keeps_its_last_build_and_its_place_on_the_home_page(tmp_path, capsys):
    content = make_series(tmp_path)
    site = tmp_path / "site"
    assert main(["build", "--content", str(content), "--out", str(site)]) == 0
    before = site_files(site / "2020")
    (content / "2020" / "proceedings.yaml").write_text("papers_per_page: many\n", encoding="utf-8")
    assert main(["build", "--content", str(content), "--out", str(site)]) == 1
    assert "volume 2020 not built" in capsys.readouterr().err
    assert site_files(site / "2020") == before
    assert 'data-volume="2020"' in (site / "index.html").read_text(encoding="utf-8")
    whole(site, ["2019", "2020", "2021", "2022", "2023"])


def test_a_one_volume_build_is_the_series_path_with_one_volume_at_the_root(tmp_path):
    content = copy_content(tmp_path / "content")
    result = build(content, tmp_path / "site", Reporter())
    assert list(result.built) == [""] and not result.series and result.volumes == []
    assert result.summary(tmp_path / "site").startswith(f"built {result.papers} papers, ")


@pytest.fixture
def served_series(tmp_path, series_content):
    content = series_content  # synced: the server's first build reads its pages
    server = Served(content, tmp_path / "site")
    yield server, content
    server.stop()


@pytest.mark.slow  # a serve process of its own (2.7 CPU-s); test_series_site's LiveSeries test sends the same pages
def test_serve_on_a_series_sends_the_reload_script_without_the_csp_that_would_block_it(served_series):
    server, _ = served_series
    for path in ("index.html", "people/index.html", "2023/index.html"):
        page = server.page(path)
        assert "livereload" in page and "Content-Security-Policy" not in page, path


@pytest.mark.slow
def test_serve_on_a_series_refuses_a_cross_site_reload(served_series):
    server, _ = served_series
    assert request(server.port, "GET", "/forcereload", {"Sec-Fetch-Site": "cross-site"}).status == 403
    assert request(server.port, "GET", "/forcereload", {"Sec-Fetch-Site": "same-origin"}).status == 200


@pytest.mark.slow
def test_serve_on_a_series_shows_a_broken_page_of_a_volume_and_recovers(served_series):
    server, content = served_series
    page = next((content / "2023" / "papers").glob("*.md"))
    good = page.read_text(encoding="utf-8")
    page.write_text("---\ntitle: [unclosed\n---\nText.\n", encoding="utf-8")
    wait_for(lambda: "proceedings-build-error" in server.page("index.html"), "no banner for the broken page")
    banner = server.page("2019/index.html")
    assert f"2023/papers/{page.name}" in banner  # named inside its volume, on every page of the series
    page.write_text(good.replace("title:", "title: Mended —", 1), encoding="utf-8")
    wait_for(lambda: "proceedings-build-error" not in server.page("index.html"), "the banner stayed")
    assert "Mended" in server.page("2023/index.html")


@pytest.mark.slow
def test_serve_on_a_series_serves_an_edit_to_the_volume_and_the_series_pages(served_series):
    server, content = served_series
    source = content / "2023" / "workshop.jsonl"
    record = {"id": "n-9", "title": "A Late Paper by Ada", "authors": ["Ada Lovelace"], "abstract": "Late."}
    source.write_text(source.read_text(encoding="utf-8") + json.dumps(record) + "\n", encoding="utf-8")
    wait_for(lambda: "A Late Paper by Ada" in server.page("people/ada-lovelace.html"), "the person page")
    assert "A Late Paper by Ada" in server.page("2023/index.html")
    assert get(server.url + "2023/papers/a-late-paper-by-ada.html")[0] == 200


@pytest.mark.slow
def test_a_no_change_rebuild_keeps_every_volume_and_says_the_same(tmp_path):
    content = make_series(tmp_path)
    build(content, tmp_path / "site", Reporter())  # creates the pages (and says what creating them says)
    build(content, tmp_path / "site", Reporter())  # reads them
    again = Reporter()
    result = build(content, tmp_path / "site", again)
    # Every volume runs its own pipeline, whose cache and kept files leave nothing to render.
    assert sorted(result.unchanged) == ["2019", "2020", "2021", "2022", "2023"]
    assert sorted(result.built) == ["2019", "2020", "2021", "2022", "2023"]
    fresh = Reporter()
    full = build(content, tmp_path / "fresh", fresh, cache=False)
    assert sorted(map(str, again.diagnostics)) == sorted(map(str, fresh.diagnostics))  # --strict sees them all
    assert site_files(tmp_path / "site") == site_files(tmp_path / "fresh")
    assert (result.papers, result.files) == (full.papers, full.files)


@pytest.mark.slow
def test_an_edited_volume_or_a_hand_edited_site_file_is_built_again(tmp_path):
    content = make_series(tmp_path)
    build(content, tmp_path / "site", Reporter())
    build(content, tmp_path / "site", Reporter())  # the pages written by the first are read
    page = next((content / "2020" / "papers").glob("*.md"))
    page.write_text(page.read_text(encoding="utf-8").replace("title: ", "title: Revised ", 1), encoding="utf-8")
    (tmp_path / "site" / "2021" / "index.html").write_text("defaced", encoding="utf-8")
    result = build(content, tmp_path / "site", Reporter())
    assert sorted(result.unchanged) == ["2019", "2022", "2023"]  # 2020 edited, 2021's site file defaced
    assert "Revised" in (tmp_path / "site" / "2020" / "index.html").read_text(encoding="utf-8")
    assert "defaced" not in (tmp_path / "site" / "2021" / "index.html").read_text(encoding="utf-8")
    build(content, tmp_path / "fresh", Reporter(), cache=False)
    assert site_files(tmp_path / "site") == site_files(tmp_path / "fresh")
