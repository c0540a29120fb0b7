"""An archive from the command line: import a volume, check per volume, new --archive, and the
dev server's rebuild of only the volume a change touches (issue 21)."""

from __future__ import annotations

import json
import time

from series_fixtures import FIXTURES, copy_synced, make_series

from generator.series.layout import is_series
from generator.series.live import LiveSeries
from generator.commands.cli import main


def test_import_into_series_volume_creates_the_volume(tmp_path, capsys, series_content):
    content = series_content
    source = FIXTURES / "venues" / "miniconf-2020-papers.csv"
    assert main(["import", str(source), "--content", str(content / "2024")]) == 0
    assert (content / "2024" / source.name).is_file()
    assert any((content / "2024" / "papers").glob("*.md"))
    assert is_series(content)
    assert main(["build", "--content", str(content), "--out", str(tmp_path / "site")]) == 0
    home = (tmp_path / "site" / "index.html").read_text(encoding="utf-8")
    assert 'data-volume="2024"' in home
    assert (tmp_path / "site" / "2024" / "index.html").is_file()


def test_check_reports_per_volume(tmp_path, capsys):
    content = make_series(tmp_path)
    (content / "2019" / "papers.csv").write_text(
        (content / "2019" / "papers.csv").read_text(encoding="utf-8") + "broken,\"never closed\n", encoding="utf-8")
    main(["check", "--content", str(content)])
    err = capsys.readouterr().err
    for name in ("2019", "2020", "2021", "2022", "2023"):
        assert f"{name}/: checked " in err
    assert "checked a series of 5 volumes" in err
    assert "2019/papers.csv" in err  # a volume's problem names the file inside its volume
    assert not (content / "2020" / "papers").exists()  # check writes nothing


def test_new_series_scaffolds_a_series_that_builds(tmp_path, capsys):
    target = tmp_path / "series"
    assert main(["new", str(target), "--archive", "--title", "Tiny Workshops",
                 "--install", "git+https://github.com/example/proceedings@v1"]) == 0
    content = target / "content"
    assert "title: \"Tiny Workshops\"" in (content / "proceedings.yaml").read_text(encoding="utf-8")
    volumes = [p for p in content.iterdir() if p.is_dir()]
    assert len(volumes) == 1 and list(volumes[0].glob("*.txt"))
    volume = volumes[0].name
    assert f"Tiny Workshops {volume}" in (volumes[0] / "proceedings.yaml").read_text(encoding="utf-8")
    assert f"content/{volume}/tiny-workshops-{volume}.txt" in (target / "README.md").read_text(encoding="utf-8")
    assert main(["build", "--content", str(content), "--out", str(target / "site")]) == 0
    assert f'href="{volume}/index.html">Tiny Workshops {volume}</a>' in (target / "site" / "index.html").read_text(
        encoding="utf-8")


def test_serve_rebuilds_only_the_volume_touched_and_the_series_pages(tmp_path, series_content):
    content = series_content
    live = LiveSeries(content, tmp_path / "site")
    first = live.build_all()
    assert not first.failed and sorted(live.members) == ["2019", "2020", "2021", "2022", "2023"]
    untouched = {prefix: m.pipeline.state.rendered for prefix, m in live.members.items() if prefix != "2023"}
    before = {p: p.stat().st_mtime_ns for p in (tmp_path / "site" / "2019").rglob("*.html")}
    time.sleep(0.01)
    source = content / "2023" / "workshop.jsonl"
    record = {"id": "n-6", "title": "A Late Paper on Quasars", "authors": ["Ada Lovelace"],
              "abstract": "Quasars again, added after the first build."}
    source.write_text(source.read_text(encoding="utf-8") + json.dumps(record) + "\n", encoding="utf-8")
    cache_litter = {content / "2023" / ".proceedings-cache" / "x", tmp_path / "site" / "index.html",
                    content / "2023", content}  # a folder's own event comes with its files
    assert not live.rebuild(cache_litter).kinds  # our own writes are not changes
    result = live.rebuild({source})
    assert result.kinds == ["abstract list"] and not result.failed
    assert all(live.members[prefix].pipeline.state.rendered is rendered for prefix, rendered in untouched.items())
    ada = (tmp_path / "site" / "people" / "ada-lovelace.html").read_text(encoding="utf-8")
    assert "A Late Paper on Quasars" in ada and live.files["people/ada-lovelace.html"].decode() == ada
    assert "A Late Paper on Quasars" in live.files["2023/index.html"].decode()
    assert before == {p: p.stat().st_mtime_ns for p in (tmp_path / "site" / "2019").rglob("*.html")}
    # The series' own config touches every volume: the series is laid out and built again.
    assert live.rebuild({content / "proceedings.yaml"}).kinds == ["full build"]
    assert all(live.members[prefix].pipeline.state.rendered is not rendered for prefix, rendered in untouched.items())
    live.close()


