/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * A daemon brought up in-process for fuzzing: EAL without hugepages,
 * net_null/net_ring ports, every module initialised, workers created but
 * not launched (the fuzzer drives their code itself) and no RPC socket.
 */
#ifndef FWD_FUZZ_ENV_H
#define FWD_FUZZ_ENV_H

#include <stdlib.h>
#include <string.h>

#include <rte_eal.h>
#include <rte_ethdev.h>

#include "bond/bond.h"
#include "core/config.h"
#include "core/daemon.h"
#include "main/eal.h"
#include "main/lifecycle.h"
#include "core/iface.h"
#include "core/log.h"
#include "ip6/addr6.h"
#include "nexthop/nexthop.h"
#include "port/port.h"

/* p0/p1 routed (IPv4 and IPv6), p2/p3 cross-connected, p4/p5 bridged; static neighbours.
 * VLAN interfaces p0.100 (both families) and p1.200 (MTU 1200) so that tagged
 * frames reach the (port, VLAN) demux and packets leave tagged (to neighbours
 * learnt on the VLAN); VLAN 300 has no interface (vlan_unknown); a loopback lo0.
 * m6/m7 are the members of bond0 (LACP, fast rate, layer3+4 hash): the last
 * two ports a record's selector names (the bond itself, port 8, receives
 * nothing but through them). */
static const char fuzz_config[] =
        "dpdk: { lcores: \"0-1\", hugepages: false, memory_mb: 512,\n"
        "        file_prefix: fwdfuzz }\n"
        "dataplane: { mbufs: 4095, neigh_timeout_s: 5 }\n"
        "control: { socket: /tmp/fwd-fuzz.sock, socket_group: root }\n"
        "ports:\n"
        "  - { name: p0, device: net_null0, addresses: [10.0.0.1/24, 2001:db8::1/64] }\n"
        "  - { name: p1, device: net_null1, mtu: 1280,\n"
        "      addresses: [10.0.1.1/24, 10.0.2.1/30, 2001:db8:1::1/64] }\n"
        "  - { name: p2, device: net_null2, mode: xconnect, peer: p3 }\n"
        "  - { name: p3, device: net_null3, mode: xconnect, peer: p2 }\n"
        "  - { name: p4, device: net_null4, mode: bridge, bridge: br0 }\n"
        "  - { name: p5, device: net_null5, mode: bridge, bridge: br0 }\n"
        "  - { name: m6, device: net_null6 }\n"
        "  - { name: m7, device: net_null7 }\n"
        "bridges: [ { name: br0, mac_aging_s: 5, fdb_max: 64 } ]\n"
        "bonds:\n"
        "  - { name: bond0, members: [m6, m7], lacp: true, lacp_rate: fast, hash: l34,\n"
        "      addresses: [10.0.8.1/24] }\n"
        "routes:\n"
        "  - { prefix: 0.0.0.0/0, via: 10.0.1.2 }\n"
        "  - { prefix: 192.0.2.0/24, via: 10.0.0.2 }\n"
        "  - { prefix: 203.0.113.0/24, blackhole: true }\n"
        "  - { prefix: \"2001:db8:100::/48\", via: \"2001:db8:1::2\" }\n"
        "  - { prefix: \"2001:db8:200::/48\", via: \"2001:db8::2\" }\n"
        "  - { prefix: \"2001:db8:300::/48\", via: \"fe80::2\", dev: p0 }\n"
        "  - { prefix: \"2001:db8:66::/48\", blackhole: true }\n"
        "neighbors:\n"
        "  - { address: 10.0.0.2, mac: \"02:00:00:00:00:02\", port: p0 }\n"
        "  - { address: 10.0.1.2, mac: \"02:00:00:00:01:02\", port: p1 }\n"
        "  - { address: \"2001:db8::2\", mac: \"02:00:00:00:00:02\", port: p0 }\n"
        "  - { address: \"2001:db8:1::2\", mac: \"02:00:00:00:01:02\", port: p1 }\n"
        "  - { address: \"fe80::2\", mac: \"02:00:00:00:00:02\", port: p0 }\n"
        "  - { address: 10.0.8.2, mac: \"02:22:00:00:00:0a\", port: bond0 }\n"
        "interfaces:\n"
        "  - { name: p0.100, port: p0, vlan: 100,\n"
        "      addresses: [10.0.100.1/24, \"2001:db8:64::1/64\"] }\n"
        "  - { name: p1.200, port: p1, vlan: 200, mtu: 1200, addresses: [10.0.200.1/24] }\n"
        "  - { name: lo0, loopback: true, addresses: [198.18.0.1/32, \"2001:db8:ff::1/128\"] }\n";

