// SPDX-License-Identifier: MIT
/*
 * drain.c - the thread that empties a live session's rings (see drain.h)
 */
#include <errno.h>
#include <limits.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/eventfd.h>
#include <linux/perf_event.h>

#include "core/ehd-clock.h"
#include "core/io.h"
#include "live/drain.h"
#include "formats/perf/perf-file.h"
#include "live/spool.h"

/* Round ends written on empty passes after data (see pass()). */
#define EMPTY_ROUNDS 2
/* How long to wait for the consumer when the spool is full. */
#define ROOM_WAIT_MS 10
/* Most bytes a file with no room is cut back at a time (mark_taken()). */
#define CUT_STEP (64u << 10)

struct ehd__drain {
	struct ehd__drain_cfg cfg;
	pthread_t thread;
	bool running;
	int wake_fd;
	struct pollfd *pfds;	/* the rings, then wake_fd */
	uint64_t *heads;	/* by ring, in a pass */
	struct iovec *iov;	/* 2 per ring, the side records, the round */
	uint64_t *skip;		/* cfg.skip_ids, ascending */

	pthread_mutex_t lock;	/* guards side */
	pthread_mutex_t io;	/* held through each pass: ehd__drain_pause() */
	struct ehd_buf side;	/* records for the next pass */
	struct ehd_buf taken;	/* the side records of this pass */
	int stop;		/* atomic: do a last pass and end */
	int empty_rounds;
	uint64_t last_ns;	/* when the last pass that took data began */
	struct ehd__drain_stats st;	/* atomic counts */
};

/* ---- sinks ---- */

static int write_fd(struct ehd__sink *k, const struct iovec *iov, int n)
{
	struct iovec v[64];
	ssize_t w;
	int i, m;

	while (n > 0) {
		m = n < (int)(sizeof(v) / sizeof(v[0])) ? n :
		    (int)(sizeof(v) / sizeof(v[0]));
		memcpy(v, iov, (size_t)m * sizeof(*v));
		i = 0;
		while (i < m) {
			w = writev(k->fd, v + i, m - i);
			if (w < 0 && errno == EINTR)
				continue;
			if (w < 0)
				return k->err = -errno;
			if (!w)
				return k->err = -EIO;
			k->bytes += (uint64_t)w;
			/* A short write: go on where it stopped. */
			while (i < m && (size_t)w >= v[i].iov_len)
				w -= (ssize_t)v[i++].iov_len;
			if (i < m) {
				v[i].iov_base = (char *)v[i].iov_base + w;
				v[i].iov_len -= (size_t)w;
			}
		}
		iov += m;
		n -= m;
	}
	return 0;
}

int ehd__sink_writev(struct ehd__sink *k, const struct iovec *iov, int n)
{
	size_t total = 0;
	int i, err;

	if (k->err)
		return k->err;
	if (!k->spool)
		return write_fd(k, iov, n);
	for (i = 0; i < n; i++)
		total += iov[i].iov_len;
	err = ehd__spool_put(k->spool, iov, n);
	if (err && err != -ENOSPC)
		return k->err = err;
	if (!err)
		k->bytes += total;
	return err;
}

/*
 * Which of the marks between the oldest and @at, the one to come, goes:
 * the one whose going leaves the smallest gap for its distance from @at,
 * so that they thin out geometrically back from the file's end.
 */
static size_t thinned(const uint64_t *a, size_t n, uint64_t at)
{
	double best = 2, r;
	size_t i, drop = n - 1;

	for (i = 1; i < n; i++) {
		r = (double)((i + 1 < n ? a[i + 1] : at) - a[i - 1]) /
		    (double)(at - a[i - 1]);
		if (r < best) {
			best = r;
			drop = i;
		}
	}
	return drop;
}

void ehd__sink_mark(struct ehd__sink *k, uint64_t at)
{
	size_t drop;

	if (!k->cuttable || (k->nends && at <= k->ends[k->nends - 1]))
		return;
	if (k->nends == EHD__SINK_ENDS) {
		drop = thinned(k->ends, k->nends, at);
		memmove(k->ends + drop, k->ends + drop + 1,
			(k->nends - drop - 1) * sizeof(*k->ends));
		k->nends--;
	}
	k->ends[k->nends++] = at;
}

