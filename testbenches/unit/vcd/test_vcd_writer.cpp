// vcd::Writer (sim/vcd/vcd_writer.h): changes recorded out of time order
// come out sorted, one value per signal and time (the last recorded wins),
// ordered streams merge with the general buffer, add_delta accumulates in
// time order, late changes are counted and placed at the earliest open
// time, the window dumps the values at its start, strings are GTKWave
// "string" variables. Every test reads the file back and compares the exact
// text (the value-change part after $enddefinitions, or the whole header).
#include <gtest/gtest.h>
#include <unistd.h>

#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>

#include "vcd_writer.h"

namespace l3vp::vcd {
namespace {

std::string tmp_path(const std::string& tag) {
  return "/tmp/l3vp_test_vcd_" + std::to_string(::getpid()) + "_" + tag + ".vcd";
}

std::string slurp(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  std::stringstream s;
  s << f.rdbuf();
  return s.str();
}

// The value changes (everything after the header).
std::string body(const std::string& text) {
  const std::string mark = "$enddefinitions $end\n";
  const size_t p = text.find(mark);
  return p == std::string::npos ? "<no header>" : text.substr(p + mark.size());
}

// A writer with three signals in two scopes: a wire (code !), an 8-bit
// vector (") and a string (#).
struct Bench {
  Writer w;
  Writer::Sig a, v, s;
  std::string path;
  explicit Bench(const std::string& tag) : path(tmp_path(tag)) {
    a = w.add("top", "a", 1);
    v = w.add("top.sub", "v", 8);
    s = w.add("top", "s", 0);
  }
  ~Bench() { std::remove(path.c_str()); }
  void open() { w.open(path, 1, {}); }
  std::string finish(uint64_t end) {
    EXPECT_EQ(w.close(end), "");
    return body(slurp(path));
  }
};

const std::string kDump0 = "#0\n$dumpvars\n0!\nb0 \"\ns- #\n$end\n";

TEST(VcdWriter, HeaderScopesAndTypes) {
  Bench b("header");
  b.w.open(b.path, 1000, {"made by a test"});
  EXPECT_EQ(b.w.close(0), "");
  EXPECT_EQ(slurp(b.path),
            "$comment\n  made by a test\n$end\n"
            "$timescale 1ns $end\n"
            "$scope module top $end\n"
            "$var wire 1 ! a $end\n"
            "$var string 1 # s $end\n"
            "$scope module sub $end\n"
            "$var reg 8 \" v $end\n"
            "$upscope $end\n"
            "$upscope $end\n"
            "$enddefinitions $end\n" +
                kDump0);
}

TEST(VcdWriter, OutOfOrderChangesComeOutSorted) {
  Bench b("sorted");
  b.open();
  b.w.change(300, b.a, 0);
  b.w.change(100, b.a, 1);
  b.w.change(200, b.v, 5);
  b.w.change(100, b.v, 2);
  b.w.flush(1000);
  EXPECT_EQ(b.w.late(), 0u);
  // Within one time: declaration order (a before v), not recording order.
  EXPECT_EQ(b.finish(1000), kDump0 + "#100\n1!\nb10 \"\n#200\nb101 \"\n#300\n0!\n#1000\n");
}

TEST(VcdWriter, SameTimeLastRecordedWins) {
  Bench b("last_wins");
  b.open();
  b.w.change(100, b.v, 3);
  b.w.change(100, b.a, 1);
  b.w.change(100, b.v, 7);
  b.w.change(100, b.a, 0);
  b.w.change(100, b.a, 1);
  // A pulse that starts and ends at one time leaves no trace, and a value
  // equal to the current one writes nothing (no "#200").
  b.w.change(200, b.v, 9);
  b.w.change(200, b.v, 7);
  b.w.change(300, b.a, 0);
  EXPECT_EQ(b.finish(300), kDump0 + "#100\n1!\nb111 \"\n#300\n0!\n");
}

TEST(VcdWriter, VectorValuesAreMaskedToTheWidth) {
  Bench b("mask");
  b.open();
  b.w.change(100, b.v, 0x1ff);
  b.w.change(200, b.a, 2);  // a wire keeps bit 0
  EXPECT_EQ(b.finish(200), kDump0 + "#100\nb11111111 \"\n#200\n");
}

TEST(VcdWriter, StreamsMergeWithTheGeneralBuffer) {
  Bench b("streams");
  const Writer::Stream st = b.w.add_stream(), st2 = b.w.add_stream();
  b.open();
  b.w.change(st, 100, b.v, 1);
  b.w.change(st, 200, b.v, 2);
  b.w.change(st, 150, b.v, 9);  // breaks the stream's order: general buffer
  b.w.change(150, b.a, 1);
  b.w.change(st2, 120, b.s, b.w.string_value("dma"));
  b.w.change(st2, 250, b.s, b.w.string_value("cpu"));
  b.w.flush(220);
  b.w.change(st, 300, b.v, 3);
  b.w.flush(1000);
  EXPECT_EQ(b.w.late(), 0u);
  EXPECT_EQ(b.finish(1000), kDump0 +
                                "#100\nb1 \"\n#120\nsdma #\n#150\n1!\nb1001 \"\n#200\nb10 \"\n"
                                "#250\nscpu #\n#300\nb11 \"\n#1000\n");
}

TEST(VcdWriter, AddDeltaAppliesInTimeOrder) {
  Bench b("delta");
  b.open();
  b.w.add_delta(200, b.v, -2);
  b.w.add_delta(100, b.v, +1);
  b.w.add_delta(100, b.v, +1);
  b.w.add_delta(50, b.v, +1);
  b.w.add_delta(300, b.v, -1);
  b.w.add_delta(400, b.v, -1);  // wraps, masked to 8 bits
  b.w.change(500, b.v, 4);      // a set, then a delta at the same time
  b.w.add_delta(500, b.v, +2);
  EXPECT_EQ(
      b.finish(500),
      kDump0 + "#50\nb1 \"\n#100\nb11 \"\n#200\nb1 \"\n#300\nb0 \"\n#400\nb11111111 \"\n#500\nb110 \"\n");
}

TEST(VcdWriter, LateChangesAreCountedAndPlacedAtTheEarliestOpenTime) {
  Bench b("late");
  const Writer::Stream st = b.w.add_stream();
  b.open();
  b.w.change(100, b.a, 1);
  b.w.flush(500);
  b.w.change(200, b.a, 0);      // dated before the horizon already written
  b.w.change(st, 300, b.v, 2);  // a stream's change before the horizon, too
  b.w.change(600, b.v, 1);
  b.w.flush(1000);
  EXPECT_EQ(b.w.late(), 2u);
  EXPECT_EQ(b.finish(1000), kDump0 + "#100\n1!\n#501\n0!\nb10 \"\n#600\nb1 \"\n#1000\n");
}

TEST(VcdWriter, WindowDumpsTheValuesAtItsStart) {
  Bench b("window");
  b.w.set_window(200, 400);
  b.open();
  b.w.change(100, b.a, 1);
  b.w.change(150, b.v, 3);
  b.w.change(150, b.s, "before");
  b.w.change(250, b.v, 4);
  b.w.change(400, b.a, 0);
  b.w.change(450, b.v, 5);  // after the window: not written
  EXPECT_EQ(b.finish(1000), "#200\n$dumpvars\n1!\nb11 \"\nsbefore #\n$end\n#250\nb100 \"\n#400\n0!\n");
}

TEST(VcdWriter, WindowWithoutChangesStillDumpsAndEnds) {
  Bench b("window_quiet");
  b.w.set_window(200, 400);
  b.open();
  b.w.change(100, b.a, 1);
  EXPECT_EQ(b.finish(1000), "#200\n$dumpvars\n1!\nb0 \"\ns- #\n$end\n#400\n");
}

TEST(VcdWriter, StringValues) {
  Bench b("strings");
  b.open();
  b.w.change(100, b.s, "net.driver");
  b.w.change(200, b.s, "two words");  // no spaces in a VCD token
  b.w.change(300, b.s, "");           // empty: "-"
  b.w.change(400, b.s, "net.driver");
  EXPECT_EQ(b.finish(400),
            kDump0 + "#100\nsnet.driver #\n#200\nstwo_words #\n#300\ns- #\n#400\nsnet.driver #\n");
}

TEST(VcdWriter, CloseEndsAtTheLastChangeAtTheLeast) {
  Bench b("end");
  b.open();
  b.w.change(700, b.a, 1);
  EXPECT_EQ(b.finish(500), kDump0 + "#700\n1!\n");
}

TEST(VcdWriter, WriteErrorIsReportedByClose) {
  Writer w;
  const Writer::Sig a = w.add("top", "a", 1);
  w.open("/dev/full", 1, {});
  w.change(100, a, 1);
  EXPECT_EQ(w.close(100), "No space left on device");
}

// --vcd-max-size: the file ends after the last whole time group that leaves
// room for the closing note, with the note ($comment) naming the time of the
// first group left out; nothing after it, whatever is recorded later.
TEST(VcdWriter, SizeCapEndsAtATimeBoundaryWithANote) {
  auto record = [](Bench& b) {
    b.w.change(10, b.a, 1);
    b.w.change(20, b.v, 5);
    b.w.change(20, b.s, std::string_view("go"));
    b.w.flush(25);
    b.w.change(30, b.a, 0);  // after the cap: dropped
  };
  Bench full("cap_full");
  full.open();
  record(full);
  ASSERT_EQ(full.w.close(40), "");
  const std::string whole = slurp(full.path);
  const std::string upto10 = whole.substr(0, whole.find("#20\n"));
  ASSERT_EQ(upto10.substr(upto10.size() - 7), "#10\n1!\n");

  Bench cut("cap_cut");
  const uint64_t cap = upto10.size() + Writer::truncation_note(uint64_t(1e6), UINT64_MAX).size();
  cut.w.set_max_bytes(cap);
  cut.open();
  record(cut);
  EXPECT_FALSE(cut.w.truncated()) << "nothing is cut before the group is complete";
  ASSERT_EQ(cut.w.close(40), "");
  const std::string text = slurp(cut.path);
  EXPECT_EQ(text, upto10 + Writer::truncation_note(cap, 20));
  EXPECT_LE(text.size(), cap);
  EXPECT_TRUE(cut.w.truncated());
  EXPECT_EQ(cut.w.truncated_at(), 20u);
  EXPECT_EQ(Writer::truncation_note(100, 20),
            "$comment\n  truncated at --vcd-max-size (100 bytes): nothing from #20 on is written; "
            "the run went on to its end\n$end\n");
}

// A cap the header alone exceeds: the header and the note, no change.
TEST(VcdWriter, SizeCapBelowTheHeaderKeepsTheHeader) {
  Bench b("cap_tiny");
  b.w.set_max_bytes(1);
  b.open();
  b.w.change(10, b.a, 1);
  ASSERT_EQ(b.w.close(10), "");
  EXPECT_EQ(body(slurp(b.path)), Writer::truncation_note(1, 0));
}

TEST(VcdWriter, BadUse) {
  Writer w;
  EXPECT_THROW(w.add("top", "wide", 65), std::invalid_argument);
  w.add("top", "a", 1);
  EXPECT_THROW(w.open("/nonexistent/dir/x.vcd", 1, {}), std::runtime_error);
  EXPECT_THROW(w.open(tmp_path("bad_scale"), 10, {}), std::invalid_argument);
  const std::string p = tmp_path("after_open");
  w.open(p, 1, {});
  EXPECT_THROW(w.add("top", "b", 1), std::logic_error);
  EXPECT_EQ(w.close(0), "");
  std::remove(p.c_str());
}

}  // namespace
}  // namespace l3vp::vcd
