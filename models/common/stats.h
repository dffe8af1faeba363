// Statistics declared once: the registry that `leon3vp --stats` walks.
//
// A model keeps its plain counter struct (the hot path increments a
// uint64_t and nothing else) and registers each counter once, next to its
// declaration, with its JSON path, unit, a one-line description and whether
// it is invariant (identical for every --quantum and with or without
// --no-dmi). The registry then produces
//   * the --stats JSON (to_json(): every registered value read at that
//     moment, nested by its dotted path), and
//   * the schema (markdown(): the table of docs/stats-schema.md, printed by
//     `leon3vp --list-stats`; a test checks the document against it).
//
//   void Uart::register_stats(StatsGroup g) {
//     g.counter("tx_bytes", &tx_bytes_, StatUnit::Bytes, StatInv::Yes, "Characters transmitted.");
//   }
//   uart.register_stats(registry.root().sub("devices.uart"));
//
// Besides plain counters: value() for derived figures (a getter: ratios,
// sums, strings, whole JSON objects), vector() for a counter array with
// named elements (per instruction class), table() for an array of records
// whose rows are only known at the end (per region, per AHB master, per
// profiled function), and only_if() for parts that exist only with an
// option (--profile, --tap, ...). Registration happens once, before the
// run; getters are called only by to_json(), never on the hot path.
//
// A counter (or counter array) that should also be measured per firmware
// region says so in its registration, with its key in regions[]:
//   ic.counter("misses", &t.ic_misses, ...).per_region("icache_misses");
// Regions (models/platform/profiler.h) reads every figure so marked at each
// REGION_BEGIN/END store and registers the regions[] fields from the same
// list, so nothing else changes to add one.
#pragma once
#include <cstdint>
#include <functional>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace l3vp {

// Values wider than 64 bits: energies are 128-bit femtojoules
// (models/energy/README.md "Width"); counters convert to it implicitly.
using uint128 = unsigned __int128;
// The decimal digits of v.
std::string to_decimal(uint128 v);
// A counter's JSON: a number when it fits 64 bits (what every realistic run
// gives), else a marked string that stats_text() writes as the bare number,
// exactly (nlohmann::json holds at most 64-bit integers).
nlohmann::json wide_json(uint128 v);
// `j` as text (dump(indent)) with every wide value of wide_json() written as
// an exact JSON integer: how --stats is written.
std::string stats_text(const nlohmann::json& j, int indent);

// What a value measures (the schema's "Unit" column).
enum class StatUnit {
  Count,   // events
  Cycles,  // CPU/AMBA clock cycles
  Ps,      // simulated picoseconds
  Ns,      // simulated nanoseconds
  Bytes,
  Ratio,  // a quotient of two counts (e.g. CPI)
  Hz,
  Seconds,  // host wall-clock seconds
  Mips,     // host speed, million instructions per second
  Id,       // an identifier or index (region id, hindex, address, trap type)
  Flag,     // a boolean
  Text,     // a string
  Object,   // a JSON object or array described in the text
  Fj,       // energy, femtojoules (models/energy)
  Mw,       // power, milliwatts
};
const char* stat_unit_name(StatUnit u);

// Invariant: a simulated result, identical for every --quantum and with or
// without --no-dmi (the **(inv)** mark of docs/stats-schema.md; the
// cli.determinism.* tests enforce it).
enum class StatInv { No, Yes };

// One row of the schema.
struct StatInfo {
  std::string path;  // dotted JSON path; "a[]." inside a table; "{x,y}" for a vector's keys
  std::string type;  // int, number, string, bool, object, array, ...
  StatUnit unit = StatUnit::Count;
  StatInv inv = StatInv::No;
  std::string desc;
  bool optional = false;  // registered with only_if(): not in every --stats file
};

using StatCond = std::function<bool()>;

// A figure also kept per measured region (marked with StatDecl::per_region()).
struct RegionFigure {
  std::string name;                // its key in each regions[] record ("stalls.bus")
  std::vector<std::string> names;  // element names of a counter array; empty for a scalar
  StatUnit unit = StatUnit::Count;
  StatInv inv = StatInv::No;
  std::string desc;
  std::function<uint128(unsigned)> read;  // current value of element i (0 for a scalar)
};

