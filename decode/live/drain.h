/* SPDX-License-Identifier: MIT */
/*
 * drain.h - the thread that empties a live session's rings (libehdecode,
 * private)
 *
 * It does nothing else: it waits until the kernel wakes it (a ring filled
 * to its watermark, ehd__drain_watermark()) or a timeout, copies what
 * every ring holds as it is (whole records, never parsed; into a file,
 * the samples among them are counted by their headers) to a sink, gives
 * the space back to the kernel (data_tail) and ends the pass with a
 * FINISHED_ROUND record. A sink is either a spool (spool.h), read
 * by a consumer in another thread, or a file descriptor, written with one
 * writev() per pass straight from the rings, as perf record does.
 *
 * Records that describe the session (attrs, formats) are handed over with
 * ehd__drain_side_locked() and go out at the start of the next pass,
 * before any ring data taken in it (see ehd__drain_lock()).
 *
 *	ehd__drain_start(&d, &cfg);
 *	... ehd__drain_lock(d); (open, connect); ehd__drain_side_locked(d,
 *	    bytes, n); ehd__drain_unlock(d) ...
 *	(disable the events)
 *	ehd__drain_stop(d);		one last pass, then the thread ends
 *	ehd__sink_put(d->sink, ...)	the caller's now
 *	ehd__drain_free(d);
 */
#ifndef EHD_DRAIN_H
#define EHD_DRAIN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/uio.h>

#include "core/ehd-buf.h"

struct ehd__spool;

/* Marks kept to cut a file back to (ehd__sink_cut()). */
#define EHD__SINK_ENDS 64

/*
 * struct ehd__sink - where drained bytes go
 * @spool: the spool, or NULL
 * @fd: without a spool, the descriptor written to
 * @bytes: bytes written so far
 * @err: the first failure (a negative errno), after which nothing is
 *	written
 */
struct ehd__sink {
	struct ehd__spool *spool;
	int fd;
	uint64_t bytes;
	int err;
	/*
	 * A file's bound (atomic; 0: none): the drain thread writes whole
	 * records up to it, then nothing; limit_hit (atomic) says it came,
	 * limit_dropped (atomic) counts the ring bytes not written for it
	 * (dropped, or with limit_hold left in the rings for the next file).
	 */
	uint64_t limit;
	int limit_hit;
	uint64_t limit_dropped;
	bool limit_hold;
	/*
	 * A file that may be cut back (cuttable: a normal-mode perf.data,
	 * written from offset 0): where it was whole (ends[0..nends), oldest
	 * first: the ends of passes, and of records of a pass that found no
	 * room; thinned as they come, ehd__sink_mark()); no_room (atomic)
	 * the errno of the write that found none, once it is cut back.
	 */
	bool cuttable;
	int no_room;
	uint64_t ends[EHD__SINK_ENDS];
	size_t nends;
};

/*
 * ehd__sink_mark() - a cuttable file is whole up to stream offset @at (a
 * record's end, not before the last mark)
 *
 * The newest mark is always kept, and so is the oldest: a file is never
 * lost for want of a mark while the first whole end is far enough back.
 * When all EHD__SINK_ENDS are taken, the one whose going leaves the
 * smallest gap for how far back it lies goes: the marks are close where
 * the file ends and farther apart back from there.
 */
void ehd__sink_mark(struct ehd__sink *k, uint64_t at);

/**
 * ehd__sink_cut() - a cuttable file that found no room: back to a mark
 * @k: the sink
 * @err: the write's error
 *
 * The first time, to the newest mark (what the failed write left after it
 * goes); each time after, to the mark before, back to the oldest. The
 * file then takes nothing more from the rings: what they hold is dropped
 * and counted, as past a bound (@limit_hit).
 *
 * Return: 0, or @err when it is no such error (ENOSPC, EDQUOT, EFBIG), the
 * file cannot be cut, or there is no mark left.
 */
int ehd__sink_cut(struct ehd__sink *k, int err);

