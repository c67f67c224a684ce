/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * fwdctl capture IFACE [rx|tx|both] [-c COUNT] [-w FILE]
 * fwdctl capture drops [REASON...] [-c COUNT] [-w FILE]
 * fwdctl capture drops -l
 *
 * IFACE is a port (frames as the wire has them) or a VLAN interface (its
 * frames only, untagged, as Linux's tcpdump shows a VLAN device's).
 * "drops" captures the packets the daemon drops (on every port, for the
 * reasons named, all when none are), each with its reason and port: in the
 * summary line, and in the pcapng packet comment. -l lists the reasons.
 * With -w the daemon streams a pcapng file and fwdctl writes it (as the
 * user running fwdctl: the daemon never opens a path it is given); "-w -"
 * writes it to stdout for `| tcpdump -r -`. Without -w each packet is one
 * summary line. Ends after COUNT packets or on Ctrl-C.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "capture.h"
#include "cli.h"
#include "table.h"

struct capture_ctx {
	const char *path; /* -w FILE, "-" for stdout, NULL: summary lines */
	int fd;           /* opened on the first page, so a refused capture leaves no file */
	uint64_t captured, dropped;
};

static int write_all(int fd, const uint8_t *p, size_t len)
{
	while (len > 0) {
		ssize_t n = write(fd, p, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

static int file_write(struct fwd_cli *cli, struct capture_ctx *c, const ProtobufCBinaryData *d)
{
	int rc = 0;

	if (c->fd < 0)
		c->fd = strcmp(c->path, "-") == 0
		                ? STDOUT_FILENO
		                : open(c->path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
	if (c->fd < 0)
		rc = -errno;
	else if (d->len > 0)
		rc = write_all(c->fd, d->data, d->len);
	if (rc < 0) {
		fprintf(cli->err, "fwdctl: capture: %s: %s\n", c->path, strerror(-rc));
		return -ECANCELED;
	}
	return 0;
}

static void print_packet(struct fwd_cli *cli, const Fwd__CapturedPacket *p)
{
	char when[16] = "", descr[FWD_CAPTURE_DESCR_MAX], port[FWD_CLI_NAME_MAX + 1];
	time_t secs = (time_t)(p->timestamp_ns / 1000000000u);
	struct tm tm;

	if (localtime_r(&secs, &tm) != NULL)
		strftime(when, sizeof(when), "%H:%M:%S", &tm);
	fwd_capture_describe(p->data.data, p->data.len, descr, sizeof(descr));
	snprintf(port, sizeof(port), "%s", p->port);
	if (p->drop_reason != NULL && p->drop_reason[0] != '\0') {
		char reason[FWD_CLI_NAME_MAX + 1];

		snprintf(reason, sizeof(reason), "%s", p->drop_reason);
		fprintf(cli->out, "%s.%06u %s drop %s %" PRIu32 " bytes %s\n", when,
		        (unsigned)(p->timestamp_ns % 1000000000u / 1000u), fwd_sanitize(port),
		        fwd_sanitize(reason), p->orig_len, descr);
		return;
	}
	fprintf(cli->out, "%s.%06u %s %s %" PRIu32 " bytes %s\n", when,
	        (unsigned)(p->timestamp_ns % 1000000000u / 1000u), fwd_sanitize(port),
	        p->tx ? "tx" : "rx", p->orig_len, descr);
}

static int capture_page(struct fwd_cli *cli, const Fwd__Response *r, void *arg)
{
	struct capture_ctx *c = arg;
	const Fwd__CapturePackets *cp = r->capture;

	if (r->body_case != FWD__RESPONSE__BODY_CAPTURE)
		return 0;
	c->captured = cp->captured;
	c->dropped = cp->dropped;
	if (c->path != NULL)
		return file_write(cli, c, &cp->pcapng);
	for (size_t i = 0; i < cp->n_packets; i++)
		print_packet(cli, cp->packets[i]);
	fflush(cli->out);
	return 0;
}

static int parse_count(struct fwd_cli *cli, const char *s, uint32_t *count)
{
	char *end;
	unsigned long v;

	errno = 0;
	v = strtoul(s, &end, 10);
	if (errno != 0 || end == s || *end != '\0' || s[0] == '-' || v == 0 || v > UINT32_MAX)
		return fwd_cli_usage(cli, "-c: COUNT must be a number from 1 to %u", UINT32_MAX);
	*count = (uint32_t)v;
	return 0;
}

/* "-c N", "-cN", "-w F", "-wF"; returns the value or NULL (usage printed). */
static const char *option_value(struct fwd_cli *cli, int argc, char **argv, int *i)
{
	if (argv[*i][2] != '\0')
		return argv[*i] + 2;
	if (*i + 1 < argc)
		return argv[++*i];
	fwd_cli_usage(cli, "%s needs a value", argv[*i]);
	return NULL;
}

/* capture drops REASON: a name of the daemon's table, else the list. */
static int add_reason(struct fwd_cli *cli, Fwd__CaptureStartReq *cs, char *a)
{
	if (!fwd_drop_reason_known(a)) {
		fprintf(cli->err, "fwdctl: capture drops: unknown drop reason: %.*s\n",
		        FWD_CLI_NAME_MAX, fwd_sanitize(a));
		fputs("valid reasons: ", cli->err);
		fwd_drop_reasons_print(cli->err, " ");
		return FWD_EXIT_USAGE;
	}
	cs->reasons[cs->n_reasons++] = a;
	return 0;
}

static int parse_args(struct fwd_cli *cli, int argc, char **argv, Fwd__CaptureStartReq *cs,
                      struct capture_ctx *c)
{
	const char *v;

	for (int i = 1; i < argc; i++) {
		char *a = argv[i];

		if (cs->drops && a[0] != '-') {
			if (add_reason(cli, cs, a))
				return FWD_EXIT_USAGE;
		} else if (!strcmp(a, "rx") || !strcmp(a, "tx") || !strcmp(a, "both")) {
			if (cs->direction[0] != '\0')
				return fwd_cli_usage(cli, "direction given twice");
			cs->direction = argv[i];
		} else if (!strncmp(a, "-c", 2)) {
			if ((v = option_value(cli, argc, argv, &i)) == NULL ||
			    parse_count(cli, v, &cs->count))
				return FWD_EXIT_USAGE;
		} else if (!strncmp(a, "-w", 2)) {
			if ((c->path = option_value(cli, argc, argv, &i)) == NULL)
				return FWD_EXIT_USAGE;
		} else {
			return fwd_cli_usage(cli, "unexpected argument: %.*s", FWD_CLI_NAME_MAX, a);
		}
	}
	return 0;
}

/* "capture drops ... -l": the reasons, one a line with its meaning; no
 * daemon needed. */
static bool wants_list(int argc, char **argv)
{
	for (int i = 1; i < argc; i++)
		if (strcmp(argv[i], "-l") == 0)
			return true;
	return false;
}

static int capture_run(struct fwd_cli *cli, int argc, char **argv)
{
	Fwd__Request req = FWD__REQUEST__INIT;
	Fwd__CaptureStartReq cs = FWD__CAPTURE_START_REQ__INIT;
	struct capture_ctx c = { .fd = -1 };
	char *reasons[argc > 0 ? argc : 1];
	bool json = cli->json;
	int rc;

	if (argc == 0)
		return fwd_cli_usage(cli, "missing IFACE");
	if (argv[0][0] == '-' || strlen(argv[0]) > FWD_CLI_NAME_MAX)
		return fwd_cli_usage(cli, "bad interface name: %.*s", FWD_CLI_NAME_MAX, argv[0]);
	cs.drops = strcmp(argv[0], "drops") == 0;
	if (cs.drops && wants_list(argc, argv))
		return fwd_drop_reasons_describe(cli->out), FWD_EXIT_OK;
	cs.reasons = reasons;
	if (parse_args(cli, argc, argv, &cs, &c))
		return FWD_EXIT_USAGE;
	if (c.path != NULL && json && strcmp(c.path, "-") == 0)
		return fwd_cli_usage(cli, "-j and -w - would both write to stdout");
	if (!cs.drops)
		cs.port = argv[0];
	cs.pcapng = c.path != NULL;
	req.body_case = FWD__REQUEST__BODY_CAPTURE_START;
	req.capture_start = &cs;
	fwd_cli_catch_sigint(cli);
	cli->json = json && c.path == NULL; /* a file is bytes, not a document */
	rc = fwd_cli_call(cli, &req, capture_page, &c);
	cli->json = json;
	if (c.fd > STDERR_FILENO && close(c.fd) < 0 && rc == FWD_EXIT_OK) {
		fprintf(cli->err, "fwdctl: capture: %s: %s\n", c.path, strerror(errno));
		rc = FWD_EXIT_REFUSED;
	}
	if (rc == FWD_EXIT_OK && json && c.path != NULL)
		fprintf(cli->out, "{\"captured\":%" PRIu64 ",\"dropped\":%" PRIu64 "}\n",
		        c.captured, c.dropped);
	if (rc == FWD_EXIT_OK)
		fprintf(cli->err, "%" PRIu64 " packets captured, %" PRIu64 " dropped\n", c.captured,
		        c.dropped);
	return rc;
}

static struct fwd_cli_object capture_obj = {
	.name = "capture",
	.usage = "capture IFACE [rx|tx|both] [-c COUNT] [-w FILE.pcapng]\n"
	         "capture drops [REASON...] [-c COUNT] [-w FILE.pcapng]\n"
	         "capture drops -l",
	.run = capture_run,
};
FWD_CLI_OBJECT(capture_obj);