namespace stats_detail {
struct TableBase;
// A registered value: its schema row, where it goes, how it is read (`row`
// is the table row for table fields, unused otherwise) and when it exists.
struct Entry {
  StatInfo info;
  std::vector<std::string> keys;  // path split at the dots (relative to the row in a table)
  std::function<nlohmann::json(const void* row)> get;
  std::vector<StatCond> conds;       // all must hold for the value to be written
  std::shared_ptr<TableBase> table;  // set for a table (get unused)
};
struct TableBase {
  virtual ~TableBase() = default;
  virtual nlohmann::json emit() const = 0;  // the JSON array
  std::vector<Entry> fields;
};
std::vector<std::string> split_path(const std::string& path);
void put(nlohmann::json& obj, const std::vector<std::string>& keys, nlohmann::json v);
std::string vector_path(const std::string& path, const std::vector<std::string>& names);
}  // namespace stats_detail

// A table: one JSON object per row, rows given by a function called when
// the JSON is written (e.g. the regions seen so far, by id).
template <class Row>
class StatTable : public stats_detail::TableBase {
 public:
  using Rows = std::function<std::vector<Row>()>;
  explicit StatTable(Rows rows) : rows_(std::move(rows)) {}

  // A field of each row; `name` may be dotted ("stalls.load_use").
  StatTable& field(const std::string& name, const char* type, StatUnit unit, StatInv inv, const char* desc,
                   std::function<nlohmann::json(const Row&)> get) {
    stats_detail::Entry e;
    e.info = StatInfo{name, type, unit, inv, desc};
    e.keys = stats_detail::split_path(name);
    e.get = [get = std::move(get)](const void* r) { return get(*static_cast<const Row*>(r)); };
    fields.push_back(std::move(e));
    return *this;
  }
  // A counter array in each row: object {names[i]: get(row, i)}.
  StatTable& vector(const std::string& name, const std::vector<std::string>& names, StatUnit unit,
                    StatInv inv, const char* desc, std::function<uint128(const Row&, unsigned)> get) {
    stats_detail::Entry e;
    e.info = StatInfo{stats_detail::vector_path(name, names), "int", unit, inv, desc};
    e.keys = stats_detail::split_path(name);
    e.get = [names, get = std::move(get)](const void* r) {
      nlohmann::json o = nlohmann::json::object();
      for (unsigned i = 0; i < names.size(); ++i)
        o[names[i]] = wide_json(get(*static_cast<const Row*>(r), i));
      return o;
    };
    fields.push_back(std::move(e));
    return *this;
  }

  nlohmann::json emit() const override {
    nlohmann::json out = nlohmann::json::array();
    for (const Row& r : rows_()) {
      nlohmann::json o = nlohmann::json::object();
      for (const stats_detail::Entry& f : fields) stats_detail::put(o, f.keys, f.get(&r));
      out.push_back(std::move(o));
    }
    return out;
  }

 private:
  Rows rows_;
};

class StatsRegistry;

// What counter() and vector() return, to add to the declaration.
class StatDecl {
 public:
  // Also measure this figure per firmware region: regions[].<name> is its
  // growth summed over the region's BEGIN..END pairs. `desc` is the schema's
  // text (default "As `<path>`."). Throws std::logic_error when `name` is taken.
  const StatDecl& per_region(const std::string& name, const char* desc = nullptr) const;

 private:
  friend class StatsGroup;
  StatDecl(StatsRegistry& reg, std::string path, RegionFigure f)
      : reg_(&reg), path_(std::move(path)), fig_(std::move(f)) {}
  StatsRegistry* reg_;
  std::string path_;  // the JSON path of the whole-run value
  RegionFigure fig_;  // name and desc unset
};