int ehd__sink_cut(struct ehd__sink *k, int err)
{
	uint64_t end;

	if (!k->cuttable || !k->nends || !ehd__no_room(err))
		return err;
	if (__atomic_load_n(&k->no_room, __ATOMIC_ACQUIRE)) {
		/* Not room enough there: back to the mark before. */
		if (!--k->nends)
			return err;
		/* (records of the rings, round ends) */
		__atomic_fetch_add(&k->limit_dropped,
				   k->ends[k->nends] - k->ends[k->nends - 1],
				   __ATOMIC_RELAXED);
	}
	end = k->ends[k->nends - 1];
	if (ehd__cut_back(k->fd, end))
		return err;
	k->bytes = end;
	k->err = 0;
	__atomic_store_n(&k->limit, end, __ATOMIC_RELEASE);
	__atomic_store_n(&k->limit_hit, 1, __ATOMIC_RELEASE);
	if (!__atomic_load_n(&k->no_room, __ATOMIC_ACQUIRE))
		__atomic_store_n(&k->no_room, -err, __ATOMIC_RELEASE);
	return 0;
}

int ehd__sink_put(struct ehd__sink *k, const void *p, size_t n)
{
	struct iovec v = { (void *)p, n };
	int err = ehd__sink_writev(k, &v, 1);

	if (!err && k->spool)
		ehd__spool_commit(k->spool);
	return err;
}

static void count(uint64_t *c, uint64_t n)
{
	__atomic_fetch_add(c, n, __ATOMIC_RELAXED);
}

/* Copy @len bytes at @pos of the pieces @iov (@n) to @dst: false past them. */
static bool iov_read(const struct iovec *iov, int n, uint64_t pos, void *dst,
		     size_t len)
{
	uint8_t *d = dst;
	size_t k;
	int i;

	for (i = 0; i < n && len; i++) {
		if (pos >= iov[i].iov_len) {
			pos -= iov[i].iov_len;
			continue;
		}
		k = iov[i].iov_len - (size_t)pos;
		if (k > len)
			k = len;
		memcpy(d, (const uint8_t *)iov[i].iov_base + pos, k);
		d += k;
		len -= k;
		pos = 0;
	}
	return !len;
}

/*
 * A pass's write that stopped after @took of its bytes (@iov, @n, from
 * stream offset @start): marks at the ends of its records the file took
 * whole, CUT_STEP apart and at the last, so that the file is cut back no
 * further than it has to (ehd__sink_cut()).
 */
static void mark_taken(struct ehd__sink *k, const struct iovec *iov, int n,
		       uint64_t start, uint64_t took)
{
	struct perf_event_header h;
	uint64_t at = 0, marked = 0;

	while (at + sizeof(h) <= took && iov_read(iov, n, at, &h, sizeof(h)) &&
	       h.size >= sizeof(h) && at + h.size <= took) {
		at += h.size;
		if (at - marked >= CUT_STEP) {
			ehd__sink_mark(k, start + at);
			marked = at;
		}
	}
	if (at != marked)
		ehd__sink_mark(k, start + at);
}

int ehd__sink_write_records(struct ehd__sink *k, const struct iovec *iov,
			    int n)
{
	uint64_t start = k->bytes, all = 0;
	int err = ehd__sink_writev(k, iov, n), i;

	if (k->spool)
		return err;
	if (!err) {
		ehd__sink_mark(k, k->bytes);
	} else if (k->cuttable) {
		/* No room? What the file took whole stays. */
		mark_taken(k, iov, n, start, k->bytes - start);
		for (i = 0; i < n; i++)
			all += iov[i].iov_len;
		if (!ehd__sink_cut(k, err)) {
			count(&k->limit_dropped, start + all - k->bytes);
			err = 0;
		}
	}
	return err;
}

