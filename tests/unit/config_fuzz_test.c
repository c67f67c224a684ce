/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The config loader under hostile input: thousands of mutated and random
 * buffers (each must give a config or NULL plus a message, never a crash, a
 * leak or a hang; whatever is accepted must survive emit -> load), and the
 * limits: table sizes, error cap, file size, node count, long lines.
 * Deterministic (fixed seed), so a failure can be replayed; for a soak run set
 * FWD_FUZZ_ROUNDS (default 3000) and FWD_FUZZ_SEED.
 */
#include <dirent.h>
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "core/config.h"

#include "config_test_util.h"

#define MAX_SEEDS   128
#define FUZZ_CAP    16384
#define FUZZ_ROUNDS 3000
#define RANDOM_BUFS 1000

struct seed {
	char *text;
	size_t len;
};

static struct seed seeds[MAX_SEEDS];
static unsigned n_seeds, n_good; /* the good ones first */
static unsigned rounds;
static uint64_t rng = 0x2545f4914f6cdd1dULL;

static uint32_t rnd(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (uint32_t)(rng >> 16);
}

static void add_seed(const char *rel)
{
	char path[1024];
	FILE *f;
	struct seed *s = &seeds[n_seeds];

	path_of(path, sizeof(path), rel);
	f = fopen(path, "rb");
	assert_non_null(f);
	s->text = malloc(FUZZ_CAP);
	assert_non_null(s->text);
	s->len = fread(s->text, 1, FUZZ_CAP / 2, f);
	fclose(f);
	n_seeds++;
}

static void add_seed_dir(const char *rel)
{
	char path[1024], file[1024];
	struct dirent *e;
	DIR *d;

	path_of(path, sizeof(path), rel);
	d = opendir(path);
	assert_non_null(d);
	while ((e = readdir(d)) != NULL && n_seeds < MAX_SEEDS) {
		if (e->d_name[0] == '.')
			continue;
		snprintf(file, sizeof(file), "%s/%s", rel, e->d_name);
		add_seed(file);
	}
	closedir(d);
}

static unsigned env_num(const char *name, unsigned def)
{
	const char *v = getenv(name);

	return v && v[0] ? (unsigned)strtoul(v, NULL, 0) : def;
}

static int seeds_setup(void **state)
{
	(void)state;
	rounds = env_num("FWD_FUZZ_ROUNDS", FUZZ_ROUNDS);
	rng ^= env_num("FWD_FUZZ_SEED", 0);
	add_seed("conf/fwd.yaml");
	add_seed_dir(DATA_DIR "/good");
	n_good = n_seeds;
	add_seed_dir(DATA_DIR "/bad");
	return 0;
}

static int seeds_teardown(void **state)
{
	(void)state;
	for (unsigned i = 0; i < n_seeds; i++)
		free(seeds[i].text);
	return 0;
}

static const char *const tokens[] = {
	":",
	": ",
	"- ",
	"[",
	"]",
	"{",
	"}",
	",",
	"&a ",
	"*a",
	"!!str ",
	"!x ",
	"\n",
	"  ",
	"\t",
	"'",
	"\"",
	"#",
	"---\n",
	"...\n",
	"? ",
	"|\n",
	">-\n",
	"\\",
	"\\0",
	"%YAML 1.1\n",
	"%TAG ! x\n",
	"ports",
	"name",
	"device",
	"mode",
	"peer",
	"bridge",
	"xconnect",
	"addresses",
	"routes",
	"via",
	"dev",
	"prefix",
	"true",
	"false",
	"null",
	"~",
	"65536",
	"-1",
	"0x10",
	"p0",
	"p1",
	"br0",
	"0-1",
	"1,3",
	"\xff",
	"\xc3\xa9",
	"\r\n",
	"\xe2\x80\xa8",
	"10.0.0.1/24",
	"0.0.0.0/0",
	"10.0.0.2",
	"02:00:00:00:00:02",
	"blackhole",
	"neighbors",
};

