#!/usr/bin/python3
"""Tests of scripts/experiment (docs/experiments.md), one per --test NAME:

  local_sweep  ping at 2 sizes x 2 intervals on a local Dask cluster: the
               table's rows and columns, every metric against a direct
               leon3vp run; a rerun invokes leon3vp not once (a wrapper
               counts the invocations) and gives the same table;
               --no-cache runs again.
  set_sweep    bench_compute_short with dcache.way_kib 1/4 x icache.ways
               1/2 (--set): cycles and D-cache misses against direct runs.
  variant      net_ping with NET_PHASES ON/OFF built on demand: two build
               directories, two firmware hashes, the phases line only in
               the ON build.
  cluster      a real dask-scheduler and two dask-worker processes on
               localhost (free ports, 1 process x 1 thread each): the
               local_sweep grid through --scheduler gives the same table
               as the local run; every run ran on one of the two workers.
  bad_files    broken experiment files: exit 2 and exactly one line that
               names the problem.
  example      experiments/examples/ping-sizes.yaml with a reduced grid:
               table, raw runs, plots (PNG and SVG); no ARP in the RTTs
               (the warm-up), the PC's wake-up in the 100 ms line only.
  elf          firmware: {elf: PATH} (a copy of hello.elf, relative path):
               the table against a direct run, the ELF's hash in the
               table; a rerun is cached, a changed ELF at the same path
               gives a new run id and runs; report and cycles-compare on
               the runs.
  cmake        an out-of-tree CMake project (a temp folder: one program
               with a named region, built from the BSP sources) with its
               own build option as an axis: two build directories of its
               own, its option checked against its CMakeLists (exit 2),
               a diff metric per loop iteration equal to the hand-computed
               one, cycles-compare naming the region from the record's ELF.
  stack_axis   program: "net_{app}" with app [ping, hello]: one axis
               switches programs, both answer the pings.
  metric_gate  a wrong metric path: a key not in --list-stats fails before
               any run; a wrong region fails after the first run (the only
               run record, one leon3vp run), exit 2, one line naming the
               metric and the path; with a cached run, no run at all.
  diff_metric  ping count 2 and 4 (sizes 64 and 1024): per-echo cycles as
               the difference of the two runs, equal to the difference
               computed by hand from the table's plain columns.
  seeds        experiments/examples/tcp-loss-seeds.yaml (TCP into the board,
               2 loss rates x 6 seeds): summary.csv's mean, std and 95 %
               CI against a computation from results.csv, the seeds give
               different runs, a bad seed axis is exit 2 with one line.
  executors    the local_sweep grid with --executor pool and --executor
               dask: the same table cell by cell and the same records
               (but where and how fast: worker, host, wall time, the
               temporary paths); a cached rerun runs nothing.
  tap          net_udptx at 2 sizes through a real TAP device in a private
               network namespace (scripts/netns-tap), a UDP socket there
               counting the datagrams: the two runs ran in the client (no
               Dask worker), one after the other (never overlapping), every
               datagram the board reports sent arrived with its size, and a
               rerun runs again (TAP results are never cached). Skips (77)
               without root or /dev/net/tun, like testbenches/tap-net.

    run_experiment_test.py --vp build/sim/leon3vp --fw-dir build/firmware --test NAME
    run_experiment_test.py --list
"""
import argparse
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "scripts", "lib"))
import l3vp  # noqa: E402
import pandas as pd  # noqa: E402
import yaml  # noqa: E402

TOOL = os.path.join(ROOT, "scripts", "experiment")
TEMPLATE = os.path.join(ROOT, "experiments", "examples", "ping.scenario.json")
EXAMPLE = os.path.join(ROOT, "experiments", "examples", "ping-sizes.yaml")


class Fail(Exception):
    pass


def check(cond, msg):
    if not cond:
        raise Fail(msg)


def tool(args, cwd=None, timeout=120):
    p = subprocess.run([sys.executable, TOOL] + args, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       text=True, stdin=subprocess.DEVNULL, timeout=timeout, cwd=cwd)
    return p


def counting_vp(vp, work):
    """A wrapper that appends a line to a counter file at every leon3vp
    invocation, then runs the real leon3vp."""
    counter = os.path.join(work, "invocations")
    wrapper = os.path.join(work, "leon3vp-counted")
    with open(wrapper, "w") as f:
        f.write(f"#!/bin/sh\necho x >> '{counter}'\nexec '{vp}' \"$@\"\n")
    os.chmod(wrapper, 0o755)
    return wrapper, counter


def count(counter):
    try:
        with open(counter) as f:
            return len(f.read().splitlines())
    except OSError:
        return 0


def write_yaml(path, doc):
    with open(path, "w") as f:
        yaml.safe_dump(doc, f, sort_keys=False)
    return path


PING_SIZES, PING_INTERVALS, PING_COUNT = (64, 1024), ("1ms", "10ms"), 3


def ping_doc():
    return {"experiment": "ping-small",
            "firmware": {"program": "net_ping"},
            "network": {"scenario": TEMPLATE},
            "grid": {"size": list(PING_SIZES), "interval": list(PING_INTERVALS), "count": [PING_COUNT]},
            "metrics": {"rtt_avg_us": {"path": "net.experiments.ping.rtt_avg_ps", "scale": 1e-6},
                        "rtt_max_ps": "net.experiments.ping.rtt_max_ps",
                        "received": "net.experiments.ping.received",
                        "cycles": "stats.cycles",
                        "icache_misses": "stats.timing.icache.misses"},
            "plots": [{"name": "rtt", "x": "size", "y": "rtt_avg_us", "hue": "interval"}]}


def direct_ping(a, work, size, interval):
    """The same run without the tool: the scenario filled in by hand."""
    with open(TEMPLATE) as f:
        scen = json.load(f)
    e = next(x for x in scen["experiments"] if x["name"] == "ping")   # after the ARP warm-up
    e.update(size=size, interval=interval, count=PING_COUNT)
    d = tempfile.mkdtemp(dir=work)
    path = os.path.join(d, "scenario.json")
    with open(path, "w") as f:
        json.dump(scen, f)
    r = l3vp.run(a.vp, os.path.join(a.fw_dir, "net_ping.elf"), quiet=True, scenario=path, stats=True,
                 net_results=True, workdir=d)
    check(r.returncode == 0, f"direct run size {size} interval {interval}: exit {r.returncode}")
    return r.stats, next(x for x in r.net_results["experiments"] if x["name"] == "ping")


def read_csv(out):
    from l3vp.experiment.spec import TEXT_COLUMNS

    return pd.read_csv(os.path.join(out, "results.csv"), keep_default_na=False,
                       dtype={c: str for c in TEXT_COLUMNS})


def check_ping_table(a, work, df):
    want_cols = ["run_id", "program", "variant", "size", "interval", "count", "rtt_avg_us", "rtt_max_ps",
                 "received", "cycles", "icache_misses", "exit_status", "leon3vp_version", "config_hash",
                 "firmware_hash"]
    for c in want_cols:
        check(c in df.columns, f"column {c} missing from the table ({list(df.columns)})")
    check(len(df) == 4, f"{len(df)} rows, expected 4")
    check(list(zip(df["size"], df["interval"])) == [(s, i) for s in PING_SIZES for i in PING_INTERVALS],
          f"rows not in grid order: {list(zip(df['size'], df['interval']))}")
    check(df["run_id"].nunique() == 4, "run ids not distinct")
    fw_hash = l3vp_fnv(os.path.join(a.fw_dir, "net_ping.elf"))
    for _, row in df.iterrows():
        stats, ping = direct_ping(a, work, int(row["size"]), row["interval"])
        where = f"size {row['size']} interval {row['interval']}"
        check(row["error"] == "", f"{where}: error {row['error']}")
        check(row["received"] == PING_COUNT == ping["received"], f"{where}: received {row['received']}")
        check(row["rtt_max_ps"] == ping["rtt_max_ps"], f"{where}: rtt_max_ps {row['rtt_max_ps']} != "
              f"direct {ping['rtt_max_ps']}")
        check(abs(row["rtt_avg_us"] - ping["rtt_avg_ps"] / 1e6) < 1e-9, f"{where}: rtt_avg_us {row['rtt_avg_us']}"
              f" != direct {ping['rtt_avg_ps'] / 1e6}")
        check(row["cycles"] == stats["cycles"], f"{where}: cycles {row['cycles']} != direct {stats['cycles']}")
        check(row["icache_misses"] == stats["timing"]["icache"]["misses"], f"{where}: icache misses differ")
        check(row["config_hash"] == stats["version"]["config_hash"], f"{where}: config hash differs")
        check(row["firmware_hash"] == stats["version"]["firmware_hash"] == fw_hash, f"{where}: firmware hash")
        check(str(row["leon3vp_version"]) == stats["version"]["leon3vp"], f"{where}: leon3vp version")


