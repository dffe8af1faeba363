# CMake toolchain file: bare-metal SPARC V8 (LEON3) firmware with Debian's
# gcc-sparc64-linux-gnu used in 32-bit mode. Freestanding: no libc, no libgcc
# (the 32-bit libgcc of that toolchain is built for V8+, so we provide our own
# runtime helpers in firmware/lib).
set(CMAKE_SYSTEM_NAME Generic)
set(CMAKE_SYSTEM_PROCESSOR sparc)
set(CMAKE_C_COMPILER sparc64-linux-gnu-gcc)
set(CMAKE_ASM_COMPILER sparc64-linux-gnu-gcc)
set(CMAKE_OBJCOPY sparc64-linux-gnu-objcopy CACHE FILEPATH "")
set(CMAKE_OBJDUMP sparc64-linux-gnu-objdump CACHE FILEPATH "")
set(CMAKE_TRY_COMPILE_TARGET_TYPE STATIC_LIBRARY)

set(LEON3_ARCH_FLAGS "-m32 -mcpu=leon3 -mno-fpu -ffreestanding -fno-builtin -fno-pic -fno-stack-protector -fno-asynchronous-unwind-tables")
set(CMAKE_C_FLAGS_INIT "${LEON3_ARCH_FLAGS} -std=c99")
set(CMAKE_ASM_FLAGS_INIT "${LEON3_ARCH_FLAGS}")
set(CMAKE_EXE_LINKER_FLAGS_INIT "-m32 -nostdlib -nostartfiles -static -Wl,--build-id=none -Wl,-m,elf32_sparc")

set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
