"""Ctrl-C and SIGTERM end every Python tool under scripts/ with one line
and no traceback (l3vp.tool): the real tools, stopped in the middle of
their leon3vp runs (measure-net, energy-sweep, experiment with its local
process pool and with a local Dask cluster: no worker traceback, no
"leaked semaphore" warning, no process left), every tool's entry point
through l3vp.tool.run, and the progress bars: drawn on a terminal's
stderr, nothing into a file.

L3VP_VP and L3VP_FW_DIR come from CTest."""
import os
import pathlib
import pty
import select
import signal
import subprocess
import sys
import time

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "scripts" / "lib"))
from l3vp import tool  # noqa: E402

VP = os.environ.get("L3VP_VP")
FW_DIR = os.environ.get("L3VP_FW_DIR")
needs_vp = pytest.mark.skipif(not (VP and FW_DIR), reason="L3VP_VP/L3VP_FW_DIR not set")


def python_tools():
    return sorted(p for p in (ROOT / "scripts").iterdir()
                  if p.is_file() and p.read_text(errors="replace").startswith("#!/usr/bin/python3"))


def test_every_python_tool_ends_through_l3vp_tool():
    tools = python_tools()
    assert len(tools) >= 15
    for p in tools:
        if p.name == "experiment":  # its own main() does the same (l3vp.experiment.cli)
            continue
        tail = p.read_text().split('if __name__ == "__main__":')[-1]
        assert f'l3vp.tool.run("{p.name}", main' in tail, p.name


def as_foreground_job():
    """In the tool's process, before exec: Ctrl-C acts as in a terminal's
    foreground job. A tool started with SIGINT ignored (as a shell starts a
    background job: `scripts/test &`) keeps ignoring it, as it should,
    and then ran to its end here instead of stopping."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def leftover(pgid):
    """True while some process of the group still runs."""
    try:
        os.killpg(pgid, 0)
    except ProcessLookupError:
        return False
    return True


def stop_midway(cmd, sig, whole_group, wait_for, tmp_path):
    """Start cmd in its own session, wait until `wait_for` (a path) exists
    or 20 s, send sig (to the tool, or to its whole process group as a
    terminal's Ctrl-C does); return (status, stderr lines)."""
    err = open(tmp_path / "stderr", "w+")
    p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=err, start_new_session=True,
                         preexec_fn=as_foreground_job)
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline and not wait_for():
        time.sleep(0.05)
    assert wait_for(), "the tool never started a run"
    time.sleep(0.3)
    (os.killpg if whole_group else os.kill)(p.pid, sig)
    status = p.wait(timeout=60)
    for _ in range(100):  # the children it stopped: gone within a few seconds
        if not leftover(p.pid):
            break
        time.sleep(0.05)
    assert not leftover(p.pid), "a child of the stopped tool still runs"
    err.seek(0)
    return status, err.read().splitlines()


def leon3vp_running(pgid):
    def check():
        for d in pathlib.Path("/proc").iterdir():
            try:
                if d.name.isdigit() and os.getpgid(int(d.name)) == pgid and \
                        (d / "comm").read_text().strip() == "leon3vp":
                    return True
            except (OSError, ProcessLookupError):
                continue
        return False
    return check


@needs_vp
@pytest.mark.parametrize("sig,status,line", [
    (signal.SIGTERM, 143, "measure-net: terminated (SIGTERM)"),
    (signal.SIGINT, 130, "measure-net: interrupted"),
])
def test_measure_net_stops_with_one_line(tmp_path, sig, status, line):
    keep = tmp_path / "keep"
    cmd = [sys.executable, str(ROOT / "scripts" / "measure-net"), "--vp", VP, "--fw-dir", FW_DIR,
           "--keep", str(keep)]
    got, err = stop_midway(cmd, sig, False, lambda: keep.is_dir() and any(keep.iterdir()), tmp_path)
    assert (got, err) == (status, [line])


