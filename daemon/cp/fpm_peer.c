/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Who is at the other end of an FPM connection (fpm_priv.h). TCP carries no
 * credentials, but the kernel knows the owner of the peer's socket when it
 * is local: a NETLINK_SOCK_DIAG request for the one TCP socket whose local
 * end is the connection's remote end (inet_diag's exact lookup, as `ss`
 * does) answers with its uid. The diag socket is opened in the daemon's
 * own network namespace, where a local zebra's socket lives; a peer on
 * another host or namespace has no socket there and is not found.
 * Only root and control.fpm_user pass; anyone else is closed unread and
 * counted in fpm_session. Control thread only.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <inttypes.h>
#include <linux/inet_diag.h>
#include <linux/netlink.h>
#include <linux/sock_diag.h>
#include <netinet/in.h>
#include <pwd.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "core/log.h"
#include "core/reload.h"
#include "cp/fpm.h"
#include "cp/fpm_priv.h"

/* An IPv4-mapped IPv6 address (a v4 client of a [::] listener): its v4 form. */
static bool unmap(struct sockaddr_storage *ss)
{
	struct sockaddr_in6 a6;
	struct sockaddr_in *a4 = (struct sockaddr_in *)ss;

	if (ss->ss_family != AF_INET6)
		return false;
	memcpy(&a6, ss, sizeof(a6));
	if (!IN6_IS_ADDR_V4MAPPED(&a6.sin6_addr))
		return false;
	memset(ss, 0, sizeof(*ss));
	a4->sin_family = AF_INET;
	a4->sin_port = a6.sin6_port;
	memcpy(&a4->sin_addr, &a6.sin6_addr.s6_addr[12], 4);
	return true;
}

/* The address and port of sa into a diag id's fields. */
static void id_put(const struct sockaddr_storage *sa, __be16 *port, __be32 addr[4])
{
	if (sa->ss_family == AF_INET) {
		const struct sockaddr_in *a = (const struct sockaddr_in *)sa;
		*port = a->sin_port;
		memcpy(addr, &a->sin_addr, 4);
	} else {
		const struct sockaddr_in6 *a = (const struct sockaddr_in6 *)sa;
		*port = a->sin6_port;
		memcpy(addr, &a->sin6_addr, 16);
	}
}

/* The request for the socket whose local end is peer and remote end self. */
static int diag_ask(int nl, const struct sockaddr_storage *self,
                    const struct sockaddr_storage *peer)
{
	struct {
		struct nlmsghdr nlh;
		struct inet_diag_req_v2 r;
	} req = {
		.nlh = { .nlmsg_len = sizeof(req),
		         .nlmsg_type = SOCK_DIAG_BY_FAMILY,
		         .nlmsg_flags = NLM_F_REQUEST },
		.r = { .sdiag_family = (uint8_t)peer->ss_family,
		       .sdiag_protocol = IPPROTO_TCP,
		       .idiag_states = ~0u,
		       .id.idiag_cookie = { INET_DIAG_NOCOOKIE, INET_DIAG_NOCOOKIE } },
	};
	struct sockaddr_nl kernel = { .nl_family = AF_NETLINK };

	id_put(peer, &req.r.id.idiag_sport, req.r.id.idiag_src);
	id_put(self, &req.r.id.idiag_dport, req.r.id.idiag_dst);
	if (sendto(nl, &req, sizeof(req), 0, (struct sockaddr *)&kernel, sizeof(kernel)) < 0)
		return -errno;
	return 0;
}

