// Two boards in one process: two Leon3mp instances ("b0", "b1") in one
// SystemC kernel run the same firmware ELF. Each must give exactly what one
// board alone gives (the ELF's cycle golden of testbenches/cycles, made by
// leon3vp with a single board): the same instruction, cycle, idle-cycle,
// cache-miss, trap, stall and energy counts, the same exit, the same UART
// output, and statistics that are the board's own (the two JSON documents
// are equal to each other). One board's halt does not stop the other
// (Leon3mp::set_on_halt); the test stops the kernel when both have halted.
// Each board writes its waveform (vcd::BoardWaves, default signals) under a
// top scope of its own name; the two files differ in that name only.
//
// usage: test_two_boards FIRMWARE_DIR CYCLES_GOLDEN_DIR [gtest options]
#include <cstdio>
#include <fstream>
#include <memory>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "board_waves.h"
#include "config.h"
#include "leon3mp.h"
#include "log.h"
#include "tb_util.h"

using namespace l3vp;
using nlohmann::json;

namespace {

std::string g_fw_dir, g_golden_dir;
constexpr const char* kProgram = "timer";
constexpr const char* kEnergy = "leon3-90nm-estimate";  // as the golden's command
std::unique_ptr<Leon3mp> g_board[2];
std::unique_ptr<vcd::BoardWaves> g_waves[2];
int g_halted = 0;

std::string board_name(int i) { return "b" + std::to_string(i); }
std::string uart_file(int i) { return "two_boards_uart_b" + std::to_string(i) + ".txt"; }
std::string vcd_file(int i) { return "two_boards_b" + std::to_string(i) + ".vcd"; }

void build() {
  for (int i = 0; i < 2; ++i) {
    PlatformConfig cfg;  // the GR-XC3S-1500 preset, as the golden's run
    cfg.set("uart.out", uart_file(i));
    cfg.set("energy.profile", kEnergy);
    cfg.validate();
    g_board[i] = std::make_unique<Leon3mp>(board_name(i).c_str(), cfg);
    Leon3mp& b = *g_board[i];
    b.load_elf(g_fw_dir + "/" + kProgram + ".elf");
    g_waves[i] =
        std::make_unique<vcd::BoardWaves>(b, vcd::default_signals(), b.image().region_names, board_name(i));
    g_waves[i]->open(vcd_file(i), {});
    b.boot_loader(b.image().entry);
    b.set_end_time(sc_core::sc_time(10, sc_core::SC_SEC));  // the golden's max_time
    b.set_on_halt([](Leon3mp&) {
      if (++g_halted == 2) sc_core::sc_stop();
    });
  }
}

json read_json(const std::string& path) {
  std::ifstream f(path);
  return json::parse(f);
}

std::string read_text(const std::string& path) {
  std::ifstream f(path);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

// The --stats path of each whole-run metric of a cycle golden
// (scripts/lib/l3vp/cycles.py RUN_METRICS) that a board's own statistics hold.
const std::pair<const char*, const char*> kMetrics[] = {
    {"instructions", "/instructions/total"},
    {"cycles", "/cycles"},
    {"idle_cycles", "/idle_cycles"},
    {"icache_misses", "/timing/icache/misses"},
    {"dcache_read_misses", "/timing/dcache/read_misses"},
    {"traps", "/traps"},
    {"stalls.load_use", "/timing/stalls/load_use"},
    {"stalls.branch", "/timing/stalls/branch"},
    {"stalls.muldiv", "/timing/stalls/muldiv"},
    {"stalls.icache_miss", "/timing/stalls/icache_miss"},
    {"stalls.dcache_miss", "/timing/stalls/dcache_miss"},
    {"stalls.write_buffer", "/timing/stalls/write_buffer"},
    {"stalls.bus", "/timing/stalls/bus"},
    {"energy_fj", "/energy/total_fj"},
};

// Runs the kernel once for all tests (both boards to their halt).
void run_once() {
  static bool done = false;
  if (done) return;
  done = true;
  sc_core::sc_start(sc_core::sc_time(10, sc_core::SC_SEC));
  for (auto& b : g_board)
    if (b->uart_out_file()) std::fflush(b->uart_out_file());
  for (auto& w : g_waves) EXPECT_EQ(w->close(), "");
}

TEST(TwoBoards, BothHaltWithTheExitOfOneBoardAlone) {
  run_once();
  EXPECT_EQ(g_halted, 2);
  for (auto& b : g_board) {
    EXPECT_TRUE(b->halt().halted) << b->name();
    EXPECT_EQ(b->halt().o0, 0u) << b->name();  // exit status 0, as the golden
  }
  EXPECT_EQ(g_board[0]->halt().pc, g_board[1]->halt().pc);
  EXPECT_EQ(g_board[0]->halt().tt, g_board[1]->halt().tt);
}

TEST(TwoBoards, EachBoardGivesTheSingleBoardGolden) {
  run_once();
  const json golden = read_json(g_golden_dir + "/" + kProgram + ".json").at("run");
  for (auto& b : g_board) {
    const json s = b->stats();
    for (const auto& [metric, path] : kMetrics) {
      const json::json_pointer ptr(path);
      ASSERT_TRUE(s.contains(ptr)) << b->name() << " has no " << path;
      EXPECT_EQ(s.at(ptr).dump(), golden.at(metric).dump()) << b->name() << ": " << metric;
    }
  }
}

TEST(TwoBoards, StatisticsAndUartOutputAreIdenticalAndTheirOwn) {
  run_once();
  EXPECT_EQ(g_board[0]->stats().dump(1), g_board[1]->stats().dump(1));
  const std::string out0 = read_text(uart_file(0)), out1 = read_text(uart_file(1));
  EXPECT_FALSE(out0.empty());
  EXPECT_EQ(out0, out1);
  // Each board's models are its own SystemC objects, named under it.
  EXPECT_STREQ(g_board[0]->greth.name(), "b0.greth");
  EXPECT_STREQ(g_board[1]->greth.name(), "b1.greth");
}

// A model's log message counts in its own board's statistics only.
TEST(TwoBoards, LogCountsAreEachBoardsOwn) {
  run_once();
  const json::json_pointer ge("/log/guest_errors");
  const uint64_t b0 = g_board[0]->stats().at(ge), b1 = g_board[1]->stats().at(ge);
  Log::enable(LogCat::GuestError, false);
  Log::guest_error(std::string(g_board[1]->greth.name()), "a test message");
  Log::enable(LogCat::GuestError, true);
  EXPECT_EQ(g_board[0]->stats().at(ge).get<uint64_t>(), b0);
  EXPECT_EQ(g_board[1]->stats().at(ge).get<uint64_t>(), b1 + 1);
}

TEST(TwoBoards, EachWaveformHasTheBoardsScopeAndTheSameChanges) {
  run_once();
  std::string body[2];
  for (int i = 0; i < 2; ++i) {
    const std::string vcd = read_text(vcd_file(i));
    const size_t end = vcd.find("$enddefinitions");
    ASSERT_NE(end, std::string::npos) << vcd_file(i);
    const std::string header = vcd.substr(0, end);
    EXPECT_NE(header.find("$scope module " + board_name(i) + " $end"), std::string::npos) << header;
    EXPECT_EQ(header.find("$scope module board $end"), std::string::npos) << header;
    EXPECT_EQ(header.find("$scope module " + board_name(1 - i) + " $end"), std::string::npos) << header;
    body[i] = vcd.substr(end);
  }
  EXPECT_GT(body[0].size(), 1000u);  // the timer program's IRQs, UART, regions
  EXPECT_EQ(body[0], body[1]);
}

}  // namespace

int sc_main(int argc, char** argv) {
  testing::InitGoogleTest(&argc, argv);
  if (argc < 3) {
    std::fprintf(stderr, "usage: test_two_boards FIRMWARE_DIR CYCLES_GOLDEN_DIR [gtest options]\n");
    return 2;
  }
  g_fw_dir = argv[1];
  g_golden_dir = argv[2];
  build();
  return RUN_ALL_TESTS();
}
