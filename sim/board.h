// The board of a run (models/platform): its inputs checked before anything
// is built (firmware parameters, UART input, the firmware ELF), then the
// platform built with the firmware loaded, and its boot (docs/user-guide.md
// "Boot modes").
#pragma once
#include "run_state.h"

namespace l3vp::sim {

class FarEnd;

// The firmware parameters: the far end's (a scenario's board.params), then
// --fw-param in order.
void collect_fw_params(RunState& run);
// The UART input file and the firmware ELF, before anything is built.
void check_board_inputs(RunState& run);
// Builds the platform (run.plat), loads the firmware and writes its
// parameters; decides the boot mode (run.opt.boot).
void build_board(RunState& run);
// Puts the CPU in the state of the boot mode.
void boot_board(RunState& run);

}  // namespace l3vp::sim
