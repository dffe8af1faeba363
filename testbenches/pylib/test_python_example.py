"""examples/python/l3vp_tour.py (docs/python.md) runs, and what it prints
is what the files it leaves say: the example of the l3vp package cannot
rot. L3VP_VP and L3VP_FW_DIR come from CTest."""
import json
import os
import pathlib
import subprocess
import sys

import pandas as pd
import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "python" / "l3vp_tour.py"
VP = os.environ.get("L3VP_VP")
FW_DIR = os.environ.get("L3VP_FW_DIR")


@pytest.mark.skipif(not (VP and FW_DIR), reason="L3VP_VP/L3VP_FW_DIR not set")
def test_tour_runs_and_tells_the_truth(tmp_path):
    p = subprocess.run([sys.executable, str(EXAMPLE), "--vp", VP, "--fw-dir", FW_DIR, "--out", str(tmp_path)],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, timeout=240,
                       stdin=subprocess.DEVNULL)
    assert p.returncode == 0, p.stderr
    assert p.stderr == ""
    got = dict(line.split(": ", 1) for line in p.stdout.splitlines())
    stats = json.loads((tmp_path / "run" / "stats.json").read_text())
    res = json.loads((tmp_path / "run" / "results.json").read_text())
    ping = next(e for e in res["experiments"] if e["name"] == "ping")
    assert int(got["run.exit"]) == 0
    assert int(got["run.cycles"]) == stats["cycles"] > 0
    assert int(got["run.icache_misses"]) == stats["timing"]["icache"]["misses"]
    region = next(r for r in stats["regions"] if r["id"] == 0x4E455201)
    assert int(got["run.net_input_entries"]) == region["entries"] >= 6
    assert int(got["run.ping_received"]) == ping["received"] == 5
    assert float(got["run.rtt_avg_us"]) == pytest.approx(ping["rtt_avg_ps"] / 1e6, abs=5e-4)
    assert int(got["run.echo_replies"]) == 6
    # the sweep: 4 runs of the shipped example, read back independently
    df = pd.read_csv(tmp_path / "sweep" / "results.csv", keep_default_na=False)
    assert int(got["sweep.runs"]) == len(df) == 4
    for size in (64, 1472):
        want = " ".join(f"{iv}={df[(df['size'] == size) & (df['interval'] == iv)]['rtt_avg_us'].iloc[0]:.3f}"
                        for iv in ("100ms", "500us"))
        assert got[f"sweep.rtt_avg_us[{size}]"] == want
    # the PC's wake-up (the template's 28 us, paid by 9 of the 10 probes)
    assert float(got["sweep.wake_us_per_probe"]) == pytest.approx(28 * 9 / 10, abs=0.01)
