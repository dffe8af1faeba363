#include "messages.h"

#include <cstdio>
#include <systemc>

namespace l3vp::sim {

void bad_input(const std::string& what) { throw Exit{kExitBadInput, what}; }

void done_early(int code) { throw Exit{code, std::string()}; }

std::string one_line(std::string s) {
  for (char& c : s)
    if (c == '\n' || c == '\r') c = ' ';
  while (!s.empty() && s.back() == ' ') s.pop_back();
  return s;
}

int fail(int code, const std::string& what) {
  std::fflush(stdout);
  std::fprintf(stderr, "leon3vp: %s%s\n",
               code == kExitInternal ? "internal error: " : "error: ", one_line(what).c_str());
  return code;
}

namespace {

bool g_quiet = false;

void report_handler(const sc_core::sc_report& rep, const sc_core::sc_actions& actions) {
  if ((actions & sc_core::SC_DISPLAY) && !g_quiet)
    std::fprintf(stderr, "leon3vp: systemc: %s%s%s\n", rep.get_msg_type(), *rep.get_msg() ? ": " : "",
                 one_line(rep.get_msg()).c_str());
  if (actions & sc_core::SC_THROW) throw rep;
}

}  // namespace

void set_systemc_quiet(bool quiet) { g_quiet = quiet; }

void setup_systemc_reports() {
  using namespace sc_core;
  sc_report_handler::set_handler(report_handler);
  sc_report_handler::set_actions(SC_INFO, SC_DO_NOTHING);
  sc_report_handler::set_actions(SC_WARNING, SC_DISPLAY);
  sc_report_handler::set_actions(SC_ERROR, SC_THROW);
  sc_report_handler::set_actions(SC_FATAL, SC_THROW);
}

}  // namespace l3vp::sim
