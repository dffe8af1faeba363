#!/usr/bin/python3
"""Tests of scripts/demo against the already built binaries.

  check_demo.py measure DEMO BUILD_DIR   runs DEMO --no-setup --no-build
                                          --build BUILD_DIR --out <temp>
  check_demo.py usage DEMO               bad options: one line, exit 2

`measure` checks what the demo prints and writes: the RTT table has every
size with 0 < min <= avg <= max; the per-phase table has every phase with
positive cycles and energy for ping and UDP (and '-' where the path has no
such phase); the per-size energy per packet grows with the size; the pcap
(read with l3vp.pcap, and with tshark when it is installed) holds an ICMP
echo request and reply of every size and the UDP datagrams of every size;
the VCD parses (l3vp.waveform, pyvcd) and shows those frames on the link
and the stack's phase regions; both PNG plots are PNG files; the printed
commands name the experiment files, scripts/wave and tshark; the last lines
point at experiments/examples/, docs/user-guide.md and docs/porting.md.
"""
import os
import re
import shutil
import struct
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "scripts", "lib"))
import l3vp.pcap  # noqa: E402
from l3vp.waveform import Wave  # noqa: E402

SIZES = (64, 256, 1024, 1472)
PING_PHASES = ("driver", "ipchk", "l4chk", "proto")
UDP_PHASES = ("driver", "ipchk", "l4chk", "proto", "appcopy", "app")
NUM = r"(-?\d+(?:\.\d+)?)"


def fail(msg):
    print(f"FAIL: {msg}")
    sys.exit(1)


def check(cond, msg):
    if not cond:
        fail(msg)


def section(out, start):
    """The lines after the `demo: <start>...` line up to the next `demo:` line."""
    lines = out.splitlines()
    idx = [i for i, l in enumerate(lines) if l.startswith("demo: " + start)]
    check(idx, f"no line 'demo: {start}...' in the output")
    body = []
    for l in lines[idx[0] + 1:]:
        if l.startswith("demo:"):
            break
        body.append(l)
    return body


def check_rtt(out):
    rows = {}
    for l in section(out, "ping from"):
        m = re.match(rf"\s+(\d+)\s+{NUM}\s+{NUM}\s+{NUM} us\s+{NUM}\s+{NUM}$", l)
        if m:
            rows[int(m.group(1))] = [float(x) for x in m.groups()[1:]]
    check(sorted(rows) == list(SIZES), f"RTT table sizes {sorted(rows)}, expected {list(SIZES)}")
    for s, (mn, avg, mx, cyc, nj) in rows.items():
        check(0 < mn <= avg <= mx, f"ping {s} B: RTT min/avg/max {mn}/{avg}/{mx}")
        check(cyc > 0 and nj > 0, f"ping {s} B: {cyc} cycles, {nj} nJ per echo")
    # a longer echo takes longer on a 100 Mbit/s wire (2 x 1408 B more: > 200 us)
    check(rows[1472][1] - rows[64][1] > 200, f"RTT 1472 B {rows[1472][1]} us vs 64 B {rows[64][1]} us")
    check(rows[1472][4] > rows[64][4], "ping energy per echo does not grow with the size")
    udp = {}
    for l in section(out, "UDP from"):
        m = re.match(rf"\s+(\d+)\s+{NUM}\s+{NUM}$", l)
        if m:
            udp[int(m.group(1))] = (float(m.group(2)), float(m.group(3)))
    check(sorted(udp) == list(SIZES), f"UDP table sizes {sorted(udp)}, expected {list(SIZES)}")
    check(all(c > 0 and nj > 0 for c, nj in udp.values()), f"UDP per-datagram cost not positive: {udp}")
    check(udp[1472][1] > udp[64][1], "UDP energy per datagram does not grow with the size")


def check_phases(out):
    rows = {}
    for l in section(out, "one 1472-byte packet by stack phase"):
        f = l.split()
        if f and f[0] in UDP_PHASES + ("sum",):
            rows[f[0]] = f[1:]
    check(sorted(rows) == sorted(UDP_PHASES + ("sum",)), f"phase rows {sorted(rows)}")
    for p, cells in rows.items():
        check(len(cells) == 8, f"phase {p}: {len(cells)} cells, expected 8: {cells}")
        for half, phases, what in ((cells[:4], PING_PHASES, "ping"), (cells[4:], UDP_PHASES, "UDP")):
            if p == "sum" or p in phases:
                cyc, imiss, dmiss, nj = (float(x) for x in half)
                check(cyc > 0 and nj > 0 and imiss >= 0 and dmiss >= 0,
                      f"{what} phase {p}: cycles {cyc}, misses {imiss}/{dmiss}, energy {nj} nJ")
            else:
                check(half == ["-"] * 4, f"{what} has no phase {p}, but the row shows {half}")
    ping_sum = sum(float(rows[p][3]) for p in PING_PHASES)
    check(abs(ping_sum - float(rows["sum"][3])) < 0.5, f"ping phases' nJ add up to {ping_sum}, sum row {rows['sum'][3]}")


