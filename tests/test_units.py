"""--units per-unit in the counting and sweep commands: every header and unit follows it."""

from __future__ import annotations

import json

import pytest
from clirun import run

from bjexact.core.numbers import parse_fraction

TINY = "2,0,0,0,0,2,3,3,3,7"  # quick to solve: A, 6, 7, 8, 9, T


@pytest.mark.parametrize("command", [
    ["count", "--shoe", TINY, "--split-hands", "1", "--shoes", "1", "--serial", "--eor"],
    ["count", "betting", "--shoe", "2,2,2,2,2,2,2,2,2,8", "--split-hands", "1", "--span", "1", "--left", "1",
     "--serial", "--no-griffin"],
])
def test_count_commands_print_per_unit_values_under_per_unit_headers(tmp_path, capsys, command):
    args = [*command, "--quiet", "--store", str(tmp_path)]
    status, percent, err = run(capsys, *args)
    assert status == 0, err
    status, per_unit, err = run(capsys, *args, "--units", "per-unit")
    assert status == 0, err
    assert "% of bet" in percent and "per unit bet" in per_unit
    # the shares of rounds stay percentages; no expected result is printed as one
    assert "% of bet" not in per_unit and "% of the bet" not in per_unit and "EV (%)" not in per_unit
    status, document, err = run(capsys, *args, "--format", "json")
    assert status == 0
    ev = parse_fraction(json.loads(document)["ev"] if "ev" in json.loads(document)
                        else json.loads(document)["by_true_count"][0]["ev"])
    assert f"{float(ev):+.6f}" in per_unit or f"{float(ev):.6f}" in per_unit


def test_sweep_prints_per_unit_effects_under_per_unit_headers(tmp_path, capsys):
    grid = tmp_path / "g.toml"
    grid.write_text(f"[base]\nshoe = [{TINY}]\nsplit_hands = 1\n[grid]\nh17 = [false, true]\n")
    status, out, err = run(capsys, "sweep", str(grid), "--serial", "--quiet", "--units", "per-unit")
    assert status == 0, err
    assert "(per unit bet)" in out and "(%)" not in out and "percentage points" not in out
    status, out, err = run(capsys, "sweep", str(grid), "--serial", "--quiet")
    assert status == 0 and "(% of bet)" in out and "percentage points" in out
