#include "stats.h"

#include <cstdio>
#include <fstream>
#include <stdexcept>

namespace l3vp {

const char* stat_unit_name(StatUnit u) {
  switch (u) {
    case StatUnit::Count:
      return "count";
    case StatUnit::Cycles:
      return "cycles";
    case StatUnit::Ps:
      return "ps";
    case StatUnit::Ns:
      return "ns";
    case StatUnit::Bytes:
      return "bytes";
    case StatUnit::Ratio:
      return "ratio";
    case StatUnit::Hz:
      return "Hz";
    case StatUnit::Seconds:
      return "s (host)";
    case StatUnit::Mips:
      return "MIPS (host)";
    case StatUnit::Id:
      return "id";
    case StatUnit::Flag:
      return "flag";
    case StatUnit::Text:
      return "text";
    case StatUnit::Object:
      return "-";
    case StatUnit::Fj:
      return "fJ";
    case StatUnit::Mw:
      return "mW";
  }
  return "?";
}

namespace {
// Marks a wide value in the JSON tree until stats_text() writes it: a string
// no registered value produces (it starts with a NUL, which C strings, ELF
// symbol names and file names cannot hold).
const std::string kWideMark = std::string(1, '\0') + "l3vp-uint128:";
}  // namespace

std::string to_decimal(uint128 v) {
  std::string d;
  do {
    d.insert(d.begin(), char('0' + unsigned(v % 10)));
    v /= 10;
  } while (v);
  return d;
}

nlohmann::json wide_json(uint128 v) {
  if (v <= UINT64_MAX) return nlohmann::json(uint64_t(v));
  return nlohmann::json(kWideMark + to_decimal(v));
}

std::string stats_text(const nlohmann::json& j, int indent) {
  const std::string s = j.dump(indent);
  const std::string open = nlohmann::json(kWideMark).dump();  // as dump() writes it, quotes included
  const std::string mark = open.substr(0, open.size() - 1);   // without the closing quote
  std::string out;
  size_t at = 0;
  for (size_t k = s.find(mark); k != std::string::npos; k = s.find(mark, k + 1)) {
    const size_t digits = k + mark.size(), end = s.find_first_not_of("0123456789", digits);
    if (end == digits || end == std::string::npos || s[end] != '"') continue;  // not one of ours
    out.append(s, at, k - at).append(s, digits, end - digits);
    at = end + 1;
  }
  return out.append(s, at, std::string::npos);
}

namespace stats_detail {

std::vector<std::string> split_path(const std::string& path) {
  std::vector<std::string> keys;
  size_t start = 0;
  for (;;) {
    const size_t dot = path.find('.', start);
    keys.push_back(path.substr(start, dot - start));
    if (dot == std::string::npos) break;
    start = dot + 1;
  }
  return keys;
}

void put(nlohmann::json& obj, const std::vector<std::string>& keys, nlohmann::json v) {
  nlohmann::json* node = &obj;
  for (size_t i = 0; i + 1 < keys.size(); ++i) node = &(*node)[keys[i]];  // null becomes an object
  (*node)[keys.back()] = std::move(v);
}

std::string vector_path(const std::string& path, const std::vector<std::string>& names) {
  std::string s = path + ".{";
  for (size_t i = 0; i < names.size(); ++i) s += (i ? "," : "") + names[i];
  return s + "}";
}

}  // namespace stats_detail

// ---------------------------------------------------------------- StatsGroup

std::string StatsGroup::path(const std::string& name) const {
  return prefix_.empty() ? name : name.empty() ? prefix_ : prefix_ + "." + name;
}

StatsGroup StatsGroup::sub(const std::string& name) const { return StatsGroup(*reg_, path(name), conds_); }

StatsGroup StatsGroup::only_if(StatCond c) const {
  std::vector<StatCond> conds = conds_;
  conds.push_back(std::move(c));
  return StatsGroup(*reg_, prefix_, std::move(conds));
}

void StatsGroup::prepare(std::function<void()> fn) const { reg_->add_prepare(std::move(fn)); }

StatDecl StatsGroup::counter(const std::string& name, const uint64_t* c, StatUnit unit, StatInv inv,
                             const char* desc) const {
  value(name, "int", unit, inv, desc, [c] { return nlohmann::json(*c); });
  return StatDecl(*reg_, path(name), RegionFigure{{}, {}, unit, inv, {}, [c](unsigned) { return *c; }});
}

StatDecl StatsGroup::counter(const std::string& name, std::function<uint128()> get, StatUnit unit,
                             StatInv inv, const char* desc) const {
  value(name, "int", unit, inv, desc, [get] { return wide_json(get()); });
  return StatDecl(*reg_, path(name), RegionFigure{{}, {}, unit, inv, {}, [get](unsigned) { return get(); }});
}

void StatsGroup::value(const std::string& name, const char* type, StatUnit unit, StatInv inv,
                       const char* desc, std::function<nlohmann::json()> get) const {
  stats_detail::Entry e;
  e.info = StatInfo{path(name), type, unit, inv, desc};
  e.keys = stats_detail::split_path(e.info.path);
  e.get = [get = std::move(get)](const void*) { return get(); };
  e.conds = conds_;
  reg_->add(std::move(e));
}

StatDecl StatsGroup::vector(const std::string& name, const std::vector<std::string>& names, StatUnit unit,
                            StatInv inv, const char* desc, std::function<uint128(unsigned)> get) const {
  RegionFigure f{{}, names, unit, inv, {}, get};
  stats_detail::Entry e;
  e.info = StatInfo{stats_detail::vector_path(path(name), names), "int", unit, inv, desc};
  e.keys = stats_detail::split_path(path(name));
  e.get = [names, get = std::move(get)](const void*) {
    nlohmann::json o = nlohmann::json::object();
    for (unsigned i = 0; i < names.size(); ++i) o[names[i]] = wide_json(get(i));
    return o;
  };
  e.conds = conds_;
  reg_->add(std::move(e));
  return StatDecl(*reg_, path(name), std::move(f));
}

const StatDecl& StatDecl::per_region(const std::string& name, const char* desc) const {
  RegionFigure f = fig_;
  f.name = name;
  f.desc = desc ? std::string(desc) : "As `" + path_ + "`.";
  reg_->add_region_figure(std::move(f));
  return *this;
}

void StatsGroup::add_table(const std::string& name, StatInv inv, const char* desc,
                           std::shared_ptr<stats_detail::TableBase> t) const {
  stats_detail::Entry e;
  e.info = StatInfo{path(name), "array", StatUnit::Object, inv, desc};
  e.keys = stats_detail::split_path(e.info.path);
  e.conds = conds_;
  e.table = std::move(t);
  reg_->add(std::move(e));
}

// ---------------------------------------------------------------- StatsRegistry

namespace {
// a is b, or one is a prefix (by whole keys) of the other.
bool overlaps(const std::vector<std::string>& a, const std::vector<std::string>& b) {
  const size_t n = std::min(a.size(), b.size());
  for (size_t i = 0; i < n; ++i)
    if (a[i] != b[i]) return false;
  return true;
}
}  // namespace

void StatsRegistry::add(stats_detail::Entry e) {
  for (const std::string& k : e.keys)
    if (k.empty()) throw std::logic_error("stats: empty key in path '" + e.info.path + "'");
  for (const stats_detail::Entry& x : entries_)
    if (overlaps(x.keys, e.keys))
      throw std::logic_error("stats: '" + e.info.path + "' collides with '" + x.info.path + "'");
  entries_.push_back(std::move(e));
}

void StatsRegistry::add_region_figure(RegionFigure f) {
  const std::vector<std::string> keys = stats_detail::split_path(f.name);
  for (const std::string& k : keys)
    if (k.empty()) throw std::logic_error("stats: empty key in per-region name '" + f.name + "'");
  for (const RegionFigure& x : region_figures_)
    if (overlaps(stats_detail::split_path(x.name), keys))
      throw std::logic_error("stats: per-region '" + f.name + "' collides with '" + x.name + "'");
  region_figures_.push_back(std::move(f));
}

void StatsRegistry::prepare() const {
  for (const auto& fn : prepare_) fn();
}

nlohmann::json StatsRegistry::to_json() const {
  prepare();
  nlohmann::json out = nlohmann::json::object();
  for (const stats_detail::Entry& e : entries_) {
    bool on = true;
    for (const StatCond& c : e.conds) on = on && c();
    if (!on) continue;
    stats_detail::put(out, e.keys, e.table ? e.table->emit() : e.get(nullptr));
  }
  return out;
}

std::vector<StatInfo> StatsRegistry::schema() const {
  std::vector<StatInfo> rows;
  for (const stats_detail::Entry& e : entries_) {
    rows.push_back(e.info);
    rows.back().optional = !e.conds.empty();
    if (!e.table) continue;
    for (const stats_detail::Entry& f : e.table->fields) {
      StatInfo r = f.info;
      r.path = e.info.path + "[]." + r.path;
      r.optional = !e.conds.empty();
      rows.push_back(r);
    }
  }
  return rows;
}

std::string StatsRegistry::markdown() const {
  // Table cells: a '|' would end the cell.
  auto cell = [](const std::string& s) {
    std::string o;
    for (char c : s) o += c == '|' ? std::string("\\|") : std::string(1, c);
    return o;
  };
  // "(optional)": the key exists only in some runs (only_if()).
  std::string s = "| Key | Type | Unit | Inv | Meaning |\n|---|---|---|---|---|\n";
  for (const StatInfo& r : schema())
    s += "| `" + cell(r.path) + "` | " + cell(r.type) + (r.optional ? " (optional)" : "") + " | " +
         stat_unit_name(r.unit) + " | " + (r.inv == StatInv::Yes ? "**inv**" : "") + " | " + cell(r.desc) +
         " |\n";
  return s;
}

// ---------------------------------------------------------------- hashes

uint64_t fnv1a64(const void* data, size_t len, uint64_t h) {
  const auto* p = static_cast<const unsigned char*>(data);
  for (size_t i = 0; i < len; ++i) {
    h ^= p[i];
    h *= 0x100000001b3ull;
  }
  return h;
}

std::string hex64(uint64_t v) {
  char b[17];
  std::snprintf(b, sizeof b, "%016llx", static_cast<unsigned long long>(v));
  return b;
}

uint64_t fnv1a64_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read '" + path + "'");
  uint64_t h = fnv1a64(nullptr, 0);
  char buf[65536];
  while (in) {
    in.read(buf, sizeof buf);
    h = fnv1a64(buf, static_cast<size_t>(in.gcount()), h);
  }
  return h;
}

}  // namespace l3vp
