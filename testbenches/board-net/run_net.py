#!/usr/bin/env python3
"""On-board network tests: a firmware network program on leon3vp against the
simulated Linux host of a scenario file (docs/network.md).

  run_net.py --vp build/sim/leon3vp --fw-dir build/firmware --test ping [--keep DIR]

Each test (TESTS below) names the firmware, its scenario file (next to this
script), the per-run parameters written into the ELF's `fw_params` block
(section .params, firmware/README.md "Network programs") and a check of the
scenario results JSON (--net-results) and the firmware's JSON result lines
on the UART. The patched ELF is a temporary copy: nothing is rebuilt.
Prints a one-line summary of the measured numbers; exit 0 = pass.
"""
import argparse
import json
import os
import shutil
import struct
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))

# struct fw_params (firmware/drivers/greth.h), big-endian, 56 bytes.
PARAMS_FMT = ">IIIIII6sHIIIIII"
PARAM_FIELDS = ["magic", "version", "size", "board_ip", "netmask", "peer_ip",
                "mac", "port", "window", "count", "bytes", "idle_ms", "max_ms", "flags"]
FW_PARAMS_MAGIC = 0x4E455450
FW_PF_POLLED, FW_PF_VERBOSE, FW_PF_VERIFY = 1, 2, 4


def elf_section(data, name):
    """(file offset, size) of a section of an ELF32 big-endian file."""
    if data[:4] != b"\x7fELF" or data[4] != 1 or data[5] != 2:
        raise SystemExit("not an ELF32 big-endian file")
    shoff, = struct.unpack_from(">I", data, 0x20)
    shentsize, shnum, shstrndx = struct.unpack_from(">HHH", data, 0x2E)
    def sh(i):
        return struct.unpack_from(">IIIIIIIIII", data, shoff + i * shentsize)
    stroff = sh(shstrndx)[4]
    for i in range(shnum):
        s = sh(i)
        end = data.index(b"\0", stroff + s[0])
        if data[stroff + s[0]:end].decode() == name:
            return s[4], s[5]
    raise SystemExit(f"section {name} not found")


def patch_params(src, dst, **fields):
    data = bytearray(open(src, "rb").read())
    off, size = elf_section(data, ".params")
    vals = dict(zip(PARAM_FIELDS, struct.unpack_from(PARAMS_FMT, data, off)))
    if vals["magic"] != FW_PARAMS_MAGIC or vals["size"] != struct.calcsize(PARAMS_FMT):
        raise SystemExit(f"unexpected fw_params block: {vals}")
    vals.update(fields)
    struct.pack_into(PARAMS_FMT, data, off, *[vals[k] for k in PARAM_FIELDS])
    open(dst, "wb").write(data)


def exp(results, name):
    for e in results["experiments"]:
        if e.get("name") == name:
            return e
    raise AssertionError(f"experiment {name} missing from the results")


def fw_line(lines, typ):
    for l in lines:
        if l.get("type") == typ:
            return l
    raise AssertionError(f"no firmware line of type {typ}")


def us(ps):
    return ps / 1e6


# ---- checks: return a summary string, raise AssertionError on failure ----

def check_ping(res, lines):
    out = []
    for size in (64, 256, 1024, 1472):
        e = exp(res, f"ping{size}")
        assert e["transmitted"] == 5 and e["received"] == 5, f"ping{size}: {e['received']}/{e['transmitted']}"
        for p in e["packets"]:
            assert p["rtt_ps"] is not None and not p.get("corrupt"), f"ping{size} seq {p['seq']}: {p}"
        out.append(f"ping{size} rtt min/avg/max {us(e['rtt_min_ps']):.1f}/{us(e['rtt_avg_ps']):.1f}/{us(e['rtt_max_ps']):.1f} us")
    r = fw_line(lines, "result")
    assert r["echo_rx"] == 20 and r["echo_tx"] == 20, r
    return "; ".join(out)


