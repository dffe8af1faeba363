/*
 * chksum.h - driver of the Internet checksum engine (rtl/chksum/README.md:
 * APB registers, an AHB master that reads the buffer by DMA; P&P vendor
 * 0x09, device 0x0C5; on leon3vp with --set chksum.enable=true).
 */
#ifndef CHKSUM_H
#define CHKSUM_H

#include <stdint.h>

#define AMBA_VENDOR_CONTRIB 0x09
#define AMBA_DEVICE_CHKSUM 0x0c5

#define CHKSUM_CTRL 0x00
#define CHKSUM_STATUS 0x04
#define CHKSUM_ADDR 0x08
#define CHKSUM_LEN 0x0c
#define CHKSUM_SUM 0x10
#define CHKSUM_INFO 0x14

#define CHKSUM_CTRL_START (1u << 0)
#define CHKSUM_CTRL_IE (1u << 1)
#define CHKSUM_ST_BUSY (1u << 0)
#define CHKSUM_ST_DONE (1u << 1)
#define CHKSUM_ST_ERR (1u << 2)

struct chksum_dev {
  uintptr_t base;    /* APB registers */
  unsigned irq;      /* from the APB record */
  unsigned hindex;   /* AHB master index */
  unsigned maxburst; /* INFO[7:0] */
};

/* Finds the engine through plug&play: its APB record (registers, IRQ) and
 * its AHB master record (without a bus master it cannot read memory).
 * Returns 1 and fills *c if both are there, else 0. */
int chksum_open(struct chksum_dev *c);

/* Sums len (0..65535) bytes at data (any alignment) starting from sum and
 * busy-waits for DONE. Returns 0 with the folded sum (not complemented) in
 * *out, or -1 on an AHB error (STATUS.ERR). The buffer must be in memory:
 * with the write-through D-cache whatever the CPU stored is. */
int chksum_sum(const struct chksum_dev *c, uint16_t sum, const void *data, unsigned len, uint16_t *out);

#endif /* CHKSUM_H */
