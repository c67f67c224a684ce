/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Both ways between interface ids and kernel ifindexes: by ifindex in a
 * hash (cp/fpm_map.h: FPM asks once per next hop, and a router may have
 * thousands of VLAN interfaces with a kernel interface each), by id in an
 * array grown on demand (a TAP going away clears its entry).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cp/fpm_map.h"
#include "cp/ifmap.h"

struct entry {
	uint32_t ifindex; /* the key */
	uint16_t id;
};

static struct fpm_map by_ifindex = { .key_off = offsetof(struct entry, ifindex),
	                             .key_len = sizeof(uint32_t) };
static struct entry **by_id; /* [id], NULL: none */
static size_t n_ids;

static void unset(uint16_t id)
{
	if (id >= n_ids || by_id[id] == NULL)
		return;
	fpm_map_del(&by_ifindex, by_id[id]);
	free(by_id[id]);
	by_id[id] = NULL;
}

static int room_for(uint16_t id)
{
	size_t n = n_ids ? n_ids : 64;
	struct entry **a;

	while (n <= id)
		n *= 2;
	if (n == n_ids)
		return 0;
	if ((a = realloc(by_id, n * sizeof(*a))) == NULL)
		return -ENOMEM;
	memset(a + n_ids, 0, (n - n_ids) * sizeof(*a));
	by_id = a;
	n_ids = n;
	return 0;
}

int cp_ifmap_set(uint16_t id, uint32_t ifindex)
{
	struct entry *e, *other;

	unset(id);
	if (ifindex == 0)
		return 0;
	/* the kernel reuses no index while the interface lives; one that
	 * another id still holds is that id's stale record */
	if ((other = fpm_map_get(&by_ifindex, &ifindex)) != NULL)
		unset(other->id);
	if (room_for(id) < 0 || (e = malloc(sizeof(*e))) == NULL)
		return -ENOMEM;
	e->ifindex = ifindex;
	e->id = id;
	if (fpm_map_put(&by_ifindex, e) < 0) {
		free(e);
		return -ENOMEM;
	}
	by_id[id] = e;
	return 0;
}

int cp_ifmap_port(uint32_t ifindex)
{
	const struct entry *e = ifindex != 0 ? fpm_map_get(&by_ifindex, &ifindex) : NULL;

	return e != NULL ? (int)e->id : -1;
}

void cp_ifmap_clear(void)
{
	for (size_t i = 0; i < n_ids; i++)
		free(by_id[i]);
	free(by_id);
	by_id = NULL;
	n_ids = 0;
	fpm_map_free(&by_ifindex);
}
