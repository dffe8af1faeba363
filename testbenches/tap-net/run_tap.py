#!/usr/bin/python3
"""On-board network tests against a real Linux kernel through a TAP device.

  run_tap.py --vp build/sim/leon3vp --fw-dir build/firmware --netns-tap scripts/netns-tap \
      --test ping|tcp1m [--keep DIR]

Each run creates its own network namespace + TAP (scripts/netns-tap up
NAME, NAME unique per process), runs the firmware on leon3vp with
`--tap NAME` (paced to the wall clock), drives the board from Linux tools
inside the namespace, and always removes the namespace again.

  ping   firmware net_ping; Linux `ping -c 5` with 8, 56, 512 and 1472 data
         bytes (and one run with a 0xa5 byte pattern): every probe answered,
         no duplicates, no "wrong data byte"; the board's result line
         counts the echoes.
  tcp1m  firmware net_tcpecho; a Python socket client in the namespace
         sends 1 MiB of seeded random bytes to port 7 and reads the echo
         until the board closes: SHA-256 of what came back == SHA-256 of
         what was sent; the board's result line reports 1 MiB in and out,
         no ring overflow. The client keeps at most 8 KiB sent but not yet
         echoed (net_tcpecho buffers 16 KiB per connection).

Exit status 0 pass, 1 fail, 77 skip (no root / no /dev/net/tun / no `ip` /
namespace not permitted), with one line saying why.
The client half runs as `run_tap.py client ...` inside the namespace.
"""
import argparse
import hashlib
import json
import os
import random
import re
import selectors
import shutil
import signal
import socket
import struct
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "scripts", "lib"))
import l3vp  # noqa: E402
import l3vp.elf  # noqa: E402

BOARD_IP = "192.168.0.53"


def skip(why):
    print("SKIP: " + why)
    sys.exit(77)


def fail(why):
    print("FAIL: " + why)
    sys.exit(1)


# ---- firmware parameters -------------------------------------------------

# struct fw_params (firmware/net/port/netapp.h), big-endian; only used when
# leon3vp has no --fw-param option.
PARAMS_FMT = ">IIIIII6sHIIIIII"
PARAM_FIELDS = ["magic", "version", "size", "board_ip", "netmask", "peer_ip",
                "mac", "port", "window", "count", "bytes", "idle_ms", "max_ms", "flags"]


def patch_elf(src, dst, fields):
    """Copy of the ELF with fw_params fields set in its .params section."""
    with l3vp.elf.Elf(src) as e:
        sec = e.section(".params")
    if sec is None:
        fail(f"{src}: no .params section")
    off = sec[1]
    data = bytearray(open(src, "rb").read())
    vals = dict(zip(PARAM_FIELDS, struct.unpack_from(PARAMS_FMT, data, off)))
    vals.update(fields)
    struct.pack_into(PARAMS_FMT, data, off, *[vals[k] for k in PARAM_FIELDS])
    open(dst, "wb").write(data)


def firmware_args(vp, elf, params, tmp):
    """leon3vp arguments that load `elf` with `params` (dict of ints)."""
    help_text = subprocess.run([vp, "--help"], capture_output=True, text=True).stdout
    if "--fw-param" in help_text:
        return l3vp.command(None, elf, fw_params=params)[1:]
    patched = os.path.join(tmp, os.path.basename(elf))
    patch_elf(elf, patched, params)
    return [patched]


# ---- namespace -------------------------------------------------------------

class Namespace:
    def __init__(self, script, tag):
        self.script = script
        # <= 15 characters, unique per process (tests run in parallel).
        self.name = f"l3vp{tag}{os.getpid() % 100000}"[:15]

    def __enter__(self):
        if os.geteuid() != 0:
            skip("needs root (CAP_NET_ADMIN + CAP_SYS_ADMIN) for ip netns / TAP devices")
        if not os.path.exists("/dev/net/tun"):
            skip("no /dev/net/tun")
        if not shutil.which("ip"):
            skip("no 'ip' command (iproute2)")
        up = subprocess.run([self.script, "up", self.name], capture_output=True, text=True)
        if up.returncode != 0:
            subprocess.run([self.script, "down", self.name], capture_output=True)
            skip("scripts/netns-tap up failed (not permitted here?): " + up.stderr.strip())
        return self

    def __exit__(self, *exc):
        subprocess.run([self.script, "down", self.name], capture_output=True)
        return False

    def cmd(self, argv):
        return ["ip", "netns", "exec", self.name] + argv


