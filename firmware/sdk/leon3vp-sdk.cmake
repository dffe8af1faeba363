# leon3vp-sdk.cmake - the firmware runtime and SDK as CMake functions, for
# this repository's firmware (firmware/CMakeLists.txt) and for programs
# outside it (leon3vp-sdk-config.cmake; docs/porting.md). Needs the SPARC
# toolchain file scripts/cmake/sparc-leon3.cmake and the languages C, ASM.
#
#   leon3vp_add_program(<name> <sources>... [LAYOUT_DIR <dir>])
#
# builds <name>.elf: the sources, the BSP (crt0's trap table, start-up,
# exit), the tiny libc, the AMBA plug&play, APBUART, IRQMP and GPTIMER
# drivers and the SDK (fw_params, result lines, tick), linked with
# bsp/leon3.ld and --gc-sections. LAYOUT_DIR: a folder with the program's
# own fw-layout.ld (hot-code order after the trap table; default none).
get_filename_component(LEON3VP_FW_DIR "${CMAKE_CURRENT_LIST_DIR}/.." ABSOLUTE)

set(LEON3VP_SDK_INCLUDE_DIRS
  ${LEON3VP_FW_DIR}/bsp
  ${LEON3VP_FW_DIR}/lib
  ${LEON3VP_FW_DIR}/drivers
  ${LEON3VP_FW_DIR}/sdk)
set(LEON3VP_SDK_SOURCES
  ${LEON3VP_FW_DIR}/bsp/crt0.S
  ${LEON3VP_FW_DIR}/bsp/bsp.c
  ${LEON3VP_FW_DIR}/lib/string.c
  ${LEON3VP_FW_DIR}/lib/printf.c
  ${LEON3VP_FW_DIR}/lib/runtime64.c
  ${LEON3VP_FW_DIR}/drivers/amba_pnp.c
  ${LEON3VP_FW_DIR}/drivers/apbuart.c
  ${LEON3VP_FW_DIR}/drivers/irqmp.c
  ${LEON3VP_FW_DIR}/drivers/gptimer.c
  ${LEON3VP_FW_DIR}/drivers/greth_report.c
  ${LEON3VP_FW_DIR}/sdk/fw_params.c
  ${LEON3VP_FW_DIR}/sdk/result.c
  ${LEON3VP_FW_DIR}/sdk/tick.c)
set(LEON3VP_LDSCRIPT ${LEON3VP_FW_DIR}/bsp/leon3.ld)
if(NOT DEFINED LEON3VP_CLOCK_HZ)
  set(LEON3VP_CLOCK_HZ 40000000)
endif()

# The runtime as objects, so crt0's trap table is always linked;
# --gc-sections drops what a program does not use.
if(NOT TARGET leon3vp_runtime)
  add_library(leon3vp_runtime OBJECT ${LEON3VP_SDK_SOURCES})
  target_include_directories(leon3vp_runtime PUBLIC ${LEON3VP_SDK_INCLUDE_DIRS})
  target_compile_options(leon3vp_runtime PRIVATE -ffunction-sections -fdata-sections)
  target_compile_definitions(leon3vp_runtime PUBLIC BSP_CLOCK_HZ=${LEON3VP_CLOCK_HZ}u)
endif()

function(leon3vp_add_program name)
  cmake_parse_arguments(P "" "LAYOUT_DIR" "" ${ARGN})
  add_executable(${name} ${P_UNPARSED_ARGUMENTS} $<TARGET_OBJECTS:leon3vp_runtime>)
  target_include_directories(${name} PRIVATE ${LEON3VP_SDK_INCLUDE_DIRS})
  target_compile_definitions(${name} PRIVATE BSP_CLOCK_HZ=${LEON3VP_CLOCK_HZ}u)
  target_compile_options(${name} PRIVATE -ffunction-sections -fdata-sections)
  set(layout_dirs ${LEON3VP_FW_DIR}/bsp)
  if(P_LAYOUT_DIR)
    set(layout_dirs ${P_LAYOUT_DIR} ${layout_dirs})
  endif()
  set(link_opts -T${LEON3VP_LDSCRIPT} -Wl,--gc-sections)
  foreach(d ${layout_dirs})
    list(APPEND link_opts -L${d})
    foreach(f fw-layout.ld fw-data-layout.ld)
      if(EXISTS ${d}/${f})
        set_property(TARGET ${name} APPEND PROPERTY LINK_DEPENDS ${d}/${f})
      endif()
    endforeach()
  endforeach()
  set_target_properties(${name} PROPERTIES SUFFIX ".elf")
  set_property(TARGET ${name} APPEND PROPERTY LINK_DEPENDS ${LEON3VP_LDSCRIPT})
  target_link_options(${name} PRIVATE ${link_opts})
endfunction()
