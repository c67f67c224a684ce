/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * `fwdctl capture`: the CaptureStart request opens a session and its reply
 * streams pages until the count is reached or the client goes away. The
 * daemon never opens a path the client names: in pcapng mode rte_pcapng
 * writes into a memfd the daemon owns and each page carries the bytes
 * written since the last one; fwdctl writes the file, as its own user.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include <rte_cycles.h>
#include <rte_errno.h>
#include <rte_ring.h>

#include "capture/capture_priv.h"
#include "core/iface.h"
#include "core/log.h"
#include "core/rpc.h"
#include "port/port.h"

#define RECORD_SNAPLEN 128         /* record mode: enough for the headers a summary shows */
#define PAGE_PKTS      256         /* record mode: packets per page */
#define PAGE_BYTES     (256 << 10) /* pcapng mode: stop filling a page beyond this */
#define BURST          32

/* pcapng Enhanced Packet Block fields, in 32-bit words (draft-ietf-opsawg-pcapng 4.3) */
#define EPB_TS_HIGH  3
#define EPB_TS_LOW   4
#define EPB_ORIG_LEN 6

static bool limit_reached(const struct capture_session *s)
{
	return s->limit != 0 && s->captured >= s->limit;
}

/* A copy this session wants: made after it started, in its directions. */
static bool wanted(const struct capture_session *s, const struct fwd_capture_meta *meta)
{
	uint64_t start = s->start_tsc >> FWD_CAPTURE_TSC_SHIFT << FWD_CAPTURE_TSC_SHIFT;

	return capture_meta_tsc(meta, rte_rdtsc()) >= start && (meta->dir & s->dirs) &&
	       !limit_reached(s);
}

static uint64_t tsc_to_ns(const struct capture_session *s, uint64_t tsc)
{
	uint64_t hz = rte_get_tsc_hz(), d = tsc > s->start_tsc ? tsc - s->start_tsc : 0;

	return s->start_ns + d / hz * 1000000000ull + d % hz * 1000000000ull / hz;
}

/*
 * Our own timestamp and the length on the wire (the copy was cut at
 * snaplen) into the Enhanced Packet Block: 22.11's rte_pcapng converts TSC
 * against a reference it moves forward, so a copy older than the newest it
 * saw (from another worker) would wrap around to a date centuries away.
 */
static void epb_fix(struct rte_mbuf *pc, uint64_t ns, uint32_t orig_len)
{
	uint32_t *epb = rte_pktmbuf_mtod(pc, uint32_t *);

	epb[EPB_TS_HIGH] = (uint32_t)(ns >> 32);
	epb[EPB_TS_LOW] = (uint32_t)ns;
	epb[EPB_ORIG_LEN] = orig_len;
}

static enum rte_pcapng_direction pcapng_dir(uint8_t dir)
{
	return dir == FWD_CAPTURE_RX   ? RTE_PCAPNG_DIRECTION_IN
	       : dir == FWD_CAPTURE_TX ? RTE_PCAPNG_DIRECTION_OUT
	                               : RTE_PCAPNG_DIRECTION_UNKNOWN;
}

/* A dropped packet's block says why and where in its comment. */
static int drop_comment(struct rte_mbuf *pc, const struct fwd_capture_meta *meta)
{
	char text[CAPTURE_COMMENT_MAX + 1];
	uint32_t len = rte_pktmbuf_pkt_len(pc);
	size_t add;
	int rc;

	snprintf(text, sizeof(text), "drop reason=%s port=%s",
	         meta->reason < FWD_DROP_MAX ? fwd_drop_names[meta->reason] : "?",
	         fwd_ports[meta->port].name);
	add = capture_epb_comment_size(text);
	if (rte_pktmbuf_append(pc, (uint16_t)add) == NULL)
		return -ENOSPC;
	rc = capture_epb_comment(rte_pktmbuf_mtod(pc, uint8_t *), len, len + add, text);
	return rc < 0 ? rc : 0;
}

static struct rte_mbuf *pcapng_copy(struct capture_session *s, struct rte_mbuf *m)
{
	const struct fwd_capture_meta *meta = fwd_capture_meta(m);
	uint64_t tsc = capture_meta_tsc(meta, rte_rdtsc());
	struct rte_mbuf *pc;

