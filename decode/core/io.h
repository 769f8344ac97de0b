/* SPDX-License-Identifier: MIT */
/*
 * io.h - reads and writes of libehdecode that a signal does not cut
 * (private)
 *
 * A signal caught while read(2) or write(2) waits makes it fail with
 * EINTR before anything moved; these call it again, so that no caller
 * has its own loop for it. The _full ones also go on after a short
 * transfer, until all of it is done, the input ends or it fails.
 */
#ifndef EHD_IO_H
#define EHD_IO_H

#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* One read(2) or pread(2): bytes read, 0 at the end, or a negative errno. */
ssize_t ehd__read_retry(int fd, void *buf, size_t n);
ssize_t ehd__pread_retry(int fd, void *buf, size_t n, uint64_t off);

/*
 * ehd__read_full() - read until @n bytes came or the input ended
 * @done: gets the bytes read: fewer than @n only at the end of the input
 *	or on failure
 *
 * Return: 0, or a negative errno.
 */
int ehd__read_full(int fd, void *buf, size_t n, size_t *done);

/* ehd__read_full() at offset @off of a file (pread(2)). */
int ehd__pread_full(int fd, void *buf, size_t n, uint64_t off, size_t *done);

/*
 * ehd__write_full() - write all of @n bytes
 * @done: gets the bytes written: fewer than @n only on failure (may be
 *	NULL)
 *
 * Return: 0, or a negative errno (-EIO when nothing could be written).
 */
int ehd__write_full(int fd, const void *buf, size_t n, size_t *done);

/* ehd__write_full() at offset @off of a file (pwrite(2)). */
int ehd__pwrite_full(int fd, const void *buf, size_t n, uint64_t off,
		     size_t *done);

/*
 * ehd__no_room() - a write failed for want of room: ENOSPC (the disk),
 * EDQUOT (the quota) or EFBIG (past the file size limit, RLIMIT_FSIZE,
 * with SIGXFSZ ignored); @err is negative
 */
static inline bool ehd__no_room(int err)
{
	return err == -ENOSPC || err == -EDQUOT || err == -EFBIG;
}

/*
 * ehd__cut_back() - a regular file ends at @end, and is written there
 * next (what was written after it goes)
 *
 * Return: 0, or a negative errno.
 */
int ehd__cut_back(int fd, uint64_t end);

#endif /* EHD_IO_H */
