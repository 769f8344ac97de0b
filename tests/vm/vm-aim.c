// SPDX-License-Identifier: MIT
/*
 * vm-aim - a producer to aim a recorder at (ehrecord -p, --children)
 *
 *	vm-aim [-t] [-f] [-w] SECONDS
 *
 * Writes EhVmAim:Tick (tracepoint EhVmAim_L4K1; fields "who", a string,
 * and "count", a counter) every 5 ms for SECONDS, as "main". With -t, a
 * thread it starts after 200 ms writes them too, as "thread"; with -f, a
 * process it forks after 200 ms, as "child". -w first waits (up to 10 s)
 * for the tracepoint to be enabled. Prints its pid, and at the end how
 * many events each wrote ("vm-aim: PID main 200 thread 0 child 0").
 */
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/wait.h>

#include <eventheader/eh-provider.h>

EH_DEFINE_PROVIDER(aim, "EhVmAim");

static double seconds;

static void nap(long ms)
{
	struct timespec t = { ms / 1000, (ms % 1000) * 1000000 };

	nanosleep(&t, NULL);
}

static double now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* Write as @who until SECONDS have passed since @start; how many. */
static unsigned int ticks(const char *who, double start)
{
	unsigned int n = 0;

	while (now() - start < seconds) {
		if (EH_ENABLED(aim, EH_LEVEL_INFO, 0x1)) {
			EH_WRITE(aim, "Tick", EH_LEVEL(EH_LEVEL_INFO),
				 EH_KEYWORD(0x1), EH_STRING_UTF8("who", who),
				 EH_UINT32("count", n));
			n++;
		}
		nap(5);
	}
	return n;
}

static double started;
static unsigned int thread_n;

static void *thread_main(void *arg)
{
	(void)arg;
	thread_n = ticks("thread", started);
	return NULL;
}

int main(int argc, char **argv)
{
	int opt, threads = 0, fork_child = 0, wait = 0, status, i;
	unsigned int main_n, child_n = 0;
	pthread_t t;
	pid_t child = 0;

	while ((opt = getopt(argc, argv, "tfw")) != -1) {
		if (opt == 't')
			threads = 1;
		else if (opt == 'f')
			fork_child = 1;
		else if (opt == 'w')
			wait = 1;
		else
			return 2;
	}
	if (optind >= argc) {
		fprintf(stderr, "usage: vm-aim [-t] [-f] [-w] SECONDS\n");
		return 2;
	}
	seconds = atof(argv[optind]);
	if (EH_REGISTER(aim))
		fprintf(stderr, "vm-aim: tracing unavailable; running anyway\n");
	printf("vm-aim: pid %d\n", (int)getpid());
	fflush(stdout);
	for (i = 0; wait && i < 1000 && !EH_ENABLED(aim, EH_LEVEL_INFO, 0x1);
	     i++)
		nap(10);
	started = now();
	if (threads || fork_child)
		nap(200);
	if (threads && pthread_create(&t, NULL, thread_main, NULL)) {
		perror("vm-aim: pthread_create");
		return 1;
	}
	if (fork_child) {
		child = fork();
		if (child == 0) {
			child_n = ticks("child", started);
			printf("vm-aim: %d child %u\n", (int)getpid(), child_n);
			fflush(stdout);
			_exit(0);
		}
	}
	main_n = ticks("main", started);
	if (threads)
		pthread_join(t, NULL);
	if (child > 0)
		waitpid(child, &status, 0);
	printf("vm-aim: %d main %u thread %u\n", (int)getpid(), main_n,
	       thread_n);
	EH_UNREGISTER(aim);
	return 0;
}
