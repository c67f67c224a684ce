/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The parsed configuration (fwd.yaml(5), conf/fwd.yaml.5). The loader fills a
 * struct fwd_config from YAML and validates it whole; the daemon keeps the
 * running one and diffs a freshly loaded one against it on reload.
 * Every value is plain data (no pointers into YAML buffers), so a config can
 * be freed, copied and compared without the parser.
 */
#ifndef FWD_CONFIG_H
#define FWD_CONFIG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "fwd_inet.h"

#define FWD_CONFIG_DEFAULT_PATH "/etc/fwd.yaml"
#define FWD_SOCKET_DEFAULT      "/run/fwd/fwd.sock"

#define FWD_NAME_MAX          32  /* port and bridge names, incl. NUL */
#define FWD_DEVICE_MAX        256 /* PCI address or vdev string, incl. NUL */
#define FWD_PATH_MAX          108 /* sizeof(sun_path) */
#define FWD_MAX_PORTS         32
#define FWD_MAX_BRIDGES       16
#define FWD_MAX_ADDRS         32 /* per port */
#define FWD_MAX_EAL_ARGS      64
#define FWD_MAX_CONF_ROUTES   65536 /* bulk tables go through `route load` */
#define FWD_MAX_CONF_NEIGHS   4096
#define FWD_ECMP_MAX          16u /* next hops of one route */
#define FWD_LCORES_STR_MAX    128
#define FWD_MAX_LCORES        128 /* lcore ids are below this (RTE_MAX_LCORE of Debian's DPDK) */
#define FWD_MAX_ACLS          64
#define FWD_MAX_ACL_RULES     65536 /* in one ACL */
#define FWD_CONF_MAX_SECTIONS 8     /* config sections features own */

/* Position in the source file, 1-based; line 0 means "not from a file". */
struct fwd_conf_pos {
	unsigned line;
	unsigned col;
};

enum fwd_port_mode {
	FWD_MODE_L3 = 0,
	FWD_MODE_XCONNECT,
	FWD_MODE_BRIDGE,
};

/* ports[].rpf: what a packet's source must have to be forwarded (RFC 3704) */
enum fwd_rpf {
	FWD_RPF_OFF = 0,
	FWD_RPF_LOOSE,  /* a route that is not blackhole, unreachable or prohibit */
	FWD_RPF_STRICT, /* a route out of the port the packet came in by */
};
extern const char *const fwd_conf_mode_names[]; /* "l3", ...; NULL-terminated */
extern const char *const fwd_conf_rpf_names[];  /* "off", "loose", "strict"; NULL-terminated */

/* Who asked for an address, route or neighbour. A reload makes what the
 * config file asked for equal to the new file and keeps what fwdctl added
 * unless the file now says otherwise about the same object. */
enum fwd_origin {
	FWD_ORIGIN_ADDRESS, /* a connected route, there because of an address */
	FWD_ORIGIN_CONFIG,  /* the config file */
	FWD_ORIGIN_RPC,     /* fwdctl add */
	FWD_ORIGIN_LOAD,    /* fwdctl route load: bulk tables stay out of `config show` */
	/* Routes from a routing daemon (FRR's zebra over FPM, cp/fpm.h): the
	 * protocol that chose them, from the netlink rtm_protocol. They are
	 * never in the config file and a reload leaves them alone. */
	FWD_ORIGIN_KERNEL,     /* RTPROT_KERNEL, RTPROT_BOOT */
	FWD_ORIGIN_ZEBRA,      /* RTPROT_ZEBRA: zebra's own (connected, kernel) */
	FWD_ORIGIN_STATIC,     /* RTPROT_ZSTATIC: FRR's staticd */
	FWD_ORIGIN_BGP,        /* RTPROT_BGP */
	FWD_ORIGIN_OSPF,       /* RTPROT_OSPF (ospfd and ospf6d) */
	FWD_ORIGIN_ISIS,       /* RTPROT_ISIS */
	FWD_ORIGIN_RIP,        /* RTPROT_RIP, RTPROT_RIPNG */
	FWD_ORIGIN_EIGRP,      /* RTPROT_EIGRP */
	FWD_ORIGIN_BABEL,      /* RTPROT_BABEL */
	FWD_ORIGIN_OPENFABRIC, /* RTPROT_OPENFABRIC */
	FWD_ORIGIN_OTHER,      /* any other protocol zebra sends ("fpm") */
	FWD_ORIGIN_MAX
};

