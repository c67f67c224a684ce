/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * vrfs[] in fwd.yaml(5): the VRF module's own config section (a config
 * section, core/config.h), its keys (vrf_config.c) and checks
 * (vrf_check.c). The `vrf:` key of ports, interfaces (and bonds) is one
 * row, VRF_CONF_ROW, and one check, vrf_conf_check_ref, that the folder of
 * each object reuses.
 */
#ifndef FWD_VRF_CONFIG_H
#define FWD_VRF_CONFIG_H

#include <stdbool.h>
#include <stdint.h>

#include "core/config.h"
#include "core/config_schema.h"

#define VRF_CONF_MAX      255 /* vrfs[] entries: every VRF id but the default's */
#define VRF_NAME_LEN      15  /* the kernel's VRF device takes the name (IFNAMSIZ - 1) */
#define VRF_DEFAULT_NAME  "default"
#define VRF_DEFAULT_TABLE 254 /* RT_TABLE_MAIN */

struct fwd_conf_vrf {
	char name[FWD_NAME_MAX]; /* at most VRF_NAME_LEN characters */
	uint32_t table;          /* 1-2^32-1 but 254 and 255 */
	struct fwd_conf_pos pos;
};

struct vrf_conf {
	unsigned n;
	struct fwd_conf_vrf *vrfs; /* heap array */
};

/* cfg's vrfs[] */
const struct vrf_conf *vrf_conf(const struct fwd_config *cfg);
/* vrfs[] entry called name, or NULL ("default" is none: it is not in vrfs[]) */
const struct fwd_conf_vrf *vrf_conf_find(const struct fwd_config *cfg, const char *name);
/* Is name the default VRF: "" (not written) or "default"? */
bool vrf_conf_is_default(const char *name);
/* Is name a VRF cfg has (the default or one of vrfs[])? */
bool vrf_conf_known(const struct fwd_config *cfg, const char *name);

/* A VRF's name: NULL when s is fine, else why not. */
const char *vrf_conf_valid_name(const char *s);

/* The `vrf:` key of an object of type T whose char[FWD_NAME_MAX] member m
 * holds it ("" = default); add it with fwd_config_schema_add or put it in
 * the object's table. */
#define VRF_CONF_ROW(T, m) CONF_F("vrf", CONF_STR, T, m, .min = 1, .valid = vrf_conf_valid_name)

/* The check of such a key at path `at`: the VRF must exist; l3 says whether
 * the object routes (a bridge member or cross-connect has no VRF). */
void vrf_conf_check_ref(struct fwd_conf_checker *c, const struct fwd_config *cfg, const char *name,
                        const char *at, bool l3);

#endif