/* The answer: the uid, or -errno (ENOENT: no such local socket). */
static int diag_answer(int nl, uid_t *uid)
{
	union {
		struct nlmsghdr h;
		uint8_t b[1024];
	} buf;
	struct nlmsgerr err;
	struct inet_diag_msg msg;
	/* the kernel answers within sendto: the reply is queued already */
	ssize_t n = recv(nl, &buf, sizeof(buf), MSG_DONTWAIT);

	if (n < 0)
		return -errno;
	if ((size_t)n < NLMSG_HDRLEN || buf.h.nlmsg_len > (size_t)n)
		return -EPROTO;
	if (buf.h.nlmsg_type == NLMSG_ERROR && buf.h.nlmsg_len >= NLMSG_LENGTH(sizeof(err))) {
		memcpy(&err, NLMSG_DATA(&buf.h), sizeof(err));
		return err.error < 0 ? err.error : -EPROTO;
	}
	if (buf.h.nlmsg_type != SOCK_DIAG_BY_FAMILY || buf.h.nlmsg_len < NLMSG_LENGTH(sizeof(msg)))
		return -EPROTO;
	memcpy(&msg, NLMSG_DATA(&buf.h), sizeof(msg));
	*uid = msg.idiag_uid;
	return 0;
}

int fpm_peer_uid(int fd, uid_t *uid)
{
	struct sockaddr_storage self, peer;
	socklen_t slen = sizeof(self), plen = sizeof(peer);
	int nl, rc;

	if (getsockname(fd, (struct sockaddr *)&self, &slen) < 0 ||
	    getpeername(fd, (struct sockaddr *)&peer, &plen) < 0)
		return -errno;
	if (peer.ss_family != AF_INET && peer.ss_family != AF_INET6)
		return -EAFNOSUPPORT;
	if (unmap(&peer))
		unmap(&self);
	nl = socket(AF_NETLINK, SOCK_DGRAM | SOCK_CLOEXEC, NETLINK_SOCK_DIAG);
	if (nl < 0)
		return -errno;
	rc = diag_ask(nl, &self, &peer);
	if (rc == 0)
		rc = diag_answer(nl, uid);
	close(nl);
	return rc;
}

int fpm_user_uid(const char *name, uid_t *uid)
{
	struct passwd pw, *p = NULL;
	char buf[4096];
	int rc = getpwnam_r(name, &pw, buf, sizeof(buf), &p);

	if (rc != 0)
		return -rc;
	if (p == NULL)
		return -ENOENT;
	*uid = p->pw_uid;
	return 0;
}

/* Close fd unread: its peer is neither root nor control.fpm_user. */
static void refuse(int fd, const char *peer, int rc, uid_t uid)
{
	static uint64_t logged_ns;
	uint64_t now = fpm_now_ns();

	close(fd);
	fpm_session.refused++;
	fpm_session.last_refused_at = time(NULL);
	if (rc < 0)
		snprintf(fpm_session.last_refused, sizeof(fpm_session.last_refused),
		         "%s: owner unknown (%s)", peer, strerror(-rc));
	else
		snprintf(fpm_session.last_refused, sizeof(fpm_session.last_refused),
		         "%s: uid %u is neither root nor %s", peer, (unsigned)uid,
		         fpm_session.user);
	if (now - logged_ns >= 1000000000u || logged_ns == 0) { /* one a second at most */
		logged_ns = now;
		LOG(WARNING, "FPM connection refused (%" PRIu64 " so far): %s", fpm_session.refused,
		    fpm_session.last_refused);
	}
}

/* May the owner of fd's peer feed routes? Root or control.fpm_user. */
bool fpm_peer_vetted(int fd, const char *peer, uid_t *uid)
{
	int rc = fpm_peer_uid(fd, uid);

	if (rc == 0 && (*uid == 0 || (int64_t)*uid == fpm_session.user_uid))
		return true;
	refuse(fd, peer, rc, *uid);
	return false;
}

/* control.fpm_user to a uid, now (start, reload): a user that does not
 * exist leaves root alone, with a warning. */
void fpm_peer_user_set(const char *name, struct fwd_reload_log *log)
{
	uid_t uid;
	int rc = fpm_user_uid(name, &uid);

	snprintf(fpm_session.user, sizeof(fpm_session.user), "%s", name);
	fpm_session.user_uid = rc == 0 ? (int64_t)uid : -1;
	if (rc == 0)
		return;
	LOG(WARNING, "control.fpm_user %s: %s; only root may connect to FPM", name,
	    rc == -ENOENT ? "no such user" : strerror(-rc));
	if (log != NULL)
		fwd_reload_note(log, "control.fpm_user %s: no such user; only root may connect",
		                name);
}
