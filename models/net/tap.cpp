#include "tap.h"
#include "stats.h"

#include <fcntl.h>
#include <linux/capability.h>
#include <linux/if.h>
#include <linux/if_tun.h>
#include <sched.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <thread>
#include <vector>

namespace l3vp {

namespace {

std::string err(const std::string& what) { return what + ": " + std::strerror(errno); }

// Opens the TAP device `ifname` (IFF_TAP, no packet-information header).
int open_tap(const std::string& ifname) {
  const int fd = ::open("/dev/net/tun", O_RDWR | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) throw TapError(err("tap: cannot open /dev/net/tun"));
  ifreq ifr;
  std::memset(&ifr, 0, sizeof ifr);
  ifr.ifr_flags = IFF_TAP | IFF_NO_PI;
  std::strncpy(ifr.ifr_name, ifname.c_str(), IFNAMSIZ - 1);
  if (::ioctl(fd, TUNSETIFF, &ifr) < 0) {
    const std::string m = err("tap: TUNSETIFF '" + ifname + "'");
    ::close(fd);
    throw TapError(m);
  }
  return fd;
}

}  // namespace

std::string TapEndpoint::unavailable_reason() {
  if (::access("/dev/net/tun", R_OK | W_OK) != 0) return err("/dev/net/tun not usable");
  __user_cap_header_struct h{_LINUX_CAPABILITY_VERSION_3, 0};
  __user_cap_data_struct d[2];
  std::memset(d, 0, sizeof d);
  if (::syscall(SYS_capget, &h, d) != 0) return err("capget");
  if (!(d[0].effective & (1u << CAP_NET_ADMIN)))
    return "no CAP_NET_ADMIN (run as root or grant cap_net_admin)";
  return "";
}

void TapEndpoint::validate(const TapParams& p) {
  if (p.ifname.empty() || p.ifname.size() >= IFNAMSIZ || p.ifname.find('/') != std::string::npos)
    throw TapError("tap: bad interface name '" + p.ifname + "'");
  if (p.netns.find('/') != std::string::npos || p.netns == "." || p.netns == "..")
    throw TapError("tap: bad namespace name '" + p.netns + "'");
  if (p.poll_interval == sc_core::SC_ZERO_TIME) throw TapError("tap: poll interval must be > 0");
}

TapEndpoint::TapEndpoint(sc_core::sc_module_name n, const TapParams& p) : sc_core::sc_module(n), p_(p) {
  validate(p_);
  if (p_.netns.empty()) {
    fd_ = open_tap(p_.ifname);
  } else {
    // Attach from inside the namespace (the calling thread only), then come back.
    const int self = ::open("/proc/self/ns/net", O_RDONLY | O_CLOEXEC);
    if (self < 0) throw TapError(err("tap: /proc/self/ns/net"));
    const int target = ::open(("/var/run/netns/" + p_.netns).c_str(), O_RDONLY | O_CLOEXEC);
    if (target < 0) {
      const std::string m = err("tap: namespace '" + p_.netns + "'");
      ::close(self);
      throw TapError(m);
    }
    if (::setns(target, CLONE_NEWNET) != 0) {
      const std::string m = err("tap: setns '" + p_.netns + "'");
      ::close(self);
      ::close(target);
      throw TapError(m);
    }
    std::string failure;
    try {
      fd_ = open_tap(p_.ifname);
    } catch (const TapError& e) {
      failure = e.what();
    }
    const bool back = ::setns(self, CLONE_NEWNET) == 0;
    ::close(self);
    ::close(target);
    if (!back) {
      if (fd_ >= 0) ::close(fd_);
      throw TapError(err("tap: cannot return to the original namespace"));
    }
    if (!failure.empty()) throw TapError(failure);
  }
  SC_METHOD(poll);
}

TapEndpoint::~TapEndpoint() {
  if (fd_ >= 0) ::close(fd_);
}

void TapEndpoint::frame_in(const EthFrame& f) {
  if (f.crc_error) {
    ++st_.dropped_crc;
    return;
  }
  const ssize_t w = ::write(fd_, f.data.data(), f.data.size());
  if (w != static_cast<ssize_t>(f.data.size())) {
    ++st_.write_errors;  // e.g. the interface is down in its namespace
    return;
  }
  ++st_.to_tap;
  st_.to_tap_bytes += f.data.size();
}

void TapEndpoint::poll() {
  if (stopped_) return;  // no next_trigger: the method goes quiet
  ++st_.polls;
  if (p_.realtime) {
    const auto wall = std::chrono::steady_clock::now();
    if (!started_) {
      started_ = true;
      wall0_ = wall;
      sim0_ = sc_core::sc_time_stamp();
    } else {
      static const uint64_t per_ns = sc_core::sc_time(1, sc_core::SC_NS).value();
      const uint64_t sim_ns = (sc_core::sc_time_stamp() - sim0_).value() / per_ns;
      const auto wall_ns =
          static_cast<uint64_t>(std::chrono::duration_cast<std::chrono::nanoseconds>(wall - wall0_).count());
      if (sim_ns > wall_ns) {
        ++st_.sleeps;
        std::this_thread::sleep_for(std::chrono::nanoseconds(sim_ns - wall_ns));
      }
    }
  }
  std::vector<uint8_t> buf(65536);
  for (unsigned i = 0; i < p_.max_frames_per_poll; ++i) {
    const ssize_t r = ::read(fd_, buf.data(), buf.size());
    if (r <= 0) break;                             // EAGAIN: nothing more now
    if (static_cast<size_t>(r) > eth::kMaxData) {  // no jumbo frames on this link
      ++st_.oversize;
      continue;
    }
    ++st_.from_tap;
    st_.from_tap_bytes += static_cast<uint64_t>(r);
    if (tx_) {
      EthFrame f;
      f.data.assign(buf.begin(), buf.begin() + r);
      tx_->send(f);
    }
  }
  next_trigger(p_.poll_interval);
}

// ---------------------------------------------------------------- statistics

// A TAP run is not deterministic: nothing here is invariant.
void TapEndpoint::register_stats(const StatsGroup& gr, const TapEndpoint* tap) {
  const StatsGroup g = gr.only_if([tap] { return tap != nullptr; });
  const auto N = StatInv::No;
  auto field = [&](const char* name, StatUnit unit, const char* desc, uint64_t TapStats::*m) {
    g.value(name, "int", unit, N, desc, [tap, m] { return nlohmann::json(tap->st_.*m); });
  };
  field("from_tap", StatUnit::Count, "Only with --tap: frames read from the TAP device.",
        &TapStats::from_tap);
  field("to_tap", StatUnit::Count, "Only with --tap: frames written to the TAP device.", &TapStats::to_tap);
  field("from_tap_bytes", StatUnit::Bytes, "Only with --tap: their bytes (read).", &TapStats::from_tap_bytes);
  field("to_tap_bytes", StatUnit::Bytes, "Only with --tap: their bytes (written).", &TapStats::to_tap_bytes);
  field("dropped_crc", StatUnit::Count, "Only with --tap: frames dropped for a bad FCS.",
        &TapStats::dropped_crc);
  field("write_errors", StatUnit::Count, "Only with --tap: failed writes to the device.",
        &TapStats::write_errors);
  field("oversize", StatUnit::Count, "Only with --tap: frames too long for the link.", &TapStats::oversize);
  field("polls", StatUnit::Count, "Only with --tap: device polls.", &TapStats::polls);
  field("sleeps", StatUnit::Count, "Only with --tap: real-time pacing sleeps.", &TapStats::sleeps);
}

}  // namespace l3vp
