"""Checks of the board-net hardening tests (README "Hardening scenarios";
docs/firmware.md "Hardening policy"), used by run_net.py.

Single-run checks take (res, lines, stats, pcap) like check_malformed.
Multi-run checks (isn, rfc5961) have `custom = True`: run_net.py calls them
with a function run(scenario, params, tag) that runs leon3vp once and
returns (results, firmware lines, pcap path), raising AssertionError if
leon3vp does not exit 0.
"""
import json
import os
import struct
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import gen_harden  # noqa: E402
import gen_malformed as gm  # noqa: E402
import l3vp  # noqa: E402
import l3vp.pcap  # noqa: E402

TCP_FIN, TCP_SYN, TCP_RST, TCP_ACK = 0x01, 0x02, 0x04, 0x10


def ipstr(b):
    return ".".join(map(str, b))


def frames(pcap):
    """The capture's IPv4 frames as dicts: t_ns, eth src/dst, IP src/dst
    (dotted), proto, and for TCP sport, dport, seq, ack, flags, window,
    payload length; for ICMP type."""
    out = []
    for t, _, d in l3vp.pcap.records(pcap):
        if len(d) < 34 or d[12:14] != b"\x08\x00":
            continue
        ihl = (d[14] & 15) * 4
        tot = struct.unpack("!H", d[16:18])[0]
        f = {"t": t, "esrc": d[6:12], "edst": d[0:6], "src": ipstr(d[26:30]), "dst": ipstr(d[30:34]),
             "proto": d[23], "raw": d}
        l4 = d[14 + ihl:14 + tot]
        if f["proto"] == 6 and len(l4) >= 20:
            sp, dp, seq, ack, off, fl, wnd = struct.unpack("!HHIIBBH", l4[:16])
            f.update(sport=sp, dport=dp, seq=seq, ack=ack, flags=fl, wnd=wnd, dlen=len(l4) - (off >> 4) * 4)
        elif f["proto"] == 1 and l4:
            f["type"] = l4[0]
        out.append(f)
    return out


def from_board(f):
    return f["esrc"] == gm.BOARD_MAC


def stack(lines):
    st = l3vp.first_line(lines, "stack")
    assert st is not None, "no stack line"
    return st


def exp(res, name):
    return next(e for e in res["experiments"] if e.get("name") == name)


def fresh(name):
    """The committed scenario file is what gen_harden.py writes."""
    with open(os.path.join(HERE, name)) as f:
        assert f.read() == gen_harden.render(name), f"{name} is stale: run gen_harden.py"


def tcp_echo_ok(res, lines, nbytes):
    e = exp(res, "echo")
    assert e["completed"] == 1 and e["bytes_acked"] == nbytes, e
    c = e["conns"][0]
    assert c["bytes_received"] == nbytes and c["bad_bytes"] == 0 and not c["reset"], c
    r = l3vp.first_line(lines, "result")
    assert r["rx_bytes"] == nbytes and r["tx_bytes"] == nbytes, r


