/* SPDX-License-Identifier: BSD-3-Clause */
/* Internals of daemon/iface/, shared by its files only. */
#ifndef FWD_IFACE_PRIV_H
#define FWD_IFACE_PRIV_H

#include "iface/iface_config.h"

/* Check interfaces[].addresses (iface_check_addr.c). */
void iface_check_addresses(struct fwd_conf_checker *c, const struct fwd_config *cfg);

struct fwd_iface;
struct fwd_reload_log;

/* Make interfaces[] entry f in the table (iface_ctl.c); 0 or -errno, err says why. */
int iface_make(const struct fwd_config *cfg, const struct fwd_conf_iface *f, char *err,
               size_t errlen);
/* Is the table's ifp the interface f describes, but for settable keys? */
bool iface_same_identity(const struct fwd_iface *ifp, const struct fwd_conf_iface *f);
/* Make the table say what f says (reload, iface_sync.c). */
int iface_reconcile(const struct fwd_config *next, const struct fwd_conf_iface *f,
                    struct fwd_reload_log *log, char *err, size_t errlen);
struct fwd_rpc_call;
/* fwdctl iface set NAME vrf VRF: ifp into VRF name with its addresses (iface_vrf.c). */
int iface_set_vrf(struct fwd_rpc_call *call, const struct fwd_iface *ifp, const char *name);
/* ifp into f's VRF, if it is elsewhere (its addresses come back by l3's
 * reconcile); noted in log (may be NULL). 0 or -errno. */
int iface_conf_vrf(const struct fwd_iface *ifp, const struct fwd_conf_iface *f,
                   struct fwd_reload_log *log);
/* The module's running hook: interfaces[] from the table. */
int iface_running(struct fwd_config *run, uint64_t *omitted);

#endif
