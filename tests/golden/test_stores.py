"""A store written by an earlier vwlog still reads and verifies with this one.

``tests/golden/stores/vwlog-0.1.0.sqlite`` (160 KB) was written by vwlog 0.1.0, before the
rules moved behind the game seam, with the installation key ``vwlog-0.1.0.key`` beside it:

    VWLOG_STORE_KEY=tests/golden/stores/vwlog-0.1.0.key \\
      vwlog --store sqlite:///tests/golden/stores/vwlog-0.1.0.sqlite import \\
      samples/absolute-victory.jsonl samples/judge-backup.jsonl \\
      samples/invalid/damage-over-atk.jsonl

It holds three matches: one won, one with a judge's back-up (voided events), one illegal (so
flagged), and two snapshots (of the illegal one, after seq 100 and 200). Never regenerate it:
its point is that it was written by the old code. A later store format gets a file of its own.

Every test works on a copy (a verify with ``--repair`` writes). Two readers:

* **the installation that wrote it** (``VWLOG_STORE_KEY`` names the committed key): the catalog
  entries are vouched for, every chain is intact, the verdicts are those of the sample files,
  and each export is the sample file byte for byte. A snapshot written in an older snapshot
  format is reported as derived data that readers replay instead (``derived`` in the JSON),
  which ``verify --repair`` rebuilds; nothing else may be reported.
* **another machine** (a fresh per-user key, created on first use, as on any machine the file
  is copied to): the HMAC tags of the derived data do not hold under its key, so every catalog
  entry is listed as not vouched for (``vouched: false``) and ``verify`` reports it as altered
  derived data (exit 1), as it does the snapshots; the records still verify (chain intact,
  seal, the same verdicts), ``show`` replays the records instead of using a snapshot, and
  ``export`` still writes the sample file byte for byte, with a warning and exit 1.
  ``verify --repair`` rebuilds the snapshots under the new key, but the catalog entries stay
  unvouched: the facts of the import (the seal's origin, the source file, the verdict on it)
  cannot be vouched for by a machine that did not see the import (importing the exported logs
  into the same store again changes nothing: they are "unchanged"). Importing them into a new
  store is how another machine vouches for them.
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

from vwlog.cli import main

pytestmark = pytest.mark.golden

ROOT = Path(__file__).resolve().parents[2]
STORES = Path(__file__).resolve().parent / "stores"
STORE = STORES / "vwlog-0.1.0.sqlite"
KEY = STORES / "vwlog-0.1.0.key"
MATCHES = {
    "sample-absolute-victory": ROOT / "samples" / "absolute-victory.jsonl",
    "sample-judge-backup": ROOT / "samples" / "judge-backup.jsonl",
    "invalid-damage-over-atk": ROOT / "samples" / "invalid" / "damage-over-atk.jsonl",
}
VERDICTS = {
    "sample-absolute-victory": "OK",
    "sample-judge-backup": "OK",
    "invalid-damage-over-atk": "ILLEGAL",
}
SNAPSHOT_STALE = "is unreadable or was not made from that record"
CATALOG_UNVOUCHED = "the catalog entry is not as vwlog wrote it here"

Vwlog = Callable[..., Result]


def _vwlog(tmp_path: Path, key: Path | None) -> Vwlog:
    """``vwlog --lang en --store COPY ARGS`` on a copy of the store, with ``key`` as the
    installation's key (``None``: the per-user one, made on first use) and per-user folders of
    the test's own."""
    copy = tmp_path / "store.sqlite"
    shutil.copyfile(STORE, copy)
    env = {
        "VWLOG_STORE": None,
        "VWLOG_STORE_KEY": None if key is None else str(key),
        "XDG_DATA_HOME": str(tmp_path / "data"),
        "XDG_CONFIG_HOME": str(tmp_path / "config"),
        "NO_COLOR": "1",
    }

    def run(*args: str) -> Result:
        return CliRunner(env=env).invoke(
            main, ["--lang", "en", "--store", f"sqlite:///{copy}", *args], prog_name="vwlog"
        )

    return run


@pytest.fixture
def same_installation(tmp_path: Path) -> Vwlog:
    return _vwlog(tmp_path, KEY)


@pytest.fixture
def another_machine(tmp_path: Path) -> Vwlog:
    return _vwlog(tmp_path, None)


def _verify(vwlog: Vwlog, *options: str) -> tuple[int, dict[str, dict[str, Any]]]:
    result = vwlog("verify", "--format", "json", *options, *MATCHES)
    assert result.exception is None or isinstance(result.exception, SystemExit), result.output
    return result.exit_code, {entry["match_id"]: entry for entry in json.loads(result.stdout)}


