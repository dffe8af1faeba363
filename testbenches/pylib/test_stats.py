"""Statistics across seeds (scripts/lib/l3vp/experiment/stats.py) and the
`statistics:` key of experiment files, and the choice of executor
(cli.executor_for). No leon3vp run: the end-to-end test is CTest
experiments.seeds."""
import math
import os
import sys
import types

import pandas as pd
import pytest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "scripts", "lib"))
from l3vp.experiment import cli, spec, stats  # noqa: E402

# t(0.975, df) from printed tables (two-sided 95 %), independent of the code
T975 = {1: 12.706, 2: 4.303, 3: 3.182, 4: 2.776, 5: 2.571, 6: 2.447, 9: 2.262, 10: 2.228,
        19: 2.093, 29: 2.045, 30: 2.042, 60: 2.000, 120: 1.980}


@pytest.mark.parametrize("df", sorted(T975))
def test_t_quantile_against_the_table(df):
    assert stats.t_quantile(0.975, df) == pytest.approx(T975[df], abs=6e-4)


def test_t_quantile_other_levels_and_limits():
    assert stats.t_quantile(0.95, 1) == pytest.approx(6.314, abs=1e-3)     # one-sided 95 %, df 1
    assert stats.t_quantile(0.995, 4) == pytest.approx(4.604, abs=1e-3)
    assert stats.t_quantile(0.975, 10000) == pytest.approx(1.960, abs=1e-3)  # -> normal
    for bad in ((0.4, 3), (1.0, 3), (0.975, 0), (0.975, 2.5)):
        with pytest.raises(ValueError):
            stats.t_quantile(*bad)


def test_describe_by_hand():
    n, mean, std, ci = stats.describe([10, 12, 14, 16])
    assert (n, mean) == (4, 13)
    assert std == pytest.approx(math.sqrt(20 / 3))            # sum of squares 20, n - 1 = 3
    assert ci == pytest.approx(3.182446305 * math.sqrt(20 / 3) / 2)
    assert stats.describe([5]) == (1, 5.0, None, None)
    assert stats.describe([]) == (0, None, None, None)


def test_summarise_cells_in_grid_order():
    df = pd.DataFrame({"loss": [0.1, 0.1, 0.1, 0.05, 0.05, 0.05],
                       "seed": [1, 2, 3, 1, 2, 3],
                       "goodput": [8.0, 10.0, 12.0, 20.0, None, 22.0],
                       "error": ["", "", "", "", "", "leon3vp exit 1"]})
    s = stats.summarise(df, "seed", ["loss", "seed"], ["goodput"])
    assert list(s.columns) == ["loss", "n", "goodput_mean", "goodput_std", "goodput_ci95"]
    assert list(s["loss"]) == [0.1, 0.05]                     # first appearance, not sorted
    a, b = s.iloc[0], s.iloc[1]
    assert (a["n"], a["goodput_mean"], a["goodput_std"]) == (3, 10.0, 2.0)
    assert a["goodput_ci95"] == pytest.approx(4.302652730 * 2 / math.sqrt(3))
    # the failed run is not counted; the empty cell is not a sample
    assert (b["n"], b["goodput_mean"]) == (2, 20.0)
    assert pd.isna(b["goodput_std"]) and pd.isna(b["goodput_ci95"])


LINK = {"link": {"mbps": 100, "to_host": {"loss": "{loss}", "seed": "{seed}"}}, "duration": "1s",
        "experiments": [{"name": "r", "type": "udp_recv", "port": 5}]}


def exp(**kw):
    doc = {"experiment": "t", "firmware": {"program": "net_udptx"}, "metrics": {"c": "stats.cycles"},
           "network": {"scenario": LINK}, "grid": {"loss": [0.01, 0.05], "seed": [1, 2, 3]},
           "statistics": {"over": "seed"}}
    doc.update(kw)
    return spec.Experiment("/tmp/t.yaml", doc)


