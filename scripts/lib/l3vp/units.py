"""Durations and MAC addresses, with the rules of leon3vp's C++ side
(models/common/units.h; the user-facing copy is docs/user-guide.md
"Durations and addresses").

Durations (parse_duration_ps):

  * <number><unit> or <number> <unit> (any spaces between number and unit);
    unit ps, ns, us, ms or s (lower case);
  * the number is decimal: digits with an optional fraction ("2.5",
    "10.", ".5") and an optional exponent ("1e3", "2.5E-3");
  * a bare "0" without a unit (scenario files allow it);
  * a Python int (not a string) is taken as picoseconds, the unit of every
    *_ps field leon3vp writes.

The value is computed exactly (no float rounding) and must be a whole
number of picoseconds no larger than 2**62 ps (about 53 days). Rejected: a
sign, hexadecimal, inf/nan, upper-case or other units, leading or trailing
spaces, a bare number other than "0".

MAC addresses (parse_mac) are six groups of exactly two hex digits (either
case) separated by ':'.
"""
import re
from fractions import Fraction

_UNITS_PS = {"ps": 1, "ns": 10**3, "us": 10**6, "ms": 10**9, "s": 10**12}
_MAX_PS = 1 << 62
_DURATION = re.compile(r"(?P<num>(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?)(?: *(?P<unit>ps|ns|us|ms|s))?")
_MAC = re.compile(r"[0-9a-fA-F]{2}(?::[0-9a-fA-F]{2}){5}")


def parse_duration_ps(value):
    """Duration -> whole picoseconds (int). Raises ValueError naming the value."""
    if isinstance(value, bool):
        raise ValueError(f"duration {value!r} is not a time")
    if isinstance(value, int):
        if not 0 <= value <= _MAX_PS:
            raise ValueError(f"duration {value} ps out of range 0..2**62")
        return value
    if not isinstance(value, str):
        raise ValueError(f"duration {value!r} is not a string such as \"40us\"")
    m = _DURATION.fullmatch(value)
    if not m:
        raise ValueError(f"duration '{value}' is not <number><unit> with unit ps, ns, us, ms or s")
    num = Fraction(m.group("num"))
    unit = m.group("unit")
    if unit is None:
        if m.group("num") != "0":
            raise ValueError(f"duration '{value}' has no unit (ps, ns, us, ms or s)")
        return 0
    ps = num * _UNITS_PS[unit]
    if ps.denominator != 1:
        raise ValueError(f"duration '{value}' is not a whole number of picoseconds")
    if ps > _MAX_PS:
        raise ValueError(f"duration '{value}' too large")
    return int(ps)


def duration_seconds(value):
    """Duration -> seconds (float)."""
    return parse_duration_ps(value) / 1e12


def parse_mac(text):
    """'aa:bb:cc:dd:ee:ff' -> 6 bytes. Raises ValueError naming the text."""
    if not isinstance(text, str) or not _MAC.fullmatch(text):
        raise ValueError(f"MAC address {text!r} is not aa:bb:cc:dd:ee:ff")
    return bytes(int(x, 16) for x in text.split(":"))


def format_mac(mac):
    """6 bytes -> 'aa:bb:cc:dd:ee:ff' (lower case, two digits per byte)."""
    if len(mac) != 6:
        raise ValueError(f"MAC address needs 6 bytes, got {len(mac)}")
    return ":".join(f"{b:02x}" for b in mac)
