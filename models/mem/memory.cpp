#include "memory.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <new>
#include <stdexcept>

namespace l3vp {

void Memory::FreeDeleter::operator()(uint8_t* p) const { std::free(p); }

Memory::Memory(sc_core::sc_module_name name, uint64_t size, Kind kind)
    : sc_core::sc_module(name), tsock("tsock"), size_(size), kind_(kind), wgen_(size) {
  if (size == 0) throw std::invalid_argument(std::string(this->name()) + ": memory size must not be 0");
  // calloc: large blocks come from mmap as untouched zero pages, so a 64 MiB
  // SDRAM costs nothing until the firmware touches it.
  data_.reset(static_cast<uint8_t*>(std::calloc(size, 1)));
  if (!data_) throw std::bad_alloc();
  tsock.register_b_transport(this, &Memory::b_transport);
  tsock.register_get_direct_mem_ptr(this, &Memory::get_direct_mem_ptr);
  tsock.register_transport_dbg(this, &Memory::transport_dbg);
}

Memory::~Memory() = default;

void Memory::set_latency(const sc_core::sc_time& read, const sc_core::sc_time& write) {
  read_latency_ = read;
  write_latency_ = write;
}

void Memory::load(uint64_t offset, const uint8_t* bytes, uint64_t len) {
  if (offset > size_ || len > size_ - offset)
    throw std::out_of_range(std::string(name()) + ": load outside memory");
  std::memcpy(data_.get() + offset, bytes, len);
  wgen_.bump(offset, len);
}

void Memory::fill(uint64_t offset, uint8_t value, uint64_t len) {
  if (offset > size_ || len > size_ - offset)
    throw std::out_of_range(std::string(name()) + ": fill outside memory");
  std::memset(data_.get() + offset, value, len);
  wgen_.bump(offset, len);
}

void Memory::invalidate_dmi() { tsock->invalidate_direct_mem_ptr(0, size_ - 1); }

tlm::tlm_response_status Memory::copy(tlm::tlm_generic_payload& gp, bool debug) {
  const uint64_t addr = gp.get_address();
  const unsigned len = gp.get_data_length();
  if (addr >= size_ || len > size_ - addr) return tlm::TLM_ADDRESS_ERROR_RESPONSE;
  if (!debug && gp.get_streaming_width() < len) return tlm::TLM_BURST_ERROR_RESPONSE;
  uint8_t* mem = data_.get() + addr;
  uint8_t* d = gp.get_data_ptr();
  const uint8_t* be = gp.get_byte_enable_ptr();
  const unsigned be_len = gp.get_byte_enable_length();
  if (gp.is_read()) {
    std::memcpy(d, mem, len);  // disabled lanes on a read may hold anything
  } else if (gp.is_write()) {
    // A debug write (loader, debugger) may patch a ROM; the bus may not.
    if (kind_ == Kind::Rom && !debug) return tlm::TLM_COMMAND_ERROR_RESPONSE;
    if (!be) {
      std::memcpy(mem, d, len);
    } else {
      for (unsigned i = 0; i < len; ++i)
        if (be[i % be_len] == TLM_BYTE_ENABLED) mem[i] = d[i];
    }
    wgen_.bump(addr, len);
  }
  return tlm::TLM_OK_RESPONSE;
}

void Memory::b_transport(tlm::tlm_generic_payload& gp, sc_core::sc_time& delay) {
  const tlm::tlm_response_status st = copy(gp, false);
  gp.set_response_status(st);
  if (st != tlm::TLM_OK_RESPONSE) return;
  if (gp.is_read()) {
    ++reads_;
    delay += read_latency_;
  } else if (gp.is_write()) {
    ++writes_;
    delay += write_latency_;
  }
  if (dmi_enabled_) gp.set_dmi_allowed(true);
}

unsigned Memory::transport_dbg(tlm::tlm_generic_payload& gp) {
  const uint64_t addr = gp.get_address();
  if (addr >= size_) return 0;
  // Debug accesses are clipped at the end of the memory instead of failing.
  const unsigned len = static_cast<unsigned>(std::min<uint64_t>(gp.get_data_length(), size_ - addr));
  gp.set_data_length(len);
  gp.set_streaming_width(len);
  gp.set_response_status(copy(gp, true));
  return gp.get_response_status() == tlm::TLM_OK_RESPONSE ? len : 0;
}

bool Memory::get_direct_mem_ptr(tlm::tlm_generic_payload& gp, tlm::tlm_dmi& dmi) {
  // Whole-array grant. On refusal the region still describes where DMI is not
  // available (the whole memory), as the base protocol asks.
  dmi.set_start_address(0);
  dmi.set_end_address(size_ - 1);
  if (!dmi_enabled_ || gp.get_address() >= size_ || (kind_ == Kind::Rom && gp.is_write())) {
    dmi.set_granted_access(tlm::tlm_dmi::DMI_ACCESS_NONE);
    return false;
  }
  dmi.set_dmi_ptr(data_.get());
  dmi.set_granted_access(kind_ == Kind::Rom ? tlm::tlm_dmi::DMI_ACCESS_READ
                                            : tlm::tlm_dmi::DMI_ACCESS_READ_WRITE);
  dmi.set_read_latency(read_latency_);
  dmi.set_write_latency(write_latency_);
  if (auto* e = gp.get_extension<WriteGenExt>()) {
    e->gen = wgen_.data();
    e->base = data_.get();
  }
  return true;
}

}  // namespace l3vp