def check_udpecho(res, lines):
    s = exp(res, "send")
    e = exp(res, "echoes")
    assert s["sent"] == 20, s
    assert e["received"] == 20 and e["bad"] == 0 and e["lost"] == 0, e
    r = fw_line(lines, "result")
    assert r["datagrams"] == 20 and r["echoed"] == 20, r
    return f"20 x 512-byte datagrams echoed, all verified by the host"


def check_udprx(res, lines):
    s = exp(res, "send")
    assert s["sent"] == 200, s
    r = fw_line(lines, "result")
    d = fw_line(lines, "driver")
    assert r["bad"] == 0, r
    assert r["received"] == 200 and r["lost"] == 0, (r, d)
    return f"200 x 1472 B received, bad 0, goodput {r['goodput_bps'] / 1e6:.2f} Mbit/s (board clock), rx_restarts {d['rx_restarts']}"


def check_udpburst(res, lines):
    s = exp(res, "send")
    assert s["sent"] == 600, s
    r = fw_line(lines, "result")
    d = fw_line(lines, "driver")
    assert r["bad"] == 0, r
    if d["rx_restarts"] == 0:
        # The board kept up (e.g. zero-copy): everything arrived in order.
        assert r["received"] == 600 and r["out_of_sequence"] == 0, (r, d)
    else:
        # The ring overflowed (frames lost while RE was off), RX re-enabled.
        assert 128 <= r["received"] < 600, r
        assert r["out_of_sequence"] >= 1, r
    return (f"{r['received']}/600 back-to-back 1472 B datagrams received, {d['rx_restarts']} RX restarts, "
            f"board rate {r['goodput_bps'] / 1e6:.2f} Mbit/s")


def check_tcp(window):
    def check(res, lines):
        e = exp(res, "bulk")
        assert e["completed"] == 1, e
        r = fw_line(lines, "result")
        assert r["window"] == window, r
        assert r["bytes"] == 100000 and r["bad"] == 0 and r["ok"] == 1, r
        c = fw_line(lines, "conn")
        return (f"window {window}: 100000 B verified, host goodput {e['goodput_bps'] / 1e6:.3f} Mbit/s, "
                f"board-measured {c['goodput_bps'] / 1e6:.3f} Mbit/s, segments {c['segments']}, "
                f"retransmits {e['retransmits']}")
    return check


def check_tcplossy(res, lines):
    e = exp(res, "bulk")
    assert e["completed"] == 1 and e["retransmits"] >= 1, e
    r = fw_line(lines, "result")
    d = fw_line(lines, "driver")
    assert r["bytes"] == 100000 and r["bad"] == 0 and r["ok"] == 1, r
    # Corrupted frames reach the MAC with a bad FCS: counted as CE/AE, not delivered.
    assert d["rx_ce"] + d["rx_ae"] >= 1, d
    return (f"100000 B verified over a 2 % loss / 2 % corruption link, host retransmits {e['retransmits']}, "
            f"board CE {d['rx_ce']} AE {d['rx_ae']}, goodput {e['goodput_bps'] / 1e6:.3f} Mbit/s")


def check_tcpmulti(res, lines):
    e = exp(res, "bulk")
    assert e["completed"] == 12 and e["bytes_acked"] == 240000, e
    r = fw_line(lines, "result")
    assert r["accepted"] == 12 and r["closed"] == 12 and r["bytes"] == 240000 and r["bad"] == 0 and r["ok"] == 1, r
    conns = [l for l in lines if l.get("type") == "conn"]
    assert len(conns) == 12 and all(c["bytes"] == 20000 and c["bad"] == 0 for c in conns), conns
    return f"12 connections x 20000 B verified (10 slots), host retransmits {e['retransmits']}, done at {e['completion_ps'] / 1e9:.1f} ms"


def check_tcpsend(res, lines):
    e = exp(res, "server")
    assert e["accepted"] == 1 and e["bytes_received"] == 100000 and e["bad_bytes"] == 0, e
    r = fw_line(lines, "result")
    assert r["connections"] == 1 and r["failed"] == 0 and r["bytes"] == 100000, r
    c = e["conns"][0]
    return (f"board sent 100000 B, verified by the host; board-measured goodput {r['goodput_bps'] / 1e6:.3f} Mbit/s "
            f"(host delayed ACKs {c['delayed_acks']}, quick ACKs {c['quick_acks']})")


