#!/usr/bin/python3
"""Writes the malformed-frame scenario files of the board-net tests
(malformed_*.scenario.json, land.scenario.json; README "Malformed frames").

  gen_malformed.py [--check]

Each file injects a family of broken frames at the board with a "raw"
experiment (docs/network.md "Raw frames"), then pings the board and runs a
UDP or TCP echo through it. Every frame's "comment" starts with the counter
that must count it, then ": " and what is wrong with it:

  stack:<key>   a drop counter of the firmware's "stack" line (net_stats)
  greth:<path>  a GRETH statistic of leon3vp --stats (devices.greth.<path>)
  none          no counter of its own (any one drop counter may count it);
                only "no reply" is checked

run_net.py reads the expectations back from the files. The frames are built
here from the classes of the firmware's host tests
(testbenches/fw-host/test_malformed.cpp and test_arp.cpp) as they look on
a wire: a sending MAC pads frames shorter than 60 bytes, so a "truncated"
header is one whose length field says so; true runts are sent unpadded.
--check: exit 1 if a committed file differs from what this script writes.
"""
import json
import os
import struct
import sys

HERE = os.path.dirname(os.path.abspath(__file__))

HOST_MAC = bytes([2, 0, 0, 0, 0, 0x55])
BOARD_MAC = bytes([2, 0, 0, 0, 0, 0x53])
BCAST_MAC = b"\xff" * 6
HOST_IP = (192, 168, 0, 55)
BOARD_IP = (192, 168, 0, 53)
SUBNET_BCAST = (192, 168, 0, 255)


def ip4(a):
    return bytes(a)


def csum(data):
    """The Internet checksum (RFC 1071) of `data`, as the 16-bit field value."""
    if len(data) % 2:
        data += b"\0"
    s = sum(struct.unpack(f"!{len(data) // 2}H", data))
    while s >> 16:
        s = (s & 0xFFFF) + (s >> 16)
    return ~s & 0xFFFF


def eth(payload, dst=BOARD_MAC, src=HOST_MAC, etype=0x0800):
    return dst + src + struct.pack("!H", etype) + payload


def ipv4(proto, payload, src=HOST_IP, dst=BOARD_IP, version=4, ihl=5, total=None, frag=0x4000,
         bad_checksum=False, options=b""):
    """An IPv4 header (+ options) and payload; total/ihl/version may lie."""
    tot = 20 + len(options) + len(payload) if total is None else total
    h = struct.pack("!BBHHHBBH4s4s", (version << 4) | ihl, 0, tot, 0x1234, frag, 64, proto, 0,
                    ip4(src), ip4(dst)) + options
    c = csum(h)
    if bad_checksum:
        c ^= 0x5555
    return h[:10] + struct.pack("!H", c) + h[12:] + payload


def icmp_echo(data, typ=8, ident=0x77, seq=1, bad_checksum=False):
    m = struct.pack("!BBHHH", typ, 0, 0, ident, seq) + data
    c = csum(m) ^ (0x00FF if bad_checksum else 0)
    return m[:2] + struct.pack("!H", c) + m[4:]


def pseudo(src, dst, proto, seg):
    return ip4(src) + ip4(dst) + struct.pack("!BBH", 0, proto, len(seg)) + seg


def udp(data, sport=5003, dport=7, src=HOST_IP, dst=BOARD_IP, length=None, bad_checksum=False):
    ln = 8 + len(data) if length is None else length
    u = struct.pack("!HHHH", sport, dport, ln, 0) + data
    c = csum(pseudo(src, dst, 17, u)) or 0xFFFF
    if bad_checksum:
        c ^= 0x0F0F
    return u[:6] + struct.pack("!H", c) + u[8:]


