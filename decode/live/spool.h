/* SPDX-License-Identifier: MIT */
/*
 * spool.h - the bounded queue between the thread that empties a live
 * session's rings and the one that converts what they held (libehdecode,
 * private)
 *
 * One producer appends bytes, one consumer takes them in the same order.
 * Bytes wait in memory, in chunks, up to a bound; past it, when a folder
 * for it was given, in a temporary file there (unlinked: it goes away with
 * the process), up to a second bound. Beyond both the producer is refused,
 * and leaves its data where it was (in the kernel's ring, which then
 * counts what it drops).
 *
 *	producer (drain thread)			consumer
 *	ehd__spool_room(sp)			ehd__spool_read(sp, buf, n)
 *	ehd__spool_put(sp, p, n) ...		   -EAGAIN: poll ehd__spool_fd()
 *	ehd__spool_commit(sp)			   0: the end
 *	...
 *	ehd__spool_close(sp)
 *
 * Bytes put are seen by the consumer from the next commit on, so that a
 * producer can make a group of puts (a pass over the rings) visible at
 * once. Commit (once enough waits: ehd__spool_set_wake()) and close wake
 * a waiting consumer through a descriptor it can poll (ehd__spool_fd()),
 * so that its wait also ends on a signal.
 *
 * The bytes of one put are never split between two chunks: a producer
 * that puts whole records gets whole records in each chunk. A consumer
 * may then read them where they are, without a copy: ehd__spool_view()
 * gives the next bytes of a memory chunk and ehd__spool_release() says
 * when the bytes before a position are not needed any more. Bytes that
 * waited in the file are read with ehd__spool_read() (a copy). Until the
 * first view, what is read is released at once.
 */
#ifndef EHD_SPOOL_H
#define EHD_SPOOL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <sys/uio.h>

/* Bytes of a memory chunk (a larger put gets a chunk of its size). */
#define EHD__SPOOL_CHUNK (1u << 20)

struct ehd__spool;

/*
 * struct ehd__spool_stats - what the spool held
 * @in: bytes put and committed
 * @out: bytes read or viewed
 * @mem_peak: most bytes of memory chunks in use at once
 * @disk: bytes that went through the file
 * @disk_peak: the file's largest size
 * @refused: times the producer found no room
 * @spare: bytes of free memory chunks kept for the next puts
 */
struct ehd__spool_stats {
	uint64_t in;
	uint64_t out;
	uint64_t mem_peak;
	uint64_t disk;
	uint64_t disk_peak;
	uint64_t refused;
	uint64_t spare;
};

/**
 * ehd__spool_new() - make a spool
 * @sp: gets it
 * @mem_max: memory bound in bytes (at least one chunk is allowed)
 * @disk_max: file bound in bytes; 0 for no file
 * @disk_dir: the folder of the file (made when first needed, with
 *	O_TMPFILE, or a name that is unlinked at once); NULL for no file
 *
 * Return: 0, -ENOMEM, or the errno of the eventfd.
 */
int ehd__spool_new(struct ehd__spool **sp, size_t mem_max, uint64_t disk_max,
		   const char *disk_dir);

void ehd__spool_free(struct ehd__spool *sp);

/**
 * ehd__spool_reserve() - make memory chunks ready before the producer
 * needs them, their pages touched
 * @sp: the spool
 * @bytes: how many bytes of chunks to have spare (within the memory bound)
 *
 * A chunk first put into is faulted in page by page, by the thread that
 * puts: at the start of a recording, the drain thread's. Reserved, that
 * work is done here, before the rings are enabled, and the chunks go round
 * as the consumer releases them.
 *
 * Return: 0, or -ENOMEM (what was made is kept).
 */
int ehd__spool_reserve(struct ehd__spool *sp, size_t bytes);

/* The most a recording's spool reserves (ehd__spool_reserve_for()). */
#define EHD__SPOOL_RESERVE_MAX (16u << 20)

/**
 * ehd__spool_reserve_for() - what to reserve for rings of @ring_bytes
 * together
 * @ring_bytes: the bytes of all the rings
 *
 * Chunks for two passes over full rings and one more: what the reader
 * holds (two rounds, see perf-read.c) and what the drain puts meanwhile;
 * at most EHD__SPOOL_RESERVE_MAX.
 *
 * Return: the bytes for ehd__spool_reserve().
 */
size_t ehd__spool_reserve_for(size_t ring_bytes);

/**
 * ehd__spool_room() - bytes the producer may put now
 * @sp: the spool
 *
 * Return: the room in memory and in the file (at most SIZE_MAX).
 */