def l3vp_fnv(path):
    from l3vp.experiment.firmware import file_fnv1a64
    return file_fnv1a64(path)


def test_local_sweep(a, work):
    vp, counter = counting_vp(a.vp, work)
    f = write_yaml(os.path.join(work, "ping.yaml"), ping_doc())
    out = os.path.join(work, "out")
    p = tool(["run", f, "--out", out, "--vp", vp, "--fw-dir", a.fw_dir, "--workers", "2", "-q"])
    check(p.returncode == 0, f"run: exit {p.returncode}: {p.stderr.strip()[-500:]}")
    first = count(counter)
    check(first >= 4, f"{first} leon3vp invocations for 4 runs")
    df = read_csv(out)
    check_ping_table(a, work, df)
    for rid in df["run_id"]:
        with open(os.path.join(out, "runs", rid + ".json")) as fh:
            rec = json.load(fh)
        check(rec["id"] == rid and rec["ok"] and rec["result"]["stats"]["cycles"] > 0, f"runs/{rid}.json")
    check(os.path.exists(os.path.join(out, "plots", "rtt.png")), "plots/rtt.png missing")
    # rerun: everything from the cache, leon3vp not invoked
    p = tool(["run", f, "--out", out, "--vp", vp, "--fw-dir", a.fw_dir])
    check(p.returncode == 0, f"rerun: exit {p.returncode}: {p.stderr.strip()[-300:]}")
    check(count(counter) == first, f"rerun invoked leon3vp {count(counter) - first} times (expected 0)")
    check("4 cached, 0 to run" in p.stderr, f"rerun did not report 4 cached runs: {p.stderr.strip()}")
    check(read_csv(out).equals(df), "rerun's table differs from the first")
    # --no-cache runs everything again
    p = tool(["run", f, "--out", out, "--vp", vp, "--fw-dir", a.fw_dir, "--no-cache", "--workers", "1", "-q"])
    check(p.returncode == 0, f"--no-cache: exit {p.returncode}")
    check(count(counter) == first + 4, f"--no-cache: {count(counter) - first} invocations, expected 4")
    check(read_csv(out).equals(df), "--no-cache table differs (with 1 worker instead of 2)")


def test_set_sweep(a, work):
    doc = {"experiment": "dcache",
           "firmware": {"program": "bench_compute_short"},
           "board": {"set": {"dcache.way_kib": "{dkib}", "icache.ways": "{iways}"}},
           "grid": {"dkib": [1, 4], "iways": [1, 2]},
           "metrics": {"cycles": "stats.cycles", "dmisses": "stats.timing.dcache.read_misses",
                       "instructions": "stats.instructions.total"}}
    f = write_yaml(os.path.join(work, "dcache.yaml"), doc)
    out = os.path.join(work, "out")
    p = tool(["run", f, "--out", out, "--vp", a.vp, "--fw-dir", a.fw_dir, "-q"])
    check(p.returncode == 0, f"run: exit {p.returncode}: {p.stderr.strip()[-500:]}")
    df = read_csv(out)
    check(len(df) == 4, f"{len(df)} rows, expected 4")
    for c in ("set.dcache.way_kib", "set.icache.ways", "dkib", "iways"):
        check(c in df.columns, f"column {c} missing")
    elf = os.path.join(a.fw_dir, "bench_compute_short.elf")
    seen = set()
    for _, row in df.iterrows():
        r = l3vp.run(a.vp, elf, quiet=True, stats=True, extra=["--set", f"dcache.way_kib={row['dkib']}",
                                                                "--set", f"icache.ways={row['iways']}"])
        st = r.stats
        where = f"dkib {row['dkib']} iways {row['iways']}"
        check(row["cycles"] == st["cycles"], f"{where}: cycles {row['cycles']} != direct {st['cycles']}")
        check(row["dmisses"] == st["timing"]["dcache"]["read_misses"], f"{where}: D-cache misses differ")
        check(row["instructions"] == st["instructions"]["total"], f"{where}: instructions differ")
        seen.add(row["cycles"])
    check(len(seen) > 1, "the cache geometry changed no cycle count (the --set values did not arrive)")


def test_variant(a, work):
    doc = {"experiment": "phases",
           # idle_ms: the program stops 300 ms after the last frame and prints its result lines
           "firmware": {"program": "net_ping", "build": {"NET_PHASES": "{phases}"}, "params": {"idle_ms": 300}},
           "network": {"scenario": TEMPLATE},
           "grid": {"phases": ["ON", "OFF"], "size": [64], "interval": ["10ms"], "count": [2]},
           "metrics": {"received": "net.experiments.ping.received",
                       "stack_lines": "uart.stack.0.type",
                       "phase_lines": {"path": "uart.phases.0.type", "optional": True}}}
    f = write_yaml(os.path.join(work, "phases.yaml"), doc)
    out = os.path.join(work, "out")
    p = tool(["run", f, "--out", out, "--vp", a.vp, "-q"], timeout=300)
    check(p.returncode == 0, f"run: exit {p.returncode}: {p.stderr.strip()[-500:]}")
    df = read_csv(out)
    check(list(df["phases"]) == ["ON", "OFF"], f"rows {list(df['phases'])}")
    check(list(df["variant"]) == ["NET_PHASES=ON", "NET_PHASES=OFF"], f"variants {list(df['variant'])}")
    check(df["firmware_hash"].nunique() == 2, "both variants ran the same firmware")
    check(list(df["phase_lines"]) == ["phases", ""], f"phases lines {list(df['phase_lines'])}")
    dirs = sorted(os.listdir(os.path.join(out, "fw")))
    check(len(dirs) == 2 and all(os.path.exists(os.path.join(out, "fw", d, "net_ping.elf")) for d in dirs),
          f"build directories {dirs}")


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_cluster(a, work):
    from distributed import Client

    procs = []

    def start(cmd, name):
        log = open(os.path.join(work, name + ".log"), "w")
        procs.append((subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                                       cwd=work, start_new_session=True), name))

    f = write_yaml(os.path.join(work, "ping.yaml"), ping_doc())
    try:
        port = free_port()
        addr = f"tcp://127.0.0.1:{port}"
        start(["dask-scheduler", "--host", "127.0.0.1", "--port", str(port), "--no-dashboard"], "scheduler")
        for w in ("w1", "w2"):
            start(["dask-worker", addr, "--nworkers", "1", "--nthreads", "1", "--no-dashboard", "--name", w,
                   "--host", "127.0.0.1", "--death-timeout", "60"], w)
        deadline = time.monotonic() + 45
        client = None
        while client is None:
            try:
                client = Client(addr, timeout=5)
            except OSError:
                check(time.monotonic() < deadline, "the scheduler did not come up")
                time.sleep(0.5)
        client.wait_for_workers(2, timeout=max(1, deadline - time.monotonic()))
        client.close()
        vp, counter = counting_vp(a.vp, work)
        cl = os.path.join(work, "cluster")
        p = tool(["run", f, "--out", cl, "--vp", vp, "--fw-dir", a.fw_dir, "--scheduler", addr, "-q"])
        check(p.returncode == 0, f"cluster run: exit {p.returncode}: {p.stderr.strip()[-500:]}")
        workers = []
        for n in sorted(os.listdir(os.path.join(cl, "runs"))):
            with open(os.path.join(cl, "runs", n)) as fh:
                workers.append(json.load(fh)["result"]["worker"])
        check(len(workers) == 4 and set(workers) <= {"w1", "w2"}, f"runs ran on {workers}, not w1/w2")
        print(f"runs per worker: w1 {workers.count('w1')}, w2 {workers.count('w2')}")
    finally:
        for proc, name in procs:
            if proc.poll() is None:
                os.killpg(proc.pid, signal.SIGTERM)
        for proc, name in procs:
            try:
                proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait()
    loc = os.path.join(work, "local")
    # The same wrapper as the cluster run: a "-dirty" build's version carries
    # the SHA-256 of the --vp file, so the real binary would give other run ids.
    p = tool(["run", f, "--out", loc, "--vp", vp, "--fw-dir", a.fw_dir, "-q"])
    check(p.returncode == 0, f"local run: exit {p.returncode}: {p.stderr.strip()[-500:]}")
    dl, dc = read_csv(loc), read_csv(cl)
    check(list(dl.columns) == list(dc.columns), "the two tables have different columns")
    check(len(dl) == 4, f"local table has {len(dl)} rows")
    for c in dl.columns:
        check(list(dl[c]) == list(dc[c]), f"column {c}: local {list(dl[c])} != cluster {list(dc[c])}")


