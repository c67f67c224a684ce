/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * A keyed hash for tables whose keys a stranger picks (addresses, MACs,
 * prefixes a peer announces): SipHash-2-4 (Aumasson and Bernstein, 2012), a
 * pseudo-random function of a 128-bit key, so nobody who does not know the
 * key can compute keys that share a bucket. The process's key comes from
 * getrandom(2) at first use; it never leaves the process.
 */
#ifndef FWD_SIPHASH_H
#define FWD_SIPHASH_H

#include <stddef.h>
#include <stdint.h>

#define FWD_SIPHASH_KEY_LEN 16

/* SipHash-2-4 of data under key. */
uint64_t fwd_siphash(const uint8_t key[FWD_SIPHASH_KEY_LEN], const void *data, size_t len);

/* SipHash-2-4 of data under the process's secret key. */
uint64_t fwd_keyed_hash(const void *data, size_t len);

/* 32 random bits derived from the secret key, for hashes that take a seed
 * (rte_jhash's init value); different for each tag. */
uint32_t fwd_hash_seed(uint32_t tag);

#endif
