"""The README's first command, ``bash .ci/demo``: its stdout is the demo's own output only (no
installer or compiler lines), and it names the engine it runs on stderr when that is the pure
one. The set-up it calls installs the core dependencies alone (no extra)."""

from __future__ import annotations

import hashlib
import os
import re
import subprocess
from pathlib import Path

import pytest

from vwlog import build

ROOT = Path(__file__).resolve().parents[1]


def _installed() -> bool:
    """Whether .venv holds an install of this pyproject.toml (the demo then installs nothing)."""
    want = hashlib.sha256((ROOT / "pyproject.toml").read_bytes()).hexdigest()
    stamps = (ROOT / ".venv" / ".vwlog-installed", ROOT / ".venv" / ".vwlog-core-installed")
    return any(s.is_file() and s.read_text().strip() == want for s in stamps)


def test_the_demo_set_up_installs_no_extra() -> None:
    setup = (ROOT / ".ci" / "setup").read_text(encoding="utf-8")
    demo_branch = setup.split('if [ "$mode" = demo ]; then', 1)[1].split("else", 1)[0]
    installs = [line for line in demo_branch.splitlines() if " -e " in line]
    assert installs, demo_branch
    assert all(".[" not in line for line in installs), installs  # no '.[extra,...]'
    assert "-e '.[" in setup  # the full set-up installs the extras
    assert "build_engine" not in demo_branch
    assert "bash .ci/setup --demo --if-needed" in (ROOT / ".ci" / "demo").read_text("utf-8")


@pytest.mark.slow
def test_the_demo_prints_only_its_own_output(tmp_path: Path) -> None:
    if not _installed():
        pytest.skip(".venv is not set up for this pyproject.toml: the demo would install first")
    env = {**os.environ, "VWLOG_STORE": str(tmp_path / "demo.db")}
    env.pop("VWLOG_ENGINE", None)
    done = subprocess.run(
        ["bash", ".ci/demo"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        check=False,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    out = done.stdout.splitlines()
    assert out[0] == "== vwlog validate samples/*.jsonl"
    steps = [line for line in out if line.startswith("== ")]
    assert len(steps) == 6, steps
    noise = re.compile(r"warning|gcc|mypyc|error:|Successfully installed|Requirement", re.I)
    assert [line for line in out if noise.search(line)] == []
    note = "the demo runs the pure-Python engine"
    assert (note in done.stderr) == (not build.is_compiled())
