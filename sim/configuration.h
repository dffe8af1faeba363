// The platform configuration of a run (models/platform/README.md): the
// preset or -c file, then --set in order, then the dedicated options
// (--rtl, --uart-out, --uart-in, --energy, --no-dmi, --mode, --quantum),
// validated; --print-config prints the result.
#pragma once
#include "run_state.h"

namespace l3vp::sim {

// The preset or file, --set, --rtl and the dedicated options without
// checks of their own. The outputs check theirs after it (Output::check).
void load_configuration(RunState& run);
// --quantum, the validation, --print-config (done_early()).
void finish_configuration(RunState& run);

}  // namespace l3vp::sim
