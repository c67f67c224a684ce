/* SPDX-License-Identifier: BSD-3-Clause */
/* The FPM session in `fwdctl status` (StatusResp.fpm). */
#include <string.h>
#include <time.h>

#include "core/rpc.h"
#include "cp/fpm.h"
#include "cp/fpm_priv.h"

const char *const fpm_ctr_names[FPM_C_MAX] = {
	[FPM_C_FRAMES] = "frames",
	[FPM_C_MESSAGES] = "messages",
	[FPM_C_ROUTE_ADD] = "route_add",
	[FPM_C_ROUTE_DEL] = "route_del",
	[FPM_C_NH_ADD] = "nexthop_add",
	[FPM_C_NH_DEL] = "nexthop_del",
	[FPM_C_SKIP_MSG] = "skipped_message_type",
	[FPM_C_UNKNOWN_TABLE] = "unknown_table",
	[FPM_C_SKIP_TYPE] = "skipped_route_type",
	[FPM_C_SKIP_FAMILY] = "skipped_family",
	[FPM_C_CONNECTED] = "connected_echo",
	[FPM_C_NO_DEV] = "no_device",
	[FPM_C_NHG_UNKNOWN] = "nexthop_unknown",
	[FPM_C_GW_FAMILY] = "gateway_family",
	[FPM_C_ECMP_TRUNC] = "ecmp_truncated",
	[FPM_C_INSTALL_FAIL] = "install_failed",
	[FPM_C_DEL_UNKNOWN] = "delete_unknown",
	[FPM_C_STALE_SWEPT] = "stale_removed",
	[FPM_C_ENCAP_MPLS] = "refused_mpls",
	[FPM_C_ENCAP_SEG6] = "refused_srv6",
	[FPM_C_ENCAP_OTHER] = "refused_encap",
	[FPM_C_ROUTE_LIMIT] = "route_limit",
	[FPM_C_NH_LIMIT] = "nexthop_limit",
	[FPM_C_VRF_MIXED] = "vrf_mixed",
	[FPM_C_VRF_AMBIGUOUS] = "vrf_ambiguous",
};

static Fwd__FpmCount **counts(struct fwd_rpc_call *call, const char *const *names,
                              const uint64_t *v, unsigned n, size_t *out_n, bool nonzero)
{
	Fwd__FpmCount **a = fwd_rpc_alloc(call, sizeof(*a) * (n + 1));

	*out_n = 0;
	for (unsigned i = 0; i < n; i++) {
		if (nonzero && v[i] == 0)
			continue;
		Fwd__FpmCount *c = fwd_rpc_alloc(call, sizeof(*c));
		fwd__fpm_count__init(c);
		c->name = (char *)names[i];
		c->value = v[i];
		a[(*out_n)++] = c;
	}
	return a;
}

static uint64_t sweep_at(void)
{
	struct timespec now;
	uint64_t due = fpm_sweep_due_ns(), t;

	if (!fpm_session.sweep_pending)
		return 0;
	clock_gettime(CLOCK_MONOTONIC, &now);
	t = (uint64_t)now.tv_sec * 1000000000u + (uint64_t)now.tv_nsec;
	return (uint64_t)time(NULL) + (due > t ? (due - t + 999999999u) / 1000000000u : 0);
}

static void fill_counts(struct fwd_rpc_call *call, Fwd__FpmStatus *s)
{
	const char *origin[FWD_ORIGIN_MAX];

	for (unsigned i = 0; i < FWD_ORIGIN_MAX; i++)
		origin[i] = fwd_origin_name((enum fwd_origin)i);
	s->installed_by_origin = counts(call, origin, fpm_stats.installed_by_origin, FWD_ORIGIN_MAX,
	                                &s->n_installed_by_origin, true);
	s->counters = counts(call, fpm_ctr_names, fpm_stats.ctr, FPM_C_MAX, &s->n_counters, false);
	s->errors = counts(call, fpm_err_names, fpm_stats.err, FPM_ERR_MAX, &s->n_errors, false);
}

Fwd__FpmStatus *fpm_status(struct fwd_rpc_call *call)
{
	Fwd__FpmStatus *s = fwd_rpc_alloc(call, sizeof(*s));

	fwd__fpm_status__init(s);
	s->listen = fwd_rpc_strdup(call, fpm_session.listen);
	s->listening = fpm_session.listening;
	s->listen_error = fwd_rpc_strdup(call, fpm_session.listen_error);
	s->connected = fpm_session.connected;
	s->peer = fwd_rpc_strdup(call, fpm_session.peer);
	s->connected_since = (uint64_t)fpm_session.connected_since;
	s->disconnected_at = (uint64_t)fpm_session.disconnected_at;
	s->disconnect_reason = fwd_rpc_strdup(call, fpm_session.disconnect_reason);
	s->connections = fpm_session.connections;
	s->frames = fpm_stats.ctr[FPM_C_FRAMES];
	s->messages = fpm_stats.ctr[FPM_C_MESSAGES];
	s->bytes = fpm_session.bytes;
	s->routes = fpm_stats.routes;
	s->installed = fpm_stats.installed;
	s->groups = fpm_stats.groups;
	s->stale = fpm_stats.stale;
	s->sweep_at = sweep_at();
	s->shadowed = fpm_stats.shadowed;
	s->last_error = fwd_rpc_strdup(call, fpm_stats.last_error);
	s->last_install_error = fwd_rpc_strdup(call, fpm_stats.last_install_error);
	s->grace_s = fpm_session.grace_s;
	s->user = fwd_rpc_strdup(call, fpm_session.user);
	s->user_uid = fpm_session.user_uid;
	s->peer_uid = fpm_session.peer_uid;
	s->refused = fpm_session.refused;
	s->last_refused = fwd_rpc_strdup(call, fpm_session.last_refused);
	s->last_refused_at = (uint64_t)fpm_session.last_refused_at;
	s->max_routes = fpm_table_max();
	fill_counts(call, s);
	return s;
}
