// A core built with an extension row in a base row's slot
// (isa_ext/clash.def: CPXOP at op = 2, op3 = 0x36, the slot of CPOP1) does
// not start: constructing it throws one line naming both rows, their files and
// lines, and the encoding. The leon3vp command line prints that line and
// exits with its internal-error status.
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>

#include "core_harness.h"

namespace l3vp::leon3::test {
namespace {

TEST(IsaClash, StartupNamesBothRows) {
  RamBus bus;
  std::string msg;
  try {
    Core core(CoreConfig{}, bus);
  } catch (const std::logic_error& e) {
    msg = e.what();
  }
  SCOPED_TRACE(msg);
  EXPECT_EQ(msg.rfind("instruction table: rows CPXOP (", 0), 0u);
  EXPECT_NE(msg.find("testbenches/unit/cpu/isa_ext/clash.def:4) and CPOP1 ("), std::string::npos);
  EXPECT_NE(msg.find("models/cpu/leon3/isa/sparcv8.def:"), std::string::npos);
  EXPECT_NE(msg.find(") both decode op=2 op3=0x36"), std::string::npos);
  EXPECT_EQ(msg.find('\n'), std::string::npos);
  // Every later use of the decoder is refused the same way.
  EXPECT_THROW(Core::mnemonic(0), std::logic_error);
}

}  // namespace
}  // namespace l3vp::leon3::test