def test_statistics_key_accepted():
    e = exp(plots=[{"name": "g", "x": "loss", "y": "c"}])
    assert e.stats_over == "seed" and len(e.runs()) == 6
    assert exp(statistics=None).stats_over is None
    # a seed key by network.patch or board.set counts as well
    scen = {"link": {"mbps": 100, "to_host": {"loss": "{loss}"}}, "duration": "1s", "experiments": []}
    assert exp(network={"scenario": scen, "patch": {"link.to_host.seed": "{seed}"}}).stats_over == "seed"
    assert exp(network={"scenario": {**scen, "link": {"mbps": 100}}},
               board={"set": {"net.to_host.loss": "{loss}", "net.to_host.seed": "{seed}"}}).stats_over


@pytest.mark.parametrize("kw, where, words", [
    ({"statistics": {"over": "run"}}, "statistics.over", "not an axis"),
    ({"statistics": {"over": "seed", "level": 0.9}}, "statistics.level", "unknown key"),
    ({"statistics": "seed"}, "statistics", "mapping"),
    ({"grid": {"loss": [0.01], "seed": [1]}}, "grid.seed", "at least two"),
    ({"grid": {"loss": [0.01], "seed": [1, -2]}}, "grid.seed", "not an integer"),
    ({"grid": {"loss": [0.01], "seed": [1, 4294967296]}}, "grid.seed", "not an integer"),
    ({"grid": {"loss": [0.01], "seed": [1, "two"]}}, "grid.seed", "not an integer"),
    ({"grid": {"loss": [0.01], "seed": [1, 2.5]}}, "grid.seed", "not an integer"),
    ({"grid": {"loss": [0.01], "seed": [True, 2]}}, "grid.seed", "not an integer"),
    ({"grid": {"loss": [0.01]}, "zip": [{"seed": [1, 2], "x": [3, 4]}]}, "statistics.over", "zip"),
    ({"plots": [{"name": "g", "x": "seed", "y": "c"}]}, "plots[0].x", "seed axis"),
    ({"plots": [{"name": "g", "x": "loss", "y": "c", "hue": "seed"}]}, "plots[0].hue", "seed axis"),
    ({"metrics": {"c": {"path": "stats.cycles", "diff": {"seed": [1, 2]}}}}, "metrics.c.diff", "seed axis"),
    ({"firmware": {"program": "net_udptx", "params": {"count": "{seed}"}},
      "network": {"scenario": {**LINK, "link": {"mbps": 100, "to_host": {"loss": "{loss}"}}}}},
     "statistics.over", "fills no seed key"),
])
def test_bad_seed_axis_one_line(kw, where, words):
    with pytest.raises(spec.SpecError) as ei:
        exp(**kw)
    msg = str(ei.value)
    assert msg.startswith(where + ":") and words in msg and "\n" not in msg, msg


def test_executor_choice():
    a = types.SimpleNamespace(executor="auto", scheduler=None)
    assert cli.executor_for(a, 1) == "pool"
    assert cli.executor_for(a, cli.POOL_MAX_RUNS) == "pool"
    assert cli.executor_for(a, cli.POOL_MAX_RUNS + 1) == "dask"
    a.executor = "dask"
    assert cli.executor_for(a, 1) == "dask"
    a.executor, a.scheduler = "auto", "tcp://h:1"
    assert cli.executor_for(a, 1) == "dask"
    # doctables' args have no --executor: auto
    assert cli.executor_for(types.SimpleNamespace(scheduler=None), 3) == "pool"


def test_run_tasks_starts_nothing_without_tasks(monkeypatch):
    def boom(*a):
        raise AssertionError("an executor was started for no work")
    monkeypatch.setattr(cli, "_run_pool", boom)
    monkeypatch.setattr(cli, "_run_dask", boom)
    cli.run_tasks([], types.SimpleNamespace(executor="auto", scheduler=None, quiet=True), boom)
