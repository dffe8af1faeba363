/*
 * hwchk.h - the board side of the stack's hw checksum variant: finds the
 * checksum engine (drivers/chksum.h) and installs it as net_chksum_hw's
 * engine (net_chksum.h). Without the engine net_chksum_hw stays on its
 * software fallback (the fast variant).
 */
#ifndef HWCHK_H
#define HWCHK_H

/* -1: hwchk_attach() never called; 0: called, no engine; 1: engine in use. */
extern int hwchk_attached;

/* Looks for the engine through plug&play and installs it; returns 1 if found. */
int hwchk_attach(void);

/* JSON fields of the start line: hw_engine and the net_chksum_hw counts. */
void hwchk_report(void);

#endif /* HWCHK_H */