#define FWD_ORIGIN_FIRST_FPM FWD_ORIGIN_KERNEL

/* Did a routing daemon (FPM) install it, rather than fwd's config or fwdctl? */
static inline bool fwd_origin_is_fpm(enum fwd_origin o)
{
	return o >= FWD_ORIGIN_FIRST_FPM && o < FWD_ORIGIN_MAX;
}

const char *fwd_origin_name(enum fwd_origin o);

struct fwd_conf_port {
	char name[FWD_NAME_MAX];
	char device[FWD_DEVICE_MAX];
	enum fwd_port_mode mode;   /* default l3 */
	char peer[FWD_NAME_MAX];   /* xconnect only */
	char bridge[FWD_NAME_MAX]; /* bridge only */
	uint32_t mac_max;          /* bridge only: learned MACs at most, 0 = no limit */
	uint16_t rx_queues;        /* default 1 */
	uint16_t rxd;              /* default 1024 */
	uint16_t txd;              /* default 1024 */
	uint16_t mtu;              /* default 1500 */
	unsigned n_addresses;
	struct fwd_prefix addresses[FWD_MAX_ADDRS]; /* l3 only; either family */
	bool ra;                                    /* IPv6 router advertisements; default false */
	enum fwd_rpf rpf; /* unicast reverse-path filter (RFC 3704); l3 only, default off */
	bool tap;         /* a kernel interface for the control plane (cp/tap.c); default false */
	char acl_in[FWD_NAME_MAX];  /* acls[].name filtering what arrives, "" = none (acl/) */
	char acl_out[FWD_NAME_MAX]; /* acls[].name filtering what leaves, "" = none */
	/* a bond's port (bond/bond_config.c): made from its bonds[] entry after
	 * decoding, after the file's ports; no device, not shown under ports;
	 * its MAC is its first member's, ports[mac_port] */
	bool bond;
	uint8_t mac_port;
	bool member;            /* a bond's member: no link-local address or mode of its own */
	char vrf[FWD_NAME_MAX]; /* vrfs[].name, "" = the default VRF (vrf/) */
	struct fwd_conf_pos pos;
};

struct fwd_conf_bridge {
	char name[FWD_NAME_MAX];
	uint32_t mac_aging_s; /* default 300 */
	uint32_t fdb_max;     /* extension: FDB capacity, default 16384 */
	struct fwd_conf_pos pos;
};

struct fwd_conf_route {
	struct fwd_prefix prefix; /* either family; host bits clear */
	bool blackhole;
	bool unreachable; /* extension: drop with ICMP unreachable */
	bool prohibit;    /* extension: drop with ICMP administratively prohibited */
	unsigned n_via;   /* 0 for the types above and a route on a link (dev only) */
	struct fwd_ip via[FWD_ECMP_MAX]; /* the prefix's family; a list is ECMP */
	char dev[FWD_NAME_MAX];          /* extension: optional egress port */
	char vrf[FWD_NAME_MAX];          /* the VRF it is in, "" = default (vrf/) */
	char next_vrf[FWD_NAME_MAX];     /* look the destination up again there (no via) */
	struct fwd_conf_pos pos;
};

struct fwd_conf_neigh {
	struct fwd_ip address; /* either family */
	uint8_t mac[6];
	char port[FWD_NAME_MAX];
	struct fwd_conf_pos pos;
};

