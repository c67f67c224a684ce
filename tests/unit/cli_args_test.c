/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * fwdctl end to end against a fake daemon: argument handling and exit
 * statuses, human and JSON output, refusals, broken daemons, --watch.
 * FWD_TEST_SHOW=1 prints every command's output.
 */
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <cmocka.h>

#include "cli.h"
#include "cli_fake.h"

static struct fake fake;

/* ------------------------------------------------------------------ harness */

static int group_setup(void **state)
{
	(void)state;
	init_ports();
	fake_reply = reply;
	fake_start(&fake);
	setenv("FWD_SOCKET", fake.path, 1);
	unsetenv("FWD_TIMEOUT");
	return 0;
}

static int group_teardown(void **state)
{
	(void)state;
	fake_stop(&fake);
	free(out_buf);
	free(err_buf);
	return 0;
}

static int test_setup(void **state)
{
	(void)state;
	atomic_store(&fake.mode, FAKE_OK);
	unsetenv("FWD_TIMEOUT");
	return 0;
}

static void expect(const char *args, int rc, const char *out_has, const char *err_has)
{
	assert_int_equal(cli_run(args), rc);
	if (out_has != NULL && strstr(out_buf, out_has) == NULL)
		fail_msg("fwdctl %s: stdout lacks \"%s\":\n%s", args, out_has, out_buf);
	if (err_has != NULL && strstr(err_buf, err_has) == NULL)
		fail_msg("fwdctl %s: stderr lacks \"%s\":\n%s", args, err_has, err_buf);
}

static void test_usage_errors(void **state)
{
	static const char *const bad[] = {
		"",
		"bogus",
		"-x status",
		"--socket",
		"-s",
		"port",
		"port frob",
		"port list extra",
		"port show",
		"port show a b",
		"port set p0",
		"port set p0 sideways",
		"port set p0 up now",
		"status extra",
		"stats p0 p1",
		"stats --frob",
		"stats --watch 0",
		"stats --watch 99999",
		"stats --watch=abc",
		"stats clear now",
		"stats workers p0",
		"port show "
		"xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx",
	};
	int before = atomic_load(&fake.requests);

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		assert_int_equal(cli_run(bad[i]), FWD_EXIT_USAGE);
		assert_non_null(strstr(err_buf, "usage: fwdctl"));
		assert_string_equal(out_buf, "");
	}
	expect("port set p0 sideways", 2, NULL, "fwdctl: port set: expected up or down");
	expect("bogus", 2, NULL, "fwdctl: unknown object: bogus\n");
	setenv("FWD_TIMEOUT", "soon", 1);
	expect("status", 2, NULL, "FWD_TIMEOUT");
	assert_int_equal(atomic_load(&fake.requests), before); /* nothing was sent */
}

static void test_help(void **state)
{
	(void)state;
	expect("-h", 0,
	       "usage: fwdctl [-s SOCKET] [-j|--json] [-4|-6] [-V VRF] OBJECT COMMAND [ARGS]",
	       NULL);
	expect("--help", 0, "fwdctl port set NAME up|down", NULL);
	expect("--version", 0, "(API 1)", NULL);
	expect("port help", 0, "usage: fwdctl port list", NULL);
	expect("stats -h", 0, "fwdctl stats clear", NULL);
}

static int lines(const char *s)
{
	int n = 0;

	while ((s = strchr(s, '\n')) != NULL)
		s++, n++;
	return n;
}

