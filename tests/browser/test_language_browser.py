"""The Chinese interface in a real browser: the page's words and what search says.

The seed content built with ``language: zh-CN``, from file:// and over http with
Content-Security-Policy: script-src 'self' (the messages reach search.js as JSON
data, not script).
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from generator.commands.build import build
from generator.reporter import Reporter

from .conftest import REPO, served
from .helpers import TIMEOUT, search_for


@pytest.fixture(scope="module")
def chinese_site(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("zh")
    content = root / "content"
    shutil.copytree(REPO / "content", content)
    config = content / "proceedings.yaml"
    config.write_text(config.read_text(encoding="utf-8").replace("language: en", "language: zh-CN"), encoding="utf-8")
    reporter = Reporter()
    build(content, root / "site", reporter)
    assert not reporter.errors and not reporter.warnings, reporter.diagnostics
    return root / "site"


@pytest.fixture(params=["file", "http"])
def chinese_url(request, chinese_site):
    if request.param == "file":
        yield chinese_site.as_uri() + "/"
        return
    with served(chinese_site) as url:
        yield url


def test_chinese_site_searches_in_chinese(page, chinese_url):
    page.goto(chinese_url + "index.html")
    assert page.locator("html").get_attribute("lang") == "zh-CN"
    assert page.locator(".site-nav a").first.inner_text() == "论文列表"
    assert page.locator("#search-q").get_attribute("placeholder") == "搜索论文"
    search_for(page, "qwzxv")
    assert page.locator(".search-status").inner_text() == "没有与“qwzxv”匹配的论文。"
    assert page.locator(".search-hit").count() == 0
    search_for(page, "diffusion")
    page.wait_for_selector(".search-hit-title", timeout=TIMEOUT)
    count = page.locator(".search-hit").count()
    status = page.locator(".search-status").inner_text()
    assert status.endswith(" 篇论文与“diffusion”匹配。") and int(status.split()[0]) >= count, status
    assert not page.errors, page.errors