def check_tcpecho(res, lines):
    e = exp(res, "echo")
    assert e["completed"] == 1, e
    r = fw_line(lines, "result")
    assert r["rx_bytes"] == 20000 and r["tx_bytes"] == 20000 and r["overflow"] == 0, r
    return f"20000 B echoed, host goodput {e['goodput_bps'] / 1e6:.3f} Mbit/s"


TESTS = {
    # name: (firmware, scenario, params, check)
    "ping": ("net_ping", "ping.scenario.json", {"count": 20}, check_ping),
    "ping_polled": ("net_ping", "ping.scenario.json", {"count": 20, "flags": FW_PF_POLLED}, check_ping),
    "udpecho": ("net_udpecho", "udpecho.scenario.json", {"count": 20}, check_udpecho),
    "udprx": ("net_udprx", "udprx.scenario.json", {"count": 200, "flags": FW_PF_VERIFY}, check_udprx),
    "udpburst": ("net_udprx", "udpburst.scenario.json", {"count": 600, "idle_ms": 500, "flags": 0}, check_udpburst),
    "tcp300": ("net_tcpsink", "tcp.scenario.json", {"window": 300, "count": 1, "bytes": 100000, "flags": FW_PF_VERIFY}, check_tcp(300)),
    "tcp1460": ("net_tcpsink", "tcp.scenario.json", {"window": 1460, "count": 1, "bytes": 100000, "flags": FW_PF_VERIFY}, check_tcp(1460)),
    "tcplossy": ("net_tcpsink", "tcplossy.scenario.json", {"window": 1460, "count": 1, "bytes": 100000, "flags": FW_PF_VERIFY}, check_tcplossy),
    "tcpmulti": ("net_tcpsink", "tcpmulti.scenario.json", {"window": 1460, "count": 12, "bytes": 20000, "flags": FW_PF_VERIFY}, check_tcpmulti),
    "tcpsend": ("net_tcpsend", "tcpsend.scenario.json", {"count": 1, "bytes": 100000}, check_tcpsend),
    "tcpecho": ("net_tcpecho", "tcpecho.scenario.json", {"count": 1}, check_tcpecho),
}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--vp", required=True)
    ap.add_argument("--fw-dir", required=True)
    ap.add_argument("--test", required=True, choices=sorted(TESTS))
    ap.add_argument("--keep", help="keep the run's files in this directory")
    ap.add_argument("--max-time", default="60s")
    ap.add_argument("extra", nargs="*", help="more leon3vp options (after --)")
    a = ap.parse_args()

    fw, scen, params, check = TESTS[a.test]
    work = a.keep or tempfile.mkdtemp(prefix=f"board-net-{a.test}-")
    os.makedirs(work, exist_ok=True)
    try:
        elf = os.path.join(work, f"{fw}.elf")
        patch_params(os.path.join(a.fw_dir, f"{fw}.elf"), elf, **params)
        uart = os.path.join(work, "uart.txt")
        resf = os.path.join(work, "results.json")
        cmd = [a.vp, "-q", "--scenario", os.path.join(HERE, scen), "--net-results", resf,
               "--pcap", os.path.join(work, "link.pcap"), "--uart-out", uart,
               "--max-time", a.max_time, *a.extra, elf]
        p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, timeout=600)
        text = open(uart).read() if os.path.exists(uart) else ""
        lines = []
        for l in text.splitlines():
            if l.startswith("{"):
                lines.append(json.loads(l))
        if p.returncode != 0:
            print(f"FAIL {a.test}: leon3vp exit {p.returncode}\n{p.stderr}\n{text}")
            return 1
        res = json.load(open(resf))
        try:
            summary = check(res, lines)
        except AssertionError as e:
            print(f"FAIL {a.test}: {e}\n--- UART\n{text}")
            return 1
        print(f"PASS {a.test}: {summary}")
        return 0
    finally:
        if not a.keep:
            shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
