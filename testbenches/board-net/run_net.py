#!/usr/bin/python3
"""On-board network tests: a firmware network program on leon3vp against the
simulated Linux host of a scenario file (docs/network.md).

  run_net.py --vp build/sim/leon3vp --fw-dir build/firmware --test ping [--keep DIR]

Each test (TESTS below) names the firmware, its scenario file (next to this
script), the per-run parameters and a check of the scenario results JSON
(--net-results) and the firmware's JSON result lines on the UART. The
parameters go to leon3vp as `--fw-param KEY=VALUE` (on top of the scenario's
"board": {"params"}); leon3vp writes them into the firmware's `fw_params`
block in simulated memory before the start (docs/network.md, "Firmware
parameters"): the ELF is used as built.
Prints a one-line summary of the measured numbers; exit 0 = pass.
"""
import argparse
import json
import os
import shutil
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "scripts", "lib"))
sys.path.insert(0, HERE)
import l3vp  # noqa: E402
import l3vp.pcap  # noqa: E402
import check_harden  # noqa: E402

# fw_params flags (FW_PF_* in firmware/net/port/netapp.h; leon3vp also
# takes the names polled|verbose|verify|hold|simcheck).
FW_PF_POLLED, FW_PF_VERBOSE, FW_PF_VERIFY = 1, 2, 4


def scenario_seconds(path):
    """The scenario's "duration" in seconds (0 if none)."""
    with open(path) as f:
        return l3vp.duration_seconds(json.load(f).get("duration", "0"))


def exp(results, name):
    for e in results["experiments"]:
        if e.get("name") == name:
            return e
    raise AssertionError(f"experiment {name} missing from the results")


def fw_line(lines, typ):
    line = l3vp.first_line(lines, typ)
    if line is None:
        raise AssertionError(f"no firmware line of type {typ}")
    return line


def us(ps):
    return ps / 1e6


# ---- checks: return a summary string, raise AssertionError on failure ----

NET_H = os.path.join(HERE, "..", "..", "firmware", "net", "net.h")


def net_stats_drop_keys():
    """The JSON keys of every drop counter of struct net_stats (net.h): a
    field drop_X of the sub-struct P is printed as P_drop_X."""
    import re
    text = open(NET_H).read()
    body = text[text.index("struct net_stats {"):]
    body = body[:body.index("\n};")]
    keys = []
    for m in re.finditer(r"struct \{(.*?)\}\s*(\w+);", body, re.S):
        for f in re.findall(r"\b(drop_\w+)\b", re.sub(r"/\*.*?\*/", "", m.group(1), flags=re.S)):
            keys.append(f"{m.group(2)}_{f}")
    assert len(keys) > 20, ("net.h parse found too few drop counters", keys)
    return keys


def is_lwip(lines):
    """The program runs lwIP (firmware/lwip): its stack line has lwIP's
    counters, not struct net_stats'."""
    return fw_line(lines, "start").get("stack") == "lwip"


def check_ping(res, lines):
    st = fw_line(lines, "stack")
    if not is_lwip(lines):
        missing = [k for k in net_stats_drop_keys() if k not in st]
        assert not missing, f"the stack line lacks drop counters {missing}"
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
    return "20 x 512-byte datagrams echoed, all verified by the host"


def check_udprx(res, lines):
    s = exp(res, "send")
    assert s["sent"] == 200, s
    r = fw_line(lines, "result")
    d = fw_line(lines, "driver")
    assert r["bad"] == 0, r
    assert r["received"] == 200 and r["lost"] == 0, (r, d)
    return f"200 x 1472 B received, bad 0, goodput {r['goodput_bps'] / 1e6:.2f} Mbit/s (board clock), rx_restarts {d['rx_restarts']}"


def check_udprx_chksum(variant, lo_us, hi_us):
    """udprx with the stack's checksum chosen per run (fw_params.chksum):
    the board reports the variant and the UDP checksum phase costs what
    that variant costs per 1472-byte datagram (timed mode, warm code,
    payload just copied: fast ~1150 cycles + misses ~ 70 us, generic8
    ~11000 cycles ~ 275 us; docs/firmware.md "Checksum variants")."""
    def check(res, lines):
        summary = check_udprx(res, lines)
        st = fw_line(lines, "start")
        assert st["chksum"] == variant, st
        ph = fw_line(lines, "phases")
        n = ph["counts"]["l4chk"]
        assert n >= 200, ph
        per = ph["l4chk"] / n
        assert lo_us <= per <= hi_us, (variant, per, lo_us, hi_us)
        return f"{summary}; checksum {variant}: {per:.1f} us per L4 checksum"
    return check


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
        # The ring overflowed (frames lost while RE was off), RX re-enabled:
        # either datagrams came after the gap (the first of them out of
        # sequence) or the gap was the burst's tail (nothing after it, so
        # nothing out of sequence and none counted lost).
        assert 128 <= r["received"] < 600, r
        assert r["out_of_sequence"] >= 1 or (r["lost"] == 0 and d["rx_frames"] - r["received"] <= 2), (r, d)
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


def check_tcpsend_multi(min_mbps):
    """tcpsend with the send buffer: verified data and a goodput floor (the
    sender must not collapse: small host windows, delayed ACKs)."""
    def check(res, lines):
        summary = check_tcpsend(res, lines)
        r = fw_line(lines, "result")
        assert r["goodput_bps"] >= min_mbps * 1e6, f"goodput {r['goodput_bps'] / 1e6:.3f} < {min_mbps} Mbit/s"
        return summary
    return check