BAD = [
    # (file text, words the one error line must contain)
    ("experiment: x\nfirmware: {program: net_ping}\nmetrics: {c: stats.cycles}\ngrid: {size: [64]}\n",
     ["grid.size", "used by no"]),
    ("experiment: x\nfirmware: {program: net_ping, params: {count: '{n}'}}\nmetrics: {c: stats.cycles}\n",
     ["firmware.params", "{n}", "not an axis"]),
    ("experiment: x\nfirmware: {program: nosuchprog}\nmetrics: {c: stats.cycles}\n",
     ["firmware.program", "nosuchprog"]),
    ("experiment: x\nfirmware: {program: net_ping, build: {NET_CHECKSUM: crc64}}\nmetrics: {c: stats.cycles}\n",
     ["firmware.build.NET_CHECKSUM", "crc64"]),
    ("experiment: x\nfirmware: {program: net_ping, build: {NO_SUCH: ON}}\nmetrics: {c: stats.cycles}\n",
     ["firmware.build.NO_SUCH"]),
    ("experiment: x\nfirmware: {program: hello}\nboard: {set: {dcache.nope: 1}}\nmetrics: {c: stats.cycles}\n",
     ["board.set.dcache.nope"]),
    ("experiment: x\nfirmware: {program: hello}\nboard: {energy: nope}\nmetrics: {c: stats.cycles}\n",
     ["board.energy", "nope"]),
    ("experiment: x\nfirmware: {program: hello}\nmetrics: {c: cycles}\n", ["metrics.c.path"]),
    ("experiment: x\nfirmware: {program: hello}\nmetrics: {c: stats.cycles}\nplots: [{name: p, x: size, y: c}]\n",
     ["plots[0].x", "size"]),
    ("experiment: x\nfirmware: {program: hello}\nmetrics: {c: stats.cycles}\nfoo: 1\n", ["foo", "unknown key"]),
    ("experiment: x\nfirmware: {program: hello}\nmetrics: {c: stats.cycles}\nzip: [{a: [1, 2], b: [1]}]\n",
     ["zip[0]", "different lengths"]),
    ("experiment: x\nfirmware: {program: hello\n", ["not YAML"]),
    ("experiment: x\nfirmware: {program: net_ping}\nnetwork: {scenario: nofile.json}\nmetrics: {c: stats.cycles}\n",
     ["network.scenario", "nofile.json"]),
    ("experiment: x\nfirmware: {program: net_ping}\nnetwork: {scenario: %s, patch: {experiments.nope.size: 1}}\n"
     "metrics: {c: stats.cycles}\n" % TEMPLATE, ["network.patch.experiments.nope.size"]),
    ("experiment: x\nfirmware: {program: hello}\nmetrics: {c: stats.cycles}\ngrid: {run_id: [1]}\n",
     ["grid.run_id", "fixed column"]),
    # firmware: {elf: ...} (any ELF)
    ("experiment: x\nfirmware: {elf: nope.elf}\nmetrics: {c: stats.cycles}\n",
     ["firmware.elf", "nope.elf", "No such file"]),
    ("experiment: x\nfirmware: {elf: %s}\nmetrics: {c: stats.cycles}\n" % TEMPLATE,
     ["firmware.elf", "ping.scenario.json", "not an ELF"]),
    ("experiment: x\nfirmware: {elf: %s}\nmetrics: {c: stats.cycles}\n" % sys.executable,
     ["firmware.elf", "not 32-bit big-endian SPARC"]),
    ("experiment: x\nfirmware: {elf: a.elf, build: {NET_PHASES: OFF}}\nmetrics: {c: stats.cycles}\n",
     ["firmware.build", "makes no sense with elf"]),
    ("experiment: x\nfirmware: {program: '{app}'}\ngrid: {app: [hello, nosuch]}\nmetrics: {c: stats.cycles}\n",
     ["firmware.program", "nosuch"]),
    ("experiment: x\nfirmware: {program: hello}\nmetrics: {c: {path: stats.cycles, diff: {n: [1, 2]}}}\n",
     ["metrics.c.diff.n", "not an axis"]),
    # hostile input, each one line before anything runs
    ("experiment: x\nfirmware: {program: net_ping, params: {count: '{n:>99999999999999999999}'}}\n"
     "grid: {n: [1]}\nmetrics: {c: stats.cycles}\n", ["firmware.params.count", "{n:"]),
    ("experiment: x\nfirmware: {program: net_ping, params: {count: '{n:d}'}}\ngrid: {n: [a]}\n"
     "metrics: {c: stats.cycles}\n", ["firmware.params.count", "cannot format"]),
    ("experiment: x\nfirmware: {program: net_ping, params: {count: '{n!z}'}}\ngrid: {n: [1]}\n"
     "metrics: {c: stats.cycles}\n", ["firmware.params.count", "{n!z}"]),
    ("experiment: x\nfirmware: {program: hello}\nboard: {timeout: .inf}\nmetrics: {c: stats.cycles}\n",
     ["board.timeout"]),
    ("experiment: x\nfirmware: {program: hello}\nboard: {timeout: .nan}\nmetrics: {c: stats.cycles}\n",
     ["board.timeout"]),
    ("experiment: x\nfirmware: {program: net_ping, params: {%s}}\nmetrics: {c: stats.cycles}\ngrid: {%s}\n"
     % (", ".join(f"p{i}: '{{a{i}}}'" for i in range(6)), ", ".join(f"a{i}: {list(range(100))}" for i in range(6))),
     ["grid", "1000000000000 points"]),
    ("a: &a [x, x, x, x, x, x, x, x, x, x]\n" + "".join(
        f"{c}: &{c} [{', '.join(['*' + p] * 10)}]\n" for p, c in zip("abcdefg", "bcdefgh")), ["aliases"]),
    ("experiment: x\nfirmware: " + "[" * 5000 + "]" * 5000 + "\n", ["nested deeper"]),
    ("experiment: x\nfirmware: {program: net_ping}\nnetwork: {scenario: /dev/zero}\nmetrics: {c: stats.cycles}\n",
     ["network.scenario", "/dev/zero", "not a regular file"]),
    ("experiment: x\nfirmware: {program: net_ping, params: {nokey: 1}}\nmetrics: {c: stats.cycles}\n",
     ["firmware.params", "leon3vp refuses", "nokey"]),
] + [("experiment: x\n" + text + ("" if "metrics:" in text else "\nmetrics: {c: stats.run.sim_time_ps}") + "\n",
       words) for text, words in [
    # topologies (network.topology): the template, the grid's values, leon3vp's own check of each
    ("firmware: {program: hello}\nnetwork: {topology: {boards: [{name: b, elf: hello.elf}]}}",
     ["firmware", "leave firmware out"]),
    ("network: {topology: {boards: [{name: 'b{i}', elf: hello.elf}]}}", ["network.topology.boards[0].name",
                                                                         "{i}", "repeat item"]),
    ("network: {topology: {boards: [{repeat: '{n}', name: 'b{i}', elf: hello.elf}]}}\ngrid: {n: [1, 65]}",
     ["network.topology.boards[0].repeat", "65", "0..64"]),
    ("network: {topology: {boards: [{name: b, elf: hello.elf, params: {p: '{n+1}'}}]}}\ngrid: {n: [a]}",
     ["network.topology", "'{n+1}'", "not an integer"]),
    ("network: {topology: {boards: [{name: b, elf: nosuch.elf}]}}", ["boards.b.elf", "nosuch.elf", "found"]),
    ("network: {topology: {boards: [{name: b, elf: hello.elf}], switches: [{name: s, ports: '{n}'}], "
     "links: [{a: b, b: s}]}}\ngrid: {n: [2, 99]}", ["network.topology", "leon3vp refuses", "switches[0].ports"]),
    ("network: {topology: {boards: {}}}", ["network.topology", "list of boards"]),
    ("network: {topology: {boards: [{name: b, elf: hello.elf}]}, scenario: {}}", ["network", "exclude"]),
    ("network: {topology: {boards: [{name: b, elf: hello.elf}], hosts: [{name: h}], links: [{a: b, b: h}]}}\n"
     "metrics: {d: stats.boards.b.nosuch}",
     ["metrics.d", "stats.boards.b.nosuch", "not a key"]),
]]


