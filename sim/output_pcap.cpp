// --pcap FILE: every frame on the link, both directions; --pcap-at host
// records at the simulated PC's network card instead (needs --scenario).
#include "far_end.h"
#include "messages.h"
#include "output.h"
#include "pcap_writer.h"
#include "sim_host.h"

namespace l3vp::sim {

namespace {

class PcapOutput : public Output {
 public:
  void add_options(CommandLine& cl) override {
    CLI::App& app = cl.app();
    auto* pcap_opt = app.add_option(
        "--pcap", path_, "Network: record every frame on the link (both directions) to this pcap file");
    app.add_option(
           "--pcap-at", at_,
           "Network: where --pcap captures: board (the board's side of the wire, the default) or host "
           "(the simulated PC's network card, as a Wireshark on the PC sees it; needs --scenario)")
        ->check(CLI::IsMember({"board", "host"}))
        ->needs(pcap_opt);
  }
  void check_far_end(RunState& run) override {
    if (at_ == "host" && !(run.far_end && run.far_end->has_sim_host()))
      bad_input("--pcap-at host: needs --scenario (the simulated PC)");
  }
  void attach(RunState& run) override {
    if (path_.empty()) return;
    run.created.note(path_);
    try {
      pcap_ = std::make_unique<PcapWriter>(path_);
    } catch (const std::exception& e) {
      bad_input("--pcap: " + std::string(e.what()));
    }
    if (at_ == "host")  // the PC's stack boundary (models/net/README.md "Host latency model")
      run.far_end->sim_host()->on_stack.listen(
          [p = pcap_.get()](const host::HostFrameEvent& e) { p->write(e.frame, e.t); });
    else
      pcap_->attach(run.plat->link, PcapWriter::Point::kDeliver);
    run.stats.pcap = pcap_.get();
  }
  void finish(RunState& run) override {
    if (pcap_) run.check_output("--pcap", path_, pcap_->close());
  }
  void release_board() override { pcap_.reset(); }

 private:
  std::string path_;
  std::string at_ = "board";  // board (the wire at the GRETH) | host (the PC's card)
  std::unique_ptr<PcapWriter> pcap_;
};

}  // namespace

std::unique_ptr<Output> make_pcap_output() { return std::make_unique<PcapOutput>(); }

}  // namespace l3vp::sim
