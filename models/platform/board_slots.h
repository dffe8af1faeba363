// The board's table of APB slots whose model the configuration chooses:
// one row per instance, each in a file of its own (models/platform/slots/
// <name>.cpp, found by the build), ordered by APB slot. A row says
//
//   name        the instance: parameter prefix (`<name>.*`), statistics
//               (`devices.<name>`), probes (`<name>.*`), SystemC name
//   pindex      the APB slot (its P&P record appears there; the model's
//               own P&P record says its IRQ lines)
//   enabled_by  the bool key that puts the device on the board; empty: it
//               is always on. The key's row (in the model's rows) gives its
//               default, so a device on by default says so in its row.
//   rows        the model's configuration rows, under `<name>`; they include
//               `model`: `tlm` (the built-in model, `tlm` below) or a variant
//               registered with SlotVariants (RTL co-simulation)
//   tlm         builds the built-in model
//   bind_ahb    for a model that is also an AHB master: binds its initiator
//               socket (hindex, P&P record); a variant that is an AHB master
//               implements AhbMasterSlot instead
//
// Leon3mp's constructor loops over the table: it builds each enabled row's
// model, binds it at its slot, wires its interrupt pulses to the IRQMP and
// registers its probes and statistics (optional rows when `enabled_by` is
// set). The configuration table takes every row's parameters, and the
// listings (--list-stats, --list-probes) switch every device on
// (enable_all()). docs/developer-guide.md "Add an APB device".
#pragma once
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "apb_device.h"
#include "params.h"

namespace l3vp {

class AhbCtrl;
struct PlatformConfig;

// Builds a model for a slot, named `name`, from the board's configuration.
using ApbDeviceFactory =
    std::function<std::unique_ptr<ApbDevice>(const char* name, const PlatformConfig& cfg)>;

struct SlotRow {
  std::string name;
  unsigned pindex = 0;
  std::string enabled_by;
  std::vector<const param::Spec*> rows;
  ApbDeviceFactory tlm;
  std::function<void(ApbDevice&, AhbCtrl&)> bind_ahb;  // null: no AHB master
};

// The rows of a Params struct as the table keeps them.
template <typename P>
std::vector<const param::Spec*> slot_rows(const param::Rows<P>& rows) {
  std::vector<const param::Spec*> out;
  for (const param::Row<P>& r : rows) out.push_back(&r);
  return out;
}

namespace board_slots {
// Every row, by APB slot.
const std::vector<SlotRow>& table();
// The row named `name`, or null.
const SlotRow* find(const std::string& name);
// Is the row's device on the board with `cfg`?
bool enabled(const SlotRow& s, const PlatformConfig& cfg);
// The row's `<name>.model` value.
std::string model(const SlotRow& s, const PlatformConfig& cfg);
// Throws ConfigError for an unknown model name or a variant chosen for a
// device that is not enabled.
void check(const PlatformConfig& cfg);
// Sets every `enabled_by` key (the listings of every statistic and probe).
void enable_all(PlatformConfig& cfg);
// Builds the model the row's configuration chooses (null when disabled).
std::unique_ptr<ApbDevice> build(const SlotRow& s, const PlatformConfig& cfg);
}  // namespace board_slots

// A row file defines its row with
//   L3VP_BOARD_SLOT(name) { SlotRow s; s.name = "name"; ...; return s; }
// (the build lists the files of slots/ and calls each one).
#define L3VP_BOARD_SLOT(name) ::l3vp::SlotRow l3vp_board_slot_##name()

// A model that can take a slot in place of the built-in one (the slot is a
// seam): anything with the slot's bus and IRQ interface, i.e. an ApbDevice
// (APB target socket, P&P record, pulses into the IRQMP). The configuration
// key `<slot>.model` chooses it by name; `tlm` is the built-in model. A
// variant (e.g. an RTL GPTIMER behind an APB adapter) registers its factory
// once, before the platform is built.
class SlotVariants {
 public:
  static void add(const std::string& slot, const std::string& model, ApbDeviceFactory f);
  static const ApbDeviceFactory* find(const std::string& slot, const std::string& model);
  // "tlm, ..." (for error messages).
  static std::string names(const std::string& slot);
};

// A slot variant that is also an AHB master (the checksum engine's DMA):
// the platform binds its initiator socket with its AHB index and P&P record.
class AhbMasterSlot {
 public:
  virtual ~AhbMasterSlot() = default;
  virtual void bind_ahb(AhbCtrl& ahb) = 0;
};

}  // namespace l3vp
