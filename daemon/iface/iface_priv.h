/* SPDX-License-Identifier: BSD-3-Clause */
/* Internals of daemon/iface/, shared by its files only. */
#ifndef FWD_IFACE_PRIV_H
#define FWD_IFACE_PRIV_H

#include "iface/iface_config.h"

/* Check interfaces[i].addresses (iface_check_addr.c). */
void iface_check_addresses(struct fwd_conf_checker *c, const struct fwd_config *cfg,
                           const struct iface_conf *s, unsigned i);

#endif
