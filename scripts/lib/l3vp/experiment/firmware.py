"""Firmware build variants, built on demand with CMake and Ninja.

A variant is a set of the firmware project's CMake cache options
(firmware/CMakeLists.txt, firmware/net/CMakeLists.txt: NET_CHECKSUM,
NET_ZERO_COPY, NET_PHASES, FW_CLOCK_HZ, ...). Each variant gets its own
build directory, <fw-root>/<slug>, configured once and brought up to date
with `cmake --build` before every experiment (a no-op when nothing
changed), so a source change is always picked up; the program's ELF is
then hashed as leon3vp hashes it (FNV-1a-64 of the file, --stats
version.firmware_hash) and the hash goes into the run ids.
"""
import glob
import hashlib
import os
import re
import subprocess

ROOT = os.path.abspath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", ".."))
FW_SRC = os.path.join(ROOT, "firmware")
TOOLCHAIN = os.path.join(ROOT, "scripts", "cmake", "sparc-leon3.cmake")


class BuildError(Exception):
    """A variant could not be configured or built (one line)."""


def fnv1a64(data):
    """FNV-1a-64 of bytes as 16 hex digits (models/common: l3vp::fnv1a64)."""
    h = 0xcbf29ce484222325
    for b in data:
        h = ((h ^ b) * 0x100000001b3) & 0xFFFFFFFFFFFFFFFF
    return f"{h:016x}"


def file_fnv1a64(path):
    with open(path, "rb") as f:
        return fnv1a64(f.read())


def known_options():
    """{option: None | [allowed values]} of the firmware project's CMake
    files: option(NAME ...) is a boolean, set(NAME ... CACHE ...) a value,
    with its STRINGS property as the allowed values when there is one.
    Read from the CMake files so a new option needs no change here."""
    out = {}
    for path in [os.path.join(FW_SRC, "CMakeLists.txt")] + sorted(
            glob.glob(os.path.join(FW_SRC, "**", "CMakeLists.txt"), recursive=True)):
        with open(path) as f:
            text = f.read()
        for m in re.finditer(r"^\s*option\(\s*(\w+)", text, re.M):
            out[m.group(1)] = ["ON", "OFF"]
        for m in re.finditer(r"^\s*set\(\s*(\w+)\s+[^)\n]*\bCACHE\b", text, re.M):
            out.setdefault(m.group(1), None)
        for m in re.finditer(r"set_property\(\s*CACHE\s+(\w+)\s+PROPERTY\s+STRINGS\s+([^)]*)\)", text):
            out[m.group(1)] = m.group(2).split()
    out.pop("CMAKE_BUILD_TYPE", None)
    return out


def cmake_value(v):
    """A YAML value as a CMake cache value (true/false -> ON/OFF)."""
    if isinstance(v, bool):
        return "ON" if v else "OFF"
    return str(v)


def check_options(build, where="firmware.build"):
    """Raise ValueError naming the first unknown option or value."""
    known = known_options()
    for k, v in build.items():
        if k not in known:
            raise ValueError(f"{where}.{k}: not a firmware CMake option (known: {', '.join(sorted(known))})")
        allowed = known[k]
        val = cmake_value(v)
        if allowed is not None:
            if allowed == ["ON", "OFF"]:
                val = val.upper()
                if val in ("TRUE", "1", "YES"):
                    val = "ON"
                elif val in ("FALSE", "0", "NO"):
                    val = "OFF"
            if val not in allowed:
                raise ValueError(f"{where}.{k}: '{v}' is not one of {', '.join(allowed)}")


def normalise(build):
    """Canonical {option: CMake value}: booleans as ON/OFF, sorted keys."""
    out = {}
    for k in sorted(build):
        v = cmake_value(build[k])
        if v.upper() in ("ON", "OFF", "TRUE", "FALSE", "YES", "NO"):
            v = "ON" if v.upper() in ("ON", "TRUE", "YES") else "OFF"
        out[k] = v
    return out


def variant_name(build):
    """'default' or 'NET_CHECKSUM=word32,NET_PHASES=OFF' (the table's variant column)."""
    b = normalise(build)
    return ",".join(f"{k}={v}" for k, v in b.items()) or "default"


def variant_dir(fw_root, build):
    b = normalise(build)
    if not b:
        return os.path.join(fw_root, "default")
    slug = re.sub(r"[^A-Za-z0-9_.=-]+", "_", "-".join(f"{k}={v}" for k, v in b.items()))[:60]
    digest = hashlib.sha256(repr(sorted(b.items())).encode()).hexdigest()[:8]
    return os.path.join(fw_root, f"{slug}-{digest}")


def build_program(fw_root, build, program, log=None):
    """Configure (first time) and build `program` of variant `build` under
    fw_root; return the ELF's path. BuildError on failure (the log is in
    the build directory: build.log)."""
    d = variant_dir(fw_root, build)
    os.makedirs(d, exist_ok=True)
    logpath = os.path.join(d, "build.log")
    target = program
    with open(logpath, "a") as lf:
        def sh(cmd):
            lf.write("$ " + " ".join(cmd) + "\n")
            lf.flush()
            p = subprocess.run(cmd, stdout=lf, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
            return p.returncode

        if not os.path.exists(os.path.join(d, "CMakeCache.txt")):
            if log:
                log(f"configuring firmware variant {variant_name(build)} in {d}")
            cmd = ["cmake", "-S", FW_SRC, "-B", d, "-G", "Ninja", f"-DCMAKE_TOOLCHAIN_FILE={TOOLCHAIN}",
                   "-DCMAKE_BUILD_TYPE=Release"]
            cmd += [f"-D{k}={v}" for k, v in normalise(build).items()]
            if sh(cmd) != 0:
                os.remove(os.path.join(d, "CMakeCache.txt")) if os.path.exists(
                    os.path.join(d, "CMakeCache.txt")) else None
                raise BuildError(f"firmware variant {variant_name(build)}: cmake failed (log: {logpath})")
        if sh(["cmake", "--build", d, "--target", target]) != 0:
            raise BuildError(f"firmware variant {variant_name(build)}: building {program} failed (log: {logpath})")
    elf = os.path.join(d, program + ".elf")
    if not os.path.exists(elf):
        raise BuildError(f"firmware variant {variant_name(build)}: {elf} missing after the build")
    return elf