size_t ehd__spool_room(struct ehd__spool *sp);

/**
 * ehd__spool_unbound() - lift the memory bound (producer)
 * @sp: the spool
 *
 * For a last pass that must not wait for a consumer that waits for it:
 * memory chunks are then taken whatever their number.
 */
void ehd__spool_unbound(struct ehd__spool *sp);

/**
 * ehd__spool_put() - append the bytes of @iov, together in one chunk
 * (producer)
 * @sp: the spool
 * @iov: the pieces
 * @n: how many
 *
 * Return: 0; -ENOSPC when there is no room (nothing was put), also when
 * the file found none on its disk (ENOSPC, EDQUOT, EFBIG past the file
 * size limit); or the errno of another failed write to the file (the
 * spool is then failed: every later call says so).
 */
int ehd__spool_put(struct ehd__spool *sp, const struct iovec *iov, int n);

/**
 * ehd__spool_commit() - make what was put visible to the consumer, and
 * wake it
 * @sp: the spool
 */
void ehd__spool_commit(struct ehd__spool *sp);

/**
 * ehd__spool_set_wake() - how much a commit lets wait before it wakes the
 * consumer
 * @sp: the spool
 * @bytes: a commit wakes a waiting consumer once this many bytes are
 *	committed and not read (0, the default: at every commit that adds
 *	some)
 *
 * A consumer woken for each pass over the rings converts a few records a
 * wake; woken for a larger share of the spool, it converts more of them
 * for each switch into it. A close, and a put refused for want of room,
 * wake it whatever is pending.
 */
void ehd__spool_set_wake(struct ehd__spool *sp, uint64_t bytes);

/**
 * ehd__spool_close() - the producer is done: commit, and the consumer's
 * reads end (0) after the last byte
 * @sp: the spool
 * @err: 0, or a negative errno that the consumer's reads return instead
 *	of the end
 */
void ehd__spool_close(struct ehd__spool *sp, int err);

/**
 * ehd__spool_wait_room() - the producer waits until the consumer has
 * released something or @timeout_ms passed
 * @sp: the spool
 * @timeout_ms: the most to wait
 */
void ehd__spool_wait_room(struct ehd__spool *sp, int timeout_ms);

/**
 * ehd__spool_read() - take bytes, copied (consumer)
 * @sp: the spool
 * @buf: gets them
 * @n: at most this many
 *
 * Return: the number of bytes; -EAGAIN when none are committed now; 0
 * after the close and the last byte; or the close's error, or the errno
 * of a failed read of the file.
 */
ssize_t ehd__spool_read(struct ehd__spool *sp, void *buf, size_t n);

/**
 * ehd__spool_view() - take the next bytes where they are (consumer)
 * @sp: the spool
 * @p: gets where they are; they stay there until released
 * @n: gets how many (all the committed bytes of a memory chunk)
 *
 * Return: 1 with bytes; -EAGAIN when none are committed now; -ENODATA
 * when the next bytes are in the file (take them with ehd__spool_read());
 * 0 or the close's error at the end, as ehd__spool_read().
 */
int ehd__spool_view(struct ehd__spool *sp, const void **p, size_t *n);

/**
 * ehd__spool_release() - the consumer needs no byte before @pos
 * @sp: the spool
 * @pos: a position in the stream (bytes read or viewed before it count);
 *	chunks wholly before it are freed
 */
void ehd__spool_release(struct ehd__spool *sp, uint64_t pos);

/**
 * ehd__spool_fd() - readable after a commit or close since a read or view
 * that returned -EAGAIN
 * @sp: the spool
 *
 * Return: a descriptor to poll() for POLLIN (owned by @sp).
 */
int ehd__spool_fd(const struct ehd__spool *sp);

/**
 * ehd__spool_starved() - whether a put was refused since the last call
 * (consumer)
 * @sp: the spool
 *
 * A refusal also wakes a consumer that waits (ehd__spool_fd()). One that
 * keeps what it viewed until more comes (records held for sorting until
 * the next round end) must then copy it and give the stream back
 * (ehd__spool_release()), or neither side would move.
 */
bool ehd__spool_starved(struct ehd__spool *sp);

/**
 * ehd__spool_pending() - bytes committed and not read yet
 * @sp: the spool
 */
uint64_t ehd__spool_pending(struct ehd__spool *sp);

/* ehd__spool_stats() - counts so far (safe from either side). */
void ehd__spool_stats(struct ehd__spool *sp, struct ehd__spool_stats *st);

#endif /* EHD_SPOOL_H */