/* control.vrf_backend: where a VRF's kernel interfaces go (cp/tap_vrf.c). */
enum fwd_vrf_backend {
	FWD_VRF_BACKEND_DEV,   /* "vrf": enslaved to a kernel VRF device */
	FWD_VRF_BACKEND_NETNS, /* "netns": in the network namespace of the VRF's name */
};

struct fwd_config {
	char path[FWD_PATH_MAX * 4]; /* the file it came from */

	struct {
		char lcores[FWD_LCORES_STR_MAX]; /* default "0-1" */
		bool hugepages;                  /* default true */
		uint32_t memory_mb;              /* default 512 */
		char file_prefix[64];            /* default "fwd" */
		unsigned n_args;
		char *args[FWD_MAX_EAL_ARGS]; /* heap strings */
	} dpdk;

	struct {
		uint16_t burst;                /* default 32 */
		uint32_t mbufs;                /* default 16383 */
		uint32_t idle_sleep_us;        /* extension: an idle worker sleeps this long
		                                * between polls; default 0: it never sleeps */
		uint32_t neigh_timeout_s;      /* default 300 */
		uint32_t neigh_max;            /* extension: dynamic neighbours no route uses, per
		                                * family, default 16384 or half of nexthops if less;
		                                * below nexthops */
		uint32_t neigh_unresolved_max; /* extension: neighbours resolving for traffic,
		                                * per family (half per port), default 1024 */
		uint32_t fib_tbl8s;            /* extension: FIB tbl8 groups (routes longer than /24
		                                * and neighbours share them), default 32768 */
		uint32_t fib6_tbl8s; /* extension: IPv6 FIB groups, default in ip6/ip6_schema.c */
		uint32_t fib6_neigh_tbl8s; /* extension: IPv6 FIB groups for neighbours' /128s
		                            * besides those (route/fib6.h), default there too */
		uint32_t nexthops;         /* extension: next-hop table size, default 65536 */
		uint32_t icmp_rate;        /* extension: ICMP errors per second, 0 = unlimited,
		                            * default 100 (RFC 1812 4.3.2.8) */
		uint32_t punt_rate[5];     /* extension: punt policer, packets a second per
		                            * reason of each enum fwd_punt_class (core/punt.c) */
	} dataplane;

	struct {
		char socket[FWD_PATH_MAX];       /* default FWD_SOCKET_DEFAULT */
		char socket_group[FWD_NAME_MAX]; /* default "fwd" */
		char admin_group[FWD_NAME_MAX];  /* may change state; default "": root only */
		char metrics[64];                /* extension: "HOST:PORT" OpenMetrics, "" = off */
		char fpm[64];         /* "HOST:PORT" FRR zebra's FPM (cp/fpm.h), "" = off */
		uint32_t fpm_grace_s; /* stale FPM routes live at least this long; default 30 */
		char fpm_user[FWD_NAME_MAX];  /* who may connect to fpm besides root; "frr" */
		uint32_t fpm_max_routes;      /* routes one FPM session may hold; 3,000,000 */
		char acl_local[FWD_NAME_MAX]; /* acls[].name for what is addressed to us, "" = none
		                               */
		int vrf_backend;              /* enum fwd_vrf_backend: a VRF's kernel interfaces
		                               * (cp/tap_vrf.c) */
	} control;

	unsigned n_ports;
	struct fwd_conf_port ports[FWD_MAX_PORTS];
	unsigned n_bridges;
	struct fwd_conf_bridge bridges[FWD_MAX_BRIDGES];
	unsigned n_routes;
	struct fwd_conf_route *routes; /* heap array */
	unsigned n_neighs;
	struct fwd_conf_neigh *neighs; /* heap array */
	/* The sections features own (fwd_config_register_section): one struct
	 * each, allocated with the config, reached by fwd_config_section. */
	void *sections[FWD_CONF_MAX_SECTIONS];
};

/*
 * Load and validate FILE. On success returns a new config (free with
 * fwd_config_free) and 0. On failure returns NULL and writes one or more
 * "FILE:LINE:COL: message" lines, each followed by the offending source line
 * and a caret, to err (which may be NULL).
 */