	pc = rte_pcapng_copy(fwd_ports[meta->port].port_id,
	                     meta->dir == FWD_CAPTURE_DROP ? 0 : meta->queue, m, fwd_capture_pool,
	                     UINT32_MAX, tsc, pcapng_dir(meta->dir));
	if (pc == NULL)
		return NULL;
	epb_fix(pc, tsc_to_ns(s, tsc), meta->orig_len);
	if (meta->dir == FWD_CAPTURE_DROP && drop_comment(pc, meta) < 0) {
		rte_pktmbuf_free(pc);
		return NULL;
	}
	return pc;
}

/* Convert a burst of copies to pcapng blocks in the memfd; frees pkts. */
static int add_pcapng(struct capture_session *s, struct rte_mbuf **pkts, unsigned n, size_t *bytes)
{
	struct rte_mbuf *out[BURST];
	unsigned k = 0;

	for (unsigned i = 0; i < n; i++) {
		struct rte_mbuf *pc;

		if (!wanted(s, fwd_capture_meta(pkts[i])) || !capture_vlan_take(s, pkts[i]))
			continue;
		pc = pcapng_copy(s, pkts[i]);
		if (pc == NULL) {
			s->lost++; /* the copy pool ran dry */
			continue;
		}
		out[k++] = pc;
		s->captured++;
		*bytes += rte_pktmbuf_pkt_len(pc);
	}
	rte_pktmbuf_free_bulk(pkts, n);
	if (k == 0)
		return 0;
	/* DPDK 22.11 leaves the written mbufs to the caller */
	ssize_t rc = rte_pcapng_write_packets(s->writer, out, k);
	rte_pktmbuf_free_bulk(out, k);
	return rc < 0 ? -rte_errno : 0;
}

static Fwd__CapturedPacket *record(struct fwd_rpc_call *call, const struct capture_session *s,
                                   struct rte_mbuf *m, char **ports)
{
	const struct fwd_capture_meta *meta = fwd_capture_meta(m);
	Fwd__CapturedPacket *r = fwd_rpc_alloc(call, sizeof(*r));
	uint32_t len = RTE_MIN(rte_pktmbuf_pkt_len(m), s->snaplen);
	const void *data;

	fwd__captured_packet__init(r);
	if (ports[meta->port] == NULL) /* a VLAN's session sees its port only */
		ports[meta->port] = fwd_rpc_strdup(call, s->vlan != 0 ? capture_session_name(s)
		                                                      : fwd_ports[meta->port].name);
	r->timestamp_ns = tsc_to_ns(s, capture_meta_tsc(meta, rte_rdtsc()));
	r->port = ports[meta->port];
	r->tx = meta->dir == FWD_CAPTURE_TX;
	if (meta->dir == FWD_CAPTURE_DROP && meta->reason < FWD_DROP_MAX)
		r->drop_reason = (char *)fwd_drop_names[meta->reason];
	r->orig_len = meta->orig_len;
	r->data.data = fwd_rpc_alloc(call, len ? len : 1);
	data = rte_pktmbuf_read(m, 0, len, r->data.data);
	if (data != NULL && data != r->data.data)
		memcpy(r->data.data, data, len); /* read returns a pointer into m when it can */
	r->data.len = data != NULL ? len : 0;
	return r;
}

/* Turn a burst of copies into records on the page; frees pkts. */
static void add_records(struct fwd_rpc_call *call, struct capture_session *s,
                        Fwd__CapturePackets *cp, struct rte_mbuf **pkts, unsigned n)
{
	char *ports[FWD_MAX_PORTS] = { NULL };

	for (unsigned i = 0; i < n; i++) {
		if (!wanted(s, fwd_capture_meta(pkts[i])) || !capture_vlan_take(s, pkts[i]))
			continue;
		cp->packets[cp->n_packets++] = record(call, s, pkts[i], ports);
		s->captured++;
	}
	rte_pktmbuf_free_bulk(pkts, n);
}