/* A typo gets a suggestion and a short usage, not the whole help. */
static void test_manners(void **state)
{
	int before = atomic_load(&fake.requests);

	(void)state;
	expect("rotue list", 2, NULL, "fwdctl: unknown object: rotue (did you mean 'route'?)\n");
	assert_true(lines(err_buf) <= 4);
	expect("stattus", 2, NULL, "(did you mean 'status'?)");
	expect("xyzzy list", 2, NULL, "fwdctl: unknown object: xyzzy\nusage: fwdctl ");
	expect("route ad 10.0.0.0/8 blackhole", 2, NULL,
	       "fwdctl: route: unknown command: ad (did you mean 'add'?)\n");
	assert_true(lines(err_buf) <= 2);
	expect("route show", 2, NULL,
	       "unknown command: show (did you mean 'list'?)\n"
	       "usage: fwdctl route COMMAND ... ('fwdctl help route' lists them)\n");
	expect("neigh rm 10.0.0.2 dev p0", 2, NULL, "(did you mean 'del'?)");
	expect("config chek x", 2, NULL, "(did you mean 'check'?)");
	/* a known command with bad arguments: its own forms only */
	expect("route add 10.0.0.0/8 via", 2, NULL, "usage: fwdctl route add PREFIX via");
	assert_null(strstr(err_buf, "route load"));
	assert_null(strstr(err_buf, "route list"));
	assert_true(lines(err_buf) <= 5);
	/* help [OBJECT] */
	expect("help", 0, "usage: fwdctl [-s SOCKET]", NULL);
	assert_non_null(strstr(out_buf, "fwdctl route del PREFIX\n"));
	expect("help route", 0, "usage: fwdctl [-4|-6] [-V VRF] route list\n", NULL);
	assert_null(strstr(out_buf, "port"));
	assert_null(strstr(out_buf, "fwdctl    ")); /* continuation lines not prefixed */
	expect("help rotue", 2, NULL, "(did you mean 'route'?)");
	expect("help route add", 2, NULL, "help takes one OBJECT");
	assert_int_equal(atomic_load(&fake.requests), before); /* nothing was sent */
}

static void test_unreachable(void **state)
{
	(void)state;
	expect("-s /nonexistent/fwd.sock status", 3, NULL,
	       "fwdctl: cannot connect to /nonexistent/fwd.sock: No such file or directory "
	       "(is fwd-daemon running?)\n");
	setenv("FWD_SOCKET", "/nonexistent/env.sock", 1);
	expect("port list", 3, NULL, "cannot connect to /nonexistent/env.sock");
	setenv("FWD_SOCKET", fake.path, 1);
	expect("-s "
	       "/tmp/"
	       "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"
	       "xxxxxxxxxxxxxxxxxxxxxxxxxxxx status",
	       3, NULL, "File name too long");
}

static void test_status(void **state)
{
	(void)state;
	expect("status", 0, "version:     0.1.0 (API 1)\n", NULL);
	assert_non_null(strstr(out_buf, "uptime:      2h03m\n"));
	assert_non_null(strstr(out_buf, "lcores:      0-2 (control 0, workers 1,2)\n"));
	assert_non_null(strstr(out_buf, "ports:       2 up / 3\n"));
	assert_non_null(
	        strstr(out_buf, "mempool:     fwd_mbufs: 1234 of 16383 mbufs in use (7.5%)\n"));
	assert_int_equal(fake.last_version, FWD_API_VERSION);
	expect("-j status", 0, "{\"version\":\"0.1.0\",\"uptime_s\":7380,", NULL);
	assert_non_null(strstr(out_buf, "\"worker_lcores\":[1,2]"));
	assert_non_null(
	        strstr(out_buf, "\"routes\":1000003,\"neighbours\":3,\"routes_ip6\":0,\"fpm\":{"));
}

