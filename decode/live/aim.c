// SPDX-License-Identifier: MIT
/*
 * aim.c - the processes a session is aimed at and their threads, read
 * from /proc (see aim.h)
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/ehd-bytes.h"
#include "live/aim.h"
#include "system/procfs.h"

/* A growing array of pids. */
struct pids {
	pid_t *v;
	size_t n, cap;
};

static int push(struct pids *p, pid_t pid)
{
	if (p->n == p->cap) {
		size_t cap = p->cap ? 2 * p->cap : 16;
		pid_t *v = realloc(p->v, cap * sizeof(*v));

		if (!v)
			return -ENOMEM;
		p->v = v;
		p->cap = cap;
	}
	p->v[p->n++] = pid;
	return 0;
}

static bool has(const struct pids *p, pid_t pid)
{
	size_t i;

	for (i = 0; i < p->n; i++)
		if (p->v[i] == pid)
			return true;
	return false;
}

/*
 * The thread group of @pid and its parent, from /proc/PID/status (Tgid,
 * PPid); false when it is gone.
 */
static bool proc_ids(pid_t pid, pid_t *tgid, pid_t *ppid)
{
	static const char *const keys[] = { "Tgid", "PPid" };
	char v[2][EHD__STATUS_MAX], *end1, *end2;
	long t, p;

	if (pid <= 0 || ehd__proc_status((uint32_t)pid, keys, 2, v))
		return false;
	t = strtol(v[0], &end1, 10);
	p = strtol(v[1], &end2, 10);
	if (end1 == v[0] || end2 == v[1])
		return false;
	*tgid = (pid_t)t;
	*ppid = (pid_t)p;
	return true;
}

/* The descendants of the processes in @p, added to it. */
static int add_children(struct pids *p)
{
	struct pids all = { 0 }, parent = { 0 };
	struct dirent *de;
	bool grew = true;
	size_t i;
	int err = 0;
	DIR *d;

	d = opendir("/proc");
	if (!d)
		return 0;
	while ((de = readdir(d)) && !err) {
		pid_t pid = (pid_t)ehd__proc_id(de->d_name), tgid, ppid;

		if (pid && proc_ids(pid, &tgid, &ppid) && tgid == pid) {
			err = push(&all, pid);
			if (!err)
				err = push(&parent, ppid);
		}
	}
	closedir(d);
	/* Until no process is added: children of children, in any order. */
	while (grew && !err) {
		grew = false;
		for (i = 0; i < all.n && !err; i++)
			if (!has(p, all.v[i]) && has(p, parent.v[i])) {
				err = push(p, all.v[i]);
				grew = true;
			}
	}
	free(all.v);
	free(parent.v);
	return err;
}

/* The threads of process @pid, added to @t. */
static int add_threads(struct pids *t, pid_t pid)
{
	char path[40];
	struct dirent *de;
	int err = 0;
	DIR *d;

	snprintf(path, sizeof(path), "/proc/%d/task", (int)pid);
	d = opendir(path);
	if (!d)
		return 0;	/* gone */
	while ((de = readdir(d)) && !err) {
		pid_t tid = (pid_t)ehd__proc_id(de->d_name);

		if (tid)
			err = push(t, tid);
	}
	closedir(d);
	return err;
}

static int by_pid(const void *a, const void *b)
{
	pid_t x = *(const pid_t *)a, y = *(const pid_t *)b;

	return (x > y) - (x < y);
}

int ehd__aim_read(const pid_t *pids, size_t npids, bool children,
		  struct ehd__aim_now *now)
{
	struct pids p = { 0 }, t = { 0 };
	size_t i;
	int err = 0;

	memset(now, 0, sizeof(*now));
	for (i = 0; i < npids && !err; i++) {
		pid_t tgid, ppid;

		if (proc_ids(pids[i], &tgid, &ppid) && !has(&p, tgid))
			err = push(&p, tgid);
	}
	if (!err && children && p.n)
		err = add_children(&p);
	for (i = 0; i < p.n && !err; i++)
		err = add_threads(&t, p.v[i]);
	if (err) {
		free(p.v);
		free(t.v);
		return err;
	}
	if (p.n)
		qsort(p.v, p.n, sizeof(*p.v), by_pid);
	now->procs = p.v;
	now->nprocs = p.n;
	now->tasks = t.v;
	now->ntasks = t.n;
	return 0;
}

bool ehd__aim_has(const struct ehd__aim_now *now, pid_t pid)
{
	return now->nprocs &&
	       bsearch(&pid, now->procs, now->nprocs, sizeof(pid), by_pid);
}

void ehd__aim_free(struct ehd__aim_now *now)
{
	free(now->procs);
	free(now->tasks);
	memset(now, 0, sizeof(*now));
}
