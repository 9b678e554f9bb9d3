"""Which store a command uses: --store, else VWLOG_STORE, else the per-user default in the XDG
data folder (the same from any folder, so stored matches do not vanish after a ``cd``); what
``vwlog info`` says about it; the note for a ``vwlog.db`` left in the current folder."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from vwlog.api.settings import ApiSettings
from vwlog.cli import main
from vwlog.store.location import default_store_path, store_location

if TYPE_CHECKING:
    from click.testing import CliRunner

SAMPLE = Path(__file__).resolve().parents[2] / "samples" / "full-combat.jsonl"


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An XDG data folder of the test's own, no VWLOG_STORE, and a working folder apart."""
    data = tmp_path / "data"
    monkeypatch.setenv("XDG_DATA_HOME", str(data))
    monkeypatch.delenv("VWLOG_STORE", raising=False)
    work = tmp_path / "work"
    work.mkdir()
    monkeypatch.chdir(work)
    return data


def _info(runner: CliRunner, *args: str) -> dict[str, object]:
    done = runner.invoke(main, [*args, "info", "--format", "json"])
    assert done.exit_code == 0, done.output
    found = json.loads(done.stdout)
    assert isinstance(found, dict)
    return found


def test_the_default_store_is_in_the_xdg_data_folder(runner: CliRunner, home: Path) -> None:
    found = _info(runner)
    assert found["store"] == str(home / "vwlog" / "vwlog.db")
    assert found["store_source"] == "default"
    assert found["store_exists"] is False


def test_without_xdg_data_home_the_default_is_under_local_share(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("HOME", str(tmp_path))
    for unset in ({}, {"XDG_DATA_HOME": ""}, {"XDG_DATA_HOME": "relative/data"}):
        assert default_store_path(unset) == tmp_path / ".local/share/vwlog/vwlog.db"


def test_the_environment_variable_wins_over_the_default(
    runner: CliRunner, home: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("VWLOG_STORE", str(tmp_path / "env.db"))
    found = _info(runner)
    assert (found["store"], found["store_source"]) == (str(tmp_path / "env.db"), "VWLOG_STORE")


def test_the_option_wins_over_the_environment_variable(
    runner: CliRunner, home: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("VWLOG_STORE", str(tmp_path / "env.db"))
    found = _info(runner, "--store", str(tmp_path / "flag.db"))
    assert (found["store"], found["store_source"]) == (str(tmp_path / "flag.db"), "--store")


def test_a_match_imported_in_one_folder_is_listed_from_another(
    runner: CliRunner, home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    done = runner.invoke(main, ["import", str(SAMPLE)])
    assert done.exit_code == 0, done.output
    assert (home / "vwlog" / "vwlog.db").is_file()
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    listed = runner.invoke(main, ["list"])
    assert listed.exit_code == 0, listed.output
    assert "sample-full-combat" in listed.stdout
    assert not (elsewhere / "vwlog.db").exists()
    assert _info(runner)["store_exists"] is True


def test_a_vwlog_db_left_in_the_folder_gets_one_note_and_is_not_read(
    runner: CliRunner, home: Path
) -> None:
    Path("vwlog.db").write_bytes(b"")
    done = runner.invoke(main, ["list"])
    notes = [line for line in done.stderr.splitlines() if "./vwlog.db" in line]
    assert len(notes) == 1, done.stderr
    assert str(home / "vwlog" / "vwlog.db") in notes[0]
    assert "--store vwlog.db" in notes[0]
    named = runner.invoke(main, ["--store", "vwlog.db", "info"])
    assert "./vwlog.db" not in named.stderr


def test_info_in_text_names_the_engine_the_store_its_source_the_key_and_the_language(
    runner: CliRunner, home: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("VWLOG_STORE_KEY", str(tmp_path / "k.key"))
    monkeypatch.setenv("VWLOG_LANG", "en")
    done = runner.invoke(main, ["info"])
    assert done.exit_code == 0, done.output
    lines = done.stdout.splitlines()
    assert lines[0].startswith("vwlog ")
    assert any(line.startswith("engine: ") for line in lines)
    store = next(line for line in lines if line.startswith("store: "))
    assert str(home / "vwlog" / "vwlog.db") in store
    assert "per-user default" in store
    key = next(line for line in lines if line.startswith("store key: "))
    assert str(tmp_path / "k.key") in key
    assert "VWLOG_STORE_KEY" in key
    assert "language: en (from VWLOG_LANG)" in lines


def test_info_says_which_engine_runs(runner: CliRunner, home: Path) -> None:
    from vwlog import build

    assert _info(runner)["engine"] == ("compiled" if build.is_compiled() else "pure")


def test_the_service_settings_use_the_same_default(home: Path) -> None:
    assert ApiSettings.from_env({"XDG_DATA_HOME": str(home)}).store == str(
        home / "vwlog" / "vwlog.db"
    )
    named = {"XDG_DATA_HOME": str(home), "VWLOG_STORE": "x.db"}
    assert ApiSettings.from_env(named).store == "x.db"
    assert store_location(None, named).source == "environment"
    assert os.path.isdir(home / "vwlog")