static void test_port(void **state)
{
	(void)state;
	expect("port list", 0,
	       "NAME  MODE      DEVICE             LINK  ADMIN  MAC                 MTU  "
	       "PEER/BRIDGE\n"
	       "p0    l3        0000:03:00.0       up    up     02:00:00:00:00:01  1500  -\n"
	       "p2    xconnect  net_tap2,iface=t2  up    up     02:00:00:00:00:02  1500  p3\n"
	       "p4    bridge    net_tap4,iface=t4  down  up     02:00:00:00:00:02  1500  br0\n",
	       NULL);
	/* two pages, one document */
	expect("--json port list", 0, "{\"ports\":[{\"name\":\"p0\",", NULL);
	assert_non_null(strstr(out_buf, "{\"name\":\"p4\","));
	assert_non_null(strstr(out_buf, "}]}\n"));

	expect("port show p0", 0, "link:             up, 10 Gbit/s full-duplex (1 change)\n", NULL);
	assert_non_null(strstr(out_buf, "rx queue→worker:  0→w0 (lcore 1), 1→w1 (lcore 2)\n"));
	assert_non_null(strstr(out_buf, "addresses:        10.0.0.1/24, 10.0.1.1/24\n"));
	assert_string_equal(fake.last_name, "p0");
	expect("port show p9", 1, NULL, "fwdctl: port show: no such port: p9\n");
	assert_string_equal(out_buf, "");
	expect("-j port show p9", 1, NULL, "no such port: p9");
	assert_string_equal(out_buf, "");

	expect("port set p9 up", 1, NULL, "fwdctl: port set: no such port: p9\n");
	expect("port set p0 down", 0, NULL, NULL);
	assert_string_equal(out_buf, "");
	assert_int_equal(fake.last_up, 0);
	expect("-j port set p0 up", 0, NULL, NULL);
	assert_string_equal(out_buf, "{}\n");
	assert_int_equal(fake.last_up, 1);
	assert_int_equal(fake.last_body, FWD__REQUEST__BODY_PORT_SET);
}

/* -V VRF: sent by the commands that take it, refused by the others */
static void test_vrf(void **state)
{
	(void)state;
	expect("-V blue route list", 1, NULL, NULL);
	assert_int_equal(fake.last_body, FWD__REQUEST__BODY_ROUTE_LIST);
	assert_string_equal(fake.last_vrf, "blue");
	expect("route list", 1, NULL, NULL);
	assert_string_equal(fake.last_vrf, "");
	expect("--vrf red addr list", 1, NULL, NULL);
	assert_string_equal(fake.last_vrf, "red");
	expect("-V red neigh list", 1, NULL, NULL);
	assert_string_equal(fake.last_vrf, "red");
	expect("-V red route add 0.0.0.0/0 next_vrf default", 1, NULL, NULL);
	assert_string_equal(fake.last_vrf, "red");
	expect("iface set p0 vrf blue", 1, NULL, NULL);
	assert_string_equal(fake.last_vrf, "blue");
	expect("-V blue stats", 2, NULL, "fwdctl: stats: -V does not apply to stats\n");
	expect("-V blue addr add 10.0.0.1/24 dev p0", 2, NULL, "-V does not apply to add");
	expect("-V blue neigh flush", 2, NULL, "-V does not apply to flush");
	expect("-V", 2, NULL, "fwdctl: option -V needs a VRF name\n");
	expect("iface set p0 vrf", 2, NULL, "expected: set NAME vrf VRF");
}

static void test_stats(void **state)
{
	(void)state;
	expect("stats", 0,
	       "PORT    RX PKTS  RX BYTES     RX PPS     RX BIT/S    TX PKTS  TX BYTES     TX PPS  "
	       "   TX BIT/S  DROPS\n"
	       "p0    123456789  92.0 GiB  1.23 Mpps  9.87 Gbit/s  123456000  91.9 GiB  1.23 Mpps  "
	       "9.86 Gbit/s     15\n"
	       "p1            0       0 B      0 pps      0 bit/s          0       0 B      0 pps  "
	       "    0 bit/s      0\n"
	       "\n"
	       "p0 drops: no_route=12 ttl_exceeded=3\n"
	       "p0 xstats: rx_missed_errors=5\n",
	       NULL);
	assert_string_equal(fake.last_name, "");
	expect("stats p0", 0, "p0 drops:", NULL);
	assert_string_equal(fake.last_name, "p0");
	expect("-j stats", 0, "\"drop_reasons\":[{\"name\":\"no_route\",\"value\":12},", NULL);
	assert_non_null(strstr(out_buf, "\"rx_bps\":9870000000,"));
	expect("stats clear", 0, NULL, NULL);
	assert_int_equal(fake.last_body, FWD__REQUEST__BODY_STATS_CLEAR);
	assert_string_equal(out_buf, "");
	expect("-j stats clear", 0, "{}\n", NULL);
	expect("stats clear --json", 0, "{}\n", NULL); /* -j after OBJECT works too */
	expect("stats workers", 0,
	       "WORKER  LCORE   BUSY  PACKETS  AVG BURST  CYCLES/PKT  RX QUEUES\n"
	       "     0      1  42.5%  1000000       17.3          88  p0/0 p1/0\n"
	       "     1      2   0.0%        0        0.0           0  p0/1 p1/1\n",
	       NULL);
}

