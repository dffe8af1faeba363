#!/usr/bin/env python3
"""Writes the seed corpus of fuzz_net_input (format: fuzz_net_input.cpp).

  gen_corpus.py DIR     (default: corpus/ next to this script)

Each seed is a valid scenario: an ARP request, ICMP echo requests, UDP to
the echo port, a passive and an active TCP handshake, data both ways with
the peer's ACKs, FIN from either side, RST, retransmission timeouts, IP
options and fragments. Checksums are left to the fix-up bits of the record
tags; TCP seq/ack of the connection records are offsets from the
connection's rcv_nxt/snd_nxt (tag bit 0x04), so the seeds stay valid whatever
ISN the stack picks.
"""
import os
import struct
import sys

OUR_MAC = bytes([2, 0, 0, 0, 0, 1])
PEER_MAC = bytes([2, 0, 0, 0, 0, 2])
BCAST = b"\xff" * 6
OUR_IP = bytes([10, 0, 0, 1])
PEER_IP = bytes([10, 0, 0, 2])

FIX = 0x03          # rewrite IP and L4 checksums
REL = 0x07          # ... and TCP seq/ack relative to slot 0
PORTS = 0x20        # ... and the TCP ports of slot 0 (active opens: ephemeral port)
FIN, SYN, RST, PSH, ACK = 0x01, 0x02, 0x04, 0x08, 0x10

# setup byte
EST, ACTIVE, ECHO, CLOSE_ON_FIN, SMALL_WND = 0x01, 0x02, 0x04, 0x08, 0x10


def eth(payload, typ=0x0800, dst=OUR_MAC):
    return dst + PEER_MAC + struct.pack(">H", typ) + payload


def ip(proto, payload, options=b"", frag=0, dst=OUR_IP):
    hl = 20 + len(options)
    h = struct.pack(">BBHHHBBH4s4s", 0x40 | hl // 4, 0, hl + len(payload), 0x1234, frag, 64, proto, 0,
                    PEER_IP, dst)
    return h + options + payload