def test_served_series_is_the_built_series(tmp_path, series_content):
    """serve and build run one pipeline per volume and one set of series pages: the same bytes."""
    content = series_content
    assert main(["build", "--content", str(content), "--out", str(tmp_path / "built")]) == 0
    live = LiveSeries(content, tmp_path / "served")
    live.build_all()
    live.wait_for_search()
    built = {p.relative_to(tmp_path / "built").as_posix(): p.read_bytes()
             for p in (tmp_path / "built").rglob("*") if p.is_file()}
    assert sorted(live.files) == sorted(built)
    assert all(live.files[name] == data for name, data in built.items())
    live.close()


def test_a_removed_volume_leaves_the_site(tmp_path, series_content):
    import shutil

    content = series_content
    live = LiveSeries(content, tmp_path / "site")
    live.build_all()
    shutil.rmtree(content / "2020")
    live.rebuild({content / "2020" / "papers.jsonl"})
    assert not (tmp_path / "site" / "2020").exists() and "2020/index.html" not in live.files
    assert 'data-volume="2020"' not in (tmp_path / "site" / "index.html").read_text(encoding="utf-8")
    live.close()


def test_a_broken_volume_never_sinks_the_others(tmp_path, capsys, series_content):
    content = series_content
    (content / "2020" / "proceedings.yaml").write_text("papers_per_page: many\n", encoding="utf-8")
    assert main(["build", "--content", str(content), "--out", str(tmp_path / "site")]) == 1
    err = capsys.readouterr().err
    assert "volume 2020 not built" in err and "papers_per_page" in err
    home = (tmp_path / "site" / "index.html").read_text(encoding="utf-8")
    assert 'data-volume="2019"' in home and 'data-volume="2020"' not in home
    # Fixed, it joins the archive at the next build.
    (content / "2020" / "proceedings.yaml").unlink()
    assert main(["build", "--content", str(content), "--out", str(tmp_path / "site")]) == 0
    assert 'data-volume="2020"' in (tmp_path / "site" / "index.html").read_text(encoding="utf-8")


def test_a_volume_named_like_an_series_folder_is_refused(tmp_path, capsys, series_content):
    content = series_content
    (content / "2019").rename(content / "people")
    assert main(["build", "--content", str(content), "--out", str(tmp_path / "site")]) == 1
    assert "a volume may not be named 'people'" in capsys.readouterr().err
    assert (tmp_path / "site" / "people" / "ada-lovelace.html").is_file()


def test_a_site_built_inside_the_series_folder_is_never_read_as_a_volume(tmp_path, capsys, synced_series):
    """`--content series --out series/site` (or a series at a repository's root with `--out site`): the second
    build read the first's site as a volume named "site", with papers "Allow" and "Sitemap" from robots.txt."""
    root = copy_synced(synced_series.content, tmp_path / "series")
    site = root / "site"
    assert main(["build", "--content", str(root), "--out", str(site)]) == 0
    first = sorted(path.name for path in site.iterdir())
    capsys.readouterr()
    assert main(["build", "--content", str(root), "--out", str(site)]) == 0
    assert sorted(path.name for path in site.iterdir()) == first and not (site / "site").exists()
    assert "Sitemap" not in (site / "papers.json").read_text(encoding="utf-8")