def check_tcpsend_lossy(nbytes):
    def check(res, lines):
        e = exp(res, "server")
        assert e["accepted"] == 1 and e["bytes_received"] == nbytes and e["bad_bytes"] == 0, e
        r = fw_line(lines, "result")
        assert r["connections"] == 1 and r["failed"] == 0 and r["bytes"] == nbytes, r
        st = fw_line(lines, "stack")
        assert st["tcp_rexmit"] >= 1, ("no loss hit the transfer", st)
        return (f"board sent {nbytes} B over a lossy link, verified by the host; board retransmits "
                f"{st['tcp_rexmit']} (fast {st.get('tcp_fast_rexmit', '-')}, dup ACKs {st.get('tcp_dupacks', '-')}), "
                f"goodput {r['goodput_bps'] / 1e6:.3f} Mbit/s")
    return check


def check_tcpsend_probe(nbytes):
    """The shoot-out's 2 % loss (seeds 1501/1502): the segment after a delayed
    ACK is lost with the 4-segment flight, only two duplicate ACKs follow; the
    loss probe (NET_TCP_LOSS_PROBE) draws the third and fast retransmit
    repairs the hole, no 200 ms RTO (3.8 Mbit/s before the probe)."""
    lossy = check_tcpsend_lossy(nbytes)

    def check(res, lines):
        msg = lossy(res, lines)
        st = fw_line(lines, "stack")
        r = fw_line(lines, "result")
        assert st.get("tcp_loss_probes", 0) >= 1 and st["tcp_fast_rexmit"] >= 2, st
        assert r["us"] < 100000, ("an RTO stalled the transfer", r)
        return f"{msg}; loss probes {st['tcp_loss_probes']}, {r['us']} us"
    return check


def check_tcpsend_zerownd(res, lines):
    """The host advertises window 0 forever: the board probes (persist timer,
    backing off) and gives up NET_TCP_PERSIST_MAX_MS (100 s) after the first
    probe: 8 probes with the 200 ms RTO."""
    e = exp(res, "server")
    assert e["accepted"] == 1 and e["bytes_received"] == 0, e
    r = fw_line(lines, "result")
    assert r["connections"] == 1 and r["failed"] == 1 and r["bytes"] == 0, r
    st = fw_line(lines, "stack")
    assert st["tcp_persist_probes"] == 8 and st["tcp_timeouts"] == 1 and st["tcp_rst_tx"] == 1, st
    return f"zero window forever: {st['tcp_persist_probes']} probes, then aborted (RST, TIMEDOUT)"


def check_tcpecho(res, lines):
    e = exp(res, "echo")
    assert e["completed"] == 1, e
    r = fw_line(lines, "result")
    assert r["rx_bytes"] == 20000 and r["tx_bytes"] == 20000 and r["overflow"] == 0, r
    return f"20000 B echoed, host goodput {e['goodput_bps'] / 1e6:.3f} Mbit/s"


def check_tcpecho_lossy(res, lines):
    """The echo completes over a lossy link: the host got every byte back
    (verified), and the board's close handshake finished before it stopped
    (no host retransmission left pending: the host's connection closed)."""
    summary = check_tcpecho(res, lines)
    e = exp(res, "echo")
    st = fw_line(lines, "stack")
    assert e["retransmits"] + st["tcp_rexmit"] >= 1, ("no loss hit the transfer", e, st)
    c = e["conns"][0]
    assert c["state"] == "CLOSED" and not c["reset"] and not c["aborted"], c
    assert c["bytes_received"] == 20000 and c["bad_bytes"] == 0, c  # every byte echoed, verified
    return summary + (f" over 10 % loss each way, retransmits host {e['retransmits']} board {st['tcp_rexmit']},"
                      f" host connection closed cleanly")


def check_tcpwin(window, nbytes=15360):
    def check(res, lines):
        e = exp(res, "bulk")
        assert e["completed"] == 1 and e["bytes_acked"] == nbytes, e
        c = e["conns"][0]
        # The host only ever saw the board's window W, and no data segment
        # it sent (retransmissions included) was larger than W.
        assert c["max_window"] == window, f"host saw a window of {c['max_window']}, expected {window}"
        assert 0 < c["max_seg_out"] <= window, f"host sent a {c['max_seg_out']} B segment into a {window} B window"
        r = fw_line(lines, "result")
        assert r["window"] == window, r
        assert r["closed"] == 1 and r["bytes"] == nbytes and r["bad"] == 0 and r["ok"] == 1, r
        b = fw_line(lines, "conn")
        assert b["bytes"] == nbytes and b["bad"] == 0, b
        return (f"window {window}: {nbytes} B verified, host segments <= {c['max_seg_out']} B "
                f"({c['data_segs_out']} data segments), host goodput {e['goodput_bps'] / 1e6:.3f} Mbit/s, "
                f"board-measured {b['goodput_bps'] / 1e6:.3f} Mbit/s, retransmits {e['retransmits']}")
    return check


