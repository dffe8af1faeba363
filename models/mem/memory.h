// Generic RAM/ROM target: a flat big-endian byte array behind a TLM-2.0
// target socket, with DMI and a back door for the ELF loader.
//
// Addresses are local (offset from the start of the region; the interconnect
// subtracts the bar base). Any access length is accepted as long as the whole
// access lies inside the array (1/2/4/8-byte CPU accesses and line-fill bursts
// alike); byte enables are honoured on writes and reads. Out-of-range accesses
// get TLM_ADDRESS_ERROR_RESPONSE, writes to a ROM TLM_COMMAND_ERROR_RESPONSE.
#pragma once
#include <tlm_utils/simple_target_socket.h>

#include <cstdint>
#include <memory>
#include <string>
#include <systemc>
#include <tlm>

#include "write_gen.h"

namespace l3vp {

class Memory : public sc_core::sc_module {
 public:
  enum class Kind { Ram, Rom };

  tlm_utils::simple_target_socket<Memory> tsock;

  Memory(sc_core::sc_module_name name, uint64_t size, Kind kind = Kind::Ram);
  ~Memory() override;

  uint64_t size() const { return size_; }
  uint8_t* data() { return data_.get(); }
  const uint8_t* data() const { return data_.get(); }

  // Per-access cost added to the annotated delay (and advertised in the DMI
  // grant). Default: zero (the LT platform has no memory timing yet).
  void set_latency(const sc_core::sc_time& read, const sc_core::sc_time& write);
  // DMI can be switched off per memory (the grant is then refused).
  void set_dmi_enabled(bool on) { dmi_enabled_ = on; }

  // Back door (ELF loader, tests): copies bytes in target order. Works on ROMs.
  // Throws std::out_of_range when [offset, offset+len) is outside the array.
  void load(uint64_t offset, const uint8_t* bytes, uint64_t len);
  void fill(uint64_t offset, uint8_t value, uint64_t len);

  // Revokes every DMI pointer handed out for this memory.
  void invalidate_dmi();

  // Write generations of the array's 4 KiB pages (common/write_gen.h): bumped
  // by bus, debug and back-door writes, handed out with a DMI grant that asks.
  const WriteGen& write_gen() const { return wgen_; }

  // Access counters (b_transport only; DMI accesses are invisible here).
  uint64_t reads() const { return reads_; }
  uint64_t writes() const { return writes_; }

 private:
  void b_transport(tlm::tlm_generic_payload& gp, sc_core::sc_time& delay);
  bool get_direct_mem_ptr(tlm::tlm_generic_payload& gp, tlm::tlm_dmi& dmi);
  unsigned transport_dbg(tlm::tlm_generic_payload& gp);
  // Shared by b_transport and transport_dbg; returns the response status.
  tlm::tlm_response_status copy(tlm::tlm_generic_payload& gp, bool debug);

  struct FreeDeleter {
    void operator()(uint8_t* p) const;
  };
  uint64_t size_;
  Kind kind_;
  std::unique_ptr<uint8_t[], FreeDeleter> data_;
  sc_core::sc_time read_latency_ = sc_core::SC_ZERO_TIME;
  sc_core::sc_time write_latency_ = sc_core::SC_ZERO_TIME;
  bool dmi_enabled_ = true;
  WriteGen wgen_;
  uint64_t reads_ = 0, writes_ = 0;
};

}  // namespace l3vp
