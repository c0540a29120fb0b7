"""What `proceedings new` writes for corrections from readers (issue 42): the issue form the site's "Suggest a
correction" links open, valid for GitHub and naming the fields the links fill; the workflow that applies its
issues, valid, least privilege, pinned, no issue text in a script, clean under zizmor; and the site's repository
in proceedings.yaml, from `--repository` or the folder's Git origin.
"""

from __future__ import annotations

import html
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from generator.commands.cli import main
from generator.commands.scaffold import InstallSource, NewProject, github_repository, render, write_new
from generator.model.suggestion import LABEL, NOTE_FIELD, NOTE_LABEL, RECORD_FIELD, RECORD_LABEL
from test_suggest_correction import LINK, issue_body, record_of
from workflow_checks import schema_problems, zizmor_findings

FORM = Path(".github") / "ISSUE_TEMPLATE" / "correction.yml"
WORKFLOW = Path(".github") / "workflows" / "correction.yml"
PINNED = re.compile(r"^[\w.-]+/[\w.-]+@[0-9a-f]{40}$")


@pytest.fixture(scope="module")
def project(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("new") / "workshop"
    source = InstallSource("git+https://github.com/example/p@v1", "a test")
    write_new(root, render(NewProject("Test Workshop 2026", source, repository="acme/workshop")))
    return root


@pytest.fixture(scope="module")
def workflow(project) -> dict:
    return yaml.safe_load((project / WORKFLOW).read_text(encoding="utf-8"))


def test_the_form_is_a_valid_github_issue_form(project):
    problems = schema_problems(project / FORM, "vendor.github-issue-forms")
    assert not problems, problems


def test_the_form_has_the_fields_the_links_fill_and_the_label_the_workflow_wants(project):
    form = yaml.safe_load((project / FORM).read_text(encoding="utf-8"))
    fields = {item["id"]: item for item in form["body"] if "id" in item}
    assert fields[RECORD_FIELD]["attributes"]["label"] == RECORD_LABEL
    assert fields[RECORD_FIELD]["attributes"]["render"] == "yaml"  # GitHub fences it: `correct` reads the block
    assert fields[NOTE_FIELD]["attributes"]["label"] == NOTE_LABEL
    assert form["labels"] == [LABEL]


def test_the_workflow_is_valid_and_zizmor_clean(project):
    problems = schema_problems(project / WORKFLOW)
    assert not problems, problems
    findings = zizmor_findings(project)
    assert not findings, [(f["ident"], f["locations"][0]["symbolic"]["key"]) for f in findings]


def test_least_privilege_per_job(workflow):
    assert workflow["permissions"] == {}
    assert workflow["jobs"]["correct"]["permissions"] == {"contents": "write", "pull-requests": "write",
                                                           "issues": "read"}


def test_runs_on_a_labelled_issue_only(workflow):
    triggers = workflow.get("on", workflow.get(True))
    assert triggers == {"issues": {"types": ["opened", "labeled"]}}
    condition = workflow["jobs"]["correct"]["if"]
    assert f"github.event.label.name == '{LABEL}'" in condition and f"'{LABEL}')" in condition


def test_pinned_and_no_expression_in_a_script(workflow):
    steps = workflow["jobs"]["correct"]["steps"]
    assert all(PINNED.match(step["uses"]) for step in steps if "uses" in step)
    assert next(s for s in steps if "uses" in s)["with"]["persist-credentials"] is False
    for step in steps:
        assert "${{" not in step.get("run", ""), step["name"]
    applying = next(s for s in steps if "proceedings correct" in s.get("run", ""))
    assert applying["env"]["ISSUE_BODY"] == "${{ github.event.issue.body }}"


def test_the_scripts_apply_an_issue_and_propose_it(workflow, tmp_path):
    """The two scripts, run as the runner would (a checkout, the issue's body in the environment), with `gh`
    replaced by a recorder: the page is corrected, committed on a branch, and a pull request asked for."""
    content = tmp_path / "repo" / "content"
    assert main(["import", str(Path(__file__).parent / "fixtures" / "venues" / "colt-2024-theory.bib"),
                 "--content", str(content)]) == 0
    (content / "proceedings.yaml").write_text("title: COLT 2024\nrepository: acme/colt\n", encoding="utf-8")
    repo = content.parent
    for command in (["init", "-q", "-b", "main"], ["add", "."], ["-c", "user.name=t", "-c", "user.email=t@t",
                                                                   "commit", "-q", "-m", "pages"]):
        subprocess.run(["git", *command], cwd=repo, check=True)
    assert main(["build", "--content", str(content), "--out", str(tmp_path / "site")]) == 0
    page = next((tmp_path / "site" / "papers").glob("a-lower-bound*.html")).read_text(encoding="utf-8")
    record = record_of(html.unescape(LINK.search(page).group(1))).replace("Tor Lattimore", "Tor Lattimore II")
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    (bin_dir / "gh").write_text('#!/bin/sh\necho "$@" > "$RUNNER_TEMP/gh-called"\n', encoding="utf-8")
    (bin_dir / "gh").chmod(0o755)
    (bin_dir / "git").write_text('#!/bin/sh\n[ "$1" = "-c" ] && [ "$3" = "push" -o "$5" = "push" ] && exit 0\n'
                                 'exec /usr/bin/git "$@"\n', encoding="utf-8")
    (bin_dir / "git").chmod(0o755)
    env = {**os.environ, "RUNNER_TEMP": str(tmp_path), "ISSUE_BODY": issue_body(record), "ISSUE_NUMBER": "7",
           "GH_TOKEN": "t", "PATH": os.pathsep.join([str(bin_dir), str(Path(sys.executable).parent),
                                                      os.environ["PATH"]])}
    steps = workflow["jobs"]["correct"]["steps"]
    for name in ("Apply the correction to the pages", "Open a pull request"):
        script = next(s for s in steps if s["name"] == name)["run"].replace("proceedings correct",
                                                                            f"{sys.executable} -m generator correct")
        subprocess.run(["bash", "-e", "-c", script], cwd=repo, env=env, check=True)
    shown = subprocess.run(["git", "show", "--stat", "correction-7"], cwd=repo, capture_output=True, text=True)
    assert "Correction from issue #7" in shown.stdout and "a-lower-bound" in shown.stdout
    assert "pr create --head correction-7" in (tmp_path / "gh-called").read_text(encoding="utf-8")


@pytest.mark.parametrize("remote, repository", [
    ("https://github.com/acme/proceedings.git", "acme/proceedings"),
    ("git@github.com:acme/proceedings.git", "acme/proceedings"),
    ("https://gitlab.com/acme/proceedings.git", ""),
    ("/srv/git/proceedings", ""),
])
def test_the_repository_of_a_git_remote(remote, repository):
    assert github_repository(remote) == repository


def test_new_fills_repository_from_the_option_or_the_folders_origin(tmp_path, capsys):
    assert main(["new", str(tmp_path / "a"), "--install", "p==1", "--repository", "acme/a"]) == 0
    assert "\nrepository: acme/a " in (tmp_path / "a" / "content" / "proceedings.yaml").read_text(encoding="utf-8")
    clone = tmp_path / "clone"
    subprocess.run(["git", "init", "-q", str(clone)], check=True)
    subprocess.run(["git", "-C", str(clone), "remote", "add", "origin", "git@github.com:acme/clone.git"], check=True)
    assert main(["new", str(clone / "site"), "--install", "p==1"]) == 0
    config = (clone / "site" / "content" / "proceedings.yaml").read_text(encoding="utf-8")
    assert "\nrepository: acme/clone " in config
    assert main(["new", str(tmp_path / "b"), "--install", "p==1", "--repository", "not a repo"]) == 2
    assert "--repository must be a GitHub repository written owner/name" in capsys.readouterr().err


def test_an_series_names_its_repository_for_the_series_and_its_volume(tmp_path):
    assert main(["new", str(tmp_path / "s"), "--archive", "--install", "p==1", "--repository", "acme/s"]) == 0
    configs = sorted((tmp_path / "s" / "content").rglob("proceedings.yaml"))
    assert len(configs) == 2
    for config in configs:
        assert "\nrepository: acme/s " in config.read_text(encoding="utf-8"), config
