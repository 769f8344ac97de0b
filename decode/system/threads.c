// SPDX-License-Identifier: MIT
/*
 * threads.c - thread and process names from perf's COMM, FORK and EXIT
 * records
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "system/threads.h"

static uint64_t gens;	/* atomic: see ehd__threads.gen */

static struct ehd__thread *find(const struct ehd__threads *t, uint32_t tid)
{
	size_t pos = 0;
	uint32_t i;

	while (ehd__table_next(&t->by_tid, tid, &pos, &i))
		if (t->v[i].tid == tid)
			return &t->v[i];
	return NULL;
}

/* The entry of @tid, made when new; NULL when out of memory. */
static struct ehd__thread *get(struct ehd__threads *t, uint32_t tid)
{
	struct ehd__thread *th = find(t, tid);

	if (th)
		return th;
	if (t->n == t->cap) {
		size_t cap = t->cap ? 2 * t->cap : 256;

		th = realloc(t->v, cap * sizeof(*th));
		if (!th)
			goto nomem;
		t->v = th;
		t->cap = cap;
	}
	if (ehd__table_add(&t->by_tid, tid, (uint32_t)t->n))
		goto nomem;
	th = &t->v[t->n++];
	memset(th, 0, sizeof(*th));
	th->tid = tid;
	return th;
nomem:
	t->err = -ENOMEM;
	return NULL;
}

void ehd__threads_comm(struct ehd__threads *t, uint32_t pid, uint32_t tid,
		       const char *comm, size_t len)
{
	struct ehd__thread *th = get(t, tid);

	if (!th)
		return;
	if (len >= sizeof(th->comm))
		len = sizeof(th->comm) - 1;
	th->pid = pid;
	memcpy(th->comm, comm, len);
	th->comm[len] = 0;
	t->gen = __atomic_add_fetch(&gens, 1, __ATOMIC_RELAXED);
}

void ehd__threads_fork(struct ehd__threads *t, uint32_t pid, uint32_t tid,
		       uint32_t ptid)
{
	const struct ehd__thread *parent = find(t, ptid);
	char comm[EHD__COMM_MAX] = "";

	if (parent)
		memcpy(comm, parent->comm, sizeof(comm));
	ehd__threads_comm(t, pid, tid, comm, strlen(comm));
}

const char *ehd__threads_name(const struct ehd__threads *t, uint32_t tid)
{
	const struct ehd__thread *th = find(t, tid);

	return th && th->comm[0] ? th->comm : NULL;
}

uint32_t ehd__threads_pid(const struct ehd__threads *t, uint32_t tid)
{
	const struct ehd__thread *th = find(t, tid);

	return th ? th->pid : 0;
}

void ehd__threads_free(struct ehd__threads *t)
{
	ehd__table_free(&t->by_tid);
	free(t->v);
	memset(t, 0, sizeof(*t));
}