/* One random edit of buf (len bytes used of FUZZ_CAP); returns the new length. */
static size_t mutate(char *buf, size_t len)
{
	size_t pos = rnd() % (len + 1), n = rnd() % 24;
	const char *t = tokens[rnd() % N(tokens)];

	switch (rnd() % 6) {
	case 0:
		if (len)
			buf[rnd() % len] = (char)rnd();
		return len;
	case 1:
		n = strlen(t);
		if (len + n > FUZZ_CAP)
			return len;
		memmove(buf + pos + n, buf + pos, len - pos);
		memcpy(buf + pos, t, n);
		return len + n;
	case 2:
		n = n > len - pos ? len - pos : n;
		memmove(buf + pos, buf + pos + n, len - pos - n);
		return len - n;
	case 3: {
		size_t from = rnd() % (len + 1);

		n = n > len - from ? len - from : n;
		if (len + n > FUZZ_CAP)
			return len;
		memmove(buf + pos + n, buf + pos, len - pos);
		memmove(buf + pos, buf + (from < pos ? from : from + n), n);
		return len + n;
	}
	case 4:
		return pos;
	default:
		if (len)
			buf[rnd() % len] = " \n:-0123456789"[rnd() % 14];
		return len;
	}
}

/* Whatever the loader makes of buf, it must survive; what it accepts must round-trip. */
static bool feed(const char *buf, size_t len, FILE *sink)
{
	struct fwd_config *cfg = fwd_config_load_buf("fuzz.yaml", buf, len, sink);

	if (cfg == NULL) {
		assert_true(errno == EINVAL || errno == ENOMEM);
		return false;
	}
	assert_true(cfg->n_ports >= 1);
	assert_round_trip(cfg);
	fwd_config_free(cfg);
	return true;
}

static void test_mutations(void **state)
{
	char *buf = malloc(FUZZ_CAP);
	FILE *sink = fopen("/dev/null", "w");
	unsigned accepted = 0;

	(void)state;
	assert_non_null(buf);
	assert_non_null(sink);
	for (unsigned i = 0; i < rounds; i++) {
		/* half from good files: small edits of those reach the deeper checks */
		const struct seed *s = &seeds[rnd() % (i % 2 ? n_good : n_seeds)];
		size_t len = s->len;

		memcpy(buf, s->text, len);
		for (unsigned k = 1 + rnd() % (i % 2 ? 3 : 8); k > 0; k--)
			len = mutate(buf, len);
		accepted += feed(buf, len, sink);
	}
	print_message("%u mutated buffers, %u accepted\n", rounds, accepted);
	fclose(sink);
	free(buf);
}

static void test_random(void **state)
{
	char *buf = malloc(FUZZ_CAP);
	FILE *sink = fopen("/dev/null", "w");

	(void)state;
	assert_non_null(buf);
	assert_non_null(sink);
	for (unsigned i = 0; i < RANDOM_BUFS; i++) {
		size_t len = 0;

		if (i % 2) {
			for (len = rnd() % 512; len < FUZZ_CAP && rnd() % 64; len++)
				buf[len] = (char)rnd();
		} else {
			for (unsigned k = rnd() % 200; k > 0; k--)
				len = mutate(buf, len);
		}
		feed(buf, len, sink);
	}
	fclose(sink);
	free(buf);
}

/* ------------------------------------------------------------ limits */

static char *routes_text(unsigned n, bool dup_last)
{
	size_t cap = 128 + (size_t)n * 64, len;
	char *s = malloc(cap);

	assert_non_null(s);
	len = (size_t)snprintf(s, cap,
	                       "ports: [{ name: p0, device: d, addresses: [10.0.0.1/8] }]\n"
	                       "routes:\n");
	for (unsigned i = 0; i < n; i++) {
		unsigned v = dup_last && i == n - 1 ? 0 : i;

		len += (size_t)snprintf(s + len, cap - len,
		                        "  - { prefix: %u.%u.%u.0/24, via: 10.0.0.2 }\n",
		                        20 + (v >> 16), (v >> 8) & 0xff, v & 0xff);
	}
	return s;
}

