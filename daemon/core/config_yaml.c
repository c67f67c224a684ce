/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * libyaml events -> a tree of struct ynode. The event API (rather than
 * yaml_parser_load) is used because the document API resolves aliases
 * silently and forgets anchors; here both are refused where they appear,
 * and so are tags and a second document.
 */
#include <errno.h>
#include <stdalign.h>
#include <stdlib.h>
#include <string.h>

#include <yaml.h>

#include "core/config_priv.h"

struct tree_state {
	struct ynode *stack[CONF_MAX_DEPTH];
	unsigned depth;
	unsigned docs;
};

static struct fwd_conf_pos mark_pos(yaml_mark_t m)
{
	return (struct fwd_conf_pos){ .line = (unsigned)m.line + 1, .col = (unsigned)m.column + 1 };
}

/* Anchors, aliases and tags would let a file mean more than it shows. */
static int check_props(struct conf_ctx *c, const yaml_event_t *ev, const yaml_char_t *anchor,
                       const yaml_char_t *tag)
{
	char q[CONF_QUOTE_MAX + 8];

	if (anchor) {
		conf_err(&c->diag, mark_pos(ev->start_mark), "YAML anchors are not allowed (&%s)",
		         conf_quote((const char *)anchor, strlen((const char *)anchor), q,
		                    sizeof(q)));
		return -EINVAL;
	}
	if (tag) {
		conf_err(&c->diag, mark_pos(ev->start_mark), "YAML tags are not allowed (%s)",
		         conf_quote((const char *)tag, strlen((const char *)tag), q, sizeof(q)));
		return -EINVAL;
	}
	return 0;
}

static int add_node(struct conf_ctx *c, struct tree_state *st, enum ynode_type type,
                    const yaml_event_t *ev, struct ynode **out)
{
	struct ynode *n;

	if (++c->nodes > CONF_MAX_NODES) {
		conf_err(&c->diag, mark_pos(ev->start_mark),
		         "too many YAML nodes (more than %u): the file is too large",
		         CONF_MAX_NODES);
		return -EINVAL;
	}
	n = fwd_arena_alloc(c->arena, sizeof(*n));
	if (n == NULL)
		return -ENOMEM;
	*n = (struct ynode){ .type = type, .pos = mark_pos(ev->start_mark) };
	if (st->depth == 0) {
		c->root = n;
	} else {
		struct ynode *parent = st->stack[st->depth - 1];

		if (parent->last)
			parent->last->next = n;
		else
			parent->first = n;
		parent->last = n;
		parent->n++;
	}
	*out = n;
	return 0;
}

static int on_scalar(struct conf_ctx *c, struct tree_state *st, const yaml_event_t *ev)
{
	size_t len = ev->data.scalar.length;
	struct ynode *n;
	int rc;

	rc = check_props(c, ev, ev->data.scalar.anchor, ev->data.scalar.tag);
	if (rc == 0)
		rc = add_node(c, st, YN_SCALAR, ev, &n);
	if (rc < 0)
		return rc;
	n->str = fwd_arena_alloc(c->arena, len + 1);
	if (n->str == NULL)
		return -ENOMEM;
	memcpy(n->str, ev->data.scalar.value, len);
	n->str[len] = '\0';
	n->len = (uint32_t)len;
	n->plain = ev->data.scalar.style == YAML_PLAIN_SCALAR_STYLE;
	return 0;
}

static int on_start(struct conf_ctx *c, struct tree_state *st, const yaml_event_t *ev,
                    enum ynode_type type, const yaml_char_t *anchor, const yaml_char_t *tag)
{
	struct ynode *n;
	int rc = check_props(c, ev, anchor, tag);

	if (rc < 0)
		return rc;
	if (st->depth == CONF_MAX_DEPTH) {
		conf_err(&c->diag, mark_pos(ev->start_mark),
		         "nested too deeply (more than %u levels)", CONF_MAX_DEPTH);
		return -EINVAL;
	}
	rc = add_node(c, st, type, ev, &n);
	if (rc < 0)
		return rc;
	st->stack[st->depth++] = n;
	return 0;
}