def check_synflood(res, lines, stats, pcap):
    """20 spoofed SYNs (10 fill the table, 10 evict them 70 ms later), then
    the real host's echo evicts one more: evicted 11, the 9 left expire
    after NET_TCP_SYN_RCVD_MS (the program lingers until they have), no
    SYN refused, every spoofed source got its SYN-ACK (to its own address
    and port, through the gateway's MAC), and the echo is verified."""
    fresh("synflood.scenario.json")
    srcs = [gen_harden.flood_source(i) for i in range(sum(n for _, n in gen_harden.FLOOD_WAVES))]
    assert exp(res, "attack")["sent"] == len(srcs), exp(res, "attack")
    tcp_echo_ok(res, lines, 3000)
    st = stack(lines)
    n_first = gen_harden.FLOOD_WAVES[0][1]
    assert st["tcp_syn_evicted"] == len(srcs) - n_first + 1, f"tcp_syn_evicted {st['tcp_syn_evicted']}"
    assert st["tcp_syn_expired"] == n_first - 1, f"tcp_syn_expired {st['tcp_syn_expired']}"
    assert st["tcp_drop_no_slot"] == 0, f"tcp_drop_no_slot {st['tcp_drop_no_slot']}"
    fr = [f for f in frames(pcap) if from_board(f) and f.get("flags", 0) & (TCP_SYN | TCP_ACK) == TCP_SYN | TCP_ACK
          and f["dst"].startswith("10.")]
    for i, (ip, _, port) in enumerate(srcs):
        got = [f for f in fr if f["dst"] == ipstr(ip) and f["dport"] == port and f["ack"] == 0x1000 * (i + 1) + 1]
        assert got, f"no SYN-ACK to spoofed {ipstr(ip)}:{port}"
        assert all(f["edst"] == gm.HOST_MAC for f in got), "SYN-ACK not sent to the gateway's MAC"
    return (f"{len(srcs)} spoofed SYNs, each SYN-ACKed ({len(fr)} SYN-ACKs to spoofed addresses, retransmissions included); "
            f"evicted {st['tcp_syn_evicted']}, expired {st['tcp_syn_expired']}, no SYN refused; "
            f"real echo 3000 B verified")


check_synflood.wants_stats = True
check_synflood.wants_pcap = True


def check_gateway(with_gw):
    """Echo requests from the off-link 10.9.8.7: with the gateway (the
    host) the board answers each through the gateway's MAC (ARP for the
    gateway, never for 10.9.8.7 or 0.0.0.0); without one it sends nothing
    for them and counts ip_drop_no_route. Ping and UDP echo work after."""
    def check(res, lines, stats, pcap):
        fresh("gateway.scenario.json")
        src = ipstr(gen_harden.GW_SOURCE)
        n = len(gen_harden.family_gateway())
        assert exp(res, "attack")["sent"] == n, exp(res, "attack")
        st = stack(lines)
        replies = [f for f in frames(pcap) if from_board(f) and f["dst"] == src]
        # ARP requests from the board: target address (bytes 38..41).
        arp_tpa = [ipstr(d[38:42]) for _, _, d in l3vp.pcap.records(pcap)
                   if d[6:12] == gm.BOARD_MAC and d[12:14] == b"\x08\x06" and d[20:22] == b"\x00\x01"]
        assert src not in arp_tpa and "0.0.0.0" not in arp_tpa, arp_tpa
        if with_gw:
            assert len(replies) == n and all(f.get("type") == 0 and f["edst"] == gm.HOST_MAC for f in replies), replies
            assert st["ip_drop_no_route"] == 0, st["ip_drop_no_route"]
        else:
            assert not replies, f"{len(replies)} replies to {src} without a gateway"
            assert st["ip_drop_no_route"] == n, st["ip_drop_no_route"]
        p = exp(res, "ping")
        assert p["transmitted"] == 2 and p["received"] == 2, p
        e = exp(res, "echoes")
        assert e["received"] == 3 and e["bad"] == 0, e
        what = (f"{n} echo replies to {src} through the gateway's MAC" if with_gw
                else f"no reply to {src}, ip_drop_no_route {n}")
        return f"{what}; ARP requests for {arp_tpa}; then ping 2/2 and UDP echo verified"
    check.wants_stats = True
    check.wants_pcap = True
    return check


