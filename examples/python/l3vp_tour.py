#!/usr/bin/python3
"""The l3vp Python package in one script (docs/python.md): run the board,
read what the run wrote, then run a small sweep and load its table into
pandas.

    examples/python/l3vp_tour.py [--vp build/sim/leon3vp] [--fw-dir build/firmware] [--out DIR]

1. One leon3vp run of net_ping against the simulated PC (the scenario of
   experiments/examples/ping.scenario.json, filled in here): exit status,
   --stats (cycles, a statistic by dotted path, a region), the host's
   results (ping RTTs) and the firmware's JSON result lines on the UART.
2. A sweep: scripts/experiment runs the shipped example
   experiments/examples/ping-sizes.yaml on two of its sizes and two of its
   intervals (--subset), and l3vp.experiment.load_table() reads the table.

Prints a few `name: value` lines. The test pylib.python_example runs it
and checks them against the files it leaves in --out.
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "scripts", "lib"))   # the package lives in scripts/lib
import l3vp  # noqa: E402
from l3vp.experiment import load_table  # noqa: E402

EXAMPLES = os.path.join(ROOT, "experiments", "examples")


def ping_scenario(path, size, count):
    """The example template with its placeholders filled in by hand."""
    with open(os.path.join(EXAMPLES, "ping.scenario.json")) as f:
        scen = json.load(f)
    ping = next(e for e in scen["experiments"] if e["name"] == "ping")
    ping.update(size=size, count=count, interval="10ms")
    with open(path, "w") as f:
        json.dump(scen, f)
    return path


def one_run(vp, fw_dir, work):
    """1. Run the board once and read its outputs."""
    scen = ping_scenario(os.path.join(work, "scenario.json"), size=256, count=5)
    r = l3vp.run(vp, os.path.join(fw_dir, "net_ping.elf"), quiet=True, scenario=scen,
                 stats=True, net_results=True, uart=True, max_time="1s",
                 fw_params={"count": 6},          # the warm-up echo and the five measured
                 workdir=work, timeout=120)
    if r.returncode != 0:
        sys.exit(f"l3vp_tour: leon3vp exit {r.returncode}: {r.last_stderr_line()}")
    st = r.stats                                   # --stats JSON (docs/stats-schema.md)
    print(f"run.exit: {r.returncode}")
    print(f"run.cycles: {st['cycles']}")
    print(f"run.icache_misses: {l3vp.stats_get(st, 'timing.icache.misses')}")
    net_input = l3vp.regions(st).get(0x4E455201)    # net_input() of one frame (docs/timing.md "Regions")
    print(f"run.net_input_entries: {net_input['entries'] if net_input else 0}")
    ping = next(e for e in r.net_results["experiments"] if e["name"] == "ping")
    print(f"run.ping_received: {ping['received']}")
    print(f"run.rtt_avg_us: {ping['rtt_avg_ps'] / 1e6:.3f}")
    result = l3vp.lines_by_type(r.lines())["result"][0]   # the firmware's {"type": "result", ...} line
    print(f"run.echo_replies: {result['echo_tx']}")


def sweep(vp, fw_dir, out):
    """2. A small sweep with the experiment tool, its table in pandas."""
    cmd = [sys.executable, os.path.join(ROOT, "scripts", "experiment"), "run",
           os.path.join(EXAMPLES, "ping-sizes.yaml"), "--out", out, "--vp", vp, "--fw-dir", fw_dir,
           "--subset", "size=64,1472", "--subset", "interval=500us,100ms", "--quiet"]
    p = subprocess.run(cmd, stdin=subprocess.DEVNULL)
    if p.returncode != 0:
        sys.exit(f"l3vp_tour: experiment exit {p.returncode}")
    df = load_table(out)                            # results.csv: one row per run
    ok = df[df["error"] == ""]
    print(f"sweep.runs: {len(df)}")
    table = ok.pivot(index="size", columns="interval", values="rtt_avg_us")
    for size, row in table.iterrows():
        print(f"sweep.rtt_avg_us[{size}]: " + " ".join(f"{iv}={row[iv]:.3f}" for iv in table.columns))
    slow = ok[ok["interval"] == "100ms"]["rtt_avg_us"].mean() - ok[ok["interval"] == "500us"]["rtt_avg_us"].mean()
    print(f"sweep.wake_us_per_probe: {slow:.3f}")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--vp", default=os.path.join(ROOT, "build", "sim", "leon3vp"))
    ap.add_argument("--fw-dir", default=os.path.join(ROOT, "build", "firmware"))
    ap.add_argument("--out", help="where to keep the run's files and the sweep (default: a temporary folder)")
    a = ap.parse_args()
    out = a.out or tempfile.mkdtemp(prefix="l3vp-tour-")
    os.makedirs(os.path.join(out, "run"), exist_ok=True)
    one_run(a.vp, a.fw_dir, os.path.join(out, "run"))
    sweep(a.vp, a.fw_dir, os.path.join(out, "sweep"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
