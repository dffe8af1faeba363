#!/usr/bin/python3
"""Driver for the leon3vp command-line tests (registered with CTest).

  run_cli_test.py LEON3VP check [--exit N] [--stderr-has TEXT]... [--stderr-lines N]
                                [--stdout TEXT] [--stdout-has TEXT]... [--file-equals PATH TEXT]
                                -- ARGS...
  run_cli_test.py LEON3VP determinism FIRMWARE [--expect-exit N] [--expect-irqs N] [--profile]
                                [--extra=ARG]...
  run_cli_test.py LEON3VP trace FIRMWARE
  run_cli_test.py LEON3VP net FIRMWARE --scenario FILE [--extra=ARG]... [--expect-mbps N]
  run_cli_test.py LEON3VP tap FIRMWARE --netns-tap SCRIPT
  run_cli_test.py LEON3VP txqueue FIRMWARE [--repeat N]   (a raw flood: bounded memory, queue drops)
  run_cli_test.py LEON3VP profile FIRMWARE   (firmware/apps/prof_regions only)
  run_cli_test.py LEON3VP set-changes FIRMWARE --set KEY=VALUE --stat PATH [--expect-more]
  run_cli_test.py LEON3VP version FIRMWARE OTHER_FIRMWARE
  run_cli_test.py LEON3VP schema FIRMWARE [--extra=ARG]...
  run_cli_test.py LEON3VP signal FIRMWARE --scenario FILE --signal INT|TERM [--twice]
  run_cli_test.py LEON3VP progress FIRMWARE [--quiet] -- ARGS...

In ARGS, "@trunc:PATH:N" is replaced by a temporary copy of the first N bytes
of PATH and "@tmp:NAME" by a fresh temporary file name. Made in the test's
temporary directory (nothing big is checked in): "@fifo:NAME" a FIFO,
"@empty:NAME" an empty file, "@big:NAME:MIB" a sparse file of MIB MiB,
"@elf:KIND:PATH" a copy of the ELF PATH with one defect (craft_elf()).
"@nothing" is an empty argument (CMake drops "" from a list).

  run_cli_test.py LEON3VP stdout-full ARGS...   (stdout is /dev/full: exit 2, one line)

Every run must end with a normal exit (no signal: no crash, no abort).
"""
import argparse
import collections
import json
import re
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "scripts", "lib"))
import l3vp  # noqa: E402

TMP = tempfile.mkdtemp(prefix="l3vp_cli_")


def fail(msg):
    print("FAIL: " + msg)
    sys.exit(1)


def expand(arg):
    if arg == "@nothing":
        return ""
    if arg.startswith("@trunc:"):
        path, n = arg[len("@trunc:"):].rsplit(":", 1)
        out = os.path.join(TMP, "trunc_" + os.path.basename(path))
        with open(path, "rb") as f:
            data = f.read(int(n))
        with open(out, "wb") as f:
            f.write(data)
        return out
    if arg.startswith("@tmp:"):
        return os.path.join(TMP, arg[len("@tmp:"):])
    if arg.startswith("@fifo:"):
        out = os.path.join(TMP, arg[len("@fifo:"):])
        os.mkfifo(out)
        return out
    if arg.startswith("@empty:"):
        out = os.path.join(TMP, arg[len("@empty:"):])
        open(out, "wb").close()
        return out
    if arg.startswith("@big:"):
        name, mib = arg[len("@big:"):].rsplit(":", 1)
        out = os.path.join(TMP, name)
        with open(out, "wb") as f:
            f.truncate(int(mib) << 20)  # sparse: costs no disk space
        return out
    if arg.startswith("@elf:"):
        kind, path = arg[len("@elf:"):].split(":", 1)
        return craft_elf(kind, path)
    return arg


# ELF32 big-endian header fields (offsets into the file) and program
# header fields (offsets into one 32-byte entry).
EH_ENTRY, EH_PHOFF, EH_PHENTSIZE, EH_PHNUM = 24, 28, 42, 44
PH_PADDR, PH_FILESZ, PH_MEMSZ = 12, 16, 20


def craft_elf(kind, path):
    """A copy of the (good) ELF `path` with one defect; pyelftools finds the
    first PT_LOAD entry, struct patches the bytes."""
    import struct
    from elftools.elf.elffile import ELFFile
    with open(path, "rb") as f:
        data = bytearray(f.read())
        elf = ELFFile(f)
        phoff, phentsize = elf["e_phoff"], elf["e_phentsize"]
        load = next(i for i, seg in enumerate(elf.iter_segments()) if seg["p_type"] == "PT_LOAD")
        entry = elf["e_entry"]
    ph = phoff + load * phentsize

    def put(off, fmt, value):
        struct.pack_into(">" + fmt, data, off, value)

    def get(off, fmt):
        return struct.unpack_from(">" + fmt, data, off)[0]
    if kind == "phentsize":
        put(EH_PHENTSIZE, "H", 40)
    elif kind == "entry_unaligned":
        put(EH_ENTRY, "I", entry + 2)
    elif kind == "phdrs_past_eof":
        put(EH_PHOFF, "I", len(data) - 8)
    elif kind == "filesz_gt_memsz":
        put(ph + PH_MEMSZ, "I", get(ph + PH_FILESZ, "I") - 4)
    elif kind == "wraps":
        put(ph + PH_PADDR, "I", 0xFFFFF000)
    elif kind == "overlap":
        # A new table at the end of the file: the load segment and a copy of
        # it 0x800 bytes higher (the two overlap).
        seg = bytes(data[ph:ph + phentsize])
        second = bytearray(seg)
        struct.pack_into(">I", second, PH_PADDR, get(ph + PH_PADDR, "I") + 0x800)
        struct.pack_into(">I", second, PH_PADDR - 4, get(ph + PH_PADDR - 4, "I") + 0x800)  # p_vaddr
        while len(data) % 4:
            data.append(0)
        put(EH_PHOFF, "I", len(data))
        put(EH_PHNUM, "H", 2)
        data += seg + bytes(second)
    else:
        fail("unknown ELF defect " + kind)
    out = os.path.join(TMP, "%s_%s" % (kind, os.path.basename(path)))
    with open(out, "wb") as f:
        f.write(data)
    return out


def run(leon3vp, args, timeout=120):
    try:
        p = l3vp.run(leon3vp, None, extra=[expand(a) for a in args], timeout=timeout, stdin=None)
    except l3vp.RunTimeout as e:
        fail("timeout: " + " ".join(e.cmd))
    cmd, out, err = p.cmd, p.stdout, p.stderr
    print("$ " + " ".join(cmd))
    print("exit %d\n--- stdout ---\n%s--- stderr ---\n%s" % (p.returncode, out, err))
    # A signal (crash, abort) shows as a negative status. Exit statuses of
    # 128 and more are legitimate firmware exit codes (%o0 & 0xFF); bad-input
    # tests pin the status to 2 anyway.
    if p.returncode < 0:
        fail("abnormal termination (signal %d): crash or abort" % -p.returncode)
    return p.returncode, out, err


