// The leon3vp version string of the --stats version block: `git describe
// --always --dirty` of the source tree when the executable was built, or the
// CMake project version when the sources are not a git checkout.
// Generated at build time (sim/git_version.cmake -> <build>/sim/version.cpp).
#pragma once

const char* leon3vp_version();
