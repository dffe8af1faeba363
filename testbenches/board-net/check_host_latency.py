#!/usr/bin/python3
"""The simulated PC's latency model and `--pcap-at` with the real firmware.

  check_host_latency.py LEON3VP FW_DIR

net_ping against host_latency.scenario.json (fixed + per-byte latency both
ways, a wake-up after 1 ms idle; pings at 10 ms and 500 us), run twice:
`--pcap-at board` and `--pcap-at host`. Checks, frame for frame:
  * the capture point changes nothing else (results, statistics);
  * the host capture = the board capture shifted by exactly the modelled
    latencies: received frames by rx_latency + rx_per_byte * length (+ the
    wake-up), sent frames by tx_latency + tx_per_byte * length (+ the
    wake-up) + wire time + propagation; the wake-ups found by the idle rule
    replayed here match the host's count;
  * every ping RTT = the host latencies of request and reply + wire and
    propagation both ways + the board's turnaround read off the board
    capture, plus the wake-up exactly for the 10 ms probes and the first
    500 us one;
  * a PC-side Wireshark (the host capture) sees the RTT ping reports.
"""
import json
import os
import struct
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "scripts", "lib"))
import l3vp  # noqa: E402
import l3vp.pcap  # noqa: E402

SCENARIO = os.path.join(os.path.dirname(os.path.abspath(__file__)), "host_latency.scenario.json")
ERRORS = []


def check(cond, msg):
    if not cond:
        ERRORS.append(msg)
        print("FAIL: " + msg)


def read_pcap(path):
    """[(t_ns, bytes)] of a little-endian nanosecond pcap (what leon3vp writes)."""
    try:
        return [(t, data) for t, _orig, data in l3vp.pcap.records(path)]
    except ValueError as e:
        sys.exit(f"FAIL: {e}")


def ns(duration):
    ps = l3vp.parse_duration_ps(duration)
    if ps % 1000:
        sys.exit(f"FAIL: {duration!r}: the checker needs whole nanoseconds")
    return ps // 1000


def wire_ns(n, byte_ns):
    """Preamble + data padded to 60 + FCS, in ns."""
    return (8 + max(n, 60) + 4) * byte_ns


def icmp_key(frame):
    """(id, seq) of an ICMP echo frame, else None."""
    if len(frame) < 42 or frame[12:14] != b"\x08\x00" or frame[23] != 1 or frame[34] not in (0, 8):
        return None
    return struct.unpack_from(">HH", frame, 38)