/* Move what the workers queued onto the page, within the page's budget. */
static int collect(struct fwd_rpc_call *call, struct capture_session *s, Fwd__CapturePackets *cp)
{
	struct rte_ring *ring = capture_ring(s->port);
	struct rte_mbuf *pkts[BURST];
	size_t bytes = 0;
	unsigned n, room;
	int rc = 0;

	if (!s->pcapng)
		cp->packets = (Fwd__CapturedPacket **)fwd_rpc_ptr_array(call, PAGE_PKTS);
	while (rc == 0 && bytes < PAGE_BYTES && !limit_reached(s)) {
		room = s->pcapng ? BURST
		                 : RTE_MIN((unsigned)BURST, PAGE_PKTS - (unsigned)cp->n_packets);
		n = room ? rte_ring_sc_dequeue_burst(ring, (void **)pkts, room, NULL) : 0;
		if (n == 0)
			break;
		if (s->pcapng)
			rc = add_pcapng(s, pkts, n, &bytes);
		else
			add_records(call, s, cp, pkts, n);
	}
	return rc;
}

/* Put what rte_pcapng wrote since the last page on this one; empty the memfd. */
static int flush_memfd(struct fwd_rpc_call *call, struct capture_session *s,
                       Fwd__CapturePackets *cp)
{
	off_t size = lseek(s->memfd, 0, SEEK_CUR);
	uint8_t *buf;

	if (size <= 0)
		return size < 0 ? -errno : 0;
	buf = fwd_rpc_alloc(call, (size_t)size);
	if (pread(s->memfd, buf, (size_t)size, 0) != size)
		return -EIO;
	if (ftruncate(s->memfd, 0) < 0 || lseek(s->memfd, 0, SEEK_SET) < 0)
		return -errno;
	cp->pcapng.data = buf;
	cp->pcapng.len = (size_t)size;
	return 0;
}

static Fwd__CapturePackets *page_new(struct fwd_rpc_call *call)
{
	Fwd__CapturePackets *cp = fwd_rpc_alloc(call, sizeof(*cp));

	fwd__capture_packets__init(cp);
	call->resp->body_case = FWD__RESPONSE__BODY_CAPTURE;
	call->resp->capture = cp;
	return cp;
}

static void page_counts(const struct capture_session *s, Fwd__CapturePackets *cp)
{
	cp->captured = s->captured;
	cp->dropped = capture_worker_drops(s->port) - s->drops_base + s->lost;
}

/* The last page of a pcapng stream ends with the port's statistics. */
static void pcapng_trailer(const struct capture_session *s, const Fwd__CapturePackets *cp)
{
	rte_pcapng_write_stats(s->writer, fwd_ports[s->port].port_id, NULL, s->start_ns,
	                       tsc_to_ns(s, rte_rdtsc()), s->captured, cp->dropped);
}

static int capture_next(struct fwd_rpc_call *call)
{
	struct capture_session *s = call->cursor;
	Fwd__CapturePackets *cp;
	uint64_t now = rte_rdtsc();
	int rc;

	if (s->gone)
		return fwd_rpc_error(call, ENODEV, "capture: the VLAN interface was deleted");
	cp = page_new(call);
	rc = collect(call, s, cp);

	page_counts(s, cp);
	if (rc == 0 && s->pcapng && limit_reached(s) && s->port != FWD_CAPTURE_DROPS)
		pcapng_trailer(s, cp);
	if (rc == 0 && s->pcapng)
		rc = flush_memfd(call, s, cp);
	if (rc < 0)
		return fwd_rpc_error(call, rc, "capture on %s: %s", capture_session_name(s),
		                     strerror(-rc));
	if (limit_reached(s))
		return 0;
	/* an empty page a second keeps the client's timeout away and finds a
	 * client that has gone (writing to it fails, which ends the session) */
	if (cp->n_packets == 0 && cp->pcapng.len == 0 && now - s->last_page_tsc < rte_get_tsc_hz())
		return -EAGAIN;
	s->last_page_tsc = now;
	return 1;
}

static void session_free(void *cursor)
{
	struct capture_session *s = cursor;

	capture_end(s);
	LOG(INFO, "capture on %s ended: %" PRIu64 " packets, %" PRIu64 " dropped",
	    capture_session_name(s), s->captured,
	    capture_worker_drops(s->port) - s->drops_base + s->lost);
	if (s->writer != NULL)
		rte_pcapng_close(s->writer); /* closes the memfd too */
	else if (s->memfd >= 0)
		close(s->memfd);
	free(s);
}