static void test_big_tables(void **state)
{
	char *text, *msg = NULL;
	struct fwd_config *cfg;

	(void)state;
	text = routes_text(FWD_MAX_CONF_ROUTES, false);
	cfg = load_str(text, &msg);
	assert_non_null(cfg);
	assert_int_equal(cfg->n_routes, FWD_MAX_CONF_ROUTES);
	fwd_config_free(cfg);
	free(text);
	free(msg);

	text = routes_text(FWD_MAX_CONF_ROUTES, true);
	assert_null(load_str(text, &msg));
	assert_non_null(strstr(msg, "routes[65535].prefix: duplicate route for 20.0.0.0/24"));
	free(text);
	free(msg);

	text = routes_text(FWD_MAX_CONF_ROUTES + 1, false);
	assert_null(load_str(text, &msg));
	assert_non_null(strstr(msg, ":65539:5: routes: too many entries (at most 65536)"));
	free(text);
	free(msg);
}

static void test_error_cap(void **state)
{
	char text[4096], *msg = NULL, *p;
	size_t len = (size_t)sprintf(text, "ports:\n");
	unsigned lines = 0;

	(void)state;
	for (unsigned i = 0; i < 30; i++)
		len += (size_t)sprintf(text + len, "  - { name: p%u, device: d%u, mtu: 1 }\n", i,
		                       i);
	assert_null(load_str(text, &msg));
	for (p = msg; (p = strstr(p, "mem.yaml:")) != NULL; p++)
		lines++;
	assert_int_equal(lines, 20 + 1);
	assert_non_null(strstr(msg, "mem.yaml: too many errors, stopped after 20\n"));
	free(msg);
}

static void test_size_limits(void **state)
{
	size_t big = (16u << 20) + 1;
	char *text = malloc(big + 1), *msg = NULL, *p;

	(void)state;
	assert_non_null(text);
	memset(text, '#', big);
	text[big] = '\0';
	assert_null(load_str(text, &msg));
	assert_string_equal(msg, "mem.yaml: too large (more than 16 MiB)\n");
	free(msg);

	/* a flow list of more nodes than the loader keeps */
	p = text + sprintf(text, "ports: [");
	for (unsigned i = 0; i < (1u << 20) + 8; i++)
		p += sprintf(p, "0,");
	strcpy(p, "0]\n");
	assert_null(load_str(text, &msg));
	assert_non_null(strstr(msg, "too many YAML nodes"));
	free(msg);
	free(text);
}

/* An error far along a long line shows a window of it, caret still in place. */
static void test_long_line(void **state)
{
	char text[1024], *msg = NULL, *line, *caret;
	size_t len = (size_t)sprintf(text, "ports: [{ name: p0, device: \"");

	(void)state;
	memset(text + len, 'x', 200);
	len += 200;
	sprintf(text + len, "\", mtu: 5 }]\n");
	assert_null(load_str(text, &msg));
	assert_non_null(strstr(msg, "mem.yaml:1:238: ports[0].mtu: 5 is out of range"));
	line = strchr(msg, '\n') + 1;
	caret = strchr(line, '\n') + 1;
	assert_int_equal(strncmp(line, "...", 3), 0);
	assert_true(strchr(caret, '^') - caret < 120);
	assert_int_equal(line[strchr(caret, '^') - caret], '5');
	free(msg);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_mutations),   cmocka_unit_test(test_random),
		cmocka_unit_test(test_big_tables),  cmocka_unit_test(test_error_cap),
		cmocka_unit_test(test_size_limits), cmocka_unit_test(test_long_line),
	};

	return cmocka_run_group_tests_name("config_fuzz", tests, seeds_setup, seeds_teardown);
}
