"""Ctrl-C and SIGTERM end every Python tool under scripts/ with one line
and no traceback (l3vp.tool): the real tools, stopped in the middle of
their leon3vp runs, and every tool's entry point through l3vp.tool.run.

L3VP_VP and L3VP_FW_DIR come from CTest."""
import os
import pathlib
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
    p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=err, start_new_session=True)
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
