/* SPDX-License-Identifier: MIT */
/*
 * err.h - the error record of libehdecode's readers (private)
 *
 * A reader that fails keeps why in one of these: the negative errno it
 * returns, the input offset where the damage was found and a message.
 * Every reader of a format keeps its own; the front end (reader.c) keeps
 * the one ehd_reader_error() gives, which a failure of the reader of its
 * input is taken into.
 */
#ifndef EHD_ERR_H
#define EHD_ERR_H

#include <stdarg.h>
#include <stdint.h>

/* Bytes of a message, its NUL included (longer ones are cut). */
#define EHD__ERR_MSG 256

/*
 * struct ehd__err - why something failed
 * @err: a negative errno, 0 while nothing failed
 * @off: input offset where it was found
 * @msg: the reason
 */
struct ehd__err {
	int err;
	uint64_t off;
	char msg[EHD__ERR_MSG];
};

/* Set @e (what it had is replaced) and return @err. */
int ehd__err_set(struct ehd__err *e, int err, uint64_t off,
		 const char *fmt, ...) __attribute__((format(printf, 4, 5)));
int ehd__err_vset(struct ehd__err *e, int err, uint64_t off,
		  const char *fmt, va_list ap)
	__attribute__((format(printf, 4, 0)));

/*
 * Take the failure another reader reports as @e's: @err, with its reason
 * @why at @off, or when it gives none ehd_strerror(@err) at offset 0.
 * Return: @err.
 */
int ehd__err_take(struct ehd__err *e, int err, const char *why, uint64_t off);

/* The reason, and its offset in *@off (may be NULL); NULL without one. */
const char *ehd__err_get(const struct ehd__err *e, uint64_t *off);

#endif /* EHD_ERR_H */
