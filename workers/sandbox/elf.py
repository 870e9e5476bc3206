"""The one check a native bot gets at upload: a static Linux x86-64 ELF executable.

A ``binary`` bundle runs as it is inside the jail, which holds the system folders but
promises no particular C library, and its file may be built on another machine; so it
must be a 64-bit little-endian x86-64 executable with no program interpreter (no dynamic
loader), i.e. statically linked. Only the headers are read (pure, no execution).
"""

from __future__ import annotations

import struct

ELF_MAGIC = b"\x7fELF"
ELFCLASS64, ELFDATA2LSB = 2, 1
OSABI_OK = (0, 3)  # System V, GNU/Linux
ET_EXEC, ET_DYN = 2, 3  # ET_DYN with no interpreter: a static position-independent executable
EM_X86_64 = 62
PT_INTERP = 3
HEADER_BYTES = 64


class ElfError(ValueError):
    """Why a file is not a static Linux x86-64 executable (one sentence)."""


def check_static_x86_64(data: bytes) -> None:
    """Raise ``ElfError`` unless ``data`` starts a static Linux x86-64 ELF executable."""
    if len(data) < HEADER_BYTES or data[:4] != ELF_MAGIC:
        raise ElfError("it is not an ELF executable (no ELF header)")
    if data[4] != ELFCLASS64 or data[5] != ELFDATA2LSB:
        raise ElfError("it is not a 64-bit little-endian ELF file")
    if data[7] not in OSABI_OK:
        raise ElfError(f"its ELF OS/ABI is {data[7]}, not Linux")
    e_type, e_machine = struct.unpack_from("<HH", data, 16)
    if e_machine != EM_X86_64:
        raise ElfError(f"it is built for machine {e_machine}, not x86-64 (62)")
    if e_type not in (ET_EXEC, ET_DYN):
        raise ElfError("it is an ELF file but not an executable")
    (e_phoff,) = struct.unpack_from("<Q", data, 32)
    e_phentsize, e_phnum = struct.unpack_from("<HH", data, 54)
    if e_phnum == 0 or e_phentsize < 56:
        raise ElfError("it has no program headers")
    end = e_phoff + e_phnum * e_phentsize
    if end > len(data):
        raise ElfError("its program headers are cut short")
    for i in range(e_phnum):
        (p_type,) = struct.unpack_from("<I", data, e_phoff + i * e_phentsize)
        if p_type == PT_INTERP:
            raise ElfError("it is dynamically linked; link it statically (e.g. gcc -static)")
