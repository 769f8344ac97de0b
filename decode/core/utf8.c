// SPDX-License-Identifier: MIT
/*
 * utf8.c - well-formed UTF-8 for the outputs that promise it (see utf8.h)
 */
#include <stdint.h>
#include <string.h>

#include "core/utf8.h"

static const char replacement[] = "\xef\xbf\xbd";	/* U+FFFD */

/*
 * The well-formed sequence at @s (@n > 0 bytes), by Unicode's table 3-7:
 * its length, or 0 when it is ill-formed, with *@part the bytes of its
 * maximal subpart (what one U+FFFD replaces; at least 1).
 */
static size_t sequence(const uint8_t *s, size_t n, size_t *part)
{
	uint8_t c = s[0], lo = 0x80, hi = 0xbf;
	size_t len, i;

	*part = 1;
	if (c < 0x80)
		return 1;
	if (c >= 0xc2 && c <= 0xdf)
		len = 2;
	else if (c >= 0xe0 && c <= 0xef)
		len = 3;
	else if (c >= 0xf0 && c <= 0xf4)
		len = 4;
	else
		return 0;
	if (c == 0xe0)
		lo = 0xa0;
	else if (c == 0xed)
		hi = 0x9f;	/* no surrogates */
	else if (c == 0xf0)
		lo = 0x90;
	else if (c == 0xf4)
		hi = 0x8f;	/* nothing past U+10FFFF */
	for (i = 1; i < len; i++) {
		if (i >= n || s[i] < lo || s[i] > hi) {
			*part = i;
			return 0;
		}
		lo = 0x80;
		hi = 0xbf;
	}
	return len;
}

size_t ehd__utf8_well_formed(const char *p, size_t n)
{
	const uint8_t *s = (const uint8_t *)p;
	size_t i = 0, k, part;

	while (i < n) {
		if (s[i] < 0x80) {
			i++;
			continue;
		}
		k = sequence(s + i, n - i, &part);
		if (!k)
			break;
		i += k;
	}
	return i;
}

size_t ehd__utf8_put(struct ehd_buf *b, const char *p, size_t n)
{
	const uint8_t *s = (const uint8_t *)p;
	size_t i = 0, good, k, part, fixed = 0;

	while (i < n) {
		good = ehd__utf8_well_formed(p + i, n - i);
		ehd__buf_put(b, p + i, good);
		i += good;
		if (i == n)
			break;
		k = sequence(s + i, n - i, &part);
		(void)k;
		ehd__buf_put(b, replacement, 3);
		i += part;
		fixed++;
	}
	return fixed;
}

size_t ehd__utf8_fix(struct ehd_buf *b, size_t from)
{
	struct ehd_buf t = EHD_BUF_INIT;
	size_t good, fixed;

	if (from >= b->len)
		return 0;
	good = ehd__utf8_well_formed(b->p + from, b->len - from);
	if (from + good == b->len)
		return 0;
	/* Rare: the tail again, fixed, through a copy. */
	fixed = ehd__utf8_put(&t, b->p + from + good, b->len - from - good);
	b->len = from + good;
	ehd__buf_put(b, t.p, t.len);
	if (t.err && !b->err)
		b->err = t.err;
	ehd__buf_free(&t);
	return fixed;
}
