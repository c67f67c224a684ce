/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * A config back to YAML, by walking the same schema the loader uses, so
 * every key is written (defaults included, but for the quiet ones that would
 * be said again on every list item) and a new key needs no code here.
 */
#include <errno.h>
#include <string.h>

#include "core/config_priv.h"

/* A double-quoted scalar that reads back as the same bytes: quotes,
 * backslashes and control characters escaped, and the Unicode line breaks
 * (NEL, LS, PS) too, which YAML would otherwise fold into a space. */
static void emit_quoted(FILE *out, const char *s)
{
	fputc('"', out);
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		if (*p == '"' || *p == '\\')
			fprintf(out, "\\%c", *p);
		else if (*p < 0x20 || *p == 0x7f)
			fprintf(out, "\\x%02x", *p);
		else if (p[0] == 0xc2 && p[1] == 0x85) {
			fputs("\\N", out);
			p += 1;
		} else if (p[0] == 0xe2 && p[1] == 0x80 && (p[2] == 0xa8 || p[2] == 0xa9)) {
			fputs(p[2] == 0xa8 ? "\\L" : "\\P", out);
			p += 2;
		} else {
			fputc(*p, out);
		}
	}
	fputc('"', out);
}

static uint32_t load_uint(const char *src, size_t size)
{
	uint16_t v16;
	uint32_t v32;

	if (size == sizeof(v16)) {
		memcpy(&v16, src, sizeof(v16));
		return v16;
	}
	memcpy(&v32, src, sizeof(v32));
	return v32;
}

static void emit_scalar(FILE *out, const struct conf_field *f, const char *src)
{
	char buf[FWD_PREFIX_STRLEN];
	struct fwd_prefix pf;
	struct fwd_ip ip;
	const char *s;
	int e;

	switch (f->kind) {
	case CONF_STR:
		emit_quoted(out, src);
		break;
	case CONF_HSTR:
		memcpy(&s, src, sizeof(s));
		emit_quoted(out, s ? s : "");
		break;
	case CONF_UINT:
		fprintf(out, "%u", load_uint(src, f->size));
		break;
	case CONF_BOOL:
		fputs(*(const bool *)src ? "true" : "false", out);
		break;
	case CONF_ENUM:
		memcpy(&e, src, sizeof(e));
		fputs(f->names[e], out);
		break;
	case CONF_IP: /* IPv6 quoted: "::/0" would not read back as a plain scalar */
		memcpy(&ip, src, sizeof(ip));
		fprintf(out, ip.family == AF_INET6 ? "\"%s\"" : "%s", fwd_ip_fmt(&ip, buf));
		break;
	case CONF_ADDR:
	case CONF_NET:
		memcpy(&pf, src, sizeof(pf));
		fprintf(out, pf.family == AF_INET6 ? "\"%s\"" : "%s", fwd_prefix_fmt(&pf, buf));
		break;
	case CONF_MAC:
		fprintf(out, "\"%s\"", fwd_mac_fmt((const uint8_t *)src, buf));
		break;
	default:
		break;
	}
}

/* Optional keys that have no value: an empty name, an absent next hop; and
 * quiet keys at their default. */
static bool unset(const struct conf_field *f, const char *src)
{
	if (f->required)
		return false;
	if (f->quiet && f->kind == CONF_BOOL)
		return *(const bool *)src == (f->def != 0);
	if (f->quiet && f->kind == CONF_UINT)
		return load_uint(src, f->size) == f->def;
	if (f->quiet && f->kind == CONF_ENUM)
		return *(const int *)(const void *)src == (int)f->def;
	if (f->kind == CONF_STR)
		return f->min > 0 && f->def_str == NULL && src[0] == '\0';
	if (f->kind == CONF_IP)
		return ((const struct fwd_ip *)(const void *)src)->family == 0;
	if (f->kind == CONF_NET || f->kind == CONF_ADDR)
		return ((const struct fwd_prefix *)(const void *)src)->family == 0;
	if (f->kind == CONF_LIST && (f->one_ok || f->quiet)) {
		unsigned n;
		memcpy(&n, src - f->off + f->count_off, sizeof(n));
		return n == 0;
	}
	return false;
}

static void emit_map(FILE *out, const struct conf_field *fields, const char *obj, int indent,
                     bool item);

static void emit_list(FILE *out, const struct conf_field *f, const char *obj, int indent)
{
	const struct conf_field *elem = f->sub;
	unsigned n;
	const char *arr = obj + f->off;

	memcpy(&n, obj + f->count_off, sizeof(n));
	if (n == 0) {
		fputs(" []\n", out);
		return;
	}
	if (f->heap)
		memcpy(&arr, obj + f->off, sizeof(arr));
	if (n == 1 && f->one_ok) {
		fputc(' ', out);
		emit_scalar(out, elem, arr);
		fputc('\n', out);
		return;
	}
	fputc('\n', out);
	for (unsigned i = 0; i < n; i++) {
		const char *slot = arr + (size_t)i * elem->size;

		if (elem->kind == CONF_MAP) {
			if (f->hide == NULL || !f->hide(slot))
				emit_map(out, elem->sub, slot, indent + 4, true);
			continue;
		}
		fprintf(out, "%*s- ", indent + 2, "");
		emit_scalar(out, elem, slot);
		fputc('\n', out);
	}
}

static void emit_map(FILE *out, const struct conf_field *fields, const char *obj, int indent,
                     bool item)
{
	bool first = true;

	for (const struct conf_field *f = fields; f->key; f++) {
		const char *o = conf_field_obj(f, (char *)(uintptr_t)obj);

		if (unset(f, o + f->off))
			continue;
		if (item && first)
			fprintf(out, "%*s- %s:", indent - 2, "", f->key);
		else
			fprintf(out, "%*s%s:", indent, "", f->key);
		first = false;
		if (f->kind == CONF_MAP) {
			fputc('\n', out);
			emit_map(out, f->sub, o + f->off, indent + 2, false);
		} else if (f->kind == CONF_LIST) {
			emit_list(out, f, o, indent);
		} else {
			fputc(' ', out);
			emit_scalar(out, f, o + f->off);
			fputc('\n', out);
		}
	}
}

int fwd_config_emit(const struct fwd_config *cfg, FILE *out)
{
	fputs("# fwd configuration (see fwd.yaml(5)); every key is shown but for a\n"
	      "# list item's flags at their default (a route's blackhole when false)\n",
	      out);
	emit_map(out, conf_root_fields, (const char *)cfg, 0, false);
	return ferror(out) ? -EIO : 0;
}