class Board:
    """leon3vp with --tap in the background; UART lines collected at the end."""

    def __init__(self, a, ns, fw, params, max_time, tmp):
        self.stats = os.path.join(tmp, "stats.json")
        self.pcap = os.path.join(tmp, "tap.pcap")
        argv = l3vp.command(a.vp, None, stats=self.stats, pcap=self.pcap if a.keep else None,
                            max_time=max_time, extra=["--tap", ns.name] + a.extra)
        argv += firmware_args(a.vp, os.path.join(a.fw_dir, fw + ".elf"), params, tmp)
        self.t0 = time.monotonic()
        self.p = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)

    def finish(self, timeout):
        try:
            out, err = self.p.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.p.kill()
            out, err = self.p.communicate()
            fail(f"leon3vp did not stop within {timeout} s of wall time; UART: {out[-2000:]!r}")
        self.wall = time.monotonic() - self.t0
        self.code = self.p.returncode
        self.out, self.err = out, err
        self.lines = l3vp.json_lines(out, strict=False)
        return self

    def line(self, typ):
        line = l3vp.first_line(self.lines, typ)
        if line is not None:
            return line
        fail(f"no firmware line of type {typ!r}; exit {self.code}; UART: {self.out[-2000:]!r}; "
             f"stderr: {self.err[-2000:]!r}")

    def kill(self):
        if self.p.poll() is None:
            self.p.kill()
            self.p.communicate()


def wait_board_up(ns, board, seconds):
    """Ping once a second until the board answers (it prints nothing before
    its end, so this is how we know the GRETH and stack are up)."""
    t_end = time.monotonic() + seconds
    tries = 0
    while time.monotonic() < t_end:
        if board.p.poll() is not None:
            return None
        tries += 1
        r = subprocess.run(ns.cmd(["ping", "-n", "-c", "1", "-W", "1", BOARD_IP]), capture_output=True, text=True)
        if r.returncode == 0:
            return tries
    return None


# ---- tests -------------------------------------------------------------------

PING_RUNS = [(8, None), (56, None), (512, None), (1472, None), (1472, "a5")]


def parse_ping(text):
    m = re.search(r"(\d+) packets transmitted, (\d+) received", text)
    rtt = re.search(r"= ([\d.]+)/([\d.]+)/([\d.]+)/", text)
    return (int(m.group(1)) if m else -1, int(m.group(2)) if m else -1,
            tuple(float(x) for x in rtt.groups()) if rtt else None)


def test_ping(a, ns, tmp):
    board = Board(a, ns, "net_ping", {"idle_ms": 2000}, "120s", tmp)
    summary = []
    try:
        tries = wait_board_up(ns, board, 30)
        if tries is None:
            board.kill()
            fail("the board never answered a ping (30 s)")
        sent_total = tries
        answered = 0
        for size, pat in PING_RUNS:
            argv = ["ping", "-n", "-c", "5", "-i", "0.2", "-W", "2", "-s", str(size)]
            if pat:
                argv += ["-p", pat]
            r = subprocess.run(ns.cmd(argv + [BOARD_IP]), capture_output=True, text=True, timeout=60)
            tx, rx, rtt = parse_ping(r.stdout)
            sent_total += max(tx, 0)
            answered += max(rx, 0)
            label = f"{size} B" + (f" pattern {pat}" if pat else "")
            if r.returncode != 0 or tx != 5 or rx != 5:
                board.kill()
                fail(f"ping {label}: {rx}/{tx} answered (exit {r.returncode}): {r.stdout}{r.stderr}")
            if "DUP!" in r.stdout or "wrong data" in r.stdout or "wrong data" in r.stderr:
                board.kill()
                fail(f"ping {label}: duplicate or corrupted reply: {r.stdout}")
            # (below 16 data bytes there is no time stamp, hence no RTT)
            summary.append(f"{label}: 5/5" + (f" rtt min/avg/max {rtt[0]:.2f}/{rtt[1]:.2f}/{rtt[2]:.2f} ms"
                                              if rtt else ""))
        board.finish(timeout=120)
    finally:
        board.kill()
    if board.code != 0:
        fail(f"leon3vp exit {board.code}; stderr: {board.err[-2000:]}")
    res = board.line("result")
    # Every probe the kernel counted as answered was echoed by the board; the
    # board answered everything it received, and never more than was sent.
    if res["echo_rx"] != res["echo_tx"]:
        fail(f"board: echo_rx {res['echo_rx']} != echo_tx {res['echo_tx']}")
    if not (answered + 1 <= res["echo_tx"] <= sent_total):
        fail(f"board echoed {res['echo_tx']}, Linux got {answered + 1} replies of {sent_total} probes")
    if res.get("icmp_drop_chksum", 0) != 0:
        fail(f"board dropped requests with bad checksums: {res}")
    with open(board.stats) as f:
        s = json.load(f)
    tap = s["net"]["tap"]
    if tap["to_tap"] < answered or tap["from_tap"] < answered:
        fail(f"TAP counters {tap}")
    print("PASS: " + "; ".join(summary) + f"; board echoed {res['echo_tx']}; wall {board.wall:.1f} s")


