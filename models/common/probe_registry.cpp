#include "probe_registry.h"

#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <set>
#include <stdexcept>

namespace l3vp {

// --- ProbeText ---------------------------------------------------------------

ProbeText::ProbeText(const sc_core::sc_time& cycle_period) : period_ps_(to_ps(cycle_period)) {}

uint64_t ProbeText::to_ps(const sc_core::sc_time& t) {
  static const uint64_t per_ps = sc_core::sc_time(1, sc_core::SC_PS).value();
  return t.value() / per_ps;
}

void ProbeText::key(const char* k) {
  if (!fields_.empty()) fields_ += ' ';
  fields_ += k;
  fields_ += '=';
}

ProbeText& ProbeText::num(const char* k, uint64_t v) {
  key(k);
  fields_ += std::to_string(v);
  return *this;
}

ProbeText& ProbeText::hex(const char* k, uint32_t v, unsigned digits) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "0x%0*" PRIx32, int(digits > 8 ? 8 : digits), v);
  key(k);
  fields_ += buf;
  return *this;
}

ProbeText& ProbeText::flag(const char* k, bool v) {
  key(k);
  fields_ += v ? '1' : '0';
  return *this;
}

ProbeText& ProbeText::time(const char* k, const sc_core::sc_time& t) { return num(k, to_ps(t)); }

ProbeText& ProbeText::word(const char* k, const char* v) {
  key(k);
  fields_ += v;
  return *this;
}

std::string ProbeText::line(const std::string& name) const {
  std::string s = std::to_string(ps_) + " ps " + name;
  if (!fields_.empty()) s += ' ' + fields_;
  return s;
}

// --- ProbeRegistry -----------------------------------------------------------

void ProbeRegistry::insert(Entry e) {
  if (find(e.name)) throw std::logic_error("probe '" + e.name + "' registered twice");
  entries_.push_back(std::move(e));
}

const ProbeRegistry::Entry* ProbeRegistry::find(const std::string& name) const {
  for (const Entry& e : entries_)
    if (e.name == name) return &e;
  return nullptr;
}

std::vector<const ProbeRegistry::Entry*> ProbeRegistry::match(const std::string& pattern) const {
  std::vector<const Entry*> out;
  const bool glob = !pattern.empty() && pattern.back() == '*';
  const std::string stem = glob ? pattern.substr(0, pattern.size() - 1) : pattern;
  if (stem.find('*') != std::string::npos) return out;  // only one trailing '*'
  for (const Entry& e : entries_)
    if (glob ? e.name.compare(0, stem.size(), stem) == 0 : e.name == stem) out.push_back(&e);
  return out;
}

std::string ProbeRegistry::prefixes() const {
  std::set<std::string> p;
  for (const Entry& e : entries_) p.insert(e.name.substr(0, e.name.find('.')));
  std::string s;
  for (const std::string& x : p) s += (s.empty() ? "" : ", ") + x;
  return s;
}

std::string ProbeRegistry::listing() const {
  std::string s;
  for (const Entry& e : entries_) s += e.name + ":" + (e.fields.empty() ? "" : " " + e.fields) + '\n';
  return s;
}

}  // namespace l3vp