def test_bad_files(a, work):
    for i, (text, words) in enumerate(BAD):
        f = os.path.join(work, f"bad{i}.yaml")
        with open(f, "w") as fh:
            fh.write(text)
        p = tool(["run", f, "--out", os.path.join(work, f"out{i}"), "--vp", a.vp, "--fw-dir", a.fw_dir])
        lines = p.stderr.strip().splitlines()
        check(p.returncode == 2, f"bad{i}: exit {p.returncode}, expected 2 ({p.stderr.strip()[-300:]})")
        check(len(lines) == 1, f"bad{i}: {len(lines)} lines on stderr, expected 1: {p.stderr.strip()[-300:]}")
        for w in words:
            check(w in lines[0], f"bad{i}: '{w}' not in the error line: {lines[0]}")
        print(f"bad{i}: {lines[0]}")
    p = tool(["run", EXAMPLE, "--vp", os.path.join(work, "no-vp"), "--out", os.path.join(work, "o")])
    check(p.returncode == 2 and len(p.stderr.strip().splitlines()) == 1 and "--vp" in p.stderr,
          f"missing --vp: exit {p.returncode}: {p.stderr.strip()}")
    _bad_input_files(a, work)


def _bad_input_files(a, work):
    """Hostile input: a FIFO, a device, a folder, a binary file as the experiment
    file, and --out under a regular file: one line, exit 2, no hang."""
    fifo = os.path.join(work, "fifo.yaml")
    os.mkfifo(fifo)
    binary = os.path.join(work, "binary.yaml")
    with open(binary, "wb") as fh:
        fh.write(bytes(range(256)) * 4)
    plain = os.path.join(work, "plain")
    with open(plain, "w") as fh:
        fh.write("x\n")
    cases = [([fifo], "not a regular file"), (["/dev/zero"], "not a regular file"),
             ([work], "not a regular file"), ([binary], "not UTF-8"),
             ([EXAMPLE, "--out",
               os.path.join(plain, "out")], "--out")]
    for args, word in cases:
        p = tool(["run"] + args + ["--vp", a.vp, "--fw-dir", a.fw_dir], timeout=30)
        lines = p.stderr.strip().splitlines()
        check(p.returncode == 2 and len(lines) == 1 and word in lines[0],
              f"{args}: exit {p.returncode}, expected 2 and one line with '{word}': {p.stderr.strip()[-300:]}")
        print(f"{os.path.basename(args[0])}: {lines[0]}")


def test_example(a, work):
    with open(EXAMPLE) as fh:
        doc = yaml.safe_load(fh)
    doc["network"]["scenario"] = TEMPLATE  # the copy lives elsewhere
    doc["grid"] = {"size": [64, 1472], "interval": ["500us", "10ms", "100ms"], "count": [3]}
    f = write_yaml(os.path.join(work, "ping-sizes.yaml"), doc)
    p = tool(["list", f])
    check(p.returncode == 0 and len(p.stdout.splitlines()) == 7, f"list: {p.stdout}")
    out = os.path.join(work, "out")
    p = tool(["run", f, "--out", out, "--vp", a.vp, "--fw-dir", a.fw_dir, "-q"])
    check(p.returncode == 0, f"run: exit {p.returncode}: {p.stderr.strip()[-500:]}")
    df = read_csv(out)
    check(len(df) == 6 and (df["received"] == 3).all(), f"table: {df[['size', 'interval', 'received']]}")
    check((df["energy_uj"] > 0).all() and (df["energy"] == "leon3-90nm-estimate").all(), "energy column")
    check(df.groupby("size")["rtt_avg_us"].mean()[1472] > df.groupby("size")["rtt_avg_us"].mean()[64],
          "1472-byte pings are not slower than 64-byte ones")
    _check_example_physics(df, doc)
    for ext in ("png", "svg"):
        path = os.path.join(out, "plots", f"rtt.{ext}")
        check(os.path.exists(path) and os.path.getsize(path) > 1000, f"plot {path} missing or empty")
    check(len(os.listdir(os.path.join(out, "runs"))) == 6, "runs/ does not hold 6 files")


def _check_example_physics(df, doc):
    """The warm-up keeps ARP out of the RTTs: no probe is more than 10 us
    above the fastest of its run, beside the wake-up (an ARP exchange adds a whole round trip
    of the PC and the board, some 80 us; what varies without it is the
    board's idle loop, about 2 us). The PC's wake-up (the template's
    wake_latency) is in the 100 ms line only: count - 1 of its probes
    found the PC idle, so its average is (count - 1) / count wake-ups
    above the 500 us line, and 10 ms equals 500 us (to the board's
    sub-microsecond jitter). Wake-ups: the warm-up's own (the PC idle
    100 ms since the start), plus count - 1 at 100 ms."""
    with open(TEMPLATE) as fh:
        host = json.load(fh)["host"]
    wake_us = l3vp.parse_duration_ps(host["wake_latency"]) / 1e6
    count = doc["grid"]["count"][0]
    for size in (64, 1472):
        rows = {r["interval"]: r for _, r in df[df["size"] == size].iterrows()}
        fast, mid, slow = rows["500us"], rows["10ms"], rows["100ms"]
        for iv, r in rows.items():   # at 100 ms the first probe (1 ms after the warm-up) does not wake the PC
            spread = (r["rtt_max_us"] - r["rtt_min_us"]) - (wake_us if iv == "100ms" else 0)
            check(spread < 10, f"{size} B at {iv}: min {r['rtt_min_us']} max {r['rtt_max_us']} (the ARP "
                  "exchange in a probe?)")
        check(abs(mid["rtt_avg_us"] - fast["rtt_avg_us"]) < 0.5, f"{size} B: 10 ms differs from 500 us")
        want = wake_us * (count - 1) / count
        got = slow["rtt_avg_us"] - fast["rtt_avg_us"]
        check(abs(got - want) < 0.5, f"{size} B: 100 ms line {got:.4f} us above 500 us, expected {want:.4f}")
        check((fast["wakeups"], mid["wakeups"], slow["wakeups"]) == (1, 1, count),
              f"{size} B wake-ups {fast['wakeups']}/{mid['wakeups']}/{slow['wakeups']}")
        print(f"example {size} B: RTT {fast['rtt_avg_us']:.2f} / {mid['rtt_avg_us']:.2f} / "
              f"{slow['rtt_avg_us']:.2f} us at 500 us / 10 ms / 100 ms")