def cmd_check(a):
    args = list(a.args)
    stats = None
    if a.stats_has or a.stats_len:
        stats = os.path.join(TMP, "check_stats.json")
        args = ["--stats", stats] + args
    code, out, err = run(a.leon3vp, args)
    if stats:
        with open(stats) as f:
            s = json.load(f)
        for item in a.stats_len or []:
            key, want = item.split("=", 1)
            got = l3vp.stats_get(s, key)
            if not isinstance(got, list) or len(got) != int(want):
                fail("stats %s has %s entries, expected %s" % (
                    key, len(got) if isinstance(got, list) else "no list of", want))
        for item in a.stats_has or []:
            key, want = item.split("=", 1)
            got = l3vp.stats_get(s, key)
            if str(got) != want:
                fail("stats %s = %r, expected %s" % (key, got, want))
    if a.exit is not None and code != a.exit:
        fail("exit status %d, expected %d" % (code, a.exit))
    lines = err.splitlines()
    if a.stderr_lines is not None and len(lines) != a.stderr_lines:
        fail("%d stderr lines, expected %d" % (len(lines), a.stderr_lines))
    if a.stderr_max_lines is not None and len(lines) > a.stderr_max_lines:
        fail("%d stderr lines, expected at most %d" % (len(lines), a.stderr_max_lines))
    for s in a.stderr_has or []:
        if s not in err:
            fail("stderr lacks %r" % s)
    for pat in a.stderr_match or []:
        if not re.search(pat, err, re.M):
            fail("no stderr line matches %r" % pat)
    for s in a.stderr_lacks or []:
        if expand(s) in err:
            fail("stderr has %r" % expand(s))
    for path in a.file_absent or []:
        if os.path.exists(expand(path)):
            fail("%s exists (an output of the refused run was left behind)" % expand(path))
    if a.stdout is not None and out != a.stdout.encode().decode("unicode_escape"):
        fail("stdout %r, expected %r" % (out, a.stdout))
    for s in a.stdout_has or []:
        if s not in out:
            fail("stdout lacks %r" % s)
    if a.file_equals:
        path, text = expand(a.file_equals[0]), a.file_equals[1].encode().decode("unicode_escape")
        with open(path) as f:
            got = f.read()
        if got != text:
            fail("%s holds %r, expected %r" % (path, got, text))
    for path, text in a.file_has or []:
        with open(expand(path)) as f:
            if text not in f.read():
                fail("%s lacks %r" % (expand(path), text))
    print("PASS")




def cmd_stdout_full(a):
    """The UART output goes to stdout, and stdout is /dev/full: the lost
    output must be reported (one line naming stdout, exit 2)."""
    cmd = [a.leon3vp] + [expand(x) for x in a.args]
    print("$ " + " ".join(cmd) + " > /dev/full")
    with open("/dev/full", "wb") as full:
        try:
            p = subprocess.run(cmd, stdin=subprocess.DEVNULL, stdout=full, stderr=subprocess.PIPE, timeout=120)
        except subprocess.TimeoutExpired:
            fail("timeout")
    err = p.stderr.decode("utf-8", "replace")
    print("exit %d\n--- stderr ---\n%s" % (p.returncode, err))
    if p.returncode != 2:
        fail("exit status %d, expected 2" % p.returncode)
    lines = err.splitlines()
    if len(lines) != 1 or "leon3vp: error: UART output: write to stdout failed" not in lines[0]:
        fail("expected one line 'leon3vp: error: UART output: write to stdout failed: ...'")
    print("PASS")


def cmd_determinism(a):
    runs = []
    variants = [["--quantum", q] for q in ("0ns", "25ns", "1us", "7us", "100us", "10ms")]
    variants.append(["--no-dmi"])
    variants.append(["--no-dmi", "--quantum", "3us"])
    for v in variants:
        stats = os.path.join(TMP, "stats_%d.json" % len(runs))
        extra = list(a.extra or [])
        if a.profile:
            extra += ["--profile-out", os.path.join(TMP, "profile_%d.txt" % len(runs))]
        code, out, err = run(a.leon3vp, v + extra + ["--stats", stats, a.firmware])
        with open(stats) as f:
            s = json.load(f)
        if a.profile and "profile" not in s:
            fail("%s: stats lack the profile" % v)
        runs.append((v, code, out, s))
    ref_v, ref_code, ref_out, ref = runs[0]
    # What must not move: every statistic the registry marks invariant
    # (leon3vp --list-stats, column Inv), not a list kept here.
    patterns, objects = schema_patterns(schema_rows(a.leon3vp))
    inv_ref = invariant_values(ref, patterns, objects)
    for must in ("cycles", "instructions.total", "timing.stalls.icache_miss", "stop.reason"):
        if must not in inv_ref:
            fail("the registry does not mark %s invariant (or the walk missed it)" % must)
    if a.expect_exit is not None and ref_code != a.expect_exit:
        fail("exit status %d, expected %d" % (ref_code, a.expect_exit))
    if a.expect_irqs is not None and ref["interrupts"] != a.expect_irqs:
        fail("%d interrupts, expected %d" % (ref["interrupts"], a.expect_irqs))
    def waits(s):  # AHB arbitration waits per master (DMI-independent)
        return [(m["name"], m["waits"], m["wait_cycles"]) for m in s["bus"]["ahb"]["masters"]]
    if a.expect_contention and not any(w for _, w, _ in waits(ref)):
        fail("no AHB arbitration wait happened: the test does not exercise contention")
    for v, code, out, s in runs[1:]:
        if waits(s) != waits(ref):
            fail("%s: AHB waits %s differ from %s with %s" % (v, waits(s), waits(ref), ref_v))
        if code != ref_code or out != ref_out:
            fail("%s: exit/UART output differ from %s" % (v, ref_v))
        got = invariant_values(s, patterns, objects)
        if set(got) != set(inv_ref):
            fail("%s: invariant statistics %s present in only one run" %
                 (v, sorted(set(got) ^ set(inv_ref))))
        for k in sorted(inv_ref):
            if got[k] != inv_ref[k]:
                fail("%s: %s = %s differs from %s with %s" % (v, k, got[k], inv_ref[k], ref_v))
        if s["cpu_bus"]["powerdowns"] != ref["cpu_bus"]["powerdowns"]:
            fail("%s: power-down count differs" % v)
        if s["stop"] != ref["stop"]:
            fail("%s: stop record differs" % v)
    # The runs were not trivially identical: the quantum did change the
    # number of synchronisations, DMI the number of bus transactions.
    syncs = {s["cpu_bus"]["syncs"] for _, _, _, s in runs}
    reads = {s["cpu_bus"]["reads"] for _, _, _, s in runs}
    if len(syncs) < 2 or len(reads) < 2:
        fail("variants did not exercise different quanta/DMI paths")
    print("PASS: %d variants, %d invariant statistics identical, %d cycles, %d instructions, AHB waits %s" %
          (len(runs), len(inv_ref), runs[0][3]["cycles"], runs[0][3]["instructions"]["total"],
           waits(runs[0][3])))


def tshark_arp(pcap):
    """(opcode, sender MAC, sender IP, target IP) of every ARP frame, via tshark."""
    p = subprocess.run(["tshark", "-n", "-r", pcap, "-T", "fields", "-e", "frame.time_relative", "-e", "arp.opcode",
                        "-e", "arp.src.hw_mac", "-e", "arp.src.proto_ipv4", "-e", "arp.dst.proto_ipv4",
                        "-e", "_ws.expert"], capture_output=True, timeout=60)
    txt = p.stdout.decode()
    print("$ tshark -r %s\n%s%s" % (pcap, txt, p.stderr.decode()))
    if p.returncode != 0:
        fail("tshark failed (exit %d)" % p.returncode)
    rows = [l.split("\t") for l in txt.splitlines() if l.strip()]
    return rows