def check_tcpmulti10(res, lines):
    n, per = 10, 150000
    e = exp(res, "bulk")
    assert e["completed"] == n and e["bytes_acked"] == n * per, e
    cs = e["conns"]
    assert len(cs) == n, cs
    # Every SYN was answered at once (no SYN retransmission: the first RTO is
    # 1 s) and all ten were established before the first one finished.
    for c in cs:
        assert c["established_ps"] is not None and c["established_ps"] - c["opened_ps"] < 10**12, c
        assert c["reset"] is False and c["aborted"] is False, c
    last_up = max(c["established_ps"] for c in cs)
    first_done = min(c["data_acked_ps"] for c in cs)
    assert last_up < first_done, f"not concurrent: last established {last_up} ps, first done {first_done} ps"
    r = fw_line(lines, "result")
    assert r["max_open"] == n, f"board had at most {r['max_open']} connections open at once, expected {n}"
    assert r["accepted"] == n and r["closed"] == n and r["aborted"] == 0, r
    assert r["bytes"] == n * per and r["bad"] == 0 and r["ok"] == 1, r
    conns = [l for l in lines if l.get("type") == "conn"]
    assert len(conns) == n and all(c["bytes"] == per and c["bad"] == 0 for c in conns), conns
    return (f"{n} simultaneous connections x {per} B verified, board max_open {r['max_open']}, "
            f"host retransmits {e['retransmits']}, aggregate goodput {e['goodput_bps'] / 1e6:.3f} Mbit/s, "
            f"done at {e['completion_ps'] / 1e9:.1f} ms")


def check_tcploss15(nbytes):
    def check(res, lines):
        e = exp(res, "bulk")
        assert e["completed"] == 1 and e["bytes_acked"] == nbytes, e
        c = e["conns"][0]
        # 15 % loss each way loses ~28 % of the segment/ACK round trips:
        # the loss must show in the host's retransmissions.
        assert e["retransmits"] * 10 >= c["data_segs_out"], f"too few retransmits for 15 % loss: {c}"
        r = fw_line(lines, "result")
        assert r["closed"] == 1 and r["bytes"] == nbytes and r["bad"] == 0 and r["ok"] == 1, r
        st = fw_line(lines, "stack")
        return (f"{nbytes} B verified over 15 % loss each way: host data segments {c['data_segs_out']}, "
                f"retransmits {e['retransmits']} (timeouts {c['timeouts']}, fast {c['fast_retransmits']}), "
                f"goodput {e['goodput_bps'] / 1e3:.1f} kbit/s, done at {e['completion_ps'] / 1e12:.2f} s simulated; "
                f"board stack {json.dumps({k: v for k, v in st.items() if k.startswith('tcp')})}")
    return check


def check_tcprx(nbytes, lossy=False):
    """nbytes from the host's bulk sender into a TCP sink, every byte
    checked on the board (flags verify); over a lossy link the loss must
    show in the host's retransmissions."""
    def check(res, lines):
        e = exp(res, "bulk")
        assert e["completed"] == 1 and e["bytes_acked"] == nbytes, e
        if lossy:
            assert e["retransmits"] >= 1, ("no loss hit the transfer", e)
        r = fw_line(lines, "result")
        assert r["closed"] == 1 and r["bytes"] == nbytes and r["bad"] == 0 and r["ok"] == 1, r
        return (f"{nbytes} B verified on the board, host retransmits {e['retransmits']}, "
                f"host goodput {e['goodput_bps'] / 1e6:.3f} Mbit/s")
    return check


def check_tcpsend_bytes(nbytes):
    """The board sends nbytes; the host verifies every byte."""
    def check(res, lines):
        e = exp(res, "server")
        assert e["accepted"] == 1 and e["bytes_received"] == nbytes and e["bad_bytes"] == 0, e
        r = fw_line(lines, "result")
        assert r["connections"] == 1 and r["failed"] == 0 and r["bytes"] == nbytes, r
        return f"board sent {nbytes} B, verified by the host; board-measured goodput {r['goodput_bps'] / 1e6:.3f} Mbit/s"
    return check


# ---- malformed frames (raw experiment; gen_malformed.py, README "Malformed frames") ----

BOARD_MAC = bytes([2, 0, 0, 0, 0, 0x53])


def stat_path(stats, path):
    v = stats
    for k in path.split("."):
        v = v[k]
    return v


