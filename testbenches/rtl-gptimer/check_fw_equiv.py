#!/usr/bin/python3
"""Firmware with the RTL GPTIMER against the TLM GPTIMER (rtl.gptimer.fw.*).

usage: check_fw_equiv.py --vp BIN --fw-dir DIR --test NAME [--keep DIR]

--test trace (rtl.gptimer.fw.trace): timer.elf with --rtl-trace and --vcd,
both in the window 18 ms..18.5 ms (the first timer interrupt): the RTL trace is a VCD in ps whose irq output rises exactly when the
board waveform's IRQ lines 8 and 9 pulse.

Runs one program twice, with `--rtl gptimer` and without, and requires:
  * the same exit status and the same UART output, byte for byte;
  * the same --stats, every value (instructions, cycles, simulated time,
    interrupts and traps, IRQMP pulses per line, cache, bus and network
    figures, ...), except the GPTIMER's own statistics (the two models have
    different ones), the host figures and the configuration's model name;
  * the same interrupt lines in the board waveform (--vcd-signals irq): every
    change of every irq signal at the same picosecond;
  * with a scenario, the same --net-results;
and that the RTL run really used the RTL model (its statistics are there).
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "scripts", "lib"))
from l3vp import results  # noqa: E402
try:
    from l3vp.waveform import Wave  # noqa: E402
except ImportError as e:  # a setup problem, named, not a test result
    sys.exit(f"FAIL: {e}")

NET = os.path.join(ROOT, "testbenches", "board-net")
TESTS = {
    # name: (firmware, scenario or None, --fw-param list, other options)
    "timer": ("timer", None, [], []),
    "timer_functional": ("timer", None, [], ["--mode", "functional", "--no-dmi"]),
    "ping": ("net_ping", os.path.join(NET, "ping.scenario.json"), ["count=20"], []),
    "udpecho": ("net_udpecho", os.path.join(NET, "udpecho.scenario.json"), ["count=20"], []),
}
# Keys (dotted) that may differ between the two runs.
# cpu_bus.syncs (not an invariant): the adapter's look-ahead wake-ups are SystemC events of
# their own, where the CPU syncs too (the results do not depend on syncs).
SKIP = ("devices.gptimer", "host", "version.config_hash", "config.gptimer.model", "config.uart.out",
        "cpu_bus.syncs")


def run(vp, elf, scenario, params, extra, rtl, out):
    tag = "rtl" if rtl else "tlm"
    files = {k: os.path.join(out, f"{tag}.{k}") for k in ("stats", "uart", "vcd", "net")}
    cmd = [vp, "-q", "--stats", files["stats"], "--uart-out", files["uart"],
           "--vcd", files["vcd"], "--vcd-signals", "irq"]
    if scenario:
        cmd += ["--scenario", scenario, "--net-results", files["net"]]
    for p in params:
        cmd += ["--fw-param", p]
    cmd += extra
    if rtl:
        cmd += ["--rtl", "gptimer"]
    p = subprocess.run(cmd + [elf], capture_output=True, text=True)
    return p.returncode, p.stderr, files


def check_trace(vp, fw_dir, out):
    rtl_vcd, board_vcd = os.path.join(out, "rtl.vcd"), os.path.join(out, "board.vcd")
    p = subprocess.run([vp, "-q", "--rtl", "gptimer", "--rtl-trace", rtl_vcd, "--vcd", board_vcd,
                        "--vcd-signals", "irq", "--vcd-start", "18ms", "--vcd-end", "18500us",
                        "--max-time", "19ms", "--uart-out", "",
                        os.path.join(fw_dir, "timer.elf")], capture_output=True, text=True)
    if p.returncode not in (0, 4):  # 4: --max-time reached
        sys.exit(f"FAIL: exit {p.returncode}: {p.stderr.strip()[-300:]}")
    if "$timescale 1ps $end" not in open(rtl_vcd).read(4096):
        sys.exit("FAIL: the RTL trace is not in ps")
    rtl, board = Wave(rtl_vcd), Wave(board_vcd)
    fails = []
    for bit, line in ((0, 8), (1, 9)):
        rises = [t for t, old, new in rtl.transitions("gptimer.irq")
                 if (new >> bit) & 1 and not ((old or 0) >> bit) & 1]
        want = board.rises(f"board.irq.line{line}")
        if rises != want:
            fails.append(f"irq bit {bit}: RTL trace rises {rises[:4]}..., board line {line} {want[:4]}...")
    if "gptimer.gptimer.rval" not in rtl:
        fails.append("no internal signal (gptimer.gptimer.rval) in the RTL trace")
    if any(t < 18 * 10**9 for t, _, _ in rtl.transitions("gptimer.irq")):
        fails.append("RTL trace has changes before --vcd-start")
    if not board.rises("board.irq.line8"):
        fails.append("no timer interrupt in the window")
    for f in fails:
        print("FAIL:", f)
    if fails:
        sys.exit(1)
    print(f"trace: {len(board.rises('board.irq.line8'))} irq edges at the same ps in the RTL trace and the board VCD")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--vp", required=True)
    ap.add_argument("--fw-dir", required=True)
    ap.add_argument("--test", required=True, choices=sorted(TESTS) + ["trace"])
    ap.add_argument("--keep", help="keep the outputs in this directory")
    a = ap.parse_args()
    out = a.keep or tempfile.mkdtemp(prefix="rtl-equiv-")
    os.makedirs(out, exist_ok=True)
    if a.test == "trace":
        return check_trace(a.vp, a.fw_dir, out)
    fw, scenario, params, extra = TESTS[a.test]
    elf = os.path.join(a.fw_dir, fw + ".elf")
    rc_t, err_t, ft = run(a.vp, elf, scenario, params, extra, False, out)
    rc_r, err_r, fr = run(a.vp, elf, scenario, params, extra, True, out)
    fails = []
    if rc_t != rc_r:
        sys.exit(f"FAIL: exit status: tlm {rc_t}, rtl {rc_r}: {(err_t + err_r).strip()[-300:]}")
    ut, ur = open(ft["uart"], "rb").read(), open(fr["uart"], "rb").read()
    if ut != ur:
        fails.append(f"UART output differs ({len(ut)} / {len(ur)} bytes)")
    st, sr = json.load(open(ft["stats"])), json.load(open(fr["stats"]))
    if "irq_pulses" not in sr.get("devices", {}).get("gptimer", {}):
        fails.append("the --rtl gptimer run has no RTL GPTIMER statistics (model not in the slot?)")
    a_, b_ = results.flat(st), results.flat(sr)
    diff = [k for k in sorted(set(a_) | set(b_)) if not k.startswith(SKIP) and a_.get(k) != b_.get(k)]
    for k in diff[:10]:
        fails.append(f"--stats {k}: tlm {a_.get(k)!r}, rtl {b_.get(k)!r}")
    wt, wr = Wave(ft["vcd"]), Wave(fr["vcd"])
    names = sorted(set(wt.names()) | set(wr.names()))
    irq_names = [n for n in names if "irq" in n]
    if not irq_names:
        fails.append("no irq signal in the waveform")
    changes = 0
    for n in irq_names:
        if n not in wt or n not in wr:
            fails.append(f"VCD: {n} only in one run")
            continue
        tt, tr = wt.transitions(n), wr.transitions(n)
        changes += len(tt)
        if tt != tr:
            first = next((i for i, (x, y) in enumerate(zip(tt, tr)) if x != y), min(len(tt), len(tr)))
            fails.append(f"VCD {n}: {len(tt)} / {len(tr)} changes, first difference at #{first}: "
                         f"{tt[first] if first < len(tt) else None} / {tr[first] if first < len(tr) else None}")
    if scenario and json.load(open(ft["net"])) != json.load(open(fr["net"])):
        fails.append("--net-results differ")
    ints = st.get("interrupts", 0)
    if ints == 0:
        fails.append("no interrupt taken: the comparison shows nothing")
    if fails:
        for f in fails:
            print("FAIL:", f)
        sys.exit(1)
    print(f"{a.test}: identical: {st['instructions']['total']} instructions, {st['cycles']} cycles, "
          f"{ints} interrupts, {changes} irq line changes, {len(ut)} UART bytes "
          f"(host {st['host']['wall_time_s']:.2f} s TLM, {sr['host']['wall_time_s']:.2f} s RTL)")


if __name__ == "__main__":
    main()