struct fwd_config *fwd_config_load(const char *path, FILE *err);

/* Same, from a buffer; name is used in messages. */
struct fwd_config *fwd_config_load_buf(const char *name, const char *buf, size_t len, FILE *err);

/* A config holding only defaults (no ports). */
struct fwd_config *fwd_config_new(void);

void fwd_config_free(struct fwd_config *cfg);

/* Write cfg as YAML that fwd_config_load accepts and that loads back equal. */
int fwd_config_emit(const struct fwd_config *cfg, FILE *out);

/*
 * Append a zeroed route or neighbour to a config built in memory (the
 * running config): the heap arrays grow by doubling from a count of 0 or
 * one that was left by these (not by the loader). NULL when out of memory.
 */
struct fwd_conf_route *fwd_config_add_route(struct fwd_config *cfg);
struct fwd_conf_neigh *fwd_config_add_neigh(struct fwd_config *cfg);

/*
 * A config section a feature owns (doc/architecture.md, "Config"): its keys
 * and its struct stay in the feature's folder. The feature registers it
 * from a constructor; every struct fwd_config then carries one zeroed
 * struct of size bytes for it (defaults filled from rows), which the loader
 * fills, `config show` writes, and the config's free and copy handle
 * through the callbacks. rows are top-level schema rows (core/config_schema.h)
 * whose offsets are into the section's struct.
 */
struct conf_field;
struct fwd_conf_section {
	const char *name;              /* the feature's, for messages */
	size_t size;                   /* of its struct */
	const struct conf_field *rows; /* its top-level keys; a NULL key ends them */
	void (*free)(void *sect);      /* its heap members (not sect itself); NULL: none */
	int (*copy)(void *dst, const void *src);     /* deep copy into a zeroed dst; NULL: memcpy;
	                                              * -ENOMEM (dst then freeable by free) */
	bool (*equal)(const void *a, const void *b); /* NULL: memcmp */
	unsigned slot;                               /* set when registered */
};

void fwd_config_register_section(struct fwd_conf_section *s);
/* The section's struct in cfg (never NULL in a config from fwd_config_new,
 * fwd_config_load*). */
void *fwd_config_section(const struct fwd_config *cfg, const struct fwd_conf_section *s);
/* dst is a shallow copy of src (*dst = *src): give it its own deep copies of
 * every section. -ENOMEM leaves dst freeable with fwd_config_free. */
int fwd_config_dup_sections(struct fwd_config *dst, const struct fwd_config *src);
/* Do a and b hold equal sections (each section's equal)? */
bool fwd_config_sections_equal(const struct fwd_config *a, const struct fwd_config *b);

/* Lookups by name; NULL when absent. */
const struct fwd_conf_port *fwd_config_port(const struct fwd_config *cfg, const char *name);
const struct fwd_conf_bridge *fwd_config_bridge(const struct fwd_config *cfg, const char *name);

/*
 * The lcore ids of dpdk.lcores in the order written (the first is the control
 * lcore, the rest are workers). Returns their count, -EINVAL for a bad string,
 * or -ENOSPC when ids cannot hold them all (max = FWD_MAX_LCORES always can).
 * With ids NULL it only counts.
 */
int fwd_config_lcores(const struct fwd_config *cfg, unsigned *ids, unsigned max);
/* The same with the CPU each lcore runs on ("2@1": CPU 1; "2": CPU 2). */
int fwd_config_lcore_cpus(const struct fwd_config *cfg, unsigned *ids, int *cpus, unsigned max);
/* Does every lcore's CPU exist and may this process run on it? 0, or
 * -EINVAL with the lcore, the CPU and the CPUs there are in err. */