def check_malformed(scen, echo):
    """The board gets the scenario's raw frames, then a ping and an echo:
    exit 0 with the program's own stop (no trap, no hang), not one frame
    from the board while the raw frames arrive (no reply), every frame
    counted by the counter its comment names, no other drop counter moved
    (frames marked "none" may be counted by any one drop counter: the
    firmware may drop them without a counter of their own yet), and the
    final ping and echo succeed."""
    def check(res, lines, stats, pcap):
        import gen_malformed
        with open(os.path.join(HERE, scen)) as f:
            text = f.read()
        assert text == gen_malformed.render(scen), f"{scen} is stale: run gen_malformed.py"
        spec = json.loads(text)
        raw_exp = next(e for e in spec["experiments"] if e["type"] == "raw")
        frames = raw_exp["frames"]
        raw = exp(res, "malformed")
        assert raw["sent"] == len(frames), raw
        want, loose = {}, 0
        for fr in frames:
            key = fr["comment"].split(": ", 1)[0]
            if key == "none":
                loose += 1
            else:
                want[key] = want.get(key, 0) + 1
        # No reply: nothing from the board between the first raw frame and the final traffic.
        t0 = l3vp.duration_seconds(raw_exp["start"]) * 1e9
        t1 = min(l3vp.duration_seconds(e["start"]) for e in spec["experiments"] if "start" in e and e is not raw_exp) * 1e9
        replies = [(t, d[:64].hex()) for t, _, d in l3vp.pcap.records(pcap) if t0 <= t < t1 and d[6:12] == BOARD_MAC]
        assert not replies, f"the board answered malformed frames: {replies}"
        d, st = fw_line(lines, "driver"), fw_line(lines, "stack")
        assert d["stop"] == "done", d
        # GRETH statistics (exact per frame; the driver's st_* only sample STATUS bits).
        g = stats["net"]["greth"]
        for key in ("rx_drops.runt", "rx_drops.filter", "rx_drops.control", "rx_crc_errors", "rx_align_errors",
                    "rx_length_errors", "rx_too_long", "rx_overruns"):
            got = stat_path(g, key)
            assert got == want.get("greth:" + key, 0), f"GRETH {key}: {got}, expected {want.get('greth:' + key, 0)}"
        # The driver saw each error descriptor (LE/CE/FT) once.
        for drv, key in (("rx_le", "rx_length_errors"), ("rx_ce", "rx_crc_errors"), ("rx_ft", "rx_too_long")):
            assert d[drv] == want.get("greth:" + key, 0), (drv, d[drv], want)
        # Stack drop counters: exactly the expected ones ("none" frames: anywhere, at most once each).
        extra = 0
        for key in net_stats_drop_keys():
            got, exp_n = st[key], want.get("stack:" + key, 0)
            assert got >= exp_n, f"stack {key}: {got}, expected {exp_n}"
            extra += got - exp_n
        assert extra <= loose, f"{extra} drops beyond the expected ones (frames without a counter: {loose})"
        unknown = [k for k in want if not (k.startswith("stack:") or k.startswith("greth:"))]
        assert not unknown, unknown
        p = exp(res, "ping")
        assert p["transmitted"] == 2 and p["received"] == 2, p
        if echo == "udp":
            e = exp(res, "echoes")
            assert e["received"] == 3 and e["bad"] == 0 and e["lost"] == 0, e
            r = fw_line(lines, "result")
            assert r["datagrams"] == 3 and r["echoed"] == 3, r
        else:
            e = exp(res, "echo")
            assert e["completed"] == 1 and e["bytes_acked"] == 3000, e
            c = e["conns"][0]
            assert c["bytes_received"] == 3000 and c["bad_bytes"] == 0, c
            r = fw_line(lines, "result")
            assert r["rx_bytes"] == 3000 and r["tx_bytes"] == 3000, r
        counted = ", ".join(f"{k.split(':')[1]} {n}" for k, n in sorted(want.items()))
        return (f"{len(frames)} raw frames, no reply; counted: {counted}"
                + (f"; {loose} without a counter" if loose else "") + f"; then ping 2/2 and {echo} echo verified")
    check.wants_stats = True
    check.wants_pcap = True
    return check


# ---- per-phase measurements (firmware "phases" line, docs/firmware.md) ----

PHASES = ["driver", "copy", "ipchk", "l4chk", "proto", "appcopy", "app"]
PHASE_REGION_BASE = 0x50480001


def phases_line(lines):
    ph = fw_line(lines, "phases")
    assert ph["unit"] == "us" and ph["tick_hz"] == 10000000, ph
    assert ph["region_base"] == PHASE_REGION_BASE, ph
    assert ph["overflow"] == 0 and ph["mismatch"] == 0, ph
    return ph


def check_phase_counts(lines, app_copies, app_calls):
    """Phase entry counts follow from the driver and stack counters: every
    frame handed to or from the driver enters DRIVER once, every received
    frame PROTO (and COPY in copy mode) once, every IPv4 datagram in or out
    IPCHK once, every UDP/ICMP/TCP checksum L4CHK once, every application
    callback APP once, and udp_sendto PROTO once more."""
    ph = phases_line(lines)
    d, st, c = fw_line(lines, "driver"), fw_line(lines, "stack"), ph["counts"]
    rx_err = sum(d[k] for k in ("rx_le", "rx_oe", "rx_ce", "rx_ft", "rx_ae"))
    assert c["driver"] == d["tx_frames"] + d["tx_drop_full"] + d["tx_drop_len"] + d["rx_frames"] + rx_err, (c, d)
    assert c["copy"] == (0 if d["zero_copy"] else d["rx_frames"]), (c, d)
    assert c["ipchk"] == st["ip_tx"] + st["ip_rx"], (c, st)
    assert c["l4chk"] == st["udp_tx"] + st["udp_rx"] + st["icmp_echo_rx"] + st["tcp_tx"] + st["tcp_rx"], (c, st)
    assert c["proto"] == d["rx_frames"] + st["udp_tx"], (c, d, st)
    assert c["appcopy"] == app_copies and c["app"] == app_calls, c
    return ph


def per(ph, n):
    return " ".join(f"{k} {ph[k] / n:.1f}" for k in PHASES)


def check_udptx(res, lines):
    e = exp(res, "recv")
    r = fw_line(lines, "result")
    assert r["sent"] == 100 and r["send_err"] == 0 and r["size"] == 1472 and r["gap_us"] == 1000, r
    # The host's receiver verified every byte of every datagram.
    assert e["received"] == 100 and e["unique"] == 100 and e["bad"] == 0 and e["lost"] == 0, e
    assert e["bytes"] == 100 * 1472 and e["duplicates"] == 0, e
    ph = check_phase_counts(lines, app_copies=100, app_calls=0)
    for k in ("driver", "ipchk", "l4chk", "proto", "appcopy"):
        assert ph[k] > 0, (k, ph)
    # Datagram k is due 1 ms after datagram k - 1 (fixed schedule): the last
    # leaves 99 ms after the first (board clock), late by at most one pass
    # of the main loop (a few us).
    assert 99000 <= r["last_us"] - r["first_us"] < 99000 + 20, r
    return (f"100 x 1472 B sent, all verified by the host; per datagram (us): {per(ph, 100)}")


def check_hello(res, lines):
    e = exp(res, "hello")
    assert e["completed"] == 5 and e["matched"] == 5, e
    for c in e["conns"]:
        assert c["received"] == "leon3vp hello server. Your name?\nHello world\n", c
    r = fw_line(lines, "result")
    assert r["accepted"] == 5 and r["answered"] == 5 and r["closed"] == 5 and r["aborted"] == 0, r
    assert r["name_bytes"] == 5 * len("world") and r["last_name"] == "world" and r["discarded"] == 0, r
    return f"5 protosocket sessions answered and verified by the host, done at {e['completion_ps'] / 1e9:.1f} ms"