def check_arp_conflict(res, lines, stats, pcap):
    """Two gratuitous ARPs claim the host's address for FAKE_MAC during 20
    pings: the board keeps the entry, probes the old MAC by unicast request
    (the host answers), and every ping is answered to the host's MAC."""
    fresh("arp_conflict.scenario.json")
    assert exp(res, "attack")["sent"] == 2, exp(res, "attack")
    p = exp(res, "ping")
    assert p["transmitted"] == 20 and p["received"] == 20, p
    r = l3vp.first_line(lines, "result")
    assert r["echo_rx"] == 20 and r["echo_tx"] == 20, r
    st = stack(lines)
    conf = {k: st[k] for k in ("arp_conflict", "arp_conflict_kept", "arp_conflict_dropped")}
    assert conf == {"arp_conflict": 2, "arp_conflict_kept": 2, "arp_conflict_dropped": 0}, conf
    recs = l3vp.pcap.records(pcap)
    to_fake = [t for t, _, d in recs if d[6:12] == gm.BOARD_MAC and d[0:6] == gen_harden.FAKE_MAC]
    assert not to_fake, f"board sent {len(to_fake)} frames to the claimed MAC"
    probes = [t for t, _, d in recs if d[6:12] == gm.BOARD_MAC and d[0:6] == gm.HOST_MAC
              and d[12:14] == b"\x08\x06" and d[20:22] == b"\x00\x01"]
    for t_ms in gen_harden.ARP_TIMES_MS:
        assert any(t_ms * 1e6 <= t < (t_ms + 20) * 1e6 for t in probes), (f"no unicast probe after {t_ms} ms", probes)
    return (f"20/20 pings answered to the host's MAC across 2 gratuitous ARPs; conflict 2, kept 2 "
            f"(unicast probes at {', '.join(f'{t / 1e6:.2f}' for t in probes)} ms)")


check_arp_conflict.wants_stats = True
check_arp_conflict.wants_pcap = True


def syn_ack_isn(pcap):
    board = gm.BOARD["ip"]  # by address: one run changes the board's MAC
    sa = [f for f in frames(pcap) if f["src"] == board and f.get("flags", 0) & (TCP_SYN | TCP_ACK) == TCP_SYN | TCP_ACK]
    assert sa, "no SYN-ACK from the board"
    return sa[0]["seq"], sa[0]["esrc"]


ISN_PINGS = {"ping40_60": "20ms", "ping40_70": "30ms"}  # two pings from 40 ms, before the echo at 100 ms


def check_isn(run):
    """net_tcpecho with seed 1 twice, seed 2, and seed 1 with another MAC:
    the same inputs give the same SYN-ACK ISN (determinism), another seed
    or MAC another one; every echo verified. Then two runs with seed 1
    whose host pings twice before the connection, the first ping at the
    same time, the second 10 ms apart: the first frame's timer is the same,
    a later frame's differs, and so does the ISN (the secret
    follows every frame's timer reading, not only the first's)."""
    scen = os.path.join(HERE, "tcpecho.scenario.json")
    isn = {}
    for tag, params in (("seed1", {"seed": 1}), ("seed1_again", {"seed": 1}), ("seed2", {"seed": 2}),
                        ("seed1_mac", {"seed": 1, "mac": "02:00:00:00:00:99"})):
        res, lines, pcap = run(scen, dict(params, count=1), tag)
        tcp_echo_ok(res, lines, 20000)
        isn[tag], mac = syn_ack_isn(pcap)
        assert mac == bytes.fromhex(params.get("mac", gm.BOARD["mac"]).replace(":", "")), (tag, mac.hex(":"))
    assert isn["seed1"] == isn["seed1_again"], f"same seed, different ISNs: {isn}"
    assert len({isn["seed1"], isn["seed2"], isn["seed1_mac"]}) == 3, f"ISN does not follow seed/MAC: {isn}"
    with open(scen) as f:
        base = json.load(f)
    first = {}
    for tag, interval in ISN_PINGS.items():
        sc = dict(base, experiments=base["experiments"] + [
            {"name": "early", "type": "ping", "count": 2, "size": 56, "interval": interval, "timeout": "10ms",
             "start": "40ms"}])
        res, lines, pcap = run(sc, {"seed": 1, "count": 1}, tag)
        tcp_echo_ok(res, lines, 20000)
        assert exp(res, "early")["received"] == 2, exp(res, "early")
        isn[tag], _ = syn_ack_isn(pcap)
        first[tag] = min(t for t, _, d in l3vp.pcap.records(pcap) if d[6:12] != gm.BOARD_MAC)
    assert len(set(first.values())) == 1, f"the first frame differs: {first}"
    a, b = ISN_PINGS
    assert isn[a] != isn[b], f"a later frame's timing does not reach the ISN: {isn}"
    return "SYN-ACK ISNs " + ", ".join(f"{k} 0x{v:08x}" for k, v in isn.items()) + "; echoes verified"


