// SPDX-License-Identifier: MIT
/*
 * vm-switches - context switches as fast as two threads can make them
 *
 *	vm-switches [CPU]
 *
 * Two threads hand a byte back and forth through two pipes, pinned to one
 * CPU (default 0) so that every hand-over is a context switch, until
 * SIGTERM or SIGINT. Each switch is a sched:sched_switch event: a load on
 * a recorder's rings that no program of the test counts (tests/vm/stop.sh).
 * Prints the round trips made at the end.
 */
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static volatile sig_atomic_t stop;
static int ping[2], pong[2];

static void on_stop(int sig)
{
	(void)sig;
	stop = 1;
}

static void *echo(void *arg)
{
	char c;

	(void)arg;
	while (read(ping[0], &c, 1) == 1 && write(pong[1], &c, 1) == 1)
		;
	return NULL;
}

int main(int argc, char **argv)
{
	unsigned long long trips = 0;
	struct sigaction sa = { .sa_handler = on_stop };
	pthread_t t;
	cpu_set_t set;
	char c = 'x';

	CPU_ZERO(&set);
	CPU_SET(argc > 1 ? atoi(argv[1]) : 0, &set);
	if (sched_setaffinity(0, sizeof(set), &set))
		perror("vm-switches: sched_setaffinity (not pinned)");
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	if (pipe(ping) || pipe(pong) || pthread_create(&t, NULL, echo, NULL)) {
		perror("vm-switches");
		return 1;
	}
	while (!stop && write(ping[1], &c, 1) == 1 && read(pong[0], &c, 1) == 1)
		trips++;
	close(ping[1]);
	pthread_join(t, NULL);
	printf("vm-switches: %llu round trips\n", trips);
	return 0;
}