def check_udprx_phases(res, lines, stats):
    """The firmware's GPTIMER phase totals against leon3vp's region
    statistics of the same intervals (region id 0x50480001 + phase)."""
    summary = check_udprx(res, lines)
    ph = check_phase_counts(lines, app_copies=200, app_calls=200)
    zero_copy = fw_line(lines, "driver")["zero_copy"]
    for k in PHASES:
        assert ph[k] > 0 or (k == "copy" and zero_copy), (k, ph)
    hz = stats["clock_hz"]
    regions = {r["id"]: r for r in stats["regions"]}
    out = []
    for i, k in enumerate(PHASES):
        reg = regions.get(PHASE_REGION_BASE + i)
        if ph["counts"][k] == 0:  # never entered: no region either
            assert reg is None and ph[k] == 0, (k, reg, ph[k])
            continue
        assert reg is not None and reg["unbalanced"] == 0 and reg["open"] == 0, (k, reg)
        sim_us = reg["cycles"] * 1e6 / hz
        # Each region entry is one timed interval. At a transition the timer
        # read sits between the END store of the phase that stops and the
        # BEGIN store of the one that starts, so every firmware interval
        # contains its region plus, at each end, the APB timer read (7
        # cycles, docs/timing.md) and the neighbouring marker store (4-5)
        # and the odd address instruction: at most 24 cycles per interval,
        # plus an I-cache line fill (~22 cycles) when the instrumentation
        # code between the timer read and the marker store misses — which
        # depends on the layout: since the measured hot-code layout the copy
        # phase averages 29 cycles per interval; the timer's 0.1 us ticks
        # add at most one tick of rounding.
        n, tick = reg["entries"], 0.1
        lo, hi = sim_us - n * tick, sim_us + n * (tick + (24 + 22) * 1e6 / hz)
        assert lo <= ph[k] <= hi, (k, ph[k], sim_us, lo, hi, n)
        out.append(f"{k} {ph[k]:.1f}/{sim_us:.1f}")
    return summary + "; phases fw/sim us: " + " ".join(out)


check_udprx_phases.wants_stats = True


def check_hw(inner, engine):
    """The stack with the hw checksum variant (fw_params.chksum = hw): the
    inner check passes and the board reports hw; with the engine on the
    board (chksum.enable) the engine really ran — operations and bytes in
    its statistics, no AHB error, and its beats in the AHB master table;
    without it the run passes on the software fallback and the board has
    no engine."""
    def check(res, lines, stats):
        summary = inner(res, lines)
        st = fw_line(lines, "start")
        assert st["chksum"] == "hw", st
        dev = stats.get("devices", {}).get("chksum")
        masters = {m["name"]: m for m in stats["bus"]["ahb"]["masters"]}
        if engine:
            assert dev is not None, "no devices.chksum in --stats"
            assert dev["ops"] > 0 and dev["bytes"] >= 128 * dev["ops"] and dev["errors"] == 0, dev
            assert masters["chksum"]["reads"] == dev["bursts"], (masters["chksum"], dev)
            return f"{summary}; engine: {dev['ops']} operations, {dev['bytes']} bytes, {dev['busy_cycles']} busy cycles"
        assert dev is None and "chksum" not in masters, (dev, list(masters))
        return f"{summary}; no engine: software fallback"
    check.wants_stats = True
    return check


def check_offload(inner, udp=0, tcp=0, exact=True):
    """inner passes on a board with the GRETH_GBIT receive checksum offload
    (--set greth.csum_offload=true, VP_ARGS): the firmware saw it (start
    line csum_offload 1); the stack did not sum at least `udp` UDP and `tcp`
    TCP datagrams the MAC confirmed, and no more than the driver passed on
    as confirmed (rx_ck_ok; `exact`: as many: no such datagram was dropped
    before its checksum's turn); the MAC's checksum errors (net.greth
    rx_csum_*_errors) reached the driver as such (rx_ck_bad: one per frame,
    at most one per error), where the stack's own check decides."""
    def check(res, lines, stats, pcap):
        if getattr(inner, "wants_pcap", False):
            summary = inner(res, lines, stats, pcap)
        elif getattr(inner, "wants_stats", False):
            summary = inner(res, lines, stats)
        else:
            summary = inner(res, lines)
        st, d, k = fw_line(lines, "start"), fw_line(lines, "driver"), fw_line(lines, "stack")
        assert st["csum_offload"] == 1, st
        hw = k["udp_chk_hw"] + k["tcp_chk_hw"]
        assert k["udp_chk_hw"] >= udp and k["tcp_chk_hw"] >= tcp, (udp, tcp, k)
        assert (hw == d["rx_ck_ok"]) if exact else (hw <= d["rx_ck_ok"]), (hw, d)
        g = stats["net"]["greth"]
        bad = g["rx_csum_ip_errors"] + g["rx_csum_udp_errors"] + g["rx_csum_tcp_errors"]
        assert (d["rx_ck_bad"] > 0) == (bad > 0) and d["rx_ck_bad"] <= bad, (d, g)
        return (f"{summary}; offload: {k['udp_chk_hw']} UDP and {k['tcp_chk_hw']} TCP checksums the MAC's, "
                f"{d['rx_ck_bad']} frames it found wrong")
    check.wants_stats = True
    check.wants_pcap = True
    return check