static int on_event(struct conf_ctx *c, struct tree_state *st, const yaml_event_t *ev)
{
	switch (ev->type) {
	case YAML_DOCUMENT_START_EVENT:
		if (st->docs++ == 0)
			return 0;
		conf_err(&c->diag, mark_pos(ev->start_mark),
		         "only one YAML document is allowed (found a second one)");
		return -EINVAL;
	case YAML_ALIAS_EVENT:
		conf_err(&c->diag, mark_pos(ev->start_mark), "YAML aliases are not allowed");
		return -EINVAL;
	case YAML_SCALAR_EVENT:
		return on_scalar(c, st, ev);
	case YAML_SEQUENCE_START_EVENT:
		return on_start(c, st, ev, YN_SEQ, ev->data.sequence_start.anchor,
		                ev->data.sequence_start.tag);
	case YAML_MAPPING_START_EVENT:
		return on_start(c, st, ev, YN_MAP, ev->data.mapping_start.anchor,
		                ev->data.mapping_start.tag);
	case YAML_SEQUENCE_END_EVENT:
	case YAML_MAPPING_END_EVENT:
		if (st->depth)
			st->depth--;
		return 0;
	default:
		return 0;
	}
}

/* True when the line holding pos is indented with a tab before pos. */
static bool tab_indent(const struct conf_diag *d, struct fwd_conf_pos pos)
{
	struct fwd_conf_pos p = { 1, 1 };
	size_t i;

	for (i = 0; i < d->len && p.line < pos.line; i++)
		if (d->buf[i] == '\n')
			p.line++;
	for (; i < d->len && (d->buf[i] == ' ' || d->buf[i] == '\t'); i++)
		if (d->buf[i] == '\t')
			return true;
	return false;
}

static int syntax_error(struct conf_ctx *c, const yaml_parser_t *p)
{
	struct fwd_conf_pos pos, ctx;
	const char *problem = p->problem ? p->problem : "unknown error";

	if (p->error == YAML_MEMORY_ERROR)
		return -ENOMEM;
	if (p->error == YAML_READER_ERROR) {
		pos = conf_offset_pos(&c->diag, p->problem_offset);
		conf_err(&c->diag, pos, "invalid input: %s", problem);
		return -EINVAL;
	}
	pos = mark_pos(p->problem_mark);
	ctx = mark_pos(p->context_mark);
	if (tab_indent(&c->diag, pos))
		conf_err(&c->diag, pos,
		         "syntax error: %s (indent with spaces: YAML allows no tabs)", problem);
	else if (p->context)
		conf_err(&c->diag, pos, "syntax error: %s (%s at line %u, column %u)", problem,
		         p->context, ctx.line, ctx.col);
	else
		conf_err(&c->diag, pos, "syntax error: %s", problem);
	return -EINVAL;
}

int conf_tree_build(struct conf_ctx *c)
{
	struct tree_state st = { .depth = 0 };
	yaml_parser_t parser;
	int rc = 0;

	if (!yaml_parser_initialize(&parser))
		return -ENOMEM;
	yaml_parser_set_input_string(&parser, (const unsigned char *)c->diag.buf, c->diag.len);
	yaml_parser_set_encoding(&parser, YAML_UTF8_ENCODING);
	for (;;) {
		yaml_event_t ev;
		bool end;

		if (!yaml_parser_parse(&parser, &ev)) {
			rc = syntax_error(c, &parser);
			break;
		}
		end = ev.type == YAML_STREAM_END_EVENT;
		rc = on_event(c, &st, &ev);
		yaml_event_delete(&ev);
		if (rc < 0 || end)
			break;
	}
	yaml_parser_delete(&parser);
	return rc;
}
