// Shared bench for the GRETH tests: one elaboration per process (SystemC),
// so every test resets the MAC and recorders and uses times relative to its
// own start. Two benches are built: bench() with the default GRETH (GRLIB
// 10/100) and gbit_bench() with csum_offload = 1; they run side by side and
// share nothing.
//
//   APB initiator (test code) --> Greth.tsock
//   Greth.isock --> AhbCtrl --> RAM 0x40000000 (1 MiB), ROM 0x00000000 (1 MiB)
//   Greth <--> EthLink "link" (100 Mbit, no impairments) <--> Host (end 1)
//   Greth <--  EthLink "bad" (every host->MAC frame corrupted) <-- end 1
//
// No CPU: test code drives the APB socket between sc_start() calls and
// reads/writes memory through the Memory back door. The AHB delay hook adds
// a configurable cost per access and records every DMA access with its time.
#pragma once
#include <gtest/gtest.h>
#include <tlm_utils/simple_initiator_socket.h>

#include <string>
#include <systemc>
#include <tlm>
#include <vector>

#include "ahb_ctrl.h"
#include "eth_link.h"
#include "greth.h"
#include "memory.h"
#include "tb_util.h"

namespace l3vp::test {

using sc_core::SC_NS;
using sc_core::sc_time;
using sc_core::SC_US;

inline const sc_time kClk(25, SC_NS);
constexpr uint32_t kRam = 0x40000000, kRom = 0x00000000, kHole = 0x20000000;

struct IrqRec : IrqLineSink {
  std::vector<std::pair<unsigned, sc_time>> pulses;
  void irq_pulse(unsigned line) override { pulses.emplace_back(line, sc_core::sc_time_stamp()); }
};

// The PC at the other end of the link.
struct Host : EthPort {
  struct Rx {
    EthFrame f;
    sc_time start, end;
  };
  std::vector<Rx> rx;
  sc_time last_start;
  void frame_start(const EthFrame&) override { last_start = sc_core::sc_time_stamp(); }
  void frame_in(const EthFrame& f) override { rx.push_back({f, last_start, sc_core::sc_time_stamp()}); }
};

struct Access {
  sc_time t;
  bool write;
  uint32_t addr;
  unsigned len;
};

inline EthLinkParams bad_link_params() {
  EthLinkParams p;
  p.imp[1].corrupt = 1.0;
  p.imp[1].seed = 3;
  return p;
}

class Bench : public sc_core::sc_module {
 public:
  using Sock = tlm_utils::simple_initiator_socket<Bench>;
  Greth mac;
  AhbCtrl ahb;
  Memory ram, rom;
  EthLink link, bad;
  Sock apb;
  IrqRec irq;
  Host host, bad_host;
  std::vector<Access> dma;  // every DMA access routed by the AHB controller
  sc_time per_access = sc_core::SC_ZERO_TIME, per_word = sc_core::SC_ZERO_TIME;

  explicit Bench(sc_core::sc_module_name n, const GrethParams& gp = GrethParams())
      : sc_module(n),
        mac("mac", gp),
        ahb("ahb"),
        ram("ram", 1 << 20),
        rom("rom", 1 << 20, Memory::Kind::Rom),
        link("link"),
        bad("bad", bad_link_params()),
        apb("apb") {
    apb.bind(mac.tsock);
    mac.connect_irq(&irq);
    ahb.bind_master(mac.isock, 4, mac.ahb_pnp(), "greth");
    AhbPnp pr, pm;
    pr.bar[0] = pnp_bar(0x400, 0xFFF, true, true, BAR_AHBMEM);
    pm.bar[0] = pnp_bar(0x000, 0xFFF, true, true, BAR_AHBMEM);
    ahb.bind_slave(ram.tsock, 0, pr, "ram");
    ahb.bind_slave(rom.tsock, 1, pm, "rom");
    ahb.set_delay_fn([this](unsigned, unsigned, const tlm::tlm_generic_payload& gp) {
      dma.push_back({sc_core::sc_time_stamp(), gp.is_write(), static_cast<uint32_t>(gp.get_address()),
                     gp.get_data_length()});
      return per_access + sc_time::from_value(per_word.value() * ((gp.get_data_length() + 3) / 4));
    });
    mac.connect_link(&link.port(0));
    link.attach(0, &mac);
    link.attach(1, &host);
    bad.attach(0, &mac);
    bad.attach(1, &bad_host);
    Log::enable(LogCat::GuestError, false);
    Log::enable(LogCat::Unimp, false);
  }

  uint32_t access(bool write, uint32_t off, uint32_t v) {
    return test::socket_word32(apb, write ? tlm::TLM_WRITE_COMMAND : tlm::TLM_READ_COMMAND, off, v);
  }
  uint32_t rd(uint32_t off) { return access(false, off, 0); }
  void wr(uint32_t off, uint32_t v) { access(true, off, v); }

  // Memory back door (test side only; the model goes through the bus).
  uint8_t* ptr(uint32_t a) { return a >= kRam ? ram.data() + (a - kRam) : rom.data() + a; }
  uint32_t m32(uint32_t a) { return be32(ptr(a)); }
  void s32(uint32_t a, uint32_t v) { put_be32(ptr(a), v); }
  void desc(uint32_t a, uint32_t w0, uint32_t buf) {
    s32(a, w0);
    s32(a + 4, buf);
  }
};

struct Benches {
  Bench* plain;  // GrethParams defaults
  Bench* gbit;   // csum_offload = 1
};
inline const Benches& benches() {
  static const Benches b = [] {
    GrethParams gp;
    gp.csum_offload = 1;
    Benches x{new Bench("bench"), new Bench("gbit", gp)};
    sc_core::sc_start(sc_core::SC_ZERO_TIME);
    return x;
  }();
  return b;
}
inline Bench& bench() { return *benches().plain; }
inline Bench& gbit_bench() { return *benches().gbit; }

inline void run(const sc_time& dt) { sc_core::sc_start(dt); }
inline void run_us(uint64_t us) { run(sc_time(double(us), SC_US)); }

}  // namespace l3vp::test
