/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * fwdctl internals. Each object file (port.c, stats.c, ...) registers one
 * struct fwd_cli_object from a constructor:
 *
 *	static struct fwd_cli_object port = { .name = "port", .usage = ..., .run = port_run };
 *	FWD_CLI_OBJECT(port);
 *
 * run() gets the words after OBJECT (argc may be 0) and returns an exit
 * status. It builds a Request and hands it to fwd_cli_call, which prints
 * the reply as JSON (-j) or through the object's human printer.
 */
#ifndef FWD_CLI_H
#define FWD_CLI_H

#include <stdbool.h>
#include <stdio.h>

#include "fwd.pb-c.h"

enum fwd_cli_exit {
	FWD_EXIT_OK = 0,
	FWD_EXIT_REFUSED = 1,     /* the daemon said no */
	FWD_EXIT_USAGE = 2,       /* bad command line */
	FWD_EXIT_UNREACHABLE = 3, /* no daemon, broken connection, timeout */
};

#define FWD_CLI_SOCKET_DEFAULT "/run/fwd/fwd.sock"
#define FWD_CLI_TIMEOUT_MS     30000
#define FWD_CLI_NAME_MAX       64 /* longest port/bridge name we bother sending */

struct fwd_client;

struct fwd_cli {
	const char *socket;
	bool json;
	unsigned family; /* -4 or -6: list one family (4, 6; 0 both) */
	const char *vrf; /* -V VRF: route, addr list, neigh list in that VRF; NULL: default */
	int timeout_ms;
	FILE *out, *err;
	const struct fwd_cli_object *obj;
	const char *command;       /* set by the object for messages: "fwdctl: port set: ..." */
	struct fwd_client *client; /* connected on first use */
};

struct fwd_cli_object {
	const char *name;
	const char *usage; /* lines after "usage: fwdctl ", one per form */
	int (*run)(struct fwd_cli *cli, int argc, char **argv);
	bool takes_vrf; /* some of its commands take -V (the others call fwd_cli_no_vrf) */
	struct fwd_cli_object *next;
};

void fwd_cli_register(struct fwd_cli_object *obj);
const struct fwd_cli_object *fwd_cli_objects(void);

#define FWD_CLI_OBJECT(var)                                              \
	__attribute__((constructor)) static void fwd_cli_reg_##var(void) \
	{                                                                \
		fwd_cli_register(&var);                                  \
	}

/* The whole program minus main(): parses argv, runs, returns the exit status. */
int fwd_cli_main(int argc, char **argv, FILE *out, FILE *err);

/* An object's commands: run gets argv[0] = the command's name. */
struct fwd_cli_cmd {
	const char *name;
	int (*run)(struct fwd_cli *cli, int argc, char **argv);
};

/* Run the command of cmds (ending with a NULL name) that argv[0] names; a
 * missing or unknown command is a usage error. */
int fwd_cli_dispatch(struct fwd_cli *cli, const struct fwd_cli_cmd *cmds, int argc, char **argv);

/* Print "fwdctl: OBJECT [COMMAND]: message" and the object's usage; returns 2. */
int fwd_cli_usage(struct fwd_cli *cli, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* A name-like argument worth sending (a port name, an address, a MAC): not
 * empty and at most FWD_CLI_NAME_MAX bytes; else "bad WHAT: ..." and 2. The
 * daemon checks the rest. */
int fwd_cli_check_arg(struct fwd_cli *cli, const char *what, const char *s);

/*
 * Called for each page of a successful reply (more=false on the last one).
 * The reply stays owned by fwd_cli_call. A printer that cannot go on (its
 * output failed) prints why and returns -ECANCELED: the call is cut short
 * and returns FWD_EXIT_REFUSED.
 */
typedef int (*fwd_cli_print_fn)(struct fwd_cli *cli, const Fwd__Response *resp, void *arg);

/*
 * Send req (id and api_version are filled in) and print the reply: with -j
 * one JSON document of the merged pages, else through print (may be NULL:
 * nothing to show on success). Returns an exit status, having printed the
 * reason for anything but 0.
 */
int fwd_cli_call(struct fwd_cli *cli, Fwd__Request *req, fwd_cli_print_fn print, void *arg);

/*
 * The same, where a successful reply can still say no (config check: ok is
 * false): verdict sees every page, with -j too, so that the exit status does
 * not depend on -j. It reads the page and stores what it found in arg.
 */
typedef void (*fwd_cli_verdict_fn)(const Fwd__Response *resp, void *arg);
int fwd_cli_call_verdict(struct fwd_cli *cli, Fwd__Request *req, fwd_cli_print_fn print,
                         fwd_cli_verdict_fn verdict, void *arg);

/* The -V VRF to send ("" without -V); the object's commands that do not
 * take one refuse it with a usage error (true then). */
const char *fwd_cli_vrf(const struct fwd_cli *cli);
bool fwd_cli_no_vrf(struct fwd_cli *cli);

/* Close the connection (the next fwd_cli_call reconnects). */
void fwd_cli_disconnect(struct fwd_cli *cli);

/* Set by SIGINT while watching; a pending call is cut short. */
bool fwd_cli_interrupted(void);
void fwd_cli_catch_sigint(struct fwd_cli *cli);

#endif