def test_tcp1m(a, ns, tmp):
    nbytes = 1 << 20
    board = Board(a, ns, "net_tcpecho", {"count": 1, "idle_ms": 10000}, "600s", tmp)
    try:
        if wait_board_up(ns, board, 30) is None:
            board.kill()
            fail("the board never answered a ping (30 s)")
        r = subprocess.run(ns.cmd([sys.executable, os.path.abspath(__file__), "client", "--host", BOARD_IP,
                                   "--port", "7", "--bytes", str(nbytes), "--seed", "1",
                                   "--timeout", str(a.client_timeout)]),
                           capture_output=True, text=True, timeout=a.client_timeout + 30)
        try:
            c = json.loads(r.stdout.strip().splitlines()[-1])
        except (ValueError, IndexError):
            board.kill()
            fail(f"client: exit {r.returncode}: {r.stdout[-2000:]} {r.stderr[-2000:]}")
        board.finish(timeout=120)
    finally:
        board.kill()
    if c.get("error"):
        fail(f"client: {c}")
    if c["received"] != nbytes or c["sha256_received"] != c["sha256_sent"]:
        fail(f"echo differs: sent {c['sent']} B sha256 {c['sha256_sent']}, "
             f"received {c['received']} B sha256 {c['sha256_received']}")
    if board.code != 0:
        fail(f"leon3vp exit {board.code}; stderr: {board.err[-2000:]}")
    res = board.line("result")
    if res["rx_bytes"] != nbytes or res["tx_bytes"] != nbytes or res["overflow"] != 0 or res["finished"] != 1:
        fail(f"board result {res}")
    print(f"PASS: 1 MiB echoed, SHA-256 {c['sha256_sent'][:16]}... matches; transfer {c['seconds']:.1f} s wall "
          f"({8 * nbytes / c['seconds'] / 1e6:.3f} Mbit/s each way); leon3vp wall {board.wall:.1f} s")


# ---- client (runs inside the namespace) -------------------------------------

def client(a):
    data = random.Random(a.seed).randbytes(a.bytes)
    limit = 8192  # bytes sent but not yet echoed (net_tcpecho's ring: 16 KiB)
    out = {"sent": 0, "received": 0, "sha256_sent": hashlib.sha256(data).hexdigest()}
    got = bytearray()
    t0 = time.monotonic()
    deadline = t0 + a.timeout
    try:
        s = socket.create_connection((a.host, a.port), timeout=15)
        s.setblocking(False)
        sel = selectors.DefaultSelector()
        sent, shut, eof = 0, False, False
        while not eof:
            if time.monotonic() > deadline:
                raise TimeoutError(f"timeout after {a.timeout} s: sent {sent}, received {len(got)}")
            want_write = sent < len(data) and sent - len(got) < limit
            sel.register(s, selectors.EVENT_READ | (selectors.EVENT_WRITE if want_write else 0))
            ready = sel.select(timeout=1.0)
            sel.unregister(s)
            for _, ev in ready:
                if ev & selectors.EVENT_READ:
                    chunk = s.recv(65536)
                    if not chunk:
                        eof = True
                    got += chunk
                if ev & selectors.EVENT_WRITE and want_write:
                    end = min(len(data), len(got) + limit)
                    sent += s.send(data[sent:end])
            if sent == len(data) and not shut:
                s.shutdown(socket.SHUT_WR)
                shut = True
        s.close()
        out["sent"] = sent
    except Exception as e:  # reported as JSON, judged by the driver
        out["error"] = f"{type(e).__name__}: {e}"
    out["seconds"] = time.monotonic() - t0
    out["received"] = len(got)
    out["sha256_received"] = hashlib.sha256(bytes(got)).hexdigest()
    print(json.dumps(out))


def main():
    if len(sys.argv) > 1 and sys.argv[1] == "client":
        ap = argparse.ArgumentParser(prog="run_tap.py client")
        ap.add_argument("--host", required=True)
        ap.add_argument("--port", type=int, required=True)
        ap.add_argument("--bytes", type=int, required=True)
        ap.add_argument("--seed", type=int, default=1)
        ap.add_argument("--timeout", type=float, default=300)
        client(ap.parse_args(sys.argv[2:]))
        return
    # A terminated driver (ctest timeout, ^C) still removes its namespace.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(1))
    ap = argparse.ArgumentParser()
    ap.add_argument("--vp", required=True)
    ap.add_argument("--fw-dir", required=True)
    ap.add_argument("--netns-tap", required=True)
    ap.add_argument("--test", required=True, choices=["ping", "tcp1m"])
    ap.add_argument("--client-timeout", type=float, default=300)
    ap.add_argument("--keep", help="keep stats.json (and tap.pcap) in this directory")
    ap.add_argument("extra", nargs="*", help="more leon3vp options (after --), e.g. -- -c impaired.json")
    a = ap.parse_args()
    tmp = a.keep or tempfile.mkdtemp(prefix="l3vp-tap-")
    os.makedirs(tmp, exist_ok=True)
    try:
        with Namespace(a.netns_tap, "p" if a.test == "ping" else "t") as ns:
            {"ping": test_ping, "tcp1m": test_tcp1m}[a.test](a, ns, tmp)
    finally:
        if not a.keep:
            shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
