/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Reassembly of the fragmented datagrams addressed to the router itself
 * (RFC 791 3.2, RFC 8200 4.5), for both families, on the control thread:
 * local delivery (ip4/reasm4.c, ip6/reasm6.c) parses its family's fragment
 * and hands it here; once every piece is in, the whole datagram comes back
 * in one flat mbuf and goes through local delivery again. Transit fragments
 * are forwarded as they are and never come here.
 *
 * Bounded in every way an attacker could push: REASM_ENTRIES datagrams at
 * once (a new one when all are taken is dropped, as Linux does past
 * ipfrag_high_thresh), REASM_MAX_PIECES fragments and REASM_MAX_PAYLOAD
 * bytes each, a deadline counted from the first fragment (30 s for IPv4 as
 * Linux's ipfrag_time, 60 s for IPv6, RFC 8200 4.5). Overlapping fragments
 * end their datagram for both families (RFC 5722 for IPv6; Linux does the
 * same for IPv4); an exact duplicate is dropped alone. Every fragment ends
 * as part of a datagram (counted consumed) or as a drop on the interface
 * (core/iface.h: a port or a VLAN) it came in by: reasm_timeout, reasm_full, reasm_overlap,
 * reasm_invalid, no_mbuf. Fragments are copied as they come and their mbufs freed at once, so
 * reassembly never holds the workers' mbufs (nor offers them to the drop
 * tap when the datagram dies later).
 */
#ifndef FWD_REASM_H
#define FWD_REASM_H

#include <stdbool.h>
#include <stdint.h>

#include <rte_mbuf.h>

#define REASM_ENTRIES     64    /* datagrams in reassembly at once */
#define REASM_MAX_PIECES  128   /* fragments of one datagram */
#define REASM_MAX_PAYLOAD 64000 /* bytes after the header (IPv6: its unfragmentable part) */
#define REASM_HEAD_MAX    256   /* link header + IP header (+ unfragmentable part) kept */

enum reasm_family { REASM_IP4 = 4, REASM_IP6 = 6 };

/* What identifies a datagram: RFC 791 (addresses, protocol, 16-bit id),
 * RFC 8200 4.5 (addresses, 32-bit id; proto 0). */
struct reasm_key {
	uint8_t src[16], dst[16]; /* IPv4: the first 4 bytes */
	uint32_t id;
	uint8_t family; /* enum reasm_family */
	uint8_t proto;
};

/* One fragment, as its family read it from the frame in the mbuf. */
struct reasm_frag {
	struct reasm_key key;
	unsigned off;        /* of its data in the datagram's payload, bytes */
	unsigned len;        /* of its data */
	bool more;           /* more fragments follow (MF, M) */
	const uint8_t *data; /* its data, in the frame */
	unsigned head_len;   /* bytes of the frame before the payload in the whole datagram */
	uint16_t aux;        /* the family's note from the first fragment, handed back */
	unsigned timeout_s;  /* deadline of a datagram this fragment starts */
};

/*
 * Take the fragment f read from m (which arrived on interface port, an
 * interface id; m is consumed in
 * every case). Returns the whole datagram when f completes it: a new mbuf
 * holding the first fragment's head_len bytes (link and IP header, which
 * the family then fixes up: lengths, flags, checksum), then the payload,
 * with *aux the first fragment's; counted created on the first fragment's
 * interface, which m->port of the datagram names. Otherwise NULL: f is held, or dropped and
 * counted.
 */
struct rte_mbuf *reasm_add(struct rte_mbuf *m, uint16_t port, const struct reasm_frag *f,
                           uint16_t *aux);

/* Drop (reasm_timeout) the datagrams whose deadline (TSC) is before now.
 * A timer of the module's calls it every second. */
void reasm_expire(uint64_t now);

/* Datagrams in reassembly now, and the fragments they took (freed, and
 * counted once their datagram is whole or dropped). */
unsigned reasm_pending(void);
unsigned reasm_held(void);

/* Drop every datagram in reassembly (counted reasm_timeout). */
void reasm_flush(void);

int reasm_init(void);
void reasm_fini(void);

#endif