/* net_null makes up a random MAC per port: fix them, so that a frame to
 * p0 is to p0 in every run (seeds, crashers). Port i is 02:fd:00:00:00:0i; a
 * bond (no device) takes its first member's again (fuzz_env_bonds). */
static inline void fuzz_env_macs(void)
{
	for (unsigned i = 0; i < fwd_n_ports; i++) {
		struct fwd_port *p = &fwd_ports[i];
		struct rte_ether_addr mac = { { 0x02, 0xfd, 0, 0, 0, (uint8_t)i } };
		if (p->is_bond)
			continue;
		if (rte_eth_dev_default_mac_addr_set(p->port_id, &mac) < 0)
			abort();
		p->mac = mac;
		memcpy(&p->mac48, &mac, sizeof(mac)); /* the two high bytes stay 0 */
		fwd_iface_port_sync((uint8_t)i);      /* the port's entry and its VLANs' MAC */
		nh_iface_update((uint16_t)i);
	}
}

/* Bonds as a running daemon has them: reconfigured with the members' fixed
 * MACs (the bond's MAC, its LACP system), each member's link up (the timer
 * that polls links does not run here). */
static inline void fuzz_env_bonds(void)
{
	for (unsigned i = 0; i < fwd_n_ports; i++) {
		struct bond *b = bond_get((uint8_t)i);

		if (b == NULL)
			continue;
		if (bond_reconfigure(b, bond_conf_find(fwd.cfg, fwd_ports[i].name)) < 0)
			abort();
		for (unsigned k = 0; k < b->n_members; k++)
			bond_member_link(b, &b->m[k], true);
		bond_update(b);
		nh_iface_update((uint16_t)i);
	}
}

/* IPv6 addresses as the seeds expect them: a link-local address from the
 * fixed MAC (the addresses of each port and VLAN interface made again), and
 * every address in use (Duplicate Address Detection runs on timers, which
 * nothing runs here). A loopback has no link-local and no DAD. */
static inline void fuzz_env_ip6(void)
{
	char err[256];

	for (int id = fwd_iface_next_id(-1); id >= 0; id = fwd_iface_next_id(id)) {
		uint16_t p = (uint16_t)id;
		struct ip6_port_addrs keep = ip6_addrs[p];

		if (keep.n == 0 || fwd_iface_is_loopback(p))
			continue;
		addr6_port_down(p);
		if (addr6_port_up(p) < 0)
			abort();
		for (unsigned i = 1; i < keep.n; i++)
			if (addr6_add(p, &keep.a[i], keep.origin[i], err, sizeof(err)) < 0)
				abort();
		for (unsigned i = 0; i < ip6_addrs[p].n; i++)
			addr6_dad_done(p, ip6_addrs[p].a[i].addr, false);
	}
}

static inline void fuzz_env_up(void)
{
	fwd_log_level = FWD_LOG_ERR;
	fwd.cfg = fwd_config_load_buf("fuzz.yaml", fuzz_config, strlen(fuzz_config), stderr);
	if (fwd.cfg == NULL || fwd_eal_init(fwd.cfg, "fuzz") < 0 || fwd_dataplane_up(false) < 0)
		abort();
	fuzz_env_macs();
	fuzz_env_bonds();
	fuzz_env_ip6();
}

#endif