def test_tap(a, work):
    if os.geteuid() != 0 or not os.path.exists("/dev/net/tun") or not shutil.which("ip"):
        print("SKIP: needs root, /dev/net/tun and ip (iproute2) for a TAP device")
        sys.exit(77)
    netns_tap = os.path.join(ROOT, "scripts", "netns-tap")
    name = f"l3vpx{os.getpid() % 100000}"
    up = subprocess.run([netns_tap, "up", name], capture_output=True, text=True)
    if up.returncode != 0:
        subprocess.run([netns_tap, "down", name], capture_output=True)
        print("SKIP: scripts/netns-tap up failed (not permitted here?): " + up.stderr.strip())
        sys.exit(77)
    # leon3vp wrapper: logs "start"/"end" around each TAP run, so overlap shows
    log = os.path.join(work, "runs.log")
    wrapper = os.path.join(work, "leon3vp-logged")
    with open(wrapper, "w") as f:
        f.write(f"#!/bin/sh\ncase \"$*\" in *--tap*) ;; *) exec '{a.vp}' \"$@\";; esac\n"
                f"echo start >> '{log}'\n'{a.vp}' \"$@\"\nrc=$?\necho end >> '{log}'\nexit $rc\n")
    os.chmod(wrapper, 0o755)
    count, sizes = 10, [64, 1000]
    doc = {"experiment": "tap-udptx",
           "firmware": {"program": "net_udptx", "params": {"count": count, "bytes": "{size}", "window": 2000}},
           "network": {"tap": name},
           "board": {"max_time": "1500ms", "timeout": 120},
           "grid": {"size": sizes},
           "metrics": {"sent": "uart.result.0.sent", "bytes": "uart.result.0.bytes"}}
    f = write_yaml(os.path.join(work, "tap.yaml"), doc)
    out = os.path.join(work, "out")
    recv_out = os.path.join(work, "received.txt")
    # the simulated PC is the namespace's kernel: a socket there counts
    # datagrams per size until it has all it expects and then 1 s without
    # any (extras would show), or 120 s in all (a loaded machine may take
    # many seconds between the two runs)
    rx = ("import json,socket,sys,time\ns=socket.socket(socket.AF_INET,socket.SOCK_DGRAM)\n"
          "s.bind(('0.0.0.0',5001))\ns.settimeout(1)\nseen={}\nend=time.monotonic()+120\n"
          f"want={{s: {count} for s in {sizes!r}}}\n"
          "while time.monotonic()<end:\n    try:\n        d=s.recv(2000)\n"
          "        seen[len(d)]=seen.get(len(d),0)+1\n    except socket.timeout:\n"
          "        if all(seen.get(k,0)>=v for k,v in want.items()):\n            break\n"
          "open(sys.argv[1],'w').write(json.dumps(seen))\n")
    try:
        for attempt in ("first", "rerun"):
            receiver = subprocess.Popen(["ip", "netns", "exec", name, sys.executable, "-c", rx, recv_out])
            time.sleep(0.5)
            p = tool(["run", f, "--out", out, "--vp", wrapper, "--fw-dir", a.fw_dir, "-q"], timeout=300)
            check(p.returncode == 0, f"{attempt}: exit {p.returncode}: {p.stderr.strip()[-500:]}")
            receiver.wait(timeout=150)
            with open(recv_out) as fh:
                seen = {int(k): v for k, v in json.load(fh).items()}
            df = read_csv(out)
            check(list(df["size"]) == sizes, f"{attempt}: rows {list(df['size'])}")
            check(list(df["sent"]) == [count, count], f"{attempt}: sent {list(df['sent'])}")
            check(seen == {s: count for s in sizes}, f"{attempt}: the namespace received {seen}, "
                  f"expected {count} datagrams of each of {sizes} bytes")
            for rid in df["run_id"]:
                with open(os.path.join(out, "runs", rid + ".json")) as fh:
                    rec = json.load(fh)
                check(rec["result"]["worker"] is None, f"{attempt}: TAP run {rid} ran on Dask worker "
                      f"{rec['result']['worker']}, not in the client")
            print(f"{attempt}: received {seen}")
        with open(log) as fh:
            events = fh.read().split()
        check(events == ["start", "end"] * 4, f"runs overlapped or were cached: {events}")
    finally:
        subprocess.run([netns_tap, "down", name], capture_output=True)

# -- any ELF in the tools -----------------------------------------------
CYCLES_COMPARE = os.path.join(ROOT, "scripts", "cycles-compare")


def run_ok(args, what, timeout=300):
    p = tool(args, timeout=timeout)
    check(p.returncode == 0, f"{what}: exit {p.returncode}: {p.stderr.strip()[-500:]}")
    return p


def one_line_error(p, what, words):
    """Exit 2 and one stderr line holding every word."""
    lines = p.stderr.strip().splitlines()
    check(p.returncode == 2, f"{what}: exit {p.returncode}, expected 2 ({p.stderr.strip()[-300:]})")
    check(len(lines) == 1, f"{what}: {len(lines)} lines on stderr, expected 1: {p.stderr.strip()[-300:]}")
    for w in words:
        check(w in lines[0], f"{what}: '{w}' not in the error line: {lines[0]}")
    print(f"{what}: {lines[0]}")


def record_path(out, run_id):
    return os.path.join(out, "runs", run_id + ".json")


def cycles_compare(old, new):
    return subprocess.run([sys.executable, CYCLES_COMPARE, old, new, "--all"], capture_output=True, text=True,
                          stdin=subprocess.DEVNULL, timeout=60)


def test_elf(a, work):
    exp_dir = os.path.join(work, "exp")
    os.makedirs(os.path.join(exp_dir, "fw"))
    elf = os.path.join(exp_dir, "fw", "app.elf")
    shutil.copyfile(os.path.join(a.fw_dir, "hello.elf"), elf)
    doc = {"experiment": "own-elf", "firmware": {"elf": "fw/app.elf"},  # relative to the file
           "metrics": {"cycles": "stats.cycles", "instructions": "stats.instructions.total"}}
    f = write_yaml(os.path.join(exp_dir, "own.yaml"), doc)
    vp, counter = counting_vp(a.vp, work)
    out = os.path.join(work, "out")
    run_ok(["run", f, "--out", out, "--vp", vp, "-q"], "elf run")
    df = read_csv(out)
    direct = l3vp.run(a.vp, elf, quiet=True, stats=True).stats
    row = df.iloc[0]
    check(len(df) == 1 and row["program"] == "app" and row["error"] == "", f"table: {df.to_dict('records')}")
    check(row["firmware_hash"] == l3vp_fnv(elf) == direct["version"]["firmware_hash"], "firmware hash")
    check(row["cycles"] == direct["cycles"], f"cycles {row['cycles']} != direct {direct['cycles']}")
    first_id, n = row["run_id"], count(counter)
    # unchanged ELF: cached, leon3vp not started
    p = run_ok(["run", f, "--out", out, "--vp", vp], "elf rerun")
    check(count(counter) == n and "1 cached, 0 to run" in p.stderr, f"rerun not cached: {p.stderr.strip()}")
    # a rebuilt ELF at the same path: a new run id, run again
    shutil.copyfile(os.path.join(a.fw_dir, "bench_compute_short.elf"), elf)
    run_ok(["run", f, "--out", out, "--vp", vp, "-q"], "changed elf")
    df2 = read_csv(out)
    check(df2.iloc[0]["run_id"] != first_id and count(counter) == n + 1,
          f"changed ELF: run id {df2.iloc[0]['run_id']} (was {first_id}), {count(counter) - n} runs")
    check(df2.iloc[0]["firmware_hash"] == l3vp_fnv(elf), "changed ELF: hash in the table")
    # report and cycles-compare on elf runs
    run_ok(["report", out, "--out", os.path.join(work, "report.md")], "report")
    with open(os.path.join(work, "report.md")) as fh:
        text = fh.read()
    check("own-elf" in text and str(df2.iloc[0]["cycles"]) in text.replace(",", ""), "report lacks the run")
    p = cycles_compare(record_path(out, first_id), record_path(out, df2.iloc[0]["run_id"]))
    check(p.returncode in (0, 1) and "cycles" in p.stdout, f"cycles-compare: exit {p.returncode}: "
          f"{p.stderr.strip()} {p.stdout[-300:]}")


