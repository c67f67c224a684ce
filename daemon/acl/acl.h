/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * ACLs (acls[] in fwd.yaml(5), doc/acl.md): stateless first-match filters
 * attached to ports (acl_in, acl_out) and to what is addressed to the
 * router (control.acl_local).
 *
 * The control thread parses each ACL's rules (acl_rule.c), compiles them
 * with DPDK's rte_acl into one context per family (acl_build.c) and
 * publishes the whole set with its attachments as one struct acl_state
 * under RCU (acl_ctl.c): a reload swaps the pointer, so every packet meets
 * the old state or the new one. Workers read the state once per burst and
 * classify the burst with it (acl_dp.c). Attachments are indexed by port
 * index today; an interface layer would index them the same way.
 */
#ifndef FWD_ACL_H
#define FWD_ACL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <rte_common.h>

#include "acl/acl_config.h"
#include "core/config.h"
#include "core/daemon.h"
#include "core/punt.h"
#include "core/iface.h"
#include "core/worker.h"

/* A rule as acl_rule_parse makes it: numbers in host order. */
struct acl_rule {
	uint8_t action;             /* enum fwd_acl_action */
	uint8_t family;             /* AF_INET, AF_INET6, or 0: both */
	struct fwd_prefix src, dst; /* family 0: any */
	int16_t proto;              /* -1: any */
	uint16_t sport_lo, sport_hi, dport_lo, dport_hi;
	int16_t icmp_type, icmp_code, dscp; /* -1: any */
	bool l4;                            /* matches ports or ICMP type/code */
	bool fragment;                      /* only non-first fragments */
};

/*
 * Parse rule c. 0, or -EINVAL with the key that is wrong in *key ("" for
 * the rule as a whole) and why in why.
 */
int acl_rule_parse(const struct fwd_conf_acl_rule *c, struct acl_rule *r, const char **key,
                   char *why, size_t whylen);

/* Does rule r take packets of family (AF_INET, AF_INET6)? */
bool acl_rule_in_family(const struct acl_rule *r, int family);

/*
 * What the classifier reads of a packet: its IP header as it is in the
 * frame, then the ports, at the same offsets whether rte_acl reads them
 * in place (what most packets are: IPv4 without options, or IPv6 with no
 * extension header, carrying TCP, UDP or SCTP) or from a copy shaped like
 * it (struct acl_key: ICMP, whose type and code stand in the ports' places
 * as 16-bit numbers; IPv4 options; IPv6 extension headers, past which the
 * copy's next header is the upper-layer protocol; a truncated L4 header,
 * whose ports are 0). acl_build.c lays the rules' fields over these
 * offsets, only those some rule of the context uses; DSCP is read where
 * the header has it (IPv4's second byte, IPv6's first two).
 */
#define ACL4_PROTO 9  /* IPv4: the protocol */
#define ACL4_SRC   12 /* the source, then the destination */
#define ACL4_PORTS 20 /* past a header without options: sport, dport */
#define ACL4_LEN   24
#define ACL6_PROTO 6 /* IPv6: the next header (the upper layer's, in a copy) */
#define ACL6_SRC   8
#define ACL6_PORTS 40
#define ACL6_LEN   44

struct acl_key {
	uint8_t b[ACL6_LEN];
};

/*
 * Classes of packets, each with a context of its own: the family, and
 * whether a packet is a non-first fragment (which has no ports nor ICMP
 * type, so only rules without them apply: its context has no such fields,
 * the others no fragment field).
 */
#define ACL_V4      0
#define ACL_V6      1
#define ACL_FRAG    2 /* or'ed in: a non-first fragment */
#define ACL_CLASSES 4

/* Per worker (and the control thread: FWD_MAX_WORKERS), per rule. */
struct acl_hits {
	uint64_t pkts, bytes;
};

/* Does rule r belong in the context of class cls (acl_build.c)? */
bool acl_rule_in_class(const struct acl_rule *r, int cls);

struct acl_pre;

/* One compiled ACL. Immutable once published but for its counters. */
struct acl_set {
	char name[FWD_NAME_MAX];
	uint32_t id;                          /* unique among the sets built (acl_cache_tag) */
	struct rte_acl_ctx *ctx[ACL_CLASSES]; /* NULL: no rule of that class */
	struct acl_pre *pre;                  /* ACL_V4's pre-filter (acl_pre.h); NULL: none */
	uint32_t n_rules;
	uint8_t *action; /* [0]: the default; [i]: rule i-1 (rte_acl's userdata) */
	/* [worker][0..n_rules]: hits of the default, then of each rule; the
	 * workers that exist and the control thread (FWD_MAX_WORKERS) only */
	struct acl_hits *hits[FWD_MAX_WORKERS + 1];
	struct acl_hits *base;    /* `stats clear`: what the sum was then */
	struct fwd_conf_acl conf; /* the rules as written (acl show); rules owned */
};

