#!/usr/bin/env python3
"""Behaviour tests of leon3vp's waveform output (--vcd, docs/waveforms.md).

Every check reads the VCD with pyvcd (l3vp.waveform.Wave, an independent reader)
and compares what the file shows with what the run's statistics, the pcap
or the models' documented formulas say:

  timer     timer.elf: timer-1 underflow pulses exactly 1 ms apart, counts =
            --stats, every IRQ-8 pulse is an underflow with IP set
  irqchain  net_ping: GRETH IRQ -> IRL -> acknowledge -> trap 0x10+level, counts
            and times against --stats (devices.irqmp, net.greth, interrupts)
  link      net_ping at --mbps: each wire span = (8 + max(len, 60) + 4) bytes
            x byte time (models/net/eth_frame.h), IFG excluded
  pcap      net_ping --pcap: each record's time stamp = the VCD's rx end of the
            same frame in the same direction (PcapWriter::Point::kDeliver)
  regions   prof_regions / net_udprx: board.regions.<name> spans sum to
            --stats regions[].cycles, count = entries; current/depth nest
  nochange  --stats identical with and without --vcd (and --vcd-signals all)
  quantum   the VCD is byte-identical for --quantum 10us and 1ms
  window    --vcd-start/--vcd-end: the window's dump and changes = the full file's
  gtkwave   vcd2fst / fst2vcd round trip keeps every change; --vcd x.fst
  errors    bad --vcd options: exit 2, one error line, no file left behind
  cap       --vcd-max-size: the file ends within the size at a time step with a
            $comment, holds the full file's changes before it, reads back
            (pyvcd, vcd2fst/fst2vcd); the run's statistics do not change
  sizewarn  one warning line before a run whose file is expected past 1 GB

Usage: run_wave_test.py LEON3VP FW_DIR SCENARIO_DIR COMMAND [options]
"""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "scripts", "lib"))
try:
    from l3vp.waveform import Wave  # noqa: E402
except ImportError as e:  # a setup problem, named, not a test result
    sys.exit(f"FAIL: {e}")
from l3vp import pcap  # noqa: E402
from l3vp.cycles import region_names  # noqa: E402
from l3vp.units import parse_duration_ps  # noqa: E402

MS = 10**9  # ps


class Fail(Exception):
    pass


def check(cond, msg):
    if not cond:
        raise Fail(msg)


class Ctx:
    def __init__(self, a):
        self.vp, self.fw_dir, self.scen_dir = a.leon3vp, a.fw_dir, a.scenario_dir
        self.tmp = tempfile.mkdtemp(prefix="l3vp-waves-")

    def fw(self, name):
        return os.path.join(self.fw_dir, name)

    def scenario(self, name):
        return os.path.join(self.scen_dir, name)

    def path(self, name):
        return os.path.join(self.tmp, name)

    def run(self, args, expect=0, timeout=300):
        r = subprocess.run([self.vp] + args, capture_output=True, text=True, timeout=timeout)
        if expect is not None and r.returncode != expect:
            raise Fail(f"leon3vp {' '.join(args)}: exit {r.returncode} (expected {expect})\n{r.stderr}")
        # Every change reached the file at its own time (vcd::Writer::late()).
        check("arrived after their time was written" not in r.stderr, f"leon3vp {' '.join(args)}: {r.stderr.strip()}")
        return r

    def run_stats(self, name, args, expect=0, vcd=True, parse=True):
        """Runs with --stats (and --vcd NAME.vcd): (stats, Wave or None)."""
        st = self.path(name + ".json")
        extra = ["--vcd", self.path(name + ".vcd")] if vcd else []
        self.run(args + ["-q", "--stats", st] + extra, expect=expect)
        with open(st) as f:
            stats = json.load(f)
        return stats, (Wave(self.path(name + ".vcd")) if vcd and parse else None)


def clock_ps(stats):
    return 10**12 // stats["clock_hz"]


# ---- timer ----------------------------------------------------------------