def _file_heads() -> dict[str, str]:
    """The head hash of each sample file, as ``verify`` reads it from the file."""
    result = CliRunner().invoke(
        main, ["verify", "--format", "json", *(str(p) for p in MATCHES.values())]
    )
    heads = [entry["head_hash"] for entry in json.loads(result.stdout)]
    return dict(zip(MATCHES, heads, strict=True))


def test_the_store_is_small_and_its_key_is_beside_it() -> None:
    assert STORE.stat().st_size < 1_000_000
    assert len(bytes.fromhex(KEY.read_text("ascii").strip())) == 32


def test_the_installation_that_wrote_it_lists_its_matches_vouched_for(
    same_installation: Vwlog,
) -> None:
    result = same_installation("list", "--format", "json")
    assert result.exit_code == 0, result.output
    listed = {m["match_id"]: m for m in json.loads(result.stdout)}
    assert set(listed) == set(MATCHES)
    heads = _file_heads()
    for match_id, entry in listed.items():
        assert entry["vouched"] is True, match_id
        assert entry["head_hash"] == heads[match_id], match_id
        assert entry["flagged"] is (VERDICTS[match_id] != "OK"), match_id


@pytest.mark.parametrize("match_id", MATCHES)
def test_each_export_is_the_sample_file_byte_for_byte(
    same_installation: Vwlog, tmp_path: Path, match_id: str
) -> None:
    out = tmp_path / "exported.jsonl"
    result = same_installation("export", match_id, "-o", str(out))
    assert result.exit_code == 0, result.output
    assert out.read_bytes() == MATCHES[match_id].read_bytes()


def test_the_installation_that_wrote_it_verifies_every_match(same_installation: Vwlog) -> None:
    status, found = _verify(same_installation)
    assert status == 1  # invalid-damage-over-atk is ILLEGAL
    for match_id, entry in found.items():
        assert entry["verdict"] == VERDICTS[match_id], match_id
        assert entry["integrity"]["chain"] == "intact", match_id
        assert entry["sealed"] is True, match_id
        # only snapshots of an older snapshot format may be reported (readers replay instead)
        assert all(SNAPSHOT_STALE in d for d in entry["derived"]), entry["derived"]
    _verify(same_installation, "--repair")
    status, found = _verify(same_installation)
    assert status == 1
    for match_id, entry in found.items():
        assert entry["derived"] == [], match_id
        assert entry["ok"] is (VERDICTS[match_id] == "OK"), match_id


@pytest.mark.parametrize("at", [None, "150"])
def test_a_stored_board_is_the_board_of_the_file(same_installation: Vwlog, at: str | None) -> None:
    where = [] if at is None else ["--at", at]
    stored = same_installation("show", *where, "invalid-damage-over-atk")
    assert stored.exit_code == 0, stored.output
    sample = str(MATCHES["invalid-damage-over-atk"])
    from_file = CliRunner().invoke(main, ["--lang", "en", "show", *where, sample])
    assert stored.stdout == from_file.stdout


def test_on_another_machine_the_records_verify_and_the_derived_data_is_flagged(
    another_machine: Vwlog, tmp_path: Path
) -> None:
    listed = json.loads(another_machine("list", "--format", "json").stdout)
    assert {m["match_id"]: m["vouched"] for m in listed} == dict.fromkeys(MATCHES, False)
    status, found = _verify(another_machine)
    assert status == 1
    for match_id, entry in found.items():
        assert entry["verdict"] == VERDICTS[match_id], match_id
        assert entry["integrity"]["chain"] == "intact", match_id
        assert entry["ok"] is False, match_id
        assert any(CATALOG_UNVOUCHED in d for d in entry["derived"]), entry["derived"]
    for match_id, sample in MATCHES.items():
        out = tmp_path / f"{match_id}.jsonl"
        result = another_machine("export", match_id, "-o", str(out))
        assert result.exit_code == 1, result.output
        assert "not as vwlog wrote it here" in result.stderr
        assert out.read_bytes() == sample.read_bytes()
    _verify(another_machine, "--repair")
    status, found = _verify(another_machine)
    for match_id, entry in found.items():
        assert [d for d in entry["derived"] if CATALOG_UNVOUCHED not in d] == [], match_id
        assert any(CATALOG_UNVOUCHED in d for d in entry["derived"]), match_id
    fresh = tmp_path / "fresh.sqlite"
    logs = [str(tmp_path / f"{match_id}.jsonl") for match_id in MATCHES]
    imported = another_machine("--store", f"sqlite:///{fresh}", "import", *logs)
    assert imported.exit_code == 1, imported.output  # one of them is illegal
    listed = another_machine("--store", f"sqlite:///{fresh}", "list", "--format", "json")
    assert {m["match_id"]: m["vouched"] for m in json.loads(listed.stdout)} == dict.fromkeys(
        MATCHES, True
    )