def check_malformed_offload(scen, echo):
    """check_malformed on the offload board: the same counters (the frames
    with a wrong UDP checksum or length are counted by the stack's own
    check after the MAC's UR), and the MAC did flag the UDP checksum
    errors."""
    inner = check_offload(check_malformed(scen, echo), udp=3, exact=False)

    def check(res, lines, stats, pcap):
        summary = inner(res, lines, stats, pcap)
        g = stats["net"]["greth"]
        assert g["rx_csum_udp_errors"] >= 1, g
        return summary
    check.wants_stats = True
    check.wants_pcap = True
    return check


# Changes to a test's scenario file (merged into a copy in the work dir).
SCEN_PATCH = {
    **{f"tcpsend_win{w}": {"host": {"tcp": {"rcv_wnd": w}}} for w in (1460, 2920, 8760)},
    "tcpsend_loss2": {"link": {"to_board": {"loss": 0.02, "seed": 201}, "to_host": {"loss": 0.02, "seed": 202}}},
    "tcpsend_loss15": {"link": {"to_board": {"loss": 0.15, "seed": 1501}, "to_host": {"loss": 0.15, "seed": 1502}},
                       "duration": "300s"},
    "tcpsend_zerownd": {"host": {"tcp": {"rcv_wnd": 0}}, "duration": "120s"},
    "persist_knob": {"host": {"tcp": {"rcv_wnd": 0}}, "duration": "30s"},
    # the shoot-out's 2 % (experiments/shootout/tcp-tx.yaml)
    "tcpsend_probe": {"link": {"to_board": {"loss": 0.02, "seed": 1501}, "to_host": {"loss": 0.02, "seed": 1502}}},
}
SCEN_PATCH["lwip_tcpsend_loss2"] = SCEN_PATCH["tcpsend_loss2"]
SCEN_PATCH["lwip_tcpsend_loss15"] = SCEN_PATCH["tcpsend_loss15"]


def merged(base, patch):
    out = dict(base)
    for k, v in patch.items():
        out[k] = merged(base.get(k, {}), v) if isinstance(v, dict) else v
    return out


# leon3vp options of a test (before the command line's extra ones).
VP_ARGS = {**{t: ["--set", "chksum.enable=true"] for t in ("ping_hw", "udpecho_hw")},
           **{t: ["--set", "greth.csum_offload=true"]
              for t in ("udpecho_offload", "tcp1460_offload", "malformed_l4_offload")}}

