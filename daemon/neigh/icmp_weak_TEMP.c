/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * TEMP: remove at merge. Lets the neighbour branch link before the ICMP
 * branch (daemon/ip4/icmp.c) provides the real icmp4_send_error.
 */
#include "ip4/icmp.h"

__attribute__((weak)) void icmp4_send_error(const struct rte_mbuf *m, uint8_t type, uint8_t code,
                                            uint32_t aux, uint8_t in_port)
{
	(void)m, (void)type, (void)code, (void)aux, (void)in_port;
}
