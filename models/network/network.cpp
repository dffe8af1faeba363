// sc_spawn (the drain after the last halt) needs the dynamic processes.
#define SC_INCLUDE_DYNAMIC_PROCESSES
#include "network.h"

#include <algorithm>
#include <iostream>

#include "elf_loader.h"
#include "energy_profile.h"
#include "fw_params.h"
#include "units.h"

namespace l3vp::net {

using host::TopoEnd;
using host::TopoLink;

namespace {

bool is_board(const TopoEnd& e, size_t i) { return e.kind == TopoEnd::Kind::kBoard && e.index == i; }

}  // namespace

Network::Network(const host::Topology& t, const PlatformConfig& base, UartLine uart_line)
    : t_(t), uart_line_(std::move(uart_line)) {
  uart_pending_.resize(t_.boards.size());
  at_halt_.resize(t_.boards.size());
  for (size_t i = 0; i < t_.boards.size(); ++i) build_board(i, base);
  for (const host::TopoHost& h : t_.hosts) {
    hosts_.push_back(std::make_unique<host::SimHost>(h.name.c_str(), h.s.host, h.s.tcp));
    runners_.push_back(std::make_unique<host::ScenarioRunner>(*hosts_.back(), h.s));
  }
  for (const host::TopoSwitch& s : t_.switches) {
    switches_.push_back(std::make_unique<EthSwitch>(s.name.c_str(), s.p));
    switches_.back()->register_stats(switch_stats_.root().sub(s.name));
  }
  for (const host::TopoTap& tp : t_.taps) {
    TapParams p;
    p.ifname = tp.device;
    p.netns = tp.device;  // scripts/netns-tap up NAME: device NAME in namespace NAME
    p.realtime = true;
    try {
      taps_.push_back(std::make_unique<TapEndpoint>(tp.name.c_str(), p));
    } catch (const std::exception& e) {
      throw NetworkError("tap " + tp.name + ": " + e.what());
    }
    TapEndpoint::register_stats(tap_stats_.root().sub(tp.name), taps_.back().get());
  }
  cables_.resize(t_.links.size(), nullptr);
  for (size_t k = 0; k < t_.links.size(); ++k) wire(k);
}

Network::~Network() = default;

long Network::own_cable(size_t board, bool& is_b) const {
  for (size_t k = 0; k < t_.links.size(); ++k) {
    const TopoLink& l = t_.links[k];
    is_b = false;
    if (is_board(l.a, board)) return long(k);
    is_b = true;
    if (is_board(l.b, board) && l.a.kind != TopoEnd::Kind::kBoard) return long(k);
  }
  return -1;
}

PlatformConfig Network::board_config(size_t i, const PlatformConfig& base) const {
  const host::TopoBoard& b = t_.boards[i];
  PlatformConfig cfg = base;
  try {
    for (const std::string& kv : b.sets) cfg.set_arg(kv);
    if (!b.energy.empty()) cfg.set("energy.profile", b.energy);
    cfg.set("net.mac", format_mac(b.mac.data()));
    bool is_b = false;
    const long k = own_cable(i, is_b);
    if (k >= 0) {
      EthLinkParams p = t_.links[size_t(k)].p;  // end 0 of a board's own link is its GRETH
      if (is_b) std::swap(p.imp[0], p.imp[1]);
      cfg.put("net", EthLinkParams::rows(), p);
    }
    cfg.validate();
  } catch (const ConfigError& e) {
    throw NetworkError("board " + b.name + ": config: " + e.what());
  }
  return cfg;
}

void Network::build_board(size_t i, const PlatformConfig& base) {
  const host::TopoBoard& b = t_.boards[i];
  const PlatformConfig cfg = board_config(i, base);
  const std::string where = "board " + b.name + ": ";
  try {
    boards_.push_back(std::make_unique<Leon3mp>(b.name.c_str(), cfg));
    Leon3mp& plat = *boards_.back();
    plat.load_elf(b.elf);
    const auto& syms = plat.image().symbols;
    const bool has_block =
        std::any_of(syms.begin(), syms.end(), [](const ElfSymbol& x) { return x.name == kFwParamsSymbol; });
    if (b.params_given || has_block) {  // a program of its own without a block runs as it is
      FwParams fp;
      fp.set_json(b.params, "params");
      write_fw_params(plat.image(), plat.load_regions(), fp);
    }
  } catch (const ConfigError& e) {
    throw NetworkError(where + "config: " + e.what());
  } catch (const energy::ProfileError& e) {
    throw NetworkError(where + "energy: " + e.what());
  } catch (const ElfError& e) {
    throw NetworkError(where + e.what());
  } catch (const FwParamError& e) {
    throw NetworkError(where + b.elf + ": " + e.what());
  }
  // A halted board's statistics are taken at its halt, as a run of the
  // board alone ends there: its timers keep counting while the others run.
  boards_.back()->set_on_halt([this, i](Leon3mp& plat) {
    at_halt_[i] = plat.stats();
    if (++halted_ == boards_.size()) drain();
  });
  if (cfg.get<std::string>("uart.out") == "-") route_uart(i);
}

// A board whose UART writes to stdout: whole lines, prefixed with its name,
// so that the boards' output does not interleave within a line.
void Network::route_uart(size_t i) {
  boards_[i]->uart.set_tx_sink([this, i](uint8_t c) {
    std::string& line = uart_pending_[i];
    if (c != '\n') {
      if (line.size() < 4096) line += char(c);
      return;
    }
    const std::string& name = t_.boards[i].name;
    if (uart_line_)
      uart_line_(name, line);
    else
      std::cout << name << ": " << line << '\n' << std::flush;
    line.clear();
  });
}

void Network::attach_end(const TopoEnd& e, EthLink& cable, unsigned side) {
  switch (e.kind) {
    case TopoEnd::Kind::kBoard: {
      Greth& mac = boards_[e.index]->greth;
      mac.connect_link(&cable.port(side));
      cable.attach(side, &mac);
      return;
    }
    case TopoEnd::Kind::kHost:
      hosts_[e.index]->connect(&cable.port(side));
      cable.attach(side, hosts_[e.index].get());
      return;
    case TopoEnd::Kind::kSwitch:
      switches_[e.index]->connect(e.port, cable.port(side));
      cable.attach(side, switches_[e.index]->rx(e.port));
      return;
    case TopoEnd::Kind::kTap:
      taps_[e.index]->connect(&cable.port(side));
      cable.attach(side, taps_[e.index].get());
      return;
  }
}

// Link k's cable: the own link of the board at its end a (or at end b when
// end a is no board), whose end 0 is already that board's GRETH; between two
// nodes that are no board, a link of the network's own.
void Network::wire(size_t k) {
  const TopoLink& l = t_.links[k];
  if (l.a.kind == TopoEnd::Kind::kBoard) {
    cables_[k] = &boards_[l.a.index]->link;
    attach_end(l.b, *cables_[k], 1);
  } else if (l.b.kind == TopoEnd::Kind::kBoard) {
    cables_[k] = &boards_[l.b.index]->link;
    attach_end(l.a, *cables_[k], 1);
  } else {
    own_links_.push_back(std::make_unique<EthLink>(("cable-" + std::to_string(k)).c_str(), l.p));
    cables_[k] = own_links_.back().get();
    attach_end(l.a, *cables_[k], 0);
    attach_end(l.b, *cables_[k], 1);
  }
}

void Network::start() {
  for (auto& b : boards_) {
    const uint32_t entry = b->image().entry;
    if (b->in_ram(entry))
      b->boot_loader(entry);
    else
      b->boot_at(entry);
  }
  for (auto& r : runners_) r->start();
}

// Every board has halted: the frames still on their way (on a cable, in a
// switch) arrive before the kernel stops, looked at every drain_step().
void Network::drain() {
  sc_core::sc_spawn([this] {
    while (!quiet()) sc_core::wait(drain_step());
    sc_core::sc_stop();
  });
}

bool Network::quiet() const {
  for (const EthLink* c : cables_)
    if (c->in_flight(0) || c->in_flight(1)) return false;
  for (const auto& s : switches_)
    if (s->in_pipeline()) return false;
  return true;
}

void Network::set_end_time(const sc_core::sc_time& t) {
  for (auto& b : boards_) b->set_end_time(t);
}

bool Network::experiments_done() const {
  for (const auto& r : runners_)
    if (!r->done()) return false;
  return true;
}

nlohmann::json Network::stats() {
  nlohmann::json j = {{"boards", nlohmann::json::object()}, {"hosts", nlohmann::json::object()}};
  for (size_t i = 0; i < boards_.size(); ++i)
    j["boards"][t_.boards[i].name] = at_halt_[i].is_null() ? boards_[i]->stats() : at_halt_[i];
  for (size_t i = 0; i < hosts_.size(); ++i) j["hosts"][t_.hosts[i].name] = runners_[i]->results();
  nlohmann::json links = nlohmann::json::array();
  for (size_t k = 0; k < t_.links.size(); ++k) {
    const TopoLink& l = t_.links[k];
    // The cable's direction 0 leaves its end 0: end a, except on the own
    // link of a board at end b.
    const bool swapped = l.a.kind != TopoEnd::Kind::kBoard && l.b.kind == TopoEnd::Kind::kBoard;
    StatsRegistry reg;
    cables_[k]->register_dir_stats(reg.root().sub("a_to_b"), swapped ? 1 : 0);
    cables_[k]->register_dir_stats(reg.root().sub("b_to_a"), swapped ? 0 : 1);
    nlohmann::json e = reg.to_json();
    e["a"] = t_.end_name(l.a);
    e["b"] = t_.end_name(l.b);
    e["cable"] = cables_[k]->name();
    links.push_back(e);
  }
  j["links"] = links;
  j["switches"] = switch_stats_.to_json();
  if (!taps_.empty()) j["taps"] = tap_stats_.to_json();
  return j;
}

EthLink* Network::cable_at(const std::string& end) {
  for (size_t k = 0; k < t_.links.size(); ++k)
    if (t_.end_name(t_.links[k].a) == end || t_.end_name(t_.links[k].b) == end) return cables_[k];
  return nullptr;
}

std::vector<std::FILE*> Network::uart_files() const {
  std::vector<std::FILE*> out;
  for (const auto& b : boards_)
    if (b->uart_out_file()) out.push_back(b->uart_out_file());
  return out;
}

}  // namespace l3vp::net
