"""The reference study's published figures and the report's scoring
(scripts/lib/l3vp/experiment/report.py, experiments/seed-study/published.yaml;
docs/experiments.md "The reference study"). No leon3vp run: the report is
built over small hand-made result tables.

The first tests go red when the thesis's numbers are dropped or mis-keyed
(a cell whose coordinates are no grid point of its experiment would never
be compared); the others pin the scoring rules: a not comparable table is
shown but never scored, every MISMATCH names its explanation, calibration
cells are not counted as held out, trends are not mismatches.
"""
import glob
import os
import sys

import pytest
import yaml

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "scripts", "lib"))
from l3vp.experiment import report  # noqa: E402
from l3vp.experiment import spec as xspec  # noqa: E402

STUDY = os.path.join(ROOT, "experiments", "seed-study")
PUBLISHED = os.path.join(STUDY, "published.yaml")

# published cells per table: the thesis's tables as printed (Table 9 has 53
# numbers, Table 10 48: no count for 512/1024 B below 50 us, no 350 us row)
CELLS = {"ping_rtt": 39, "ping_rtt_plain": 39, "udp_tx_phases": 20, "udp_rx_phases_generic8": 35,
         "udp_rx_phases_word32": 35, "udp_rx_improvement": 10, "udp_burst_generic8": 53,
         "udp_burst_word32": 48, "tcp_window_rtt": 8, "tcp_window_segment": 8, "tcp_window_delay": 8,
         "tcp_throughput_claim": 1, "tcp_conns_rtt": 10, "tcp_conns_delay": 10, "tcp_conns_throughput": 10,
         "energy_savings": 2, "tcp_loss_trend": 1, "zero_copy_trend": 1}
# timed with the board's GPTIMER, or derived from such figures
NOT_COMPARABLE = {"udp_tx_phases", "udp_rx_phases_generic8", "udp_rx_phases_word32", "udp_rx_improvement",
                  "tcp_window_delay", "tcp_throughput_claim", "tcp_conns_delay", "tcp_conns_throughput"}
# a few numbers from the thesis: table id, coordinates (+ metric), value
SPOT = [("ping_rtt", {"size": 64, "interval": "500us"}, 0.097),
        ("ping_rtt", {"size": 1024, "interval": "100ms"}, 0.58),
        ("ping_rtt", {"size": 500, "interval": "10ms"}, 0.312),
        ("udp_tx_phases", {"metric": "total_us", "size": 1024}, 125.6),
        ("udp_rx_phases_generic8", {"metric": "l4chk_us", "size": 512}, 38.56),
        ("udp_rx_phases_word32", {"metric": "total_us", "size": 64}, 13.32),
        ("udp_rx_improvement", {"metric": "chk_us", "size": 1024}, 39),
        ("udp_burst_generic8", {"size": 64, "delay_us": 20}, 9511),
        ("udp_burst_generic8", {"size": 1024, "delay_us": 300}, 892),
        ("udp_burst_word32", {"size": 256, "delay_us": 45}, 2341),
        ("tcp_window_rtt", {"window": 1500}, 583),
        ("tcp_window_segment", {"window": 700}, 350),
        ("tcp_conns_rtt", {"connections": 9}, 1575),
        ("tcp_conns_throughput", {"connections": 1}, 6.9),
        ("energy_savings", {"size": 1024}, 30)]


@pytest.fixture(scope="module")
def published():
    return report.load_published(PUBLISHED)


def experiments_by_name():
    out = {}
    for f in glob.glob(os.path.join(STUDY, "*.yaml")):
        if os.path.basename(f) != "published.yaml":
            exp = xspec.load(f)
            out[exp.name] = exp
    return out


def axis_values(exp):
    vals = {}
    for names, tuples in exp.axes:
        for i, n in enumerate(names):
            vals[n] = [t[i] for t in tuples]
    return vals


def test_thesis_cells_are_all_there(published):
    by_id = {t["id"]: t for t in published["tables"]}
    for tid, n in CELLS.items():
        assert tid in by_id, f"table {tid} missing"
        assert len(by_id[tid].get("cells") or []) == n, f"{tid}: {len(by_id[tid]['cells'])} cells, thesis has {n}"
    for tid, coords, value in SPOT:
        cells = [c for c in by_id[tid]["cells"] if all(report._same(c.get(k), v) for k, v in coords.items())]
        assert len(cells) == 1 and cells[0]["value"] == value, f"{tid} {coords}: {cells}"


