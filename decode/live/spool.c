// SPDX-License-Identifier: MIT
/*
 * spool.c - the bounded queue between a live session's drain thread and
 * its consumer (see spool.h)
 *
 * The queue is a list of chunks, oldest first. A memory chunk holds the
 * bytes of whole puts; a file chunk is a range of the temporary file, as
 * long as the producer keeps appending to it. The producer only writes
 * into the last chunk; the consumer reads from a chunk (rd) and frees
 * those before it once released, so the bytes are copied outside the
 * lock. The lock guards the list, the committed lengths and the counts.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/eventfd.h>

#include "core/ehd-bytes.h"
#include "core/io.h"
#include "live/spool.h"

struct chunk {
	struct chunk *next;
	uint8_t *mem;		/* NULL for a file chunk */
	size_t cap;		/* of @mem */
	uint64_t file_off;	/* file chunk: where its bytes start */
	uint64_t start;		/* the stream position of its first byte */
	size_t len;		/* bytes put */
	size_t committed;	/* bytes the consumer may read */
	size_t pos;		/* bytes read or viewed */
};

struct ehd__spool {
	pthread_mutex_t lock;
	pthread_cond_t room_cv;
	int efd;		/* wakes the consumer */
	bool consumer_waiting;
	bool producer_waiting;
	uint64_t wake_bytes;	/* pending bytes a commit wakes the consumer for */

	struct chunk *head;	/* the oldest chunk not freed */
	struct chunk *rd;	/* the chunk the consumer reads */
	struct chunk *tail;	/* the producer's */
	struct chunk *uncommitted;	/* first chunk with bytes to commit */
	/*
	 * Free chunks of EHD__SPOOL_CHUNK bytes, kept (within the bound):
	 * memory given back to the system would have to be faulted in
	 * again, page by page, for the next.
	 */
	struct chunk *spare;
	size_t spare_bytes;
	size_t mem_bytes;	/* of the memory chunks in the list */
	size_t mem_max;		/* SIZE_MAX once unbound */
	bool viewed;		/* release is the consumer's to say */
	uint64_t released;	/* viewed: the stream position given back */
	uint64_t end;		/* where a chunk linked to no list starts */

	const char *dir;	/* NULL: no file */
	char *dir_copy;
	int file;		/* -1 until needed */
	uint64_t disk_max;
	uint64_t file_end;	/* where the next file chunk starts */
	size_t file_chunks;	/* file chunks in the list */

	bool starved;		/* a put was refused: ehd__spool_starved() */
	bool closed;
	int close_err;
	int err;		/* the producer failed */
	uint64_t pending;	/* committed, not read */
	struct ehd__spool_stats st;
};

int ehd__spool_new(struct ehd__spool **sp, size_t mem_max, uint64_t disk_max,
		   const char *disk_dir)
{
	struct ehd__spool *s = calloc(1, sizeof(*s));
	pthread_condattr_t ca;

	if (!s)
		return -ENOMEM;
	s->file = -1;
	s->mem_max = mem_max < EHD__SPOOL_CHUNK ? EHD__SPOOL_CHUNK : mem_max;
	if (disk_dir && disk_max) {
		s->dir_copy = strdup(disk_dir);
		if (!s->dir_copy) {
			free(s);
			return -ENOMEM;
		}
		s->dir = s->dir_copy;
		s->disk_max = disk_max;
	}
	s->efd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
	if (s->efd < 0) {
		int e = errno;

		free(s->dir_copy);
		free(s);
		return -e;
	}
	pthread_mutex_init(&s->lock, NULL);
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&s->room_cv, &ca);
	pthread_condattr_destroy(&ca);
	*sp = s;
	return 0;
}

static void free_chunk(struct chunk *c)
{
	if (c) {
		free(c->mem);
		free(c);
	}
}

void ehd__spool_free(struct ehd__spool *s)
{
	struct chunk *c, *n;

	if (!s)
		return;
	for (c = s->head; c; c = n) {
		n = c->next;
		free_chunk(c);
	}
	for (c = s->spare; c; c = n) {
		n = c->next;
		free_chunk(c);
	}
	if (s->file >= 0)
		close(s->file);
	close(s->efd);
	pthread_mutex_destroy(&s->lock);
	pthread_cond_destroy(&s->room_cv);
	free(s->dir_copy);
	free(s);
}

