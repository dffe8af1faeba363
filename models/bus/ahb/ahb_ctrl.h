// AHBCTRL: the AHB arbiter/decoder of a GRLIB system as a TLM-2.0
// interconnect.
//
// Masters (CPU, later GRETH DMA) bind to `tsock`, slaves to `isock`. Both are
// registered with their AMBA plug&play record, and the controller decodes
// addresses *from the slave bars* exactly as the hardware does (hw-reference
// §2.2), so what the firmware reads from the P&P area is what routes its
// accesses:
//   memory bar (type 2): (addr[31:20] & MASK) == (ADDR & MASK)
//   I/O bar    (type 3): addr[31:20] == ioaddr and (addr[19:8] & MASK) == (ADDR & MASK)
// A slave sees the offset of the access inside the matching bar. Each bar can
// be bound to its own target socket (MCTRL: PROM, I/O, RAM) or all bars of a
// slave to a single socket.
//
// The P&P configuration area (4 KiB at 0xFFFFF000 for ioaddr 0xFFF, cfgaddr
// 0xFF0) is served by the controller: master i at +32*i, slave i at
// +0x800+32*i, the system ID word at +0xFF0. It is read-only: writes are
// dropped (OKAY response) and logged as a guest error. An access that decodes
// to no slave (or runs past the end of its bar) gets
// TLM_ADDRESS_ERROR_RESPONSE, the AHB ERROR response of the default slave.
//
// DMI requests are forwarded with the address translated to the slave's
// local offset, and the granted range translated back to global addresses
// (clipped to the bar); invalidations coming back from a slave are translated
// to global ranges and broadcast to every master.
//
// Timing: zero by default. set_timing() enables the built-in AHB cost model
// (README "Timing"): a transfer cost per transaction plus a cost per further
// word of a burst, added to the annotated delay of every access (and the
// transfer cost to DMI grant latencies), and optionally a deterministic
// arbitration model: an access that starts while another master's access
// still occupies the bus waits until it ends. One extra hook, set_delay_fn(),
// is called for every routed access and its result added as well.
//
// Snooping: set_snoop_fn() is called after every successful write routed to
// a slave (master hindex, global address, length), so a platform can hand
// other masters' writes to a snooping cache.
//
// Observation: the `on_transaction` probe publishes every AHB transaction
// (routed ones and, through report_dmi(), the masters' DMI-served ones) with
// exact start/end times. The std::function slots above are model
// connections (they change delays or cache state), not observers; see
// README "Probes".
#pragma once
#include <tlm_utils/multi_passthrough_initiator_socket.h>
#include <tlm_utils/multi_passthrough_target_socket.h>

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <systemc>
#include <tlm>
#include <vector>

#include "pnp.h"
#include "probe.h"

namespace l3vp {

class ProbeRegistry;

// One AHB transaction (README "Probes"). Times are absolute simulated times.
struct AhbTransaction {
  enum class Kind : uint8_t { Read, Write, Fetch };  // Text line of leon3vp --probe (probe_text.h).
  class ProbeText;
  void probe_text(ProbeText& o, const AhbTransaction& e);
  // Fetch: only known for DMI-served ones
  sc_core::sc_time start;  // address phase begins (after any arbitration wait)
  sc_core::sc_time end;    // last data beat done (slave latency included)
  sc_core::sc_time wait;   // arbitration wait before start
  unsigned master = 0;     // AHB master index (hindex)
  int slave = -1;          // AHB slave index; -1: the P&P area or no slave (ERROR response)
  Kind kind = Kind::Read;
  uint32_t addr = 0;  // global address
  unsigned bytes = 0;
  unsigned beats = 1;  // 32-bit data beats (a burst: > 1)
  bool ok = true;      // OKAY response
  bool dmi = false;    // served from DMI by the master, reported through report_dmi()
};

// GRLIB ahbctrl generics used by the model.
struct AhbCtrlParams {
  uint32_t ioaddr = 0xFFF;   // AHB I/O area: 0xFFF00000 (1 MiB)
  uint32_t cfgaddr = 0xFF0;  // P&P area inside the I/O area
  uint32_t cfgmask = 0xFF0;  // -> 4 KiB at 0xFFFFF000
  uint32_t devid = 0;        // system device ID, 0xFFFFFFF0 bits 31:16
  uint32_t cfgver = 0;       // bits 15:14
  uint32_t build = 0;        // GRLIB build number, bits 13:0
};

class StatsGroup;

class AhbCtrl : public sc_core::sc_module {
 public:
  static constexpr unsigned kMaxMasters = 16;  // NAHBMST
  static constexpr unsigned kMaxSlaves = 16;   // NAHBSLV

  using Params = AhbCtrlParams;