def test_gptimer_tables_not_comparable(published):
    for t in published["tables"]:
        if t["id"] in NOT_COMPARABLE:
            assert t.get("comparable") is False and t["not_comparable"].strip(), t["id"]
        else:
            assert t.get("comparable", True) is True, t["id"]
            # a scored board-timer table would score the figures the thesis got wrong
            assert t["measured_with"] != "board_timer" or t.get("kind") == "trend" or not t.get("cells"), t["id"]


def test_cells_keyed_to_grid_points(published):
    """Every published cell (and calibration cell) sits on a grid point of
    its experiment: a mis-keyed cell would silently never be compared."""
    exps = experiments_by_name()
    for t in published["tables"]:
        assert t["experiment"] in exps, f"{t['id']}: no experiment file named {t['experiment']}"
        vals = axis_values(exps[t["experiment"]])
        axes = list(t["rows"]) + ([t["columns"]] if t.get("columns") else [])
        for k, v in (t.get("where") or {}).items():
            assert any(report._same(v, x) for x in vals[k]), f"{t['id']}: where {k}={v}"
        coords = list(t.get("cells") or []) + list((t.get("calibration") or {}).get("cells") or [])
        for c in coords:
            for k, v in c.items():
                if k in report.CELL_KEYS:
                    continue
                assert k in axes, f"{t['id']}: cell key {k} is not a row or column axis ({axes})"
                assert any(report._same(v, x) for x in vals[k]), f"{t['id']}: {k}={v} is not a grid value"


def test_no_private_paths_in_study():
    for f in glob.glob(os.path.join(STUDY, "*.yaml")):
        with open(f) as fh:
            text = fh.read()
        assert "seeds/" not in text and "/work/" not in text, f  # no path outside the repository


# -- scoring over hand-made results -------------------------------------------------
def fake_result(tmp_path, rows, name="fake"):
    import pandas as pd

    d = tmp_path / name
    d.mkdir()
    (d / "experiment.yaml").write_text(yaml.safe_dump({"experiment": name, "grid": {"size": [64, 1024]}}))
    pd.DataFrame(rows).to_csv(d / "results.csv", index=False)
    return report.Result(str(d))


def table(**kw):
    t = {"id": "t", "experiment": "fake", "metric": "v", "rows": ["size"], "measured_with": "pc"}
    t.update(kw)
    return t


def summary_of(blocks):
    i = next(i for i, b in enumerate(blocks) if b[:3] == ("h", 2, "Summary"))
    return {r[0]: r for r in blocks[i + 2][2]}


def table_text(blocks):
    """The cells of the rendered tables (not the explaining prose)."""
    return str([b for b in blocks if b[0] == "table"])


def test_not_comparable_shown_never_scored(tmp_path):
    res = fake_result(tmp_path, [{"size": 64, "v": 10.0}, {"size": 1024, "v": 100.0}])
    pub = {"tables": [table(id="nc", comparable=False, not_comparable="board timer",
                            cells=[{"size": 64, "value": 1.0}, {"size": 1024, "value": 1000.0}]),
                      table(id="ok", cells=[{"size": 64, "value": 10.5}])]}
    blocks = report.build([res], pub)
    text = table_text(blocks)
    assert "10 / 1 (not comparable)" in text and "100 / 1000 (not comparable)" in text
    assert "MISMATCH" not in text
    s = summary_of(blocks)
    assert s["nc"][4:6] == ["0", "0"] and s["nc"][2] == "no (not comparable)"
    assert s["ok"][4:6] == ["1", "0"]


def test_every_mismatch_names_its_explanation(tmp_path):
    res = fake_result(tmp_path, [{"size": 64, "v": 10.0}, {"size": 1024, "v": 100.0}])
    t = table(cells=[{"size": 64, "value": 20.0}, {"size": 1024, "value": 50.0}],
              explain=[{"side": "low", "why": "board slower per byte"}])
    blocks = report.build([res], {"tables": [t]})
    text = str(blocks)
    assert "10 / 20 (0.50 MISMATCH [1])" in text
    assert "100 / 50 (2.00 MISMATCH [unexplained])" in text
    assert "[1] board slower per byte (1 cell(s))" in text
    assert "1 UNEXPLAINED" in summary_of(blocks)["t"][6]


