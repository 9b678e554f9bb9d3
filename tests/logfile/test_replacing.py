"""`replacing`: output files are replaced whole, through a temporary file no one can plant."""

from __future__ import annotations

import os
import stat
from typing import TYPE_CHECKING

import pytest

from vwlog.io.logfile import replacing
from vwlog.model.errors import OutputError

if TYPE_CHECKING:
    from pathlib import Path


def test_the_target_is_replaced_whole_with_the_umask_s_permissions(tmp_path: Path) -> None:
    target = tmp_path / "out.jsonl"
    target.write_bytes(b"old")
    with replacing(target) as out:
        out.write(b"new")
    assert target.read_bytes() == b"new"
    mask = os.umask(0)
    os.umask(mask)
    assert stat.S_IMODE(target.stat().st_mode) == 0o666 & ~mask
    assert [p.name for p in tmp_path.iterdir()] == ["out.jsonl"]


def test_an_error_while_writing_leaves_the_target_as_it_was(tmp_path: Path) -> None:
    target = tmp_path / "out.jsonl"
    target.write_bytes(b"old")

    def write_half() -> None:
        with replacing(target) as out:
            out.write(b"half")
            raise RuntimeError

    with pytest.raises(RuntimeError):
        write_half()
    assert target.read_bytes() == b"old"
    assert [p.name for p in tmp_path.iterdir()] == ["out.jsonl"]


def test_a_link_planted_at_the_old_temporary_name_is_left_alone(tmp_path: Path) -> None:
    victim = tmp_path / "victim"
    victim.write_bytes(b"keep")
    target = tmp_path / "out.jsonl"
    (tmp_path / ".out.jsonl.tmp").symlink_to(victim)
    with replacing(target) as out:
        out.write(b"new")
    assert victim.read_bytes() == b"keep"
    assert target.read_bytes() == b"new"


@pytest.mark.parametrize("name", ["", "somewhere/"])
def test_no_file_name_is_an_output_error(name: str) -> None:
    with pytest.raises(OutputError, match="no file name given"), replacing(name):
        pass


def test_a_directory_is_an_output_error(tmp_path: Path) -> None:
    with pytest.raises(OutputError, match="is a directory"), replacing(tmp_path):
        pass