/**
 * ehd__sink_writev() - write @iov whole: to the file, or into the spool
 * (uncommitted; see ehd__spool_commit())
 * @k: the sink
 * @iov: the pieces
 * @n: how many
 *
 * Return: 0, -ENOSPC when the spool has no room (nothing written), or
 * the sink's failure.
 */
int ehd__sink_writev(struct ehd__sink *k, const struct iovec *iov, int n);

/*
 * ehd__sink_write_records() - ehd__sink_writev() of whole perf records; a
 * file is then whole at their end (ehd__sink_mark()), and a cuttable one
 * that finds no room keeps those it took whole: cut back there
 * (ehd__sink_cut(), the rest counted in limit_dropped), 0.
 * Return: 0, or the failure (-ENOSPC: a full spool took none).
 */
int ehd__sink_write_records(struct ehd__sink *k, const struct iovec *iov,
			    int n);

/*
 * struct ehd__samples - samples counted from record headers as they go out
 * @skip: ids (PERF_SAMPLE_IDENTIFIER, a sample's first field) whose
 *	samples are counted in @skipped instead of @n (CPU samples),
 *	ascending
 * @nskip: how many
 * @n: the other samples (PERF_RECORD_SAMPLE records)
 * @skipped: the samples of @skip
 */
struct ehd__samples {
	const uint64_t *skip;
	size_t nskip;
	uint64_t n;
	uint64_t skipped;
};

/*
 * ehd__sorted_ids() - a copy of the @n @ids, ascending, for the caller to
 * free; NULL when out of memory.
 */
uint64_t *ehd__sorted_ids(const uint64_t *ids, size_t n);

/*
 * ehd__sink_write_bounded() - ehd__sink_write_records() of the @n bytes of
 * whole perf records at @p, as many as the file's bound (limit) lets in,
 * as the drain thread takes a ring's: the rest counted in limit_dropped,
 * limit_hit said (a file cut back for want of room is past its bound).
 * With @sm, the samples among the records that go out are added there,
 * as the drain thread counts its own.
 * Return: 0, or the failure.
 */
int ehd__sink_write_bounded(struct ehd__sink *k, const void *p, size_t n,
			    struct ehd__samples *sm);

/* ehd__sink_put() - ehd__sink_writev() of one piece, committed. */
int ehd__sink_put(struct ehd__sink *k, const void *p, size_t n);

/*
 * ehd__drain_watermark() - how much is written to a ring before the
 * kernel wakes the drain thread (however much was taken since)
 * @size: a ring's data bytes
 * @nrings: the rings, at most
 * @bounded: a latency bound is set (a reader waits for the data)
 * @spool: where the data go: 0 a file, else the spool's bound in bytes
 *	(memory and disk)
 *
 * Return: a quarter of @size when @bounded; without a bound half into a
 * file, as perf record, and three quarters into a spool that holds every
 * ring twice over (else half).
 */
size_t ehd__drain_watermark(size_t size, size_t nrings, bool bounded,
			    uint64_t spool);

/*
 * ehd__drain_early() - when the next pass comes before the watermark
 * @size: a ring's data bytes
 * @most: the most one ring gave in the last pass that took data
 * @ns: the time from the pass before that one, in ns
 *
 * Copying into the spool, the kernel wakes the thread at three quarters:
 * few wakes where a wake is much of the cost. Where a ring fills half
 * its size in under EHD__DRAIN_EARLY_MS at the last pass's rate, its
 * last quarter leaves a wake that comes late (every CPU busy, or the
 * CPU itself not run by a hypervisor) too little time, and events were
 * lost there. The next pass is then timed for when that ring is half
 * full, as a half watermark would wake it; the watermark stays armed.
 *
 * Return: ms to wait (at least 1), or -1: the watermark's wake alone.
 */
#define EHD__DRAIN_EARLY_MS 50
int ehd__drain_early(size_t size, size_t most, uint64_t ns);

/* A ring as the drain thread sees it. */
struct ehd__drain_ring {
	int fd;			/* the perf event that owns the mapping */
	void *base;		/* control page */
	uint8_t *data;		/* data pages */
};

