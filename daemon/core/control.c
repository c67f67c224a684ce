/* SPDX-License-Identifier: BSD-3-Clause */
#include <errno.h>
#include <signal.h>
#include <stdlib.h>

#include <event2/event.h>

#include "core/control.h"
#include "core/daemon.h"
#include "core/log.h"

struct fwd_timer {
	void (*fn)(void *arg);
	void *arg;
};

static void on_timer(evutil_socket_t fd, short what, void *arg)
{
	const struct fwd_timer *t = arg;

	(void)fd, (void)what;
	t->fn(t->arg);
}

struct event *fwd_timer_every(unsigned period_us, void (*fn)(void *arg), void *arg)
{
	struct timeval tv = { .tv_sec = period_us / 1000000, .tv_usec = period_us % 1000000 };
	struct fwd_timer *t = malloc(sizeof(*t));
	struct event *ev = NULL;

	if (t != NULL) {
		*t = (struct fwd_timer){ fn, arg };
		ev = event_new(fwd.evbase, -1, EV_PERSIST, on_timer, t);
	}
	if (ev != NULL && event_add(ev, &tv) == 0)
		return ev;
	LOG(ERR, "cannot start a %u us timer", period_us);
	if (ev != NULL)
		event_free(ev);
	free(t);
	return NULL;
}

void fwd_timer_free(struct event **ev)
{
	if (*ev == NULL)
		return;
	free(event_get_callback_arg(*ev));
	event_free(*ev);
	*ev = NULL;
}

static struct event *sig_ev[3];
static void (*reload_fn)(void);

void fwd_control_set_reload(void (*fn)(void))
{
	reload_fn = fn;
}

static void on_signal(evutil_socket_t sig, short what, void *arg)
{
	(void)what, (void)arg;
	if (sig == SIGHUP) {
		if (reload_fn != NULL)
			reload_fn();
		else
			LOG(WARNING, "SIGHUP: configuration reload is not available");
		return;
	}
	LOG(NOTICE, "%s: stopping", sig == SIGINT ? "SIGINT" : "SIGTERM");
	event_base_loopbreak(fwd.evbase);
}

int fwd_control_init(void)
{
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP };

	signal(SIGPIPE, SIG_IGN);
	fwd.evbase = event_base_new();
	if (fwd.evbase == NULL)
		return -ENOMEM;
	for (unsigned i = 0; i < 3; i++) {
		sig_ev[i] = evsignal_new(fwd.evbase, sigs[i], on_signal, NULL);
		if (sig_ev[i] == NULL || evsignal_add(sig_ev[i], NULL) < 0)
			return -EIO;
	}
	return 0;
}

int fwd_control_run(void)
{
	event_base_dispatch(fwd.evbase);
	return 0;
}

void fwd_control_fini(void)
{
	for (unsigned i = 0; i < 3; i++) {
		if (sig_ev[i] != NULL)
			event_free(sig_ev[i]);
		sig_ev[i] = NULL;
	}
	if (fwd.evbase != NULL)
		event_base_free(fwd.evbase);
	fwd.evbase = NULL;
}