def cmd_net(a):
    """greth_arp.S against the simulated PC: exit 0, pcap with request + reply."""
    if not shutil.which("tshark"):
        print("SKIP: tshark not installed")
        sys.exit(77)
    pcap, stats, res = (os.path.join(TMP, n) for n in ("arp.pcap", "stats.json", "results.json"))
    code, out, err = run(a.leon3vp, list(a.extra or []) + ["--scenario", a.scenario, "--pcap", pcap, "--stats", stats,
                                                           "--net-results", res, a.firmware])
    if code != 0:
        fail("exit status %d, expected 0 (ARP reply from 02:00:00:00:00:55)" % code)
    with open(stats) as f:
        s = json.load(f)
    with open(res) as f:
        r = json.load(f)
    rows = tshark_arp(pcap)
    if len(rows) != 2:
        fail("%d frames in the pcap, expected 2" % len(rows))
    req, rep = rows[0][1:5], rows[1][1:5]
    if req != ["1", "02:00:00:00:00:53", "192.168.0.53", "192.168.0.55"]:
        fail("first frame is not the ARP request: %r" % rows[0])
    if rep != ["2", "02:00:00:00:00:55", "192.168.0.55", "192.168.0.53"]:
        fail("second frame is not the ARP reply: %r" % rows[1])
    if any(len(r_) > 5 and r_[5] for r_ in rows):
        fail("tshark expert info on a frame: %r" % rows)
    if not float(rows[0][0]) < float(rows[1][0]):
        fail("reply not after the request")
    n = s["net"]
    checks = [("far_end", n["far_end"], "sim_host"), ("greth.tx_frames", n["greth"]["tx_frames"], 1),
              ("greth.rx_frames", n["greth"]["rx_frames"], 1), ("greth.tx_bytes", n["greth"]["tx_bytes"], 42),
              ("link.to_host.delivered", n["link"]["to_host"]["delivered"], 1),
              ("link.to_board.delivered", n["link"]["to_board"]["delivered"], 1),
              ("pcap_frames", n["pcap_frames"], 2),
              ("results == --net-results", n["results"] == r, True),
              ("results.host_stats.arp_requests_answered>0 or rx_frames", r["host_stats"]["rx_frames"], 1),
              ("config.net.speed_mbps", s["config"]["net"]["speed_mbps"], a.expect_mbps)]
    for what, got, want in checks:
        if got != want:
            fail("%s = %r, expected %r" % (what, got, want))
        print("ok  %-45s %r" % (what, got))
    masters = {m["name"]: m for m in s["bus"]["ahb"]["masters"]}
    g = masters.get("greth")
    if not g or g["hindex"] != 4 or g["reads"] == 0 or g["writes"] == 0:
        fail("GRETH DMA not seen as AHB master 4: %r" % g)
    if s["timing"]["dcache"]["snoop_invalidations"] < 1:
        fail("the GRETH's descriptor write-back did not snoop the D-cache")
    if s["devices"]["irqmp"]["pulses"]:
        fail("unexpected interrupt pulses %r (no IE bits set)" % s["devices"]["irqmp"]["pulses"])
    print("PASS")


def wire_ps(length, mbps=100):
    """A frame's time on the wire and the inter-frame gap, in ps (IEEE 802.3:
    preamble+SFD, data padded to 60, FCS; 12 byte times of gap)."""
    byte = 8 * 10**6 // mbps
    return (8 + max(length, 60) + 4) * byte, 12 * byte


def queue_reference(n, every_ps, length, depth):
    """What a transmit queue of `depth` frames lets through of `n` frames
    offered every `every_ps`: a frame holds its place from the offer until
    its last bit has left the wire; the wire sends them one gap apart.
    Returns (accepted, dropped)."""
    wire, ifg = wire_ps(length)
    ends, free, accepted = collections.deque(), 0, 0
    for i in range(n):
        t = i * every_ps
        while ends and ends[0] <= t:
            ends.popleft()
        if len(ends) >= depth:
            continue
        start = max(t, free)
        ends.append(start + wire)
        free = start + wire + ifg
        accepted += 1
    return accepted, n - accepted


