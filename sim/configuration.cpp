#include "configuration.h"

#include <cstdio>

#include "board_slots.h"
#include "gptimer_rtl.h"  // rtl/adapters: l3vp::rtl_slot_key()
#include "messages.h"
#include "units.h"

namespace l3vp::sim {

namespace {

PlatformConfig base_configuration(const std::string& config) {
  try {
    if (config.empty()) return PlatformConfig::preset("gr-xc3s-1500");
    if (PlatformConfig::is_preset(config)) return PlatformConfig::preset(config);
    return PlatformConfig::from_file(config);
  } catch (const ConfigError& e) {
    bad_input(std::string("config: ") + e.what());
  }
}

// --rtl BLOCK[,BLOCK...] (repeatable): the RTL variants in the blocks' slots.
// Empty names (",,", "gptimer,") are refused, not skipped.
void apply_rtl(const std::vector<std::string>& args, PlatformConfig& cfg) {
  for (const std::string& arg : args) {
    std::vector<std::string> blocks(1);
    for (char c : arg) {
      if (c == ',')
        blocks.emplace_back();
      else
        blocks.back() += c;
    }
    for (const std::string& b : blocks) {
      if (b.empty()) bad_input("--rtl: empty block name in '" + arg + "' (known: " + rtl_block_names() + ")");
      const std::string key = rtl_slot_key(b);
      if (key.empty()) bad_input("--rtl: unknown block '" + b + "' (known: " + rtl_block_names() + ")");
      cfg.set(key, "rtl");
      const SlotRow* slot = board_slots::find(b);  // an optional device: on the board, as RTL
      if (slot && !slot->enabled_by.empty()) cfg.set(slot->enabled_by, "true");
    }
  }
}

void apply_quantum(const std::string& quantum, PlatformConfig& cfg) {
  if (quantum.empty()) return;
  try {
    const uint64_t ps = parse_duration_ps(quantum);
    if (ps % 1000) bad_input("--quantum: '" + quantum + "' is not a time in whole ns (e.g. 100us, 250ns)");
    cfg.set("quantum_ns", std::to_string(ps / 1000));
  } catch (const UnitsError& e) {
    bad_input("--quantum: " + std::string(e.what()));
  } catch (const ConfigError& e) {
    bad_input("--quantum: " + std::string(e.what()));
  }
}

}  // namespace

void load_configuration(RunState& run) {
  const Options& o = run.opt;
  PlatformConfig& cfg = run.cfg;
  cfg = base_configuration(o.config);
  // --set in order, then the dedicated options (they win over both).
  for (const std::string& kv : o.sets) {
    try {
      cfg.set_arg(kv);
    } catch (const ConfigError& e) {
      bad_input(std::string("--set: ") + e.what());
    }
  }
  apply_rtl(o.rtl, cfg);
  if (o.uart_out_set) cfg.set("uart.out", o.uart_out);
  if (o.uart_in_set) cfg.set("uart.in", o.uart_in);
  if (!o.energy.empty()) cfg.set("energy.profile", o.energy);
  if (o.no_dmi) cfg.dmi = false;
  if (!o.mode.empty()) cfg.set("mode", o.mode);  // CLI::IsMember checked the name
}

void finish_configuration(RunState& run) {
  apply_quantum(run.opt.quantum, run.cfg);
  try {
    run.cfg.validate();
  } catch (const ConfigError& e) {
    bad_input(std::string("config: ") + e.what());
  }
  if (run.opt.print_config) {
    std::fputs((run.cfg.to_json().dump(2) + "\n").c_str(), stdout);
    done_early(0);
  }
}

}  // namespace l3vp::sim
