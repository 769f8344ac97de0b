/* SPDX-License-Identifier: MIT */
/*
 * input.h - buffered input of libehdecode's readers (private)
 *
 * A reader asks for the next @n bytes with ehd__in_fill() and finds them
 * in one piece at ehd__in_peek(), where they stay until its next fill.
 * The buffer grows to the largest piece asked for; what was taken is
 * dropped at the next fill (the rest moves to the front). Reads ask for
 * all the buffer has room for, so that small pieces cost no system call
 * each. The bytes a front end read to find the kind of input come first.
 */
#ifndef EHD_INPUT_H
#define EHD_INPUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* Bytes of the buffer to begin with, and asked of a read at least. */
#define EHD__IN_CHUNK (64u << 10)

/*
 * struct ehd__in - an input read through a buffer
 * @fd: read with read(2) from where it is; not closed here
 * @buf: @len bytes read, of which @pos taken
 * @cap: bytes at @buf
 * @base: input offset of buf[0]
 * @chunk: the buffer's size at least
 * @eof: the input ended (it is not read again)
 */
struct ehd__in {
	int fd;
	uint8_t *buf;
	size_t len, pos, cap;
	uint64_t base;
	size_t chunk;
	bool eof;
};

/*
 * ehd__in_open() - start reading @fd after the @n bytes at @head (read
 * from it before), which are given first, at offset 0
 * @chunk: the buffer's size at least (EHD__IN_CHUNK)
 *
 * Return: 0 or -ENOMEM.
 */
int ehd__in_open(struct ehd__in *in, int fd, const void *head, size_t n,
		 size_t chunk);
void ehd__in_free(struct ehd__in *in);

/* Bytes in the buffer not taken yet, and where they are. */
static inline size_t ehd__in_avail(const struct ehd__in *in)
{
	return in->len - in->pos;
}

static inline const uint8_t *ehd__in_peek(const struct ehd__in *in)
{
	return in->buf + in->pos;
}

/* The rest of ehd__in_fill(), when the bytes are not all there. */
int ehd__in_fill_more(struct ehd__in *in, size_t n);

/*
 * ehd__in_fill() - have @n bytes not taken yet in the buffer, or all that
 * is left of the input when it ends first (see ehd__in_avail())
 *
 * Return: 0, -ENOMEM or the negative errno of a failed read (the bytes
 * from ehd__in_end() on could not be read).
 */
static inline int ehd__in_fill(struct ehd__in *in, size_t n)
{
	/* Mostly they are there: no call then. */
	if (in->len - in->pos >= n)
		return 0;
	return ehd__in_fill_more(in, n);
}

/*
 * ehd__in_take() - take up to @n bytes
 * @p: gets them, valid until the next fill
 *
 * Return: how many (fewer than @n only at the end of the input), or as
 * ehd__in_fill().
 */
ssize_t ehd__in_take(struct ehd__in *in, size_t n, const uint8_t **p);

/* Take @n of the bytes ehd__in_avail() counts. */
static inline void ehd__in_skip(struct ehd__in *in, size_t n)
{
	in->pos += n;
}

/* Input offset of the next byte to take. */
static inline uint64_t ehd__in_offset(const struct ehd__in *in)
{
	return in->base + in->pos;
}

/* Input offset of the first byte not read from @fd yet. */
static inline uint64_t ehd__in_end(const struct ehd__in *in)
{
	return in->base + in->len;
}

#endif /* EHD_INPUT_H */
