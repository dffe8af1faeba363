#include "gdb_stub.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cinttypes>
#include <cstdio>
#include <cstring>
#include <stdexcept>
#include <systemc>

namespace l3vp::gdb {

namespace {

constexpr unsigned kPacketSize = 4096;  // largest packet gdb may send (qSupported)
// Packets kept while the target runs (gdb's all-stop protocol sends none but
// Ctrl-C then; a client that floods is answered for the first few only).
constexpr size_t kMaxInbox = 16;
constexpr unsigned kNumRegs = 72;
// gdb's sparc32 numbering (see README.md)
constexpr unsigned kRegY = 64, kRegPsr = 65, kRegWim = 66, kRegTbr = 67, kRegPc = 68, kRegNpc = 69;

std::string hex2(unsigned v) {
  char b[8];
  std::snprintf(b, sizeof b, "%02x", v & 0xFF);
  return b;
}

}  // namespace

GdbStub::GdbStub(Leon3& cpu, const Options& o) : cpu_(cpu), core_(cpu.core()), o_(o) {
  if (o.port > 65535) throw std::runtime_error("--gdb: port " + std::to_string(o.port) + " is out of range");
  lfd_ = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (lfd_ < 0) throw std::runtime_error(std::string("--gdb: socket: ") + std::strerror(errno));
  int one = 1;
  ::setsockopt(lfd_, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_port = htons(uint16_t(o.port));
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (::bind(lfd_, reinterpret_cast<sockaddr*>(&a), sizeof a) < 0 || ::listen(lfd_, 1) < 0) {
    const std::string why = std::strerror(errno);
    ::close(lfd_);
    lfd_ = -1;
    throw std::runtime_error("--gdb: cannot listen on 127.0.0.1:" + std::to_string(o.port) + ": " + why);
  }
  socklen_t len = sizeof a;
  ::getsockname(lfd_, reinterpret_cast<sockaddr*>(&a), &len);
  port_ = ntohs(a.sin_port);
  // Always printed (also with -q): scripts read the port from it.
  std::fprintf(stderr, "leon3vp: gdb: listening on 127.0.0.1:%u\n", port_);
  std::fflush(stderr);
}

GdbStub::~GdbStub() {
  disarm();
  close_conn();
  if (lfd_ >= 0) ::close(lfd_);
}

// ------------------------------------------------------------------ socket

void GdbStub::accept_conn(bool block) {
  if (fd_ >= 0 || lfd_ < 0) return;
  pollfd p{lfd_, POLLIN, 0};
  if (::poll(&p, 1, block ? -1 : 0) <= 0) return;
  const int fd = ::accept4(lfd_, nullptr, nullptr, SOCK_CLOEXEC);
  if (fd < 0) return;
  int one = 1;
  ::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
  fd_ = fd;
  reader_ = PacketReader();
  inbox_.clear();
  interrupted_ = false;
  fresh_ = true;
}

void GdbStub::close_conn() {
  if (fd_ >= 0) ::close(fd_);
  fd_ = -1;
}

bool GdbStub::read_some(bool block) {
  if (fd_ < 0) return false;
  if (!block) {
    pollfd p{fd_, POLLIN, 0};
    if (::poll(&p, 1, 0) <= 0) return true;
  }
  char buf[4096];
  ssize_t n;
  do n = ::recv(fd_, buf, sizeof buf, 0);
  while (n < 0 && errno == EINTR);
  if (n <= 0) return false;
  for (ssize_t i = 0; i < n; ++i)
    if (auto e = reader_.feed(buf[i])) {
      if (e->kind == PacketReader::Kind::Interrupt)
        interrupted_ = true;
      else if ((e->kind == PacketReader::Kind::Packet || e->kind == PacketReader::Kind::BadPacket) &&
               inbox_.size() < kMaxInbox)  // beyond: dropped (gdb sends only Ctrl-C while running)
        inbox_.push_back(std::move(*e));
    }
  return true;
}

void GdbStub::send_raw(const std::string& s) {
  size_t off = 0;
  while (fd_ >= 0 && off < s.size()) {
    const ssize_t n = ::send(fd_, s.data() + off, s.size() - off, MSG_NOSIGNAL);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      close_conn();
      return;
    }
    off += size_t(n);
  }
}

void GdbStub::send(const std::string& payload) { send_raw(frame(payload)); }

// ------------------------------------------------------- DebugAgent hooks

bool GdbStub::poll() {
  // One system call per CPU-thread iteration would cost a little host time
  // in every quantum; every 16th is plenty for an interactive Ctrl-C.
  if ((++poll_count_ & 15) != 0) return false;
  if (fd_ < 0) {
    accept_conn(false);  // gdb attached while the program runs: stop for it
    if (fd_ < 0) return false;
    last_reply_ = "S05";
    hit_ = Hit::None;
    return true;
  }
  if (!read_some(false)) {  // gdb went away: run on without it
    disarm();
    close_conn();
    return false;
  }
  return interrupted_;
}

bool GdbStub::stopped(Cause why) {
  const int w = core_.watch_hit();  // (disarm() clears it)
  disarm();
  if (why == Cause::Start) {
    if (!o_.wait) return true;
    accept_conn(true);
    last_reply_ = "S05";
  } else if (why == Cause::Poll && interrupted_) {
    last_reply_ = "T02thread:1;";
  } else if (why == Cause::Break) {
    // The core stopped by itself: after a watched access (reported first,
    // also when it ended a step), else a breakpoint
    if (w >= 0 && size_t(w) < watches_.size()) {
      watch_hit_ = watches_[size_t(w)];
      hit_ = Hit::Watch;
    } else if (hit_ == Hit::None) {
      hit_ = step_done_ ? Hit::Step : sw_bps_.count(core_.pc()) ? Hit::SwBreak : Hit::HwBreak;
    }
    last_reply_ = stop_reply();
  }
  interrupted_ = false;
  if (fd_ < 0) return true;
  // A new connection asks with '?'; an attached gdb waits for the reply to
  // its 'c' or 's'.
  if (!fresh_) send(last_reply_);
  fresh_ = false;
  const Resume r = serve();
  if (r == Resume::Kill) return false;
  arm(r);
  return true;
}

void GdbStub::finish(bool halted, unsigned tt, int status) {
  disarm();
  if (fd_ < 0) return;
  if (halted && tt != 0x80) {
    // Error mode: show gdb where and why, then end on its next resume.
    const int sig = signal_of_trap(tt);
    last_reply_ = "T" + hex2(unsigned(sig)) + "thread:1;";
    if (!fresh_) send(last_reply_);
    fresh_ = false;
    const Resume r = serve();
    if (r == Resume::Continue || r == Resume::Step) send("X" + hex2(unsigned(sig)));
  } else {
    send("W" + hex2(unsigned(status)));
  }
  close_conn();
}

std::string GdbStub::stop_reply() {
  switch (hit_) {
    case Hit::Step:
      return "T" + hex2(unsigned(step_sig_)) + "thread:1;";
    case Hit::SwBreak:
      return "T05thread:1;swbreak:;";
    case Hit::HwBreak:
      return "T05thread:1;hwbreak:;";
    case Hit::Watch: {
      const char* kind = watch_hit_->type == 2 ? "watch" : watch_hit_->type == 3 ? "rwatch" : "awatch";
      char b[16];
      std::snprintf(b, sizeof b, "%" PRIx32, watch_hit_->addr);
      return std::string("T05thread:1;") + kind + ":" + b + ";";
    }
    default:
      return "T05thread:1;";
  }
}

// ------------------------------------------------------- running with checks

void GdbStub::arm(Resume r) {
  stepping_ = r == Resume::Step;
  if (r == Resume::Detach) {
    sw_bps_.clear();
    hw_bps_.clear();
    watches_.clear();
    stepping_ = false;
  }
  interrupted_ = false;  // a Ctrl-C typed while stopped is not for the next run
  step_done_ = false;
  step_sig_ = kSigTrap;
  watch_hit_.reset();
  hit_ = Hit::None;
  // Listen only while stepping (checked per instruction); otherwise the
  // core runs its plain loop at full speed.
  // Breakpoints are the core's own check (Core::set_break_pcs): a run with
  // breakpoints that are not hit stays in the plain loop.
  std::vector<uint32_t> pcs(sw_bps_.begin(), sw_bps_.end());
  pcs.insert(pcs.end(), hw_bps_.begin(), hw_bps_.end());
  core_.set_break_pcs(std::move(pcs), core_.pc());  // the resumed instruction runs
  // Watchpoints too (Core::set_watches): only their pages leave the fast path.
  std::vector<leon3::Core::WatchRange> ranges;
  for (const Watch& w : watches_) ranges.push_back({w.addr, w.len, w.type != 2, w.type != 3});
  core_.set_watches(ranges);
  if (stepping_) {
    exec_id_ = core_.probes().execute.listen([this](const leon3::ExecuteEvent& e) { on_execute(e); });
    step_id_ = core_.probes().step.listen([this](const leon3::StepRecord& s) { on_step(s); });
  }
}

void GdbStub::disarm() {
  core_.set_break_pcs({});
  core_.set_watches({});
  if (exec_id_) core_.probes().execute.unlisten(exec_id_);
  if (step_id_) core_.probes().step.unlisten(step_id_);
  exec_id_ = step_id_ = 0;
}

// Stepping: the instruction after the stepped one stops before it runs.
void GdbStub::on_execute(const leon3::ExecuteEvent&) {
  if (step_done_) {
    hit_ = Hit::Step;
    core_.request_break();
  }
}

void GdbStub::on_step(const leon3::StepRecord& r) {
  if (stepping_ && !step_done_) {
    step_done_ = true;
    step_sig_ = r.trapped && !r.interrupt ? signal_of_trap(r.tt) : kSigTrap;
  }
}

// ------------------------------------------------------------ command loop

GdbStub::Resume GdbStub::serve() {
  for (;;) {
    while (inbox_.empty())
      if (!read_some(true)) {  // gdb went away: detach
        close_conn();
        return Resume::Detach;
      }
    PacketReader::Event ev = std::move(inbox_.front());
    inbox_.erase(inbox_.begin());
    if (ev.kind == PacketReader::Kind::BadPacket) {
      send_raw("-");
      continue;
    }
    send_raw("+");
    std::optional<Resume> resume;
    std::optional<std::string> reply = handle(ev.text, resume);
    if (reply) send(*reply);
    if (resume) {
      if (*resume == Resume::Detach || *resume == Resume::Kill) close_conn();
      return *resume;
    }
    if (fd_ < 0) return Resume::Detach;
  }
}

namespace {

// "addr,len" with an optional ":..." tail
bool parse_addr_len(const std::string& s, uint32_t& a, uint32_t& n) {
  const size_t comma = s.find(',');
  if (comma == std::string::npos) return false;
  size_t end = s.find_first_of(":", comma);
  if (end == std::string::npos) end = s.size();
  return parse_hex_u32(s.substr(0, comma), a) && parse_hex_u32(s.substr(comma + 1, end - comma - 1), n);
}

}  // namespace

std::optional<std::string> GdbStub::handle(const std::string& p, std::optional<Resume>& resume) {
  if (p.empty()) return std::string();
  const char c = p[0];
  const std::string args = p.substr(1);
  switch (c) {
    case '?':
      return last_reply_;
    case 'g':
    case 'G':
    case 'p':
    case 'P':
      return handle_registers(c, args);
    case 'm':
    case 'M':
    case 'X':
      return handle_memory(c, args);
    case 'Z':
    case 'z':
      return handle_breakpoint(c == 'Z', args);
    case 'c':
    case 's':
    case 'C':
    case 'S':
    case 'D':
    case 'k':
      return handle_resume(c, args, resume);
    case 'H':
    case 'T':
      return std::string("OK");
    case 'q':
      return handle_query(p);
    case 'v':
      return handle_v(p, resume);
    default:
      return std::string();
  }
}

// g, G, p, P
std::string GdbStub::handle_registers(char c, const std::string& args) {
  if (c == 'g') {
    std::string s;
    for (unsigned n = 0; n < kNumRegs; ++n) s += be32_hex(read_reg(n));
    return s;
  }
  if (c == 'G') {
    if (args.size() < 8 * kNumRegs) return "E01";
    for (unsigned n = 0; n < kNumRegs; ++n) {
      uint32_t v;
      if (!parse_be32_hex(std::string_view(args).substr(8 * n, 8), v)) return "E01";
      write_reg(n, v);
    }
    return "OK";
  }
  if (c == 'p') {
    uint32_t n;
    if (!parse_hex_u32(args, n) || n >= kNumRegs) return "E01";
    return be32_hex(read_reg(n));
  }
  const size_t eq = args.find('=');
  uint32_t n, v;
  if (eq == std::string::npos || !parse_hex_u32(args.substr(0, eq), n) || n >= kNumRegs ||
      !parse_be32_hex(args.substr(eq + 1), v))
    return "E01";
  write_reg(n, v);
  return "OK";
}

// m (read), M (hex write), X (binary write)
std::string GdbStub::handle_memory(char c, const std::string& args) {
  uint32_t a, n;
  if (c == 'm') {
    if (!parse_addr_len(args, a, n)) return "E01";
    if (n > kPacketSize / 2) n = kPacketSize / 2;
    if (uint64_t(a) + n > 0x100000000ull) n = uint32_t(0x100000000ull - a);  // stop at the top
    bool ok;
    std::string s = read_mem(a, n, ok);
    return ok ? s : std::string("E01");
  }
  const size_t colon = args.find(':');
  if (colon == std::string::npos || !parse_addr_len(args, a, n)) return "E01";
  std::vector<uint8_t> data;
  if (c == 'M') {
    if (!from_hex(args.substr(colon + 1), data)) return "E01";
  } else {  // binary, already unescaped by the reader
    data.assign(args.begin() + long(colon) + 1, args.end());
  }
  if (data.size() != n) return "E01";
  if (uint64_t(a) + n > 0x100000000ull) return "E01";  // across the top: no wrap
  return write_mem(a, data) ? "OK" : "E01";
}

// Z<type>,<addr>,<kind> (set) and z (clear)
std::string GdbStub::handle_breakpoint(bool set, const std::string& args) {
  const size_t c1 = args.find(',');
  const size_t c2 = c1 == std::string::npos ? c1 : args.find(',', c1 + 1);
  uint32_t type, a, len;
  if (c2 == std::string::npos || !parse_hex_u32(args.substr(0, c1), type) ||
      !parse_hex_u32(args.substr(c1 + 1, c2 - c1 - 1), a))
    return "E01";
  const size_t semi = args.find(';', c2);
  if (!parse_hex_u32(args.substr(c2 + 1, semi == std::string::npos ? semi : semi - c2 - 1), len))
    return "E01";
  if (type == 0 || type == 1) {  // PC matches: guest memory is never modified
    auto& bps = type == 0 ? sw_bps_ : hw_bps_;
    if (set)
      bps.insert(a);
    else
      bps.erase(a);
    return "OK";
  }
  if (type < 2 || type > 4) return std::string();
  if (set) {
    if (len == 0) return "E01";
    watches_.push_back(Watch{a, len, int(type)});
    return "OK";
  }
  for (auto it = watches_.begin(); it != watches_.end(); ++it)
    if (it->addr == a && it->len == len && it->type == int(type)) {
      watches_.erase(it);
      break;
    }
  return "OK";
}

// The optional resume address of c/s.
void GdbStub::resume_at(const std::string& a) {
  uint32_t pc;
  if (!a.empty() && parse_hex_u32(a, pc)) core_.set_pc(pc, pc + 4);
}

// c, s, C, S (with a signal: dropped, no OS to deliver it), D, k
std::optional<std::string> GdbStub::handle_resume(char c, const std::string& args,
                                                  std::optional<Resume>& resume) {
  switch (c) {
    case 'c':
    case 's':
      resume_at(args);
      resume = c == 'c' ? Resume::Continue : Resume::Step;
      return std::nullopt;
    case 'C':
    case 'S': {
      const size_t semi = args.find(';');
      if (semi != std::string::npos) resume_at(args.substr(semi + 1));
      resume = c == 'C' ? Resume::Continue : Resume::Step;
      return std::nullopt;
    }
    case 'D':
      resume = Resume::Detach;
      return std::string("OK");
    default:  // 'k'
      resume = Resume::Kill;
      return std::nullopt;
  }
}

// q...
std::string GdbStub::handle_query(const std::string& p) {
  if (p.rfind("qSupported", 0) == 0)
    return "PacketSize=" + std::to_string(kPacketSize) + ";swbreak+;hwbreak+";
  if (p == "qAttached") return "1";
  if (p == "qC") return "QC1";
  if (p == "qfThreadInfo") return "m1";
  if (p == "qsThreadInfo") return "l";
  if (p.rfind("qSymbol", 0) == 0) return "OK";
  if (p.rfind("qRcmd,", 0) == 0) {
    std::vector<uint8_t> cmd;
    if (!from_hex(p.substr(6), cmd)) return "E01";
    const std::string out = monitor(std::string(cmd.begin(), cmd.end()));
    if (!out.empty()) send("O" + to_hex(out));
    return "OK";
  }
  return std::string();
}

// v...
std::optional<std::string> GdbStub::handle_v(const std::string& p, std::optional<Resume>& resume) {
  if (p == "vCont?") return std::string("vCont;c;C;s;S");
  if (p.rfind("vCont;", 0) == 0) {
    // One thread: the first action decides.
    const char a = p.size() > 6 ? p[6] : 'c';
    resume = (a == 's' || a == 'S') ? Resume::Step : Resume::Continue;
    return std::nullopt;
  }
  if (p.rfind("vKill", 0) == 0) {
    resume = Resume::Kill;
    return std::string("OK");
  }
  return std::string();
}

// ------------------------------------------------------------ state access

uint32_t GdbStub::read_reg(unsigned n) const {
  if (n < 32) return core_.reg(n);
  if (n < 64) return 0;  // f0-f31: no FPU modelled
  switch (n) {
    case kRegY:
      return core_.y();
    case kRegPsr:
      return core_.psr();
    case kRegWim:
      return core_.wim();
    case kRegTbr:
      return core_.tbr();
    case kRegPc:
      return core_.pc();
    case kRegNpc:
      return core_.npc();
    default:
      return 0;  // FSR, CSR: no FPU/coprocessor
  }
}

void GdbStub::write_reg(unsigned n, uint32_t v) {
  if (n < 32) return core_.set_reg(n, v);
  switch (n) {
    case kRegY:
      return core_.set_y(v);
    case kRegPsr:
      return core_.set_psr(v);
    case kRegWim:
      return core_.set_wim(v);
    case kRegTbr:
      return core_.set_tbr(v);
    case kRegPc:
      return core_.set_pc(v, core_.npc());
    case kRegNpc:
      return core_.set_pc(core_.pc(), v);
    default:
      return;  // f0-f31, FSR, CSR: ignored (no FPU)
  }
}

std::vector<GdbStub::SaveArea> GdbStub::save_areas() const {
  std::vector<SaveArea> v;
  const unsigned nwin = core_.config().nwin;
  const unsigned cwp = core_.psr() & 31;
  const uint32_t wim = core_.wim();
  for (unsigned k = 0; k < nwin; ++k) {
    const unsigned w = (cwp + k) % nwin;
    if (k > 0 && ((wim >> w) & 1)) break;  // this caller's window is in memory already
    const uint32_t sp = core_.window_reg(w, 14);
    if (sp != 0 && (sp & 7) == 0 && sp <= 0xFFFFFFFFu - 63) v.push_back(SaveArea{sp, w});
  }
  return v;
}

std::string GdbStub::read_mem(uint32_t addr, uint32_t len, bool& ok) {
  std::vector<uint8_t> buf(len);
  unsigned n = cpu_.debug_access(false, addr, buf.data(), len);
  if (n < len) {  // a range across targets: byte by byte up to the first hole
    n = 0;
    while (n < len && cpu_.debug_access(false, addr + n, &buf[n], 1) == 1) ++n;
  }
  buf.resize(n);
  // Save areas of windows still in registers read as the registers.
  for (const SaveArea& s : save_areas())
    for (uint32_t i = 0; i < n; ++i) {
      const uint32_t off = addr + i - s.sp;
      if (addr + i >= s.sp && off < 64)
        buf[i] = uint8_t(core_.window_reg(s.win, 16 + off / 4) >> (8 * (3 - off % 4)));
    }
  ok = n > 0 || len == 0;
  return to_hex(buf.data(), buf.size());
}

bool GdbStub::write_mem(uint32_t addr, const std::vector<uint8_t>& data) {
  const std::vector<SaveArea> areas = save_areas();
  bool ok = true;
  for (uint32_t i = 0; i < data.size(); ++i) {
    const uint32_t a = addr + i;
    bool in_reg = false;
    for (const SaveArea& s : areas) {
      const uint32_t off = a - s.sp;
      if (a >= s.sp && off < 64) {
        const unsigned r = 16 + off / 4, sh = 8 * (3 - off % 4);
        const uint32_t v = core_.window_reg(s.win, r);
        core_.set_window_reg(s.win, r, (v & ~(0xFFu << sh)) | (uint32_t(data[i]) << sh));
        in_reg = true;
        break;
      }
    }
    if (in_reg) continue;
    // Contiguous memory bytes in one access.
    uint32_t j = i;
    while (j + 1 < data.size()) {
      bool next_in_reg = false;
      for (const SaveArea& s : areas)
        if (addr + j + 1 >= s.sp && addr + j + 1 - s.sp < 64) next_in_reg = true;
      if (next_in_reg) break;
      ++j;
    }
    std::vector<uint8_t> chunk(data.begin() + i, data.begin() + j + 1);
    if (cpu_.debug_access(true, a, chunk.data(), unsigned(chunk.size())) != chunk.size()) ok = false;
    i = j;
  }
  return ok;
}

std::string GdbStub::monitor(const std::string& cmd_in) {
  std::string cmd = cmd_in;
  while (!cmd.empty() && cmd.back() == ' ') cmd.pop_back();
  const leon3::CoreCounters& c = core_.counters();
  const uint64_t cyc = core_.cycles();
  const sc_core::sc_time t = cpu_.cpu_time();
  char b[1024];
  if (cmd == "cycles") {
    std::snprintf(b, sizeof b, "%" PRIu64 "\n", cyc);
  } else if (cmd == "time") {
    std::snprintf(b, sizeof b, "%s (%" PRIu64 " ps)\n", t.to_string().c_str(),
                  uint64_t(t.value() * (sc_core::sc_get_time_resolution().to_seconds() * 1e12)));
  } else if (cmd == "stats") {
    const uint64_t busy = cyc - c.idle_cycles;
    std::snprintf(b, sizeof b,
                  "instructions  %" PRIu64 "\ncycles        %" PRIu64 "\nidle_cycles   %" PRIu64
                  "\ncpi           %.4f\nsimulated     %s\ntraps         %" PRIu64 "\ninterrupts    %" PRIu64
                  "\nannulled      %" PRIu64 "\npc            0x%08x\n",
                  c.instructions, cyc, c.idle_cycles,
                  c.instructions ? double(busy) / double(c.instructions) : 0.0, t.to_string().c_str(),
                  c.traps, c.interrupts, c.annulled, core_.pc());
  } else if (cmd == "help" || cmd.empty()) {
    std::snprintf(b, sizeof b,
                  "leon3vp monitor commands:\n"
                  "  stats   instructions, cycles, CPI, simulated time, traps, interrupts\n"
                  "  cycles  CPU cycles executed\n"
                  "  time    simulated time\n"
                  "  help    this list\n");
  } else {
    std::snprintf(b, sizeof b, "unknown monitor command '%s' (try 'monitor help')\n", cmd.c_str());
  }
  return b;
}

}  // namespace l3vp::gdb