def cmd_txqueue(a):
    """A raw flood far beyond the wire rate (one 16 KiB frame a
    million times at 1 us once queued 16 GB and died of std::bad_alloc): the
    host's transmit queue drops what does not fit and counts it; the run ends
    normally in bounded memory, and the counts are those of the queue and the
    wire computed here."""
    import resource
    n, every_us, length = a.repeat, 1, 16384
    frame = "020000000053" "020000000055" "88b5" + "a5" * (length - 14)
    last_ps = (n - 1) * every_us * 10**6
    scen = {"comment": "raw flood (generated by run_cli_test.py txqueue)",
            "duration": "%dus" % ((last_ps // 10**6) + 1000),
            "experiments": [{"type": "raw", "name": "flood", "spacing": "%dus" % every_us, "repeat": n,
                             "frames": [frame]}]}
    path, stats, res = (os.path.join(TMP, x) for x in ("flood.json", "stats.json", "results.json"))
    with open(path, "w") as f:
        json.dump(scen, f)
    limit = a.max_vm_mib << 20

    def cap():  # a run that queues without bound fails here, not on the machine
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    cmd = [a.leon3vp, "-q", "--scenario", path, "--stats", stats, "--net-results", res, a.firmware]
    print("$ " + " ".join(cmd))
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=300, preexec_fn=cap)
    print("exit %d\n--- stderr ---\n%s" % (p.returncode, p.stderr))
    if p.returncode != 0:
        fail("exit %d, expected 0 (the flood must not exhaust the simulator)" % p.returncode)
    rss_mib = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss // 1024
    if rss_mib > a.max_rss_mib:
        fail("max RSS %d MiB, expected at most %d" % (rss_mib, a.max_rss_mib))
    with open(res) as f:
        r = json.load(f)
    with open(stats) as f:
        s = json.load(f)
    depth = r["host"]["tx_queue"]
    acc, drop = queue_reference(n, every_us * 10**6, length, depth)
    hs, raw = r["host_stats"], r["experiments"][0]
    wire, ifg = wire_ps(length)
    checks = [("host_stats.tx_frames", hs["tx_frames"], acc), ("host_stats.tx_queue_drops", hs["tx_queue_drops"], drop),
              ("raw.sent", raw["sent"], n), ("raw.dropped", raw["dropped"], drop),
              ("link.to_board.submitted", s["net"]["link"]["to_board"]["submitted"], acc),
              ("stop.reason", s["stop"]["reason"], "scenario_end")]
    for what, got, want in checks:
        if got != want:
            fail("%s = %r, expected %r" % (what, got, want))
        print("ok  %-30s %r" % (what, got))
    # Plausible: the queue fills, then one frame leaves per wire time + gap.
    rate = depth + last_ps // (wire + ifg)
    if not (rate - 2 <= acc <= rate + 2) or drop == 0:
        fail("%d frames sent, %d dropped: not the wire rate (about %d)" % (acc, drop, rate))
    print("PASS: %d of %d frames sent (queue %d, %.3f ms each on the wire), %d dropped, max RSS %d MiB"
          % (acc, n, depth, (wire + ifg) / 1e9, drop, rss_mib))


def cmd_tap(a):
    """greth_arp.S through a TAP device: the namespace's kernel answers."""
    if os.geteuid() != 0:
        print("SKIP: needs root (CAP_NET_ADMIN + CAP_SYS_ADMIN) for ip netns / TAP devices")
        sys.exit(77)
    if not os.path.exists("/dev/net/tun"):
        print("SKIP: no /dev/net/tun")
        sys.exit(77)
    if not shutil.which("ip"):
        print("SKIP: no 'ip' command (iproute2)")
        sys.exit(77)
    name = "l3vpcli%d" % (os.getpid() % 10000)
    up = subprocess.run([a.netns_tap, "up", name], capture_output=True)
    if up.returncode != 0:
        subprocess.run([a.netns_tap, "down", name], capture_output=True)
        print("SKIP: scripts/netns-tap up failed (not permitted here?): " + up.stderr.decode().strip())
        sys.exit(77)
    try:
        pcap, stats = os.path.join(TMP, "tap.pcap"), os.path.join(TMP, "tap_stats.json")
        code, out, err = run(a.leon3vp, ["--tap", name, "--max-time", "8s", "--pcap", pcap, "--stats", stats,
                                         a.firmware])
        if code == 10:
            fail("no ARP reply from the namespace's kernel within the poll limit")
        if code not in (0, 1):
            fail("exit status %d (see greth_arp.S)" % code)
        with open(stats) as f:
            s = json.load(f)
        if s["net"]["far_end"] != "tap" or s["net"]["tap"]["to_tap"] < 1 or s["net"]["tap"]["from_tap"] < 1:
            fail("TAP counters %r" % s["net"].get("tap"))
        if shutil.which("tshark"):
            rows = tshark_arp(pcap)
            ops = [r_[1] for r_ in rows if len(r_) > 1]
            if "1" not in ops or "2" not in ops:
                fail("pcap lacks the ARP request/reply: %r" % rows)
        print("PASS")
    finally:
        subprocess.run([a.netns_tap, "down", name], capture_output=True)


def cmd_trace(a):
    trace = os.path.join(TMP, "trace.txt")
    stats = os.path.join(TMP, "stats.json")
    code, out, err = run(a.leon3vp, ["--trace", trace, "--stats", stats, a.firmware])
    with open(stats) as f:
        s = json.load(f)
    with open(trace) as f:
        lines = f.read().splitlines()
    for key in ("schema_version", "firmware", "stop", "sim_time_ns", "cycles", "instructions",
                "annulled", "traps", "interrupts", "idle_cycles", "host", "devices", "log", "bus"):
        if key not in s:
            fail("stats lack %r" % key)
    if s["schema_version"] != 2 or s["stop"]["reason"] != "exit" or s["stop"]["exit_status"] != code:
        fail("bad stop record %r" % s["stop"])
    by_class = sum(s["instructions"]["by_class"].values())
    if by_class != s["instructions"]["total"]:
        fail("by_class sums to %d, total %d" % (by_class, s["instructions"]["total"]))
    # One line per executed instruction (plus the final trapping one).
    if not (s["instructions"]["total"] <= len(lines) <= s["instructions"]["total"] + s["traps"] + 1):
        fail("%d trace lines for %d instructions" % (len(lines), s["instructions"]["total"]))
    first = lines[0].split()
    if first[0] != "40000000" or first[1] != "40000004":
        fail("first trace line %r does not start at the ELF entry" % lines[0])
    print("PASS: %d trace lines" % len(lines))


def cmd_profile(a):
    """Exact instruction and cycle counts of firmware/apps/prof_regions.

    Expected values come from the listing in prof_regions/loops.S (N = 100
    loop iterations, 64 words summed) and, for timed mode, from the timing
    model of docs/timing.md with the preset configuration:
      I-cache line fill (32 B, SDRAM) = 3 miss overhead + 1 AHB transfer
                                        + 7 SDRAM read_ws + 7 burst beats = 18
      D-cache line fill (16 B, SDRAM) = 3 + 1 + 7 + 3 = 14
      region_loop per call: sethi 1, st 2, mov 1, 4N loop, not-taken bne
        after subcc +2, st 2, retl 3, mov 1 = 4N + 12 cycles
      region (st BEGIN .. st END excluded), warm: st 2 + mov 1 + 4N + 2 = 4N + 5
    """
    n, words = 100, 64
    results = {}
    for mode in ("timed", "functional"):
        stats = os.path.join(TMP, "prof_%s.json" % mode)
        pcs = os.path.join(TMP, "prof_%s.pc" % mode)
        rep = os.path.join(TMP, "prof_%s.txt" % mode)
        code, out, err = run(a.leon3vp, ["--mode", mode, "--stats", stats, "--profile-out", rep,
                                         "--profile-pc", pcs, a.firmware])
        if code != 0 or "prof_regions: PASS" not in out:
            fail("%s: firmware failed (exit %d)" % (mode, code))
        with open(stats) as f:
            s = json.load(f)
        results[mode] = s
        if s["mode"] != mode or s["config"]["mode"] != mode:
            fail("%s: stats say mode %r" % (mode, s["mode"]))
        regions = {r["id"]: r for r in s["regions"]}
        funcs = {f["name"]: f for f in s["profile"]["functions"]}

        def expect(what, got, want):
            if got != want:
                fail("%s: %s = %r, expected %r" % (mode, what, got, want))
            print("ok  %-10s %-40s %r" % (mode, what, got))

        expect("regions", sorted(regions), [1, 2, 3])
        expect("region 1 entries", regions[1]["entries"], 1)
        expect("region 2 entries", regions[2]["entries"], 2)
        expect("region 1 instructions", regions[1]["instructions"], 4 * n + 2)
        expect("region 2 instructions", regions[2]["instructions"], 2 * (4 * n + 2))
        expect("region 2 by_class.branch", regions[2]["by_class"]["branch"], 2 * n)
        expect("region 2 by_class.store", regions[2]["by_class"]["store"], 2)
        expect("region 1 unbalanced", regions[1]["unbalanced"], 0)
        expect("region_loop instructions", funcs["region_loop"]["instructions"], 3 * (4 * n + 6))
        expect("sum_words instructions", funcs["sum_words"]["instructions"], 5 * words + 3)
        # region 3 = st BEGIN, the call sequence and sum_words: at least the function
        if regions[3]["instructions"] < 5 * words + 3:
            fail("%s: region 3 has fewer instructions than sum_words" % mode)
        # The flat profile accounts for every cycle and instruction of the run.
        expect("profile cycles = cycles - idle", s["profile"]["cycles"], s["cycles"] - s["idle_cycles"])
        expect("profile instructions", s["profile"]["instructions"], s["instructions"]["total"])
        expect("sum of function cycles", sum(f["cycles"] for f in funcs.values()), s["profile"]["cycles"])
        if mode == "functional":
            # 1 cycle per instruction, no bus costs, no caches.
            expect("region 1 cycles", regions[1]["cycles"], 4 * n + 2)
            expect("region 2 cycles", regions[2]["cycles"], 2 * (4 * n + 2))
            expect("region_loop cycles", funcs["region_loop"]["cycles"], 3 * (4 * n + 6))
            expect("sum_words dcache misses", funcs["sum_words"]["dcache_misses"], 0)
            expect("timing.dcache.read_misses", s["timing"]["dcache"]["read_misses"], 0)
        else:
            ifill, dfill = 18, 14
            expect("region 2 cycles (warm)", regions[2]["cycles"], 2 * (4 * n + 5))
            expect("region 2 stalls.branch", regions[2]["stalls"]["branch"], 2 * 2)
            expect("region 2 icache misses", regions[2]["icache_misses"], 0)
            expect("region 1 icache misses (cold)", regions[1]["icache_misses"], 1)
            expect("region 1 cycles (cold)", regions[1]["cycles"], 4 * n + 5 + ifill)
            expect("region_loop icache misses", funcs["region_loop"]["icache_misses"], 1)
            expect("region_loop cycles", funcs["region_loop"]["cycles"], 3 * (4 * n + 12) + ifill)
            expect("sum_words dcache misses", funcs["sum_words"]["dcache_misses"], words // 4)
            expect("region 3 dcache misses", regions[3]["dcache_misses"], words // 4)
            expect("region 3 stalls.dcache_miss", regions[3]["stalls"]["dcache_miss"], words // 4 * dfill)
            # 5 per word, 16 fills, not-taken bne +2, retl +2 (JMPL costs 3),
            # and its I-cache fills (0 or 1: whether its lines are warm
            # depends on what the linker put next to it)
            expect("sum_words cycles", funcs["sum_words"]["cycles"],
                   5 * words + 3 + words // 4 * dfill + 2 + 2 +
                   funcs["sum_words"]["icache_misses"] * ifill)
            t = s["timing"]
            expect("icache accesses = hits + misses + uncached", t["icache"]["accesses"],
                   t["icache"]["hits"] + t["icache"]["misses"] + t["icache"]["uncached"])
            cyc = (s["idle_cycles"] + sum(t["class_cycles"].values()) + t["annul_cycles"] +
                   t["trap_cycles"] + sum(t["stalls"].values()))
            expect("cycles accounted by class + stalls", cyc, s["cycles"])
        with open(rep) as f:
            report = f.read()
        for needle in ("Flat profile", "region_loop", "sum_words", "Regions"):
            if needle not in report:
                fail("%s: --profile report lacks %r" % (mode, needle))
        with open(pcs) as f:
            lines = [l.split() for l in f if not l.startswith("#")]
        loop_pcs = [l for l in lines if l[1] == "region_loop"]
        if len(loop_pcs) != 10 or sum(int(l[2]) for l in loop_pcs) != 3 * (4 * n + 6):
            fail("%s: per-PC histogram of region_loop wrong: %r" % (mode, loop_pcs))
        body = [l for l in loop_pcs if int(l[2]) == 3 * n]
        if len(body) != 4:
            fail("%s: expected 4 loop-body PCs executed 3N times, got %r" % (mode, body))
    # Same program, same instruction stream in both modes (up to the UART
    # polling loops, which depend on time): the marked work is identical.
    for rid in (1, 2):
        a_ = {r["id"]: r for r in results["timed"]["regions"]}[rid]
        b_ = {r["id"]: r for r in results["functional"]["regions"]}[rid]
        if a_["by_class"] != b_["by_class"]:
            fail("region %d instruction mix differs between modes" % rid)
    print("PASS")


def cmd_set_changes(a):
    """--set KEY=VALUE reaches the model: the stats' config echoes it and the
    statistic PATH differs from a run with the default (same firmware, same
    exit status and UART output: only the timing moved)."""
    key, value = a.set.split("=", 1)
    runs = []
    for extra in ([], ["--set", a.set]):
        stats = os.path.join(TMP, "set_%d.json" % len(runs))
        code, out, err = run(a.leon3vp, ["--stats", stats] + extra + [a.firmware])
        with open(stats) as f:
            runs.append((code, out, json.load(f)))
    (c0, o0, s0), (c1, o1, s1) = runs
    if c0 != c1 or o0 != o1:
        fail("exit status or UART output changed: %d %r / %d %r" % (c0, o0, c1, o1))
    got = l3vp.stats_get(s1, "config." + key)
    if str(got).lower() != value.lower():
        fail("config.%s = %r after --set %s" % (key, got, a.set))
    if str(l3vp.stats_get(s0, "config." + key)).lower() == value.lower():
        fail("config.%s is already %s by default: the test proves nothing" % (key, value))
    v0, v1 = l3vp.stats_get(s0, a.stat), l3vp.stats_get(s1, a.stat)
    if v0 is None or v0 == v1:
        fail("%s = %r with and without --set %s" % (a.stat, v0, a.set))
    if a.expect_more and not v1 > v0:
        fail("%s = %r with --set %s, not more than %r without" % (a.stat, v1, a.set, v0))
    print("%s: %r -> %r" % (a.stat, v0, v1))
    print("PASS")


def fnv1a64(data):
    h = 0xcbf29ce484222325
    for b in data:
        h = ((h ^ b) * 0x100000001b3) & 0xFFFFFFFFFFFFFFFF
    return "%016x" % h


def run_stats(leon3vp, args):
    path = os.path.join(TMP, "s%d.json" % len(os.listdir(TMP)))
    run(leon3vp, ["-q", "--stats", path] + args)
    with open(path) as f:
        return json.load(f)


def cmd_version_flag(a):
    """leon3vp --version: one stdout line "leon3vp VERSION" with the
    version --stats records (version.leon3vp), exit 0, nothing on stderr."""
    want = run_stats(a.leon3vp, [a.firmware])["version"]["leon3vp"]
    code, out, err = run(a.leon3vp, ["--version"])
    if code != 0:
        fail("exit status %d, expected 0" % code)
    if out != "leon3vp %s\n" % want:
        fail("stdout %r, expected %r" % (out, "leon3vp %s\n" % want))
    if err:
        fail("stderr %r, expected nothing" % err)
    print("PASS: leon3vp %s" % want)


def cmd_version(a):
    """The version block: the config hash follows the effective configuration,
    the firmware hash the ELF file (checked against an independent FNV-1a-64)."""
    base = run_stats(a.leon3vp, [a.firmware])
    v = base.get("version")
    if not isinstance(v, dict):
        fail("no version block")
    if not v.get("leon3vp"):
        fail("empty version.leon3vp")
    if v.get("hash") != "fnv1a64":
        fail("version.hash = %r" % v.get("hash"))
    with open(a.firmware, "rb") as f:
        want = fnv1a64(f.read())
    if v.get("firmware_hash") != want:
        fail("firmware_hash %r, expected FNV-1a-64 of the file %s" % (v.get("firmware_hash"), want))
    again = run_stats(a.leon3vp, [a.firmware])["version"]
    if again != v:
        fail("the same run gave another version block: %r vs %r" % (again, v))
    # One configuration value changed (two ways): another config hash, same firmware hash.
    for extra in (["--mode", "functional"], ["--quantum", "1us"]):
        w = run_stats(a.leon3vp, extra + [a.firmware])["version"]
        if w["config_hash"] == v["config_hash"]:
            fail("config_hash unchanged with %s" % " ".join(extra))
        if w["firmware_hash"] != v["firmware_hash"]:
            fail("firmware_hash changed with %s" % " ".join(extra))
    # Another ELF: another firmware hash, same config hash.
    w = run_stats(a.leon3vp, [a.other])["version"]
    if w["firmware_hash"] == v["firmware_hash"]:
        fail("firmware_hash unchanged for another ELF")
    if w["config_hash"] != v["config_hash"]:
        fail("config_hash changed with the ELF only")
    print("PASS")


def schema_rows(leon3vp):
    code, out, err = run(leon3vp, ["--list-stats"])
    if code != 0:
        fail("--list-stats exit %d" % code)
    rows = {}
    for line in out.splitlines()[2:]:
        cells = [c.strip() for c in line.strip().strip("|").split(" | ")]
        if len(cells) != 5 or not cells[0].startswith("`"):
            fail("--list-stats: bad row %r" % line)
        rows[cells[0].strip("`")] = cells
    return rows


def schema_patterns(rows):
    """Key path -> schema row (a vector row a.{x,y} gives a.x and a.y), and
    the set of "object" rows (they cover their whole subtree)."""
    patterns, objects = {}, set()
    for path, cells in rows.items():
        if "{" in path:
            base, keys = path[:-1].split(".{")
            for k in keys.split(","):
                patterns[base + "." + k] = cells
        else:
            patterns[path] = cells
        if cells[1].split(" ")[0] == "object":
            objects.add(path)
    return patterns, objects


def invariant_values(s, patterns, objects):
    """{concrete path: value} of every statistic of the --stats object `s`
    that the registry marks invariant (**inv**): what must not depend on the
    quantum or on DMI."""
    out = {}

    def walk(x, pat, path):
        if isinstance(x, dict) and pat not in objects and x:
            for k, v in x.items():
                walk(v, pat + "." + k if pat else k, path + "." + k if path else k)
        elif isinstance(x, list) and pat + "[]" in patterns:
            for i, v in enumerate(x):
                walk(v, pat + "[]", "%s[%d]" % (path, i))
        elif pat in patterns and "inv" in patterns[pat][3]:
            out[path] = x
    walk(s, "", "")
    return out


def cmd_schema(a):
    """Every key of a real --stats file is in the schema (--list-stats), and
    every unconditional schema key is in the file."""
    rows = schema_rows(a.leon3vp)
    patterns, objects = schema_patterns(rows)
    s = run_stats(a.leon3vp, (a.extra or []) + [a.firmware])

    def leaves(x, prefix):
        if isinstance(x, dict) and prefix not in objects and x:
            for k, v in x.items():
                yield from leaves(v, prefix + "." + k if prefix else k)
        elif isinstance(x, list) and prefix + "[]" in patterns:
            for v in x:
                yield from leaves(v, prefix + "[]")
            yield prefix + "[]"
        else:
            yield prefix
    seen = set(leaves(s, ""))
    missing = sorted(p for p in seen if p not in patterns)
    if missing:
        fail("keys of --stats not in --list-stats: %s" % ", ".join(missing))
    # Keys of conditional parts are "(optional)"; table fields exist only in
    # a row of the table.
    absent = sorted(p for p, cells in patterns.items()
                    if p not in seen and "[]." not in p and "(optional)" not in cells[1]
                    and not any(p.startswith(o + ".") for o in objects))
    if absent:
        fail("--list-stats keys missing from --stats: %s" % ", ".join(absent))
    print("PASS (%d keys checked against %d schema rows)" % (len(seen), len(rows)))
# --probe lines: "<ps> ps <name> key=value ..." (docs/user-guide.md "Probes").
PROBE_LINE = re.compile(r"^(\d+) ps ([a-z0-9_]+\.[a-z0-9_]+)((?: [a-z0-9_]+=[^ =]+)*)$")


def list_probes(leon3vp):
    """{name: [fields]} from leon3vp --list-probes."""
    code, out, err = run(leon3vp, ["--list-probes"])
    if code != 0 or err:
        fail("--list-probes: exit %d, stderr %r" % (code, err))
    probes = {}
    for line in out.splitlines():
        name, _, fields = line.partition(":")
        probes[name] = fields.split()
    return probes


def check_probe_lines(path, probes):
    """Every line of a --probe-out file is well formed and has exactly the
    fields --list-probes gives for its probe. Returns {name: lines}."""
    seen = {}
    with open(path) as f:
        for n, line in enumerate(f, 1):
            m = PROBE_LINE.match(line.rstrip("\n"))
            if not m:
                fail("%s:%d: not a probe line: %r" % (path, n, line))
            name = m.group(2)
            keys = [kv.split("=")[0] for kv in m.group(3).split()]
            if name not in probes:
                fail("%s:%d: probe %s is not in --list-probes" % (path, n, name))
            if keys != probes[name]:
                fail("%s:%d: %s has fields %s, --list-probes says %s" % (path, n, name, keys, probes[name]))
            seen[name] = seen.get(name, 0) + 1
    return seen


def probe_events(counts, name):
    """Events of probe `name`, or of every probe under the prefix `name`."""
    return sum(v for k, v in counts.items() if k == name or k.startswith(name + "."))


def cmd_probes(a):
    """Listening changes nothing (an observer never changes the model): the same run with a counting
    listener on every probe of the board's registry (--probe-all) plus text
    listeners (--probe PATTERN for each --text) and without gives the same
    exit status, UART output, pcap bytes and --stats (everything but the
    host's wall-clock figures)."""
    runs = []
    text = os.path.join(TMP, "probe.txt")
    for probe in (False, True):
        stats = os.path.join(TMP, "stats_probe%d.json" % probe)
        pcap = os.path.join(TMP, "probe%d.pcap" % probe)
        args = ["--probe-all"] if probe else []
        if probe and a.text:
            args += [x for pat in a.text for x in ("--probe", pat)] + ["--probe-out", text]
        args += list(a.extra or []) + ["--stats", stats, "--pcap", pcap, a.firmware]
        code, out, err = run(a.leon3vp, args, timeout=600)
        if not os.path.exists(stats):
            fail("exit status %d and no --stats file: %s" % (code, err.strip()))
        with open(stats) as f:
            s = json.load(f)
        with open(pcap, "rb") as f:
            cap = f.read()
        s.pop("host", None)  # wall time, MIPS: the host's, never the simulation's
        runs.append((code, out, err, s, cap))
    (c0, o0, _, s0, p0), (c1, o1, e1, s1, p1) = runs
    if a.expect_exit is not None and c0 != a.expect_exit:
        fail("exit status %d, expected %d" % (c0, a.expect_exit))
    # The listeners did see events: the comparison is not vacuous.
    m = re.search(r"probe-all: (.*)", e1)
    if not m:
        fail("--probe-all printed no event counts")
    counts = {k: int(v) for k, v in (kv.split("=") for kv in m.group(1).split())}
    registry = list_probes(a.leon3vp)
    missing = sorted(set(counts) - set(registry))
    if missing:
        fail("--probe-all counted probes --list-probes does not name: %s" % ", ".join(missing))
    for k in ["cpu.step", "cpu.execute", "ahb.transaction", "cpu.halt", "cpu.trap"] + (a.expect_events or []):
        if probe_events(counts, k) == 0:
            fail("--probe-all: no %s event seen (%s)" % (k, m.group(1)))
    if counts["cpu.step"] < s0["instructions"]["total"]:
        fail("fewer step records (%s) than instructions (%d)" % (counts["cpu.step"], s0["instructions"]["total"]))
    lines = 0
    if a.text:
        seen = check_probe_lines(text, registry)
        lines = sum(seen.values())
        for name, n in seen.items():  # each event once as text, once counted
            if n != counts.get(name):
                fail("%d text lines of %s, %s events counted" % (n, name, counts.get(name)))
        with open(text) as f:
            body = f.read()
        for pat in a.expect_line or []:
            if not re.search(pat, body, re.M):
                fail("no --probe line matches %r" % pat)
    if c0 != c1 or o0 != o1:
        fail("exit status/UART output differ with --probe-all")
    if p0 != p1:
        fail("pcap differs with --probe-all")

    d = l3vp.stats_differences(s0, s1)
    if d:
        fail("stats without probes, then with --probe-all: " + "; ".join(d[:10]))
    print("PASS: %d instructions, %d cycles identical with --probe-all%s (%d probes heard, %d text lines)" %
          (s0["instructions"]["total"], s0["cycles"], "".join(" --probe " + t for t in a.text or []),
           sum(1 for v in counts.values() if v), lines))


def cmd_signal(a):
    """SIGINT/SIGTERM stop the run at an instruction boundary and every output
    is still written completely (docs/user-guide.md "Exit status"); with
    --twice, the second signal kills the process at once."""
    import signal as sg
    sig = getattr(sg, "SIG" + a.signal)
    if a.twice:
        # A run that cannot finish after the first signal: its trace goes to
        # a pipe nobody reads, so it blocks writing. The second signal must
        # kill it at once.
        cmd = [a.leon3vp, "--trace", "/dev/stdout", a.firmware]
        print("$ " + " ".join(cmd))
        p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        time.sleep(1.0)
        p.send_signal(sig)
        time.sleep(0.5)
        if p.poll() is not None:
            fail("leon3vp ended after the first signal although its output is blocked (exit %d)"
                 % p.returncode)
        p.send_signal(sig)
        try:
            p.wait(timeout=30)
        except subprocess.TimeoutExpired:
            p.kill()
            fail("the second signal did not end leon3vp")
        if p.returncode != -sig:
            fail("exit %d after two signals, expected death by signal %d" % (p.returncode, sig))
        print("PASS: the second signal killed leon3vp")
        return
    out = {k: os.path.join(TMP, "sig." + k) for k in ("stats", "pcap", "results")}
    cmd = [a.leon3vp, "--scenario", a.scenario, "--stats", out["stats"], "--pcap", out["pcap"],
           "--net-results", out["results"], a.firmware]
    print("$ " + " ".join(cmd))
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    # Let the run get well under way (the whole run takes over 10 s of host
    # time; the output files are buffered, so their size says nothing).
    time.sleep(2.0)
    if p.poll() is not None:
        fail("leon3vp ended before the signal (exit %d): %s" % (p.returncode, p.stderr.read().decode()))
    p.send_signal(sig)
    try:
        _, err = p.communicate(timeout=60)
    except subprocess.TimeoutExpired:
        p.kill()
        fail("leon3vp did not stop within 60 s of the signal")
    err = err.decode()
    print("exit %d\n--- stderr ---\n%s" % (p.returncode, err))
    if p.returncode != 128 + sig:
        fail("exit %d, expected %d" % (p.returncode, 128 + sig))
    if "leon3vp: interrupted by SIG" + a.signal not in err:
        fail("stderr does not say the run was interrupted")
    with open(out["stats"]) as f:
        st = json.load(f)
    if st["stop"]["reason"] != "signal" or st["stop"]["exit_status"] != 128 + sig:
        fail("stats stop = %r" % st["stop"])
    if st["instructions"]["total"] == 0 or st["cycles"] == 0:
        fail("empty statistics")
    # The capture is complete: tshark reads every record, as many as counted.
    t = subprocess.run(["tshark", "-r", out["pcap"], "-T", "fields", "-e", "frame.number"],
                       capture_output=True, text=True)
    complaints = [l for l in t.stderr.splitlines() if l.strip() and "Running as user" not in l]
    if t.returncode != 0 or complaints:
        fail("tshark cannot read the pcap: %s" % " ".join(complaints))
    frames = len(t.stdout.split())
    if frames == 0 or frames != st["net"]["pcap_frames"]:
        fail("pcap holds %d frames, stats say %r" % (frames, st["net"]["pcap_frames"]))
    with open(out["results"]) as f:
        res = json.load(f)
    sent = res["experiments"][0]["transmitted"]
    if sent == 0:
        fail("net results: no ping sent")
    if res != st["net"]["results"]:
        fail("--net-results and --stats net.results differ")
    print("PASS: interrupted after %d instructions, %d frames, %d pings sent; outputs complete" %
          (st["instructions"]["total"], frames, sent))


def run_stderr_on_pty(cmd, started=None):
    """Run cmd with stderr a terminal (a pty) and stdout a pipe, reading the
    pty until its other side closes; started(p), when given, is called once
    the process runs. Returns (exit status, stdout bytes, stderr bytes)."""
    import pty
    master, slave = pty.openpty()
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=slave)
    os.close(slave)
    after = started(p) if started else None
    err = b""
    while True:
        try:
            chunk = os.read(master, 4096)
        except OSError:  # EIO: the pty's other side is closed
            break
        if not chunk:
            break
        err += chunk
    if after:
        after()
    out = p.stdout.read()
    p.wait()
    os.close(master)
    return p.returncode, out, err


def cmd_progress_invariance(a):
    """Showing progress changes nothing simulated: the same run to its end
    (--max-time) with stderr a terminal (progress with percentage and host
    estimates) and with stderr a pipe (no progress) gives the same exit
    status, UART output and --stats, all but the host's own figures."""
    runs = []
    for tty in (True, False):
        stats = os.path.join(TMP, "progress_stats%d.json" % tty)
        cmd = [a.leon3vp, "--stats", stats] + list(a.args) + [a.firmware]
        print("$ " + " ".join(cmd) + ("   (stderr: a pty)" if tty else ""))
        if tty:
            rc, out, err = run_stderr_on_pty(cmd)
        else:
            p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
            out, err = p.communicate()
            rc = p.returncode
        with open(stats) as f:
            st = json.load(f)
        st.pop("host", None)  # wall time, MIPS: the host's, never the simulation's
        runs.append((rc, out, err.decode(errors="replace"), st))
    (c0, o0, e0, s0), (c1, o1, e1, s1) = runs
    if not re.search(r"MIPS, [0-9.]+% of \S+, \S+ simulated left, ~\S+ host left", e0):
        fail("the terminal run showed no progress line with the end (too fast a host?): %r" % e0[-300:])
    if "MIPS" in e1:
        fail("progress written to a pipe")
    if c0 != c1 or o0 != o1:
        fail("exit status/UART output differ with progress shown (%d vs %d)" % (c0, c1))
    d = l3vp.stats_differences(s0, s1)
    if d:
        fail("stats with progress shown, then without: " + "; ".join(d[:10]))
    print("PASS: %d instructions, %d cycles identical with and without the progress line" %
          (s0["instructions"]["total"], s0["cycles"]))


def cmd_progress(a):
    """The progress line: on stderr when it is a terminal (a pty here), never
    with -q, and erased at the end; stdout (UART) is untouched."""
    cmd = [a.leon3vp] + (["-q"] if a.quiet else []) + list(a.args) + [a.firmware]
    print("$ " + " ".join(cmd) + "   (stderr: a pty)")

    # The line is refreshed every 250 ms of host time, so how many updates a
    # run prints depends on the host's speed: the run is long (simulated)
    # and is interrupted after 1.5 s of host time (SIGINT ends it cleanly,
    # erasing the line), which gives several updates on any machine.
    def interrupt_later(p):
        stop = threading.Timer(1.5, lambda: p.poll() is None and p.send_signal(signal.SIGINT))
        stop.start()
        return stop.cancel

    rc, out, err = run_stderr_on_pty(cmd, interrupt_later)
    err = err.decode(errors="replace")
    print("exit %d\n--- stderr (repr) ---\n%r" % (rc, err[-400:]))
    lines = re.findall(r"leon3vp: (\S+) simulated, ([0-9.]+) MIPS", err)
    if a.quiet:
        if lines:
            fail("progress printed with -q")
        print("PASS: no progress with -q")
        return
    if len(lines) < 2:
        fail("expected at least two progress updates, got %d" % len(lines))
    if float(lines[-1][1]) <= 0:
        fail("progress shows no MIPS")
    # With a known end (--max-time, a scenario's duration): the share done,
    # the simulated time left and an estimate of the host time left; without
    # one, none of them.
    ends = re.findall(r"MIPS, ([0-9.]+)% of (\S+), (\S+) simulated left, ~(\S+) host left", err)
    if a.expect_end:
        if len(ends) < 2:
            fail("expected the percentage and the time left in at least two updates, got %d" % len(ends))
        pct = [float(e[0]) for e in ends]
        if pct != sorted(pct) or not 0 <= pct[-1] < 100:
            fail("percentages not rising within 0..100: %r" % pct)
        if ends[-1][1] != a.expect_end:
            fail("end %s, expected %s" % (ends[-1][1], a.expect_end))
    elif "%" in err or "left" in err:
        fail("percentage or time left shown although the run has no end")
    # Erased at the end: the last progress text is followed by "\r\033[K".
    tail = err[err.rfind("MIPS"):]
    if "\r\x1b[K" not in tail:
        fail("the progress line is not erased at the end")
    if b"MIPS" in out:
        fail("progress went to stdout")
    print("PASS: %d progress updates, last %s at %s MIPS%s" % (len(lines), lines[-1][0], lines[-1][1],
                                                           ", %s%% of %s" % ends[-1][:2] if ends else ""))


def main():
    p = argparse.ArgumentParser()
    p.add_argument("leon3vp")
    sub = p.add_subparsers(dest="mode", required=True)
    c = sub.add_parser("check")
    c.add_argument("--exit", type=int)
    c.add_argument("--stderr-has", action="append")
    c.add_argument("--stderr-match", action="append", help="a regular expression a stderr line must match")
    c.add_argument("--stderr-lacks", action="append", help="text stderr must not contain (@tmp: expanded)")
    c.add_argument("--file-absent", action="append", help="a file that must not exist after the run")
    c.add_argument("--stderr-lines", type=int)
    c.add_argument("--stderr-max-lines", type=int)
    c.add_argument("--stats-len", action="append")
    c.add_argument("--stdout")
    c.add_argument("--file-equals", nargs=2)
    c.add_argument("--file-has", nargs=2, action="append", help="PATH TEXT: the file holds TEXT")
    c.add_argument("--stdout-has", action="append")
    c.add_argument("--stats-has", action="append")
    c.add_argument("args", nargs=argparse.REMAINDER)
    d = sub.add_parser("determinism")
    d.add_argument("firmware")
    d.add_argument("--expect-exit", type=int)
    d.add_argument("--expect-irqs", type=int)
    d.add_argument("--profile", action="store_true")
    d.add_argument("--extra", action="append")
    d.add_argument("--expect-contention", action="store_true",
                   help="require at least one AHB arbitration wait")
    n = sub.add_parser("net")
    n.add_argument("firmware")
    n.add_argument("--scenario", required=True)
    n.add_argument("--extra", action="append")
    n.add_argument("--expect-mbps", type=int, default=100)
    tr = sub.add_parser("txqueue")
    tr.add_argument("firmware")
    tr.add_argument("--repeat", type=int, default=1000000)
    tr.add_argument("--max-vm-mib", type=int, default=4096)
    tr.add_argument("--max-rss-mib", type=int, default=256)
    tp = sub.add_parser("tap")
    tp.add_argument("firmware")
    tp.add_argument("--netns-tap", required=True)
    t = sub.add_parser("trace")
    t.add_argument("firmware")
    pb = sub.add_parser("probes")
    pb.add_argument("firmware")
    pb.add_argument("--expect-exit", type=int)
    pb.add_argument("--expect-events", action="append",
                    help="a probe (or probe prefix) that must have seen events")
    pb.add_argument("--text", action="append", help="also --probe PATTERN (text to a file, checked)")
    pb.add_argument("--expect-line", action="append", help="a regular expression a --probe line must match")
    pb.add_argument("--extra", action="append")
    pr = sub.add_parser("profile")
    pr.add_argument("firmware")
    sc = sub.add_parser("set-changes")
    sc.add_argument("firmware")
    sc.add_argument("--set", required=True)
    sc.add_argument("--stat", required=True)
    sc.add_argument("--expect-more", action="store_true", help="the statistic must rise")
    vf = sub.add_parser("version-flag")
    vf.add_argument("firmware")
    v = sub.add_parser("version")
    v.add_argument("firmware")
    v.add_argument("other")
    sc = sub.add_parser("schema")
    sc.add_argument("firmware")
    sc.add_argument("--extra", action="append")
    sg = sub.add_parser("signal")
    sg.add_argument("firmware")
    sg.add_argument("--scenario")
    sg.add_argument("--signal", choices=["INT", "TERM"], required=True)
    sg.add_argument("--twice", action="store_true")
    pg = sub.add_parser("progress")
    pg.add_argument("firmware")
    pg.add_argument("--quiet", action="store_true")
    pg.add_argument("--expect-end", help="the end the line must show (e.g. 3600s); without: none shown")
    pg.add_argument("args", nargs=argparse.REMAINDER)
    pi = sub.add_parser("progress-invariance")
    pi.add_argument("firmware")
    pi.add_argument("args", nargs=argparse.REMAINDER)
    sf = sub.add_parser("stdout-full")
    sf.add_argument("args", nargs=argparse.REMAINDER)
    a = p.parse_args()
    if a.mode == "progress" and a.args and a.args[0] == "--":
        a.args = a.args[1:]
    if a.mode == "check":
        if a.args and a.args[0] == "--":
            a.args = a.args[1:]
        cmd_check(a)
    elif a.mode == "determinism":
        cmd_determinism(a)
    elif a.mode == "probes":
        cmd_probes(a)
    elif a.mode == "profile":
        cmd_profile(a)
    elif a.mode == "net":
        cmd_net(a)
    elif a.mode == "tap":
        cmd_tap(a)
    elif a.mode == "txqueue":
        cmd_txqueue(a)
    elif a.mode == "set-changes":
        cmd_set_changes(a)
    elif a.mode == "version-flag":
        cmd_version_flag(a)
    elif a.mode == "version":
        cmd_version(a)
    elif a.mode == "schema":
        cmd_schema(a)
    elif a.mode == "signal":
        cmd_signal(a)
    elif a.mode == "progress-invariance":
        if a.args and a.args[0] == "--":
            a.args = a.args[1:]
        cmd_progress_invariance(a)
    elif a.mode == "progress":
        cmd_progress(a)
    elif a.mode == "stdout-full":
        cmd_stdout_full(a)
    else:
        cmd_trace(a)


if __name__ == "__main__":
    main()
