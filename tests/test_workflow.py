"""The GitHub Pages workflows: valid for GitHub, least privilege, pinned, and clean under zizmor.

Every test runs on this repository's workflow and on the one `proceedings new` writes
(with a known install source, and with the placeholder it falls back to).
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest
import yaml

from conftest import copy_content
from generator.runtime.cache import CACHE_DIR, FORMAT, code_digest, key_file
from generator.commands.scaffold import PLACEHOLDER, InstallSource, NewProject, render, write_new
from test_cache import forbid, run, snapshot  # noqa: F401 (forbid is a fixture)
from workflow_checks import REPO, schema_problems, zizmor_findings

PINNED = re.compile(r"^[\w.-]+/[\w.-]+(/[\w.-]+)*@[0-9a-f]{40}$")
VERSION_COMMENT = re.compile(r"uses: \S+@[0-9a-f]{40} # v\d+(\.\d+)*\s*$")
OFFICIAL_ACTIONS = {"actions/checkout", "actions/setup-python", "actions/configure-pages",
                    "actions/upload-pages-artifact", "actions/deploy-pages", "actions/cache/restore",
                    "actions/cache/save"}
NEW_SOURCES = {
    "new": InstallSource("git+https://github.com/example/proceedings@v0.1.0", "a test"),
    "new, source unknown": InstallSource(PLACEHOLDER, "a placeholder", known=False),
}


@dataclass(frozen=True)
class Shipped:
    """A repository folder and its Pages workflow."""

    root: Path

    @property
    def path(self) -> Path:
        return self.root / ".github" / "workflows" / "pages.yml"


@pytest.fixture(scope="module", params=["repository", *NEW_SOURCES])
def shipped(request, tmp_path_factory) -> Shipped:
    if request.param == "repository":
        return Shipped(REPO)
    root = tmp_path_factory.mktemp("new") / "workshop"
    write_new(root, render(NewProject("Test Workshop 2026", NEW_SOURCES[request.param])))
    return Shipped(root)


@pytest.fixture(scope="module")
def workflow(shipped) -> dict:
    return yaml.safe_load(shipped.path.read_text(encoding="utf-8"))
def steps(workflow: dict, job: str) -> list[dict]:
    return workflow["jobs"][job]["steps"]


def step_using(workflow: dict, job: str, action: str) -> dict:
    return next(s for s in steps(workflow, job) if s.get("uses", "").startswith(action + "@"))


def test_valid_against_githubs_workflow_schema(shipped):
    problems = schema_problems(shipped.path)
    assert not problems, problems


def test_dependabot_config_valid(shipped):
    problems = schema_problems(shipped.root / ".github" / "dependabot.yml", "vendor.dependabot")
    assert not problems, problems


def test_zizmor_finds_nothing_high(shipped):
    findings = zizmor_findings(shipped.root)
    high = [f for f in findings if f["determinations"]["severity"] == "High"]
    assert not high, json.dumps(high, indent=1)[:3000]
    # The committed policy (.github/zizmor.yml: every action pinned to a SHA) holds too.
    assert not findings, [f["ident"] for f in findings]


def test_builds_on_main_and_by_hand(workflow):
    triggers = workflow.get("on", workflow.get(True))  # YAML 1.1 reads a bare `on` as true
    assert triggers["push"]["branches"] == ["main"]
    assert "workflow_dispatch" in triggers


def test_least_privilege(workflow):
    assert workflow["permissions"] == {"contents": "read"}
    assert "permissions" not in workflow["jobs"]["build"], "the build job needs no more than contents: read"
    assert workflow["jobs"]["deploy"]["permissions"] == {"pages": "write", "id-token": "write"}


def test_one_deployment_at_a_time(workflow):
    assert workflow["concurrency"]["group"]
    assert workflow["concurrency"]["cancel-in-progress"] is False


def test_checkout_keeps_no_credentials(workflow):
    assert step_using(workflow, "build", "actions/checkout")["with"]["persist-credentials"] is False


def test_official_actions_pinned_to_commit_shas(shipped, workflow):
    uses = [s["uses"] for job in workflow["jobs"].values() for s in job["steps"] if "uses" in s]
    assert {u.split("@")[0] for u in uses} == OFFICIAL_ACTIONS
    assert all(PINNED.match(u) for u in uses), uses
    lines = [line for line in shipped.path.read_text(encoding="utf-8").splitlines() if "uses:" in line]
    assert all(VERSION_COMMENT.search(line) for line in lines), "each pin names its release in a comment"


def test_builds_with_the_address_pages_reports(workflow):
    pages = step_using(workflow, "build", "actions/configure-pages")
    build = next(s for s in steps(workflow, "build") if "proceedings build" in s.get("run", ""))
    assert build["env"]["BASE_URL"] == "${{ steps.%s.outputs.base_url }}" % pages["id"]
    assert '--base-url "$BASE_URL"' in build["run"]
    assert "${{" not in build["run"], "expressions go through env, not into the script"


def test_uploads_the_built_site_and_deploys_it(workflow):
    assert step_using(workflow, "build", "actions/upload-pages-artifact")["with"]["path"].rstrip("/") == "site"
    deploy = workflow["jobs"]["deploy"]
    assert deploy["needs"] == "build"
    assert deploy["environment"]["name"] == "github-pages"
    assert step_using(workflow, "deploy", "actions/deploy-pages")["id"] == "deployment"
    assert deploy["environment"]["url"] == "${{ steps.deployment.outputs.page_url }}"


# -- the build cache: a push that changes one paper rebuilds warm on GitHub too ---------------------------

RUNNER_TEMP = "${{ runner.temp }}"


def build_step(workflow: dict) -> dict:
    return next(s for s in steps(workflow, "build") if "proceedings build" in s.get("run", ""))


def content_folder(workflow: dict) -> str:
    found = re.search(r"--content (\S+)", build_step(workflow)["run"])
    return found.group(1) if found else "content"  # the build's default


def cached_paths(step: dict) -> list[str]:
    return step["with"]["path"].splitlines()


def test_the_build_cache_is_restored_before_the_build_and_saved_after_it(workflow):
    names = [s.get("uses", "").split("@")[0] or s.get("run", "") for s in steps(workflow, "build")]
    restore, save = names.index("actions/cache/restore"), names.index("actions/cache/save")
    assert restore < names.index(build_step(workflow)["run"]) < save < names.index("actions/upload-pages-artifact")
    restored = step_using(workflow, "build", "actions/cache/restore")
    saved = step_using(workflow, "build", "actions/cache/save")
    assert cached_paths(saved) == cached_paths(restored)
    # The key is the one restore looked for (worked out before the build wrote into content/);
    # an exact hit has nothing new to save.
    assert saved["with"]["key"] == "${{ steps.%s.outputs.cache-primary-key }}" % restored["id"]
    assert saved["if"] == "steps.%s.outputs.cache-hit != 'true'" % restored["id"]


def test_the_cache_holds_the_entries_and_the_secret_they_are_sealed_with(workflow):
    restored = step_using(workflow, "build", "actions/cache/restore")
    user_cache = build_step(workflow)["env"]["XDG_CACHE_HOME"]
    assert user_cache.startswith(RUNNER_TEMP)
    assert cached_paths(restored) == [f"{content_folder(workflow)}/{CACHE_DIR}",
                                      f"{user_cache}/proceedings/{key_file().name}"]


def test_the_cache_key_names_the_format_the_generator_and_the_content(workflow):
    restored = step_using(workflow, "build", "actions/cache/restore")
    content = content_folder(workflow)
    prefix = f"proceedings-cache-v{FORMAT}-${{{{ steps.cache-name.outputs.code }}}}-"
    assert restored["with"]["key"] == prefix + f"${{{{ hashFiles('{content}/**', '!{content}/{CACHE_DIR}/**') }}}}"
    partial = "another content of the same generator: a partial hit"
    assert restored["with"]["restore-keys"].splitlines() == [prefix], partial


def test_the_naming_step_prints_this_generators_code_digest(workflow, tmp_path):
    naming = next(s for s in steps(workflow, "build") if s.get("id") == "cache-name")
    output = tmp_path / "github-output"
    path = os.pathsep.join([str(Path(sys.executable).parent), os.environ.get("PATH", "")])
    subprocess.run(["bash", "-e", "-c", naming["run"]], cwd=tmp_path, check=True,
                   env={**os.environ, "GITHUB_OUTPUT": str(output), "PATH": path})
    assert output.read_text(encoding="utf-8") == f"code={code_digest.__wrapped__()}\n"  # the source as it is now


def test_a_fresh_runner_given_the_cached_paths_builds_warm(workflow, tmp_path, monkeypatch, forbid):  # noqa: F811
    user_cache = build_step(workflow)["env"]["XDG_CACHE_HOME"]
    content = content_folder(workflow)

    def runner(name: str) -> Path:
        """A new runner: a checkout of the repository (no cache: it ignores itself for git) and its temp folder."""
        root = tmp_path / name
        copy_content(root / "workspace" / content)
        monkeypatch.setenv("XDG_CACHE_HOME", user_cache.replace(RUNNER_TEMP, str(root / "temp")))
        return root

    def on(root: Path, cached: str) -> Path:
        return Path(cached.replace(RUNNER_TEMP, str(root / "temp"))) if RUNNER_TEMP in cached \
            else root / "workspace" / cached

    first = runner("first")
    run(first / "workspace" / content, first / "site")
    paths = cached_paths(step_using(workflow, "build", "actions/cache/restore"))
    for carried, name in ((paths, "second"), (paths[:1], "without-the-secret")):
        root = runner(name)
        for cached in carried:  # what actions/cache carries from one run to the next
            copy = shutil.copytree if on(first, cached).is_dir() else shutil.copy2
            on(root, cached).parent.mkdir(parents=True, exist_ok=True)
            copy(on(first, cached), on(root, cached))
        guards = forbid(renders=10**6, relate=True, index=True)
        run(root / "workspace" / content, root / "site")
        assert snapshot(root / "site") == snapshot(first / "site")
        if name == "second":
            assert [g.calls for g in guards.values()] == [0, 0, 0], "everything came from the cache"
        else:  # the entries alone are someone else's: worked out again
            assert all(g.calls for g in guards.values())