  // One decoded AHB region (a slave bar).
  struct Region {
    uint32_t start = 0;   // first global address
    uint64_t size = 0;    // bytes
    unsigned port = 0;    // isock port serving it
    unsigned hindex = 0;  // AHB slave index
    unsigned bar = 0;     // BAR number 0..3
    bool io = false;      // I/O bar (type 3)
    bool prefetch = false, cacheable = false;
    uint64_t end() const { return uint64_t(start) + size - 1; }
  };

  struct MasterStats {
    std::string name;
    unsigned hindex = 0;
    uint64_t reads = 0, writes = 0, errors = 0, dmi_grants = 0;
    uint64_t bursts = 0;                            // accesses longer than one word
    sc_core::sc_time wait = sc_core::SC_ZERO_TIME;  // arbitration waits (contention)
    uint64_t waits = 0;                             // accesses that had to wait
    // Routed (not DMI-served) transactions by target, for the energy model:
    // 32-bit data beats per [slave hindex][bar][read 0 / write 1] and
    // transactions per slave; index kMaxSlaves: P&P area or no slave.
    uint64_t beats[kMaxSlaves + 1][4][2] = {};
    uint64_t txns[kMaxSlaves + 1] = {};
  };

  // Built-in AHB timing (all zero = untimed, the default).
  struct Timing {
    sc_core::sc_time clock = sc_core::SC_ZERO_TIME;  // AHB clock period
    unsigned transfer_cycles = 0;                    // per transaction (address phase + first data beat)
    unsigned burst_cycles_per_word = 0;              // per further 32-bit word of a burst
    bool arbitration = false;                        // model contention between masters
  };

  // Called for each successful routed write: master hindex, global address, length.
  using SnoopFn = std::function<void(unsigned mst, uint64_t addr, unsigned len)>;

  // Extra cost of one routed access: master/slave AHB index and the payload
  // (address is still global). Default: none (zero delay).
  using DelayFn =
      std::function<sc_core::sc_time(unsigned mst, unsigned slv, const tlm::tlm_generic_payload&)>;

  tlm_utils::multi_passthrough_target_socket<AhbCtrl> tsock;     // masters bind here
  tlm_utils::multi_passthrough_initiator_socket<AhbCtrl> isock;  // bound to slaves

  AhbCtrl(sc_core::sc_module_name name, const Params& p = Params());

  // Binds a master's initiator socket; ports are numbered in binding order.
  template <class InitSocket>
  void bind_master(InitSocket& s, unsigned hindex, const AhbPnp& pnp, const std::string& name) {
    add_master(hindex, pnp, name);
    s.bind(tsock);
  }
  // Registers slave `hindex` and its P&P record (bars not yet routed).
  void add_slave(unsigned hindex, const AhbPnp& pnp, const std::string& name);
  // Routes bar `bar` of an added slave to target socket `s`.
  template <class TargetSocket>
  void bind_slave_bar(TargetSocket& s, unsigned hindex, unsigned bar) {
    map_bar(hindex, bar, nports_);
    isock.bind(s);
    ++nports_;
  }
  // Registers a slave and routes all its non-empty bars to one socket.
  template <class TargetSocket>
  void bind_slave(TargetSocket& s, unsigned hindex, const AhbPnp& pnp, const std::string& name) {
    add_slave(hindex, pnp, name);
    for (unsigned b = 0; b < 4; ++b)
      if ((pnp.bar[b] & 0xF) != BAR_UNUSED) map_bar(hindex, b, nports_);
    isock.bind(s);
    ++nports_;
  }

  void set_delay_fn(DelayFn f) { delay_fn_ = std::move(f); }
  void set_timing(const Timing& t) { timing_ = t; }
  const Timing& timing() const { return timing_; }
  void set_snoop_fn(SnoopFn f) { snoop_fn_ = std::move(f); }

  // Arbitration side-band for a master that serves some of its transactions
  // from DMI (the CPU; README "Timing"). `take` returns the master's latest
  // DMI-served transaction if it is newer than anything routed here (and
  // forgets it); the controller asks before arbitrating any routed access.
  // arbitrate_dmi() is the master's call for a DMI-served transaction when
  // another master was on the bus since its previous one: returns the wait
  // (and counts it). Afterwards the master itself holds the latest interval.
  // One source per port; an empty function removes the port's source.
  using TakeIntervalFn = std::function<bool(sc_core::sc_time& start, sc_core::sc_time& end)>;
  void set_interval_source(unsigned port, TakeIntervalFn take);
  sc_core::sc_time arbitrate_dmi(unsigned port, const sc_core::sc_time& start, const sc_core::sc_time& dur);
  // A master's transaction served from DMI, to be published on
  // on_transaction (the master reports them only while somebody listens).
  void report_dmi(unsigned port, AhbTransaction::Kind kind, uint32_t addr, unsigned bytes,
                  const sc_core::sc_time& start, const sc_core::sc_time& end, const sc_core::sc_time& wait);

