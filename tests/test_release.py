"""The release files: the workflow's structure (it cannot run here), the
wheel configuration, and the version named the same way everywhere.

.ci/wheels builds and installs the x86_64 wheel for real; these checks catch a
workflow or configuration edited into something that could not publish.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import solvers
import yaml

tomllib = pytest.importorskip("tomllib")  # Python 3.11+; the suite runs on 3.11 in CI

ROOT = Path(__file__).resolve().parents[1]
WORKFLOW = ROOT / ".github" / "workflows" / "release.yml"


@pytest.fixture(scope="module")
def workflow():
    return yaml.safe_load(WORKFLOW.read_text(encoding="utf-8"))


def _steps(job):
    return job["steps"]


def _maturin_steps(job):
    return [s for s in _steps(job) if s.get("uses", "").startswith("PyO3/maturin-action@")]


def test_it_publishes_on_a_version_tag_only(workflow):
    # YAML reads the key `on` as True
    triggers = workflow.get("on", workflow.get(True))
    assert triggers["push"]["tags"] == ["v*"]
    publish = workflow["jobs"]["publish"]
    assert publish["if"] == "startsWith(github.ref, 'refs/tags/v')"
    assert set(publish["needs"]) == {"linux", "macos", "windows", "sdist"}
    assert publish["permissions"] == {"id-token": "write"}
    uses = [s.get("uses", "") for s in _steps(publish)]
    assert any(u.startswith("pypa/gh-action-pypi-publish@") for u in uses)
    # it refuses a tag that does not name the version in Cargo.toml
    assert any("Cargo.toml" in s.get("run", "") for s in _steps(publish))


def test_it_builds_every_platform_the_readme_names(workflow):
    jobs = workflow["jobs"]
    linux = jobs["linux"]
    assert set(linux["strategy"]["matrix"]["target"]) == {"x86_64", "aarch64"}
    (build,) = _maturin_steps(linux)
    assert build["with"]["manylinux"] == "2014"
    (build,) = _maturin_steps(jobs["macos"])
    assert build["with"]["target"] == "universal2-apple-darwin"
    (build,) = _maturin_steps(jobs["windows"])
    assert build["with"]["target"] == "x64"
    (build,) = _maturin_steps(jobs["sdist"])
    assert build["with"]["command"] == "sdist"
    for name in ("linux", "macos", "windows", "sdist"):
        upload = [s for s in _steps(jobs[name]) if s.get("uses", "").startswith("actions/upload")]
        assert upload and upload[0]["with"]["name"].startswith("wheels-"), name


def test_each_runner_smoke_tests_its_wheel(workflow):
    assert (ROOT / ".ci" / "smoke.py").is_file()
    for name in ("linux", "macos", "windows"):
        runs = [s.get("run", "") for s in _steps(workflow["jobs"][name])]
        assert any("python .ci/smoke.py" in r and "--no-index" in r for r in runs), name


def test_the_wheel_is_built_for_old_glibc():
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert config["tool"]["maturin"]["compatibility"] == "manylinux2014"
    assert "abi3-py310" in (ROOT / "Cargo.toml").read_text(encoding="utf-8")
    assert config["project"]["requires-python"] == ">=3.10"


def test_one_version_everywhere():
    cargo = tomllib.loads((ROOT / "Cargo.toml").read_text(encoding="utf-8"))
    version = cargo["package"]["version"]
    assert solvers.__version__ == version  # maturin takes the package's version from Cargo.toml
    changelog = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    assert re.search(rf"^## {re.escape(version)}\b", changelog, flags=re.M), version