def test_calibration_cells_are_not_held_out(tmp_path):
    res = fake_result(tmp_path, [{"size": 64, "v": 10.0}, {"size": 1024, "v": 100.0}])
    t = table(cells=[{"size": 64, "value": 10.0}, {"size": 1024, "value": 101.0}],
              calibration={"how": "fitted to 64", "cells": [{"size": 64}]})
    blocks = report.build([res], {"tables": [t]})
    assert "(1.00 calibration)" in str(blocks)
    assert summary_of(blocks)["t"][4] == "1"   # only the held-out cell


def test_trend_and_derived_ratio(tmp_path):
    rows = [{"size": 64, "loss": 0, "v": 10.0}, {"size": 64, "loss": 0.15, "v": 80.0},
            {"size": 1024, "loss": 0, "v": 10.0}, {"size": 1024, "loss": 0.15, "v": 500.0}]
    res = fake_result(tmp_path, rows)
    t = table(kind="trend", derive={"ratio": {"axis": "loss", "base": 0, "other": 0.15}},
              cells=[{"range": [5.7, 18.8]}], explain=[{"side": "high", "why": "timeouts dominate"}])
    blocks = report.build([res], {"tables": [t]})
    text = table_text(blocks)
    assert "8 / 5.7..18.80 (1.00 trend holds)" in text
    assert "50 / 5.7..18.80 (2.66 trend differs [1])" in text
    assert "MISMATCH" not in text
    assert "[1] timeouts dominate (1 cell(s))" in str(blocks)
    assert summary_of(blocks)["t"][6] == "trend holds in 1 of 2 cell(s)"


def test_metric_keyed_cells(tmp_path):
    res = fake_result(tmp_path, [{"size": 64, "v": 10.0, "w": 3.0}])
    t = table(metric=["v", "w"], cells=[{"metric": "w", "size": 64, "value": 3.0}])
    text = str(report.build([res], {"tables": [t]}))
    assert "3 / 3 (1.00)" in text and "10 / 3" not in text


@pytest.mark.parametrize("bad, msg", [
    ({"comparable": False}, "not_comparable"),
    ({"cells": [{"metric": "nope", "value": 1}]}, "metric"),
    ({"explain": [{"why": "two\nlines"}]}, "explain"),
    ({"calibration": {"cells": []}}, "calibration"),
    ({"kind": "guess"}, "kind"),
    ({"derive": {"mean": {}}}, "derive"),
])
def test_bad_published_file(tmp_path, bad, msg):
    p = tmp_path / "pub.yaml"
    p.write_text(yaml.safe_dump({"tables": [table(**bad)]}))
    with pytest.raises(report.ReportError, match=msg):
        report.load_published(str(p))


def test_calibrated_pc_is_one_profile(published):
    """The calibrated PC of ping-rtt.yaml is the one the TCP files use and
    the one published.yaml's calibration text states."""
    ping = xspec.load(os.path.join(STUDY, "ping-rtt.yaml"))
    vals = axis_values(ping)
    i = vals["pc"].index("calibrated")
    cal = {k: vals[k][i] for k in ("rx", "tx", "per_byte", "wake")}
    how = next(t for t in published["tables"] if t["id"] == "ping_rtt")["calibration"]["how"]
    for v in cal.values():
        assert v.replace("us", " us").replace("ns", " ns") in " ".join(how.split()), (v, how)
    for f in ("tcp-window.yaml", "tcp-conns.yaml"):
        with open(os.path.join(STUDY, f)) as fh:
            host = yaml.safe_load(fh)["network"]["scenario"]["host"]
        got = {"rx": host["rx_latency"], "tx": host["tx_latency"], "per_byte": host["rx_per_byte"],
               "wake": host["wake_latency"]}
        assert got == cal and host["tx_per_byte"] == cal["per_byte"], f


def test_docs_run_counts():
    """docs/experiments.md's study table: the runs of each file."""
    with open(os.path.join(ROOT, "docs", "experiments.md")) as fh:
        doc = fh.read().split("## The reference study", 1)[1].split("\n## ", 1)[0]
    rows = [ln.split("|")[1:3] for ln in doc.splitlines() if ln.startswith("| `") and ".yaml`" in ln]
    assert len(rows) == len(glob.glob(os.path.join(STUDY, "*.yaml"))) - 1
    for name, runs in rows:
        exp = xspec.load(os.path.join(STUDY, name.strip().strip("`")))
        assert len(exp.runs()) == int(runs), name
