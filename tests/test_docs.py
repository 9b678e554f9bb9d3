"""The README stays short and true (under 400 lines; its two commands and every script, command
and link it names exist), and the documentation site builds from docs/ with warnings as errors,
as CI builds it."""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from vwlog.cli import main

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"


def _code_lines(text: str) -> list[str]:
    """The lines of the fenced code blocks, comments cut."""
    out: list[str] = []
    fenced = False
    for raw in text.splitlines():
        if raw.startswith("```"):
            fenced = not fenced
            continue
        if fenced:
            line = re.split(r"\s+#\s", raw.strip(), maxsplit=1)[0].strip()
            if line and not line.startswith(("#", ">>>", "...")):
                out.append(line)
    return out


def test_the_readme_is_read_in_ten_minutes() -> None:
    lines = README.read_text(encoding="utf-8").splitlines()
    assert len(lines) < 400, f"README.md has {len(lines)} lines; move detail to docs/"


def test_the_readmes_first_commands_are_the_demo_and_the_test_command() -> None:
    first = _code_lines(README.read_text(encoding="utf-8"))[:2]
    assert first == ["bash .ci/demo", "bash .ci/test"]
    for script in (".ci/demo", ".ci/test"):
        assert (ROOT / script).is_file()


def test_every_script_and_vwlog_command_the_readme_shows_exists() -> None:
    lines = _code_lines(README.read_text(encoding="utf-8"))
    scripts = [shlex.split(line)[1] for line in lines if line.startswith("bash ")]
    assert scripts
    missing = [s for s in scripts if not (ROOT / s).is_file()]
    assert not missing, missing
    commands = {
        shlex.split(part)[1]
        for line in lines
        for part in line.split(" && ")
        if part.startswith("vwlog ") and not shlex.split(part)[1].startswith("-")
    }
    assert {"validate", "import", "info", "serve"} <= commands
    unknown = sorted(c for c in commands if c not in main.commands)
    assert not unknown, f"the README shows commands vwlog does not have: {unknown}"


def test_every_link_of_the_readme_leads_to_a_file() -> None:
    text = README.read_text(encoding="utf-8")
    targets = re.findall(r"\]\(([^)#\s]+)\)", text)
    local = [t for t in targets if "://" not in t]
    assert "docs/performance.md" in local
    missing = [t for t in local if not (ROOT / t).exists()]
    assert not missing, missing


def test_the_readme_keeps_a_results_table_and_names_the_test_database_variable() -> None:
    text = README.read_text(encoding="utf-8")
    results = text.split("\n## Results\n", 1)[1].split("\n## ", 1)[0]
    assert "| --- |" in results
    development = text.split("\n## Development\n", 1)[1]
    assert "VWLOG_TEST_POSTGRES_DB" in development


def test_every_page_of_the_site_is_a_file_of_docs() -> None:
    nav = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    pages = re.findall(r":\s*([\w-]+\.md)\s*$", nav, re.M)
    assert "performance.md" in pages
    assert [p for p in pages if not (ROOT / "docs" / p).is_file()] == []


@pytest.mark.slow
def test_the_documentation_site_builds_with_warnings_as_errors(tmp_path: Path) -> None:
    if shutil.which("mkdocs") is None and not _module_present("mkdocs"):
        pytest.skip("mkdocs is not installed (the docs extra: pip install -e '.[docs]')")
    if not _module_present("material"):
        pytest.skip("mkdocs-material is not installed (the docs extra: pip install -e '.[docs]')")
    done = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(tmp_path)],
        cwd=ROOT,
        env={**os.environ, "NO_MKDOCS_2_WARNING": "1"},
        capture_output=True,
        text=True,
        check=False,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    assert (tmp_path / "performance" / "index.html").is_file()
    assert (tmp_path / "index.html").is_file()


def _module_present(name: str) -> bool:
    import importlib.util

    return importlib.util.find_spec(name) is not None