TESTS = {
    # name: (firmware, scenario, params, check); a check with `custom` set
    # makes its own runs (run_custom: scenario and params None/unused).
    "ping": ("net_ping", "ping.scenario.json", {"count": 20}, check_ping),
    "ping_polled": ("net_ping", "ping.scenario.json", {"count": 20, "flags": FW_PF_POLLED}, check_ping),
    "udpecho": ("net_udpecho", "udpecho.scenario.json", {"count": 20}, check_udpecho),
    "udprx": ("net_udprx", "udprx.scenario.json", {"count": 200, "flags": FW_PF_VERIFY}, check_udprx),
    "udprx_generic8": ("net_udprx", "udprx.scenario.json", {"count": 200, "flags": FW_PF_VERIFY, "chksum": "generic8"},
                       check_udprx_chksum("generic8", 150, 400)),
    "udprx_fast": ("net_udprx", "udprx.scenario.json", {"count": 200, "flags": FW_PF_VERIFY, "chksum": "fast"},
                   check_udprx_chksum("fast", 10, 150)),
    # The hw checksum variant with the checksum engine on the board, and without it (fallback).
    "ping_hw": ("net_ping", "ping.scenario.json", {"count": 20, "chksum": "hw"}, check_hw(check_ping, True)),
    "udpecho_hw": ("net_udpecho", "udpecho.scenario.json", {"count": 20, "chksum": "hw"}, check_hw(check_udpecho, True)),
    "udpecho_hw_absent": ("net_udpecho", "udpecho.scenario.json", {"count": 20, "chksum": "hw"},
                          check_hw(check_udpecho, False)),
    "udpburst": ("net_udprx", "udpburst.scenario.json", {"count": 600, "idle_ms": 500, "flags": 0}, check_udpburst),
    "tcp300": ("net_tcpsink", "tcp.scenario.json", {"window": 300, "count": 1, "bytes": 100000, "flags": FW_PF_VERIFY}, check_tcp(300)),
    "tcp1460": ("net_tcpsink", "tcp.scenario.json", {"window": 1460, "count": 1, "bytes": 100000, "flags": FW_PF_VERIFY}, check_tcp(1460)),
    "tcplossy": ("net_tcpsink", "tcplossy.scenario.json", {"window": 1460, "count": 1, "bytes": 100000, "flags": FW_PF_VERIFY}, check_tcplossy),
    "tcpmulti": ("net_tcpsink", "tcpmulti.scenario.json", {"window": 1460, "count": 12, "bytes": 20000, "flags": FW_PF_VERIFY}, check_tcpmulti),
    "tcpsend": ("net_tcpsend", "tcpsend.scenario.json", {"count": 1, "bytes": 100000}, check_tcpsend_multi(42)),
    # The send buffer against small host windows, loss, and a window that never opens.
    "tcpsend_win1460": ("net_tcpsend", "tcpsend.scenario.json", {"count": 1, "bytes": 100000}, check_tcpsend_multi(19)),
    "tcpsend_win2920": ("net_tcpsend", "tcpsend.scenario.json", {"count": 1, "bytes": 100000}, check_tcpsend_multi(30)),
    "tcpsend_win8760": ("net_tcpsend", "tcpsend.scenario.json", {"count": 1, "bytes": 100000}, check_tcpsend_multi(44)),
    "tcpsend_loss2": ("net_tcpsend", "tcpsend.scenario.json", {"count": 1, "bytes": 100000, "idle_ms": 30000},
                      check_tcpsend_lossy(100000)),
    "tcpsend_loss15": ("net_tcpsend", "tcpsend.scenario.json", {"count": 1, "bytes": 50000, "idle_ms": 120000},
                       check_tcpsend_lossy(50000)),
    "tcpsend_probe": ("net_tcpsend", "tcpsend.scenario.json", {"count": 1, "bytes": 100000, "idle_ms": 30000},
                      check_tcpsend_probe(100000)),
    "tcpsend_zerownd": ("net_tcpsend", "tcpsend.scenario.json", {"count": 1, "bytes": 10000, "idle_ms": 120000},
                        check_tcpsend_zerownd),
    "tcpecho": ("net_tcpecho", "tcpecho.scenario.json", {"count": 1}, check_tcpecho),
    "tcpecho_lossy": ("net_tcpecho", "tcpecho_lossy.scenario.json", {"count": 1, "idle_ms": 30000}, check_tcpecho_lossy),
    # net_udptx: window = gap between datagrams in us (a UDP sender has no TCP window).
    "udptx": ("net_udptx", "udptx.scenario.json", {"count": 100, "bytes": 1472, "window": 1000}, check_udptx),
    "hello": ("net_hello", "hello.scenario.json", {"count": 5}, check_hello),
    "udprx_phases": ("net_udprx", "udprx.scenario.json", {"count": 200, "flags": FW_PF_VERIFY}, check_udprx_phases),
    # 15 KiB at advertised windows 100..1500: the rest of the board's
    # parameters (count, bytes, flags) come from the scenario's board.params.
    **{f"tcpwin{w}": ("net_tcpsink", "tcpwin.scenario.json", {"window": w}, check_tcpwin(w))
       for w in range(100, 1501, 200)},
    "tcpmulti10": ("net_tcpsink", "tcpmulti10.scenario.json", {}, check_tcpmulti10),
    "tcp1m_loss15": ("net_tcpsink", "tcp1m_loss15.scenario.json", {}, check_tcploss15(1048576)),
    # Malformed frames injected by the host's raw experiment (gen_malformed.py).
    **{f"malformed_{fam}": (fw, f"malformed_{fam}.scenario.json", {"count": cnt},
                            check_malformed(f"malformed_{fam}.scenario.json", echo))
       for fam, fw, cnt, echo in (("eth", "net_udpecho", 3, "udp"), ("ip", "net_udpecho", 3, "udp"),
                                  ("l4", "net_udpecho", 3, "udp"), ("tcp", "net_tcpecho", 1, "tcp"))},
    # The GRETH_GBIT receive checksum offload (VP_ARGS): the stack leaves the
    # confirmed sums to the MAC and still drops what the MAC found wrong.
    "udpecho_offload": ("net_udpecho", "udpecho.scenario.json", {"count": 20}, check_offload(check_udpecho, udp=20)),
    "tcp1460_offload": ("net_tcpsink", "tcp.scenario.json",
                        {"window": 1460, "count": 1, "bytes": 100000, "flags": FW_PF_VERIFY},
                        check_offload(check_tcp(1460), tcp=69)),
    "malformed_l4_offload": ("net_udpecho", "malformed_l4.scenario.json", {"count": 3},
                             check_malformed_offload("malformed_l4.scenario.json", "udp")),
    "land": ("net_tcpecho", "land.scenario.json", {"count": 1}, check_malformed("land.scenario.json", "tcp")),
    "land_bcast": ("net_tcpecho", "land_bcast.scenario.json", {"count": 1},
                   check_malformed("land_bcast.scenario.json", "tcp")),
    # Hardening on the wire (gen_harden.py, check_harden.py; README "Hardening scenarios").
    "synflood": ("net_tcpecho", "synflood.scenario.json", {"count": 1, "gateway": "192.168.0.55"},
                 check_harden.check_synflood),
    "rfc5961": ("net_tcpsend", None, {}, check_harden.check_rfc5961),
    "isn": ("net_tcpecho", None, {}, check_harden.check_isn),
    "rfc5961_side": ("net_tcpecho", None, {}, check_harden.check_rfc5961_side),
    "gateway": ("net_udpecho", "gateway.scenario.json", {"count": 3, "gateway": "192.168.0.55"},
                check_harden.check_gateway(True)),
    "gateway_none": ("net_udpecho", "gateway.scenario.json", {"count": 3}, check_harden.check_gateway(False)),
    "arp_conflict": ("net_ping", "arp_conflict.scenario.json", {"count": 20}, check_harden.check_arp_conflict),
    # Slot policy (firmware/net/README.md "Slot policy"): eviction of the idle longest for a fifth echo
    # peer (idle and trickling), the zero-window persist limit as a parameter.
    "slots_idle": ("net_tcpecho", "slots_idle.scenario.json", {"count": 10}, check_harden.check_slots_idle),
    "slots_trickle": ("net_tcpecho", "slots_trickle.scenario.json", {"count": 10},
                      check_harden.check_slots_trickle),
    "persist_knob": ("net_tcpsend", "tcpsend.scenario.json",
                     {"count": 1, "bytes": 10000, "idle_ms": 120000, "persist_max_ms": 10000},
                     check_harden.check_persist_knob),
    # lwIP on the board (firmware/lwip): the scenarios that make sense for any
    # stack, with the same scenario files, parameters and checks.
    "lwip_ping": ("lwip_ping", "ping.scenario.json", {"count": 20}, check_ping),
    "lwip_ping_polled": ("lwip_ping", "ping.scenario.json", {"count": 20, "flags": FW_PF_POLLED}, check_ping),
    "lwip_udpecho": ("lwip_udpecho", "udpecho.scenario.json", {"count": 20}, check_udpecho),
    "lwip_udprx": ("lwip_udprx", "udprx.scenario.json", {"count": 200, "flags": FW_PF_VERIFY}, check_udprx),
    "lwip_tcpecho": ("lwip_tcpecho", "tcpecho.scenario.json", {"count": 1}, check_tcpecho),
    "lwip_tcprx_1m": ("lwip_tcpsink", "tcprx_bulk.scenario.json", {}, check_tcprx(1000000)),
    "lwip_tcpsend_1m": ("lwip_tcpsend", "tcpsend.scenario.json", {"count": 1, "bytes": 1048576},
                        check_tcpsend_bytes(1048576)),
    "lwip_tcprx_loss2": ("lwip_tcpsink", "tcprx_loss2.scenario.json", {}, check_tcprx(262144, lossy=True)),
    "lwip_tcpsend_loss2": ("lwip_tcpsend", "tcpsend.scenario.json", {"count": 1, "bytes": 100000, "idle_ms": 30000},
                           check_tcpsend_lossy(100000)),
    "lwip_tcp1m_loss15": ("lwip_tcpsink", "tcp1m_loss15.scenario.json", {}, check_tcploss15(1048576)),
    "lwip_tcpsend_loss15": ("lwip_tcpsend", "tcpsend.scenario.json", {"count": 1, "bytes": 50000, "idle_ms": 120000},
                            check_tcpsend_lossy(50000)),
}