def tcp_syn(sport=40000, dport=7, src=HOST_IP, dst=BOARD_IP, options=b"", doff=None, bad_checksum=False,
            seq=1000, flags=0x02, ack=0):
    d = (20 + len(options)) // 4 if doff is None else doff
    t = struct.pack("!HHIIBBHHH", sport, dport, seq, ack, d << 4, flags, 8192, 0, 0) + options
    c = csum(pseudo(src, dst, 6, t)) ^ (0x1111 if bad_checksum else 0)
    return t[:16] + struct.pack("!H", c) + t[18:]


def arp(op=1, htype=1, ptype=0x0800, hlen=6, plen=4, sha=HOST_MAC, spa=HOST_IP, tpa=BOARD_IP):
    return struct.pack("!HHBBH6s4s6s4s", htype, ptype, hlen, plen, op, sha, ip4(spa), b"\0" * 6, ip4(tpa))


def pattern(n):
    return bytes((i * 7 + 3) & 0xFF for i in range(n))


PING = icmp_echo(pattern(100))  # a valid echo request (the board would answer it)


def ping_frame(**ipkw):
    return eth(ipv4(1, PING, **ipkw))


# ---- the families: (counter, description, frame bytes, frame options) ----

def family_eth():
    valid = ping_frame()
    f = []
    f.append(("greth:rx_drops.runt", "empty frame (sent unpadded)", b"", {"pad": False}))
    f.append(("greth:rx_drops.runt", "13-byte runt, shorter than an Ethernet header", valid[:13], {"pad": False}))
    f.append(("greth:rx_drops.runt", "59-byte runt to the board (63 bytes with FCS)", valid[:59], {"pad": False}))
    f.append(("greth:rx_drops.filter", "40-byte runt to another MAC: the address filter drops it first",
              b"\x04" + valid[1:40], {"pad": False}))
    f.append(("greth:rx_drops.filter", "other unicast destination MAC", b"\x04" + valid[1:], {}))
    f.append(("greth:rx_drops.filter", "multicast destination MAC 01:00:5e:00:00:01",
              b"\x01\x00\x5e\x00\x00\x01" + valid[6:], {}))
    f.append(("stack:eth_drop_type", "IPv6 EtherType 0x86dd", eth(valid[14:], etype=0x86DD), {}))
    f.append(("stack:eth_drop_type", "unknown EtherType 0x88b5", eth(pattern(46), etype=0x88B5), {}))
    f.append(("stack:eth_drop_type", "802.3 length field 46 (matches the frame)", eth(pattern(46), etype=46), {}))
    f.append(("greth:rx_length_errors", "802.3 length field 100 in a 60-byte frame (LE)",
              eth(pattern(46), etype=100), {}))
    f.append(("greth:rx_too_long", "over-long frame: 1515 bytes (FT)", eth(ipv4(1, icmp_echo(pattern(1473)))), {}))
    f.append(("greth:rx_too_long", "jumbo frame: 9018 bytes (FT)", eth(ipv4(1, icmp_echo(pattern(8976)))), {}))
    f.append(("greth:rx_crc_errors", "valid echo request with a bad FCS (CE)", valid, {"fcs": "bad"}))
    f.append(("stack:arp_drop_malformed", "ARP with hardware type 6", eth(arp(htype=6), BCAST_MAC, etype=0x0806), {}))
    f.append(("stack:arp_drop_malformed", "ARP with hardware length 8",
              eth(arp(hlen=8), BCAST_MAC, etype=0x0806), {}))
    f.append(("stack:arp_drop_op", "ARP operation 3", eth(arp(op=3), BCAST_MAC, etype=0x0806), {}))
    f.append(("stack:arp_drop_malformed", "ARP request from a multicast sender MAC",
              eth(arp(sha=b"\x01\x00\x5e\x00\x00\x09"), BCAST_MAC, etype=0x0806), {}))
    return f