/* ---- producer ---- */

/* A memory chunk of @cap bytes, not linked; NULL when out of memory. */
static struct chunk *alloc_mem_chunk(size_t cap)
{
	struct chunk *c = calloc(1, sizeof(*c));

	if (c)
		c->mem = malloc(cap);
	if (!c || !c->mem) {
		free(c);
		return NULL;
	}
	c->cap = cap;
	return c;
}

/* Under the lock: keep free chunk @c (of EHD__SPOOL_CHUNK bytes) spare. */
static void keep_spare_locked(struct ehd__spool *s, struct chunk *c)
{
	c->next = s->spare;
	s->spare = c;
	s->spare_bytes += c->cap;
}

/*
 * Under the lock: memory chunk @c, out of the list, is done with: kept
 * spare (within the bound) or freed.
 */
static void retire_mem_locked(struct ehd__spool *s, struct chunk *c)
{
	s->mem_bytes -= c->cap;
	if (c->cap == EHD__SPOOL_CHUNK &&
	    s->mem_bytes + s->spare_bytes + c->cap <= s->mem_max)
		keep_spare_locked(s, c);
	else
		free_chunk(c);
}

int ehd__spool_reserve(struct ehd__spool *s, size_t bytes)
{
	struct chunk *c;

	while (s->spare_bytes < bytes &&
	       s->mem_bytes + s->spare_bytes + EHD__SPOOL_CHUNK <= s->mem_max) {
		c = alloc_mem_chunk(EHD__SPOOL_CHUNK);
		if (!c)
			return -ENOMEM;
		ehd__touch_pages(c->mem, c->cap);
		pthread_mutex_lock(&s->lock);
		keep_spare_locked(s, c);
		pthread_mutex_unlock(&s->lock);
	}
	return 0;
}

size_t ehd__spool_reserve_for(size_t ring_bytes)
{
	if (ring_bytes > (EHD__SPOOL_RESERVE_MAX - EHD__SPOOL_CHUNK) / 2)
		return EHD__SPOOL_RESERVE_MAX;
	return 2 * ring_bytes + EHD__SPOOL_CHUNK;
}

static uint64_t disk_room(const struct ehd__spool *s)
{
	if (!s->dir)
		return 0;
	return s->file_end < s->disk_max ? s->disk_max - s->file_end : 0;
}

size_t ehd__spool_room(struct ehd__spool *s)
{
	uint64_t room;

	pthread_mutex_lock(&s->lock);
	if (s->mem_max == SIZE_MAX) {
		pthread_mutex_unlock(&s->lock);
		return s->err ? 0 : SIZE_MAX;
	}
	room = s->mem_bytes < s->mem_max ? s->mem_max - s->mem_bytes : 0;
	if (s->tail && s->tail->mem)
		room += s->tail->cap - s->tail->len;
	if (s->tail && !s->tail->mem)
		room += s->disk_max - (s->tail->file_off + s->tail->len);
	else
		room += disk_room(s);
	pthread_mutex_unlock(&s->lock);
	if (s->err)
		return 0;
	return room > SIZE_MAX ? SIZE_MAX : (size_t)room;
}

void ehd__spool_unbound(struct ehd__spool *s)
{
	pthread_mutex_lock(&s->lock);
	s->mem_max = SIZE_MAX;
	pthread_mutex_unlock(&s->lock);
}

/* Link @c at the tail (producer). */
static void link_chunk(struct ehd__spool *s, struct chunk *c)
{
	pthread_mutex_lock(&s->lock);
	c->start = s->tail ? s->tail->start + s->tail->len : s->end;
	if (s->tail)
		s->tail->next = c;
	else
		s->head = s->rd = c;
	s->tail = c;
	if (!s->uncommitted)
		s->uncommitted = c;
	if (c->mem) {
		s->mem_bytes += c->cap;
		if (s->mem_bytes > s->st.mem_peak)
			s->st.mem_peak = s->mem_bytes;
	} else {
		s->file_chunks++;
	}
	pthread_mutex_unlock(&s->lock);
}

