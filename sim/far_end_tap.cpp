// --tap NAME: the far end is TAP device NAME in network namespace NAME
// (scripts/netns-tap up NAME), paced in real time (not deterministic).
#include "far_end.h"
#include "messages.h"
#include "tap.h"

namespace l3vp::sim {

namespace {

class TapFarEnd : public FarEnd {
 public:
  CLI::Option* add_options(CLI::App& app) override {
    return app.add_option("--tap", name_,
                          "Network: the far end of the link is TAP device NAME in network namespace NAME "
                          "(scripts/netns-tap up NAME; real-time pacing; not deterministic)");
  }
  bool selected() const override { return !name_.empty(); }

  void check_available(RunState& run) override {
    (void)run;
    if (!selected()) return;
    const std::string why = TapEndpoint::unavailable_reason();
    if (!why.empty()) bad_input("--tap: " + why);
  }

  void attach(RunState& run) override {
    try {
      TapParams tp;
      tp.ifname = name_;
      tp.netns = name_;
      tp.realtime = true;
      tap_ = std::make_unique<TapEndpoint>("tap", tp);
    } catch (const std::exception& e) {
      bad_input("--tap: " + std::string(e.what()));
    }
    run.plat->link.attach(1, tap_.get());
    tap_->connect(&run.plat->link.port(1));
    run.stats.tap = tap_.get();
  }
  void release_board() override { tap_.reset(); }

  const char* kind() const override { return "tap"; }

 private:
  std::string name_;
  std::unique_ptr<TapEndpoint> tap_;
};

}  // namespace

std::unique_ptr<FarEnd> make_tap_far_end() { return std::make_unique<TapFarEnd>(); }

}  // namespace l3vp::sim
