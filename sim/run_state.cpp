#include "run_state.h"

#include <cstdio>
#include <filesystem>

#include "output_file.h"

namespace l3vp::sim {

void CreatedOutputs::note(const std::string& path) {
  std::error_code ec;
  if (!path.empty() && path != "-" && !std::filesystem::exists(std::filesystem::symlink_status(path, ec)))
    paths_.push_back(path);
}

CreatedOutputs::~CreatedOutputs() {
  for (const std::string& p : paths_) std::remove(p.c_str());
}

void RunState::check_output(const char* option, const std::string& path, const std::string& why) {
  if (!why.empty()) output_errors.push_back(output_failure(option, path, why));
}

}  // namespace l3vp::sim
