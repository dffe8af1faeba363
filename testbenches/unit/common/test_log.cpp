// Log (models/common/log.h): counts per category for the process and per
// scope (the first component of `who`, a board's name), bounded printing.
#include <gtest/gtest.h>

#include <string>
#include <systemc>  // sc_main

#include "log.h"

using namespace l3vp;

namespace {

class LogTest : public ::testing::Test {
 protected:
  void SetUp() override {
    Log::reset_counts();
    Log::enable(LogCat::GuestError, false);  // counted, not printed
    Log::enable(LogCat::Unimp, false);
  }
  void TearDown() override {
    Log::enable(LogCat::GuestError, true);
    Log::enable(LogCat::Unimp, true);
    Log::reset_counts();
  }
};

TEST_F(LogTest, CountsPerScopeAndForTheProcess) {
  Log::guest_error("b0.greth", "TXDESC written while the TX DMA is active");
  Log::guest_error("b0.apb", "write to empty APB slot at offset 0x10");
  Log::guest_error("b1.greth", "TXDESC written while the TX DMA is active");
  Log::unimp("b1.irqmp", "pulse on extended interrupt line 3 (eirq=0)");
  EXPECT_EQ(Log::count(LogCat::GuestError), 3u);
  EXPECT_EQ(Log::count(LogCat::GuestError, "b0"), 2u);
  EXPECT_EQ(Log::count(LogCat::GuestError, "b1"), 1u);
  EXPECT_EQ(Log::count(LogCat::Unimp, "b0"), 0u);
  EXPECT_EQ(Log::count(LogCat::Unimp, "b1"), 1u);
  EXPECT_EQ(Log::count(LogCat::GuestError, "b2"), 0u);        // never seen
  EXPECT_EQ(Log::count(LogCat::GuestError, "b0.greth"), 0u);  // a scope is a first component only
}

TEST_F(LogTest, AWhoWithoutADotIsItsOwnScope) {
  Log::guest_error("regions", "more than 1024 distinct region ids");
  EXPECT_EQ(Log::count(LogCat::GuestError, "regions"), 1u);
  EXPECT_EQ(Log::count(LogCat::GuestError), 1u);
}

TEST_F(LogTest, SuppressedLinesAreCountedPerScope) {
  Log::enable(LogCat::GuestError, true);
  testing::internal::CaptureStderr();
  for (unsigned i = 0; i < Log::kLinesPerKind + 5; ++i)
    Log::guest_error("b0.uart", "byte " + std::to_string(i));
  Log::guest_error("b1.uart", "byte 1");
  const std::string err = testing::internal::GetCapturedStderr();
  EXPECT_NE(err.find("leon3vp: guest-error: b1.uart: byte 1"), std::string::npos) << err;
  EXPECT_EQ(Log::suppressed(LogCat::GuestError, "b0"), 5u);
  EXPECT_EQ(Log::suppressed(LogCat::GuestError, "b1"), 0u);
  EXPECT_EQ(Log::suppressed(LogCat::GuestError), 5u);
}

TEST_F(LogTest, ScopesAreBoundedAndTheTotalsStillCountEverything) {
  for (unsigned i = 0; i < Log::kMaxScopes + 10; ++i) Log::unimp("s" + std::to_string(i) + ".dev", "x");
  EXPECT_EQ(Log::count(LogCat::Unimp), Log::kMaxScopes + 10);
  EXPECT_EQ(Log::count(LogCat::Unimp, "s0"), 1u);
  EXPECT_EQ(Log::count(LogCat::Unimp, "s" + std::to_string(Log::kMaxScopes - 1)), 1u);
  EXPECT_EQ(Log::count(LogCat::Unimp, "s" + std::to_string(Log::kMaxScopes)), 0u);  // beyond the table
}

TEST_F(LogTest, ResetClearsEveryScope) {
  Log::guest_error("b0.greth", "x");
  Log::reset_counts();
  EXPECT_EQ(Log::count(LogCat::GuestError, "b0"), 0u);
  EXPECT_EQ(Log::count(LogCat::GuestError), 0u);
}

}  // namespace

int sc_main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