def family_ip():
    f = []
    f.append(("stack:ip_drop_version", "IP version 6", ping_frame(version=6), {}))
    for ihl in (0, 1, 4):
        f.append(("stack:ip_drop_hl", f"IHL {ihl}", ping_frame(ihl=ihl), {}))
    f.append(("stack:ip_drop_hl", "IHL 15 beyond the (padded) frame",
              eth(ipv4(1, b"\0" * 4, ihl=15, total=24)), {}))
    n = 20 + len(PING)
    f.append(("stack:ip_drop_len", "total length one above the frame", ping_frame(total=n + 1), {}))
    f.append(("stack:ip_drop_len", "total length 65535", ping_frame(total=65535), {}))
    f.append(("stack:ip_drop_len", "total length 19 (below the header)", ping_frame(total=19), {}))
    f.append(("stack:ip_drop_len", "total length 20 below IHL 6",
              eth(ipv4(1, PING, ihl=6, total=20, options=b"\x01\x01\x01\x01")), {}))
    f.append(("stack:ip_drop_chksum", "bad header checksum", ping_frame(bad_checksum=True), {}))
    f.append(("stack:ip_drop_frag", "first fragment (MF)", ping_frame(frag=0x2000), {}))
    f.append(("stack:ip_drop_frag", "later fragment (offset 16)", ping_frame(frag=0x0002), {}))
    f.append(("stack:ip_drop_frag", "last fragment (DF + offset)", ping_frame(frag=0x4000 | 0x0020), {}))
    f.append(("stack:ip_drop_not_for_us", "destination 192.168.0.99", ping_frame(dst=(192, 168, 0, 99)), {}))
    f.append(("stack:ip_drop_proto", "unknown protocol 99", eth(ipv4(99, pattern(40))), {}))
    return f


def family_l4():
    f = []
    f.append(("stack:icmp_drop_short", "ICMP of 7 bytes (total length 27)",
              eth(ipv4(1, PING, total=27)), {}))
    f.append(("stack:icmp_drop_chksum", "ICMP bad checksum", eth(ipv4(1, icmp_echo(pattern(100), bad_checksum=True))),
              {}))
    f.append(("stack:icmp_drop_type", "ICMP timestamp request (type 13)", eth(ipv4(1, icmp_echo(pattern(12), typ=13))),
              {}))
    f.append(("stack:icmp_drop_bcast", "echo request to the subnet broadcast",
              eth(ipv4(1, PING, dst=SUBNET_BCAST), BCAST_MAC), {}))
    good = udp(pattern(20))
    f.append(("stack:udp_drop_short", "UDP of 7 bytes (total length 27)", eth(ipv4(17, good, total=27)), {}))
    f.append(("stack:udp_drop_len", "UDP length above the payload",
              eth(ipv4(17, udp(pattern(20), length=29))), {}))
    f.append(("stack:udp_drop_len", "UDP length 7", eth(ipv4(17, udp(pattern(20), length=7))), {}))
    f.append(("stack:udp_drop_chksum", "UDP bad checksum", eth(ipv4(17, udp(pattern(20), bad_checksum=True))), {}))
    f.append(("stack:udp_drop_no_port", "UDP to closed port 9 (no ICMP unreachable is sent)",
              eth(ipv4(17, udp(pattern(20), dport=9))), {}))
    return f


