/* SPDX-License-Identifier: BSD-3-Clause */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "json.h"

#define MAX_DEPTH 32 /* default instances of a recursive message stop here */

static void emit_message(FILE *out, const ProtobufCMessage *m,
                         const ProtobufCMessageDescriptor *desc, int depth);

/* ----------------------------------------------------------------- strings */

/* Length of the valid UTF-8 sequence at s (RFC 3629: no overlongs,
 * surrogates or code points past U+10FFFF), or 0. */
static size_t utf8_len(const unsigned char *s, size_t n)
{
	unsigned char c = s[0];
	size_t len;

	if (c < 0x80)
		return 1;
	if (c < 0xc2 || c > 0xf4)
		return 0;
	len = c < 0xe0 ? 2 : c < 0xf0 ? 3 : 4;
	if (len > n)
		return 0;
	for (size_t i = 1; i < len; i++)
		if ((s[i] & 0xc0) != 0x80)
			return 0;
	if ((c == 0xe0 && s[1] < 0xa0) || (c == 0xed && s[1] > 0x9f) ||
	    (c == 0xf0 && s[1] < 0x90) || (c == 0xf4 && s[1] > 0x8f))
		return 0;
	return len;
}

static void emit_char(FILE *out, unsigned char c)
{
	switch (c) {
	case '"':
		fputs("\\\"", out);
		break;
	case '\\':
		fputs("\\\\", out);
		break;
	case '\b':
		fputs("\\b", out);
		break;
	case '\f':
		fputs("\\f", out);
		break;
	case '\n':
		fputs("\\n", out);
		break;
	case '\r':
		fputs("\\r", out);
		break;
	case '\t':
		fputs("\\t", out);
		break;
	default:
		if (c < 0x20 || c == 0x7f)
			fprintf(out, "\\u%04x", c);
		else
			fputc(c, out);
	}
}

void fwd_json_string(FILE *out, const char *s, size_t len)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t i = 0, n;

	fputc('"', out);
	while (i < len) {
		n = utf8_len(p + i, len - i);
		if (n == 0) {
			fputs("\\ufffd", out);
			i++;
		} else if (n == 1) {
			emit_char(out, p[i++]);
		} else {
			fwrite(p + i, 1, n, out);
			i += n;
		}
	}
	fputc('"', out);
}

static void emit_base64(FILE *out, const ProtobufCBinaryData *b)
{
	static const char tab[] =
	        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
	size_t i;

	fputc('"', out);
	for (i = 0; i + 2 < b->len; i += 3) {
		uint32_t v = (uint32_t)b->data[i] << 16 | b->data[i + 1] << 8 | b->data[i + 2];

		fprintf(out, "%c%c%c%c", tab[v >> 18], tab[(v >> 12) & 63], tab[(v >> 6) & 63],
		        tab[v & 63]);
	}
	if (b->len - i == 1)
		fprintf(out, "%c%c==", tab[b->data[i] >> 2], tab[(b->data[i] & 3) << 4]);
	else if (b->len - i == 2)
		fprintf(out, "%c%c%c=", tab[b->data[i] >> 2],
		        tab[(b->data[i] & 3) << 4 | b->data[i + 1] >> 4],
		        tab[(b->data[i + 1] & 15) << 2]);
	fputc('"', out);
}

/* ----------------------------------------------------------------- scalars */

/* The shortest text that reads back as the same value. */
static void emit_double(FILE *out, double v, bool single)
{
	char buf[40];

	if (!isfinite(v)) {
		fputs("null", out);
		return;
	}
	/* whole numbers (counters, rates) without an exponent while exact */
	if (v == floor(v) && fabs(v) < 9007199254740992.0) {
		fprintf(out, "%.0f", v);
		return;
	}
	for (int prec = 1; prec <= 17; prec++) {
		double back;

		snprintf(buf, sizeof(buf), "%.*g", prec, v);
		back = strtod(buf, NULL);
		if (single ? (float)back == (float)v : back == v)
			break;
	}
	fputs(buf, out);
}

static void emit_enum(FILE *out, const ProtobufCEnumDescriptor *desc, int v)
{
	const ProtobufCEnumValue *ev = desc ? protobuf_c_enum_descriptor_get_value(desc, v) : NULL;

	if (ev != NULL)
		fwd_json_string(out, ev->name, strlen(ev->name));
	else
		fprintf(out, "%d", v);
}

static size_t elem_size(ProtobufCType type)
{
	switch (type) {
	case PROTOBUF_C_TYPE_INT64:
	case PROTOBUF_C_TYPE_SINT64:
	case PROTOBUF_C_TYPE_SFIXED64:
	case PROTOBUF_C_TYPE_UINT64:
	case PROTOBUF_C_TYPE_FIXED64:
		return 8;
	case PROTOBUF_C_TYPE_DOUBLE:
		return sizeof(double);
	case PROTOBUF_C_TYPE_BOOL:
		return sizeof(protobuf_c_boolean);
	case PROTOBUF_C_TYPE_ENUM:
		return sizeof(int);
	case PROTOBUF_C_TYPE_STRING:
		return sizeof(char *);
	case PROTOBUF_C_TYPE_BYTES:
		return sizeof(ProtobufCBinaryData);
	case PROTOBUF_C_TYPE_MESSAGE:
		return sizeof(ProtobufCMessage *);
	default:
		return 4; /* the 32-bit integers and float */
	}
}