check_isn.custom = True

def check_rfc5961_side(run):
    """CVE-2016-5696: a victim's and an attacker's connection (raw frames
    from spoofed off-link sources, gen_harden.side_channel); 5 spoofed RSTs
    at the victim, in its window (run "hit") or beyond it (run "miss"),
    then 12 in-window RSTs on the attacker's own connection. The attacker
    counts the board's challenge ACKs to him: the same number (the budget,
    10) whether or not the victim was hit. With one budget for all
    connections he sees 5 after a hit, 10 after a miss: he learns that his
    guess was in the victim's window.

    The handshakes need the board's ISNs: a first run with the SYNs only
    gives them (the runs are the same until the ACKs, deterministic)."""
    vip, vport, _ = gen_harden.SIDE_VICTIM
    aip, aport, _ = gen_harden.SIDE_ATTACKER
    params = {"count": 1, "gateway": gm.HOST["ip"]}
    res, lines, pcap = run(gen_harden.side_scenario(), params, "probe")
    tcp_echo_ok(res, lines, 3000)
    board_isn = {}
    for f in frames(pcap):
        if from_board(f) and f.get("flags", 0) == TCP_SYN | TCP_ACK and f["dport"] in (vport, aport):
            board_isn.setdefault(f["dport"], f["seq"])
    assert sorted(board_isn) == sorted((vport, aport)), f"SYN-ACKs: {board_isn}"

    def challenge_acks(fr, ip, lo_ms, hi_ms):
        return [f for f in fr if from_board(f) and f["dst"] == ipstr(ip) and f.get("flags") == TCP_ACK
                and f["dlen"] == 0 and lo_ms * 1e6 <= f["t"] < hi_ms * 1e6]

    seen = {}
    for tag, hit in (("hit", True), ("miss", False)):
        sc = gen_harden.side_scenario(board_isn, hit)
        # net_tcpecho counts the two aborted connections as finished too
        res, lines, pcap = run(sc, dict(params, count=3), tag)
        attack = sc["experiments"][0]
        assert exp(res, "attack")["sent"] == len(attack["frames"]), exp(res, "attack")
        tcp_echo_ok(res, lines, 3000)
        fr = frames(pcap)
        to_victim = challenge_acks(fr, vip, gen_harden.SIDE_VICTIM_MS, gen_harden.SIDE_ATTACK_MS)
        to_attacker = challenge_acks(fr, aip, gen_harden.SIDE_ATTACK_MS, gen_harden.SIDE_END_MS)
        assert len(to_victim) == (gen_harden.SIDE_VICTIM_RSTS if hit else 0), (tag, len(to_victim))
        st = stack(lines)
        assert st["tcp_rst_rx"] == 2, (tag, st["tcp_rst_rx"])  # only the exact RSTs at the end
        assert st["tcp_drop_challenge"] == gen_harden.SIDE_ATTACK_RSTS + len(to_victim), (tag, st)
        seen[tag] = len(to_attacker)
    assert seen["hit"] == seen["miss"], (
        f"side channel: the attacker saw {seen['hit']} challenge ACKs after hitting the victim's window, "
        f"{seen['miss']} after missing it")
    assert seen["hit"] == 10, seen  # NET_TCP_CHALLENGE_ACKS
    return (f"board ISNs {', '.join(f'{p}: 0x{v:08x}' for p, v in board_isn.items())}; "
            f"{gen_harden.SIDE_VICTIM_RSTS} spoofed RSTs in the victim's window: {seen['hit']} challenge ACKs "
            f"to the attacker; beyond it: {seen['miss']}; echo verified")


check_rfc5961_side.custom = True

RFC5961_AT_SEGMENT = 20  # inject when the board sends its 20th data segment (first run)


