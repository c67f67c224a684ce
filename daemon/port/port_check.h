/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * What a port's device asks of this machine, checked when the file is
 * loaded (fwd-daemon --check, start-up, reload) rather than found at EAL
 * start-up as "no DPDK port for device": a vdev's kernel interface
 * (iface=) must exist in the daemon's network namespace, a PCI address
 * must be on the machine and bound to a driver DPDK can use.
 */
#ifndef FWD_PORT_CHECK_H
#define FWD_PORT_CHECK_H

#include <stdbool.h>
#include <stddef.h>

/* PCI addresses look like 0000:03:00.0 or 03:00.0; anything else is a vdev. */
bool fwd_device_is_pci(const char *dev);

/* Where PCI devices are listed (/sys/bus/pci/devices); tests point it at a
 * tree of their own. */
void fwd_port_check_sysfs(const char *dir);

#endif
