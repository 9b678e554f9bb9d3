"""A simulation spec is checked, and its directory made, by one function, whether the matches
are generated here or on a cluster."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest
from click.testing import CliRunner

from vwlog.cli import main
from vwlog.io.errors import SharedOutputNeededError
from vwlog.io.pools import load_pool
from vwlog.model.errors import InvalidParameterError
from vwlog.services.cluster import prepare_simulation
from vwlog.services.simulate import SimulationSpec, simulate_to

if TYPE_CHECKING:
    from pathlib import Path


def test_a_cluster_simulation_takes_the_specs_a_local_one_takes(tmp_path: Path) -> None:
    """Six players in two teams (3 on 3) is generated on a cluster as here, and a spec that
    neither can generate is refused with the same error."""
    three_on_three = SimulationSpec(seed=1, matches=2, players=6, teams=2)
    assert prepare_simulation(three_on_three, tmp_path / "out") == str(tmp_path / "out")
    assert (tmp_path / "out").is_dir()
    impossible = SimulationSpec(seed=1, matches=2, players=4, teams=3)
    with pytest.raises(InvalidParameterError) as on_cluster:
        prepare_simulation(impossible, tmp_path / "x")
    with pytest.raises(InvalidParameterError) as here:
        simulate_to(load_pool(), impossible, tmp_path / "y")
    assert str(on_cluster.value) == str(here.value)
    assert on_cluster.value.parameter == "teams"
    assert not (tmp_path / "x").exists()
    assert not (tmp_path / "y").exists()
    with pytest.raises(SharedOutputNeededError):
        prepare_simulation(three_on_three, None)


def test_an_impossible_spec_names_the_option() -> None:
    result = CliRunner().invoke(main, ["simulate", "--players", "4", "--teams", "3"])
    assert result.exit_code == 2
    assert result.stderr.startswith("Error: --teams: teams no match format has 4 players")


def test_a_directory_that_cannot_be_made_is_a_one_line_error(tmp_path: Path) -> None:
    (tmp_path / "file").write_text("")
    out = tmp_path / "file" / "out"
    result = CliRunner().invoke(main, ["simulate", "-n", "2", "-o", str(out)])
    assert result.exit_code == 2
    assert result.stderr.startswith(f"Error: cannot write {str(out)!r}: ")
    assert "Traceback" not in result.output
