"""Firmware build variants, built on demand with CMake and Ninja.

A variant is a set of the firmware project's CMake cache options
(firmware/CMakeLists.txt, firmware/net/CMakeLists.txt: NET_CHECKSUM,
NET_ZERO_COPY, NET_PHASES, FW_CLOCK_HZ, ...). Each variant gets its own
build directory, <fw-root>/<slug>, configured once and brought up to date
with `cmake --build` before every experiment (a no-op when nothing
changed), so a source change is always picked up; the program's ELF is
then hashed as leon3vp hashes it (FNV-1a-64 of the file, --stats
version.firmware_hash) and the hash goes into the run ids.

Two other sources of firmware: a prebuilt ELF (`firmware: {elf: PATH}`,
checked here to be a 32-bit big-endian SPARC executable) and an
out-of-tree CMake project (`firmware: {cmake: DIR, program: NAME}`),
configured with the same toolchain file into its own variant directories.
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


def check_elf(path):
    """Raise ValueError (one line naming the file) unless `path` is a
    readable 32-bit big-endian SPARC executable: what leon3vp loads. The
    check is pyelftools' header parse (l3vp.elf), not a parser of ours."""
    from ..elf import Elf

    if os.path.isdir(path):
        raise ValueError(f"{path}: is a directory, not an ELF file")
    try:
        with Elf(path) as e:
            machine, kind, be32 = e.elf["e_machine"], e.elf["e_type"], e.is_be32
    except OSError as err:
        raise ValueError(f"{path}: {err.strerror or err}") from None
    except Exception as err:  # pyelftools raises several kinds for a truncated file
        raise ValueError(str(err) if str(err).startswith(path) else f"{path}: not an ELF file ({err})") from None
    if machine != "EM_SPARC" or not be32:
        raise ValueError(f"{path}: an ELF for {machine}, not 32-bit big-endian SPARC (LEON3)")
    if kind != "ET_EXEC":
        raise ValueError(f"{path}: an ELF of type {kind}, not an executable (link it statically with "
                         "-fno-pic -no-pie and a linker script)")


def cmake_files(src):
    """The CMakeLists.txt files of the project in `src`, top first."""
    return [os.path.join(src, "CMakeLists.txt")] + sorted(
        glob.glob(os.path.join(src, "**", "CMakeLists.txt"), recursive=True))


def known_options(src=FW_SRC):
    """{option: None | [allowed values]} of a firmware project's CMake
    files (ours by default, or an out-of-tree project's `src`):
    option(NAME ...) is a boolean, set(NAME ... CACHE ...) a value, with
    its STRINGS property as the allowed values when there is one. Read
    from the CMake files so a new option needs no change here."""
    out = {}
    for path in dict.fromkeys(cmake_files(src)):
        if not os.path.exists(path):
            continue
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


def check_options(build, where="firmware.build", src=FW_SRC):
    """Raise ValueError naming the first unknown option or value (options
    of the project in `src`)."""
    known = known_options(src)
    for k, v in build.items():
        if k not in known:
            what = "a firmware CMake option" if src == FW_SRC else f"a CMake option of {src}"
            raise ValueError(f"{where}.{k}: not {what} (known: {', '.join(sorted(known)) or 'none'})")
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


def project_root(fw_root, src):
    """Where an out-of-tree project's variants are built: its own folder
    under fw_root (named by the source folder and a hash of its path), so
    its variants never share a build directory with ours."""
    src = os.path.abspath(src)
    digest = hashlib.sha256(src.encode()).hexdigest()[:8]
    name = re.sub(r"[^A-Za-z0-9_.-]+", "_", os.path.basename(src.rstrip("/")) or "project")[:40]
    return os.path.join(fw_root, f"ext-{name}-{digest}")


def cmake_stamp(src):
    """A hash of the project's CMake files: what an option's default or a
    new option depends on."""
    h = hashlib.sha256()
    for path in dict.fromkeys(cmake_files(src)):
        if os.path.exists(path):
            h.update(path.encode() + b"\0")
            with open(path, "rb") as f:
                h.update(f.read())
    return h.hexdigest()