OWN_CMAKE = """cmake_minimum_required(VERSION 3.20)
project(own_firmware C ASM)
set(OWN_LOOPS 10 CACHE STRING "iterations of the measured loop")
find_package(leon3vp-sdk REQUIRED HINTS {fw}/sdk)
leon3vp_add_program(own main.c)
target_compile_definitions(own PRIVATE OWN_LOOPS=${{OWN_LOOPS}})
"""
OWN_MAIN = r"""/* An out-of-tree program: a named region around a loop, one result line. */
#include "bsp.h"
#include "fwlibc.h"
#include "region.h"

#define OWN_REGION 0x4f574e01u
REGION_NAME(OWN_REGION, "own_loop");

static volatile uint32_t sink;

int main(void)
{
    uint32_t i;

    REGION_BEGIN(OWN_REGION);
    for (i = 0; i < OWN_LOOPS; i++)
        sink += i * 3u;
    REGION_END(OWN_REGION);
    printf("{\"type\":\"result\",\"loops\":%u}\n", (unsigned)OWN_LOOPS);
    return 0;
}
"""


def own_project(work):
    """A minimal out-of-tree firmware project: our toolchain (through the
    tool), the SDK's CMake package (firmware/sdk), one program `own`."""
    d = os.path.join(work, "own-project")
    os.makedirs(d)
    with open(os.path.join(d, "CMakeLists.txt"), "w") as fh:
        fh.write(OWN_CMAKE.format(fw=os.path.join(ROOT, "firmware")))
    with open(os.path.join(d, "main.c"), "w") as fh:
        fh.write(OWN_MAIN)
    return d


def test_cmake(a, work):
    proj = own_project(work)
    region = "stats.regions.0x4f574e01"
    doc = {"experiment": "own-cmake",
           "firmware": {"cmake": proj, "program": "own", "build": {"OWN_LOOPS": "{loops}"}},
           "grid": {"loops": [10, 1000]},
           "metrics": {"loops_done": "uart.result.0.loops", "region_cycles": f"{region}.cycles",
                       "per_loop": {"path": f"{region}.cycles", "diff": {"loops": [1000, 10]}, "per": 990}}}
    f = write_yaml(os.path.join(work, "own.yaml"), doc)
    out = os.path.join(work, "out")
    run_ok(["run", f, "--out", out, "--vp", a.vp, "--fw-dir", a.fw_dir, "--workers", "1", "-q"], "cmake run")
    df = read_csv(out)
    check(list(df["loops_done"]) == [10, 1000] and list(df["program"]) == ["own", "own"], f"table {df}")
    check(list(df["variant"]) == ["OWN_LOOPS=10", "OWN_LOOPS=1000"], f"variants {list(df['variant'])}")
    ext = [d for d in os.listdir(os.path.join(out, "fw")) if d.startswith("ext-own-project-")]
    check(len(ext) == 1 and len(os.listdir(os.path.join(out, "fw", ext[0]))) == 2,
          f"build directories: {os.listdir(os.path.join(out, 'fw'))}")
    want = (df["region_cycles"][1] - df["region_cycles"][0]) / 990
    check(df["per_loop"][0] == "" and abs(float(df["per_loop"][1]) - want) < 1e-9,
          f"per_loop {list(df['per_loop'])}, by hand {want}")
    p = cycles_compare(record_path(out, df["run_id"][0]), record_path(out, df["run_id"][1]))
    check(p.returncode == 1 and "own_loop" in p.stdout and "REGRESSION" in p.stdout,
          f"cycles-compare 10 -> 1000 loops: exit {p.returncode}, no own_loop regression: {p.stdout[-400:]}")
    # the project's own options, not ours
    doc["firmware"]["build"] = {"NET_PHASES": "OFF", "OWN_LOOPS": "{loops}"}
    p = tool(["run", write_yaml(f, doc), "--out", out, "--vp", a.vp])
    one_line_error(p, "foreign option", ["firmware.build.NET_PHASES", "not a CMake option of", proj, "OWN_LOOPS"])


OWN_EXAMPLE = os.path.join(ROOT, "examples", "own-firmware")


def test_own_example(a, work):
    """examples/own-firmware (docs/porting.md): built with its plain
    Makefile and run in a sweep by elf: path, and built with its CMake
    package file by its own sweep.yaml; both give the same table."""
    bdir = os.path.join(work, "make")
    p = subprocess.run(["make", "-s", "-C", OWN_EXAMPLE, f"O={bdir}"], capture_output=True, text=True)
    check(p.returncode == 0, f"make: {p.stderr.strip()}")
    with open(os.path.join(OWN_EXAMPLE, "sweep.yaml")) as fh:
        doc = yaml.safe_load(fh)
    cmake_out = os.path.join(work, "cmake-out")
    run_ok(["run", os.path.join(OWN_EXAMPLE, "sweep.yaml"), "--out", cmake_out, "--vp", a.vp, "--workers", "1",
            "-q"], "example sweep (cmake:)")
    doc["firmware"] = {"elf": os.path.join(bdir, "own.elf"), "params": doc["firmware"]["params"]}
    f = write_yaml(os.path.join(work, "own-elf.yaml"), doc)
    elf_out = os.path.join(work, "elf-out")
    run_ok(["run", f, "--out", elf_out, "--vp", a.vp, "--workers", "1", "-q"], "example sweep (elf:)")
    dc, de = read_csv(cmake_out), read_csv(elf_out)
    # the kernel's sum: buf[i] = 7 i mod 256, summed `count` times
    want = [c * sum((7 * i) & 255 for i in range(b)) for b, c in zip(de["bytes"], de["count"])]
    check(list(de["sum"]) == want and list(dc["sum"]) == want, f"sums {list(de['sum'])} / {list(dc['sum'])}, want {want}")
    per = [float(v) for v in de["cycles_per_byte"] if v != ""]
    check(len(per) == 3 and all(3 < v < 20 for v in per), f"cycles per byte {per}")
    check(list(dc["cycles_per_byte"]) == list(de["cycles_per_byte"]), "cmake: and elf: builds measured differently")
    check(list(de["firmware_hash"]) == [l3vp_fnv(os.path.join(bdir, "own.elf"))] * len(de), "elf hash")
    # the least linker script docs/porting.md shows: same sums, fw_params read
    mdir = os.path.join(work, "minimal")
    p = subprocess.run(["make", "-s", "-C", OWN_EXAMPLE, f"O={mdir}", "LDSCRIPT=minimal.ld"],
                       capture_output=True, text=True)
    check(p.returncode == 0, f"make LDSCRIPT=minimal.ld: {p.stderr.strip()}")
    r = l3vp.run(a.vp, os.path.join(mdir, "own.elf"), quiet=True, uart=True, fw_params={"count": 3, "bytes": 64})
    line = l3vp.first_line(r.lines(), "result")
    check(r.returncode == 0 and line and line["sum"] == 3 * want[0] // de["count"][0],
          f"minimal.ld: exit {r.returncode}, {line}")


def test_stack_axis(a, work):
    doc = {"experiment": "stacks",
           "firmware": {"program": "net_{app}"},
           "network": {"scenario": TEMPLATE},
           "grid": {"app": ["ping", "hello"], "size": [64], "interval": ["10ms"], "count": [2]},
           "metrics": {"received": "net.experiments.ping.received"}}
    f = write_yaml(os.path.join(work, "stacks.yaml"), doc)
    out = os.path.join(work, "out")
    run_ok(["run", f, "--out", out, "--vp", a.vp, "--fw-dir", a.fw_dir, "--workers", "1", "-q"], "stack axis")
    df = read_csv(out)
    check(list(df["program"]) == ["net_ping", "net_hello"], f"programs {list(df['program'])}")
    check(list(df["received"]) == [2, 2], f"received {list(df['received'])}")
    want = [l3vp_fnv(os.path.join(a.fw_dir, f"net_{x}.elf")) for x in ("ping", "hello")]
    check(list(df["firmware_hash"]) == want, "the runs did not run net_ping and net_hello")


