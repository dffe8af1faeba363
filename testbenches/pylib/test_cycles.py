"""pytest unit tests of scripts/lib/l3vp/cycles.py (CTest pylib.cycles):
the verdict of each kind of change, the table, goldens, region selectors,
and the region names of real firmware ELFs (L3VP_FW_DIR from CTest)."""
import json
import math
import os
import sys

import pytest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "scripts", "lib"))
from l3vp import cycles  # noqa: E402

FW_DIR = os.environ.get("L3VP_FW_DIR")
needs_fw = pytest.mark.skipif(not FW_DIR, reason="L3VP_FW_DIR not set")


def stats(cycles_=1000, instructions=500, idle=100, regions=None, reason="exit", status=0):
    """A --stats dict with the keys cycles.figures reads."""
    return {
        "cycles": cycles_, "idle_cycles": idle, "sim_time_ps": cycles_ * 25000,
        "instructions": {"total": instructions}, "traps": 3,
        "stop": {"reason": reason, "exit_status": status},
        "timing": {"icache": {"misses": 7}, "dcache": {"read_misses": 9},
                   "stalls": {s: 1 for s in cycles.STALLS}},
        "regions": regions if regions is not None else [region(0x10, 200)],
    }


def region(rid, cyc, entries=4, instructions=80, energy=None):
    r = {"id": rid, "entries": entries, "cycles": cyc, "instructions": instructions, "idle_cycles": 0,
         "icache_misses": 1, "dcache_misses": 2, "traps": 0, "stalls": {s: 0 for s in cycles.STALLS}}
    if energy is not None:
        r["energy_fj"] = energy
    return r


def verdicts(rows):
    return {(r.region, r.metric): r.verdict for r in rows if r.verdict != cycles.SAME}


# ---- figures -----------------------------------------------------------------

def test_figures_paths():
    f = cycles.figures(stats(regions=[region(0x10, 200, energy=55)]), {0x10: "net.ipchk"})
    assert f["run"]["cycles"] == 1000
    assert f["run"]["instructions"] == 500
    assert f["run"]["dcache_read_misses"] == 9
    assert f["run"]["stalls.bus"] == 1
    assert f["run"]["stop_reason"] == "exit"
    assert "energy_fj" not in f["run"]  # no --energy: no energy figures
    r = f["regions"][0x10]
    assert r["name"] == "net.ipchk" and r["dcache_read_misses"] == 2 and r["cpu_energy_fj"] == 55


@pytest.mark.parametrize("bad", [[], {"cycles": 1}, {"regions": []}, {"cycles": 1, "regions": [{"x": 1}]}])
def test_figures_rejects_non_stats(bad):
    with pytest.raises(ValueError):
        cycles.figures(bad)


# ---- verdicts ------------------------------------------------------------------

def test_identical():
    f = cycles.figures(stats())
    rows = cycles.compare(f, f)
    assert all(r.verdict == cycles.SAME for r in rows)
    assert not cycles.failed(rows, strict=True)
    assert cycles.format_table(rows) == "(no differences)"


def test_cost_increase_is_a_regression_and_decrease_an_improvement():
    old = cycles.figures(stats(regions=[region(0x10, 200)]))
    new = cycles.figures(stats(cycles_=1010, regions=[region(0x10, 190)]))
    v = verdicts(cycles.compare(old, new))
    assert v[("(run)", "cycles")] == cycles.REGRESSION
    assert v[("0x00000010", "cycles")] == cycles.IMPROVEMENT
    assert v[("(run)", "sim_time_ps")] == cycles.CHANGED  # info: neither better nor worse
    assert cycles.failed(cycles.compare(old, new))
    # Only the improvement: passes, unless strict.
    rows = cycles.compare(old, new, regions={0x10})
    assert not cycles.failed(rows) and cycles.failed(rows, strict=True)


