/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * fwdctl's exit status with -j is the one without it, for every command: a
 * script that reads the JSON document and tests $? must not take a refusal
 * for a success (`-j config check` of a bad file used to exit 0). And the
 * daemon's diagnostics reach the terminal as it wrote them: several lines,
 * the caret under the column, only control characters other than newline
 * and tab made safe.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <cmocka.h>

#include "cli.h"
#include "cli_fake.h"

static struct fake fake;
static char good_path[64], bad_path[64];

/* What the daemon answers to everything the fake does not know (route add,
 * neigh list, capture, ...): EXIT_ANSWER_OK an empty success, else a refusal. */
enum exit_answer { EXIT_ANSWER_FAKE, EXIT_ANSWER_OK, EXIT_ANSWER_REFUSE };
static atomic_int answer;

#define DIAG                                                                    \
	"/etc/fwd.yaml:17:10: dataplane.burst: 9999 is out of range (1..512)\n" \
	"  burst: 9999\n"                                                       \
	"         ^\n"

static void reply_config(const Fwd__Request *req, Fwd__Response *r)
{
	static Fwd__ConfigCheckResp check;
	static Fwd__ConfigReloadResp reload;
	static char *changes[] = { "dataplane.burst: 32 -> 64" };

	if (req->body_case == FWD__REQUEST__BODY_CONFIG_CHECK) {
		fwd__config_check_resp__init(&check);
		check.ok = memmem(req->config_check->content.data, req->config_check->content.len,
		                  "9999", 4) == NULL;
		check.errors = check.ok ? "" : DIAG "\x1b[2J\r";
		r->body_case = FWD__RESPONSE__BODY_CONFIG_CHECK;
		r->config_check = &check;
		return;
	}
	fwd__config_reload_resp__init(&reload);
	reload.n_changes = 1;
	reload.changes = changes;
	r->body_case = FWD__RESPONSE__BODY_CONFIG_RELOAD;
	r->config_reload = &reload;
}

static void reply_exit(const Fwd__Request *req, Fwd__Response *r, int fd)
{
	int a = atomic_load(&answer);

	if (a == EXIT_ANSWER_REFUSE) {
		r->status = EINVAL;
		r->error = DIAG;
	} else if (req->body_case == FWD__REQUEST__BODY_CONFIG_CHECK ||
	           req->body_case == FWD__REQUEST__BODY_CONFIG_RELOAD) {
		reply_config(req, r);
	} else if (a == EXIT_ANSWER_FAKE) {
		reply(req, r, fd);
	}
}

static void write_file(char *path, const char *text)
{
	int fd;

	snprintf(path, 64, "/tmp/fwdctl-exit.XXXXXX");
	fd = mkstemp(path);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
}

static int group_setup(void **state)
{
	(void)state;
	init_ports();
	fake_reply = reply_exit;
	fake_start(&fake);
	setenv("FWD_SOCKET", fake.path, 1);
	setenv("FWD_TIMEOUT", "2", 1);
	write_file(good_path, "dataplane:\n  burst: 64\n");
	write_file(bad_path, "dataplane:\n  burst: 9999\n");
	return 0;
}

static int group_teardown(void **state)
{
	(void)state;
	fake_stop(&fake);
	unlink(good_path);
	unlink(bad_path);
	free(out_buf);
	free(err_buf);
	return 0;
}

/* Every command form of fwdctl(8), %s standing for a config file. Streams
 * that only end on Ctrl-C (--watch) are left out: cli_args_test has them. */
static const char *const commands[] = {
	"status",
	"port list",
	"port show p0",
	"port show p9",
	"port set p0 up",
	"port set p0 sideways",
	"stats",
	"stats p0",
	"stats clear",
	"stats workers",
	"addr list",
	"-6 addr list dev p0",
	"addr add 10.0.0.1/24 dev p0",
	"addr del 10.0.0.1/24 dev p0",
	"addr add 10.0.0.1/24",
	"route list",
	"-4 route list",
	"route get 10.0.0.7",
	"route add 198.51.100.0/24 via 10.0.0.2",
	"route add 203.0.113.0/24 blackhole",
	"route replace 198.51.100.0/24 via 10.0.0.3",
	"route del 198.51.100.0/24",
	"route add 198.51.100.0/24 via",
	"route load %s",
	"route load /nonexistent/routes.txt",
	"neigh list",
	"neigh add 10.0.0.2 lladdr 02:00:00:00:00:02 dev p0",
	"neigh del 10.0.0.2 dev p0",
	"neigh flush",
	"bridge list",
	"bridge fdb br0",
	"bridge flush",
	"iface list",
	"iface add p0.100 port p0 vlan 100",
	"iface add p0.100 port p0 vlan 100 mtu 1400",
	"iface add lo0 loopback",
	"iface add p0.100 port p0 vlan 4095",
	"iface del p0.100",
	"iface set p0.100 down",
	"iface set p0.100 mtu 1400",
	"iface set p0.100 sideways",
	"acl list",
	"acl show edge-in",
	"acl show",
	"bond list",
	"bond show bond0",
	"bond show",
	"vrf list",
	"-V blue route list",
	"-V nosuch route list",
	"config show",
	"config reload",
	"config check %s",
	"config check /nonexistent/fwd.yaml",
	"capture p0 rx -c 1",
	"capture drops -c 1",
	"capture drops -l",
	"monitor route",
	"help",
	"rotue list",
};