static void emit_value(FILE *out, const ProtobufCFieldDescriptor *f, const void *p, int depth)
{
	const char *s;

	switch (f->type) {
	case PROTOBUF_C_TYPE_INT32:
	case PROTOBUF_C_TYPE_SINT32:
	case PROTOBUF_C_TYPE_SFIXED32:
		fprintf(out, "%" PRId32, *(const int32_t *)p);
		break;
	case PROTOBUF_C_TYPE_INT64:
	case PROTOBUF_C_TYPE_SINT64:
	case PROTOBUF_C_TYPE_SFIXED64:
		fprintf(out, "%" PRId64, *(const int64_t *)p);
		break;
	case PROTOBUF_C_TYPE_UINT64:
	case PROTOBUF_C_TYPE_FIXED64:
		fprintf(out, "%" PRIu64, *(const uint64_t *)p);
		break;
	case PROTOBUF_C_TYPE_FLOAT:
		emit_double(out, *(const float *)p, true);
		break;
	case PROTOBUF_C_TYPE_DOUBLE:
		emit_double(out, *(const double *)p, false);
		break;
	case PROTOBUF_C_TYPE_BOOL:
		fputs(*(const protobuf_c_boolean *)p ? "true" : "false", out);
		break;
	case PROTOBUF_C_TYPE_ENUM:
		emit_enum(out, f->descriptor, *(const int *)p);
		break;
	case PROTOBUF_C_TYPE_STRING:
		s = *(char *const *)p;
		fwd_json_string(out, s ? s : "", s ? strlen(s) : 0);
		break;
	case PROTOBUF_C_TYPE_BYTES:
		emit_base64(out, p);
		break;
	case PROTOBUF_C_TYPE_MESSAGE:
		emit_message(out, *(ProtobufCMessage *const *)p, f->descriptor, depth + 1);
		break;
	default: /* uint32, fixed32 */
		fprintf(out, "%" PRIu32, *(const uint32_t *)p);
	}
}

/* ---------------------------------------------------------------- messages */

static const void *field_ptr(const ProtobufCMessage *m, unsigned offset)
{
	return (const char *)m + offset;
}

static bool field_present(const ProtobufCMessage *m, const ProtobufCFieldDescriptor *f)
{
	if (!(f->flags & PROTOBUF_C_FIELD_FLAG_ONEOF))
		return true;
	return *(const uint32_t *)field_ptr(m, f->quantifier_offset) == f->id;
}

static size_t repeated_count(const ProtobufCMessage *m, const ProtobufCFieldDescriptor *f)
{
	return *(const size_t *)field_ptr(m, f->quantifier_offset);
}

static void emit_key(FILE *out, const ProtobufCFieldDescriptor *f, bool *comma)
{
	if (*comma)
		fputc(',', out);
	*comma = true;
	fwd_json_string(out, f->name, strlen(f->name));
	fputc(':', out);
}

/* The elements of a repeated field, each preceded by a comma when *comma. */
static void emit_elems(FILE *out, const ProtobufCMessage *m, const ProtobufCFieldDescriptor *f,
                       bool *comma, int depth)
{
	const char *arr = *(const char *const *)field_ptr(m, f->offset);
	size_t n = repeated_count(m, f), sz = elem_size(f->type);

	for (size_t i = 0; i < n && arr != NULL; i++) {
		if (*comma)
			fputc(',', out);
		*comma = true;
		emit_value(out, f, arr + i * sz, depth);
	}
}

static void emit_field(FILE *out, const ProtobufCMessage *m, const ProtobufCFieldDescriptor *f,
                       bool *comma, int depth)
{
	bool elem_comma = false;

	if (!field_present(m, f))
		return;
	emit_key(out, f, comma);
	if (f->label != PROTOBUF_C_LABEL_REPEATED) {
		emit_value(out, f, field_ptr(m, f->offset), depth);
		return;
	}
	fputc('[', out);
	emit_elems(out, m, f, &elem_comma, depth);
	fputc(']', out);
}

static void emit_message(FILE *out, const ProtobufCMessage *m,
                         const ProtobufCMessageDescriptor *desc, int depth)
{
	ProtobufCMessage *dflt = NULL;
	bool comma = false;

	if (m == NULL) {
		if (desc == NULL || depth > MAX_DEPTH ||
		    (dflt = calloc(1, desc->sizeof_message)) == NULL) {
			fputs("null", out);
			return;
		}
		protobuf_c_message_init(desc, dflt);
		m = dflt;
	}
	fputc('{', out);
	for (unsigned i = 0; i < m->descriptor->n_fields; i++)
		emit_field(out, m, &m->descriptor->fields[i], &comma, depth);
	fputc('}', out);
	free(dflt);
}

void fwd_json_message(FILE *out, const ProtobufCMessage *msg)
{
	emit_message(out, msg, msg ? msg->descriptor : NULL, 0);
}

