// TapEndpoint: a link end backed by a Linux TAP device, so a real network
// stack (normally a kernel inside a network namespace, see
// scripts/netns-tap) talks to the simulated board.
//
// Frames the link delivers (frame_in) are written to the TAP device as they
// fully arrive (frames with crc_error are dropped, as a NIC would). Frames
// the kernel sends are read from a non-blocking descriptor by a SystemC
// method that polls every `poll_interval` of simulated time and hands them
// to the link (EthTx::send) at the poll's simulated time.
//
// Real-time pacing (`realtime`): at each poll, if simulated time has run
// ahead of the wall clock since the first poll, the process sleeps the
// difference, so the simulation never runs faster than real time (it may
// run slower; then it simply does not sleep). This is the only place where
// host wall time enters the simulation, and it makes runs non-deterministic.
//
// The poll method keeps the event queue alive for as long as it runs: stop
// the simulation with sc_stop()/a time limit, or call stop().
#pragma once
#include <chrono>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <systemc>

#include "eth_frame.h"

namespace l3vp {

struct TapError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

struct TapParams {
  std::string ifname;  // existing (persistent) TAP device, or created if allowed
  std::string netns;   // open the device inside this named namespace (/var/run/netns/NAME); "" = ours
  sc_core::sc_time poll_interval = sc_core::sc_time(10, sc_core::SC_US);
  bool realtime = true;
  unsigned max_frames_per_poll = 64;
};

struct TapStats {
  uint64_t from_tap = 0, to_tap = 0;  // frames
  uint64_t from_tap_bytes = 0, to_tap_bytes = 0;
  uint64_t dropped_crc = 0, write_errors = 0, oversize = 0;
  uint64_t polls = 0, sleeps = 0;
};

class StatsGroup;

class TapEndpoint : public sc_core::sc_module, public EthPort {
 public:
  SC_HAS_PROCESS(TapEndpoint);
  // Opens the device; throws TapError with the reason when that fails.
  TapEndpoint(sc_core::sc_module_name n, const TapParams& p);
  ~TapEndpoint() override;

  void connect(EthTx* tx) { tx_ = tx; }
  void frame_in(const EthFrame& f) override;
  void stop() { stopped_ = true; }

  const TapStats& stats() const { return st_; }
  // Registers the TapStats counters under `g` (net.tap), present only when
  // `tap` is not null: static, so the schema lists them without a device.
  static void register_stats(const StatsGroup& g, const TapEndpoint* tap);
  const TapParams& params() const { return p_; }

  // Why a TAP device cannot be used here ("" if it probably can): no
  // /dev/net/tun, or no CAP_NET_ADMIN.
  static std::string unavailable_reason();
  // Throws TapError for an unusable parameter set (done by the constructor).
  static void validate(const TapParams& p);

 private:
  void poll();
  int fd_ = -1;
  TapParams p_;
  EthTx* tx_ = nullptr;
  bool stopped_ = false, started_ = false;
  std::chrono::steady_clock::time_point wall0_;
  sc_core::sc_time sim0_;
  TapStats st_;
};

}  // namespace l3vp