/*
 * Under the lock: when the list is one memory chunk the consumer is done
 * with (read, or viewed and given back), it goes, its memory free for the
 * next (a spare, within the bound). The consumer leaves the last chunk it
 * reads where it is, for the producer to append to, so without this a
 * bound of one chunk (or a put too large for what the bound leaves beside
 * that chunk) would refuse every put from then on.
 */
static void drop_done_locked(struct ehd__spool *s)
{
	struct chunk *c = s->tail;

	if (!c || c != s->head || !c->mem || c->pos < c->len ||
	    c->committed < c->len ||
	    (s->viewed && s->released < c->start + c->len))
		return;
	s->end = c->start + c->len;
	s->head = s->rd = s->tail = s->uncommitted = NULL;
	retire_mem_locked(s, c);
}

/* A memory chunk for a put of @n bytes, within the bound; or NULL. */
static struct chunk *new_mem_chunk(struct ehd__spool *s, size_t n)
{
	size_t cap = n > EHD__SPOOL_CHUNK ? n : EHD__SPOOL_CHUNK;
	struct chunk *c = NULL;
	bool ok;

	pthread_mutex_lock(&s->lock);
	drop_done_locked(s);
	ok = s->mem_max == SIZE_MAX ||
	     (s->mem_bytes <= s->mem_max && cap <= s->mem_max - s->mem_bytes);
	if (ok && cap == EHD__SPOOL_CHUNK && s->spare) {
		c = s->spare;
		s->spare = c->next;
		s->spare_bytes -= c->cap;
	}
	pthread_mutex_unlock(&s->lock);
	if (!ok)
		return NULL;
	if (!c && !(c = alloc_mem_chunk(cap)))
		return NULL;	/* as if full: the file or the ring */
	c->next = NULL;
	c->len = c->committed = c->pos = 0;
	link_chunk(s, c);
	return c;
}

