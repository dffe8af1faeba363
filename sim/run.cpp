#include "run.h"

#include "board.h"
#include "configuration.h"
#include "gptimer_rtl.h"  // rtl/adapters: register_rtl_variants()
#include "messages.h"
#include "run_loop.h"

namespace l3vp::sim {

Run::Run() : far_ends_(make_far_ends()), outputs_(make_outputs()) {}

// What is attached to the board goes before the board (the debugger, the
// outputs' listeners, the far end); the files after it (the CPU may still
// point at the trace file), CreatedOutputs last.
Run::~Run() {
  gdb_.reset();
  for (auto it = outputs_.rbegin(); it != outputs_.rend(); ++it) (*it)->release_board();
  for (auto& f : far_ends_) f->release_board();
  state_.plat.reset();
}

int Run::execute(int argc, char** argv) {
  try {
    parse_options(argc, argv);
    configure();
    prepare();
    build();
    run_simulation(state_, [this] {
      if (state_.far_end) state_.far_end->start();
    });
    return finish();
  } catch (const Exit& e) {
    return e.message.empty() ? e.code : fail(e.code, e.message);
  }
}

// The run's options first, then the far ends' (which exclude each other),
// --stats, the outputs', and the run's last ones (--rtl, --gdb, -q).
void Run::parse_options(int argc, char** argv) {
  setup_systemc_reports();
  register_rtl_variants();  // the "rtl" variants of the slots (gptimer.model=rtl)
  command_line_.add_run_options(state_.opt);
  std::vector<CLI::Option*> selectors;
  for (auto& f : far_ends_) {
    CLI::Option* opt = f->add_options(command_line_.app());
    for (CLI::Option* other : selectors) other->excludes(opt);
    selectors.push_back(opt);
  }
  report_.add_options(command_line_.app());
  for (auto& o : outputs_) o->add_options(command_line_);
  command_line_.add_late_options(state_.opt);
  command_line_.parse(argc, argv, state_.opt);
}

// Configuration: preset or file, then command-line overrides; the outputs
// check their options against it before it is validated.
void Run::configure() {
  load_configuration(state_);
  each_output(&Output::check);
  finish_configuration(state_);
}

// The far end, then every input checked and every output file created
// before the board is built.
void Run::prepare() {
  each_far_end(&FarEnd::configure);
  for (auto& f : far_ends_)
    if (!state_.far_end && f->selected()) state_.far_end = f.get();
  each_output(&Output::check_far_end);
  each_far_end(&FarEnd::check_available);
  collect_fw_params(state_);
  set_time_limit(state_);
  check_board_inputs(state_);
  each_output(&Output::open);
  each_far_end(&FarEnd::open);
  report_.open(state_);
}

// The board, the far end on its link (end 1), the outputs, the boot, the
// debugger.
void Run::build() {
  build_board(state_);
  if (state_.far_end) state_.far_end->attach(state_);
  each_output(&Output::attach);
  report_.attach(state_);
  boot_board(state_);
  each_output(&Output::start);
  gdb_ = attach_debugger(state_);
}

// Output files: every one is flushed and checked; a failed write (full
// disk, /dev/full) is one error line each at the end and exit 2, after the
// other outputs were still written.
int Run::finish() {
  each_output(&Output::finish);
  if (state_.far_end) state_.far_end->finish(state_);
  report_.decide_exit(state_);
  const auto& h = state_.plat->halt();
  if (gdb_) gdb_->finish(h.halted, h.tt, state_.status);  // gdb sees the end ("W"/"X")
  report_.write_stats(state_);
  each_output(&Output::report);
  return report_.close(state_);
}

}  // namespace l3vp::sim
