// The turnaround meter (turnaround.h) on every board: frame received to the
// next TX kick at the GRETH, under net.turnaround.
#include "board_listeners.h"
#include "leon3mp.h"
#include "turnaround.h"

namespace l3vp {

namespace {
struct TurnaroundListener : BoardListener {
  Turnaround meter;
  void register_stats(const StatsGroup& g) override { meter.register_stats(g); }
};
}  // namespace

L3VP_BOARD_LISTENER(turnaround) {
  ListenerRow r;
  r.name = "turnaround";
  r.stats = "net.turnaround";
  r.make = [](Leon3mp& board) {
    auto l = std::make_unique<TurnaroundListener>();
    l->meter.attach(board.greth);
    return l;
  };
  return r;
}

}  // namespace l3vp