/* Each command plain and with -j: the same exit status. Returns how many
 * exited with want (so that each answer mode is seen to matter). */
static int same_status(const char *file, int want)
{
	int hits = 0;

	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++) {
		char cmd[256], jcmd[270];
		int plain, json;

		snprintf(cmd, sizeof(cmd), commands[i], file);
		snprintf(jcmd, sizeof(jcmd), "-j %s", cmd);
		plain = cli_run(cmd);
		json = cli_run(jcmd);
		if (plain != json)
			fail_msg("fwdctl %s exits %d, with -j %d", cmd, plain, json);
		hits += plain == want;
	}
	return hits;
}

/* Every registered object has a command in the list. */
static void test_covers_every_object(void **state)
{
	(void)state;
	for (const struct fwd_cli_object *o = fwd_cli_objects(); o != NULL; o = o->next) {
		bool found = false;

		for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]) && !found; i++) {
			const char *c = commands[i];

			if (c[0] == '-')
				c += 3;
			found = strncmp(c, o->name, strlen(o->name)) == 0 &&
			        (c[strlen(o->name)] == ' ' || c[strlen(o->name)] == '\0');
		}
		if (!found)
			fail_msg("object %s has no command in commands[]", o->name);
	}
}

static void test_same_status(void **state)
{
	(void)state;
	atomic_store(&answer, EXIT_ANSWER_FAKE);
	assert_true(same_status(good_path, 0) > 5);
	assert_true(same_status(bad_path, 1) > 5);
	atomic_store(&answer, EXIT_ANSWER_OK);
	assert_true(same_status(good_path, 0) > 20);
	atomic_store(&answer, EXIT_ANSWER_REFUSE);
	assert_true(same_status(good_path, 1) > 20);
	assert_true(same_status(good_path, 2) > 5);
	setenv("FWD_SOCKET", "/nonexistent/fwd.sock", 1);
	assert_true(same_status(good_path, 3) > 20);
	setenv("FWD_SOCKET", fake.path, 1);
}

static void test_config_check_refused(void **state)
{
	char cmd[128];

	(void)state;
	atomic_store(&answer, EXIT_ANSWER_OK);
	snprintf(cmd, sizeof(cmd), "config check %s", bad_path);
	assert_int_equal(cli_run(cmd), FWD_EXIT_REFUSED);
	/* as the daemon wrote it, the escape sequence and carriage return made safe */
	assert_string_equal(err_buf, DIAG "?[2J?");
	assert_string_equal(out_buf, "");
	snprintf(cmd, sizeof(cmd), "-j config check %s", bad_path);
	assert_int_equal(cli_run(cmd), FWD_EXIT_REFUSED);
	assert_non_null(strstr(out_buf, "\"ok\":false"));
	snprintf(cmd, sizeof(cmd), "-j config check %s", good_path);
	assert_int_equal(cli_run(cmd), FWD_EXIT_OK);
	assert_non_null(strstr(out_buf, "\"ok\":true"));
}

static void test_reload_refused(void **state)
{
	(void)state;
	atomic_store(&answer, EXIT_ANSWER_REFUSE);
	assert_int_equal(cli_run("config reload"), FWD_EXIT_REFUSED);
	/* one message of three lines, caret in its column, one newline at the end */
	assert_string_equal(err_buf, "fwdctl: config reload: " DIAG);
	assert_int_equal(cli_run("-j config reload"), FWD_EXIT_REFUSED);
	assert_string_equal(err_buf, "fwdctl: config reload: " DIAG);
	atomic_store(&answer, EXIT_ANSWER_OK);
	assert_int_equal(cli_run("config reload"), FWD_EXIT_OK);
	assert_string_equal(out_buf, "dataplane.burst: 32 -> 64\n");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_covers_every_object),
		cmocka_unit_test(test_same_status),
		cmocka_unit_test(test_config_check_refused),
		cmocka_unit_test(test_reload_refused),
	};

	return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
