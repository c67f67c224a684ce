/* SPDX-License-Identifier: BSD-3-Clause */
/* RPC: bridge list, bridge fdb [BRIDGE] (paged), bridge flush [BRIDGE]. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/rpc.h"
#include "fwd_inet.h"
#include "l2/bridge.h"
#include "port/port.h"

#define FDB_PAGE 2000 /* entries per reply page: ~100 KiB packed */

static bool named(const char *s)
{
	return s != NULL && s[0] != '\0';
}

static Fwd__BridgeInfo *bridge_info(struct fwd_rpc_call *call, const struct bridge *b)
{
	Fwd__BridgeInfo *bi = fwd_rpc_alloc(call, sizeof(*bi));
	struct bridge_ctrs c;

	fwd__bridge_info__init(bi);
	bridge_counters(b, &c);
	bi->name = fwd_rpc_strdup(call, b->name);
	bi->members = (char **)fwd_rpc_ptr_array(call, b->n_members);
	for (unsigned i = 0; i < b->n_members; i++)
		bi->members[bi->n_members++] = fwd_rpc_strdup(call, fwd_ifaces[b->members[i]].name);
	bi->fdb_size = b->fdb.n_live;
	bi->fdb_max = b->fdb.max;
	bi->mac_aging_s = b->fdb.aging_s;
	bi->learned = c.learned;
	bi->flooded = c.flooded;
	bi->fdb_full = c.fdb_full;
	bi->moved = c.moved;
	bi->aged = c.aged;
	return bi;
}

static int bridge_list(struct fwd_rpc_call *call)
{
	Fwd__BridgeListResp *r = fwd_rpc_alloc(call, sizeof(*r));

	fwd__bridge_list_resp__init(r);
	r->bridges = (Fwd__BridgeInfo **)fwd_rpc_ptr_array(call, FWD_MAX_BRIDGES);
	for (unsigned i = 0; i < FWD_MAX_BRIDGES; i++)
		if (bridge_table[i].used)
			r->bridges[r->n_bridges++] = bridge_info(call, &bridge_table[i]);
	call->resp->body_case = FWD__RESPONSE__BODY_BRIDGE_LIST;
	call->resp->bridge_list = r;
	return 0;
}
FWD_RPC_HANDLER(FWD__REQUEST__BODY_BRIDGE_LIST, bridge_list, FWD_RPC_READ);

struct fdb_cursor {
	unsigned slot;           /* bridge being listed */
	uint32_t pos;            /* fdb_next position in it */
	bool one;                /* only that bridge */
	char name[FWD_NAME_MAX]; /* and its name: a reload between pages may free the slot */
};

static Fwd__FdbEntry *fdb_entry(struct fwd_rpc_call *call, const struct bridge *b,
                                const struct fdb_entry *e, uint64_t now)
{
	Fwd__FdbEntry *fe = fwd_rpc_alloc(call, sizeof(*fe));
	char mac[FWD_MAC_STRLEN];

	fwd__fdb_entry__init(fe);
	fwd_mac_fmt(e->mac.addr_bytes, mac);
	fe->bridge = fwd_rpc_strdup(call, b->name);
	fe->mac = fwd_rpc_strdup(call, mac);
	fe->port = fwd_rpc_strdup(call, fwd_ifaces[e->port].name);
	fe->age_s = fdb_entry_age_s(e, now);
	return fe;
}

static bool cursor_valid(const struct fdb_cursor *c)
{
	const struct bridge *b = &bridge_table[c->slot];

	return b->used && strcmp(b->name, c->name) == 0;
}

/* The next bridge to list after the cursor's, or false at the end. */
static bool cursor_advance(struct fdb_cursor *c)
{
	if (c->one)
		return false;
	while (++c->slot < FWD_MAX_BRIDGES)
		if (bridge_table[c->slot].used) {
			c->pos = 0;
			snprintf(c->name, sizeof(c->name), "%s", bridge_table[c->slot].name);
			return true;
		}
	return false;
}

/* Fill one page; returns 1 when more may follow. */
static int fdb_page(struct fwd_rpc_call *call)
{
	struct fdb_cursor *c = call->cursor;
	Fwd__BridgeFdbResp *r = fwd_rpc_alloc(call, sizeof(*r));
	uint64_t now = fdb_clock();

	fwd__bridge_fdb_resp__init(r);
	r->entries = (Fwd__FdbEntry **)fwd_rpc_ptr_array(call, FDB_PAGE);
	call->resp->body_case = FWD__RESPONSE__BODY_BRIDGE_FDB;
	call->resp->bridge_fdb = r;
	while (r->n_entries < FDB_PAGE) {
		const struct bridge *b = &bridge_table[c->slot];
		const struct fdb_entry *e = cursor_valid(c) ? fdb_next(&b->fdb, &c->pos) : NULL;
		if (e != NULL)
			r->entries[r->n_entries++] = fdb_entry(call, b, e, now);
		else if (!cursor_advance(c))
			return 0;
	}
	return 1;
}

static int bridge_fdb(struct fwd_rpc_call *call)
{
	const char *name = call->req->bridge_fdb->bridge;
	struct fdb_cursor *c;
	struct bridge *b = named(name) ? bridge_by_name(name) : NULL;

	if (named(name) && b == NULL)
		return fwd_rpc_error(call, ENOENT, "no such bridge: %s", name);
	if ((c = calloc(1, sizeof(*c))) == NULL)
		return fwd_rpc_error(call, ENOMEM, "out of memory");
	call->cursor = c;
	call->cursor_free = free;
	c->one = b != NULL;
	c->slot = b != NULL ? b->slot : 0; /* an unused slot 0 is skipped by fdb_page */
	snprintf(c->name, sizeof(c->name), "%s", bridge_table[c->slot].name);
	if (fdb_page(call) == 1)
		call->next = fdb_page;
	return 0;
}
FWD_RPC_HANDLER(FWD__REQUEST__BODY_BRIDGE_FDB, bridge_fdb, FWD_RPC_READ);

static int bridge_flush(struct fwd_rpc_call *call)
{
	const char *name = call->req->bridge_flush->bridge;
	Fwd__BridgeFlushResp *r = fwd_rpc_alloc(call, sizeof(*r));
	struct bridge *b = named(name) ? bridge_by_name(name) : NULL;

	if (named(name) && b == NULL)
		return fwd_rpc_error(call, ENOENT, "no such bridge: %s", name);
	fwd__bridge_flush_resp__init(r);
	for (unsigned i = 0; i < FWD_MAX_BRIDGES; i++)
		if (bridge_table[i].used && (b == NULL || b == &bridge_table[i]))
			r->flushed += fdb_flush(&bridge_table[i].fdb);
	call->resp->body_case = FWD__RESPONSE__BODY_BRIDGE_FLUSH;
	call->resp->bridge_flush = r;
	return 0;
}
FWD_RPC_HANDLER(FWD__REQUEST__BODY_BRIDGE_FLUSH, bridge_flush, FWD_RPC_CHANGE);
