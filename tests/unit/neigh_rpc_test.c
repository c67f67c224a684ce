/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The neigh RPC handlers through fwd_rpc_dispatch: a list paged over more
 * than one reply, the port filter, add/del/flush and their one-line errors;
 * interfaces named by name (a VLAN's, not a loopback's).
 */
#include <stdlib.h>

#include "core/iface.h"
#include "core/rpc.h"
#include "fwd_frame.h"
#include "neigh_harness.h"

#define N_LEARNT 2100 /* more than one page */

static struct fwd_rpc_call call;
static bool versioned;

static const Fwd__Response *rpc(Fwd__Request *req)
{
	uint8_t buf[1024];
	size_t n;

	req->id = 7;
	req->api_version = FWD_API_VERSION;
	n = fwd__request__pack(req, buf);
	assert_int_equal(fwd_rpc_dispatch(buf, n, &versioned, &call), 0);
	return call.resp;
}

static const Fwd__Response *list(const char *port)
{
	Fwd__Request req = FWD__REQUEST__INIT;
	Fwd__NeighListReq l = FWD__NEIGH_LIST_REQ__INIT;

	l.port = (char *)port;
	req.body_case = FWD__REQUEST__BODY_NEIGH_LIST;
	req.neigh_list = &l;
	return rpc(&req);
}

static const Fwd__Response *add(const char *ip, const char *mac, const char *port)
{
	Fwd__Request req = FWD__REQUEST__INIT;
	Fwd__NeighAddReq a = FWD__NEIGH_ADD_REQ__INIT;

	a.address = (char *)ip;
	a.mac = (char *)mac;
	a.port = (char *)port;
	req.body_case = FWD__REQUEST__BODY_NEIGH_ADD;
	req.neigh_add = &a;
	return rpc(&req);
}

static const Fwd__Response *del(const char *ip, const char *port)
{
	Fwd__Request req = FWD__REQUEST__INIT;
	Fwd__NeighDelReq d = FWD__NEIGH_DEL_REQ__INIT;

	d.address = (char *)ip;
	d.port = (char *)port;
	req.body_case = FWD__REQUEST__BODY_NEIGH_DEL;
	req.neigh_del = &d;
	return rpc(&req);
}

static const Fwd__Response *flush(const char *port)
{
	Fwd__Request req = FWD__REQUEST__INIT;
	Fwd__NeighFlushReq f = FWD__NEIGH_FLUSH_REQ__INIT;

	f.port = (char *)port;
	req.body_case = FWD__REQUEST__BODY_NEIGH_FLUSH;
	req.neigh_flush = &f;
	return rpc(&req);
}

static void assert_refused(const Fwd__Response *r, int err, const char *msg)
{
	assert_int_equal(r->status, err);
	assert_string_equal(r->error, msg);
}

static void test_list_paged(void **state)
{
	const Fwd__Response *r;
	size_t total, p1 = 0;
	int rc;

	(void)state;
	for (unsigned i = 0; i < N_LEARNT; i++)
		arp_in(1, mk_arp(RTE_ARP_OP_REQUEST, &BCAST, &MAC_A,
		                 IP(172, 16, 1 + i / 250, 1 + i % 250), &ZERO_MAC, P1_IP));
	arp_in(0, mk_arp(RTE_ARP_OP_REQUEST, &BCAST, &MAC_B, IP(10, 0, 0, 5), &ZERO_MAC, P0_IP));
	glean(1, 0, IP(10, 0, 0, 6), 1);
	sent_clear();
	assert_int_equal(neigh_count(), N_LEARNT + 2);

	r = list("");
	assert_int_equal(r->status, 0);
	assert_true(r->more);
	total = r->neigh_list->n_neighbours;
	do {
		rc = fwd_rpc_next_page(&call);
		assert_true(rc == 0 || rc == 1);
		for (size_t i = 0; i < call.resp->neigh_list->n_neighbours; i++)
			p1 += strcmp(call.resp->neigh_list->neighbours[i]->port, "p1") == 0;
		total += call.resp->neigh_list->n_neighbours;
	} while (rc == 1);
	assert_int_equal(total, N_LEARNT + 2);
	assert_true(p1 > 0);

	/* filtered: p0 holds one stale (it asked for us) and one incomplete entry */
	r = list("p0");
	assert_false(r->more);
	assert_int_equal(r->neigh_list->n_neighbours, 2);
	for (size_t i = 0; i < 2; i++) {
		const Fwd__NeighEntry *e = r->neigh_list->neighbours[i];
		if (strcmp(e->address, "10.0.0.5") == 0) {
			assert_string_equal(e->mac, "02:bb:00:00:00:0b");
			assert_string_equal(e->state, "stale");
		} else {
			assert_string_equal(e->address, "10.0.0.6");
			assert_string_equal(e->mac, "");
			assert_string_equal(e->state, "incomplete");
			assert_int_equal(e->held, 1);
			assert_int_equal(e->probes, 1);
		}
		assert_string_equal(e->port, "p0");
	}
	assert_refused(list("p9"), ENODEV, "no such port or interface: p9");

	r = flush("p1");
	assert_int_equal(r->status, 0);
	assert_int_equal(r->neigh_flush->flushed, N_LEARNT);
	assert_int_equal(neigh_count(), 2);
	assert_int_equal(flush("")->neigh_flush->flushed, 2);
	assert_refused(flush("p9"), ENODEV, "no such port or interface: p9");
}