def test_metric_gate(a, work):
    doc = ping_doc()
    doc["grid"] = {"size": [64, 512, 1024], "interval": ["10ms"], "count": [2]}
    doc["plots"] = []
    vp, counter = counting_vp(a.vp, work)
    out = os.path.join(work, "out")
    f = write_yaml(os.path.join(work, "gate.yaml"), doc)
    run_ok(["run", f, "--out", out, "--vp", vp, "--fw-dir", a.fw_dir, "--dry-run", "-q"], "dry run")
    probes = count(counter)  # the leon3vp probe is cached from here on
    # a key no --stats has: nothing runs
    doc["metrics"]["bad"] = "stats.timing.icache.mises"
    p = tool(["run", write_yaml(f, doc), "--out", out, "--vp", vp, "--fw-dir", a.fw_dir, "-q"])
    one_line_error(p, "schema", ["metrics.bad", "stats.timing.icache.mises", "--list-stats"])
    check(count(counter) == probes and not os.listdir(os.path.join(out, "runs")), "a run started")
    # a region the firmware has not: one run, then exit 2
    doc["metrics"]["bad"] = "stats.regions.0x0badf00d.cycles"
    t0 = time.monotonic()
    p = tool(["run", write_yaml(f, doc), "--out", out, "--vp", vp, "--fw-dir", a.fw_dir, "--workers", "1", "-q"])
    one_line_error(p, "first run", ["metrics.bad", "stats.regions.0x0badf00d.cycles", "first finished run"])
    runs = os.listdir(os.path.join(out, "runs"))
    check(count(counter) == probes + 1 and len(runs) == 1,
          f"{count(counter) - probes} leon3vp runs and {len(runs)} records, expected 1 of 3")
    print(f"failed after one run in {time.monotonic() - t0:.1f} s")
    # with a cached run the check needs no run at all
    p = tool(["run", f, "--out", out, "--vp", vp, "--fw-dir", a.fw_dir, "-q"])
    one_line_error(p, "cached", ["metrics.bad", "0x0badf00d"])
    check(count(counter) == probes + 1, "the cached check ran leon3vp")
    # optional: true lets it through (empty cells), all three run
    doc["metrics"]["bad"] = {"path": "stats.regions.0x0badf00d.cycles", "optional": True}
    run_ok(["run", write_yaml(f, doc), "--out", out, "--vp", vp, "--fw-dir", a.fw_dir, "-q"], "optional")
    check(count(counter) == probes + 3 and len(read_csv(out)) == 3, "optional: not 3 runs")


RX_REGION = "stats.regions.0x4e455201"


def test_diff_metric(a, work):
    doc = {"experiment": "per-echo",
           "firmware": {"program": "net_ping"},
           "network": {"scenario": TEMPLATE},
           "grid": {"size": [64, 1024], "interval": ["10ms"], "count": [2, 4]},
           # the net input region (0x4e455201): its entries for ARP and
           # the first echoes drop out of the difference
           "metrics": {"rx_cycles": f"{RX_REGION}.cycles", "instructions": "stats.instructions.total",
                       "received": "net.experiments.ping.received",
                       "echo_cycles": {"path": f"{RX_REGION}.cycles", "diff": {"count": [4, 2]}, "per": 2},
                       "echo_insns": {"path": "stats.instructions.total", "diff": {"count": [4, 2]},
                                      "per": "net.experiments.ping.received", "scale": 1000}},
           "plots": [{"name": "echo", "x": "size", "y": "echo_cycles"}]}
    f = write_yaml(os.path.join(work, "diff.yaml"), doc)
    out = os.path.join(work, "out")
    run_ok(["run", f, "--out", out, "--vp", a.vp, "--fw-dir", a.fw_dir, "--workers", "1", "-q"], "diff run")
    df = read_csv(out)
    check(list(df["count"]) == [2, 4, 2, 4] and list(df["received"]) == [2, 4, 2, 4], f"table {df}")
    for size in (64, 1024):
        lo = df[(df["size"] == size) & (df["count"] == 2)].iloc[0]
        hi = df[(df["size"] == size) & (df["count"] == 4)].iloc[0]
        want_c = (hi["rx_cycles"] - lo["rx_cycles"]) / 2
        want_i = (hi["instructions"] - lo["instructions"]) / (hi["received"] - lo["received"]) * 1000
        check(lo["echo_cycles"] == "" and abs(float(hi["echo_cycles"]) - want_c) < 1e-9,
              f"size {size}: echo_cycles {hi['echo_cycles']}, by hand {want_c}")
        check(abs(float(hi["echo_insns"]) - want_i) < 1e-6, f"size {size}: echo_insns {hi['echo_insns']} != {want_i}")
        check(want_c > 0 and want_i > 0, f"size {size}: no cost per echo ({want_c}, {want_i})")
        print(f"size {size}: {want_c:.0f} net input cycles per echo, {want_i / 1000:.0f} instructions")
    check(os.path.exists(os.path.join(out, "plots", "echo.png")), "the diff metric's plot is missing")


SEEDS_EXAMPLE = os.path.join(ROOT, "experiments", "examples", "tcp-loss-seeds.yaml")
T975 = {2: 4.302652730, 3: 3.182446305, 4: 2.776445105, 5: 2.570581836}   # t(0.975, df), printed tables


def test_seeds(a, work):
    """experiments/examples/tcp-loss-seeds.yaml as shipped: summary.csv
    against mean, std and CI computed here from results.csv; the seeds
    really differ; a bad seed axis is one line, exit 2."""
    out = os.path.join(work, "out")
    p = tool(["run", SEEDS_EXAMPLE, "--out", out, "--vp", a.vp, "--fw-dir", a.fw_dir, "-q"], timeout=280)
    check(p.returncode == 0, f"run: exit {p.returncode}: {p.stderr.strip()[-500:]}")
    df = read_csv(out)
    summary = pd.read_csv(os.path.join(out, "summary.csv"))
    with open(SEEDS_EXAMPLE) as fh:
        doc = yaml.safe_load(fh)
    losses, seeds = doc["grid"]["loss"], doc["grid"]["seed"]
    check(len(df) == len(losses) * len(seeds) and (df["error"] == "").all(), f"table: {df[['loss', 'seed', 'error']]}")
    check((df["bytes_acked"] == 65536).all(), "a transfer did not complete")
    check(list(summary["loss"]) == losses and (summary["n"] == len(seeds)).all(), f"summary cells: {summary}")
    for m in doc["metrics"]:
        for _, row in summary.iterrows():
            xs = [float(x) for x in df[df["loss"] == row["loss"]][m]]
            n = len(xs)
            mean = sum(xs) / n
            std = (sum((x - mean) ** 2 for x in xs) / (n - 1)) ** 0.5
            ci = T975[n - 1] * std / n ** 0.5
            for col, want in ((f"{m}_mean", mean), (f"{m}_std", std), (f"{m}_ci95", ci)):
                check(abs(row[col] - want) <= 1e-9 * max(1.0, abs(want)),
                      f"loss {row['loss']} {col}: {row[col]} != {want}")
    worst = summary.iloc[-1]
    check(worst["retransmits_std"] > 0 and worst["completion_ms_std"] > 0,
          f"the seeds gave identical runs at loss {worst['loss']}: {worst.to_dict()}")
    for _, row in summary.iterrows():
        print(f"loss {row['loss']}: goodput {row['goodput_mbps_mean']:.2f} +- {row['goodput_mbps_ci95']:.2f} Mbit/s, "
              f"retransmits {row['retransmits_mean']:.1f} +- {row['retransmits_ci95']:.1f} (n={row['n']})")
    check(os.path.getsize(os.path.join(out, "plots", "goodput.png")) > 1000, "goodput plot missing")
    bad = dict(doc, grid={"loss": losses, "seed": [1, "x"]})
    f = write_yaml(os.path.join(work, "bad-seed.yaml"), bad)
    p = tool(["run", f, "--out", os.path.join(work, "bad"), "--vp", a.vp, "--fw-dir", a.fw_dir])
    lines = p.stderr.strip().splitlines()
    check(p.returncode == 2 and len(lines) == 1 and "grid.seed" in lines[0], f"bad seed axis: {p.stderr.strip()}")