static int open_file(struct ehd__spool *s)
{
	char path[4200];
	int fd;

	fd = open(s->dir, O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
	if (fd < 0 && (errno == EOPNOTSUPP || errno == EISDIR ||
		       errno == EINVAL)) {
		snprintf(path, sizeof(path), "%s/.ehd-spool-XXXXXX", s->dir);
		fd = mkostemp(path, O_CLOEXEC);
		if (fd >= 0)
			unlink(path);
	}
	if (fd < 0)
		return -errno;
	s->file = fd;
	return 0;
}

/* A file chunk with room for @n bytes, or NULL (nothing changed). */
static struct chunk *new_file_chunk(struct ehd__spool *s, size_t n)
{
	struct chunk *c;
	size_t files;

	pthread_mutex_lock(&s->lock);
	files = s->file_chunks;
	pthread_mutex_unlock(&s->lock);
	if (!files && s->file_end) {
		/* Everything in the file was read: start it again. */
		s->file_end = 0;
		if (ftruncate(s->file, 0))
			return NULL;
	}
	if (disk_room(s) < n)
		return NULL;
	if (s->file < 0) {
		int err = open_file(s);

		if (err) {
			s->err = err;
			return NULL;
		}
	}
	c = calloc(1, sizeof(*c));
	if (!c)
		return NULL;
	c->file_off = s->file_end;
	link_chunk(s, c);
	return c;
}

static void wake_consumer_locked(struct ehd__spool *s)
{
	uint64_t one = 1;

	s->consumer_waiting = false;
	if (write(s->efd, &one, sizeof(one)) < 0)
		(void)0;	/* full counter: it is readable anyway */
}

static int refused(struct ehd__spool *s)
{
	pthread_mutex_lock(&s->lock);
	s->st.refused++;
	s->starved = true;
	if (s->consumer_waiting)
		wake_consumer_locked(s);
	pthread_mutex_unlock(&s->lock);
	return s->err ? s->err : -ENOSPC;
}

/*
 * Append to file chunk @c. A write that finds no room on the disk (or
 * passes the file size limit) is a refusal, as when the bound is reached:
 * nothing of the put counts (what was written of it is overwritten by the
 * next), and the producer leaves its data in the ring.
 */
static int put_file(struct ehd__spool *s, struct chunk *c,
		    const struct iovec *iov, int niov)
{
	uint64_t off = c->file_off + c->len, start = off;
	size_t n;
	int i, err;

	for (i = 0; i < niov; i++) {
		err = ehd__pwrite_full(s->file, iov[i].iov_base, iov[i].iov_len,
				       off, &n);
		off += n;
		if (ehd__no_room(err))
			return refused(s);
		if (err)
			return s->err = err;
	}
	c->len += off - start;
	s->file_end = off;
	pthread_mutex_lock(&s->lock);
	s->st.disk += off - start;
	if (off > s->st.disk_peak)
		s->st.disk_peak = off;
	pthread_mutex_unlock(&s->lock);
	return 0;
}

static void copy_in(struct chunk *c, const struct iovec *iov, int niov)
{
	int i;

	for (i = 0; i < niov; i++) {
		ehd__copy_span(c->mem + c->len, iov[i].iov_base,
			       iov[i].iov_len);
		c->len += iov[i].iov_len;
	}
}

int ehd__spool_put(struct ehd__spool *s, const struct iovec *iov, int niov)
{
	struct chunk *c = s->tail;
	size_t n = 0;
	int i;

	if (s->err)
		return s->err;
	for (i = 0; i < niov; i++)
		n += iov[i].iov_len;
	if (!n)
		return 0;
	if (c && c->mem && c->cap - c->len >= n) {
		copy_in(c, iov, niov);
		return 0;
	}
	c = new_mem_chunk(s, n);
	if (c) {
		copy_in(c, iov, niov);
		return 0;
	}
	c = s->tail;
	if (!c || c->mem)
		c = new_file_chunk(s, n);
	if (!c || disk_room(s) < n)
		return refused(s);
	return put_file(s, c, iov, niov);
}

/*
 * Under the lock: commit what was put; wake the consumer once enough
 * waits (ehd__spool_set_wake()), or at the close.
 */
static void commit_locked(struct ehd__spool *s)
{
	struct chunk *c;
	uint64_t added = 0;

	for (c = s->uncommitted; c; c = c->next) {
		added += c->len - c->committed;
		c->committed = c->len;
	}
	s->uncommitted = s->tail;
	s->pending += added;
	s->st.in += added;
	if (!s->consumer_waiting)
		return;
	if (s->closed || (added && s->pending >= s->wake_bytes))
		wake_consumer_locked(s);
}

void ehd__spool_set_wake(struct ehd__spool *s, uint64_t bytes)
{
	pthread_mutex_lock(&s->lock);
	s->wake_bytes = bytes;
	pthread_mutex_unlock(&s->lock);
}

void ehd__spool_commit(struct ehd__spool *s)
{
	pthread_mutex_lock(&s->lock);
	commit_locked(s);
	pthread_mutex_unlock(&s->lock);
}

void ehd__spool_close(struct ehd__spool *s, int err)
{
	pthread_mutex_lock(&s->lock);
	s->closed = true;
	s->close_err = err;
	s->consumer_waiting = true;	/* wake it whatever it does */
	commit_locked(s);
	pthread_mutex_unlock(&s->lock);
}

void ehd__spool_wait_room(struct ehd__spool *s, int timeout_ms)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	ts.tv_sec += timeout_ms / 1000;
	ts.tv_nsec += (long)(timeout_ms % 1000) * 1000000;
	if (ts.tv_nsec >= 1000000000) {
		ts.tv_sec++;
		ts.tv_nsec -= 1000000000;
	}
	pthread_mutex_lock(&s->lock);
	s->producer_waiting = true;
	pthread_cond_timedwait(&s->room_cv, &s->lock, &ts);
	s->producer_waiting = false;
	pthread_mutex_unlock(&s->lock);
}

/* ---- consumer ---- */

/* Under the lock: free the chunks wholly before @pos and read. */
static void release_locked(struct ehd__spool *s, uint64_t pos)
{
	struct chunk *c;
	bool freed = false;

	while ((c = s->head) && c != s->rd && c->start + c->len <= pos) {
		s->head = c->next;
		if (s->uncommitted == c)
			s->uncommitted = c->next;
		if (c->mem) {
			retire_mem_locked(s, c);
		} else {
			s->file_chunks--;
			free_chunk(c);
		}
		freed = true;
	}
	if (freed && s->producer_waiting)
		pthread_cond_signal(&s->room_cv);
}

void ehd__spool_release(struct ehd__spool *s, uint64_t pos)
{
	pthread_mutex_lock(&s->lock);
	if (pos > s->released)
		s->released = pos;
	release_locked(s, pos);
	pthread_mutex_unlock(&s->lock);
}

