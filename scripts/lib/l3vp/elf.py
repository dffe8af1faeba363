"""ELF files through pyelftools (Debian python3-pyelftools): symbols,
sections and the entry point, instead of hand-parsed headers.

Every function raises ValueError with the file name for a file that is not
an ELF, and OSError if it cannot be read.
"""
from elftools.common.exceptions import ELFError
from elftools.elf.elffile import ELFFile
from elftools.elf.sections import SymbolTableSection


class Elf:
    """An open ELF file (use as a context manager)."""

    def __init__(self, path):
        self.path = path
        self._f = open(path, "rb")
        try:
            self.elf = ELFFile(self._f)
        except ELFError:
            self._f.close()
            raise ValueError(f"{path}: not an ELF file") from None

    def close(self):
        self._f.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
        return False

    @property
    def entry(self):
        return self.elf.header["e_entry"]

    @property
    def is_be32(self):
        """32-bit big-endian (what the LEON3 firmware is)."""
        return self.elf.elfclass == 32 and not self.elf.little_endian

    def symbol(self, name):
        """(address, size) of symbol `name`, or None."""
        for sec in self.elf.iter_sections():
            if isinstance(sec, SymbolTableSection):
                for sym in sec.get_symbol_by_name(name) or ():
                    if sym["st_shndx"] != "SHN_UNDEF":
                        return sym["st_value"], sym["st_size"]
        return None

    def symbols(self):
        """{name: (address, size)} of every defined function and object symbol."""
        out = {}
        for sec in self.elf.iter_sections():
            if isinstance(sec, SymbolTableSection):
                for sym in sec.iter_symbols():
                    if sym.name and sym["st_info"]["type"] in ("STT_FUNC", "STT_OBJECT") \
                            and sym["st_shndx"] != "SHN_UNDEF":
                        out[sym.name] = (sym["st_value"], sym["st_size"])
        return out

    def section(self, name):
        """(address, file offset, size) of section `name`, or None."""
        sec = self.elf.get_section_by_name(name)
        if sec is None:
            return None
        return sec["sh_addr"], sec["sh_offset"], sec["sh_size"]

    def read_symbol(self, name):
        """The initial bytes of an object symbol from the file, or None
        (symbol missing, or in a section without file contents)."""
        s = self.symbol(name)
        if s is None:
            return None
        addr, size = s
        for seg in self.elf.iter_segments():
            if seg["p_type"] == "PT_LOAD" and seg["p_vaddr"] <= addr and addr + size <= seg["p_vaddr"] + seg["p_filesz"]:
                return seg.data()[addr - seg["p_vaddr"]:addr - seg["p_vaddr"] + size]
        return None


def entry(path):
    """Entry point of a 32-bit big-endian ELF (ValueError otherwise)."""
    with Elf(path) as e:
        if not e.is_be32:
            raise ValueError(f"{path}: not a 32-bit big-endian ELF")
        return e.entry


def symbol(path, name):
    """(address, size) of `name` in the ELF at `path`, or None."""
    with Elf(path) as e:
        return e.symbol(name)