def test_executors(a, work):
    """The same grid in the local process pool and on a local Dask
    cluster: the tables equal cell by cell, the same run ids and records
    (but for where and how long each ran); a cached rerun with
    --executor dask gives the same table (pylib.stats checks that no
    executor starts without work)."""
    f = write_yaml(os.path.join(work, "ping.yaml"), ping_doc())
    tables, recs = {}, {}
    for kind in ("pool", "dask"):
        out = os.path.join(work, kind)
        p = tool(["run", f, "--out", out, "--vp", a.vp, "--fw-dir", a.fw_dir, "--executor", kind, "-q"])
        check(p.returncode == 0 and p.stderr == "",
              f"--executor {kind}: exit {p.returncode}: {p.stderr.strip()[-400:]}")
        tables[kind] = read_csv(out)
        recs[kind] = {}
        for rid in tables[kind]["run_id"]:
            with open(os.path.join(out, "runs", rid + ".json")) as fh:
                rec = json.load(fh)
            res = rec["result"]
            worker = res.pop("worker")
            # where and how fast it ran: any two runs differ there (the run's
            # temporary folder, wall time, host speed), whatever ran them
            for k in ("wall_s", "host", "cmd"):
                res.pop(k)
            res["stats"].pop("host")
            res["stats"].pop("firmware")
            check(str(worker).startswith("pool-") == (kind == "pool"), f"{kind}: run {rid} ran on {worker}")
            recs[kind][rid] = rec
    check(tables["pool"].equals(tables["dask"]), "the pool's table differs from Dask's")
    check(recs["pool"] == recs["dask"], "the records differ beyond where and how fast they ran")
    t0 = time.monotonic()
    p = tool(["run", f, "--out", os.path.join(work, "dask"), "--vp", a.vp, "--fw-dir", a.fw_dir, "--executor", "dask"])
    took = time.monotonic() - t0
    check(p.returncode == 0 and "4 cached, 0 to run" in p.stderr, f"cached rerun: {p.stderr.strip()}")
    check(read_csv(os.path.join(work, "dask")).equals(tables["dask"]), "the cached rerun's table differs")
    print(f"cached rerun: {took:.2f} s")


SWEEP = os.path.join(ROOT, "experiments", "network", "incast-sweep.yaml")


def test_topology(a, work):
    """experiments/network/incast-sweep.yaml with 2 senders at queue 4 and
    64: each row equals a direct leon3vp run of the topology written out
    by hand (the repeat items, {i+5001}, the per-board, every-board,
    switch-port and host metrics); what the switch dropped is what the PC
    lost; a rerun takes everything from the cache."""
    vp, counter = counting_vp(a.vp, work)
    out = os.path.join(work, "out")
    args = ["run", SWEEP, "--out", out, "--vp", vp, "--fw-dir", a.fw_dir, "--subset", "n=2",
            "--subset", "queue=4,64", "--workers", "2", "-q"]
    run_ok(args, "incast sweep")
    df = read_csv(out)
    check(list(df["queue"]) == [4, 64] and list(df["n"]) == [2, 2], f"rows {df[['n', 'queue']]}")
    check((df["error"] == "").all() and (df["exit_status"] == 0).all(), f"errors: {list(df['error'])}")
    for _, row in df.iterrows():
        with open(record_path(out, row["run_id"])) as f:
            ran = json.load(f)["spec"]["topology"]
        check(ran == _incast_topology(int(row["queue"])), f"queue {row['queue']}: the run's topology {ran}")
        _check_incast_row(a, work, row)
    check(df["received"].iloc[1] > df["received"].iloc[0], "a longer queue delivered no more datagrams")
    n0 = count(counter)
    run_ok(args, "incast sweep, cached")
    check(count(counter) == n0, f"the cached rerun started leon3vp {count(counter) - n0} times")
    check(read_csv(out).equals(df), "the cached rerun's table differs")


def _incast_topology(queue):
    boards = [{"name": f"s{i}", "elf": "net_udptx.elf",
               "params": {"peer_ip": "192.168.0.200", "port": 5001 + i, "count": 50, "bytes": 1472, "window": 1}}
              for i in range(2)]
    exps = [{"name": f"from_s{i}", "type": "udp_recv", "port": 5001 + i, "expect": 50} for i in range(2)]
    return {"boards": boards, "hosts": [{"name": "pc", "peer": "s0", "experiments": exps}],
            "switches": [{"name": "sw0", "ports": 3, "queue_frames": queue}],
            "links": [{"a": "pc", "b": "sw0", "mbps": 10}, {"a": "s0", "b": "sw0"}, {"a": "s1", "b": "sw0"}],
            "duration": "2s"}


def _check_incast_row(a, work, row):
    d = tempfile.mkdtemp(dir=work)
    topo = os.path.join(d, "t.json")
    with open(topo, "w") as f:
        json.dump(_incast_topology(int(row["queue"])), f)
    r = l3vp.run(a.vp, None, quiet=True, scenario=topo, stats=True, workdir=d,
                 extra=["--fw-dir", a.fw_dir, "--energy", "leon3-90nm-estimate"])
    check(r.returncode == 0, f"direct topology run: exit {r.returncode}: {r.last_stderr_line()}")
    st, q = r.stats, row["queue"]
    pc = st["hosts"]["pc"]["experiments"]
    port = st["switches"]["sw0"]["ports"][0]
    want = {"received": sum(e["received"] for e in pc), "lost": sum(e["lost"] for e in pc),
            "dropped": port["drops_queue_full"], "queue_high_water": port["queue_hw_frames"],
            "goodput_s0_bps": pc[0]["goodput_bps"],
            "energy_s0_uj": st["boards"]["s0"]["energy"]["total_fj"] * 1e-9,
            "energy_all_uj": sum(b["energy"]["total_fj"] for b in st["boards"].values()) * 1e-9}
    for k, v in want.items():
        check(abs(row[k] - v) <= 1e-9 * max(1, abs(v)), f"queue {q}: {k} {row[k]} != direct {v}")
    check(row["received"] + row["lost"] == 100 and row["dropped"] == row["lost"],
          f"queue {q}: received {row['received']} + lost {row['lost']} (dropped {row['dropped']})")
    check(0 < row["queue_high_water"] <= q, f"queue {q}: high water {row['queue_high_water']}")
    tx = next(x for x in st["boards"]["s0"]["regions"] if x["id"] == 0x4e455402)
    check(abs(row["tx_energy_s0_nj_per_frame"] - tx["energy_fj"] / tx["entries"] * 1e-6) < 1e-6,
          f"queue {q}: tx energy per frame {row['tx_energy_s0_nj_per_frame']}")
    check(row["sent_s0"] == 50 and tx["entries"] == 51, f"queue {q}: s0 sent {row['sent_s0']}, "
          f"{tx['entries']} frames through its send path (50 datagrams and an ARP request)")
    print(f"queue {q}: received {row['received']:.0f} of 100, dropped {row['dropped']}, "
          f"s0 {row['tx_energy_s0_nj_per_frame']:.1f} nJ per frame sent")


TESTS = {"local_sweep": test_local_sweep, "set_sweep": test_set_sweep, "variant": test_variant,
         "cluster": test_cluster, "bad_files": test_bad_files, "example": test_example, "tap": test_tap,
         "elf": test_elf, "cmake": test_cmake, "stack_axis": test_stack_axis, "metric_gate": test_metric_gate,
         "diff_metric": test_diff_metric, "own_example": test_own_example, "seeds": test_seeds,
         "executors": test_executors, "topology": test_topology}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--vp")
    ap.add_argument("--fw-dir")
    ap.add_argument("--test")
    ap.add_argument("--list", action="store_true")
    a = ap.parse_args()
    if a.list:
        print("\n".join(TESTS))
        return 0
    if a.test not in TESTS or not a.vp or not a.fw_dir:
        ap.error("need --vp, --fw-dir and --test NAME (--list)")
    a.vp, a.fw_dir = os.path.abspath(a.vp), os.path.abspath(a.fw_dir)
    work = tempfile.mkdtemp(prefix=f"l3vp-exptest-{a.test}-")
    t0 = time.monotonic()
    try:
        TESTS[a.test](a, work)
    except Fail as e:
        print(f"FAIL {a.test}: {e} (work directory {work})")
        return 1
    print(f"PASS {a.test} ({time.monotonic() - t0:.1f} s)")
    shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
