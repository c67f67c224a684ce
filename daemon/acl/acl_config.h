/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * acls[] in fwd.yaml(5): the ACL module's own config section (a config
 * section, core/config.h), its keys and checks in acl_config.c.
 */
#ifndef FWD_ACL_CONFIG_H
#define FWD_ACL_CONFIG_H

#include <stdbool.h>
#include <stdint.h>

#include "core/config.h"

#define FWD_MAX_ACLS      64
#define FWD_MAX_ACL_RULES 65536 /* in one ACL */

/* acls[].default and acls[].rules[].action */
enum fwd_acl_action {
	FWD_ACL_DENY = 0,
	FWD_ACL_PERMIT,
	FWD_ACL_REJECT,
};

/* One rule of an ACL as written: every key optional ("" or family 0: any);
 * acl/acl_rule.c parses the text keys and says what is wrong with them. */
struct fwd_conf_acl_rule {
	enum fwd_acl_action action;
	struct fwd_prefix src, dst; /* family 0: any */
	char proto[12];             /* tcp, udp, icmp, icmpv6, sctp or 0-255 */
	char sport[12], dport[12];  /* "N" or "N-M" */
	char icmp_type[4], icmp_code[4], dscp[4];
	bool fragment; /* true: only non-first fragments */
	struct fwd_conf_pos pos;
};

struct fwd_conf_acl {
	char name[FWD_NAME_MAX];
	enum fwd_acl_action def; /* deny (default) | permit */
	unsigned n_rules;
	struct fwd_conf_acl_rule *rules; /* heap array */
	struct fwd_conf_pos pos;
};

struct acl_conf {
	unsigned n_acls;
	struct fwd_conf_acl *acls; /* heap array, each with its heap array of rules */
};

/* cfg's acls[] */
const struct acl_conf *acl_conf(const struct fwd_config *cfg);
/* acls[] entry called name; NULL when absent. */
const struct fwd_conf_acl *fwd_config_acl(const struct fwd_config *cfg, const char *name);

#endif