def test_tolerance_is_in_percent_and_inclusive():
    old = cycles.figures(stats(cycles_=1000))
    new = cycles.figures(stats(cycles_=1020))
    rows = cycles.compare(old, new, tolerance=2.0, metrics={"cycles"})
    assert verdicts(rows) == {("(run)", "cycles"): cycles.WITHIN}
    assert not cycles.failed(rows, strict=True)
    rows = cycles.compare(old, new, tolerance=1.99, metrics={"cycles"})
    assert verdicts(rows) == {("(run)", "cycles"): cycles.REGRESSION}


def test_info_changes_fail_only_when_strict():
    old = cycles.figures(stats(idle=100))
    new = cycles.figures(stats(idle=900))
    rows = cycles.compare(old, new)
    assert verdicts(rows) == {("(run)", "idle_cycles"): cycles.CHANGED}
    assert not cycles.failed(rows) and cycles.failed(rows, strict=True)


def test_a_different_stop_always_fails():
    old = cycles.figures(stats())
    new = cycles.figures(stats(reason="error_mode", status=3))
    rows = cycles.compare(old, new, tolerance=1000)
    assert verdicts(rows) == {("(run)", "stop_reason"): cycles.REGRESSION,
                              ("(run)", "exit_status"): cycles.REGRESSION}


def test_lost_region_fails_new_region_is_reported():
    old = cycles.figures(stats(regions=[region(1, 10), region(2, 20)]), {1: "a", 2: "b"})
    new = cycles.figures(stats(regions=[region(2, 20), region(3, 30)]), {2: "b", 3: "c"})
    rows = cycles.compare(old, new)
    assert verdicts(rows) == {("a", "cycles"): cycles.MISSING, ("c", "cycles"): cycles.NEW}
    assert cycles.failed(rows)
    rows = cycles.compare(old, new, regions={2, 3})
    assert not cycles.failed(rows) and cycles.failed(rows, strict=True)


def test_percent():
    assert cycles.Row("r", "cycles", 200, 250, None).percent == 25.0
    assert cycles.Row("r", "cycles", 0, 5, None).percent == math.inf
    assert cycles.Row("r", "cycles", 0, 0, None).percent == 0.0
    assert cycles.Row("r", "stop_reason", "exit", "idle", None).percent is None


# ---- the table -----------------------------------------------------------------

def test_table_columns():
    old = cycles.figures(stats(regions=[region(0x4e455201, 50113)]), {0x4e455201: "net_rx"})
    new = cycles.figures(stats(regions=[region(0x4e455201, 52619)]), {0x4e455201: "net_rx"})
    lines = cycles.format_table(cycles.compare(old, new)).splitlines()
    assert lines[0].split() == ["region", "metric", "old", "new", "change", "%"]
    assert len(lines) == 2
    assert lines[1].split() == ["net_rx", "cycles", "50113", "52619", "+2506", "+5.00%", "REGRESSION"]
    full = cycles.format_table(cycles.compare(old, new), all_rows=True).splitlines()
    assert len(full) > 10 and full[1].split()[:2] == ["(run)", "stop_reason"]


# ---- goldens and files ---------------------------------------------------------

def test_golden_round_trip(tmp_path):
    f = cycles.figures(stats(regions=[region(1, 10), region(0x43530000, 20)]), {1: "loop"})
    g = cycles.to_golden(f, command={"elf": "x.elf"}, program="x")
    assert list(g["regions"]) == ["loop", "0x43530000"]
    assert g["regions"]["loop"]["id"] == 1
    p = tmp_path / "x.json"
    p.write_text(json.dumps(g))
    back = cycles.load(str(p))
    assert back == f
    assert not cycles.failed(cycles.compare(back, f), strict=True)


def test_golden_matches_stats_by_id(tmp_path):
    """A golden (names) against a bare --stats file (ids only)."""
    named = cycles.figures(stats(regions=[region(7, 10)]), {7: "phase"})
    g = tmp_path / "g.json"
    g.write_text(json.dumps(cycles.to_golden(named)))
    s = tmp_path / "s.json"
    s.write_text(json.dumps(stats(regions=[region(7, 11)])))
    rows = cycles.compare(cycles.load(str(g)), cycles.load(str(s)))
    assert verdicts(rows) == {("phase", "cycles"): cycles.REGRESSION}


