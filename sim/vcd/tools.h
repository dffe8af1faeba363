// External tools of the waveform output (GTKWave's vcd2fst).
#pragma once
#include <string>
#include <vector>

namespace l3vp::vcd {

// The full path of `name` found on PATH, or "".
std::string find_program(const std::string& name);
// Runs argv[0] (searched on PATH) with argv, its standard output and error
// discarded, and waits: "" on exit status 0, else the reason.
std::string run_program(const std::vector<std::string>& argv);

}  // namespace l3vp::vcd
