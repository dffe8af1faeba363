/*
 * chksum_edges - the checksum engine's DMA pointed where no driver would
 * point it (hostile-guest input; rtl/chksum/README.md "Function"): at the engine's own
 * registers, across its APB slot and beyond, at the GPTIMER's registers, and
 * past 0xFFFFFFFF. A guest may do this; the simulator must give a defined
 * answer, the same with the TLM engine and with `leon3vp --rtl chksum`
 * (testbenches/rtl-chksum/check_fw_equiv.py, tests rtl.chksum.fw.edges*).
 *
 * One line per case: the case, ADDR, LEN, STATUS (DONE/ERR) and SUM after
 * the operation. The values read from the engine's own registers are those
 * of its registers while it runs (STATUS = BUSY, SUM = the running sum),
 * which both models define the same way. Then a normal operation on RAM
 * checked against a reference: exit 0 when it is right (the engine still
 * works after the odd cases), 1 when not, 2 without an engine (run with
 * leon3vp --set chksum.enable=true or --rtl chksum).
 */
#include <stdint.h>

#include "bsp.h"
#include "fwlibc.h"
#include "amba_pnp.h"
#include "chksum.h"
#include "../../drivers/chksum.c"

#define REG(c, off) (*(volatile uint32_t *)((c)->base + (off)))

static struct chksum_dev eng;
static uint8_t buf[300] __attribute__((aligned(8)));

/* One operation: ADDR, LEN, SUM, START; polls STATUS until DONE, reads SUM,
 * clears DONE and ERR. Returns STATUS. */
static uint32_t op(uint32_t addr, unsigned len, uint16_t init, uint32_t *sum) {
  uint32_t st;

  REG(&eng, CHKSUM_ADDR) = addr;
  REG(&eng, CHKSUM_LEN) = len;
  REG(&eng, CHKSUM_SUM) = init;
  REG(&eng, CHKSUM_CTRL) = CHKSUM_CTRL_START;
  do {
    st = REG(&eng, CHKSUM_STATUS);
  } while (!(st & CHKSUM_ST_DONE));
  *sum = REG(&eng, CHKSUM_SUM);
  REG(&eng, CHKSUM_STATUS) = CHKSUM_ST_DONE | CHKSUM_ST_ERR;
  return st;
}

static void show(const char *name, uint32_t addr, unsigned len, uint16_t init) {
  uint32_t sum;
  const uint32_t st = op(addr, len, init, &sum);

  printf("chksum_edges: %-13s addr 0x%08x len %5u status 0x%x sum 0x%08x\n", name, (unsigned)addr, len,
         (unsigned)st, (unsigned)sum);
}

static uint16_t reference(const uint8_t *p, unsigned len, uint16_t init) {
  uint32_t acc = init;
  unsigned i;

  for (i = 0; i + 1 < len; i += 2) acc += (uint32_t)p[i] << 8 | p[i + 1];
  if (len & 1) acc += (uint32_t)p[len - 1] << 8;
  while (acc >> 16) acc = (acc & 0xffff) + (acc >> 16);
  return (uint16_t)acc;
}

int main(void) {
  struct amba_dev tim;
  uint32_t base, sum, st;
  unsigned i;

  if (!chksum_open(&eng)) {
    puts("chksum_edges: no checksum engine");
    return 2;
  }
  base = (uint32_t)eng.base;
  /* Its own registers: the six registers; the whole 256-byte window (4
   * bursts, the unmapped offsets read 0); from an odd address in the slot
   * before it (one burst over both slots, SUM read in the second burst);
   * 4 KiB of APB space from its slot on. */
  show("own_regs", base, 24, 0x1234);
  show("own_window", base, 256, 0);
  show("own_odd", base - 0x3b, 128, 0xabcd);
  show("own_4k", base, 4096, 7);
  /* Another block's registers (the GPTIMER, RTL too with --rtl gptimer),
   * one burst. */
  if (amba_find_apb(AMBA_VENDOR_GAISLER, AMBA_DEVICE_GPTIMER, 0, &tim))
    show("gptimer", (uint32_t)tim.base, 64, 0);
  /* The top of the address space (the AHB plug&play area: the master
   * records from 0xFFFFF000, the slave records from 0xFFFFF800, zeros
   * after them): a buffer that ends at 0xFFFFFFFF is summed; one that runs
   * past it stops there with ERR (no wrap to 0x00000000, the PROM). */
  show("top_end", 0xfffffff0u, 16, 0);
  show("top_byte", 0xffffffffu, 1, 0);
  show("wrap_2", 0xffffffffu, 2, 0);
  show("wrap_20", 0xfffffff6u, 20, 0x55);
  show("wrap_masters", 0xfffff003u, 0x1000, 0);
  show("wrap_max", 0xfffff801u, 0xffff, 1);
  /* The engine still works. */
  for (i = 0; i < sizeof buf; i++) buf[i] = (uint8_t)(i * 37 + 11);
  st = op((uint32_t)(uintptr_t)buf + 1, sizeof buf - 3, 0x4321, &sum);
  i = (st & (CHKSUM_ST_DONE | CHKSUM_ST_ERR)) == CHKSUM_ST_DONE &&
      (uint16_t)sum == reference(buf + 1, sizeof buf - 3, 0x4321);
  printf("chksum_edges: ram           status 0x%x sum %s\n", (unsigned)st, i ? "ok" : "WRONG");
  return i ? 0 : 1;
}
