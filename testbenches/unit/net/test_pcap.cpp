// PcapWriter tests: records read back with libpcap at nanosecond precision
// (bytes, lengths, time stamps), and a capture of real host traffic (ARP,
// ICMP, UDP, TCP against the responder board) dissected by tshark with
// checksum validation on: no malformed frames, every checksum good. A
// negative control (a frame with a broken UDP checksum) proves the tshark
// check can fail. The tshark tests skip when tshark is not installed.
#include <gtest/gtest.h>
#include <pcap/pcap.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <memory>
#include <sstream>
#include <systemc>

#include "apps.h"
#include "eth_link.h"
#include "pcap_writer.h"
#include "responder.h"
#include "sim_host.h"

namespace l3vp::test {
namespace {

using sc_core::SC_MS;
using sc_core::SC_NS;
using sc_core::SC_PS;
using sc_core::SC_SEC;
using sc_core::sc_time;

std::string tmp_path(const std::string& tag) {
  return "/tmp/l3vp_test_pcap_" + std::to_string(::getpid()) + "_" + tag + ".pcap";
}

struct Bench {
  EthLink link{"link"};
  host::SimHost host{"host"};
  Responder board{"board"};
  Bench() {
    link.attach(0, &board);
    board.connect(&link.port(0));
    link.attach(1, &host);
    host.connect(&link.port(1));
  }
};
Bench& bench() {
  static Bench* b = [] {
    auto* x = new Bench();
    sc_core::sc_start(sc_core::SC_ZERO_TIME);
    return x;
  }();
  return *b;
}

// Wireshark expert severities (epan/proto.h): chat 0x200000, note 0x400000,
// warn 0x600000, error 0x800000. Frames must stay below "error" (bad
// checksums and malformed packets are errors; a "window full" warning is
// what a 300-byte receive window legitimately produces).
constexpr unsigned long kPiError = 0x800000;
unsigned long max_severity(const std::string& list) {
  unsigned long m = 0;
  std::istringstream in(list);
  std::string v;
  while (std::getline(in, v, ',')) m = std::max(m, std::stoul(v.empty() ? "0" : v));
  return m;
}

bool have_tshark() { return std::system("command -v tshark >/dev/null 2>&1") == 0; }

std::string run_cmd(const std::string& cmd) {
  std::string out;
  FILE* p = ::popen(cmd.c_str(), "r");
  if (!p) return out;
  char buf[4096];
  size_t n;
  while ((n = std::fread(buf, 1, sizeof buf, p)) > 0) out.append(buf, n);
  ::pclose(p);
  return out;
}

// tshark with checksum validation: one line per frame:
// number|protocols|malformed|ip/udp/tcp/icmp checksum status (1 good, 0 bad)|expert severities
std::vector<std::vector<std::string>> dissect(const std::string& file) {
  const std::string cmd =
      "tshark -r " + file +
      " -o ip.check_checksum:TRUE -o udp.check_checksum:TRUE -o tcp.check_checksum:TRUE"
      " -T fields -E separator='|' -e frame.number -e frame.protocols -e _ws.malformed"
      " -e ip.checksum.status -e udp.checksum.status -e tcp.checksum.status -e icmp.checksum.status"
      " -e _ws.expert.severity 2>/dev/null";  // (stderr: the "running as root" note)
  std::vector<std::vector<std::string>> rows;
  std::istringstream in(run_cmd(cmd));
  std::string line;
  while (std::getline(in, line)) {
    std::vector<std::string> f;
    std::string cell;
    std::istringstream ls(line);
    while (std::getline(ls, cell, '|')) f.push_back(cell);
    while (f.size() < 8) f.push_back("");
    rows.push_back(f);
  }
  return rows;
}

TEST(Pcap, RecordsReadBackWithNanosecondStamps) {
  const std::string path = tmp_path("rw");
  struct Rec {
    std::vector<uint8_t> d;
    sc_time t;
    uint64_t sec, nsec;
  };
  std::vector<Rec> recs;
  for (unsigned i = 0; i < 5; ++i) {
    std::vector<uint8_t> d(60 + 37 * i);
    for (size_t j = 0; j < d.size(); ++j) d[j] = uint8_t(i * 13 + j);
    // 1.000000123 s + i * 2.5 s + 999 ps (sub-ns part is truncated)
    const sc_time t =
        sc_time(1, SC_SEC) + sc_time(123, SC_NS) + sc_time(2500 * i, SC_MS) + sc_time(999, SC_PS);
    const uint64_t ns = 1000000123ull + 2500000000ull * i;
    recs.push_back({d, t, ns / 1000000000, ns % 1000000000});
  }
  {
    PcapWriter w(path);
    for (const Rec& r : recs) w.write(r.d.data(), r.d.size(), r.t);
    EXPECT_EQ(w.frames(), 5u);
  }
  char err[PCAP_ERRBUF_SIZE];
  pcap_t* p = pcap_open_offline_with_tstamp_precision(path.c_str(), PCAP_TSTAMP_PRECISION_NANO, err);
  ASSERT_NE(p, nullptr) << err;
  EXPECT_EQ(pcap_datalink(p), DLT_EN10MB);
  EXPECT_EQ(pcap_get_tstamp_precision(p), PCAP_TSTAMP_PRECISION_NANO);
  pcap_pkthdr* h;
  const u_char* data;
  for (const Rec& r : recs) {
    ASSERT_EQ(pcap_next_ex(p, &h, &data), 1);
    EXPECT_EQ(uint64_t(h->ts.tv_sec), r.sec);
    EXPECT_EQ(uint64_t(h->ts.tv_usec), r.nsec);  // nanoseconds with the nano handle
    ASSERT_EQ(h->caplen, r.d.size());
    EXPECT_EQ(h->len, r.d.size());
    EXPECT_EQ(std::vector<uint8_t>(data, data + h->caplen), r.d);
  }
  EXPECT_EQ(pcap_next_ex(p, &h, &data), PCAP_ERROR_BREAK);  // end of file
  pcap_close(p);
  if (!HasFailure()) std::remove(path.c_str());
}

TEST(Pcap, OpenFailureThrows) { EXPECT_THROW(PcapWriter("/nonexistent-dir/x.pcap"), std::runtime_error); }

TEST(Pcap, HostTrafficDissectsCleanlyInTshark) {
  if (!have_tshark()) GTEST_SKIP() << "tshark is not installed";
  Bench& b = bench();
  const std::string path = tmp_path("traffic");
  PcapWriter w(path);
  w.attach(b.link, PcapWriter::Point::kDeliver);
  host::PingParams pp;
  pp.count = 3;
  pp.interval = sc_time(1, SC_MS);
  host::PingApp ping(b.host, pp);
  ping.start();
  host::UdpSendParams up;
  up.count = 5;
  up.size = 333;  // odd length exercises the checksum's padding byte
  up.start = sc_time(10, SC_MS);
  host::UdpSender gen(b.host, up);
  gen.start();
  host::TcpClientParams tp;
  tp.bytes = 5001;
  tp.start = sc_time(20, SC_MS);
  host::TcpClientApp tcp(b.host, tp);
  tcp.start();
  sc_core::sc_start(sc_time(1, SC_SEC));
  w.detach();
  ASSERT_TRUE(ping.done());
  ASSERT_TRUE(tcp.done());
  const uint64_t frames = w.frames();
  w.close();
  const auto rows = dissect(path);
  ASSERT_EQ(rows.size(), frames);
  unsigned arp = 0, icmp = 0, udp = 0, tcpn = 0;
  for (const auto& r : rows) {
    SCOPED_TRACE("frame " + r[0] + " " + r[1]);
    EXPECT_EQ(r[2], "") << "malformed";
    if (r[1].find("arp") != std::string::npos) ++arp;
    if (r[1].find("icmp") != std::string::npos) ++icmp;
    if (r[1].find(":udp") != std::string::npos) ++udp;
    if (r[1].find(":tcp") != std::string::npos) ++tcpn;
    if (r[1].find(":ip") != std::string::npos) {
      EXPECT_EQ(r[3], "1") << "IP checksum status";
    }
    if (r[1].find(":udp") != std::string::npos) {
      EXPECT_EQ(r[4], "1") << "UDP checksum status";
    }
    if (r[1].find(":tcp") != std::string::npos) {
      EXPECT_EQ(r[5], "1") << "TCP checksum status";
    }
    if (r[1].find(":icmp") != std::string::npos) {
      EXPECT_EQ(r[6], "1") << "ICMP checksum status";
    }
    EXPECT_LT(max_severity(r[7]), kPiError) << "expert info: " << r[7];
  }
  EXPECT_GE(arp, 2u);
  EXPECT_EQ(icmp, 6u);
  EXPECT_EQ(udp, 10u);  // 5 datagrams and their echoes
  EXPECT_GT(tcpn, 10u);
  if (!HasFailure()) std::remove(path.c_str());
}

TEST(Pcap, TsharkFlagsABrokenChecksum) {
  if (!have_tshark()) GTEST_SKIP() << "tshark is not installed";
  const std::string path = tmp_path("bad");
  const uint32_t a = 0xC0A80037, b = 0xC0A80035;
  host::Bytes u = host::udp_datagram(a, b, 1, 2, host::udp_pattern(0, 20).data(), 20);
  u[6] ^= 0x10;  // break the UDP checksum
  host::Bytes ip = host::ip4_packet(a, b, host::kProtoUdp, 1, 64, false, u.data(), u.size());
  host::Bytes fr = host::eth_frame(host::Mac{2, 0, 0, 0, 0, 0x35}, host::Mac{2, 0, 0, 0, 0, 0x55},
                                   host::kEtherIpv4, ip.data(), ip.size());
  {
    PcapWriter w(path);
    w.write(fr.data(), fr.size(), sc_time(1, SC_MS));
  }
  const auto rows = dissect(path);
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows[0][3], "1");                     // IP header fine
  EXPECT_EQ(rows[0][4], "0");                     // UDP checksum bad
  EXPECT_GE(max_severity(rows[0][7]), kPiError);  // reported as an error
  if (!HasFailure()) std::remove(path.c_str());
}

}  // namespace
}  // namespace l3vp::test

int sc_main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