  // Every AHB transaction: routed accesses (incl. P&P reads and ERROR
  // responses) when they complete, DMI-served ones when reported.
  Probe<AhbTransaction> on_transaction;

  // Address decoding (no side effects): the region holding `addr`, if any.
  std::optional<Region> decode(uint32_t addr) const;
  // One word of the P&P area at global address `addr` (word aligned).
  uint32_t pnp_word(uint32_t addr) const;
  uint32_t pnp_base() const { return pnp_base_; }
  bool in_pnp_area(uint64_t addr) const { return addr >= pnp_base_ && addr - pnp_base_ < pnp_size_; }

  const std::vector<MasterStats>& master_stats() const { return mstats_; }
  const std::vector<Region>& regions() const { return regions_; }
  uint64_t pnp_reads() const { return pnp_reads_; }
  // Registers masters[] and pnp_reads under `g` (bus.ahb); wait times are
  // reported in cycles of `clock`.
  void register_stats(const StatsGroup& g, const sc_core::sc_time& clock);
  // <prefix>.transaction (probe_registry.h).
  void register_probes(ProbeRegistry& r, const std::string& prefix);

 private:
  struct Slave {
    bool present = false;
    std::string name;
    AhbPnp pnp;
  };
  struct Master {
    bool present = false;
    AhbPnp pnp;
  };

  void add_master(unsigned hindex, const AhbPnp& pnp, const std::string& name);
  void map_bar(unsigned hindex, unsigned bar, unsigned port);
  // The region holding `addr`, if any. Inline: every routed access decodes
  // (addr[31:20] through top_); only the I/O area needs the out-of-line scan.
  const Region* find(uint32_t addr) const {
    const int t = top_[addr >> 20];
    if (t >= 0) return &regions_[t];
    return t == -2 ? find_io(addr) : nullptr;
  }
  const Region* find_io(uint32_t addr) const;

  // Dispatches to route<true> only while somebody listens to on_transaction,
  // so an unobserved access runs route<false>, which holds no probe code.
  void b_transport(int port, tlm::tlm_generic_payload& gp, sc_core::sc_time& delay);
  template <bool kObserved>
  void route(int port, tlm::tlm_generic_payload& gp, sc_core::sc_time& delay);
  // Publishes a routed transaction on on_transaction (kept out of line).
  void publish(const MasterStats& ms, const tlm::tlm_generic_payload& gp, int slave,
               const sc_core::sc_time& start, const sc_core::sc_time& end, const sc_core::sc_time& wait);
  bool get_direct_mem_ptr(int port, tlm::tlm_generic_payload& gp, tlm::tlm_dmi& dmi);
  unsigned transport_dbg(int port, tlm::tlm_generic_payload& gp);
  void invalidate_direct_mem_ptr(int port, sc_dt::uint64 start, sc_dt::uint64 end);
  // Serves an access to the P&P area; returns the response status.
  tlm::tlm_response_status pnp_access(tlm::tlm_generic_payload& gp, bool debug, const std::string& who);

  Params p_;
  uint32_t io_base_ = 0;   // start of the AHB I/O area
  uint32_t pnp_base_ = 0;  // start of the P&P area
  uint32_t pnp_size_ = 0;
  Master masters_[kMaxMasters];
  Slave slaves_[kMaxSlaves];
  std::vector<Region> regions_;
  // Fast decode on addr[31:20]: index into regions_, -1 none, -2 I/O area.
  std::vector<int16_t> top_;
  std::vector<MasterStats> mstats_;  // by tsock port (binding order)
  unsigned nports_ = 0;
  DelayFn delay_fn_;
  SnoopFn snoop_fn_;
  Timing timing_;
  // Arbitration: the last routed access of any master occupied the bus
  // during [busy_start_, busy_end_) (absolute simulated time).
  sc_core::sc_time busy_start_ = sc_core::SC_ZERO_TIME, busy_end_ = sc_core::SC_ZERO_TIME;
  int busy_port_ = -1;
  // Side-band interval sources (port, take function).
  std::vector<std::pair<unsigned, TakeIntervalFn>> interval_src_;
  void take_intervals();
  // Arbitration (README "Timing"): the wait of an access of master `port`
  // starting at `start` (absolute), counted in its MasterStats; zero when
  // arbitration is off, the bus is free then, or the master holds it.
  sc_core::sc_time arbitration_wait(int port, const sc_core::sc_time& start);
  sc_core::sc_time grant_time(const sc_core::sc_time& end) const;
  uint64_t pnp_reads_ = 0;
};

}  // namespace l3vp
