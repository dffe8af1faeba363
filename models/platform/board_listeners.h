// The board's listeners that feed --stats: one row per listener, each in a
// file of its own (models/platform/listeners/<name>.cpp, found by the
// build). A row says where its statistics go (`stats`, e.g.
// "net.turnaround") and how to make the listener for a board: the factory
// gets the built board and attaches to its probes (by name through
// Leon3mp::probes(), or to a model's Probe member). Leon3mp's constructor
// makes one of each per board, after every device, and registers its
// statistics under `stats`. A listener changes no result (cli.probes.*).
// docs/developer-guide.md "Add a probe listener".
#pragma once
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace l3vp {

class Leon3mp;
class StatsGroup;

class BoardListener {
 public:
  virtual ~BoardListener() = default;
  virtual void register_stats(const StatsGroup& g) = 0;
};

struct ListenerRow {
  std::string name;   // the row file's name
  std::string stats;  // JSON prefix of its statistics
  std::function<std::unique_ptr<BoardListener>(Leon3mp&)> make;
};

namespace board_listeners {
// Every row, by name.
const std::vector<ListenerRow>& table();
}  // namespace board_listeners

// A row file defines its row with
//   L3VP_BOARD_LISTENER(name) { ListenerRow r; r.name = "name"; ...; return r; }
#define L3VP_BOARD_LISTENER(name) ::l3vp::ListenerRow l3vp_board_listener_##name()

}  // namespace l3vp
