// leon3vp --scenario TOPOLOGY.json: several boards, simulated hosts and
// switches in one simulation (models/network, docs/network.md
// "Topologies"). The topology names each board's firmware, so the command
// line has no FIRMWARE; the options are the subset that means the same for
// every board (configuration, mode, quantum, DMI, energy, time limit) plus
// --stats, --net-results and --uart-out BOARD=FILE.
#pragma once

namespace l3vp::sim {

// Whether the command line's --scenario names a topology (a JSON document
// with "boards"). A file that cannot be read or parsed is not one: the
// single-board run then reports it as it always did.
bool is_network_run(int argc, char** argv);
// The whole run; returns the exit status (bad input: one line, 2).
int run_network(int argc, char** argv);

}  // namespace l3vp::sim
