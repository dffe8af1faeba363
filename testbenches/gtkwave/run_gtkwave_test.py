#!/usr/bin/python3
"""GTKWave opens leon3vp's waveforms with the shipped views (docs/waveforms.md).

usage: run_gtkwave_test.py VP ELF --view NAME [--fst] [--timeout S] [-- LEON3VP ARGS...]
       run_gtkwave_test.py bad-input TEXT -- WAVE ARGS...

1. leon3vp ELF --vcd run.vcd (run.fst with --fst) [ARGS] must exit 0;
2. scripts/wave --print must pick the view NAME (from the header comment, or
   for an FST from the link's activity) and print `gtkwave FILE VIEW`;
3. GTKWave itself, headless under xvfb-run, loads the file with that view
   and runs check_view.tcl: every signal the view names must be in the file
   and on display. Fails on a missing signal, on an error line of GTKWave,
   on a non-zero exit or when it does not quit within --timeout seconds.

bad-input: scripts/wave WAVE ARGS must exit 2 with one stderr line that
contains TEXT and print nothing on stdout.
"""
import argparse
import atexit
import os
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))
WAVE = os.path.join(ROOT, "scripts", "wave")


def fail(msg):
    print(f"FAIL: {msg}")
    sys.exit(1)


def bad_input(text, args):
    p = subprocess.run([WAVE] + args, capture_output=True, text=True)
    lines = p.stderr.splitlines()
    if p.returncode != 2 or len(lines) != 1 or text not in lines[0] or p.stdout:
        fail(f"scripts/wave {shlex.join(args)}: exit {p.returncode}, stdout {p.stdout!r}, stderr {p.stderr!r}; "
             f"expected exit 2 and one line with {text!r}")
    print(f"PASS: {lines[0]}")


def main():
    if sys.argv[1:2] == ["bad-input"] and "--" in sys.argv:
        k = sys.argv.index("--")
        return bad_input(" ".join(sys.argv[2:k]), sys.argv[k + 1:])
    ap = argparse.ArgumentParser()
    ap.add_argument("vp")
    ap.add_argument("elf")
    ap.add_argument("--view", required=True)
    ap.add_argument("--fst", action="store_true")
    ap.add_argument("--timeout", type=float, default=120)
    argv = sys.argv[1:]
    extra = argv[argv.index("--") + 1:] if "--" in argv else []
    a = ap.parse_args(argv[:argv.index("--")] if "--" in argv else argv)
    for tool, pkg in (("gtkwave", "gtkwave"), ("xvfb-run", "xvfb"), ("xauth", "xauth")):
        if shutil.which(tool) is None:
            fail(f"{tool} not found: install the Debian package {pkg} (scripts/setup does)")
    if a.fst and shutil.which("vcd2fst") is None:
        fail("vcd2fst not found: install the Debian package gtkwave (scripts/setup does)")

    tmp = tempfile.mkdtemp(prefix="gtkwave-test-")
    atexit.register(shutil.rmtree, tmp, True)
    dump = os.path.join(tmp, "run.fst" if a.fst else "run.vcd")
    p = subprocess.run([a.vp, "-q", "--vcd", dump] + extra + [a.elf], stdout=subprocess.DEVNULL,
                       stderr=subprocess.PIPE, text=True)
    if p.returncode != 0 or not os.path.isfile(dump):
        fail(f"leon3vp exited {p.returncode}: {p.stderr.strip()}")

    # scripts/wave chooses the view.
    view = os.path.join(ROOT, "sim", "gtkwave", a.view + ".gtkw")
    w = subprocess.run([WAVE, dump, "--print"], capture_output=True, text=True)
    if w.returncode != 0:
        fail(f"scripts/wave --print exited {w.returncode}: {w.stderr.strip()}")
    want = ["gtkwave", dump, view]
    got = shlex.split(w.stdout)
    if got != want:
        fail(f"scripts/wave --print: {got}, expected {want}")
    print(f"scripts/wave --print: {w.stdout.strip()}")

    # GTKWave loads it with the view and checks every signal.
    env = dict(os.environ, L3VP_VIEW=view)
    cmd = ["xvfb-run", "-a", "gtkwave", "-S", os.path.join(HERE, "check_view.tcl"), dump, view]
    g = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env,
                         start_new_session=True)
    try:
        out, _ = g.communicate(timeout=a.timeout)
    except subprocess.TimeoutExpired:
        os.killpg(g.pid, signal.SIGKILL)  # xvfb-run, Xvfb and gtkwave: the session we started
        g.communicate()
        fail(f"GTKWave did not quit within {a.timeout:.0f} s: {shlex.join(cmd)}")
    checks = [l for l in out.splitlines() if l.startswith("gtkwave-check:")]
    print("\n".join(checks))
    # GTKWave's own complaints (a file it cannot load, a Tcl error); GTK's
    # accessibility-bus warnings on a bare X server are not about the file.
    errors = [l for l in out.splitlines()
              if not l.startswith("gtkwave-check:") and "dbind" not in l
              and any(k in l.lower() for k in ("error", "cannot", "could not", "not found"))]
    if errors:
        fail("GTKWave reported: " + " | ".join(errors[:5]))
    if g.returncode != 0:
        fail(f"GTKWave exited {g.returncode}: {out.strip()[-300:]}")
    if not checks or not checks[-1].startswith("gtkwave-check: ok "):
        fail("the view's check did not pass (lines above)" if checks else
             f"check_view.tcl printed nothing (did GTKWave run it?): {out.strip()[-300:]}")
    print("PASS")


if __name__ == "__main__":
    main()