@pytest.mark.parametrize("text, msg", [
    ("{nope", "not valid JSON"),
    ('{"format": "other/9"}', "not a cycles golden"),
    ('{"format": "leon3vp-cycles/1", "run": {}}', "without \"run\" and \"regions\""),
    ('{"format": "leon3vp-cycles/1", "run": {}, "regions": {"a": {}}}', "region 'a' without an integer id"),
    ('[1, 2]', "not a leon3vp --stats file"),
])
def test_load_errors_name_the_file(tmp_path, text, msg):
    p = tmp_path / "in.json"
    p.write_text(text)
    with pytest.raises(ValueError) as e:
        cycles.load(str(p))
    assert str(p) in str(e.value) and msg in str(e.value)


def test_resolve_regions():
    f = cycles.figures(stats(regions=[region(0x10, 1), region(0x20, 2)]), {0x10: "net.ipchk"})
    assert cycles.resolve_regions([f], ["net.ipchk", "0x20", "run"]) == {0x10, 0x20, cycles.RUN}
    assert cycles.resolve_regions([f], ["32"]) == {0x20}
    with pytest.raises(ValueError, match="no region 'net.copy'"):
        cycles.resolve_regions([f], ["net.copy"])


def test_golden_argv():
    argv = cycles.golden_argv("vp", "/fw", "/g", {"elf": "a.elf", "scenario": "../s.json", "energy": "flat",
                                                  "fw_params": {"count": 8}, "max_time": "1s"}, "S", "U")
    assert argv == ["vp", "-q", "--stats", "S", "--uart-out", "U", "--scenario", "/g/../s.json",
                    "--energy", "flat", "--max-time", "1s", "--fw-param", "count=8", "/fw/a.elf"]


# ---- region names of real ELFs -------------------------------------------------

@needs_fw
def test_region_names_prof_regions():
    assert cycles.region_names(os.path.join(FW_DIR, "prof_regions.elf")) == \
        {1: "loop_cold", 2: "loop_warm", 3: "sum_words"}


@needs_fw
def test_region_names_network_phases():
    names = set(cycles.region_names(os.path.join(FW_DIR, "net_ping.elf")).values())
    assert {"net.driver", "net.copy", "net.ipchk", "net.l4chk", "net.proto", "net.appcopy", "net.app",
            "net_rx", "net_tx", "net_timer", "net_rxframe"} == names


@needs_fw
def test_region_names_none_and_not_elf(tmp_path):
    assert cycles.region_names(os.path.join(FW_DIR, "bench_compute_short.elf")) == {}
    p = tmp_path / "x.elf"
    p.write_bytes(b"not an elf")
    with pytest.raises(ValueError, match="not an ELF"):
        cycles.region_names(str(p))


def test_hotspots_and_row_limit():
    names = {1: "net.ipchk", 2: "net.l4chk", 3: "net.app"}
    old = cycles.figures(stats(regions=[region(1, 100), region(2, 200), region(3, 300)]), names)
    new = cycles.figures(stats(regions=[region(1, 108), region(2, 190), region(3, 300, instructions=81)]), names)
    rows = cycles.compare(old, new)
    assert cycles.hotspots(rows, "cycles") == "net.ipchk +8 (+8.00%), net.l4chk -10 (-5.00%)"
    assert cycles.hotspots(rows, "cycles", n=1) == "net.ipchk +8 (+8.00%)"
    assert cycles.hotspots(rows, "instructions") == "net.app +1 (+1.25%)"
    assert cycles.hotspots(rows, "traps") == ""
    lines = cycles.format_table(rows, max_rows=2).splitlines()
    assert len(lines) == 4 and lines[-1] == "... 1 more rows"