static int cmp_id(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

uint64_t *ehd__sorted_ids(const uint64_t *ids, size_t n)
{
	uint64_t *v = malloc((n ? n : 1) * sizeof(*v));

	if (v && n) {
		memcpy(v, ids, n * sizeof(*v));
		qsort(v, n, sizeof(*v), cmp_id);
	}
	return v;
}

/*
 * walk() - the bytes of the whole records at the start of @len bytes from
 * @tail in @data (a ring when @mask is its size less 1, a buffer when it
 * is all ones) that fit in @budget; with @sm, the samples among them
 * counted there. Headers only, and a sample's identifier (its first
 * field) where ids are skipped. An 8-byte header or identifier never
 * wraps (records are 8-byte aligned in a ring of a power of two bytes),
 * but an identifier may be at the ring's start, after a header at its
 * end.
 */
static size_t walk(const uint8_t *data, uint64_t tail, size_t len,
		   uint64_t mask, uint64_t budget, struct ehd__samples *sm)
{
	const struct perf_event_header *h;
	size_t n = 0;
	uint64_t id;

	while (n + sizeof(*h) <= len) {
		h = (const void *)(data + ((tail + n) & mask));
		if (h->size < sizeof(*h) || h->size > len - n ||
		    n + h->size > budget)
			break;	/* past the budget, or torn (never from the kernel) */
		if (sm && h->type == PERF_RECORD_SAMPLE) {
			if (!sm->nskip) {
				sm->n++;
			} else if (h->size >= sizeof(*h) + sizeof(id)) {
				memcpy(&id, data + ((tail + n + sizeof(*h)) &
						    mask), sizeof(id));
				if (bsearch(&id, sm->skip, sm->nskip,
					    sizeof(id), cmp_id))
					sm->skipped++;
				else
					sm->n++;
			}
		}
		n += h->size;
	}
	return n;
}

/*
 * A file with a bound: how many of the @len bytes of records at @tail in
 * @data (as walk(), the samples of those counted in @sm when not NULL) to
 * write with @budget bytes left, the bound said to be hit when some are
 * left; those are dropped (counted), or with limit_hold kept where they
 * are (the caller's). Past the bound, nothing.
 */
static size_t bounded(struct ehd__sink *k, const uint8_t *data,
		      uint64_t tail, size_t len, uint64_t mask,
		      uint64_t *budget, struct ehd__samples *sm)
{
	size_t n = 0;

	if (!__atomic_load_n(&k->limit_hit, __ATOMIC_RELAXED)) {
		n = len <= *budget && !sm ? len :
		    walk(data, tail, len, mask, *budget, sm);
		*budget -= n;
	}
	if (n < len) {
		__atomic_store_n(&k->limit_hit, 1, __ATOMIC_RELEASE);
		if (!k->limit_hold)
			__atomic_fetch_add(&k->limit_dropped, len - n,
					   __ATOMIC_RELAXED);
	}
	return n;
}

int ehd__sink_write_bounded(struct ehd__sink *k, const void *p, size_t n,
			    struct ehd__samples *sm)
{
	uint64_t limit = __atomic_load_n(&k->limit, __ATOMIC_ACQUIRE);
	uint64_t budget = limit > k->bytes ? limit - k->bytes : 0;
	struct ehd__samples out = { sm ? sm->skip : NULL, sm ? sm->nskip : 0,
				    0, 0 };
	struct iovec v = { (void *)p, n };
	int err;

	if (limit && !k->spool)
		v.iov_len = bounded(k, p, 0, n, UINT64_MAX, &budget,
				    sm ? &out : NULL);
	else if (sm)
		walk(p, 0, n, UINT64_MAX, UINT64_MAX, &out);
	err = v.iov_len ? ehd__sink_write_records(k, &v, 1) : 0;
	if (!err && sm) {
		sm->n += out.n;
		sm->skipped += out.skipped;
	}
	return err;
}

/* ---- the thread ---- */

/*
 * One pass: the side records, then what each ring holds, then a round
 * end; into a file with one writev(), into the spool piece by piece (a
 * ring whose data finds no room keeps it for the next pass); *@most
 * raised to the most one ring gave. Return: ring bytes taken, -ENOSPC
 * when some were left for lack of room, or the sink's failure.
 */
static long long pass(struct ehd__drain *d, size_t *most)
{
	static const struct perf_event_header round = {
		.type = EHD__PERF_RECORD_FINISHED_ROUND,
		.size = sizeof(round),
	};
	const struct ehd__drain_cfg *c = &d->cfg;
	struct ehd__sink *k = c->sink;
	uint64_t mask = c->size - 1, got = 0, budget = UINT64_MAX;
	struct ehd__samples samples = { d->skip, c->nskip, 0, 0 };
	uint64_t limit = __atomic_load_n(&k->limit, __ATOMIC_ACQUIRE);
	struct ehd_buf t;
	size_t i;
	int n = 0, first, err;
	bool full = false;

	/*
	 * The heads and the side records at once (see ehd__drain_lock()):
	 * a sample in what is taken comes after its event's description.
	 */
	pthread_mutex_lock(&d->lock);
	for (i = 0; i < c->nrings; i++) {
		struct perf_event_mmap_page *m = c->rings[i].base;

		d->heads[i] = __atomic_load_n(&m->data_head, __ATOMIC_ACQUIRE);
	}
	if (d->side.len && !d->taken.len) {
		t = d->taken;
		d->taken = d->side;
		d->side = t;
	} else if (d->side.len) {
		/* Behind those a full spool kept back. */
		ehd__buf_put(&d->taken, d->side.p, d->side.len);
	}
	d->side.len = 0;
	pthread_mutex_unlock(&d->lock);
	if (d->taken.err)
		return k->err = -ENOMEM;
	if (limit && !k->spool) {
		/* Room for a round end stays; descriptions go first. */
		budget = k->bytes + 8 < limit ? limit - k->bytes - 8 : 0;
		if (d->taken.len > budget ||
		    __atomic_load_n(&k->limit_hit, __ATOMIC_RELAXED)) {
			__atomic_store_n(&k->limit_hit, 1, __ATOMIC_RELEASE);
			d->taken.len = 0;
			budget = 0;
		} else {
			budget -= d->taken.len;
		}
	}
	if (d->taken.len) {
		d->iov[n++] = (struct iovec){ d->taken.p, d->taken.len };
		if (k->spool) {
			err = ehd__sink_writev(k, d->iov, n);
			if (err)
				return err;	/* ENOSPC: the rings wait too */
			d->taken.len = 0;
			n = 0;
		}
	}
	for (i = 0; i < c->nrings; i++) {
		struct perf_event_mmap_page *m = c->rings[i].base;
		uint64_t tail = m->data_tail, head = d->heads[i];
		size_t at = (size_t)(tail & mask), len = (size_t)(head - tail);

		/* Into a file: its samples counted as the span is bounded. */
		if (limit && !k->spool) {
			size_t all = len;

			len = bounded(k, c->rings[i].data, tail, len, mask,
				      &budget, &samples);
			if (k->limit_hold && len < all)
				d->heads[i] = tail + len;	/* kept */
		} else if (!k->spool) {
			walk(c->rings[i].data, tail, len, mask, UINT64_MAX,
			     &samples);
		}
		if (!len)
			continue;
		if (len > *most)
			*most = len;
		first = n;
		if (at + len <= c->size) {
			d->iov[n++] = (struct iovec){ c->rings[i].data + at, len };
		} else {
			d->iov[n++] = (struct iovec){ c->rings[i].data + at,
						      c->size - at };
			d->iov[n++] = (struct iovec){ c->rings[i].data,
						      len - (c->size - at) };
		}
		if (k->spool) {
			err = ehd__sink_writev(k, d->iov + first, n - first);
			n = first;
			if (err == -ENOSPC) {
				full = true;
				d->heads[i] = tail;	/* left for the next */
				continue;
			}
			if (err)
				return err;
		}
		got += len;
	}
	/*
	 * Rounds let a reader sort: what came before the previous round's
	 * end is complete. Two empty rounds after data let it give out the
	 * last of them; more would be noise.
	 */
	if (got)
		d->empty_rounds = 0;
	if ((got || d->empty_rounds < EMPTY_ROUNDS) &&
	    (!limit || k->spool || !__atomic_load_n(&k->limit_hit,
						    __ATOMIC_RELAXED) || got)) {
		if (!got)
			d->empty_rounds++;
		d->iov[n++] = (struct iovec){ (void *)&round, sizeof(round) };
	}
	if (n) {
		err = ehd__sink_write_records(k, d->iov, n);
		if (err && (err != -ENOSPC || !k->spool))
			return err;
	}
	d->taken.len = 0;
	for (i = 0; i < c->nrings; i++) {
		struct perf_event_mmap_page *m = c->rings[i].base;

		if (d->heads[i] != m->data_tail)
			__atomic_store_n(&m->data_tail, d->heads[i],
					 __ATOMIC_RELEASE);
	}
	if (k->spool)
		ehd__spool_commit(k->spool);
	if (full)
		count(&d->st.full, 1);
	if (got) {
		count(&d->st.passes, 1);
		count(&d->st.bytes, got);
		count(&d->st.samples, samples.n);
		count(&d->st.skipped, samples.skipped);
	}
	return full ? -ENOSPC : (long long)got;
}

int ehd__drain_early(size_t size, size_t most, uint64_t ns)
{
	const uint64_t early = (uint64_t)EHD__DRAIN_EARLY_MS * 1000000;
	uint64_t half;

	/* half a ring takes at least ns / 2: a ring gives at most its size */
	if (!most || ns >= 2 * early)
		return -1;
	half = (uint64_t)(size / 2) * ns / most;
	if (half >= early)
		return -1;
	return half < 1000000 ? 1 : (int)(half / 1000000);
}

/*
 * How long the next poll() waits: ehd__drain_early() into the spool, for
 * a pass begun at @began that took @got bytes, @most of them one ring's.
 */
static int next_wait(struct ehd__drain *d, long long got, size_t most,
		     uint64_t began)
{
	const struct ehd__drain_cfg *c = &d->cfg;
	uint64_t ns = began - d->last_ns;

	if (c->sink->err)
		return -1;
	if (got <= 0 || !c->sink->spool || c->timeout_ms >= 0)
		return c->timeout_ms;
	d->last_ns = began;
	return ehd__drain_early(c->size, most, ns);
}

static void *run(void *arg)
{
	struct ehd__drain *d = arg;
	const struct ehd__drain_cfg *c = &d->cfg;
	uint64_t v;
	long long r;
	uint64_t began;
	size_t i, most;
	bool idle;

	for (;;) {
		bool last = __atomic_load_n(&d->stop, __ATOMIC_ACQUIRE);

		began = ehd__now_ns(CLOCK_MONOTONIC);
		most = 0;
		pthread_mutex_lock(&d->io);
		r = c->sink->err ? c->sink->err : pass(d, &most);
		pthread_mutex_unlock(&d->io);
		if (last)
			break;
		if (r == -ENOSPC && c->sink->spool) {
			ehd__spool_wait_room(c->sink->spool, ROOM_WAIT_MS);
			continue;
		}
		for (i = 0; i <= c->nrings; i++)
			d->pfds[i].revents = 0;
		/*
		 * A failed sink takes nothing more: wait for the stop. A full
		 * file whose rest waits in the rings: for the next file.
		 */
		idle = c->sink->err || (c->sink->limit_hold &&
			__atomic_load_n(&c->sink->limit_hit, __ATOMIC_ACQUIRE));
		if (poll(idle ? d->pfds + c->nrings : d->pfds,
			 idle ? 1 : c->nrings + 1,
			 next_wait(d, r, most, began)) < 0 &&
		    errno != EINTR)
			break;
		if (d->pfds[c->nrings].revents &&
		    read(d->wake_fd, &v, sizeof(v)) < 0)
			(void)0;	/* reset: nothing else to do */
	}
	return NULL;
}

/*
 * A quarter with a latency bound. With none (a file read afterwards),
 * half into a file, as perf record: half the passes, each of twice the
 * data. Into the spool, three quarters: a pass there is a copy to
 * memory, done well within the time the last quarter takes to fill at
 * any rate a producer reaches, and at low rates a wake costs the thread
 * more than the copy. But only where the spool holds every ring twice
 * over: a smaller one, full while a slow converter reads it, leaves the
 * rings only their last quarter to wait in, and events were lost there.
 * At rates where that quarter fills in tens of ms, ehd__drain_early()
 * times passes as a half watermark would.
 * The measurements: docs/live-collection.md, "The drain's watermark" and
 * "The early pass".
 */
size_t ehd__drain_watermark(size_t size, size_t nrings, bool bounded,
			    uint64_t spool)
{
	if (bounded)
		return size / 4;
	if (spool && spool / 2 >= (uint64_t)nrings * size)
		return size - size / 4;
	return size / 2;
}

int ehd__drain_start(struct ehd__drain **dp, const struct ehd__drain_cfg *cfg)
{
	struct ehd__drain *d = calloc(1, sizeof(*d));
	sigset_t all, old;
	size_t i;
	int err;

	if (!d)
		return -ENOMEM;
	d->cfg = *cfg;
	d->wake_fd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
	d->pfds = calloc(cfg->nrings + 1, sizeof(*d->pfds));
	d->heads = calloc(cfg->nrings, sizeof(*d->heads));
	d->iov = calloc(2 * cfg->nrings + 2, sizeof(*d->iov));
	d->skip = ehd__sorted_ids(cfg->skip_ids, cfg->nskip);
	pthread_mutex_init(&d->lock, NULL);
	pthread_mutex_init(&d->io, NULL);
	if (d->wake_fd < 0 || !d->pfds || !d->heads || !d->iov || !d->skip) {
		err = d->wake_fd < 0 ? -errno : -ENOMEM;
		ehd__drain_free(d);
		return err;
	}
	for (i = 0; i < cfg->nrings; i++) {
		d->pfds[i].fd = cfg->rings[i].fd;
		d->pfds[i].events = POLLIN;
	}
	d->pfds[cfg->nrings].fd = d->wake_fd;
	d->pfds[cfg->nrings].events = POLLIN;
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	err = -pthread_create(&d->thread, NULL, run, d);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (err) {
		ehd__drain_free(d);
		return err;
	}
	/* named for top -H, perf and the tests (tests/vm/record-guest.sh) */
	pthread_setname_np(d->thread, "ehd-drain");
	d->running = true;
	*dp = d;
	return 0;
}

void ehd__drain_lock(struct ehd__drain *d)
{
	pthread_mutex_lock(&d->lock);
}

void ehd__drain_unlock(struct ehd__drain *d)
{
	pthread_mutex_unlock(&d->lock);
}

void ehd__drain_pause(struct ehd__drain *d)
{
	pthread_mutex_lock(&d->io);
}

void ehd__drain_resume(struct ehd__drain *d)
{
	pthread_mutex_unlock(&d->io);
}

int ehd__drain_side_locked(struct ehd__drain *d, const void *p, size_t n)
{
	ehd__buf_put(&d->side, p, n);
	return d->side.err;
}

void ehd__drain_wake(struct ehd__drain *d)
{
	uint64_t one = 1;

	if (write(d->wake_fd, &one, sizeof(one)) < 0)
		(void)0;	/* the counter is full: it wakes anyway */
}

int ehd__drain_stop(struct ehd__drain *d)
{
	if (d->running) {
		/* The consumer may be the caller: the last pass cannot wait. */
		if (d->cfg.sink->spool)
			ehd__spool_unbound(d->cfg.sink->spool);
		__atomic_store_n(&d->stop, 1, __ATOMIC_RELEASE);
		ehd__drain_wake(d);
		pthread_join(d->thread, NULL);
		d->running = false;
	}
	/* Side records handed over after the last pass go out now. */
	if (!d->cfg.sink->err && (d->taken.len || d->side.len) &&
	    !__atomic_load_n(&d->cfg.sink->limit_hit, __ATOMIC_ACQUIRE)) {
		ehd__sink_put(d->cfg.sink, d->taken.p, d->taken.len);
		ehd__sink_put(d->cfg.sink, d->side.p, d->side.len);
		d->taken.len = d->side.len = 0;
	}
	return d->cfg.sink->err;
}

void ehd__drain_stats(struct ehd__drain *d, struct ehd__drain_stats *st)
{
	st->passes = __atomic_load_n(&d->st.passes, __ATOMIC_RELAXED);
	st->bytes = __atomic_load_n(&d->st.bytes, __ATOMIC_RELAXED);
	st->full = __atomic_load_n(&d->st.full, __ATOMIC_RELAXED);
	st->samples = __atomic_load_n(&d->st.samples, __ATOMIC_RELAXED);
	st->skipped = __atomic_load_n(&d->st.skipped, __ATOMIC_RELAXED);
}

void ehd__drain_free(struct ehd__drain *d)
{
	if (!d)
		return;
	ehd__drain_stop(d);
	if (d->wake_fd >= 0)
		close(d->wake_fd);
	free(d->pfds);
	free(d->heads);
	free(d->iov);
	free(d->skip);
	ehd__buf_free(&d->side);
	ehd__buf_free(&d->taken);
	pthread_mutex_destroy(&d->lock);
	pthread_mutex_destroy(&d->io);
	free(d);
}
