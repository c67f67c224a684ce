/* SPDX-License-Identifier: BSD-3-Clause */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>

#include "table.h"

/* Three significant digits, moving to the next prefix rather than showing "1000". */
static char *scaled(char *buf, double v, double base, const char *const *prefix, size_t n,
                    const char *unit)
{
	size_t p = 0;

	if (!isfinite(v) || v < 0)
		v = 0;
	while (v >= 999.5 && p + 1 < n) {
		v /= base;
		p++;
	}
	if (p == 0 && v == floor(v))
		snprintf(buf, FWD_FMT_LEN, "%.0f %s%s", v, prefix[p], unit);
	else
		snprintf(buf, FWD_FMT_LEN,
		         v < 9.995   ? "%.2f %s%s"
		         : v < 99.95 ? "%.1f %s%s"
		                     : "%.0f %s%s",
		         v, prefix[p], unit);
	return buf;
}

char *fwd_fmt_si(char buf[FWD_FMT_LEN], double v, const char *unit)
{
	static const char *const si[] = { "", "k", "M", "G", "T", "P", "E" };

	return scaled(buf, v, 1000, si, sizeof(si) / sizeof(si[0]), unit);
}

char *fwd_fmt_bytes(char buf[FWD_FMT_LEN], uint64_t v)
{
	static const char *const iec[] = { "", "Ki", "Mi", "Gi", "Ti", "Pi", "Ei" };

	if (v < 1000) {
		snprintf(buf, FWD_FMT_LEN, "%" PRIu64 " B", v);
		return buf;
	}
	return scaled(buf, (double)v, 1024, iec, sizeof(iec) / sizeof(iec[0]), "B");
}

char *fwd_fmt_duration(char buf[FWD_FMT_LEN], uint64_t s)
{
	if (s < 60)
		snprintf(buf, FWD_FMT_LEN, "%" PRIu64 "s", s);
	else if (s < 3600)
		snprintf(buf, FWD_FMT_LEN, "%" PRIu64 "m%02" PRIu64 "s", s / 60, s % 60);
	else if (s < 86400)
		snprintf(buf, FWD_FMT_LEN, "%" PRIu64 "h%02" PRIu64 "m", s / 3600, s % 3600 / 60);
	else
		snprintf(buf, FWD_FMT_LEN, "%" PRIu64 "d%02" PRIu64 "h", s / 86400,
		         s % 86400 / 3600);
	return buf;
}

char *fwd_fmt_count(char buf[FWD_FMT_LEN], uint64_t v)
{
	char digits[24];
	int n = snprintf(digits, sizeof(digits), "%" PRIu64, v), o = 0;

	for (int i = 0; i < n; i++) {
		if (i > 0 && (n - i) % 3 == 0)
			buf[o++] = ',';
		buf[o++] = digits[i];
	}
	buf[o] = '\0';
	return buf;
}
