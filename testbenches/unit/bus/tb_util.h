// Test-bench helpers shared by the bus/mem/platform GoogleTests:
//  * TestInitiator: an AHB master stand-in whose methods call b_transport /
//    get_direct_mem_ptr directly from test code and record DMI invalidations;
//  * L3VP_SC_GTEST_MAIN(build): main() that silences the SystemC banner,
//    builds the bench (all modules: SystemC elaborates once per process),
//    elaborates with sc_start(SC_ZERO_TIME) and runs the tests.
#pragma once
#include <gtest/gtest.h>
#include <tlm_utils/simple_initiator_socket.h>

#include <cstdint>
#include <cstdlib>
#include <systemc>
#include <tlm>
#include <utility>
#include <vector>

#include "endian.h"

namespace l3vp::test {

class TestInitiator : public sc_core::sc_module {
 public:
  tlm_utils::simple_initiator_socket<TestInitiator> isock;
  std::vector<std::pair<uint64_t, uint64_t>> invalidations;
  sc_core::sc_time last_delay;

  explicit TestInitiator(sc_core::sc_module_name n) : sc_core::sc_module(n), isock("isock") {
    isock.register_invalidate_direct_mem_ptr(this, &TestInitiator::inval);
  }

  tlm::tlm_response_status access(tlm::tlm_command cmd, uint64_t addr, uint8_t* data, unsigned len,
                                  bool* dmi_allowed = nullptr) {
    tlm::tlm_generic_payload gp;
    gp.set_command(cmd);
    gp.set_address(addr);
    gp.set_data_ptr(data);
    gp.set_data_length(len);
    gp.set_streaming_width(len);
    gp.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
    sc_core::sc_time d = sc_core::SC_ZERO_TIME;
    isock->b_transport(gp, d);
    last_delay = d;
    if (dmi_allowed) *dmi_allowed = gp.is_dmi_allowed();
    EXPECT_EQ(gp.get_address(), addr) << "interconnect must restore the address";
    return gp.get_response_status();
  }
  // b_transport with a given initial annotated delay (the initiator's local
  // time offset); returns the delay after the call.
  sc_core::sc_time access_at(tlm::tlm_command cmd, uint64_t addr, uint8_t* data, unsigned len,
                             const sc_core::sc_time& start, tlm::tlm_response_status* st = nullptr) {
    tlm::tlm_generic_payload gp;
    gp.set_command(cmd);
    gp.set_address(addr);
    gp.set_data_ptr(data);
    gp.set_data_length(len);
    gp.set_streaming_width(len);
    gp.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
    sc_core::sc_time d = start;
    isock->b_transport(gp, d);
    if (st) *st = gp.get_response_status();
    return d;
  }
  // A word read/written with an initial annotated delay (access_at).
  uint32_t rd32_at(uint64_t addr, const sc_core::sc_time& start) {
    uint8_t b[4] = {};
    access_at(tlm::TLM_READ_COMMAND, addr, b, 4, start);
    return be32(b);
  }
  void wr32_at(uint64_t addr, uint32_t v, const sc_core::sc_time& start) {
    uint8_t b[4];
    put_be32(b, v);
    access_at(tlm::TLM_WRITE_COMMAND, addr, b, 4, start);
  }
  tlm::tlm_response_status read32(uint64_t addr, uint32_t& v) {
    uint8_t b[4] = {};
    auto st = access(tlm::TLM_READ_COMMAND, addr, b, 4);
    v = be32(b);
    return st;
  }
  uint32_t rd32(uint64_t addr) {
    uint32_t v = 0xDEADBEEF;
    EXPECT_EQ(read32(addr, v), tlm::TLM_OK_RESPONSE) << std::hex << addr;
    return v;
  }
  tlm::tlm_response_status write32(uint64_t addr, uint32_t v) {
    uint8_t b[4];
    put_be32(b, v);
    return access(tlm::TLM_WRITE_COMMAND, addr, b, 4);
  }
  bool dmi(uint64_t addr, bool write, tlm::tlm_dmi& d) {
    tlm::tlm_generic_payload gp;
    gp.set_command(write ? tlm::TLM_WRITE_COMMAND : tlm::TLM_READ_COMMAND);
    gp.set_address(addr);
    return isock->get_direct_mem_ptr(gp, d);
  }
  unsigned debug_read(uint64_t addr, uint8_t* data, unsigned len) {
    tlm::tlm_generic_payload gp;
    gp.set_command(tlm::TLM_READ_COMMAND);
    gp.set_address(addr);
    gp.set_data_ptr(data);
    gp.set_data_length(len);
    gp.set_streaming_width(len);
    return isock->transport_dbg(gp);
  }

 private:
  void inval(sc_dt::uint64 s, sc_dt::uint64 e) { invalidations.emplace_back(s, e); }
};

// One 32-bit word through an initiator socket (e.g. the CPU's AHB master
// port as the firmware would use it, or a test's APB port of a device), at
// zero annotated delay; returns the word in the buffer afterwards (a read's
// value; a write's value written). With `st` the response is returned there,
// else it must be OK.
template <class Socket>
uint32_t socket_word32(Socket& s, tlm::tlm_command cmd, uint64_t addr, uint32_t v,
                       tlm::tlm_response_status* st = nullptr) {
  uint8_t b[4];
  put_be32(b, v);
  tlm::tlm_generic_payload gp;
  gp.set_command(cmd);
  gp.set_address(addr);
  gp.set_data_ptr(b);
  gp.set_data_length(4);
  gp.set_streaming_width(4);
  gp.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
  sc_core::sc_time d = sc_core::SC_ZERO_TIME;
  s->b_transport(gp, d);
  if (st)
    *st = gp.get_response_status();
  else
    EXPECT_TRUE(gp.is_response_ok()) << std::hex << addr;
  return be32(b);
}

template <class Socket>
uint32_t socket_read32(Socket& s, uint64_t addr, tlm::tlm_response_status* st = nullptr) {
  return socket_word32(s, tlm::TLM_READ_COMMAND, addr, 0, st);
}

}  // namespace l3vp::test

#define L3VP_SC_GTEST_MAIN(build_fn)                     \
  int sc_main(int argc, char** argv) {                   \
    testing::InitGoogleTest(&argc, argv);                \
    build_fn();                                          \
    sc_core::sc_start(sc_core::SC_ZERO_TIME);            \
    return RUN_ALL_TESTS();                              \
  }                                                      \
  int main(int argc, char** argv) {                      \
    setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 1); \
    return sc_core::sc_elab_and_sim(argc, argv);         \
  }
