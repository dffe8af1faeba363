// GDB remote serial protocol server for the LEON3 CPU (README.md).
//
// A DebugAgent (models/cpu/leon3/leon3_tlm.h): it runs inside the CPU's
// SC_THREAD and blocks on the socket while gdb has the target stopped, so
// nothing else in the simulation runs and simulated time stands still.
// Breakpoints, watchpoints and single steps are checked by listeners on the
// core's execute and step probes, attached only while they are needed: with
// none of them set the core runs its plain (unobserved) loop.
#pragma once
#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "leon3_tlm.h"
#include "packet.h"
#include "sparc.h"

namespace l3vp::gdb {

class GdbStub : public DebugAgent {
 public:
  struct Options {
    unsigned port = 0;  // 0: the system picks a free port (see port())
    bool wait = false;  // --gdb-wait: halt before the first instruction until gdb attaches
  };
  // Listens on 127.0.0.1; throws std::runtime_error (one line) on failure.
  GdbStub(Leon3& cpu, const Options& o);
  ~GdbStub() override;
  GdbStub(const GdbStub&) = delete;
  GdbStub& operator=(const GdbStub&) = delete;

  unsigned port() const { return port_; }

  bool poll() override;
  bool stopped(Cause why) override;

  // The simulation ended (after sc_start() returned). `halted`/`tt`: the CPU
  // is in error mode with trap type tt; `status`: leon3vp's exit status.
  // The exit convention (tt 0x80) and every other end give gdb "W status";
  // any other error mode is a stop with the trap's signal first, then, when
  // gdb resumes, "X signal" (the run is over).
  void finish(bool halted, unsigned tt, int status);

 private:
  enum class Hit { None, Step, SwBreak, HwBreak, Watch };
  struct Watch {
    uint32_t addr, len;
    int type;  // 2 write, 3 read, 4 access (the Z packet's type)
  };
  enum class Resume { Continue, Step, Detach, Kill };

  // socket
  void accept_conn(bool block);
  void close_conn();
  bool read_some(bool block);  // false on EOF/error
  void send_raw(const std::string& s);
  void send(const std::string& payload);
  // The command loop while stopped; returns how the target goes on.
  Resume serve();
  std::optional<std::string> handle(const std::string& pkt, std::optional<Resume>& resume);
  // handle()'s packet groups
  std::string handle_registers(char c, const std::string& args);
  std::string handle_memory(char c, const std::string& args);
  std::string handle_breakpoint(bool set, const std::string& args);
  std::optional<std::string> handle_resume(char c, const std::string& args, std::optional<Resume>& resume);
  std::string handle_query(const std::string& p);
  std::optional<std::string> handle_v(const std::string& p, std::optional<Resume>& resume);
  void resume_at(const std::string& addr);
  void arm(Resume r);
  void disarm();
  std::string stop_reply();

  // state access
  uint32_t read_reg(unsigned n) const;
  void write_reg(unsigned n, uint32_t v);
  std::string read_mem(uint32_t addr, uint32_t len, bool& ok);
  bool write_mem(uint32_t addr, const std::vector<uint8_t>& data);
  // Register windows still held in registers: [sp, sp+64) of each is the
  // save area the overflow handler would write (README "Register windows").
  struct SaveArea {
    uint32_t sp;
    unsigned win;
  };
  std::vector<SaveArea> save_areas() const;
  std::string monitor(const std::string& cmd);

  // probe listeners
  void on_execute(const leon3::ExecuteEvent& e);
  void on_step(const leon3::StepRecord& r);

  Leon3& cpu_;
  leon3::Core& core_;
  Options o_;
  unsigned port_ = 0;
  int lfd_ = -1, fd_ = -1;
  PacketReader reader_;
  std::vector<PacketReader::Event> inbox_;
  unsigned poll_count_ = 0;
  bool interrupted_ = false;  // 0x03 seen while running
  bool fresh_ = false;        // connection not yet told about a stop ("?" answers it)

  std::set<uint32_t> sw_bps_, hw_bps_;
  std::vector<Watch> watches_;
  bool stepping_ = false;
  // listeners' state while running
  Probe<leon3::ExecuteEvent>::Id exec_id_ = 0;
  Probe<leon3::StepRecord>::Id step_id_ = 0;
  bool step_done_ = false;
  int step_sig_ = kSigTrap;
  std::optional<Watch> watch_hit_;  // the watchpoint the last stop reports
  uint32_t watch_addr_ = 0;
  // the last stop
  Hit hit_ = Hit::None;
  std::string last_reply_ = "S05";
};

}  // namespace l3vp::gdb
