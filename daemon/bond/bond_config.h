/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * bonds[] in fwd.yaml(5): the section is this module's own (a config
 * section, core/config.h). A bond is a port above its members: after
 * decoding, each bond adds a port of its name to cfg->ports (after the
 * file's ports, `bond` set, no device) that carries its port keys (mode,
 * addresses, mtu, tap, ...), so everything that works on a port works on
 * it; the members take the bond's MTU.
 */
#ifndef FWD_BOND_CONFIG_H
#define FWD_BOND_CONFIG_H

#include <stdbool.h>
#include <stdint.h>

#include "core/config.h"

#define FWD_MAX_BONDS       8
#define FWD_BOND_MAX_MEMBER 8

enum bond_hash {
	BOND_HASH_L2,  /* Linux's layer2: the MACs and ethertype */
	BOND_HASH_L23, /* layer2+3: the MACs and IP addresses */
	BOND_HASH_L34, /* layer3+4: IP addresses and, unfragmented TCP/UDP, ports */
};

enum bond_rate {
	BOND_RATE_SLOW, /* LACPDUs every 30 s, partner timeout 90 s */
	BOND_RATE_FAST, /* every 1 s, timeout 3 s */
};

struct fwd_conf_bond {
	char name[FWD_NAME_MAX];
	unsigned n_members;
	char members[FWD_BOND_MAX_MEMBER][FWD_NAME_MAX];
	bool lacp; /* IEEE 802.1AX, active; false: active-backup */
	enum bond_rate lacp_rate;
	enum bond_hash hash;
	uint16_t min_links;
	/* the port keys, as ports[] has them */
	enum fwd_port_mode mode;
	char bridge[FWD_NAME_MAX];
	uint32_t mac_max;
	uint16_t mtu;
	unsigned n_addresses;
	struct fwd_prefix addresses[FWD_MAX_ADDRS];
	bool ra;
	enum fwd_rpf rpf;
	bool tap;
	char vrf[FWD_NAME_MAX]; /* vrfs[].name, "" = the default VRF (vrf/ checks it) */
	char acl_in[FWD_NAME_MAX];
	char acl_out[FWD_NAME_MAX];
	struct fwd_conf_pos pos;
};

struct bond_conf {
	unsigned n;
	struct fwd_conf_bond bonds[FWD_MAX_BONDS];
};

const struct bond_conf *bond_conf(const struct fwd_config *cfg);
/* The bonds[] entry called name, or NULL. */
const struct fwd_conf_bond *bond_conf_find(const struct fwd_config *cfg, const char *name);
/* The bond port name is a member of in cfg, or NULL. */
const struct fwd_conf_bond *bond_conf_of_member(const struct fwd_config *cfg, const char *port);
/* Do two entries say the same of the bond itself (members, LACP, hash,
 * min_links; the port keys are the port's, which their owners reload)? */
bool bond_conf_same_bond(const struct fwd_conf_bond *a, const struct fwd_conf_bond *b);
const char *bond_hash_name(enum bond_hash h);

#endif