def forget_stale_cache(d, src):
    """A variant's CMake cache holds every option's value from the day it was
    configured: an option left out of `build` keeps an old default. When the
    project's CMake files changed since, the cache is dropped (the build
    directory's objects stay, so the rebuild is short) and the variant is
    configured afresh."""
    stamp_path = os.path.join(d, ".l3vp-cmake-stamp")
    stamp = cmake_stamp(src)
    try:
        with open(stamp_path) as f:
            old = f.read().strip()
    except FileNotFoundError:
        old = None
    if old != stamp:
        cache = os.path.join(d, "CMakeCache.txt")
        if os.path.exists(cache):
            os.remove(cache)
        with open(stamp_path, "w") as f:
            f.write(stamp + "\n")


def cached_options(d):
    """{option: value} of the CMake cache in build directory d ({} without one)."""
    out = {}
    try:
        with open(os.path.join(d, "CMakeCache.txt")) as f:
            for line in f:
                m = re.match(r"([A-Za-z_][A-Za-z0-9_]*)(?::[A-Z]+)?=(.*)$", line.rstrip("\n"))
                if m:
                    out[m.group(1)] = m.group(2)
    except FileNotFoundError:
        pass
    return out


def forget_other_options(d, build):
    """A build directory configured with other values of `build`'s options
    (a directory named by the caller, not by the options) is configured
    afresh: its cache is dropped."""
    cached = cached_options(d)
    if cached and any(cached.get(k) != v for k, v in normalise(build).items()):
        os.remove(os.path.join(d, "CMakeCache.txt"))


def build_in(d, build, programs, log=None, src=FW_SRC, what=None):
    """Configure build directory `d` (when it has no valid cache) with the
    CMake options `build` ({option: value}) of the project in `src` (ours by
    default) and the SPARC toolchain, then build `programs` (target names);
    return their ELF paths in the same order. A cache made before the
    project's CMake files changed (.l3vp-cmake-stamp) or with other values
    of these options is dropped first. BuildError (one line) on failure; the
    log is d/build.log."""
    what = what or f"firmware variant {variant_name(build)}"
    os.makedirs(d, exist_ok=True)
    logpath = os.path.join(d, "build.log")
    cache = os.path.join(d, "CMakeCache.txt")
    with open(logpath, "a") as lf:
        def sh(cmd):
            lf.write("$ " + " ".join(cmd) + "\n")
            lf.flush()
            return subprocess.run(cmd, stdout=lf, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL).returncode

        forget_stale_cache(d, src)
        forget_other_options(d, build)
        if not os.path.exists(cache):
            if log:
                log(f"configuring {what} in {d}")
            cmd = ["cmake", "-S", src, "-B", d, "-G", "Ninja", f"-DCMAKE_TOOLCHAIN_FILE={TOOLCHAIN}",
                   "-DCMAKE_BUILD_TYPE=Release"]
            cmd += [f"-D{k}={v}" for k, v in normalise(build).items()]
            if sh(cmd) != 0:
                if os.path.exists(cache):
                    os.remove(cache)
                raise BuildError(f"{what}: cmake failed (log: {logpath})")
        if sh(["cmake", "--build", d, "--target", *programs]) != 0:
            raise BuildError(f"{what}: building {' '.join(programs)} failed (log: {logpath})")
    return [program_elf(d, program, what) for program in programs]


def program_elf(d, program, what):
    # our projects name every executable <target>.elf; a foreign project
    # may leave the suffix off
    for elf in (os.path.join(d, program + ".elf"), os.path.join(d, program)):
        if os.path.isfile(elf):
            return elf
    raise BuildError(f"{what}: {os.path.join(d, program + '.elf')} missing after the build")


def build_program(fw_root, build, program, log=None, src=FW_SRC):
    """Configure (first time) and build `program` of variant `build` of the
    project in `src` (ours by default) in the variant's own directory under
    fw_root (variant_dir); return the ELF's path (<build dir>/<program>.elf).
    BuildError on failure (the log is in the build directory: build.log)."""
    what = f"firmware variant {variant_name(build)}"
    if src != FW_SRC:
        fw_root = project_root(fw_root, src)
        what = f"firmware project {src}, variant {variant_name(build)}"
    return build_in(variant_dir(fw_root, build), build, [program], log=log, src=src, what=what)[0]
