// Region marker: a simulator-only APB target that turns firmware stores into
// "begin/end of measured region <id>" events (docs/timing.md, "Regions").
//
// It sits in an APB slot that is empty on the GR-XC3S-1500 template (slot 12,
// 0x80000C00) and is invisible in the APB plug&play table, so on the board
// the same stores go to an empty slot: the bridge drops them and they cost
// exactly one uncached APB store, as they do here.
//
//   +0x0  write: BEGIN region <value>     read: 0
//   +0x4  write: END region <value>       read: 0
//   other offsets: reads 0, writes ignored
//
// Each marker store is published on the `on_mark` probe (RegionMark). The
// listeners run inside the CPU's store (b_transport), so they can read the
// core's counters at the exact instruction boundary of the marker store
// (the platform's region accounting does); the event's time is the store's
// exact simulated time (time stamp + annotated delay).
#pragma once
#include <tlm_utils/simple_target_socket.h>

#include <cstdint>
#include <systemc>
#include <tlm>

#include "endian.h"
#include "probe.h"
#include "probe_registry.h"

namespace l3vp {

// One marker store (REGION_BEGIN or REGION_END of firmware/bsp/region.h).
struct RegionMark {
  uint32_t id = 0;     // region id (the stored value)
  bool begin = false;  // BEGIN (+0x0) or END (+0x4)
  sc_core::sc_time t;  // exact simulated time of the store
};
// Text line of leon3vp --probe (probe_text.h).
inline void probe_text(ProbeText& o, const RegionMark& e) {
  o.at(e.t);
  o.num("id", e.id).flag("begin", e.begin);
}

class RegionMarker : public sc_core::sc_module {
 public:
  static constexpr unsigned kPindex = 12;  // APB slot (empty on the template)
  static constexpr uint32_t kBeginOffset = 0x0, kEndOffset = 0x4;

  tlm_utils::simple_target_socket<RegionMarker> tsock;
  Probe<RegionMark> on_mark;

  explicit RegionMarker(sc_core::sc_module_name n) : sc_core::sc_module(n), tsock("tsock") {
    tsock.register_b_transport(this, &RegionMarker::b_transport);
    tsock.register_transport_dbg(this, &RegionMarker::transport_dbg);
  }

  uint64_t marks() const { return marks_; }
  // <prefix>.mark (probe_registry.h).
  void register_probes(ProbeRegistry& r, const std::string& prefix) {
    r.add(prefix, "mark", on_mark, "id begin");
  }

 private:
  void b_transport(tlm::tlm_generic_payload& gp, sc_core::sc_time& delay) {
    const uint64_t a = gp.get_address();
    uint8_t* d = gp.get_data_ptr();
    const unsigned len = gp.get_data_length();
    if (gp.is_read()) {
      for (unsigned i = 0; i < len; ++i) d[i] = 0;
    } else if (gp.is_write() && len == 4 && (a == kBeginOffset || a == kEndOffset)) {
      const uint32_t id = be32(d);
      ++marks_;
      if (on_mark.has_listeners())
        on_mark.notify(RegionMark{id, a == kBeginOffset, sc_core::sc_time_stamp() + delay});
    }
    gp.set_response_status(tlm::TLM_OK_RESPONSE);
  }
  unsigned transport_dbg(tlm::tlm_generic_payload& gp) {
    if (gp.is_read())
      for (unsigned i = 0; i < gp.get_data_length(); ++i) gp.get_data_ptr()[i] = 0;
    return gp.get_data_length();
  }

  uint64_t marks_ = 0;
};

}  // namespace l3vp