def main():
    vp, fw_dir = sys.argv[1:3]
    elf = os.path.join(fw_dir, "net_ping.elf")
    with open(SCENARIO) as f:
        sc = json.load(f)
    h = sc["host"]
    rx, rx_b, tx, tx_b = ns(h["rx_latency"]), ns(h["rx_per_byte"]), ns(h["tx_latency"]), ns(h["tx_per_byte"])
    wake, idle = ns(h["wake_latency"]), ns(h["idle_threshold"])
    prop, byte_ns = ns(sc["link"]["prop_delay"]), 8000 // sc["link"]["mbps"]

    runs = {}
    for at in ("board", "host"):
        r = l3vp.run(vp, elf, scenario=SCENARIO, stats=True, net_results=True, pcap=True, extra=["--pcap-at", at],
                     timeout=300)
        print("$ " + " ".join(r.cmd))
        if r.returncode != 0:
            sys.exit(f"FAIL: --pcap-at {at}: exit {r.returncode}: {r.last_stderr_line()}")
        runs[at] = (r.stats, r.net_results, read_pcap(r.paths["pcap"]))
    (s_b, res_b, cap_b), (s_h, res_h, cap_h) = runs["board"], runs["host"]

    # 1. Where the capture is taken changes nothing that was simulated.
    check(res_b == res_h, "the scenario results differ between --pcap-at board and host")
    for key in sorted(set(s_b) | set(s_h)):
        if key != "host":  # wall time and speed of the simulator
            check(s_b.get(key) == s_h.get(key), f"--stats '{key}' differs between --pcap-at board and host")
    check(s_h["net"]["pcap_frames"] == len(cap_h), "pcap_frames does not count the host capture")

    # 2. Frame for frame, per direction (frame order is kept in each).
    host_mac = bytes.fromhex(res_h["host"]["mac"].replace(":", ""))
    def split(cap):
        up = [x for x in cap if x[1][6:12] != host_mac]  # board -> host
        down = [x for x in cap if x[1][6:12] == host_mac]
        return up, down
    b_up, b_down = split(cap_b)
    h_up, h_down = split(cap_h)
    check(len(b_up) == len(h_up) and len(b_down) == len(h_down) and len(b_up) > 8 and len(b_down) > 8,
          f"frame counts differ: board {len(b_up)}+{len(b_down)}, host {len(h_up)}+{len(h_down)}")
    # Replay the idle rule: each frame starts its latency at its last bit in
    # (received: the board capture's stamp) or when the stack sends it (the
    # host capture's stamp); it wakes the host if that is more than the
    # threshold after the end of the previous frame's latency.
    events = [(t, "rx", k) for k, (t, _) in enumerate(b_up)] + [(t, "tx", k) for k, (t, _) in enumerate(h_down)]
    events.sort(key=lambda e: e[0])
    active, woke = 0, {}
    for t, kind, k in events:
        n = len(b_up[k][1]) if kind == "rx" else len(h_down[k][1])
        w = t > active + idle
        woke[(kind, k)] = w
        ready = t + (rx + rx_b * n if kind == "rx" else tx + tx_b * n) + (wake if w else 0)
        active = max(active, ready)
    check(sum(woke.values()) == res_h["host_stats"]["wakeups"],
          f"{sum(woke.values())} wake-ups replayed, the host counted {res_h['host_stats']['wakeups']}")
    for k, ((tb, fb), (th, fh)) in enumerate(zip(b_up, h_up)):
        want = rx + rx_b * len(fb) + (wake if woke[("rx", k)] else 0)
        check(fh == fb, f"received frame {k}: bytes differ")
        check(th - tb == want, f"received frame {k} ({len(fb)} B): host - board = {th - tb} ns, expected {want}")
    for k, ((tb, fb), (th, fh)) in enumerate(zip(b_down, h_down)):
        n = len(fh)
        want = tx + tx_b * n + (wake if woke[("tx", k)] else 0) + wire_ns(n, byte_ns) + prop
        check(fb[:n] == fh and len(fb) == max(n, 60), f"sent frame {k}: bytes differ (or not padded on the wire)")
        check(tb - th == want, f"sent frame {k} ({n} B): board - host = {tb - th} ns, expected {want}")

    # 3. RTTs: the configured latencies exactly, the wake-up where the host idled.
    req_b = {icmp_key(f): t for t, f in b_down if icmp_key(f)}
    rep_b = {icmp_key(f): (t, len(f)) for t, f in b_up if icmp_key(f)}
    req_h = {icmp_key(f): (t, len(f)) for t, f in h_down if icmp_key(f)}
    rep_h = {icmp_key(f): t for t, f in h_up if icmp_key(f)}
    specs = {e["name"]: e for e in sc["experiments"]}
    first = True
    for e in res_h["experiments"]:
        spec = specs[e["name"]]
        slow = l3vp.parse_duration_ps(spec["interval"]) > idle * 1000
        check(e["received"] == spec["count"], f"{e['name']}: {e['received']} replies of {spec['count']}")
        for k, p in enumerate(e["packets"]):
            key = (spec["id"], p["seq"])
            if first and k == 0:
                continue  # waited for ARP: its RTT includes the exchange
            rtt = p["rtt_ps"]
            check(rtt % 1000 == 0, f"{e['name']} seq {p['seq']}: RTT {rtt} ps is not whole ns")
            rtt //= 1000
            n_req = req_h[key][1]
            t_rep, n_rep = rep_b[key]
            turnaround = (t_rep - wire_ns(n_rep, byte_ns) - prop) - req_b[key]  # the board: request in -> reply out
            base = (tx + tx_b * n_req + wire_ns(n_req, byte_ns) + prop + turnaround + wire_ns(n_rep, byte_ns) + prop
                    + rx + rx_b * n_rep)
            want_wake = slow or k == 0
            check(rtt == base + (wake if want_wake else 0),
                  f"{e['name']} seq {p['seq']}: RTT {rtt} ns, expected {base} + {'wake' if want_wake else '0'}")
            # A Wireshark on the PC sees ping's RTT.
            check(rep_h[key] - req_h[key][0] == rtt,
                  f"{e['name']} seq {p['seq']}: host capture RTT {rep_h[key] - req_h[key][0]} ns, ping {rtt} ns")
            print(f"ok  {e['name']:9} seq {p['seq']}: RTT {rtt} ns = {base} + {wake if want_wake else 0}")
        first = False
    if ERRORS:
        print(f"FAIL: {len(ERRORS)} check(s)")
        return 1
    print("PASS")
    return 0


if __name__ == "__main__":
    sys.exit(main())
