"""``vwlog`` starts without its commands: the registry that lists them stays true to them, and
``vwlog --help`` (and completing a command's name) imports none of the heavy modules."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from vwlog.cli.base import main
from vwlog.cli.registry import COMMANDS, load_all, source, table

HEAVY = (
    "pydantic",
    "eventsourcing",
    "orjson",
    "vwlog.engine",
    "vwlog.events",
    "vwlog.model.cards",
    "vwlog.model.state",
    "vwlog.projections",
    "vwlog.render",
    "vwlog.rules",
    "vwlog.services",
    "vwlog.store",
    "vwlog.io.logfile",
)
"""What the command list must not import (a prefix stands for its submodules)."""

_PROBE = """
import json, os, sys
from vwlog.cli import main
from vwlog.cli.registry import load_all
if os.environ.get("_LOAD_ALL") == "1":
    load_all()
try:
    main(sys.argv[1:], prog_name="vwlog", standalone_mode=os.environ.get("_STANDALONE") == "1")
except SystemExit:
    pass
sys.stdout.flush()
sys.stderr.write(json.dumps(sorted(sys.modules)))
"""


def _fresh(*args: str, **env: str) -> tuple[str, list[str]]:
    """What ``vwlog ARGS`` prints to stdout in a fresh process, and the modules it imported."""
    done = subprocess.run(
        [sys.executable, "-c", _PROBE, *args],
        capture_output=True,
        text=True,
        check=True,
        env={**os.environ, "COLUMNS": "80", **env},
    )
    return done.stdout, json.loads(done.stderr.splitlines()[-1])


def _heavy(modules: list[str]) -> list[str]:
    return [m for m in modules if any(m == h or m.startswith(h + ".") for h in HEAVY)]


def test_the_registry_is_what_the_commands_say() -> None:
    load_all()
    now = table(main)
    assert now == COMMANDS, f"vwlog.cli.registry.COMMANDS is out of date; now:\n{source(now)}"


@pytest.mark.parametrize("lang", ["en", "id"])
def test_help_imports_no_command(lang: str) -> None:
    out, modules = _fresh("--lang", lang, "--help")
    assert "Commands" in out or "Perintah" in out
    assert _heavy(modules) == []
    assert not [m for m in modules if m.startswith("vwlog.cli.") and m.split(".")[2] in COMMANDS]


def test_completing_a_command_name_imports_no_command() -> None:
    out, modules = _fresh(
        _VWLOG_COMPLETE="bash_complete", COMP_WORDS="vwlog va", COMP_CWORD="1", _STANDALONE="1"
    )
    assert "plain,validate" in out.split()
    assert _heavy(modules) == []


def test_a_command_imports_its_own_module_only_when_asked() -> None:
    _, modules = _fresh("rules", "--help")
    assert "vwlog.cli.rules" in modules
    assert "vwlog.cli.validate" not in modules


@pytest.mark.parametrize("lang", ["en", "id"])
def test_help_from_the_registry_is_the_help_of_the_commands(lang: str) -> None:
    """The command list, made from the registry (nothing imported), is byte for byte the one
    the loaded commands make."""
    lazy, _ = _fresh("--lang", lang, "--help")
    loaded, modules = _fresh("--lang", lang, "--help", _LOAD_ALL="1")
    assert "vwlog.cli.validate" in modules
    assert lazy == loaded
