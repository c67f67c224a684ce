/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * control.acl_local: what is addressed to the router itself, filtered on
 * the control thread before local delivery (echo, the ports' kernel
 * interfaces) sees it. The punt policer has already bounded what arrives
 * here. Counted in the control thread's column of the rules' hits.
 */
#include "acl/acl.h"
#include "ip4/icmp.h"
#include "ip6/icmp6.h"

bool acl_local(struct rte_mbuf *m, const struct fwd_punt_meta *meta)
{
	const struct acl_state *st = acl_state;
	const struct acl_set *s = st != NULL ? st->local : NULL;
	struct acl_hits *h;
	struct acl_key k;
	const uint8_t *key;
	uint32_t rule;
	uint8_t act;
	int fam;

	if (s == NULL || (fam = acl_key_of(m, &k, &key)) < 0)
		return false;
	acl_set_classify(s, fam, &key, &rule, 1);
	h = &s->hits[FWD_MAX_WORKERS][rule];
	h->pkts++;
	h->bytes += m->pkt_len;
	act = s->action[rule];
	if (act == FWD_ACL_PERMIT)
		return false;
	if (act == FWD_ACL_REJECT && (fam & 1) == ACL_V4)
		icmp4_send_error(m, ICMP4_DEST_UNREACH, ICMP4_ADMIN_PROHIBITED, 0, meta->in_port);
	else if (act == FWD_ACL_REJECT)
		icmp6_send_error(m, ICMP6_DST_UNREACH, ICMP6_DST_UNREACH_ADMIN, 0, meta->in_port);
	fwd_control_drop(m, meta->in_port, FWD_DROP_ACL);
	return true;
}