@needs_vp
def test_energy_sweep_ctrl_c_reaches_workers_without_tracebacks(tmp_path):
    out = tmp_path / "out"
    cmd = [sys.executable, str(ROOT / "scripts" / "energy-sweep"), "--vp", VP, "--fw-dir", FW_DIR,
           "--quick", "--jobs", "2", "--out", str(out), "--keep"]
    runs = out / "runs"
    got, err = stop_midway(cmd, signal.SIGINT, True, lambda: runs.is_dir() and any(runs.iterdir()), tmp_path)
    assert (got, err) == (130, ["energy-sweep: interrupted"])


@needs_vp
@pytest.mark.parametrize("sig,status,line", [
    (signal.SIGTERM, 143, "energy-sweep: terminated (SIGTERM)"),
])
def test_energy_sweep_sigterm_one_line(tmp_path, sig, status, line):
    out = tmp_path / "out"
    cmd = [sys.executable, str(ROOT / "scripts" / "energy-sweep"), "--vp", VP, "--fw-dir", FW_DIR,
           "--quick", "--jobs", "2", "--out", str(out), "--keep"]
    runs = out / "runs"
    got, err = stop_midway(cmd, sig, False, lambda: runs.is_dir() and any(runs.iterdir()), tmp_path)
    assert (got, err) == (status, [line])


def long_experiment(tmp_path, runs=6):
    """An experiment file whose runs take a few seconds each (net_ping,
    35000 probes 1 ms apart), so that a signal finds them running."""
    scen = {"host": {"mac": "02:00:00:00:00:55", "ip": "192.168.0.55", "netmask": "255.255.255.0"},
            "board": {"mac": "02:00:00:00:00:53", "ip": "192.168.0.53"},
            "link": {"mbps": 100, "prop_delay": "50ns"}, "duration": "40s",
            "experiments": [{"name": "ping", "type": "ping", "count": 35000, "size": "{size}",
                             "interval": "1ms", "timeout": "1s", "start": "10ms"}]}
    import json
    f = tmp_path / "long.yaml"
    f.write_text(json.dumps({"experiment": "long", "firmware": {"program": "net_ping"},
                             "network": {"scenario": scen}, "grid": {"size": list(range(64, 64 + runs))},
                             "metrics": {"rx": "net.experiments.ping.received"}}))
    return f


@needs_vp
@pytest.mark.parametrize("executor", ["pool", "dask"])
@pytest.mark.parametrize("sig,status,word,group", [
    (signal.SIGINT, 130, "interrupted", True),          # a terminal's Ctrl-C: the whole group
    (signal.SIGTERM, 143, "terminated (SIGTERM)", False),
])
def test_experiment_stops_with_one_line(tmp_path, executor, sig, status, word, group):
    out = tmp_path / "out"
    cmd = [sys.executable, str(ROOT / "scripts" / "experiment"), "run", str(long_experiment(tmp_path)),
           "--out", str(out), "--vp", VP, "--fw-dir", FW_DIR, "--workers", "2", "--executor", executor, "-q"]
    got, err = _stop_experiment(cmd, sig, group, tmp_path)
    assert got == status and len(err) == 1, err
    assert err[0].startswith(f"experiment: {word}: ") and err[0].endswith(" of 6 runs finished"), err


