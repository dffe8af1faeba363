/*
 * hwchk.h - the board side of the stack's hw checksum variant: finds the
 * checksum engine (drivers/chksum.h) and installs it as net_chksum_hw's
 * engine (net_chksum.h). net_chksum_hw calls net_chksum_hw_probe() (defined
 * here) at its first use, so a program whose stack never uses hw never
 * scans plug&play for it, and netapp.c needs no change. Without the engine
 * net_chksum_hw stays on its software fallback (the fast variant).
 */
#ifndef HWCHK_H
#define HWCHK_H

/* -1: not probed yet; 0: probed, no engine; 1: engine in use. */
extern int hwchk_attached;

/* Looks for the engine through plug&play and installs it; returns 1 if found. */
int hwchk_attach(void);

/* net_chksum_hw's probe hook (strong definition of its weak reference). */
void net_chksum_hw_probe(void);

#endif /* HWCHK_H */
