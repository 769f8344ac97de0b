/* SPDX-License-Identifier: MIT */
/*
 * aim.h - the processes a session is aimed at (-p), and their threads,
 * as /proc shows them now
 */
#ifndef EHD_AIM_H
#define EHD_AIM_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

/**
 * struct ehd__aim_now - what an aim covers at one moment
 * @procs: the processes (thread group ids), sorted
 * @nprocs: how many
 * @tasks: their threads (tids)
 * @ntasks: how many
 */
struct ehd__aim_now {
	pid_t *procs;
	size_t nprocs;
	pid_t *tasks;
	size_t ntasks;
};

/**
 * ehd__aim_read() - the processes @pids (their whole thread groups, for a
 * thread's tid too), with @children every process descended from them,
 * and the threads of each, from /proc
 * @pids: the processes aimed at
 * @npids: how many
 * @children: also their descendants (by the parent pid of /proc/PID/stat)
 * @now: gets them (ehd__aim_free() frees); processes gone are left out
 *
 * Return: 0, or -ENOMEM.
 */
int ehd__aim_read(const pid_t *pids, size_t npids, bool children,
		  struct ehd__aim_now *now);

/* ehd__aim_has() - is process @pid among @now's? */
bool ehd__aim_has(const struct ehd__aim_now *now, pid_t pid);

void ehd__aim_free(struct ehd__aim_now *now);

#endif /* EHD_AIM_H */
