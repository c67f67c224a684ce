/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The LACPDU (IEEE 802.1AX-2014 6.4.2.3, figure 6-7) and marker PDU (6.5.3,
 * figure 6-14) codec: what follows the Ethernet header of a slow-protocols
 * frame, 110 bytes either. Every input is hostile: the version 1 layout is
 * checked field by field (TLV types and lengths, terminator); reserved
 * bytes are ignored on receipt and zero on transmission, as 6.4.2.3 says,
 * and a longer frame's tail (Ethernet padding) is ignored.
 */
#include <errno.h>
#include <string.h>

#include "bond/lacp.h"

/* LACPDU offsets */
#define OFF_ACTOR     2  /* TLV 1, length 20 */
#define OFF_PARTNER   22 /* TLV 2, length 20 */
#define OFF_COLLECTOR 42 /* TLV 3, length 16 */
#define OFF_TERM      58 /* TLV 0, length 0 */
#define INFO_LEN      20
#define COLLECTOR_LEN 16

/* marker PDU offsets */
#define MRK_OFF_TLV  2 /* TLV 1 (information) or 2 (response), length 16 */
#define MRK_INFO_LEN 16
#define MRK_OFF_TERM 18
#define MRK_INFO     1
#define MRK_RESPONSE 2

static uint16_t get16(const uint8_t *b)
{
	return (uint16_t)(b[0] << 8 | b[1]);
}

static void put16(uint8_t *b, uint16_t v)
{
	b[0] = (uint8_t)(v >> 8);
	b[1] = (uint8_t)v;
}

static bool tlv_is(const uint8_t *b, unsigned off, uint8_t type, uint8_t len)
{
	return b[off] == type && b[off + 1] == len;
}

/* An Actor or Partner Information TLV's value at b. */
static void info_get(const uint8_t *b, struct lacp_port_info *i)
{
	i->sys_prio = get16(b);
	memcpy(i->sys, b + 2, 6);
	i->key = get16(b + 8);
	i->port_prio = get16(b + 10);
	i->port = get16(b + 12);
	i->state = b[14];
}

static void info_put(uint8_t *b, const struct lacp_port_info *i)
{
	put16(b, i->sys_prio);
	memcpy(b + 2, i->sys, 6);
	put16(b + 8, i->key);
	put16(b + 10, i->port_prio);
	put16(b + 12, i->port);
	b[14] = i->state;
}

int lacp_pdu_parse(const uint8_t *b, size_t len, struct lacp_pdu *out)
{
	/* a later version keeps version 1's fields where they are (6.4.2.3 d) */
	if (b == NULL || len < LACP_PDU_LEN || b[0] != LACP_SUBTYPE || b[1] == 0)
		return -EINVAL;
	if (!tlv_is(b, OFF_ACTOR, 1, INFO_LEN) || !tlv_is(b, OFF_PARTNER, 2, INFO_LEN) ||
	    !tlv_is(b, OFF_COLLECTOR, 3, COLLECTOR_LEN) ||
	    (b[1] == 1 && !tlv_is(b, OFF_TERM, 0, 0)))
		return -EINVAL;
	info_get(b + OFF_ACTOR + 2, &out->actor);
	info_get(b + OFF_PARTNER + 2, &out->partner);
	out->collector_max_delay = get16(b + OFF_COLLECTOR + 2);
	return 0;
}

void lacp_pdu_build(const struct lacp_pdu *p, uint8_t out[LACP_PDU_LEN])
{
	memset(out, 0, LACP_PDU_LEN);
	out[0] = LACP_SUBTYPE;
	out[1] = 1;
	out[OFF_ACTOR] = 1;
	out[OFF_ACTOR + 1] = INFO_LEN;
	info_put(out + OFF_ACTOR + 2, &p->actor);
	out[OFF_PARTNER] = 2;
	out[OFF_PARTNER + 1] = INFO_LEN;
	info_put(out + OFF_PARTNER + 2, &p->partner);
	out[OFF_COLLECTOR] = 3;
	out[OFF_COLLECTOR + 1] = COLLECTOR_LEN;
	put16(out + OFF_COLLECTOR + 2, p->collector_max_delay);
	/* terminator: type 0, length 0, and reserved: zero already */
}

int lacp_marker_respond(const uint8_t *b, size_t len, uint8_t out[LACP_PDU_LEN])
{
	if (b == NULL || len < LACP_PDU_LEN || b[0] != LACP_SUBTYPE_MRK || b[1] == 0)
		return -EINVAL;
	if ((b[MRK_OFF_TLV] != MRK_INFO && b[MRK_OFF_TLV] != MRK_RESPONSE) ||
	    b[MRK_OFF_TLV + 1] != MRK_INFO_LEN || (b[1] == 1 && !tlv_is(b, MRK_OFF_TERM, 0, 0)))
		return -EINVAL;
	if (b[MRK_OFF_TLV] == MRK_RESPONSE)
		return 0; /* we send no requests: nothing waits for it */
	/* 6.5.4.2: the same requester port, system and transaction id back,
	 * the TLV type changed; the pad and reserved bytes zero */
	memset(out, 0, LACP_PDU_LEN);
	out[0] = LACP_SUBTYPE_MRK;
	out[1] = 1;
	out[MRK_OFF_TLV] = MRK_RESPONSE;
	out[MRK_OFF_TLV + 1] = MRK_INFO_LEN;
	memcpy(out + MRK_OFF_TLV + 2, b + MRK_OFF_TLV + 2, 12);
	return 1;
}
