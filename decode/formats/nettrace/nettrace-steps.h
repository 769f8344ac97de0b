/* SPDX-License-Identifier: MIT */
/*
 * nettrace-steps.h - the tight loop that converts the payloads of most
 * event types: copies and zero-terminated 8-bit strings widened to UTF-16
 * (libehdecode, private)
 *
 * An event type whose payload program is only that (nettrace-map.c,
 * find_fixed_size()) has it said as steps, each a copy followed by a
 * string. The loop is inline here so that a writer's hot path runs it
 * without a call (ehd__ntm_convert_inline()): its state (where it reads,
 * where it writes, the result) then stays in registers. Elsewhere
 * ehd__ntm_convert() is the same, out of line.
 */
#ifndef EHD_NETTRACE_STEPS_H
#define EHD_NETTRACE_STEPS_H

#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "core/ehd-buf.h"
#include "core/ehd-bytes.h"
#include "formats/nettrace/nettrace-format.h"
#include "formats/nettrace/nettrace-map.h"

/*
 * struct ehd__ntm_step - a step of a simple program: @copy bytes as they
 * are, then a zero-terminated 8-bit string widened to UTF-16, unless @str
 * is EHD__STEP_END (the last step)
 */
struct ehd__ntm_step {
	size_t copy;
	uint8_t str;
};

enum { EHD__STEP_END, EHD__STEP_UTF8, EHD__STEP_LATIN1 };

/*
 * ehd__ntm_utf16() - @n bytes of 8-bit text at @p (Latin-1 with @latin1,
 * else UTF-8, ill-formed bytes taken as Latin-1) appended to @out as
 * UTF-16LE, without a terminator; code points past U+FFFF as surrogate
 * pairs (nettrace-map.c)
 */
void ehd__ntm_utf16(const struct ehd__ntm *m, const uint8_t *p, size_t n,
		    bool latin1, struct ehd_buf *out,
		    struct ehd__ntm_result *res);

#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
/* The 4 bytes of @v as 4 UTF-16LE units. */
static inline uint64_t ehd__widen4(uint64_t v)
{
	v &= 0xffffffffu;
	v = (v | v << 16) & 0x0000ffff0000ffffull;
	return (v | v << 8) & 0x00ff00ff00ff00ffull;
}

/*
 * How many bytes from @p on are ASCII and not 0 (any but 0 when @latin1),
 * 8 at a time while 8 are there before @end, each widened to UTF-16LE at
 * @d; the rest, fewer than 8, are the caller's. Up to 16 bytes past what
 * it widens are written over (the caller's room is twice its input).
 */
static inline size_t ehd__widen_run(uint8_t *d, const uint8_t *p,
				    const uint8_t *end, bool latin1)
{
	const uint64_t ones = 0x0101010101010101ull, highs = ones << 7;
	uint64_t v, stop, lo, hi;
	size_t k = 0;

	while (end - (p + k) >= 8) {
		memcpy(&v, p + k, 8);
		/* the lowest flagged byte is the first 0 (or non-ASCII) one */
		stop = (v - ones) & ~v & highs;
		if (!latin1)
			stop |= v & highs;
		lo = ehd__widen4(v);
		hi = ehd__widen4(v >> 32);
		memcpy(d + 2 * k, &lo, 8);
		memcpy(d + 2 * k + 8, &hi, 8);
		if (stop)
			return k + (size_t)__builtin_ctzll(stop) / 8;
		k += 8;
	}
	return k;
}
#else
static inline size_t ehd__widen_run(uint8_t *d, const uint8_t *p,
				    const uint8_t *end, bool latin1)
{
	(void)d; (void)p; (void)end; (void)latin1;
	return 0;
}
#endif

/*
 * ehd__ntm_run_steps() - convert @size bytes at @src by @m's steps
 * (@m->nsteps is not 0), as ehd__ntm_convert() does: the output is at
 * most twice the input (a byte becomes at most one UTF-16 unit, the
 * terminator one unit), so room is taken once and written without checks
 */
static inline int ehd__ntm_run_steps(const struct ehd__ntm *m,
				     const uint8_t *src, size_t size,
				     struct ehd_buf *out,
				     struct ehd__ntm_result *res)
{
	const struct ehd__ntm_step *st = m->steps;
	const uint8_t *p = src, *end = src + size, *z;
	size_t start = out->len, k, n;
	const char *why = NULL;
	uint8_t *d;
	bool latin1;

	res->lossy = 0;
	if (ehd__buf_reserve(out, 2 * size + 2))
		return out->err;
	d = (uint8_t *)out->p + start;
	for (;; st++) {
		if ((size_t)(end - p) < st->copy) {
			why = "value past the end";
			break;
		}
		ehd__copy_small(d, p, st->copy);
		d += st->copy;
		p += st->copy;
		if (st->str == EHD__STEP_END)
			break;
		/* ASCII is widened as the terminator is looked for. */
		latin1 = st->str == EHD__STEP_LATIN1;
		for (k = ehd__widen_run(d, p, end, latin1);
		     p + k < end && p[k] && (p[k] < 0x80 || latin1); k++) {
			d[2 * k] = p[k];
			d[2 * k + 1] = 0;
		}
		for (z = p + k; z < end && *z; z++)
			;
		if (z == end) {
			why = "string not terminated";
			break;
		}
		d += 2 * k;
		if (p + k < z) {
			/* Not ASCII: the general decoding, on from there. */
			out->len = (size_t)(d - (uint8_t *)out->p);
			ehd__ntm_utf16(m, p + k, (size_t)(z - p) - k, latin1,
				       out, res);
			d = (uint8_t *)out->p + out->len;
		}
		d[0] = d[1] = 0;
		d += 2;
		p = z + 1;
	}
	n = (size_t)(d - (uint8_t *)out->p) - start;
	out->len = start;
	res->why = why;
	res->extra = false;
	if (why) {
		res->where = (size_t)(p - src);
		return -EBADMSG;
	}
	if (out->err)
		return out->err;
	if (n > EHD__NT_PAYLOAD_MAX)
		return -E2BIG;
	out->len += n;
	out->p[out->len] = 0;	/* the buffer's promise (ehd-buf.h) */
	res->extra = ehd__extra_bytes((size_t)(end - p));
	return 0;
}

/*
 * ehd__ntm_convert_ops() - convert by @m's program when it has no steps,
 * as ehd__ntm_convert() does (nettrace-map.c)
 */
int ehd__ntm_convert_ops(const struct ehd__ntm *m, const uint8_t *src,
			 size_t size, struct ehd_buf *out,
			 struct ehd__ntm_result *res);

/*
 * ehd__ntm_convert_inline() - ehd__ntm_convert() where it is called for
 * every event: the steps run here, without a call
 */
static inline int ehd__ntm_convert_inline(const struct ehd__ntm *m,
					  const uint8_t *src, size_t size,
					  struct ehd_buf *out,
					  struct ehd__ntm_result *res)
{
	if (m->nsteps)
		return ehd__ntm_run_steps(m, src, size, out, res);
	return ehd__ntm_convert_ops(m, src, size, out, res);
}

#endif /* EHD_NETTRACE_STEPS_H */
