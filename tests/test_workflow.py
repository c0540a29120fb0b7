"""The GitHub Pages workflows: valid for GitHub, least privilege, pinned, and clean under zizmor.

Every test runs on this repository's workflow and on the one `proceedings new` writes
(with a known install source, and with the placeholder it falls back to).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path

import pytest
import yaml

from generator.scaffold import PLACEHOLDER, InstallSource, NewProject, render, write_new
from workflow_checks import REPO, schema_problems, zizmor_findings

PINNED = re.compile(r"^[\w.-]+/[\w.-]+@[0-9a-f]{40}$")
VERSION_COMMENT = re.compile(r"uses: \S+@[0-9a-f]{40} # v\d+(\.\d+)*\s*$")
OFFICIAL_ACTIONS = {"actions/checkout", "actions/setup-python", "actions/configure-pages",
                    "actions/upload-pages-artifact", "actions/deploy-pages"}
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
