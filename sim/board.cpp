#include "board.h"

#include <cstdio>

#include "elf_loader.h"
#include "energy_profile.h"
#include "far_end.h"
#include "input_file.h"
#include "messages.h"

namespace l3vp::sim {

namespace {

// A position-independent firmware (PIE: ET_DYN, a dynamic section, a
// program interpreter) runs, but nothing applies its relocations: pointers
// loaded from its GOT stay unrelocated (wrong strings, blank numbers).
void warn_position_independent(const ElfImage& img, const std::string& path) {
  if (!img.position_independent) return;
  std::fprintf(stderr,
               "leon3vp: warning: %s is position-independent (%s); its relocations are not applied, "
               "so addresses may be wrong: build with -fno-pic and link with -no-pie -static\n",
               path.c_str(), img.pie_reason.c_str());
}

}  // namespace

void collect_fw_params(RunState& run) {
  try {
    if (run.far_end) run.far_end->add_fw_params(run.fw_params);
    for (const std::string& kv : run.opt.fw_params) run.fw_params.set_arg(kv);
  } catch (const FwParamError& e) {
    bad_input(e.what());
  }
}

void check_board_inputs(RunState& run) {
  const PlatformConfig& cfg = run.cfg;
  // UART input from a file is read whole at the start (stdin, "-", is read
  // on demand): it must be a regular file (docs/user-guide.md "Input limits
  // and errors").
  const std::string& uart_in = cfg.get<std::string>("uart.in");
  if (!uart_in.empty() && uart_in != "-") {
    try {
      check_input_file(uart_in, kMaxUartInBytes, "UART input");
    } catch (const InputFileError& e) {
      bad_input(std::string(run.opt.uart_in_set ? "--uart-in: " : "config: uart.in: ") + e.what());
    }
  }
  // Validate the firmware before building anything.
  try {
    warn_position_independent(read_elf(run.opt.firmware), run.opt.firmware);
  } catch (const ElfError& e) {
    bad_input(e.what());
  }
}

void build_board(RunState& run) {
  const Options& o = run.opt;
  run.created.note(run.cfg.get<std::string>("uart.out"));  // the platform opens it
  try {
    run.plat = std::make_unique<Leon3mp>("leon3mp", run.cfg);
    run.plat->load_elf(o.firmware);
    if (!run.fw_params.empty()) write_fw_params(run.plat->image(), run.plat->load_regions(), run.fw_params);
  } catch (const FwParamError& e) {
    bad_input(o.firmware + ": " + e.what());
  } catch (const ConfigError& e) {
    bad_input(std::string("config: ") + e.what());
  } catch (const energy::ProfileError& e) {
    bad_input((!o.energy.empty() ? "--energy: " : "config: energy.profile: ") + std::string(e.what()));
  } catch (const ElfError& e) {
    bad_input(e.what());
  }
  if (run.opt.boot.empty()) run.opt.boot = run.plat->in_ram(run.plat->image().entry) ? "loader" : "entry";
}

void boot_board(RunState& run) {
  Leon3mp& plat = *run.plat;
  if (run.opt.boot == "reset")
    plat.boot_reset();
  else if (run.opt.boot == "loader")
    plat.boot_loader(plat.image().entry);
  else
    plat.boot_at(plat.image().entry);
}

}  // namespace l3vp::sim
