/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * xcpu: how far apart the host has put two CPUs right now.
 *
 *     xcpu CPU_A CPU_B MS
 *
 * Two threads, one pinned to each CPU, bounce a cache line for MS
 * milliseconds; prints the median nanoseconds of a round trip over 1 ms
 * slices. make bench's flows group runs it around every round of its hot
 * source (flowgen on one CPU, the program under test on the other): each
 * frame crosses between those CPUs, and on a VM whose vCPUs the host moves
 * that crossing slows several times over without warning (the development
 * VM: about 100 ns a round trip, then 530 ns for minutes).
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define MAX_SLICES 10000

static _Alignas(64) atomic_long ping;
static _Alignas(64) atomic_long pong;
static _Alignas(64) atomic_int done;

static int pin(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	return pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
}

static void *echo(void *arg)
{
	long seen = 0;

	if (pin(*(int *)arg) != 0)
		exit(1);
	while (!atomic_load_explicit(&done, memory_order_relaxed)) {
		long v = atomic_load_explicit(&ping, memory_order_acquire);

		if (v != seen) {
			seen = v;
			atomic_store_explicit(&pong, v, memory_order_release);
		}
	}
	return NULL;
}

static double now_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1e9 + t.tv_nsec;
}

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
	static double slice[MAX_SLICES];
	int a, b, ms, n = 0;
	pthread_t t;
	long v = 0;

	if (argc != 4 || (ms = atoi(argv[3])) < 1 || ms > MAX_SLICES) {
		fprintf(stderr, "usage: xcpu CPU_A CPU_B MS (1..%d)\n", MAX_SLICES);
		return 2;
	}
	a = atoi(argv[1]);
	b = atoi(argv[2]);
	if (pthread_create(&t, NULL, echo, &b) != 0 || pin(a) != 0) {
		fprintf(stderr, "xcpu: cannot run on CPUs %d and %d\n", a, b);
		return 1;
	}
	for (; n < ms; n++) {
		double start = now_ns(), end;
		long trips = 0;

		do {
			for (int i = 0; i < 100; i++, trips++) {
				atomic_store_explicit(&ping, ++v, memory_order_release);
				while (atomic_load_explicit(&pong, memory_order_acquire) != v)
					;
			}
			end = now_ns();
		} while (end - start < 1e6);
		slice[n] = (end - start) / trips;
	}
	atomic_store(&done, 1);
	pthread_join(t, NULL);
	qsort(slice, n, sizeof(slice[0]), cmp);
	printf("%.0f\n", slice[n / 2]);
	return 0;
}