int fwd_config_check_cpus(const struct fwd_config *cfg, char *err, size_t errlen);
/* Do two lcores share a CPU (tests; the daemon warns)? */
bool fwd_config_lcores_share_cpu(const struct fwd_config *cfg);
/* Does dpdk.lcores map lcores to CPUs ("N@CPU")? */
bool fwd_config_lcores_mapped(const struct fwd_config *cfg);

/* Number of worker lcores named by dpdk.lcores (all but the first), or -EINVAL. */
int fwd_config_n_workers(const struct fwd_config *cfg);

const char *fwd_port_mode_name(enum fwd_port_mode mode);

/*
 * Checks a feature runs over a whole decoded config (its own section and
 * what that refers to), registered from a constructor and run by every
 * load after the schema's own checks: `fwd-daemon --check`, `config check`
 * and start-up all run exactly these. Each problem is reported with
 * fwd_conf_error about the value at a path ("routes[3].via", "ports[0]"):
 * the message starts with the path and points at the value in the file, or
 * at the nearest enclosing one when the value was not written.
 */
struct fwd_conf_checker;
typedef void (*fwd_conf_check_fn)(struct fwd_conf_checker *c, const struct fwd_config *cfg);
/*
 * A feature that derives part of the config from its own section (bonds
 * add their ports) registers a function run after decoding, before every
 * check; it may report problems like a check.
 */
typedef void (*fwd_conf_derive_fn)(struct fwd_conf_checker *c, struct fwd_config *cfg);
void fwd_config_register_derive(fwd_conf_derive_fn fn);
/* The path in the file of what a check reports about a derived entry
 * ("ports[5].addresses[0]" -> "bonds[0].addresses[0]"): true with it in
 * out. One feature sets it (bond/); the last load's derive fills it. */
typedef bool (*fwd_conf_alias_fn)(const char *path, char *out, size_t len);
void fwd_config_set_path_alias(fwd_conf_alias_fn fn);

void fwd_config_register_check(fwd_conf_check_fn fn);
void fwd_conf_error(struct fwd_conf_checker *c, const char *path, const char *fmt, ...)
        __attribute__((format(printf, 3, 4)));
/*
 * Checks of what a file asks of this machine (a device's interface, a PCI
 * address and its driver), run after the others by loads in a process that
 * set fwd_config_machine_checks: fwd-daemon (--check, start-up, reload,
 * `fwdctl config check`), never the unit tests or fuzzers, whose files name
 * devices this machine does not have.
 */
extern bool fwd_config_machine_checks;
void fwd_config_register_machine_check(fwd_conf_check_fn fn);
/* Was the value at path written in the file? */
bool fwd_conf_given(const struct fwd_conf_checker *c, const char *path);
/* True once so many errors were reported that looking further is pointless. */
bool fwd_conf_full(const struct fwd_conf_checker *c);
/* The index of the port named name in cfg, or -1. */
int fwd_config_port_index(const struct fwd_config *cfg, const char *name);
/*
 * What a route's dev or a neighbour's port names in cfg (doc/architecture.md,
 * "Interfaces"): a port, by its index, or an interfaces[] entry, as
 * FWD_MAX_PORTS + its position there (the index the config's address views
 * keep it at; its id once applied is the interface table's), or -1. The
 * interfaces[] part is asked of the resolver the section's owner sets.
 */
int fwd_config_iface_index(const struct fwd_config *cfg, const char *name);
typedef int (*fwd_config_iface_index_fn)(const struct fwd_config *cfg, const char *name);
void fwd_config_set_iface_index_fn(fwd_config_iface_index_fn fn);
/*
 * The VRF a config names (a port's, an interface's, a route's `vrf`) as the
 * config's own numbering, which the address views of a file use: 0 for the
 * default ("" or "default"), i + 1 for vrfs[i], -1 for none. The VRF
 * module (vrf/) owns vrfs[] and sets the resolver; without one every name
 * but the default's is -1.
 */
int fwd_config_vrf_index(const struct fwd_config *cfg, const char *name);
void fwd_config_set_vrf_index_fn(fwd_config_iface_index_fn fn);

#endif