const ProtobufCMessage *fwd_json_body(const Fwd__Response *resp)
{
	const ProtobufCFieldDescriptor *f;

	if (resp->body_case == FWD__RESPONSE__BODY__NOT_SET)
		return NULL;
	f = protobuf_c_message_descriptor_get_field(resp->base.descriptor, resp->body_case);
	if (f == NULL || f->type != PROTOBUF_C_TYPE_MESSAGE)
		return NULL;
	return *(ProtobufCMessage *const *)field_ptr(&resp->base, f->offset);
}

/* ------------------------------------------------------------------ paging */

/*
 * The document is written in field order: fields before the first repeated
 * one come from the first page at once, then that field's array grows page
 * by page, and the rest follows at the end (non-repeated fields from the
 * first page, other repeated fields concatenated over the pages).
 */
struct fwd_json_merge {
	FILE *out;
	Fwd__Response *first;
	const ProtobufCMessageDescriptor *desc;
	unsigned stream; /* index of the streamed field in desc->fields; n_fields: none */
	bool field_comma, elem_comma;
	Fwd__Response **held; /* later pages with elements in other repeated fields */
	size_t n_held;
};

struct fwd_json_merge *fwd_json_merge_new(FILE *out)
{
	struct fwd_json_merge *m = calloc(1, sizeof(*m));

	if (m != NULL)
		m->out = out;
	return m;
}

static void merge_first(struct fwd_json_merge *m, Fwd__Response *resp)
{
	const ProtobufCMessage *body = fwd_json_body(resp);
	const ProtobufCFieldDescriptor *fields = body->descriptor->fields;
	unsigned i;

	m->first = resp;
	m->desc = body->descriptor;
	for (i = 0; i < m->desc->n_fields; i++)
		if (fields[i].label == PROTOBUF_C_LABEL_REPEATED)
			break;
	m->stream = i;
	fputc('{', m->out);
	for (i = 0; i < m->stream; i++)
		emit_field(m->out, body, &fields[i], &m->field_comma, 1);
	if (m->stream < m->desc->n_fields) {
		emit_key(m->out, &fields[m->stream], &m->field_comma);
		fputc('[', m->out);
		emit_elems(m->out, body, &fields[m->stream], &m->elem_comma, 1);
	}
}

/* Whether body has elements in a repeated field other than the streamed one. */
static bool has_other_elems(const struct fwd_json_merge *m, const ProtobufCMessage *body)
{
	for (unsigned i = m->stream + 1; i < m->desc->n_fields; i++)
		if (m->desc->fields[i].label == PROTOBUF_C_LABEL_REPEATED &&
		    repeated_count(body, &m->desc->fields[i]) > 0)
			return true;
	return false;
}

int fwd_json_merge_page(struct fwd_json_merge *m, Fwd__Response *resp)
{
	const ProtobufCMessage *body = fwd_json_body(resp);
	Fwd__Response **held;

	if (body == NULL || m->first == NULL) {
		if (body != NULL)
			merge_first(m, resp);
		else
			fwd__response__free_unpacked(resp, NULL);
		return 0;
	}
	if (body->descriptor != m->desc) {
		fwd__response__free_unpacked(resp, NULL);
		return -EBADMSG;
	}
	if (m->stream < m->desc->n_fields)
		emit_elems(m->out, body, &m->desc->fields[m->stream], &m->elem_comma, 1);
	if (!has_other_elems(m, body)) {
		fwd__response__free_unpacked(resp, NULL);
		return 0;
	}
	held = realloc(m->held, (m->n_held + 1) * sizeof(*held));
	if (held == NULL) {
		fwd__response__free_unpacked(resp, NULL);
		return -ENOMEM;
	}
	m->held = held;
	m->held[m->n_held++] = resp;
	return 0;
}

static void merge_rest(struct fwd_json_merge *m)
{
	const ProtobufCMessage *body = fwd_json_body(m->first);

	for (unsigned i = m->stream + 1; i < m->desc->n_fields; i++) {
		const ProtobufCFieldDescriptor *f = &m->desc->fields[i];
		bool comma = false;

		if (f->label != PROTOBUF_C_LABEL_REPEATED) {
			emit_field(m->out, body, f, &m->field_comma, 1);
			continue;
		}
		emit_key(m->out, f, &m->field_comma);
		fputc('[', m->out);
		emit_elems(m->out, body, f, &comma, 1);
		for (size_t h = 0; h < m->n_held; h++)
			emit_elems(m->out, fwd_json_body(m->held[h]), f, &comma, 1);
		fputc(']', m->out);
	}
}

void fwd_json_merge_end(struct fwd_json_merge *m, bool ok)
{
	if (m == NULL)
		return;
	if (m->first == NULL) {
		if (ok)
			fputs("{}\n", m->out);
	} else {
		if (m->stream < m->desc->n_fields)
			fputc(']', m->out);
		merge_rest(m);
		fputs("}\n", m->out);
		fwd__response__free_unpacked(m->first, NULL);
	}
	for (size_t h = 0; h < m->n_held; h++)
		fwd__response__free_unpacked(m->held[h], NULL);
	free(m->held);
	free(m);
}
