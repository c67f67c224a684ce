/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * pcapng packet comments: an opt_comment option added to an Enhanced Packet
 * Block that rte_pcapng_copy made (DPDK 22.11 takes no comment), for the
 * drop capture's "drop reason=... port=...". Pure byte work on a block in
 * host byte order (the section's, as rte_pcapng writes it); control thread
 * only. Layout (draft-ietf-opsawg-pcapng 3.1, 4.3): type, length,
 * interface, timestamp (2 words), captured and original length, the data
 * padded to 32 bits, options (code, length, value padded), length again.
 */
#include <errno.h>
#include <stdint.h>
#include <string.h>

#include "capture/capture_priv.h"

#define EPB_TYPE     6u
#define EPB_HDR      28u /* bytes before the packet data */
#define OPT_ENDOFOPT 0u
#define OPT_COMMENT  1u

static size_t pad4(size_t n)
{
	return (n + 3) & ~(size_t)3;
}

static uint32_t get32(const uint8_t *p)
{
	uint32_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

static void put32(uint8_t *p, uint32_t v)
{
	memcpy(p, &v, sizeof(v));
}

static uint16_t get16(const uint8_t *p)
{
	uint16_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

static void put16(uint8_t *p, uint16_t v)
{
	memcpy(p, &v, sizeof(v));
}

static size_t comment_len(const char *text)
{
	return strnlen(text, CAPTURE_COMMENT_MAX);
}

size_t capture_epb_comment_size(const char *text)
{
	return 4 + pad4(comment_len(text));
}

/* Offset of the end of the options (an opt_endofopt or the trailing
 * length), or 0 when the block is not a well-formed EPB. */
static size_t options_end(const uint8_t *blk, size_t len)
{
	size_t off, end = len - 4;

	if (len < EPB_HDR + 4 || len % 4 != 0 || get32(blk) != EPB_TYPE || get32(blk + 4) != len ||
	    get32(blk + end) != len)
		return 0;
	off = EPB_HDR + pad4(get32(blk + 20));
	if (off > end)
		return 0;
	while (off + 4 <= end && get16(blk + off) != OPT_ENDOFOPT) {
		off += 4 + pad4(get16(blk + off + 2));
		if (off > end)
			return 0;
	}
	return off == end || off + 4 <= end ? off : 0;
}

int capture_epb_comment(uint8_t *blk, size_t len, size_t room, const char *text)
{
	size_t clen = comment_len(text), add = 4 + pad4(clen);
	size_t off = options_end(blk, len);

	if (off == 0)
		return -EINVAL;
	if (len + add > room || len + add > INT32_MAX)
		return -ENOSPC;
	memmove(blk + off + add, blk + off, len - off);
	put16(blk + off, OPT_COMMENT);
	put16(blk + off + 2, (uint16_t)clen);
	memcpy(blk + off + 4, text, clen);
	memset(blk + off + 4 + clen, 0, add - 4 - clen);
	len += add;
	put32(blk + 4, (uint32_t)len);
	put32(blk + len - 4, (uint32_t)len);
	return (int)len;
}
