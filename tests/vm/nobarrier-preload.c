// SPDX-License-Identifier: MIT
/*
 * nobarrier-preload - membarrier(2) refused, for a program run with
 *
 *	LD_PRELOAD=tests/vm/libnobarrier.so PROGRAM...
 *
 * The VM's kernel has no seccomp, with which a container's profile would
 * refuse the call; this library stands in for it. Its syscall() fails
 * every membarrier() with EPERM and passes every other call on to the C
 * library's. With NOBARRIER_LOG set, each refusal appends a line to that
 * file, and so does the first nanosleep() the same thread makes after it
 * (with the pause asked for): a test can tell the refused path was taken,
 * and that it paused.
 *
 * ehd_session_stop() waits with a global membarrier for the tracepoint
 * handlers that began before the disable; refused, it pauses instead
 * (settle_writers() in decode/live/session.c). tests/vm/stop-guest.sh
 * stops ehrecord under this library to run that path.
 */
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>
#include <sys/syscall.h>

long syscall(long nr, ...);
int nanosleep(const struct timespec *req, struct timespec *rem);

/* A refusal this thread has not paused after yet. */
static __thread int refused;

static void note(const char *line, int n)
{
	const char *log = getenv("NOBARRIER_LOG");
	int fd;

	if (!log || n <= 0)
		return;
	fd = open(log, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
	if (fd < 0)
		return;
	if (write(fd, line, (size_t)n) < 0)
		(void)0;	/* the test sees no line */
	close(fd);
}

int nanosleep(const struct timespec *req, struct timespec *rem)
{
	static int (*next)(const struct timespec *, struct timespec *);
	char line[64];

	if (refused && req) {
		refused = 0;
		note(line, snprintf(line, sizeof(line), "paused %lld ns\n",
				    (long long)req->tv_sec * 1000000000 +
				    req->tv_nsec));
	}
	if (!next)
		next = (int (*)(const struct timespec *, struct timespec *))
		       dlsym(RTLD_NEXT, "nanosleep");
	if (!next) {
		errno = ENOSYS;
		return -1;
	}
	return next(req, rem);
}

long syscall(long nr, ...)
{
	static const char refusal[] = "membarrier refused\n";
	static long (*next)(long, ...);
	long a[6];
	va_list ap;
	int i;

	if (nr == SYS_membarrier) {
		refused = 1;
		note(refusal, (int)sizeof(refusal) - 1);
		errno = EPERM;
		return -1;
	}
	if (!next)
		next = (long (*)(long, ...))dlsym(RTLD_NEXT, "syscall");
	if (!next) {
		errno = ENOSYS;
		return -1;
	}
	/* (the C library's syscall() reads six arguments whatever the call) */
	va_start(ap, nr);
	for (i = 0; i < 6; i++)
		a[i] = va_arg(ap, long);
	va_end(ap);
	return next(nr, a[0], a[1], a[2], a[3], a[4], a[5]);
}
