# CMake package file of the leon3vp firmware SDK (docs/porting.md):
#
#   cmake_minimum_required(VERSION 3.20)
#   project(my_fw C ASM)
#   find_package(leon3vp-sdk REQUIRED)   # -Dleon3vp-sdk_DIR=<leon3vp>/firmware/sdk
#   leon3vp_add_program(my_fw main.c)    # -> my_fw.elf
#
# configured with -DCMAKE_TOOLCHAIN_FILE=<leon3vp>/scripts/cmake/sparc-leon3.cmake.
include("${CMAKE_CURRENT_LIST_DIR}/leon3vp-sdk.cmake")
set(leon3vp-sdk_FOUND TRUE)
