/* SPDX-License-Identifier: MIT */
/*
 * utf8.h - well-formed UTF-8 for the outputs that promise it (libehdecode,
 * private)
 *
 * The decoder renders text as the reference does, which is not always
 * well-formed UTF-8 (lone surrogates as 3-byte sequences, UTF-32 values
 * past U+10FFFF as sequences of up to 7 bytes, bytes of an input that was
 * not UTF-8 at all). Chrome's JSON, Heph strings, the UTF-8 strings of
 * nettrace, and JSON or text on request, must be well-formed: there, what
 * is not is replaced by U+FFFD, one for each maximal part of an
 * ill-formed sequence (Unicode's "substitution of maximal subparts", as
 * browsers and Python decode), and counted.
 */
#ifndef EHD_UTF8_H
#define EHD_UTF8_H

#include <stdbool.h>
#include <stddef.h>

#include "core/ehd-buf.h"

/*
 * ehd__utf8_well_formed() - the length of the well-formed prefix of @s
 * (@n bytes): @n when all of it is
 */
size_t ehd__utf8_well_formed(const char *s, size_t n);

/*
 * ehd__utf8_fix() - make b->p[@from..len) well-formed in place
 * Return: the U+FFFD written (0: it was, and nothing changed).
 */
size_t ehd__utf8_fix(struct ehd_buf *b, size_t from);

/*
 * ehd__utf8_put() - append @n bytes at @s to @b, well-formed
 * Return: the U+FFFD written instead of ill-formed parts.
 */
size_t ehd__utf8_put(struct ehd_buf *b, const char *s, size_t n);

#endif /* EHD_UTF8_H */