static void test_add_del(void **state)
{
	const Fwd__Response *r;

	(void)state;
	r = add("10.0.0.60", "02:00:00:00:00:60", "p0");
	assert_int_equal(r->status, 0);
	assert_int_equal(state_of(IP(10, 0, 0, 60), 0), NEIGH_PERMANENT);
	assert_int_equal(flush("")->neigh_flush->flushed, 0); /* static entries stay */

	assert_refused(add("10.9.9.9", "02:00:00:00:00:61", "p0"), EINVAL,
	               "10.9.9.9 is not on a connected subnet of p0");
	assert_refused(add("10.0.0.61", "02:00:00:00:00:61", "p9"), ENODEV,
	               "no such port or interface: p9");
	assert_refused(add("10.0.0.61", "zz", "p0"), EINVAL, "bad MAC address: zz");
	assert_refused(add("10.0.0.61", "ff:ff:ff:ff:ff:ff", "p0"), EINVAL,
	               "bad MAC address: ff:ff:ff:ff:ff:ff (not a unicast address)");
	assert_refused(add("10.0.0", "02:00:00:00:00:61", "p0"), EINVAL, "bad address: 10.0.0");
	assert_refused(add("", "", ""), EINVAL, "bad address: ");
	assert_refused(add("10.0.0.1", "02:00:00:00:00:61", "p0"), EINVAL,
	               "10.0.0.1 is one of our own addresses (on port p0)");

	assert_refused(del("10.0.0.5", "p0"), ENOENT, "no neighbour 10.0.0.5 on p0");
	assert_refused(del("10.0.0.60", "p1"), ENOENT, "no neighbour 10.0.0.60 on p1");
	assert_refused(del("x", "p0"), EINVAL, "bad address: x");
	assert_refused(del("10.0.0.60", "p9"), ENODEV, "no such port or interface: p9");
	assert_int_equal(del("10.0.0.60", "p0")->status, 0);
	assert_int_equal(neigh_count(), 0);
}

/* A VLAN interface is named like a port: its own neighbours (none here:
 * it has no subnet), its name in the rules' messages; a loopback has no
 * link, so no neighbours; flushing everything walks the interfaces. */
static void test_vlan_names(void **state)
{
	const Fwd__Response *r;
	uint16_t v, lo;

	(void)state;
	fwd_iface_port_sync(0); /* as port/ does */
	fwd_iface_port_sync(1);
	/* the loopback first: neigh_flush takes id FWD_MAX_PORTS for "all" */
	assert_int_equal(fwd_iface_loopback_add("lo0", &lo), 0);
	assert_int_equal(fwd_iface_vlan_add("p0.100", 0, 100, 0, &v), 0);
	arp_in(0, mk_arp(RTE_ARP_OP_REQUEST, &BCAST, &MAC_B, IP(10, 0, 0, 5), &ZERO_MAC, P0_IP));
	r = list("p0.100");
	assert_int_equal(r->status, 0);
	assert_int_equal(r->neigh_list->n_neighbours, 0);
	assert_refused(add("10.0.0.61", "02:00:00:00:00:61", "p0.100"), EINVAL,
	               "10.0.0.61 is not on a connected subnet of p0.100");
	assert_refused(del("10.0.0.5", "p0.100"), ENOENT, "no neighbour 10.0.0.5 on p0.100");
	assert_refused(list("lo0"), ENODEV, "no such port or interface: lo0");
	assert_int_equal(flush("p0.100")->neigh_flush->flushed, 0);
	assert_int_equal(flush("")->neigh_flush->flushed, 1);
	fwd_iface_reset();
}

static int setup(void **state)
{
	harness_setup(state);
	fwd_rpc_call_init(&call, fwd_arena_new());
	versioned = false;
	return 0;
}

static int teardown(void **state)
{
	fwd_rpc_call_end(&call);
	fwd_arena_free(call.arena);
	return harness_teardown(state);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_list_paged, setup, teardown),
		cmocka_unit_test_setup_teardown(test_add_del, setup, teardown),
		cmocka_unit_test_setup_teardown(test_vlan_names, setup, teardown),
	};
	return cmocka_run_group_tests(tests, harness_group_setup, harness_group_teardown);
}