/* pcapng: a memfd to write into, and the section and interface headers. */
static int pcapng_open(struct capture_session *s, char *err, size_t errlen)
{
	char os[sizeof(((struct utsname *)0)->sysname) * 2 + 2] = "Linux", comment[96];
	struct utsname u;

	s->memfd = memfd_create("fwd-capture", MFD_CLOEXEC);
	if (s->memfd < 0)
		return snprintf(err, errlen, "memfd: %s", strerror(errno)), -errno;
	if (uname(&u) == 0)
		snprintf(os, sizeof(os), "%s %s", u.sysname, u.release);
	if (s->port == FWD_CAPTURE_DROPS)
		snprintf(comment, sizeof(comment), "fwd-daemon capture of dropped packets");
	else if (s->vlan != 0)
		snprintf(comment, sizeof(comment),
		         "fwd-daemon capture on %s (VLAN %u of port %s, dpdk:%u), untagged",
		         capture_session_name(s), s->vlan, fwd_ports[s->port].name,
		         fwd_ports[s->port].port_id);
	else
		snprintf(comment, sizeof(comment), "fwd-daemon capture on port %s (dpdk:%u)",
		         fwd_ports[s->port].name, fwd_ports[s->port].port_id);
	s->writer = rte_pcapng_fdopen(s->memfd, os, NULL, "fwd-daemon " FWD_VERSION, comment);
	if (s->writer == NULL) {
		snprintf(err, errlen, "pcapng: %s", rte_strerror(rte_errno));
		return -EIO;
	}
	return 0;
}

static uint8_t parse_dirs(const char *d)
{
	if (d[0] == '\0' || strcmp(d, "both") == 0)
		return FWD_CAPTURE_RX | FWD_CAPTURE_TX;
	if (strcmp(d, "rx") == 0)
		return FWD_CAPTURE_RX;
	return strcmp(d, "tx") == 0 ? FWD_CAPTURE_TX : 0;
}

/* What a start asks for: the slot its copies come from, and which. */
struct target {
	uint8_t slot; /* a port index, or FWD_CAPTURE_DROPS */
	uint8_t dirs;
	uint16_t iface; /* the interface named: the port, or a VLAN on it */
	uint16_t vlan;  /* a VLAN interface's VID, else 0 */
};

