/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * ports[].rpf, the unicast reverse-path filter of RFC 3704 for both
 * families: its config row and check, and the interface flag the input
 * paths read once per burst (fwd_ifaces[id].rpf: ip4/input.c, ip6/input.c;
 * the filter itself is nh_rpf_pass, nexthop/nexthop.h, which compares a
 * next hop's egress interface with the arriving one). The control thread
 * writes the flag at start-up and on reload: ports' here, VLANs'
 * (interfaces[].rpf) by the interfaces module through l3_rpf_set.
 */
#include <stdio.h>

#include <rte_common.h>

#include "core/iface.h"
#include "core/config_schema.h"
#include "core/module.h"
#include "core/reload.h"
#include "l3/l3.h"
#include "port/port.h"

#define rpf_names fwd_conf_rpf_names

static const struct conf_field port_row =
        CONF_F("rpf", CONF_ENUM, struct fwd_conf_port, rpf, .names = rpf_names, .def = FWD_RPF_OFF);

static uint8_t undo_rpf[FWD_MAX_PORTS]; /* before the last reload_apply */

static void rpf_check(struct fwd_conf_checker *c, const struct fwd_config *cfg)
{
	char at[48];

	for (unsigned i = 0; i < cfg->n_ports; i++)
		if (cfg->ports[i].rpf != FWD_RPF_OFF && cfg->ports[i].mode != FWD_MODE_L3) {
			snprintf(at, sizeof(at), "ports[%u].rpf", i);
			fwd_conf_error(c, at,
			               "only l3 ports filter by source (this port's mode is %s)",
			               fwd_port_mode_name(cfg->ports[i].mode));
		}
}

void l3_rpf_set(uint16_t iface, enum fwd_rpf rpf)
{
	if (iface < FWD_MAX_PORTS)
		fwd_ports[iface].rpf = (uint8_t)rpf;
	if (iface < FWD_MAX_IFACES)
		__atomic_store_n(&fwd_ifaces[iface].rpf, (uint8_t)rpf, __ATOMIC_RELAXED);
}

static int rpf_init(const struct fwd_config *cfg)
{
	for (unsigned i = 0; i < cfg->n_ports && i < fwd_n_ports; i++)
		l3_rpf_set((uint16_t)i, cfg->ports[i].rpf);
	return 0;
}

static int rpf_reload_apply(const struct fwd_config *cur, const struct fwd_config *next,
                            struct fwd_reload_log *log)
{
	(void)cur;
	for (unsigned i = 0; i < fwd_n_ports; i++) {
		undo_rpf[i] = fwd_ports[i].rpf;
		if (i < next->n_ports && fwd_ports[i].rpf != next->ports[i].rpf) {
			l3_rpf_set((uint16_t)i, next->ports[i].rpf);
			fwd_reload_note(log, "port %s: rpf %s", fwd_ports[i].name,
			                rpf_names[next->ports[i].rpf]);
		}
	}
	return 0;
}

static void rpf_undo(void)
{
	for (unsigned i = 0; i < fwd_n_ports; i++)
		l3_rpf_set((uint16_t)i, (enum fwd_rpf)undo_rpf[i]);
}

static int rpf_running(struct fwd_config *run, uint64_t *omitted)
{
	(void)omitted;
	for (unsigned i = 0; i < run->n_ports && i < fwd_n_ports; i++)
		run->ports[i].rpf = (enum fwd_rpf)fwd_ports[i].rpf;
	return 0;
}

static struct fwd_module rpf_module = {
	.name = "rpf",
	.init = rpf_init,
	.reload_apply = rpf_reload_apply,
	.undo = rpf_undo,
	.running = rpf_running,
};
FWD_MODULE(rpf_module);

RTE_INIT(rpf_schema_register)
{
	fwd_config_schema_add("ports", &port_row);
	fwd_config_register_check(rpf_check);
}