def _stop_experiment(cmd, sig, group, tmp_path, ready=None):
    """stop_midway once `ready(pid)` holds (default: a leon3vp of the
    tool's process group runs); then every process the tool had started,
    its local Dask cluster's (a session of their own) too, must be gone."""
    settle = 0.5 if ready is None else 0   # past the 1 ns probe runs, into the sweep's own
    # A leon3vp of the tool's group (its probe runs, the pool's runs) or any
    # descendant (the Dask workers' runs: a session of their own). Watching the
    # group alone could miss the probe runs' few milliseconds on a loaded
    # machine and see the Dask sweep finish first.
    ready = ready or (lambda pid: leon3vp_running(pid)() or leon3vp_descendant(pid))
    err = open(tmp_path / "stderr", "w+")
    p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=err, start_new_session=True,
                         preexec_fn=as_foreground_job)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and not ready(p.pid) and p.poll() is None:
        time.sleep(0.02)
    if not ready(p.pid):
        try:
            os.killpg(p.pid, signal.SIGKILL)
        except ProcessLookupError:  # it ended by itself
            pass
        err.seek(0)
        pytest.fail(f"the tool never got there (exit {p.poll()}): {err.read()[-500:]}")
    time.sleep(settle)
    started = tool.descendants(p.pid)
    (os.killpg if group else os.kill)(p.pid, sig)
    status = p.wait(timeout=60)
    # Up to 60 s for the stopped tool's processes to go: a local Dask cluster
    # shut down on a loaded 2-CPU machine (CI runs two tests at a time) can
    # take longer than the 15 s given before.
    for _ in range(1200):
        if not leftover(p.pid) and not any(alive(c) for c in started):
            break
        time.sleep(0.05)
    assert not leftover(p.pid), "a child of the stopped tool still runs"
    left = [c for c in started if alive(c)]
    assert not left, f"a process the tool started still runs: {describe(left)}"
    err.seek(0)
    return status, err.read().splitlines()


def describe(pids):
    """pid, state and command line of each process, for a failure message."""
    out = []
    for c in pids:
        try:
            with open(f"/proc/{c}/stat") as f:
                state = f.read().rsplit(")", 1)[1].split()[0]
            with open(f"/proc/{c}/cmdline", "rb") as f:
                cmd = f.read().replace(b"\0", b" ").decode(errors="replace")[:160]
        except OSError:
            continue
        out.append(f"{c} {state} {cmd}")
    return "; ".join(out)


def leon3vp_descendant(pid):
    """A leon3vp among the processes `pid` started, in any session."""
    for c in tool.descendants(pid):
        try:
            if pathlib.Path(f"/proc/{c}/comm").read_text().strip() == "leon3vp":
                return True
        except OSError:
            continue
    return False