/*
 * struct ehd__drain_cfg - what ehd__drain_start() needs
 * @rings: the rings (kept by the caller while the thread runs)
 * @nrings: how many
 * @size: bytes of each ring's data, a power of two
 * @sink: where to (the thread's until ehd__drain_stop())
 * @timeout_ms: the longest wait for a wake-up between passes
 * @skip_ids: with a file sink, the ids (PERF_SAMPLE_IDENTIFIER) whose
 *	samples are counted in @skipped of the stats, not in @samples (CPU
 *	samples), in any order (the thread keeps a copy)
 * @nskip: how many
 */
struct ehd__drain_cfg {
	const struct ehd__drain_ring *rings;
	size_t nrings;
	size_t size;
	struct ehd__sink *sink;
	int timeout_ms;
	const uint64_t *skip_ids;
	size_t nskip;
};

/*
 * struct ehd__drain_stats - what the thread did
 * @passes: passes over the rings that found data
 * @bytes: ring bytes copied out
 * @full: passes where the spool had no room for a ring's data (left
 *	in the ring for the next)
 * @samples: with a file sink, the samples it wrote (PERF_RECORD_SAMPLE
 *	records but those of @skip_ids), counted from the record headers of
 *	each span as it goes out: what the file holds (unless it was cut
 *	back for want of room), where the kernel's count of an event can
 *	say one more than its ring held
 * @skipped: with a file sink, the samples of @skip_ids it wrote, counted
 *	the same way
 */
struct ehd__drain_stats {
	uint64_t passes;
	uint64_t bytes;
	uint64_t full;
	uint64_t samples;
	uint64_t skipped;
};

struct ehd__drain;

/**
 * ehd__drain_start() - start the thread
 * @dp: gets it
 * @cfg: the rings and the sink
 *
 * The thread blocks every signal, so that they go to the others (and a
 * write to a closed pipe fails with EPIPE instead of killing).
 *
 * Return: 0, -ENOMEM, or the error of pthread_create() or eventfd().
 */
int ehd__drain_start(struct ehd__drain **dp, const struct ehd__drain_cfg *cfg);

/**
 * ehd__drain_lock() - keep the thread from starting a pass
 * @d: the thread
 *
 * A pass reads the rings' heads and takes the side records under this
 * lock: give a new event its ring (PERF_EVENT_IOC_SET_OUTPUT) and hand
 * over its description while holding it, and no pass can take one of its
 * samples without the description.
 */
void ehd__drain_lock(struct ehd__drain *d);
void ehd__drain_unlock(struct ehd__drain *d);

/**
 * ehd__drain_pause() - wait for the pass under way, and hold the thread
 * before its next one until ehd__drain_resume(): the sink is the caller's
 * meanwhile (to end a file and start another). The rings fill meanwhile.
 * @d: the thread
 */
void ehd__drain_pause(struct ehd__drain *d);
void ehd__drain_resume(struct ehd__drain *d);

/**
 * ehd__drain_side_locked() - records to write before the next pass's ring
 * data (with the lock held)
 * @d: the thread
 * @p: the records
 * @n: their bytes
 *
 * Return: 0 or -ENOMEM.
 */
int ehd__drain_side_locked(struct ehd__drain *d, const void *p, size_t n);

/**
 * ehd__drain_wake() - make the thread do a pass now
 * @d: the thread
 */
void ehd__drain_wake(struct ehd__drain *d);

/**
 * ehd__drain_stop() - one last pass over the rings, then end the thread
 * @d: the thread
 *
 * Disable the events first: the last pass takes what the rings hold then,
 * once, and does not wait for them to empty.
 *
 * Return: the sink's failure, or 0.
 */
int ehd__drain_stop(struct ehd__drain *d);

void ehd__drain_stats(struct ehd__drain *d, struct ehd__drain_stats *st);

/* ehd__drain_free() - stop if running; free. */
void ehd__drain_free(struct ehd__drain *d);

#endif /* EHD_DRAIN_H */