/*
 * Under the lock: the chunk to read next (rd moved past those read to
 * their end that the producer has left), or NULL when nothing is
 * committed now.
 */
static struct chunk *next_locked(struct ehd__spool *s)
{
	struct chunk *c = s->rd;

	while (c && c->pos == c->len && c->committed == c->len && c->next) {
		c = s->rd = c->next;
		if (!s->viewed)
			release_locked(s, c->start);
	}
	return c && c->pos < c->committed ? c : NULL;
}

/* Nothing to take: the end, or wait (see commit_locked()). */
static int empty(struct ehd__spool *s)
{
	uint64_t drain;
	int ret;

	if (s->closed) {
		ret = s->close_err;
		pthread_mutex_unlock(&s->lock);
		return ret;
	}
	pthread_mutex_unlock(&s->lock);
	/* Reset the wake-up, then say we wait, then look once more. */
	if (read(s->efd, &drain, sizeof(drain)) < 0)
		(void)0;	/* EAGAIN: it was not set */
	pthread_mutex_lock(&s->lock);
	if (!s->closed && !next_locked(s)) {
		s->consumer_waiting = true;
		pthread_mutex_unlock(&s->lock);
		return -EAGAIN;
	}
	pthread_mutex_unlock(&s->lock);
	return 1;	/* look again */
}

/*
 * The chunk to take bytes from, with the lock held; or NULL (unlocked)
 * with the end, -EAGAIN or the close's error in *@ret.
 */
static struct chunk *take(struct ehd__spool *s, bool view, int *ret)
{
	struct chunk *c;

	for (;;) {
		pthread_mutex_lock(&s->lock);
		if (view)
			s->viewed = true;
		c = next_locked(s);
		if (c)
			return c;
		*ret = empty(s);
		if (*ret <= 0)
			return NULL;
	}
}

ssize_t ehd__spool_read(struct ehd__spool *s, void *buf, size_t n)
{
	struct chunk *c;
	size_t avail, pos;
	ssize_t k;
	int ret;

	c = take(s, false, &ret);
	if (!c)
		return ret;
	avail = c->committed - c->pos;
	pos = c->pos;
	pthread_mutex_unlock(&s->lock);

	if (avail > n)
		avail = n;
	if (c->mem) {
		memcpy(buf, c->mem + pos, avail);
		k = (ssize_t)avail;
	} else {
		k = ehd__pread_retry(s->file, buf, avail, c->file_off + pos);
		if (k < 0)
			return (int)k;
		if (!k)
			return -EIO;
	}
	pthread_mutex_lock(&s->lock);
	c->pos += (size_t)k;
	s->pending -= (uint64_t)k;
	s->st.out += (uint64_t)k;
	if (!s->viewed)
		next_locked(s);
	pthread_mutex_unlock(&s->lock);
	return k;
}

int ehd__spool_view(struct ehd__spool *s, const void **p, size_t *n)
{
	struct chunk *c;
	int ret;

	c = take(s, true, &ret);
	if (!c)
		return ret;
	if (!c->mem) {
		pthread_mutex_unlock(&s->lock);
		return -ENODATA;
	}
	*p = c->mem + c->pos;
	*n = c->committed - c->pos;
	c->pos = c->committed;
	s->pending -= *n;
	s->st.out += *n;
	pthread_mutex_unlock(&s->lock);
	return 1;
}

int ehd__spool_fd(const struct ehd__spool *s)
{
	return s->efd;
}

bool ehd__spool_starved(struct ehd__spool *s)
{
	bool starved;

	pthread_mutex_lock(&s->lock);
	starved = s->starved;
	s->starved = false;
	pthread_mutex_unlock(&s->lock);
	return starved;
}

uint64_t ehd__spool_pending(struct ehd__spool *s)
{
	uint64_t n;

	pthread_mutex_lock(&s->lock);
	n = s->pending;
	pthread_mutex_unlock(&s->lock);
	return n;
}

void ehd__spool_stats(struct ehd__spool *s, struct ehd__spool_stats *st)
{
	pthread_mutex_lock(&s->lock);
	*st = s->st;
	st->spare = s->spare_bytes;
	pthread_mutex_unlock(&s->lock);
}