/* What workers and the control thread read, published whole. */
struct acl_state {
	uint32_t gen; /* unique among the states built, never 0 (acl_cache_tag) */
	unsigned n_sets;
	struct acl_set *sets[FWD_MAX_ACLS];
	/* by interface id: ports (ports[].acl_in, acl_out), then VLANs and
	 * loopbacks (interfaces[], bound by iface/ through acl_iface_bind) */
	const struct acl_set *in[FWD_MAX_IFACES], *out[FWD_MAX_IFACES], *local;
	/* by port: a VLAN of it has an acl_out, so its tx bursts (routed
	 * frames leave tagged) are split by tag, each VLAN's frames through
	 * its ACL (acl_dp.c); set with the filter bits */
	volatile uint8_t vlan_out[FWD_MAX_PORTS];
};

/* The published state (RCU): control writes, workers read. */
extern struct acl_state *acl_state;

/* Compile conf into a new set (the rules are copied); NULL with the reason
 * in err. Control thread. */
struct acl_set *acl_set_build(const struct fwd_conf_acl *conf, char *err, size_t errlen);
void acl_set_free(struct acl_set *s);
/* Are two ACLs the same (name, default, rules)? */
bool acl_conf_equal(const struct fwd_conf_acl *a, const struct fwd_conf_acl *b);

/* Classify n keys of one class (ACL_V4, ACL_V6, | ACL_FRAG): res[i] is
 * the action index of key i (0: no rule matched, the default). */
void acl_set_classify(const struct acl_set *s, int cls, const uint8_t **keys, uint32_t *res,
                      unsigned n);

/* What to classify of a frame (Ethernet header first): *data points into
 * the frame, or to k, filled, when the frame's header has not the key's
 * shape. Returns the class, or -1 for what ACLs never filter (not IP, NDP,
 * a header too short: the input checks drop those). */
int acl_key_of(const struct rte_mbuf *m, struct acl_key *k, const uint8_t **data);

/*
 * Each worker's cache of verdicts (acl_cache.c): NULL where it could not be
 * allocated (the worker classifies every packet). Allocated and freed by
 * the control thread at start and stop; used by its worker only.
 */
struct acl_cache;
extern struct acl_cache *acl_caches[FWD_MAX_WORKERS];
struct acl_cache *acl_cache_new(unsigned worker, int socket);
void acl_cache_free(struct acl_cache *c);

/* What a cache entry filled for set s under state st answers for: nothing
 * under another state (a reload, an attachment change) nor another set. */
static inline uint64_t acl_cache_tag(const struct acl_state *st, const struct acl_set *s)
{
	return (uint64_t)st->gen << 32 | s->id;
}

/* acl_set_classify through cache c (n <= 64): the keys whose fields
 * (class, protocol, DSCP, addresses, ports or ICMP type and code) an entry
 * tagged tag holds take its rule, the others are classified in one call
 * and remembered. */
void acl_cache_classify(struct acl_cache *c, uint64_t tag, const struct acl_set *s, int cls,
                        const uint8_t **keys, uint32_t *res, unsigned n);

/* The filter workers call (core/worker.h, fwd_filter_fn). */
uint16_t acl_filter(struct fwd_worker *w, uint16_t iface, uint8_t dir, struct rte_mbuf **pkts,
                    uint16_t n, uint64_t *bytes);

/*
 * The ACLs of the interfaces above the ports (interfaces[].acl_in, acl_out
 * in fwd.yaml(5)): iface/ binds them once it has made its interfaces (at
 * start and after each reload), since their ids exist only then. Begin
 * starts a round, bind names one (NULL or "": none; an unknown name:
 * none), end unbinds those not named in the round and publishes the
 * filter bits. A new ACL state keeps the old
 * one's bindings by ACL name until then. Control thread.
 */
void acl_iface_bind_begin(void);
void acl_iface_bind(uint16_t id, const char *acl_in, const char *acl_out);
void acl_iface_bind_end(void);

/* control.acl_local (core/punt.h, fwd_local_filter); control thread. */
bool acl_local(struct rte_mbuf *m, const struct fwd_punt_meta *meta);

/* Sum of a rule's hits over workers since the last clear (i: 0 the default). */
struct acl_hits acl_set_hits(const struct acl_set *s, uint32_t i);

#endif
