/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The YAML config loader on arbitrary bytes. Invariants: no crash, leak or
 * hang; a buffer that loads emits YAML that loads back and emits the same
 * text again (the round trip `config show` relies on).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/config.h"

static FILE *sink;

static char *emit(const struct fwd_config *cfg, size_t *len)
{
	char *text = NULL;
	FILE *f = open_memstream(&text, len);

	if (f == NULL)
		abort();
	fwd_config_emit(cfg, f);
	fclose(f);
	return text;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fwd_config *cfg, *again;
	char *t1, *t2;
	size_t l1, l2;

	if (sink == NULL && (sink = fopen("/dev/null", "w")) == NULL)
		abort();
	cfg = fwd_config_load_buf("fuzz.yaml", (const char *)data, size, sink);
	if (cfg == NULL)
		return 0;
	t1 = emit(cfg, &l1);
	again = fwd_config_load_buf("emitted.yaml", t1, l1, stderr);
	if (again == NULL)
		abort(); /* emitted YAML must load */
	t2 = emit(again, &l2);
	if (l1 != l2 || memcmp(t1, t2, l1) != 0)
		abort(); /* and say the same thing again */
	free(t1);
	free(t2);
	fwd_config_free(again);
	fwd_config_free(cfg);
	return 0;
}