def check_rfc5961(run):
    """net_tcpsend sends 100000 B to the host; mid-transfer a RST in the
    board's receive window but not at RCV.NXT, then a SYN on the same
    4-tuple: each gets a challenge ACK (a pure ACK from the board within
    1 ms; none in that interval without the attack), the connection
    survives and the host verifies every byte.

    The frames need the live connection's numbers: a first run without
    them gives the ports, the host's ISN (its SYN-ACK) and the time of the
    board's 20th data segment; the second run is the same until the
    injection (deterministic), so RCV.NXT is then the host's ISN + 1 (the
    host only sends ACKs). Reading them at test time keeps the test valid
    when firmware changes move its timing or ISNs."""
    scen_path = os.path.join(HERE, "tcpsend.scenario.json")
    params = {"count": 1, "bytes": 100000}
    res1, lines1, pcap1 = run(scen_path, params, "plain")
    fr1 = frames(pcap1)
    sa = [f for f in fr1 if not from_board(f) and f.get("flags", 0) & (TCP_SYN | TCP_ACK) == TCP_SYN | TCP_ACK]
    assert len(sa) == 1, sa
    host_isn, host_port, board_port = sa[0]["seq"], sa[0]["sport"], sa[0]["dport"]
    data = [f for f in fr1 if from_board(f) and f.get("dlen", 0) > 0]
    assert len(data) > RFC5961_AT_SEGMENT + 10, len(data)
    t_ms = round(data[RFC5961_AT_SEGMENT]["t"] / 1e3) / 1e3  # us resolution
    wnd = data[RFC5961_AT_SEGMENT]["wnd"]
    offset = min(1000, wnd // 2)
    assert offset >= 1, wnd

    def pure_acks(fr, lo_ms, hi_ms):
        return [f for f in fr if from_board(f) and f.get("flags") == TCP_ACK and f["dlen"] == 0
                and f["ack"] == (host_isn + 1) & 0xFFFFFFFF and lo_ms * 1e6 <= f["t"] < hi_ms * 1e6]

    assert not pure_acks(fr1, t_ms, t_ms + 2), "the board sends pure ACKs there anyway: choose another time"
    with open(scen_path) as f:
        scen = json.load(f)
    scen["experiments"].append(gen_harden.rst_and_syn(host_isn, host_port, board_port, offset, t_ms))
    res, lines, pcap = run(scen, params, "attack")
    assert exp(res, "attack")["sent"] == 2, exp(res, "attack")
    e = exp(res, "server")
    assert e["accepted"] == 1 and e["bytes_received"] == 100000 and e["bad_bytes"] == 0, e
    r = l3vp.first_line(lines, "result")
    assert r["connections"] == 1 and r["failed"] == 0 and r["bytes"] == 100000, r
    st = stack(lines)
    assert st["tcp_drop_challenge"] == 2 and st["tcp_challenge_limited"] == 0, st
    assert st["tcp_rst_rx"] == 0, st["tcp_rst_rx"]
    fr = frames(pcap)
    acks = []
    for k, at in enumerate((t_ms, t_ms + 1)):
        inj = [f for f in fr if not from_board(f) and f.get("sport") == host_port
               and f["flags"] in (TCP_RST, TCP_SYN) and at * 1e6 <= f["t"] < (at + 1) * 1e6]
        assert len(inj) == 1, ("injected frame not in the capture", at, inj)
        ch = pure_acks(fr, inj[0]["t"] / 1e6, inj[0]["t"] / 1e6 + 1)
        assert ch, f"no challenge ACK after the injected {'RST' if k == 0 else 'SYN'} at {at:.3f} ms"
        acks.append(ch[0])
    return (f"RST at RCV.NXT + {offset} ({t_ms:.3f} ms) and SYN ({t_ms + 1:.3f} ms) on {host_port}->{board_port} "
            f"each answered by a challenge ACK (ack 0x{acks[0]['ack']:08x}); tcp_drop_challenge 2; "
            f"100000 B verified by the host")


check_rfc5961.custom = True


# ---- slot policy (firmware/net/README.md "Slot policy") ------------

def slots_echo_served(res, lines):
    """The fifth peer's 3000-byte echo completed and came back verified."""
    e = exp(res, "echo")
    c = e["conns"][0] if e["conns"] else {}
    assert e["completed"] == 1 and e["bytes_acked"] == 3000, f"fifth peer not served (locked out): {e}"
    assert c["bytes_received"] == 3000 and c["bad_bytes"] == 0 and not c["reset"], c
    st = stack(lines)
    assert st.get("tcp_idle_evicted") == 1, f"tcp_idle_evicted {st.get('tcp_idle_evicted')}"
    assert st.get("tcp_drop_listen_full") == 0 and st.get("tcp_idle_timeouts") == 0, st
    r = l3vp.first_line(lines, "result")
    assert r["accepted"] == 5, r
    return st


def check_slots_idle(res, lines):
    """Four connections to the echo service that never send (its 4 slots),
    then a fifth peer at 3 s: the connection idle longest (the first
    opened) is reset and the fifth gets its 3000 bytes echoed; the other
    three stay open. Before: the fifth was reset (lockout)."""
    slots_echo_served(res, lines)
    conns = exp(res, "idle")["conns"]
    reset = [i for i, c in enumerate(conns) if c["reset"]]
    assert reset == [0], f"reset {reset}, expected the first (idle longest): {conns}"
    assert all(c["state"] == "ESTABLISHED" for c in conns[1:]), [c["state"] for c in conns]
    return "4 idle connections; the fifth peer evicted the first (idle longest) and got 3000 B echoed, verified"


def check_slots_trickle(res, lines):
    """Four connections each trickle one byte every 2 s (a pure idle
    timeout would never fire); a fifth peer at 5.6 s evicts the one idle
    longest (the first, > 1 s since its last byte) and gets its echo; the
    other three keep being echoed to the end. Before: the fifth was reset."""
    slots_echo_served(res, lines)
    conns = exp(res, "trickle")["conns"]
    reset = [i for i, c in enumerate(conns) if c["reset"]]
    assert reset == [0], f"reset {reset}, expected the first trickler: {conns}"
    assert conns[0]["received"] == "abc", conns[0]["received"]  # echoed until evicted at 5.6 s
    assert all(c["received"] == "abcdef" and c["state"] == "ESTABLISHED" for c in conns[1:]), \
        [(c["received"], c["state"]) for c in conns[1:]]
    return ("4 tricklers (1 B / 2 s); the fifth peer evicted the first and got 3000 B echoed, "
            "the other three echoed all 6 bytes")


def check_persist_knob(res, lines, stats, pcap):
    """net_tcpsend against a window that never opens, with persist_max_ms
    10000: window probes back off from the RTO and the board resets the
    connection 10 s after the first probe (the default gives up after 100 s:
    8 probes). Before: leon3vp did not know the parameter."""
    e = exp(res, "server")
    assert e["accepted"] == 1 and e["bytes_received"] == 0, e
    r = l3vp.first_line(lines, "result")
    assert r["connections"] == 1 and r["failed"] == 1 and r["bytes"] == 0, r
    st = stack(lines)
    assert st["tcp_timeouts"] == 1 and st["tcp_rst_tx"] == 1 and 3 <= st["tcp_persist_probes"] <= 6, st
    fr = [f for f in frames(pcap) if from_board(f) and "flags" in f]
    syn = next(f for f in fr if f["flags"] & TCP_SYN)
    probes = [f for f in fr if f["flags"] == TCP_ACK and f["dlen"] == 0 and f["seq"] == syn["seq"]]
    rst = [f for f in fr if f["flags"] & TCP_RST]
    assert len(probes) == st["tcp_persist_probes"] and len(rst) == 1, (len(probes), len(rst))
    dt = (rst[0]["t"] - probes[0]["t"]) / 1e9
    assert 9.99 <= dt <= 10.01, f"reset {dt:.3f} s after the first probe, expected 10"
    return f"{len(probes)} window probes, reset {dt:.3f} s after the first (persist_max_ms 10000)"


check_persist_knob.wants_stats = True
check_persist_knob.wants_pcap = True