def frames(pcap):
    """{(proto, kind, payload length)} of the IPv4 frames of a pcap:
    ('icmp', 8|0, ICMP data bytes) and ('udp', dport, UDP data bytes)."""
    seen = set()
    for _, _, d in l3vp.pcap.records(pcap):
        if len(d) < 34 or d[12:14] != b"\x08\x00":
            continue
        ihl = (d[14] & 15) * 4
        total = struct.unpack_from(">H", d, 16)[0]
        l4 = d[14 + ihl:14 + total]
        if d[23] == 1:
            seen.add(("icmp", l4[0], len(l4) - 8))
        elif d[23] == 17:
            seen.add(("udp", struct.unpack_from(">H", l4, 2)[0], len(l4) - 8))
    return seen


def check_pcap(pcap):
    check(os.path.isfile(pcap), f"no pcap {pcap}")
    seen = frames(pcap)
    for s in SIZES:
        for typ in (8, 0):
            check(("icmp", typ, s) in seen, f"{pcap}: no ICMP echo {'request' if typ else 'reply'} of {s} B")
        check(("udp", 5002, s) in seen, f"{pcap}: no UDP datagram of {s} B to port 5002")
    if shutil.which("tshark"):
        p = subprocess.run(["tshark", "-r", pcap, "-Y", "icmp.type == 0", "-T", "fields", "-e", "data.len"],
                           capture_output=True, text=True)
        check(p.returncode == 0, f"tshark -r {pcap}: exit {p.returncode}: {p.stderr.strip()[-200:]}")
        lens = {int(x) for x in p.stdout.split()}
        check(set(SIZES) <= lens, f"tshark: echo replies of {sorted(lens)} data bytes, expected {SIZES}")


def check_vcd(vcd):
    check(os.path.isfile(vcd), f"no VCD {vcd}")
    w = Wave(vcd)
    # ARP request, warm-up ping, 2 pings and 2 datagrams per size
    n_in = len(w.spans("board.link.to_board.wire"))
    n_out = len(w.spans("board.link.to_host.wire"))
    check(n_in == 2 + 4 * 4, f"{vcd}: {n_in} frames to the board, expected 18")
    check(n_out == 2 + 2 * 4, f"{vcd}: {n_out} frames from the board, expected 10")
    for r in ("net_driver", "net_l4chk", "net_proto", "net_app"):
        check(w.rises("board.regions." + r), f"{vcd}: phase region {r} never entered")


def check_png(path):
    check(os.path.isfile(path), f"no plot {path}")
    with open(path, "rb") as f:
        head = f.read(24)
    check(head[:8] == b"\x89PNG\r\n\x1a\n" and head[12:16] == b"IHDR", f"{path} is not a PNG")
    w, h = struct.unpack(">II", head[16:24])
    check(w > 100 and h > 100, f"{path}: {w} x {h} pixels")


def check_text(out, d):
    for want in ("scripts/experiment run experiments/demo/ping.yaml experiments/demo/udp.yaml",
                 "scripts/wave ", "tshark -r ", "capture.scenario.json"):
        check(want in out, f"the output does not name {want!r}")
    last = "\n".join(out.splitlines()[-4:])
    for want in ("experiments/examples/", "docs/user-guide.md", "docs/porting.md"):
        check(want in last, f"the last lines do not point at {want}")
    check(len(out.splitlines()) <= 45, f"{len(out.splitlines())} lines of output: not a short demo")
    for name in ("ping", "udp"):
        check(os.path.isfile(os.path.join(d, name, "results.csv")), f"no {name}/results.csv")


def measure(demo, build):
    with tempfile.TemporaryDirectory(prefix="demo-test-") as tmp:
        d = os.path.join(tmp, "out")
        p = subprocess.run([demo, "--no-setup", "--no-build", "--build", build, "--out", d],
                           capture_output=True, text=True, timeout=300)
        print(p.stdout, end="")
        if p.returncode != 0:
            fail(f"scripts/demo exit {p.returncode}: {p.stderr.strip()[-2000:]}")
        check_rtt(p.stdout)
        check_phases(p.stdout)
        check_text(p.stdout, d)
        check_pcap(os.path.join(d, "capture.pcap"))
        check_vcd(os.path.join(d, "capture.vcd"))
        for name in ("ping", "udp"):
            check_png(os.path.join(d, name, "plots", "energy.png"))
    print("PASS")


def usage(demo):
    for args, want in ((["--bogus"], "unknown argument"), (["--out"], "--out needs a folder"),
                       (["--build="], "--build needs a folder")):
        p = subprocess.run([demo, *args], capture_output=True, text=True, timeout=30)
        lines = p.stderr.splitlines()
        check(p.returncode == 2 and len(lines) == 1 and want in lines[0] and p.stdout == "",
              f"demo {args}: exit {p.returncode}, stderr {p.stderr!r}, stdout {p.stdout[:200]!r}")
    p = subprocess.run([demo, "--help"], capture_output=True, text=True, timeout=30)
    check(p.returncode == 0 and "--no-build" in p.stdout, f"demo --help: exit {p.returncode}")
    print("PASS")


if __name__ == "__main__":
    if len(sys.argv) == 4 and sys.argv[1] == "measure":
        measure(sys.argv[2], sys.argv[3])
    elif len(sys.argv) == 3 and sys.argv[1] == "usage":
        usage(sys.argv[2])
    else:
        print("usage: check_demo.py measure DEMO BUILD_DIR | usage DEMO", file=sys.stderr)
        sys.exit(2)