static void test_broken_daemon(void **state)
{
	(void)state;
	setenv("FWD_TIMEOUT", "0.3", 1);
	atomic_store(&fake.mode, FAKE_SILENT);
	expect("status", 3, NULL, "no reply within 300 ms");
	atomic_store(&fake.mode, FAKE_GARBAGE);
	expect("status", 3, NULL, "malformed reply");
	atomic_store(&fake.mode, FAKE_WRONG_ID);
	expect("port list", 3, NULL, "malformed reply");
	atomic_store(&fake.mode, FAKE_HANGUP);
	expect("stats", 3, NULL, "the daemon closed the connection");
	atomic_store(&fake.mode, FAKE_OLD_DAEMON);
	expect("status", 1, NULL, "fwdctl: status: API version mismatch: client speaks 1");
}

static pthread_t main_thread;

static void *interrupt_later(void *arg)
{
	usleep(*(int *)arg * 1000);
	pthread_kill(main_thread, SIGINT);
	return NULL;
}

static int run_interrupted(const char *args, int after_ms)
{
	pthread_t t;
	int rc;

	main_thread = pthread_self();
	assert_int_equal(pthread_create(&t, NULL, interrupt_later, &after_ms), 0);
	rc = cli_run(args);
	pthread_join(t, NULL);
	signal(SIGINT, SIG_DFL);
	return rc;
}

static void test_watch(void **state)
{
	int lines = 0;

	(void)state;
	assert_int_equal(run_interrupted("-j stats --watch 0.1", 450), 0);
	for (char *p = out_buf; (p = strchr(p, '\n')) != NULL; p++)
		lines++;
	assert_true(lines >= 3 && lines <= 6);
	assert_int_equal(strncmp(out_buf, "{\"ports\":[", 10), 0);

	assert_int_equal(run_interrupted("stats p0 --watch=0.1", 250), 0);
	assert_non_null(strstr(out_buf, "fwd stats every 0.1s at "));
	assert_non_null(strstr(out_buf, "p0 drops: no_route=12"));

	/* Ctrl-C while the daemon is not answering ends at once, still with 0 */
	atomic_store(&fake.mode, FAKE_SILENT);
	assert_int_equal(run_interrupted("stats --watch", 200), 0);
	assert_string_equal(err_buf, "");
	/* the daemon going away while watching is an error */
	atomic_store(&fake.mode, FAKE_HANGUP);
	assert_int_equal(cli_run("stats --watch 0.1"), 3);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_usage_errors, test_setup),
		cmocka_unit_test_setup(test_help, test_setup),
		cmocka_unit_test_setup(test_manners, test_setup),
		cmocka_unit_test_setup(test_unreachable, test_setup),
		cmocka_unit_test_setup(test_status, test_setup),
		cmocka_unit_test_setup(test_port, test_setup),
		cmocka_unit_test_setup(test_stats, test_setup),
		cmocka_unit_test_setup(test_vrf, test_setup),
		cmocka_unit_test_setup(test_broken_daemon, test_setup),
		cmocka_unit_test_setup(test_watch, test_setup),
	};

	return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
