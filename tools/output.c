// SPDX-License-Identifier: MIT
/*
 * output.c - output files written under a temporary name and renamed
 * when complete (see output.h)
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include "output.h"

/* The temporary files there are now, for a fatal signal to delete. */
#define TEMPS_MAX 4
static char *volatile temps[TEMPS_MAX];

/* The slot holding @was (NULL: a free one) holds @tmp now. */
static void replace_temp(char *was, char *tmp)
{
	size_t i;

	for (i = 0; i < TEMPS_MAX; i++)
		if (temps[i] == was) {
			temps[i] = tmp;
			return;
		}
}

void out_die(int sig)
{
	size_t i;

	for (i = 0; i < TEMPS_MAX; i++)
		if (temps[i])
			unlink(temps[i]);
	signal(sig, SIG_DFL);
	raise(sig);
}

void out_die_on_signals(void)
{
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP };
	struct sigaction sa, old;
	size_t i;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = out_die;
	sigemptyset(&sa.sa_mask);
	for (i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		if (!sigaction(sigs[i], NULL, &old) &&
		    old.sa_handler == SIG_DFL)
			sigaction(sigs[i], &sa, NULL);
}

/* Open what is no regular file, or a dangling link, in place. */
static int open_in_place(struct out_file *o, const char *path)
{
	o->fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	return o->fd < 0 ? -1 : 0;
}

int out_open(struct out_file *o, const char *path)
{
	struct stat st;
	size_t n;
	int e;

	o->path = path;
	o->real = NULL;
	o->tmp = NULL;
	o->fd = -1;
	if (!strcmp(path, "-")) {
		o->fd = fcntl(STDOUT_FILENO, F_DUPFD_CLOEXEC, 3);
		return o->fd < 0 ? -1 : 0;
	}
	if (!lstat(path, &st) && S_ISLNK(st.st_mode)) {
		o->real = realpath(path, NULL);
		if (!o->real)
			return open_in_place(o, path);
		path = o->real;
	}
	if (!stat(path, &st) && !S_ISREG(st.st_mode))
		return open_in_place(o, path);
	n = strlen(path);
	o->tmp = malloc(n + 16);
	if (!o->tmp)
		return -1;
	memcpy(o->tmp, path, n);
	memcpy(o->tmp + n, ".part-XXXXXX", 13);
	o->fd = mkostemp(o->tmp, O_CLOEXEC);
	if (o->fd >= 0)
		replace_temp(NULL, o->tmp);
	if (o->fd >= 0 && !fchmod(o->fd, 0644))
		return 0;
	e = errno;
	out_abandon(o);
	errno = e;
	return -1;
}

/* Keep an existing @path as @path.old. */
static int keep_old(const char *path)
{
	size_t n = strlen(path);
	char *old = malloc(n + 5);
	int ret = 0;

	if (!old)
		return -ENOMEM;
	memcpy(old, path, n);
	memcpy(old + n, ".old", 5);
	if (!access(path, F_OK) && rename(path, old))
		ret = -errno;
	free(old);
	return ret;
}

int out_commit(struct out_file *o, bool keep)
{
	const char *path = o->real ? o->real : o->path;
	int err = 0;

	/* A file system that cannot sync (a pipe, /proc) is no failure. */
	if (o->tmp && fsync(o->fd) && errno != EINVAL && errno != EROFS)
		err = -errno;
	if (close(o->fd) && !err)
		err = -errno;
	o->fd = -1;
	if (o->tmp) {
		if (!err && keep)
			err = keep_old(path);
		if (!err && rename(o->tmp, path))
			err = -errno;
		if (err)
			unlink(o->tmp);
		replace_temp(o->tmp, NULL);
	}
	free(o->tmp);
	free(o->real);
	o->tmp = o->real = NULL;
	return err;
}

void out_abandon(struct out_file *o)
{
	if (o->fd >= 0)
		close(o->fd);
	o->fd = -1;
	if (o->tmp) {
		unlink(o->tmp);
		replace_temp(o->tmp, NULL);
	}
	free(o->tmp);
	free(o->real);
	o->tmp = o->real = NULL;
}

char *out_folder(const char *path)
{
	const char *slash = strrchr(path, '/');

	if (!slash)
		return strdup(".");
	if (slash == path)
		return strdup("/");
	return strndup(path, (size_t)(slash - path));
}
