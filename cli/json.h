/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Protobuf to JSON by reflection, so every reply prints with -j without
 * per-message code. Keys are the .proto field names; every field is
 * written, defaults included (an unset message field as its default
 * object); only the set member of a oneof appears. Integers are JSON
 * numbers (64-bit ones too), non-finite doubles null, bytes base64, enums
 * their value names. Strings are escaped per RFC 8259 and invalid UTF-8 is
 * replaced with U+FFFD.
 */
#ifndef FWD_CLI_JSON_H
#define FWD_CLI_JSON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "fwd.pb-c.h"

void fwd_json_message(FILE *out, const ProtobufCMessage *msg);
void fwd_json_string(FILE *out, const char *s, size_t len);

/* The message in resp's body oneof, or NULL when it has none. */
const ProtobufCMessage *fwd_json_body(const Fwd__Response *resp);

/*
 * One document from the pages of a reply: the first page's body with each
 * repeated field extended by the following pages' elements. The first
 * repeated field is streamed as pages arrive (a million routes are never
 * held); later pages are only kept when they carry other repeated fields.
 */
struct fwd_json_merge;

struct fwd_json_merge *fwd_json_merge_new(FILE *out);
/* Takes resp. Returns 0, or -EBADMSG when its body is not the first page's kind. */
int fwd_json_merge_page(struct fwd_json_merge *m, Fwd__Response *resp);
/*
 * Closes the document with a newline and frees m. When no page had a body
 * it prints "{}" if ok, nothing otherwise (the call failed before output).
 */
void fwd_json_merge_end(struct fwd_json_merge *m, bool ok);

#endif
