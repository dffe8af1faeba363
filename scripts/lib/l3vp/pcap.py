"""The records of a pcap file as leon3vp writes it (--pcap: little-endian,
nanosecond time stamps; models/net/pcap_writer.h).

    for t_ns, orig_len, data in l3vp.pcap.records("run.pcap"): ...

The format is fixed-size headers (a 24-byte file header, a 16-byte header
per record), read with struct; anything else (another magic, a
microsecond pcap, a truncated record) is a ValueError naming the file.
"""
import struct

NS_MAGIC = 0xA1B23C4D  # little-endian, nanosecond resolution
_FILE = struct.Struct("<IHHiIII")
_REC = struct.Struct("<IIII")


def records(path):
    """[(t_ns, orig_len, data)] in file order."""
    with open(path, "rb") as f:
        data = f.read()
    if len(data) < _FILE.size:
        raise ValueError(f"{path}: {len(data)} bytes, shorter than a pcap file header")
    magic = _FILE.unpack_from(data, 0)[0]
    if magic != NS_MAGIC:
        raise ValueError(f"{path}: pcap magic 0x{magic:08x}, not a little-endian nanosecond pcap")
    out, off = [], _FILE.size
    while off < len(data):
        if off + _REC.size > len(data):
            raise ValueError(f"{path}: truncated record header at offset {off}")
        sec, frac, incl, orig = _REC.unpack_from(data, off)
        off += _REC.size
        if off + incl > len(data):
            raise ValueError(f"{path}: truncated record data at offset {off}")
        out.append((sec * 10**9 + frac, orig, data[off:off + incl]))
        off += incl
    return out
