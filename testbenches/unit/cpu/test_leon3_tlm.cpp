// The SystemC wrapper of the core (Leon3): latency of a target that calls
// wait() inside b_transport, the halt probe, the step probe in a simulation.
//
// The memory answers a load from kAnn after 100 ns by annotating the delay
// (delay += 100 ns, the usual loosely-timed target) and one from kWait after
// 100 ns by synchronising and waiting (as an RTL model behind an adapter
// would). Both must cost the CPU the same cycles: latency is the difference
// of absolute times (stamp + offset), never of the offsets alone.
// (One CPU per simulation: Leon3::sync() lets every process due at its
// time run first, which two free-running CPUs would do to each other forever.)
#include <tlm_utils/simple_target_socket.h>

#include <cstring>
#include <memory>
#include <vector>

#include "endian.h"
#include "leon3_tlm.h"
#include "sparc_enc.h"
#include "tb_util.h"

using namespace l3vp;
using sc_core::SC_NS;
using sc_core::sc_time;

namespace {

constexpr uint32_t kAnn = 0x10000, kWait = 0x14000;
const sc_time kSlowLatency(100, SC_NS);

class Mem : public sc_core::sc_module {
 public:
  tlm_utils::simple_target_socket<Mem> tsock;
  std::vector<uint8_t> ram = std::vector<uint8_t>(0x20000, 0);
  unsigned waits = 0;

  explicit Mem(sc_core::sc_module_name n) : sc_core::sc_module(n), tsock("tsock") {
    tsock.register_b_transport(this, &Mem::b_transport);
  }
  void w32(uint32_t a, uint32_t v) { put_be32(&ram[a], v); }

 private:
  void b_transport(tlm::tlm_generic_payload& gp, sc_time& delay) {
    const uint64_t a = gp.get_address();
    const unsigned n = gp.get_data_length();
    if (a + n > ram.size()) {
      gp.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
      return;
    }
    if (gp.is_write())
      std::memcpy(&ram[a], gp.get_data_ptr(), n);
    else
      std::memcpy(gp.get_data_ptr(), &ram[a], n);
    if (a == kAnn) delay += kSlowLatency;
    if (a == kWait) {
      ++waits;
      sc_core::wait(delay + kSlowLatency);  // catch up, then take the latency
      delay = sc_core::SC_ZERO_TIME;
    }
    gp.set_response_status(tlm::TLM_OK_RESPONSE);
  }
};

std::unique_ptr<Leon3> cpu;
std::unique_ptr<Mem> mem;
std::vector<Leon3::HaltEvent> halts;
std::vector<leon3::StepRecord> steps;

void build() {
  Leon3Params p;
  p.dmi = false;  // every access is a b_transport
  p.quantum = sc_time(1, sc_core::SC_US);
  cpu = std::make_unique<Leon3>("cpu", p);
  mem = std::make_unique<Mem>("mem");
  cpu->isock.bind(mem->tsock);
  using namespace enc;
  // 0: sethi g1 = kAnn; ld [g1], g2; sethi g4 = kWait; ld [g4], g3; add g2, g3, o0; ta 0
  const std::vector<uint32_t> prog = {enc_sethi(G1, kAnn), enc_ld(G2, G1, 0),    enc_sethi(G4, kWait),
                                      enc_ld(G3, G4, 0),   alu(ADD, O0, G2, G3), enc_ta(0)};
  for (size_t i = 0; i < prog.size(); ++i) mem->w32(uint32_t(4 * i), prog[i]);
  mem->w32(kAnn, 35);
  mem->w32(kWait, 7);
  cpu->on_halt.listen([](const Leon3::HaltEvent& e) { halts.push_back(e); });
  cpu->core().probes().step.listen([](const leon3::StepRecord& s) { steps.push_back(s); });
}

// Runs the program once (ctest runs each test in its own process).
void run_once() {
  if (cpu->stop() == Leon3::Stop::None) sc_core::sc_start(sc_time(1, sc_core::SC_MS));
}

}  // namespace

TEST(Leon3Tlm, TargetThatWaitsChargesTheSameLatencyAsOneThatAnnotates) {
  run_once();
  ASSERT_EQ(cpu->stop(), Leon3::Stop::ErrorMode);
  EXPECT_EQ(mem->waits, 1u);
  ASSERT_EQ(steps.size(), 6u);
  // Functional mode: a load is 1 cycle + 4 cycles of latency (100 ns at 25 ns).
  EXPECT_EQ(steps[1].pc, 4u);
  EXPECT_EQ(steps[1].cycles, 5u) << "annotating target";
  EXPECT_EQ(steps[3].pc, 12u);
  EXPECT_EQ(steps[3].cycles, 5u) << "target that waits";
  EXPECT_EQ(cpu->core().reg(enc::O0), 42u);
  uint64_t sum = 0;
  for (const auto& s : steps) sum += s.cycles;
  EXPECT_EQ(sum, cpu->cycles());
}

TEST(Leon3Tlm, HaltProbeCarriesTrapPcExitCodeAndTime) {
  run_once();
  ASSERT_EQ(halts.size(), 1u);
  const Leon3::HaltEvent& h = halts[0];
  EXPECT_EQ(h.tt, 0x80u);
  EXPECT_EQ(h.pc, 20u);
  EXPECT_EQ(h.o0, 42u);  // 35 + 7
  EXPECT_EQ(h.t, cpu->cpu_time());
  EXPECT_EQ(cpu->time_of(cpu->cycles()), cpu->cpu_time());
}

L3VP_SC_GTEST_MAIN(build)
