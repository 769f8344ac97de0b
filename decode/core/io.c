// SPDX-License-Identifier: MIT
/*
 * io.c - reads and writes that a signal does not cut
 */
#include <errno.h>
#include <unistd.h>

#include "core/io.h"

/*
 * Most bytes asked of one call: Linux moves at most about 2 GiB at a
 * time, and a count past SSIZE_MAX is not portable.
 */
#define CALL_MAX ((size_t)1 << 30)

static size_t call_size(size_t n)
{
	return n < CALL_MAX ? n : CALL_MAX;
}

ssize_t ehd__read_retry(int fd, void *buf, size_t n)
{
	ssize_t k;

	do
		k = read(fd, buf, call_size(n));
	while (k < 0 && errno == EINTR);
	return k < 0 ? -errno : k;
}

ssize_t ehd__pread_retry(int fd, void *buf, size_t n, uint64_t off)
{
	ssize_t k;

	do
		k = pread(fd, buf, call_size(n), (off_t)off);
	while (k < 0 && errno == EINTR);
	return k < 0 ? -errno : k;
}

int ehd__read_full(int fd, void *buf, size_t n, size_t *done)
{
	size_t got = 0;
	ssize_t k = 0;

	while (got < n) {
		k = ehd__read_retry(fd, (char *)buf + got, n - got);
		if (k <= 0)
			break;
		got += (size_t)k;
	}
	*done = got;
	return k < 0 ? (int)k : 0;
}

int ehd__pread_full(int fd, void *buf, size_t n, uint64_t off, size_t *done)
{
	size_t got = 0;
	ssize_t k = 0;

	while (got < n) {
		k = ehd__pread_retry(fd, (char *)buf + got, n - got, off + got);
		if (k <= 0)
			break;
		got += (size_t)k;
	}
	*done = got;
	return k < 0 ? (int)k : 0;
}

/* write(2) when @off is -1, else pwrite(2) at @off, until all is out. */
static int put_all(int fd, const void *buf, size_t n, int64_t off,
		   size_t *done)
{
	size_t put = 0;
	ssize_t k;
	int err = 0;

	while (put < n) {
		const char *p = (const char *)buf + put;

		k = off < 0 ? write(fd, p, call_size(n - put)) :
			      pwrite(fd, p, call_size(n - put),
				     (off_t)((uint64_t)off + put));
		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0) {
			/* Nothing written and no error: it would never end. */
			err = k < 0 ? -errno : -EIO;
			break;
		}
		put += (size_t)k;
	}
	if (done)
		*done = put;
	return err;
}

int ehd__write_full(int fd, const void *buf, size_t n, size_t *done)
{
	return put_all(fd, buf, n, -1, done);
}

int ehd__pwrite_full(int fd, const void *buf, size_t n, uint64_t off,
		     size_t *done)
{
	if (off > INT64_MAX)
		return -EINVAL;
	return put_all(fd, buf, n, (int64_t)off, done);
}

int ehd__cut_back(int fd, uint64_t end)
{
	if (end > INT64_MAX)
		return -EINVAL;
	if (ftruncate(fd, (off_t)end) ||
	    lseek(fd, (off_t)end, SEEK_SET) != (off_t)end)
		return -errno;
	return 0;
}
