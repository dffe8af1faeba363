// The board's slot table (models/platform/board_slots.h): one row per
// instance, each from its file in models/platform/slots/; the board builds,
// binds and registers every enabled row's model, the configuration table
// takes every row's parameters, and an optional device is off unless its key
// enables it (docs/developer-guide.md "Add an APB device").
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <memory>
#include <set>

#include "board_slots.h"
#include "config.h"
#include "leon3mp.h"
#include "tb_util.h"

using namespace l3vp;

namespace {

bool has_key(const std::string& key) {
  for (const PlatformConfig::ParamInfo& p : PlatformConfig::params())
    if (p.key == key) return true;
  return false;
}

bool has_probe(const Leon3mp& b, const std::string& prefix) {
  for (const auto& e : b.probes().entries())
    if (e.name.rfind(prefix, 0) == 0) return true;
  return false;
}

// APB P&P record of slot `pindex` (word 0: the identification register).
uint32_t apb_pnp_id(Leon3mp& b, unsigned pindex) {
  return test::socket_read32(b.cpu.isock, 0x800FF000u + pindex * 8);
}

PlatformConfig quiet() {
  PlatformConfig cfg;
  cfg.set("uart.out", "");
  return cfg;
}

// Two boards, elaborated before the tests: the default configuration
// (optional devices off) and every optional device switched on.
std::unique_ptr<Leon3mp> off_board, on_board;
void build() {
  off_board = std::make_unique<Leon3mp>("off", quiet());
  PlatformConfig cfg = quiet();
  board_slots::enable_all(cfg);
  on_board = std::make_unique<Leon3mp>("on", cfg);
}

}  // namespace

TEST(BoardSlots, RowsAreOrderedByApbSlotAndUnique) {
  const auto& t = board_slots::table();
  ASSERT_GE(t.size(), 2u);
  std::set<std::string> names;
  for (size_t i = 0; i < t.size(); ++i) {
    EXPECT_TRUE(names.insert(t[i].name).second) << t[i].name;
    if (i) {
      EXPECT_LT(t[i - 1].pindex, t[i].pindex);
    }
    EXPECT_TRUE(bool(t[i].tlm)) << t[i].name << ": no built-in model";
  }
  ASSERT_NE(board_slots::find("gptimer"), nullptr);
  ASSERT_NE(board_slots::find("chksum"), nullptr);
  EXPECT_EQ(board_slots::find("gptimer")->pindex, 3u);
  EXPECT_EQ(board_slots::find("chksum")->pindex, 5u);
  EXPECT_EQ(board_slots::find("greth"), nullptr);  // a fixed member, not a slot
}

TEST(BoardSlots, EveryRowsParametersAreInTheConfigurationTable) {
  for (const SlotRow& s : board_slots::table()) {
    EXPECT_TRUE(has_key(s.name + ".model")) << s.name;
    for (const param::Spec* r : s.rows)
      EXPECT_TRUE(has_key(s.name + "." + r->key)) << s.name << "." << r->key;
    if (!s.enabled_by.empty()) {
      EXPECT_TRUE(has_key(s.enabled_by)) << s.enabled_by;
      EXPECT_FALSE(PlatformConfig().get<bool>(s.enabled_by)) << s.enabled_by << ": optional devices are off";
    }
  }
}

TEST(BoardSlots, AnOptionalDeviceIsOffUnlessEnabled) {
  Leon3mp& off = *off_board;
  EXPECT_EQ(off.device("chksum"), nullptr);
  EXPECT_EQ(off.chksum(), nullptr);
  EXPECT_EQ(apb_pnp_id(off, 5), 0u);  // no P&P record at its slot
  EXPECT_FALSE(off.stats()["devices"].contains("chksum"));
  EXPECT_FALSE(has_probe(off, "chksum."));
  ASSERT_NE(off.device("gptimer"), nullptr);  // always on (no enabled_by)

  EXPECT_TRUE(on_board->config().get<bool>("chksum.enable"));  // enable_all()
  Leon3mp& on = *on_board;
  ASSERT_NE(on.device("chksum"), nullptr);
  EXPECT_EQ(on.device("chksum"), on.chksum());
  EXPECT_EQ(apb_pnp_id(on, 5), on.device("chksum")->pnp().id);
  EXPECT_NE(apb_pnp_id(on, 5), 0u);
  EXPECT_TRUE(on.stats()["devices"].contains("chksum"));
  EXPECT_TRUE(has_probe(on, "chksum.op"));
  bool master = false;  // the row's bind_ahb: AHB master 5
  for (const AhbCtrl::MasterStats& m : on.ahb.master_stats()) master |= m.hindex == 5 && m.name == "chksum";
  EXPECT_TRUE(master);
}

// The listener table (board_listeners.h): every row's statistics are in each
// board's --stats under the row's prefix, from a listener of its own.
TEST(BoardListeners, EveryRowFeedsTheStatisticsOfEachBoard) {
  const auto& t = board_listeners::table();
  ASSERT_FALSE(t.empty());
  bool turnaround = false;
  for (const ListenerRow& r : t) {
    turnaround |= r.stats == "net.turnaround";
    std::string path = "/" + r.stats;  // "net.turnaround" -> /net/turnaround
    for (char& c : path)
      if (c == '.') c = '/';
    const nlohmann::json::json_pointer at(path);
    EXPECT_TRUE(off_board->stats().contains(at)) << r.stats;
    EXPECT_TRUE(on_board->stats().contains(at)) << r.stats;
  }
  EXPECT_TRUE(turnaround);
  EXPECT_EQ(off_board->stats()["net"]["turnaround"]["rx_frames"], 0);
}

TEST(BoardSlots, AModelNameIsCheckedAgainstTheVariants) {
  PlatformConfig cfg = quiet();
  cfg.set("gptimer.model", "nosuch");
  try {
    board_slots::check(cfg);
    FAIL() << "no error";
  } catch (const ConfigError& e) {
    EXPECT_STREQ(e.what(), "key 'gptimer.model': unknown model \"nosuch\" (known: tlm)");
  }
  SlotVariants::add("chksum", "stand_in", [](const char*, const PlatformConfig&) { return nullptr; });
  PlatformConfig c2 = quiet();
  c2.set("chksum.model", "stand_in");  // a variant, but the device is off
  try {
    board_slots::check(c2);
    FAIL() << "no error";
  } catch (const ConfigError& e) {
    EXPECT_STREQ(e.what(), "key 'chksum.model': \"stand_in\" needs chksum.enable=true");
  }
}

L3VP_SC_GTEST_MAIN(build)
