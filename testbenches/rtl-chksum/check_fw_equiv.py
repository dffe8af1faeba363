#!/usr/bin/python3
"""Firmware with the RTL checksum engine against the TLM engine (rtl.chksum.fw.*).

usage: check_fw_equiv.py --vp BIN --fw-dir DIR --test NAME [--keep DIR]

Runs one program that uses the engine (chksum_hw_bench; net_ping and
net_udpecho with fw_params chksum=hw) twice, with the TLM engine
(`--set chksum.enable=true`) and with `--rtl chksum`, and requires:

* `*_tc2` tests (`--set ahb.transfer_cycles=2`, where the AHB model charges
  the NONSEQ address phase the pins spend): everything equal — exit
  status, UART output byte for byte, every --stats value (instructions,
  cycles, the engine's ops/bytes/bursts/beats/errors/irq_pulses/busy_cycles,
  the AHB masters' waits, ...) but the adapter's host figures, and the
  --net-results;
* the other tests (the default ahb.transfer_cycles=1): the same exit
  status, the same UART output once the measured times are taken out
  (chksum_hw_bench's cold_tc/warm_tc, the phase times of the net programs),
  the same network results but the round-trip and arrival times, the same engine
  invariants (ops, bytes, bursts, beats, errors, irq_pulses,
  ignored_starts), and the RTL exactly one clock per burst slower:
  (busy_cycles - AHB wait cycles of master chksum) of the RTL run minus
  that of the TLM run == bursts. Instruction and cycle counts differ there:
  the firmware polls STATUS, so the engine's time feeds back (reported);
* `pnpscan`: no engine use, the same plug&play listing (and everything else);
* `edges*` (chksum_edges): the DMA pointed at the engine's own registers, at
  the GPTIMER's (`edges_gptimer_tc2`: the RTL GPTIMER in both runs) and past
  0xFFFFFFFF: as above (`edges` like the default tests, the `_tc2` ones
  everything equal), and the program's own check passes (exit 0);
* `bench_quantum`: the RTL engine with the default and a 1 us quantum
  gives the same statistics (nothing depends on the CPU's quantum).
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))
NET = os.path.join(ROOT, "testbenches", "board-net")
sys.path.insert(0, os.path.join(ROOT, "scripts", "lib"))
from l3vp import results  # noqa: E402
TC2 = ["--set", "ahb.transfer_cycles=2"]
TESTS = {
    # name: (firmware, scenario or None, --fw-param list, other options)
    "bench": ("chksum_hw_bench", None, [], []),
    "bench_tc2": ("chksum_hw_bench", None, [], TC2),
    "ping": ("net_ping", "ping.scenario.json", ["count=20", "chksum=hw"], []),
    "ping_tc2": ("net_ping", "ping.scenario.json", ["count=20", "chksum=hw"], TC2),
    "udpecho": ("net_udpecho", "udpecho.scenario.json", ["count=20", "chksum=hw"], []),
    "udpecho_tc2": ("net_udpecho", "udpecho.scenario.json", ["count=20", "chksum=hw"], TC2),
    "bench_quantum": ("chksum_hw_bench", None, [], []),
    "pnpscan": ("pnpscan", None, [], []),  # the same P&P records (APB slot 5, AHB master 5)
    # The DMA at the engine's own registers (its adapter must not re-enter
    # itself), at the GPTIMER's, and past 0xFFFFFFFF (ERR, no wrap).
    "edges": ("chksum_edges", None, [], []),
    "edges_tc2": ("chksum_edges", None, [], TC2),
    "edges_gptimer_tc2": ("chksum_edges", None, [], TC2 + ["--rtl", "gptimer"]),
}
# Keys (dotted prefixes) that may differ between the two runs of a *_tc2 test:
# the adapter's host figures, the configuration's model name and file names.
SKIP = ("devices.chksum.rtl_", "host", "version.config_hash", "config.chksum.model", "config.uart.out",
        "config.quantum_ns")
INVARIANTS = ("ops", "bytes", "bursts", "beats", "errors", "irq_pulses", "ignored_starts")
# Measured times printed by the firmware (default transfer cost only), and
# rates derived from them.
TIMING_KEYS = ("cold_tc", "warm_tc", "rtt_ps", "rtt_avg_ps", "rtt_max_ps", "rtt_min_ps", "rtt_mdev_ps",
               "sim_time_ps", "first_rx_ps", "last_rx_ps", "goodput_bps")


def untimed(x):
    """x without the measured times (TIMING_KEYS; the float times of a phases record)."""
    if isinstance(x, dict):
        phases = x.get("type") == "phases"
        return {k: untimed(v) for k, v in x.items()
                if k not in TIMING_KEYS and not (phases and isinstance(v, float))}
    if isinstance(x, list):
        return [untimed(v) for v in x]
    return x


def uart_untimed(text):
    out = []
    for line in text.decode("latin-1").splitlines():
        try:
            out.append(untimed(json.loads(line)))
        except ValueError:
            out.append(line)
    return out


def run(vp, elf, scenario, params, extra, rtl, out, tag):
    files = {k: os.path.join(out, f"{tag}.{k}") for k in ("stats", "uart", "net")}
    cmd = [vp, "-q", "--stats", files["stats"], "--uart-out", files["uart"]]
    if scenario:
        cmd += ["--scenario", os.path.join(NET, scenario), "--net-results", files["net"]]
    for p in params:
        cmd += ["--fw-param", p]
    cmd += extra
    cmd += ["--rtl", "chksum"] if rtl else ["--set", "chksum.enable=true"]
    p = subprocess.run(cmd + [elf], capture_output=True, text=True)
    return p.returncode, p.stderr, files


def chksum_wait(st):
    return next(m["wait_cycles"] for m in st["bus"]["ahb"]["masters"] if m["name"] == "chksum")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--vp", required=True)
    ap.add_argument("--fw-dir", required=True)
    ap.add_argument("--test", required=True, choices=sorted(TESTS))
    ap.add_argument("--keep", help="keep the outputs in this directory")
    a = ap.parse_args()
    out = a.keep or tempfile.mkdtemp(prefix="rtl-chksum-")
    os.makedirs(out, exist_ok=True)
    fw, scenario, params, extra = TESTS[a.test]
    elf = os.path.join(a.fw_dir, fw + ".elf")
    exact = a.test.endswith("_tc2") or a.test in ("bench_quantum", "pnpscan")
    if a.test == "bench_quantum":
        rc_t, err_t, ft = run(a.vp, elf, scenario, params, extra, True, out, "rtl")
        rc_r, err_r, fr = run(a.vp, elf, scenario, params, extra + ["--set", "quantum_ns=1000"], True, out,
                              "rtl_q1us")
    else:
        rc_t, err_t, ft = run(a.vp, elf, scenario, params, extra, False, out, "tlm")
        rc_r, err_r, fr = run(a.vp, elf, scenario, params, extra, True, out, "rtl")
    if rc_t != rc_r or rc_t != 0:
        sys.exit(f"FAIL: exit status: first {rc_t}, second {rc_r}: {(err_t + err_r).strip()[-300:]}")
    fails = []
    ut, ur = open(ft["uart"], "rb").read(), open(fr["uart"], "rb").read()
    st, sr = json.load(open(ft["stats"])), json.load(open(fr["stats"]))
    ct, cr = st["devices"]["chksum"], sr["devices"]["chksum"]
    if "rtl_edges" not in cr:
        fails.append("the --rtl chksum run has no RTL statistics (model not in the slot?)")
    if a.test == "pnpscan":
        if ur.count(b"09:0c5") != 2:
            fails.append("pnpscan does not list the engine twice (AHB master 5, APB slot 5: 09:0c5)")
    elif ct.get("ops", 0) == 0:
        fails.append("the engine did no operation: the comparison shows nothing")
    if cr.get("rtl_unplanned_beats", 0) or cr.get("rtl_late_issues", 0):
        fails.append(f"adapter: {cr.get('rtl_unplanned_beats')} unplanned beats, "
                     f"{cr.get('rtl_late_issues')} late bursts")
    net_t = json.load(open(ft["net"])) if scenario else None
    net_r = json.load(open(fr["net"])) if scenario else None
    a_, b_ = results.flat(st), results.flat(sr)
    if exact:
        if ut != ur:
            fails.append(f"UART output differs ({len(ut)} / {len(ur)} bytes)")
        diff = [k for k in sorted(set(a_) | set(b_)) if not k.startswith(SKIP) and a_.get(k) != b_.get(k)]
        if a.test == "bench_quantum":
            diff = [k for k in diff if k != "cpu_bus.syncs"]  # syncs follow the quantum
        for k in diff[:10]:
            fails.append(f"--stats {k}: {a_.get(k)!r} / {b_.get(k)!r}")
        if net_t != net_r:
            fails.append("--net-results differ")
    else:
        if uart_untimed(ut) != uart_untimed(ur):
            fails.append("UART output differs beyond the measured times")
        for k in INVARIANTS:
            if ct.get(k) != cr.get(k):
                fails.append(f"devices.chksum.{k}: tlm {ct.get(k)}, rtl {cr.get(k)}")
        if scenario and untimed(net_t) != untimed(net_r):
            fails.append("--net-results differ beyond the round-trip times")
        extra_clk = (cr["busy_cycles"] - chksum_wait(sr)) - (ct["busy_cycles"] - chksum_wait(st))
        if extra_clk != ct["bursts"]:
            fails.append(f"RTL - TLM engine clocks without arbitration waits: {extra_clk}, "
                         f"expected one per burst ({ct['bursts']})")
    if fails:
        for f in fails:
            print("FAIL:", f)
        sys.exit(1)
    print(f"{a.test}: {ct['ops']} operations, {ct['bytes']} bytes, {ct['bursts']} bursts; "
          f"busy_cycles {ct['busy_cycles']} / {cr['busy_cycles']} (AHB waits {chksum_wait(st)} / "
          f"{chksum_wait(sr)}); instructions {st['instructions']['total']} / {sr['instructions']['total']}, "
          f"cycles {st['cycles']} / {sr['cycles']}; host {st['host']['wall_time_s']:.2f} s / "
          f"{sr['host']['wall_time_s']:.2f} s; {cr['rtl_edges']} RTL edges")


if __name__ == "__main__":
    main()