def cmd_timer(c, a):
    """timer.elf: timer 1 runs periodically at 1 kHz with its IRQ enabled
    (firmware/apps/timer: reload 999 at a 1 MHz prescaler tick) from its
    start to gptimer_stop at the end."""
    stats, w = c.run_stats("timer", [c.fw("timer.elf")], expect=0)
    clk = clock_ps(stats)
    uf = w.pulses("board.timer.t1.underflow")
    times = [t for t, _, _ in uf]
    check(len(times) >= 100, f"only {len(times)} timer-1 underflows")
    gaps = sorted({b - a for a, b in zip(times, times[1:])})
    check(gaps == [1 * MS], f"timer-1 underflow gaps {gaps[:5]} ps (expected exactly 1 ms)")
    check(all(wd == clk for _, _, wd in uf), "an underflow pulse is not one clock wide")
    n_stat = stats["devices"]["gptimer"]["underflows"][0]
    counts = w.transitions("board.timer.t1.underflows")
    check(counts[-1][2] == len(times) == n_stat,
          f"t1.underflows ends at {counts[-1][2]}, {len(times)} pulses, --stats {n_stat}")
    # The count steps by one at each pulse.
    check([t for t, _, v in counts[1:]] == times and [v for _, _, v in counts[1:]] == list(range(1, n_stat + 1)),
          "t1.underflows does not step by 1 at each underflow pulse")
    # IRQ 8 (timer 1's line, GPTIMER CONFIG): a pulse at exactly every
    # underflow, each with the timer's IP set at that time.
    l8 = w.pulses("board.irq.line8")
    check([t for t, _, _ in l8] == times, f"{len(l8)} IRQ-8 pulses do not coincide with the {len(times)} underflows")
    check(len(l8) == stats["devices"]["irqmp"]["pulses"]["8"], "IRQ-8 pulses != --stats devices.irqmp.pulses.8")
    no_ip = [t for t in times if w.at("board.timer.t1.ip", t) != 1]
    check(not no_ip, f"IP not set at underflows {no_ip[:3]}")
    # The timer's value at the underflow: the reload (it reloads and goes on).
    vals = {v for t, v in w["board.timer.t1.value"] if t in set(times)}
    check(vals <= {999}, f"t1.value at underflows {vals} (expected the reload 999)")
    return f"{len(times)} underflows 1 ms apart, = --stats, IRQ 8 at each with IP set"


# ---- GRETH interrupt chain -------------------------------------------------

def ping_args(c, max_time="450ms"):
    return [c.fw("net_ping.elf"), "--scenario", c.scenario("ping.scenario.json"), "--max-time", max_time]


def cmd_irqchain(c, a):
    stats, w = c.run_stats("ping", ping_args(c), expect=None)
    clk = clock_ps(stats)
    irqmp, greth = stats["devices"]["irqmp"], stats["net"]["greth"]
    girq = [t for t, _, _ in w.pulses("board.greth.irq")]
    level = 6  # the GRETH's line on the GR-XC3S-1500 template (hw-reference)
    line = [t for t, _, _ in w.pulses(f"board.irq.line{level}")]
    check(len(girq) >= 20, f"only {len(girq)} GRETH IRQ pulses")
    check(len(girq) == greth["irq_pulses"] == irqmp["pulses"][str(level)],
          f"GRETH IRQ pulses: VCD {len(girq)}, --stats net.greth.irq_pulses {greth['irq_pulses']}, "
          f"devices.irqmp.pulses.{level} {irqmp['pulses'][str(level)]}")
    check(line == girq, "the IRQMP line-6 pulses are not at the GRETH IRQ times")
    irl_tr = w.transitions("board.irq.irl")
    check(len(irl_tr) - 1 == irqmp["irl_changes"],
          f"{len(irl_tr) - 1} IRL changes in the VCD, --stats devices.irqmp.irl_changes {irqmp['irl_changes']}")
    acks = w.pulses("board.irq.ack")
    traps = {t: v for t, v, _ in w.pulses("board.cpu.trap")}
    check(len(acks) == stats["interrupts"], f"{len(acks)} acknowledges, --stats interrupts {stats['interrupts']}")
    for t, lv, wd in acks:
        # The CPU acknowledges the level IRQMP drives, and takes trap 0x10 + level then.
        irl = w.at("board.irq.irl", t - 1)
        check(irl == lv, f"ack of level {lv} at {t} ps while IRL was {irl}")
        check(traps.get(t) == 0x10 + lv,
              f"ack of level {lv} at {t} ps without trap 0x{0x10 + lv:x} (got {traps.get(t)})")
        check(wd == clk, f"ack pulse at {t} ps is {wd} ps wide")
    per_line = {}
    for _, lv, _ in acks:
        per_line[lv] = per_line.get(lv, 0) + 1
    check(sum(1 for v in traps.values() if 0x11 <= v <= 0x1f) == len(acks), "interrupt traps without an acknowledge")
    lat, direct = [], 0
    for t in girq:
        # IRL goes to 6 at the IRQ's time when nothing higher is pending (this
        # run: always), and the first level-6 acknowledge follows.
        before = w.at("board.irq.irl", t - 1)
        if before < level:
            after = w.at("board.irq.irl", t)
            check(after == level, f"GRETH IRQ at {t} ps: IRL {before} -> {after}")
            direct += 1
        ack = next((x for x, lv, _ in acks if x >= t and lv == level), None)
        check(ack is not None, f"GRETH IRQ at {t} ps never acknowledged")
        lat.append(ack - t)
    # A ping's IRQs arrive while the board sleeps: IRL goes straight to 6.
    check(direct == len(girq), f"only {direct} of {len(girq)} GRETH IRQs found IRL below 6")
    check(per_line.get(level, 0) == len(girq),
          f"{per_line.get(level, 0)} level-6 acknowledges for {len(girq)} GRETH IRQs")
    # Every GRETH IRQ was taken by a sleeping (power-down) or idle CPU with
    # ET=1, PIL=0: the wake-up and trap entry take a few clocks, never more
    # than 1 us (40 clocks).
    check(min(lat) >= 0 and max(lat) <= 40 * clk, f"GRETH IRQ -> ack latency {min(lat)}..{max(lat)} ps")
    return (f"{len(girq)} GRETH IRQs -> IRL 6 -> ack 6 + trap 0x16 "
            f"({min(lat) / clk:.1f}..{max(lat) / clk:.1f} clocks); "
            f"{len(acks)} acks = --stats interrupts, {len(irl_tr) - 1} IRL changes = --stats")