def tcp(sport, dport, seq, ack, flags, data=b"", options=b"", wnd=8192):
    hl = 20 + len(options)
    return struct.pack(">HHIIBBHHH", sport, dport, seq & 0xffffffff, ack & 0xffffffff, (hl // 4) << 4, flags,
                       wnd, 0, 0) + options + data


def udp(sport, dport, data):
    return struct.pack(">HHHH", sport, dport, 8 + len(data), 0) + data


def icmp_echo(ident, seq, data):
    return struct.pack(">BBHHH", 8, 0, 0, ident, seq) + data


def arp_request(target=OUR_IP):
    body = struct.pack(">HHBBH", 1, 0x0800, 6, 4, 1) + PEER_MAC + PEER_IP + b"\0" * 6 + target
    return eth(body, 0x0806, BCAST)


def rec(frame, tag=FIX):
    return bytes([tag]) + struct.pack(">H", len(frame)) + frame


def tick(ms):
    """Timer tick records adding up to ms (10 ms granularity)."""
    out = b""
    while ms >= 640:
        n = min(ms // 16, 62)      # steps of at most ~1 s, as a driver would tick
        out += b"\xc0" + struct.pack(">H", n)
        ms -= n * 16
    while ms >= 10:
        k = min(ms // 10, 64)
        out += bytes([0x80 + k - 1])
        ms -= k * 10
    return out


def seg(flags, data=b"", seq=0, ack=0, sport=40000, dport=80, options=b"", wnd=8192, tag=REL):
    """A TCP frame of the prelude connection (slot 0), seq/ack as offsets."""
    return rec(eth(ip(6, tcp(sport, dport, seq, ack, flags, data, options, wnd))), tag)


def pattern(n, k=1):
    return bytes((i * 31 + k) & 0xff for i in range(n))


MSS = b"\x02\x04\x05\xb4"

SEEDS = {
    "arp_request": bytes([0]) + rec(arp_request(), 0),
    "arp_reply": bytes([0]) + rec(eth(struct.pack(">HHBBH", 1, 0x0800, 6, 4, 2) + PEER_MAC + PEER_IP + OUR_MAC
                                      + OUR_IP), 0),
    "icmp_echo": bytes([0]) + rec(eth(ip(1, icmp_echo(1, 1, pattern(56))))) +
                 rec(eth(ip(1, icmp_echo(1, 2, pattern(1472))))),
    "udp_echo": bytes([0]) + rec(eth(ip(17, udp(5555, 7, pattern(512))))) + b"\xc5\x20",
    "ip_options_frag": bytes([0]) + rec(eth(ip(1, icmp_echo(2, 1, pattern(8)), options=b"\x01\x01\x01\x00"))) +
                       rec(eth(ip(17, udp(5555, 7, pattern(8)), frag=0x2000))),
    # passive open from nothing: SYN, then the ACK (relative offsets 0)
    "tcp_passive_open": bytes([ECHO]) + rec(eth(ip(6, tcp(40000, 80, 1000, 0, SYN, options=MSS)))) +
                        seg(ACK) + seg(PSH | ACK, b"hello") + tick(10) + seg(ACK),
    # established (prelude), echo, the peer ACKs the echoes, then closes
    "tcp_echo_close": bytes([EST | ECHO | CLOSE_ON_FIN]) + seg(PSH | ACK, pattern(100)) + seg(ACK) +
                      seg(PSH | ACK, pattern(1460, 2)) + seg(ACK) + seg(FIN | ACK) + seg(ACK),
    # the board sends its pattern, the peer acknowledges; then we close
    "tcp_send_ack": bytes([EST]) + b"\xc3\x00" + seg(ACK) + seg(ACK) + seg(ACK) + b"\xc1\x00" + seg(ACK) +
                    seg(FIN | ACK) + tick(1000),
    # active open: SYN-ACK from the peer's port 5000
    "tcp_active_open": bytes([ACTIVE | ECHO]) +
                       seg(SYN | ACK, seq=7000, options=MSS, tag=REL | PORTS) +
                       seg(PSH | ACK, b"abc", tag=REL | PORTS) + seg(ACK, tag=REL | PORTS) +
                       seg(FIN | ACK, tag=REL | PORTS) + tick(100) + seg(ACK, tag=REL | PORTS),
    # retransmissions up to the abort
    "tcp_timeout": bytes([EST]) + b"\xc3\x00" + tick(200000),
    "tcp_rst": bytes([EST | ECHO]) + seg(PSH | ACK, b"x" * 10) + seg(RST | ACK),
    "tcp_out_of_order": bytes([EST | ECHO | SMALL_WND]) + seg(PSH | ACK, pattern(200), seq=100) +
                        seg(PSH | ACK, pattern(400)) + seg(ACK) + seg(PSH | ACK, pattern(50), seq=-10),
    "tcp_zero_window": bytes([EST]) + b"\xc3\x00" + seg(ACK, wnd=0) + tick(2000) + seg(ACK, wnd=4000) +
                       tick(600),
    # a send window smaller than a segment (the peer's window, not cwnd,
    # limits what is sent), a partial ACK, a timeout, the window opening
    "tcp_small_send_window": bytes([EST]) + seg(ACK, wnd=300) + seg(ACK, wnd=300) +
                             seg(ACK, ack=-100, wnd=300) + tick(1500) + seg(ACK, wnd=2000) +
                             seg(ACK, wnd=2000) + tick(600),
    "tcp_close_with_data": bytes([EST]) + b"\xc1\x00" + seg(FIN | ACK, ack=-1) + seg(ACK) + tick(70000),
    "tcp_syn_to_closed_port": bytes([0]) + rec(eth(ip(6, tcp(40001, 81, 5, 0, SYN)))) +
                              rec(eth(ip(6, tcp(40001, 80, 5, 0, SYN, options=b"\x02\x04\x02\x00\x01\x00")))),
    # we close first: FIN-WAIT-1/2 (data still accepted), the peer's FIN, TIME-WAIT expiry
    "tcp_fin_wait": bytes([EST | ECHO]) + b"\xc1\x00" + seg(ACK) + seg(PSH | ACK, b"late") +
                    seg(FIN | ACK) + tick(61000),
    # simultaneous open: our SYN crosses the peer's SYN
    "tcp_simultaneous_open": bytes([ACTIVE]) + seg(SYN, seq=9000, ack=0, options=MSS, tag=REL | PORTS) +
                             seg(ACK, tag=REL | PORTS) + seg(ACK, tag=REL | PORTS),
    # eleven SYNs from different ports: the table fills up (10 connections)
    "tcp_table_full": bytes([0]) + b"".join(rec(eth(ip(6, tcp(41000 + k, 80, 100 * k, 0, SYN, options=MSS))))
                                            for k in range(11)) + seg(ACK, sport=41000, tag=REL),
}


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(os.path.abspath(__file__)), "corpus")
    os.makedirs(out, exist_ok=True)
    for name, data in SEEDS.items():
        with open(os.path.join(out, name + ".bin"), "wb") as f:
            f.write(data)
    print(f"{len(SEEDS)} seeds written to {out}")


if __name__ == "__main__":
    main()
