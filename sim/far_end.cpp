#include "far_end.h"

namespace l3vp::sim {

// Each defined in its own file.
std::unique_ptr<FarEnd> make_scenario_host();  // --scenario: the simulated PC (far_end_scenario.cpp)
std::unique_ptr<FarEnd> make_tap_far_end();    // --tap: a Linux TAP device (far_end_tap.cpp)

std::vector<std::unique_ptr<FarEnd>> make_far_ends() {
  std::vector<std::unique_ptr<FarEnd>> v;
  for (auto* make : {&make_scenario_host, &make_tap_far_end}) v.push_back(make());
  return v;
}

}  // namespace l3vp::sim