def family_tcp():
    f = []
    good = tcp_syn()
    f.append(("stack:tcp_drop_short", "TCP header of 19 bytes (total length 39)", eth(ipv4(6, good, total=39)), {}))
    f.append(("stack:tcp_drop_chksum", "SYN with a bad checksum", eth(ipv4(6, tcp_syn(bad_checksum=True))), {}))
    for doff, what in ((4, "data offset 4"), (0, "data offset 0"), (15, "data offset 15 beyond the segment"),
                       (6, "data offset 6 in a 20-byte segment")):
        f.append(("stack:tcp_drop_offset", what, eth(ipv4(6, tcp_syn(doff=doff))), {}))
    for opts, what in ((b"\x02\x00\x00\x00", "option length 0"), (b"\x08\x01\x00\x00", "option length 1"),
                       (b"\x01\x02\x08\x00", "option overruns the header"),
                       (b"\x01\x01\x01\x03", "option kind in the last byte"),
                       (b"\x01\x01\x02\x04", "MSS option overruns the header"),
                       (b"\x02\xff\x00\x00\x00\x00\x00\x00", "option length 255")):
        f.append(("stack:tcp_drop_opt", what, eth(ipv4(6, tcp_syn(options=opts))), {}))
    f.append(("stack:tcp_drop_bcast", "SYN to the subnet broadcast",
              eth(ipv4(6, tcp_syn(dst=SUBNET_BCAST), dst=SUBNET_BCAST), BCAST_MAC), {}))
    return f


LAND_MAC = bytes([2, 0, 0, 0, 0, 0x66])  # whoever claims the board's address


def family_land():
    """Land-attack frames: the source is the board's own address (first
    hardening round, firmware/net/ip.c: ip_drop_land), and ARP packets whose
    sender address is the board's (second hardening round, firmware/net/arp.c:
    arp_drop_land; answered before, with an entry for the board's own
    address learnt)."""
    f = []
    own = BOARD_IP
    f.append(("stack:ip_drop_land", "land: echo request from the board's own address",
              eth(ipv4(1, PING, src=own)), {}))
    f.append(("stack:ip_drop_land", "land: UDP to port 7 from the board's own address and port 7",
              eth(ipv4(17, udp(pattern(20), sport=7, src=own), src=own)), {}))
    f.append(("stack:ip_drop_land", "land: SYN to port 7 from the board's own address and port 7 (the classic land attack)",
              eth(ipv4(6, tcp_syn(sport=7, src=own), src=own)), {}))
    f.append(("stack:arp_drop_land", "land: ARP request for the board's address from the board's address (another MAC)",
              eth(arp(op=1, sha=LAND_MAC, spa=own, tpa=own), BCAST_MAC, LAND_MAC, etype=0x0806), {}))
    f.append(("stack:arp_drop_land", "land: ARP reply to the board claiming the board's address",
              eth(arp(op=2, sha=LAND_MAC, spa=own, tpa=own), BOARD_MAC, LAND_MAC, etype=0x0806), {}))
    return f


def family_land_bcast():
    """Frames whose source is a broadcast or multicast address (ip_drop_src)."""
    f = []
    for src, what in (((255, 255, 255, 255), "255.255.255.255"), (SUBNET_BCAST, "the subnet broadcast"),
                      ((224, 0, 0, 1), "multicast 224.0.0.1"), ((239, 255, 0, 9), "multicast 239.255.0.9")):
        f.append(("stack:ip_drop_src", f"echo request from {what}", eth(ipv4(1, PING, src=src)), {}))
    f.append(("stack:ip_drop_src", "SYN to port 7 from the subnet broadcast",
              eth(ipv4(6, tcp_syn(src=SUBNET_BCAST), src=SUBNET_BCAST)), {}))
    f.append(("stack:ip_drop_src", "UDP to port 7 from multicast 224.0.0.1",
              eth(ipv4(17, udp(pattern(20), src=(224, 0, 0, 1)), src=(224, 0, 0, 1))), {}))
    return f


# ---- scenario files ----

HOST = {"mac": "02:00:00:00:00:55", "ip": "192.168.0.55", "netmask": "255.255.255.0"}
BOARD = {"mac": "02:00:00:00:00:53", "ip": "192.168.0.53"}
RAW_START, SPACING = "60ms", "1ms"   # the board answers ARP from ~22 ms on
FINAL_START_MS = 150                 # after the last raw frame; the "no reply" window ends here


def hexstr(b):
    """Hex in groups of 16 bytes (whitespace is allowed in the scenario)."""
    return " ".join(b[i:i + 16].hex() for i in range(0, len(b), 16))