def run_custom(a, elf, check, work):
    """A test of several runs (check.custom): the check calls run(scenario
    path or dict, fw params, tag) once per run; each run has its own
    subdirectory of the work dir."""
    walls = []

    def run(scen, params, tag):
        d = os.path.join(work, tag)
        os.makedirs(d, exist_ok=True)
        if isinstance(scen, dict):
            path = os.path.join(d, "scenario.json")
            with open(path, "w") as f:
                json.dump(scen, f, indent=1)
            scen = path
        r = l3vp.run(a.vp, elf, quiet=True, scenario=scen, net_results=True, pcap=True, uart=True,
                     max_time=a.max_time or f"{max(60.0, scenario_seconds(scen)):g}s", fw_params=params,
                     extra=a.extra or [], workdir=d, timeout=1800)
        walls.append(r.wall_s)
        assert r.returncode == 0, f"run {tag}: leon3vp exit {r.returncode}\n{r.stderr}\n{r.uart}"
        return r.net_results, r.lines(), r.paths["pcap"]

    try:
        summary = check(run)
    except AssertionError as e:
        print(f"FAIL {a.test}: {e}")
        return 1
    print(f"PASS {a.test}: {summary} [{len(walls)} runs, wall {sum(walls):.1f} s]")
    return 0


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--vp")
    ap.add_argument("--fw-dir")
    ap.add_argument("--test", choices=sorted(TESTS))
    ap.add_argument("--list", action="store_true",
                    help="print the test names, one a line (testbenches/board-net/CMakeLists.txt reads them)")
    ap.add_argument("--keep", help="keep the run's files in this directory")
    ap.add_argument("--max-time", help="simulated time limit (default: 60s, or the scenario's duration if longer)")
    ap.add_argument("extra", nargs="*", help="more leon3vp options (after --)")
    a = ap.parse_args()
    if a.list:
        print("\n".join(TESTS))
        return 0
    if not (a.vp and a.fw_dir and a.test):
        ap.error("--vp, --fw-dir and --test are required")

    fw, scen, params, check = TESTS[a.test]
    work = a.keep or tempfile.mkdtemp(prefix=f"board-net-{a.test}-")
    os.makedirs(work, exist_ok=True)
    try:
        elf = os.path.join(a.fw_dir, f"{fw}.elf")
        if getattr(check, "custom", False):
            return run_custom(a, elf, check, work)
        scen_path = os.path.join(HERE, scen)
        if a.test in SCEN_PATCH:
            with open(scen_path) as f:
                base = json.load(f)
            scen_path = os.path.join(work, "scenario.json")
            with open(scen_path, "w") as f:
                json.dump(merged(base, SCEN_PATCH[a.test]), f)
        max_time = a.max_time or f"{max(60.0, scenario_seconds(scen_path)):g}s"
        wants_stats = getattr(check, "wants_stats", False)
        wants_pcap = getattr(check, "wants_pcap", False)
        r = l3vp.run(a.vp, elf, quiet=True, scenario=scen_path, net_results=True, stats=wants_stats,
                     pcap=True, uart=True, max_time=max_time, fw_params=params,
                     extra=VP_ARGS.get(a.test, []) + (a.extra or []),
                     workdir=work, timeout=1800)
        text = r.uart
        lines = r.lines()
        if r.returncode != 0:
            print(f"FAIL {a.test}: leon3vp exit {r.returncode}\n{r.stderr}\n{text}")
            return 1
        res = r.net_results
        try:
            if wants_pcap:
                summary = check(res, lines, r.stats, r.paths["pcap"])
            elif wants_stats:
                summary = check(res, lines, r.stats)
            else:
                summary = check(res, lines)
        except AssertionError as e:
            print(f"FAIL {a.test}: {e}\n--- UART\n{text}")
            return 1
        print(f"PASS {a.test}: {summary} [simulated {res['sim_time_ps'] / 1e12:.3f} s, wall {r.wall_s:.1f} s]")
        return 0
    finally:
        if not a.keep:
            shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