# ---- link -------------------------------------------------------------------

def wire_ps(length, mbps):
    """models/net/eth_frame.h: preamble+SFD 8, data padded to 60, FCS 4; no IFG."""
    return (8 + max(length, 60) + 4) * (8000 // mbps) * 1000


def ping_scenario(c, mbps):
    """ping.scenario.json with the link at `mbps` (a scenario's link section
    replaces the configuration's net.speed_mbps, docs/network.md)."""
    with open(c.scenario("ping.scenario.json")) as f:
        s = json.load(f)
    s["link"]["mbps"] = mbps
    p = c.path(f"ping{mbps}.scenario.json")
    with open(p, "w") as f:
        json.dump(s, f)
    return p, parse_duration_ps(s["link"]["prop_delay"])


def frames(w, d):
    """The frames of direction d: [(wire_start, wire_end, rx_start, rx_end, len)]."""
    wire, rx = w.spans(f"board.link.{d}.wire"), w.spans(f"board.link.{d}.rx")
    check(len(wire) == len(rx), f"{d}: {len(wire)} wire spans, {len(rx)} rx spans")
    return [(s, e, rs, re, w.at(f"board.link.{d}.len", s)) for (s, e), (rs, re) in zip(wire, rx)]


def cmd_link(c, a):
    mbps = a.mbps
    scen, prop = ping_scenario(c, mbps)
    args = [c.fw("net_ping.elf"), "--scenario", scen, "--max-time", "450ms"]
    stats, w = c.run_stats(f"link{mbps}", args, expect=None)
    used = stats["config"]["net"]["speed_mbps"]
    check(used == mbps, f"config.net.speed_mbps {used}")
    sizes = set()
    for d, key in (("to_host", "tx_frames"), ("to_board", "rx_frames")):
        fr = frames(w, d)
        n_stat = stats["net"]["greth"][key]
        check(len(fr) == n_stat, f"{d}: {len(fr)} frames, --stats net.greth.{key} {n_stat}")
        for s, e, rs, r_end, n in fr:
            check(e is not None and e - s == wire_ps(n, mbps),
                  f"{d} frame of {n} B at {s} ps: on the wire {None if e is None else e - s} ps, "
                  f"expected {wire_ps(n, mbps)}")
            # No switch hop: the receiver sees it one propagation delay later.
            check((rs - s, r_end - e) == (prop, prop),
                  f"{d} frame at {s} ps: received over [{rs}, {r_end}), sent over [{s}, {e}), prop_delay {prop} ps")
            sizes.add(n)
        # Frames do not overlap on one segment and keep the inter-frame gap (12 bytes).
        for (s0, e0, *_), (s1, *_) in zip(fr, fr[1:]):
            check(s1 >= e0 + 12 * (8000 // mbps) * 1000,
                  f"{d}: frame at {s1} ps starts within the IFG of the one ending {e0}")
    check({60, 1066, 1514} <= sizes, f"frame sizes {sorted(sizes)}: expected the ARP (60) and the 1024/1472-B pings")
    return (f"{mbps} Mbit/s: every frame's wire span = (8 + max(len,60) + 4) x {8000 // mbps} ns, "
            f"received {prop} ps later, sizes {sorted(sizes)}")


# ---- pcap -------------------------------------------------------------------

def read_pcap(path):
    """[(t_ns, orig_len, data)]; the file must be nanosecond-resolution pcap."""
    try:
        return pcap.records(path)
    except ValueError as e:
        check(False, str(e))


def cmd_pcap(c, a):
    pcap = c.path("ping.pcap")
    stats, w = c.run_stats("pcap", ping_args(c) + ["--pcap", pcap], expect=None)
    recs = read_pcap(pcap)
    board_mac = bytes.fromhex(stats["config"]["net"]["mac"].replace(":", ""))
    # Both directions, by their frames' delivery (rx end) on the VCD: the
    # order the PcapWriter (attached at Point::kDeliver) records them.
    ends = sorted([(r_end, d, n) for d in ("to_host", "to_board") for _, _, _, r_end, n in frames(w, d)])
    check(len(recs) == len(ends) == stats["net"]["pcap_frames"],
          f"{len(recs)} pcap records, {len(ends)} VCD frames, --stats net.pcap_frames {stats['net']['pcap_frames']}")
    for i, ((ts, n, data), (r_end, d, vn)) in enumerate(zip(recs, ends)):
        d_pcap = "to_host" if data[6:12] == board_mac else "to_board"
        check(d_pcap == d, f"record {i}: from {data[6:12].hex(':')} but the VCD frame ending then is {d}")
        check(ts == r_end // 1000, f"record {i} ({d}, {n} B): time stamp {ts} ns, VCD rx end {r_end} ps")
        check(n == vn, f"record {i}: {n} B in the pcap, {vn} B in the VCD")
    return f"{len(recs)} pcap records = VCD rx ends (ns) in both directions, lengths equal"


# ---- regions ----------------------------------------------------------------

def cmd_regions(c, a):
    if a.workload == "prof_regions":
        args = [c.fw("prof_regions.elf")]
        want = {"loop_cold", "loop_warm", "sum_words"}
    else:
        args = [c.fw("net_udprx.elf"), "--scenario", c.scenario("udprx.scenario.json"),
                "--fw-param", "count=20", "--fw-param", "flags=verify"]
        want = {"net_" + k for k in ("driver", "copy", "ipchk", "l4chk", "proto", "appcopy", "app")}
    stats, w = c.run_stats(a.workload, args, expect=0)
    clk = clock_ps(stats)
    names = {n.split(".")[-1]: n for n in w.names("board.regions.")}
    check(want <= set(names), f"region wires {sorted(names)}: missing {sorted(want - set(names))}")
    by_id = {r["id"]: r for r in stats["regions"]}
    # The ELF's region names (.l3vp.regions) give each wire its id; the
    # wire's name is the region name with every other character made '_'.
    ids = {re.sub(r"[^A-Za-z0-9_]", "_", name): rid for rid, name in region_names(args[0]).items()}
    if a.workload == "udprx" and ids.get("net_copy") not in by_id:
        # The default (zero-copy) build has no copy phase: named, never entered.
        check(not w.spans(names["net_copy"]), "net_copy: spans, but no copy region in --stats")
        want.discard("net_copy")
    out = []
    for n in sorted(want):
        check(n in ids, f"{n}: not named in {args[0]} (names: {sorted(ids)})")
        r = by_id.get(ids[n])
        check(r is not None, f"{n}: region 0x{ids[n]:08x} not in --stats regions")
        sp = w.spans(names[n])
        check(all(e is not None for _, e in sp), f"{n}: a span is still open at the end")
        total = sum(e - s for s, e in sp)
        check(total % clk == 0, f"{n}: spans sum to {total} ps, not whole clocks")
        cyc = total // clk
        check(r["unbalanced"] == 0, f"{n}: {r['unbalanced']} unbalanced marks")
        check(len(sp) == r["entries"] and cyc == r["cycles"],
              f"{n} (0x{ids[n]:08x}): {len(sp)} spans, {cyc} cycles; --stats: {r['entries']} entries, "
              f"{r['cycles']} cycles")
        check(sp, f"{n}: never entered")
        out.append(f"{n} {len(sp)}x{cyc}")
    # Nesting: depth never negative and equal to the number of open named or
    # unnamed regions; current names the innermost (the last opened).
    cur = w.transitions("board.regions.current")
    depth = w.transitions("board.regions.depth")
    check(all(v >= 0 for _, _, v in depth), "negative depth")
    check({t for t, _, _ in cur[1:]} <= {t for t, _, _ in depth[1:]} | {t for t, _, _ in cur[:1]},
          "regions.current changed without a depth change")
    open_named = []  # named regions open, in opening order
    events = sorted([(t, v, n) for n in want for t, _, v in w.transitions(names[n])[1:]])
    for t, v, n in events:
        if v:
            open_named.append(n)
        else:
            check(n in open_named, f"{n} closed at {t} ps without being open")
            open_named.remove(n)
        if w.at("board.regions.depth", t) == len(open_named) and open_named:
            check(str(w.at("board.regions.current", t)).replace(".", "_") == open_named[-1],
                  f"at {t} ps: current {w.at('board.regions.current', t)}, innermost open {open_named[-1]}")
        check(w.at("board.regions.depth", t) >= len(open_named),
              f"at {t} ps: depth {w.at('board.regions.depth', t)} < {len(open_named)} open named regions")
        if not v and w.at("board.regions.depth", t) == 0:
            cur_name = w.at("board.regions.current", t)
            check(cur_name == "-", f"at {t} ps: depth 0 but current {cur_name}")
    return f"{a.workload}: " + ", ".join(out) + " = --stats regions (entries x cycles); nesting consistent"


# ---- no influence, determinism -------------------------------------------------

def sim_stats(s):
    s = dict(s)
    s.pop("host", None)
    return s


def diff(a, b, path=""):
    if isinstance(a, dict) and isinstance(b, dict):
        for k in sorted(set(a) | set(b)):
            r = diff(a.get(k), b.get(k), f"{path}.{k}")
            if r:
                return r
        return None
    return None if a == b else f"{path}: {a!r} != {b!r}"


def cmd_nochange(c, a):
    # --max-time: the per-instruction groups of "all" make a long run slow.
    if a.workload == "timer":
        args = [c.fw("timer.elf")] + (["--max-time", a.max_time] if a.max_time else [])
    else:
        args = ping_args(c, a.max_time or "250ms")
    base, _ = c.run_stats(a.workload + "-novcd", args, expect=None, vcd=False)
    out = []
    for sig in a.signals:
        st, _ = c.run_stats(f"{a.workload}-{sig}", args + ["--vcd-signals", sig], expect=None, parse=False)
        d = diff(sim_stats(base), sim_stats(st))
        check(d is None, f"--vcd-signals {sig} changed the statistics: {d}")
        # The groups were really traced (the file is not parsed: "all" is
        # large, its contents are other tests' business).
        with open(c.path(f"{a.workload}-{sig}.vcd"), "rb") as f:
            head = f.read(1 << 16)
        for var in [b" trap $end", b" irl $end"] + ([b" pc $end", b" busy $end"] if sig == "all" else []):
            check(var in head, f"--vcd-signals {sig}: no{var.decode()[:-5]} in the VCD")
        check(os.path.getsize(c.path(f"{a.workload}-{sig}.vcd")) > 20000, f"--vcd-signals {sig}: tiny VCD")
        out.append(sig)
    return (f"{a.workload}{' to ' + a.max_time if a.max_time else ''}: --stats (without host) identical "
            f"with no --vcd and --vcd-signals {', '.join(out)}")


def cmd_quantum(c, a):
    """The CPU's changes (traps, PSR, regions, AHB accesses with --vcd-signals
    all) carry their annotated times, so the quantum of temporal decoupling
    moves nothing."""
    files = []
    for q in ("10us", "1ms"):
        p = c.path(f"q{q}.vcd")
        c.run(ping_args(c, a.max_time) + ["-q", "--quantum", q, "--vcd", p, "--vcd-signals", a.signals], expect=None)
        with open(p, "rb") as f:
            files.append(f.read())
    check(len(files[0]) > 10000, "tiny VCD")
    if files[0] != files[1]:
        a0, a1 = files[0].splitlines(), files[1].splitlines()
        i = next((i for i, (x, y) in enumerate(zip(a0, a1)) if x != y), min(len(a0), len(a1)))
        raise Fail(f"VCD differs between --quantum 10us and 1ms from line {i + 1}: "
                   f"{a0[i:i + 1]} vs {a1[i:i + 1]}")
    if len(files[0]) < 20 << 20:
        Wave(c.path("q10us.vcd"))  # and it is a valid VCD (the large "all" file is not parsed)
    return f"net_ping VCD of {a.signals} ({len(files[0])} bytes) byte-identical for --quantum 10us and 1ms"


# ---- window -----------------------------------------------------------------

def cmd_window(c, a):
    """--vcd-start/--vcd-end on timer.elf: [5 ms, 7 ms] (boot, UART output;
    timer 1 starts at ~18 ms) and [30 ms, 33.5 ms] (underflows, IRQs)."""
    _, full = c.run_stats("full", [c.fw("timer.elf")], expect=0)
    out = []
    for start, end, lo, hi in (("5ms", "7ms", 5 * MS, 7 * MS), ("30ms", "33500us", 30 * MS, 33500 * 10**6)):
        _, win = c.run_stats(f"win{start}", [c.fw("timer.elf"), "--vcd-start", start, "--vcd-end", end], expect=0)
        check(win.dump_time == lo, f"$dumpvars at {win.dump_time} ps (expected {lo})")
        check(all(lo <= t <= hi for t in win.times),
              f"times outside [{start}, {end}]: {[t for t in win.times if not lo <= t <= hi][:3]}")
        check(set(win.changes) == set(full.changes), "the windowed file declares other signals")
        n = 0
        for name in full.changes:
            check(win.at(name, lo) == full.at(name, lo),
                  f"{name} at {start}: {win.at(name, lo)} (full run {full.at(name, lo)})")
            inside = [(t, v) for t, o, v in full.transitions(name) if lo < t <= hi]
            got = [(t, v) for t, o, v in win.transitions(name) if t > lo]
            check(got == inside, f"{name}: window changes {got[:3]} != full file's {inside[:3]}")
            n += len(got)
        check(n >= 5, f"only {n} changes in [{start}, {end}]")
        out.append(f"[{start}, {end}] {n} changes")
    uf = len(win.rises("board.timer.t1.underflow"))
    check(uf == 4, f"{uf} underflows in [30 ms, 33.5 ms] (expected 4)")
    return "windows: dump = the full run's values at the start, changes = the full file's: " + ", ".join(out)


# ---- GTKWave tools ----------------------------------------------------------------

def same_changes(a, b, what):
    check(set(a.changes) == set(b.changes),
          f"{what}: signals differ: {sorted(set(a.changes) ^ set(b.changes))[:5]}")
    for name in a.changes:
        x = [(t, v) for t, _, v in a.transitions(name)]
        y = [(t, v) for t, _, v in b.transitions(name)]
        check(x == y, f"{what}: {name}: {x[:4]} vs {y[:4]}")


def cmd_gtkwave(c, a):
    for tool in ("vcd2fst", "fst2vcd"):
        check(shutil.which(tool), f"{tool} not on PATH (Debian package gtkwave; scripts/setup installs it)")
    _, w = c.run_stats("gtk", ping_args(c, "150ms"), expect=None)
    fst, back = c.path("gtk.fst"), c.path("back.vcd")
    r = subprocess.run(["vcd2fst", c.path("gtk.vcd"), fst], capture_output=True, text=True)
    check(r.returncode == 0 and os.path.getsize(fst) > 0, f"vcd2fst: exit {r.returncode}: {r.stderr.strip()}")
    with open(back, "w") as f:
        r = subprocess.run(["fst2vcd", fst], stdout=f, stderr=subprocess.PIPE, text=True)
    check(r.returncode == 0, f"fst2vcd: exit {r.returncode}: {r.stderr.strip()}")
    same_changes(w, Wave(back), "vcd2fst + fst2vcd")
    # --vcd NAME.fst converts through vcd2fst itself.
    fst2 = c.path("direct.fst")
    c.run(ping_args(c, "150ms") + ["-q", "--vcd", fst2], expect=None)
    check(not os.path.exists(fst2 + ".tmp.vcd"), "--vcd x.fst left its temporary VCD behind")
    back2 = c.path("back2.vcd")
    with open(back2, "w") as f:
        r = subprocess.run(["fst2vcd", fst2], stdout=f, stderr=subprocess.PIPE, text=True)
    check(r.returncode == 0, f"fst2vcd {fst2}: exit {r.returncode}")
    same_changes(w, Wave(back2), "--vcd x.fst")
    n = sum(len(v) for v in w.changes.values())
    return f"vcd2fst/fst2vcd and --vcd .fst keep all {n} changes of {len(w.changes)} signals"


# ---- size -------------------------------------------------------------------

def cmd_cap(c, a):
    """--vcd-max-size on timer.elf with every group to 20 ms (the
    file once grew by about 2 GB per simulated second, without a limit)."""
    args = [c.fw("timer.elf"), "--max-time", "20ms", "--vcd-signals", "all"]
    full_stats, full = c.run_stats("full", args, expect=4)  # max-time reached
    full_size = os.path.getsize(c.path("full.vcd"))
    cap = full_size // 3
    st, v = c.path("cap.json"), c.path("cap.vcd")
    r = c.run(args + ["-q", "--stats", st, "--vcd", v, "--vcd-max-size", str(cap)], expect=4)
    with open(st) as f:
        d = diff(sim_stats(full_stats), sim_stats(json.load(f)))
    check(d is None, f"--vcd-max-size changed the statistics: {d}")
    lines = [x for x in r.stderr.splitlines() if not x.startswith("leon3vp: max-time reached")]
    check(len(lines) == 1 and "--vcd: the file reached --vcd-max-size" in lines[0], f"stderr {r.stderr!r}")
    size = os.path.getsize(v)
    check(cap - 4096 < size <= cap, f"{size} bytes with --vcd-max-size {cap} (full file {full_size})")
    w = Wave(v)  # parses: the time steps increase
    notes = [x for x in w.comments if x.startswith("truncated at --vcd-max-size")]
    check(len(notes) == 1, f"no truncation note in {w.comments}")
    cut = int(re.search(r"nothing from #(\d+) on", notes[0]).group(1))
    check(cut in full.times, f"the cut at #{cut} is not a time step of the full file")
    check(w.times == [t for t in full.times if t < cut], "the time steps before the cut differ from the full file's")
    for name, ch in full.changes.items():
        check(w.changes[name] == [(t, x) for t, x in ch if t < cut], f"{name}: changes before the cut differ")
    with open(v, "rb") as f:
        tail = f.read()[-300:]
    check(tail.endswith(b"the run went on to its end\n$end\n") and tail.rfind(b"\n#") < tail.rfind(b"$comment"),
          f"the file does not end with the note: {tail[-120:]!r}")
    # GTKWave's own VCD reader (vcd2fst) takes it whole.
    check(shutil.which("vcd2fst") and shutil.which("fst2vcd"), "vcd2fst/fst2vcd not on PATH (scripts/setup)")
    fst, back = c.path("cap.fst"), c.path("cap_back.vcd")
    p = subprocess.run(["vcd2fst", v, fst], capture_output=True, text=True)
    check(p.returncode == 0, f"vcd2fst: exit {p.returncode}: {p.stderr.strip()}")
    with open(back, "w") as f:
        p = subprocess.run(["fst2vcd", fst], stdout=f, stderr=subprocess.PIPE, text=True)
    check(p.returncode == 0, f"fst2vcd: exit {p.returncode}")
    same_changes(w, Wave(back), "vcd2fst + fst2vcd of the capped file")
    n = sum(len(x) for x in w.changes.values())
    return (f"{size} of {full_size} bytes under --vcd-max-size {cap}, cut at #{cut} with the note; {n} changes = "
            f"the full file's before it; statistics unchanged; vcd2fst reads it")


def cmd_sizewarn(c, a):
    """One warning line before the run when the file is expected past 1 GB
    (the selection's peak rate x the window), none when it is not or when
    --vcd-max-size keeps it smaller."""
    hello, v = c.fw("hello.elf"), c.path("w.vcd")
    cases = [  # (arguments, warning expected, text it must hold)
        (["--vcd-signals", "all", "--max-time", "10s"], True, "for the 10s written"),
        (["--vcd-signals", "all"], True, "no end set"),
        (["--vcd-signals", "all", "--vcd-start", "1s", "--vcd-end", "1001ms"], False, ""),
        (["--vcd-signals", "all", "--max-time", "10s", "--vcd-max-size", "100M"], False, ""),
        (["--max-time", "10s"], False, ""),
    ]
    for args, warn, text in cases:
        r = c.run([hello, "-q", "--vcd", v] + args, expect=0)
        lines = r.stderr.splitlines()
        if warn:
            check(len(lines) == 1 and lines[0].startswith("leon3vp: warning: --vcd: ") and text in lines[0]
                  and "--vcd-max-size" in lines[0], f"{' '.join(args)}: stderr {r.stderr!r} (one warning: {text!r})")
        else:
            check(not lines, f"{' '.join(args)}: unexpected {r.stderr!r}")
    return f"{len(cases)} cases: a warning exactly when the file may pass 1 GB"


# ---- errors -------------------------------------------------------------------

def cmd_errors(c, a):
    hello = c.fw("hello.elf")
    v = c.path("x.vcd")
    cases = [
        (["--vcd", v, "--vcd-signals", "cpu,bogus"], "--vcd-signals: unknown signal group 'bogus'", v),
        (["--vcd", v, "--vcd-signals", ","], "--vcd-signals: empty signal list", v),
        (["--vcd", v, "--vcd-start", "7ms", "--vcd-end", "5ms"], "--vcd-end: 5ms is before --vcd-start 7ms", v),
        (["--vcd", v, "--vcd-start", "5xs"], "--vcd-start: '5xs' is not a duration", v),
        (["--vcd-start", "5ms"], "--vcd-start needs --vcd FILE", None),
        (["--vcd-signals", "irq"], "--vcd-signals needs --vcd FILE", None),
        (["--vcd", "/nonexistent/x.vcd"], "--vcd: cannot create '/nonexistent/x.vcd'", None),
        (["--vcd", "/dev/full"], "--vcd: write to '/dev/full' failed: No space left on device", None),
        (["--vcd", v, "--vcd-max-size", "10X"], "--vcd-max-size: '10X' is not a size: unknown unit 'X'", v),
        (["--vcd", v, "--vcd-max-size", "0"], "--vcd-max-size: '0' is not a positive size", v),
        (["--vcd", v, "--vcd-max-size", "M"], "--vcd-max-size: 'M' is not a size", v),
        (["--vcd", v, "--vcd-max-size", "99999999999999999999"], "--vcd-max-size: '99999999999999999999' is too large", v),
        (["--vcd-max-size", "5M"], "--vcd-max-size needs --vcd FILE", None),
    ]
    for args, msg, no_file in cases:
        r = c.run([hello, "-q"] + args, expect=2)
        lines = r.stderr.splitlines()
        check(len(lines) == 1 and lines[0].startswith("leon3vp: error: ") and msg in lines[0],
              f"{' '.join(args)}: stderr {r.stderr!r} (expected one line with {msg!r})")
        if no_file:
            check(not os.path.exists(no_file), f"{' '.join(args)}: left {no_file} behind")
    return f"{len(cases)} bad --vcd uses: exit 2, one line naming the problem"


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("leon3vp")
    p.add_argument("fw_dir")
    p.add_argument("scenario_dir")
    p.add_argument("--keep", action="store_true", help="keep the temporary directory")
    sub = p.add_subparsers(dest="cmd", required=True)
    for n in ("timer", "irqchain", "pcap", "window", "gtkwave", "errors", "cap", "sizewarn"):
        sub.add_parser(n)
    qp = sub.add_parser("quantum")
    qp.add_argument("--signals", default="default")
    qp.add_argument("--max-time", default="250ms")
    sub.add_parser("link").add_argument("--mbps", type=int, choices=[10, 100], required=True)
    sub.add_parser("regions").add_argument("workload", choices=["prof_regions", "udprx"])
    nc = sub.add_parser("nochange")
    nc.add_argument("workload", choices=["timer", "net_ping"])
    nc.add_argument("--signals", action="append", required=True)
    nc.add_argument("--max-time")
    a = p.parse_args()
    c = Ctx(a)
    try:
        msg = globals()["cmd_" + a.cmd](c, a)
    except (Fail, AssertionError) as e:
        print(f"FAIL {a.cmd}: {e}")
        print(f"(files in {c.tmp})")
        return 1
    if not a.keep:
        shutil.rmtree(c.tmp, ignore_errors=True)
    print(f"PASS {a.cmd}: {msg}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
