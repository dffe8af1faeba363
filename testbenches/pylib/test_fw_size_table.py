"""scripts/fw-size-table's command line: --help prints the usage and exits 0
without compiling anything; an unknown option exits 2 with argparse's usage
line, also before anything is compiled.

The compiler is replaced by a stand-in on PATH that only records that it was
called, and LWIP_DIR points at a stand-in lwIP tree, so a tool that went on
to measure would be seen calling it."""
import os
import stat
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
TOOL = os.path.join(ROOT, "scripts", "fw-size-table")


@pytest.fixture
def env(tmp_path):
    bindir = tmp_path / "bin"
    bindir.mkdir()
    marker = tmp_path / "compiled"
    for name in ("sparc64-linux-gnu-gcc", "sparc64-linux-gnu-size"):
        fake = bindir / name
        fake.write_text(f"#!/bin/sh\ntouch {marker}\nexit 1\n")
        fake.chmod(fake.stat().st_mode | stat.S_IXUSR)
    lwip = tmp_path / "lwip"
    (lwip / "src" / "core").mkdir(parents=True)
    (lwip / "src" / "core" / "tcp.c").write_text("")
    e = dict(os.environ, PATH=f"{bindir}:{os.environ['PATH']}", LWIP_DIR=str(lwip))
    return e, marker


def run(args, env):
    return subprocess.run([sys.executable, TOOL, *args], env=env, stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, text=True, timeout=60)


def test_help_prints_usage_and_measures_nothing(env):
    e, marker = env
    p = run(["--help"], e)
    assert p.returncode == 0, p.stderr
    assert p.stdout.startswith("usage: fw-size-table"), p.stdout
    assert "Code size of the firmware TCP/IP stack" in p.stdout
    assert not marker.exists(), "--help ran the compiler"
    assert p.stderr == ""


@pytest.mark.parametrize("args", [["--bogus"], ["-x"], ["extra-argument"]])
def test_unknown_option_exits_2(env, args):
    e, marker = env
    p = run(args, e)
    assert p.returncode == 2, (p.returncode, p.stderr)
    assert "usage: fw-size-table" in p.stderr
    assert "unrecognized arguments: " + args[0] in p.stderr
    assert not marker.exists(), "an unknown option ran the compiler"