def scenario(comment, frames, echo):
    assert len(frames) <= 80, "raw frames must end before the final traffic"
    fr = []
    for counter, what, data, opts in frames:
        x = {"comment": f"{counter}: {what}", "hex": hexstr(data)}
        x.update(opts)
        fr.append(x)
    ex = [{"name": "malformed", "type": "raw", "start": RAW_START, "spacing": SPACING, "frames": fr},
          {"name": "ping", "type": "ping", "count": 2, "size": 56, "interval": "10ms", "timeout": "100ms",
           "start": f"{FINAL_START_MS}ms"}]
    if echo == "udp":
        ex += [{"name": "echoes", "type": "udp_recv", "port": 5003, "expect": 3},
               {"name": "send", "type": "udp_send", "sport": 5003, "dport": 7, "size": 64, "count": 3,
                "delay": "5ms", "start": f"{FINAL_START_MS + 50}ms"}]
    else:
        ex += [{"name": "echo", "type": "tcp_send", "dport": 7, "bytes": 3000, "start": f"{FINAL_START_MS + 50}ms"}]
    return {"comment": comment, "host": HOST, "board": BOARD, "link": {"mbps": 100, "prop_delay": "50ns"},
            "duration": "5s", "experiments": ex}


FILES = {
    "malformed_eth.scenario.json": (
        "board-net malformed_eth (net_udpecho): runts, over-long frames, a bad FCS, unknown EtherTypes, foreign "
        "and multicast destinations, bad ARP; then ping and UDP echo. Generated by gen_malformed.py.",
        family_eth, "udp"),
    "malformed_ip.scenario.json": (
        "board-net malformed_ip (net_udpecho): bad IPv4 version, IHL, total length, checksum, fragments, "
        "foreign destination, unknown protocol; then ping and UDP echo. Generated by gen_malformed.py.",
        family_ip, "udp"),
    "malformed_l4.scenario.json": (
        "board-net malformed_l4 (net_udpecho): truncated/bad-checksum ICMP and UDP, bad UDP lengths, ICMP to "
        "broadcast, closed port; then ping and UDP echo. Generated by gen_malformed.py.",
        family_l4, "udp"),
    "malformed_tcp.scenario.json": (
        "board-net malformed_tcp (net_tcpecho): truncated header, bad checksum, bad data offsets, bad options, "
        "SYN to broadcast; then ping and TCP echo. Generated by gen_malformed.py.",
        family_tcp, "tcp"),
    "land.scenario.json": (
        "board-net land (net_tcpecho): echo request, UDP and SYN whose source is the board's own address "
        "(land attack), ARP request and reply with the board's address as sender; then ping and TCP echo. "
        "Generated by gen_malformed.py.",
        family_land, "tcp"),
    "land_bcast.scenario.json": (
        "board-net land_bcast (net_tcpecho): echo requests, a SYN and UDP whose source is a broadcast or "
        "multicast address; then ping and TCP echo. Generated by gen_malformed.py.",
        family_land_bcast, "tcp"),
}


def render(name):
    comment, fam, echo = FILES[name]
    return json.dumps(scenario(comment, fam(), echo), indent=1) + "\n"


def write_or_check(names, render, tool, argv):
    """Write each scenario file render(name) gives (next to this script), or
    with --check in argv only compare: 1 if one differs or is missing."""
    check = "--check" in argv
    bad = 0
    for name in names:
        path = os.path.join(HERE, name)
        text = render(name)
        if check:
            if not os.path.exists(path) or open(path).read() != text:
                print(f"{name}: differs from {tool}'s output (run it to regenerate)")
                bad = 1
        else:
            with open(path, "w") as f:
                f.write(text)
    return bad


def main():
    return write_or_check(FILES, render, "gen_malformed.py", sys.argv[1:])


if __name__ == "__main__":
    sys.exit(main())
