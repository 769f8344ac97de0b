/* SPDX-License-Identifier: MIT */
/*
 * threads.h - thread and process names from perf's COMM, FORK and EXIT
 * records (libehdecode, private)
 *
 *	struct ehd__threads t = { 0 };
 *
 *	ehd__threads_comm(&t, pid, tid, "bash", 4);	(a COMM record)
 *	ehd__threads_fork(&t, tid, ptid);		(a FORK record)
 *	name = ehd__threads_name(&t, tid);		("bash", or NULL)
 *	ehd__threads_free(&t);
 *
 * A thread keeps its name after its EXIT: events may still name it.
 * Memory grows with the number of threads seen (about 40 bytes each).
 */
#ifndef EHD_THREADS_H
#define EHD_THREADS_H

#include <stddef.h>
#include <stdint.h>

#include "core/ehd-table.h"

#define EHD__COMM_MAX 16	/* the kernel's TASK_COMM_LEN */

struct ehd__thread {
	uint32_t pid;
	uint32_t tid;
	char comm[EHD__COMM_MAX];
};

/*
 * @gen changes whenever a name does, to a value no thread table in the
 * process had before: a (pid, tid, gen) seen twice has the same names.
 */
struct ehd__threads {
	struct ehd_table by_tid;	/* tid -> index in v */
	struct ehd__thread *v;
	size_t n, cap;
	int err;			/* -ENOMEM once a name was dropped */
	uint64_t gen;
};

/* Thread @tid of process @pid is now called @comm (@len bytes, no NUL). */
void ehd__threads_comm(struct ehd__threads *t, uint32_t pid, uint32_t tid,
		       const char *comm, size_t len);

/* Thread @tid of process @pid was made by thread @ptid: it has its name. */
void ehd__threads_fork(struct ehd__threads *t, uint32_t pid, uint32_t tid,
		       uint32_t ptid);

/* The name of thread @tid, or NULL when no record named it. */
const char *ehd__threads_name(const struct ehd__threads *t, uint32_t tid);

/* The process of thread @tid, or 0 when no record named it. */
uint32_t ehd__threads_pid(const struct ehd__threads *t, uint32_t tid);

void ehd__threads_free(struct ehd__threads *t);

#endif /* EHD_THREADS_H */