static struct capture_session *session_new(const Fwd__CaptureStartReq *r, const struct target *t,
                                           const struct fwd_rpc_peer *peer)
{
	struct capture_session *s = calloc(1, sizeof(*s));
	uint32_t max = capture_copy_max();
	struct timespec ts;

	if (s == NULL)
		return NULL;
	s->port = t->slot;
	s->dirs = t->dirs;
	s->iface = t->iface;
	s->vlan = t->vlan;
	s->pcapng = r->pcapng;
	s->snaplen = RTE_MIN(r->snaplen ? r->snaplen : r->pcapng ? max : RECORD_SNAPLEN, max);
	s->limit = r->count;
	s->pid = (uint32_t)peer->pid;
	s->memfd = -1;
	s->drops_base = capture_worker_drops(t->slot);
	clock_gettime(CLOCK_REALTIME, &ts);
	s->start_tsc = s->last_page_tsc = rte_rdtsc();
	s->start_ns = (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
	return s;
}

/* A drop capture's reasons into want[]: all of them when none are named. */
static int parse_reasons(struct fwd_rpc_call *call, const Fwd__CaptureStartReq *r, uint8_t *want)
{
	memset(want, r->n_reasons == 0, FWD_DROP_MAX);
	if (r->n_reasons > 4 * FWD_DROP_MAX)
		return fwd_rpc_error(call, EINVAL, "too many drop reasons");
	for (size_t i = 0; i < r->n_reasons; i++) {
		unsigned d = 0;

		while (d < FWD_DROP_MAX && strcmp(fwd_drop_names[d], r->reasons[i]) != 0)
			d++;
		if (d == FWD_DROP_MAX)
			return fwd_rpc_error(call, EINVAL,
			                     "unknown drop reason: %.32s (fwdctl capture drops -l "
			                     "lists them)",
			                     r->reasons[i]);
		want[d] = 1;
	}
	return 0;
}

/* The port or VLAN interface name names, into t; or an error. */
static int target_iface(struct fwd_rpc_call *call, const char *name, struct target *t)
{
	int id = fwd_iface_id_by_name(name);
	const struct fwd_iface *ifp;

	if (id < 0)
		return fwd_rpc_error(call, ENODEV, "no such port or interface: %.32s", name);
	if (id < FWD_MAX_PORTS) {
		t->slot = (uint8_t)id;
		t->iface = (uint16_t)id;
		return 0;
	}
	ifp = &fwd_ifaces[id];
	if (ifp->type != FWD_IFACE_VLAN)
		return fwd_rpc_error(call, EINVAL,
		                     "%.32s is a loopback: no frames cross it (capture the port)",
		                     name);
	t->slot = ifp->port;
	t->iface = ifp->id;
	t->vlan = ifp->vlan;
	return 0;
}

/* Which slot and directions r asks for, or an error. */
static int start_target(struct fwd_rpc_call *call, const Fwd__CaptureStartReq *r, struct target *t,
                        uint8_t *want)
{
	int rc;

	if (r->drops) {
		if (r->port[0] != '\0' || r->direction[0] != '\0')
			return fwd_rpc_error(call, EINVAL,
			                     "a drop capture takes no port or direction");
		t->slot = FWD_CAPTURE_DROPS;
		t->dirs = FWD_CAPTURE_DROP;
		return parse_reasons(call, r, want);
	}
	if (r->n_reasons != 0)
		return fwd_rpc_error(call, EINVAL, "drop reasons are for a drop capture");
	if ((rc = target_iface(call, r->port, t)) < 0)
		return rc;
	t->dirs = parse_dirs(r->direction);
	if (t->dirs == 0)
		return fwd_rpc_error(call, EINVAL, "direction must be rx, tx or both, not %.16s",
		                     r->direction);
	return 0;
}

/* Everything a start can be refused for before anything is allocated. A
 * VLAN's capture takes its port's slot: one capture per port at a time. */
static int start_check(struct fwd_rpc_call *call, const Fwd__CaptureStartReq *r, struct target *t,
                       uint8_t *want)
{
	const struct capture_session *busy;
	int rc = start_target(call, r, t, want);

	if (rc < 0)
		return rc;
	busy = capture_session_on(t->slot);
	if (busy != NULL && t->slot == FWD_CAPTURE_DROPS)
		return fwd_rpc_error(call, EBUSY, "a drop capture is already running (pid %u)",
		                     busy->pid);
	if (busy != NULL)
		return fwd_rpc_error(call, EBUSY, "a capture is already running on %s (pid %u)",
		                     capture_session_name(busy), busy->pid);
	if (capture_resources(t->slot) < 0)
		return fwd_rpc_error(call, ENOMEM, "cannot allocate capture buffers");
	return 0;
}

static int capture_start(struct fwd_rpc_call *call)
{
	const Fwd__CaptureStartReq *r = call->req->capture_start;
	struct target t = { 0 };
	uint8_t want[FWD_DROP_MAX];
	struct capture_session *s;
	char err[128] = "";
	int rc = start_check(call, r, &t, want);

	if (rc < 0)
		return rc;
	s = session_new(r, &t, &call->peer);
	if (s == NULL)
		return fwd_rpc_error(call, ENOMEM, "out of memory");
	memcpy(s->reasons, want, sizeof(s->reasons));
	rc = s->pcapng ? pcapng_open(s, err, sizeof(err)) : 0;
	if (rc == 0)
		rc = s->pcapng ? flush_memfd(call, s, page_new(call)) : (page_new(call), 0);
	if (rc < 0) {
		const char *name = capture_session_name(s); /* the table's, not s's */

		session_free(s);
		return fwd_rpc_error(call, rc, "capture on %s: %s", name, err);
	}
	capture_begin(s);
	call->next = capture_next;
	call->cursor = s;
	call->cursor_free = session_free;
	return 0;
}
FWD_RPC_HANDLER(FWD__REQUEST__BODY_CAPTURE_START, capture_start, FWD_RPC_CHANGE);