// Where a model registers: a path prefix in a registry, and the conditions
// under which its values exist. Cheap to copy; pass by value.
class StatsGroup {
 public:
  StatsGroup(StatsRegistry& reg, std::string prefix = {}, std::vector<StatCond> conds = {})
      : reg_(&reg), prefix_(std::move(prefix)), conds_(std::move(conds)) {}

  // A sub-group: "devices" then sub("uart") registers under devices.uart.
  StatsGroup sub(const std::string& name) const;
  // Values registered through the result exist only while `c()` is true
  // (e.g. only with --profile). Conditions add up.
  StatsGroup only_if(StatCond c) const;

  // A plain counter of the model (read when the JSON is written).
  StatDecl counter(const std::string& name, const uint64_t* c, StatUnit unit, StatInv inv,
                   const char* desc) const;
  // A counter read through a getter (kept elsewhere, e.g. the core's cycles;
  // 128 bits wide for energies).
  StatDecl counter(const std::string& name, std::function<uint128()> get, StatUnit unit, StatInv inv,
                   const char* desc) const;
  // A derived value: `get` returns what goes into the JSON.
  void value(const std::string& name, const char* type, StatUnit unit, StatInv inv, const char* desc,
             std::function<nlohmann::json()> get) const;
  // A counter array with named elements: object {names[i]: get(i)}.
  StatDecl vector(const std::string& name, const std::vector<std::string>& names, StatUnit unit, StatInv inv,
                  const char* desc, std::function<uint128(unsigned)> get) const;
  // An array of records; add its fields to the returned table.
  template <class Row>
  StatTable<Row>& table(const std::string& name, StatInv inv, const char* desc,
                        typename StatTable<Row>::Rows rows) const {
    auto t = std::make_shared<StatTable<Row>>(std::move(rows));
    add_table(name, inv, desc, t);
    return *t;
  }

  // Called at the start of every StatsRegistry::to_json(), before any value
  // is read: brings lazily kept counters up to date (gem5's prepare step).
  void prepare(std::function<void()> fn) const;

  const std::string& prefix() const { return prefix_; }
  StatsRegistry& registry() const { return *reg_; }

 private:
  std::string path(const std::string& name) const;
  void add_table(const std::string& name, StatInv inv, const char* desc,
                 std::shared_ptr<stats_detail::TableBase> t) const;

  StatsRegistry* reg_;
  std::string prefix_;
  std::vector<StatCond> conds_;
};

class StatsRegistry {
 public:
  StatsRegistry() = default;
  StatsRegistry(const StatsRegistry&) = delete;
  StatsRegistry& operator=(const StatsRegistry&) = delete;

  StatsGroup root() { return StatsGroup(*this); }

  // Adds one value; throws std::logic_error when the path is already taken
  // (or is the parent or child of a registered value): a programming error.
  void add(stats_detail::Entry e);
  void add_prepare(std::function<void()> fn) { prepare_.push_back(std::move(fn)); }
  // Runs the prepare functions (to_json() does; so does Regions at a mark).
  void prepare() const;

  // The figures marked per region, in registration order.
  void add_region_figure(RegionFigure f);
  const std::vector<RegionFigure>& region_figures() const { return region_figures_; }

  // Every registered value whose conditions hold, nested by path (after
  // the prepare functions ran, in registration order).
  nlohmann::json to_json() const;
  // Every row of the schema (tables: the table, then "table[].field" rows),
  // in registration order.
  std::vector<StatInfo> schema() const;
  // The schema as a Markdown table (leon3vp --list-stats).
  std::string markdown() const;

 private:
  std::vector<stats_detail::Entry> entries_;
  std::vector<std::function<void()>> prepare_;
  std::vector<RegionFigure> region_figures_;
};

// FNV-1a, 64 bits: the hash of the --stats version block (config, firmware).
// Not cryptographic: it tells runs apart, it does not authenticate them.
uint64_t fnv1a64(const void* data, size_t len, uint64_t h = 0xcbf29ce484222325ull);
// 16 lower-case hex digits.
std::string hex64(uint64_t v);
// The hash of a file's bytes; throws std::runtime_error when it cannot be read.
uint64_t fnv1a64_file(const std::string& path);

}  // namespace l3vp