def alive(pid):
    """A process that still runs (a zombie has ended)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def dask_starting(pid):
    """The tool's local Dask cluster is being started: a dask-worker (or,
    for a distributed.LocalCluster, a spawned worker) process exists."""
    for c in tool.descendants(pid):
        try:
            with open(f"/proc/{c}/cmdline", "rb") as f:
                cmdline = f.read()
        except OSError:
            continue
        if b"dask_worker" in cmdline or b"multiprocessing.spawn" in cmdline:
            return True
    return False


@needs_vp
@pytest.mark.parametrize("sig,status,word,group", [
    (signal.SIGINT, 130, "interrupted", True),
    (signal.SIGTERM, 143, "terminated (SIGTERM)", False),
    (signal.SIGTERM, 143, "terminated (SIGTERM)", True),
])
def test_experiment_stopped_while_dask_starts(tmp_path, sig, status, word, group):
    """A signal while the local Dask cluster starts: before this, a
    half-built cluster left atexit tracebacks and a resource_tracker
    "leaked semaphore" warning (or, held back, a hang: a SIGTERM to the
    group killed the starting workers)."""
    out = tmp_path / "out"
    cmd = [sys.executable, str(ROOT / "scripts" / "experiment"), "run", str(long_experiment(tmp_path)),
           "--out", str(out), "--vp", VP, "--fw-dir", FW_DIR, "--workers", "2", "--executor", "dask", "-q"]
    got, err = _stop_experiment(cmd, sig, group, tmp_path, ready=dask_starting)
    assert got == status and err == [f"experiment: {word}: 0 of 6 runs finished"], err


def on_a_terminal(cmd, until, timeout=120):
    """Run cmd with stderr on a pseudo-terminal until `until(text)` holds
    for what it drew there (or it ends); Ctrl-C it; (status, text)."""
    master, slave = pty.openpty()
    p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=slave, stdin=subprocess.DEVNULL,
                         start_new_session=True, preexec_fn=as_foreground_job)
    os.close(slave)
    text, deadline = b"", time.monotonic() + timeout
    while time.monotonic() < deadline and not until(text.decode(errors="replace")):
        r, _, _ = select.select([master], [], [], 0.2)
        if r:
            try:
                text += os.read(master, 4096)
            except OSError:
                break
        elif p.poll() is not None:
            break
    if p.poll() is None:
        os.killpg(p.pid, signal.SIGINT)
    status = p.wait(timeout=60)
    while select.select([master], [], [], 0.2)[0]:
        try:
            chunk = os.read(master, 4096)
        except OSError:
            break
        if not chunk:
            break
        text += chunk
    os.close(master)
    return status, text.decode(errors="replace")


@needs_vp
def test_progress_bars_on_a_terminal_only(tmp_path):
    exp = long_experiment(tmp_path, runs=2)
    cmd = [sys.executable, str(ROOT / "scripts" / "experiment"), "run", str(exp), "--vp", VP,
           "--fw-dir", FW_DIR, "--workers", "2"]
    status, text = on_a_terminal(cmd + ["--out", str(tmp_path / "a")], lambda t: False)
    assert status == 0 and "long:" in text and "/2 [" in text, text   # tqdm: "long:  50%|#####  | 1/2 [..."
    # into a file: the tool's own lines only, no bar
    p = subprocess.run(cmd + ["--out", str(tmp_path / "b")], stdout=subprocess.DEVNULL,
                       stderr=subprocess.PIPE, text=True, timeout=120)
    assert p.returncode == 0 and "%|" not in p.stderr and "\r" not in p.stderr, p.stderr
    assert [line.split(":")[0] for line in p.stderr.splitlines()] == ["experiment"] * 2, p.stderr
    # energy-sweep: its bar appears, and Ctrl-C ends it with one line after the bar
    cmd = [sys.executable, str(ROOT / "scripts" / "energy-sweep"), "--vp", VP, "--fw-dir", FW_DIR,
           "--quick", "--jobs", "2", "--out", str(tmp_path / "e")]
    status, text = on_a_terminal(cmd, lambda t: "energy-sweep:" in t and "/24" in t)
    assert status == 130 and "/24 [" in text and "Traceback" not in text, text
    assert text.rstrip().splitlines()[-1].endswith("energy-sweep: interrupted"), text
    # measure-net: a counter of its runs (their number depends on the options)
    cmd = [sys.executable, str(ROOT / "scripts" / "measure-net"), "--vp", VP, "--fw-dir", FW_DIR]
    status, text = on_a_terminal(cmd, lambda t: "measure-net: 2run" in t)
    assert status == 130 and "measure-net: 0run [" in text and "Traceback" not in text, text
    assert text.rstrip().splitlines()[-1].endswith("measure-net: interrupted"), text


def test_run_maps_endings(capsys):
    def boom():
        raise ValueError("bad\nthing")
    assert tool.run("t", boom) == 1
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 1 and err[0].startswith("t: internal error: ValueError: bad thing (")
    assert tool.run("t", lambda: None) == 0
    assert tool.run("t", lambda x: x, 7) == 7

    def ctrl_c():
        raise KeyboardInterrupt
    assert tool.run("t", ctrl_c) == 130
    assert capsys.readouterr().err == "t: interrupted\n"
    with pytest.raises(SystemExit):
        tool.run("t", lambda: sys.exit(2))


def test_sigterm_unwinds_finally_blocks(capsys):
    cleaned = []

    def work():
        try:
            os.kill(os.getpid(), signal.SIGTERM)
            time.sleep(5)
        finally:
            cleaned.append(True)
    try:
        assert tool.run("t", work) == 143
    finally:
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
        tool._GOT["signal"] = None
    assert cleaned == [True]
    assert capsys.readouterr().err == "t: terminated (SIGTERM)\n"
