/* SPDX-License-Identifier: MIT */
/*
 * ehd-bytes.h - reading numbers out of event bytes and /proc names,
 * writing bytes as hex, copying ring spans, touching fresh memory
 * (libehdecode, private)
 */
#ifndef EHD_BYTES_H
#define EHD_BYTES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <eventheader/eventheader.h>

/* Is this host big-endian? */
static inline int ehd__host_big(void)
{
	return !(EH_FLAG_DEFAULT & EH_FLAG_LITTLE_ENDIAN);
}

/*
 * Write every page of @n bytes at @p (which hold nothing yet), so that
 * they are faulted in now rather than when first used: a store every 4 KiB
 * reaches each page of any size. Volatile, so that the compiler neither
 * drops the stores nor makes malloc() and them a calloc().
 */
static inline void ehd__touch_pages(void *p, size_t n)
{
	size_t i;

	for (i = 0; i < n; i += 4096)
		((volatile uint8_t *)p)[i] = 0;
}

/* The unsigned value of @size (1..8) bytes at @p, big- or little-endian. */
static inline uint64_t ehd__load_uint(const uint8_t *p, unsigned int size,
				      int big)
{
	uint64_t v = 0;
	unsigned int i;

	for (i = 0; i < size; i++)
		v |= (uint64_t)p[i] << (big ? 8 * (size - 1 - i) : 8 * i);
	return v;
}

/* The host-order 32- and 64-bit words at @p, which need not be aligned. */
static inline uint32_t ehd__get32(const void *p)
{
	uint32_t v;

	memcpy(&v, p, 4);
	return v;
}

static inline uint64_t ehd__get64(const void *p)
{
	uint64_t v;

	memcpy(&v, p, 8);
	return v;
}

/*
 * memcmp() == 0 for the few bytes of an identity, 16 at a time (not
 * glibc's vector memcmp(), which QEMU's TCG runs slowly); the last word
 * is compared where it ends, over bytes already compared.
 */
static inline bool ehd__same_bytes(const uint8_t *a, const uint8_t *b,
				   size_t n)
{
	size_t i;

	if (n < 8) {
		for (i = 0; i < n; i++)
			if (a[i] != b[i])
				return false;
		return true;
	}
	for (i = 0; i + 16 <= n; i += 16)
		if ((ehd__get64(a + i) ^ ehd__get64(b + i)) |
		    (ehd__get64(a + i + 8) ^ ehd__get64(b + i + 8)))
			return false;
	if (n - i > 8 && ehd__get64(a + i) != ehd__get64(b + i))
		return false;
	return i == n || ehd__get64(a + n - 8) == ehd__get64(b + n - 8);
}

/* The decimal id a /proc entry is named by (a pid), or 0 for any other. */
static inline uint32_t ehd__proc_id(const char *s)
{
	uint64_t v = 0;

	if (*s < '1' || *s > '9')
		return 0;
	for (; *s; s++) {
		if (*s < '0' || *s > '9' || v > UINT32_MAX / 10)
			return 0;
		v = v * 10 + (uint64_t)(*s - '0');
	}
	return v <= UINT32_MAX ? (uint32_t)v : 0;
}

/* @n bytes at @p as lowercase hex in @out (2 * @n characters and a NUL). */
static inline void ehd__hex(const uint8_t *p, size_t n, char *out)
{
	static const char digits[] = "0123456789abcdef";
	size_t i;

	for (i = 0; i < n; i++) {
		out[2 * i] = digits[p[i] >> 4];
		out[2 * i + 1] = digits[p[i] & 15];
	}
	out[2 * n] = 0;
}

/*
 * Are the @n bytes after an event's last field more than the padding
 * perf adds to a raw sample? perf pads raw data to 8 bytes (with the
 * u32 size before it) and leaves the padding as the ring held it (in a
 * ring that has wrapped, bytes of earlier records), so up to 7 bytes of
 * any value are padding; more are data no field declares, which no
 * reader shows.
 */
static inline bool ehd__extra_bytes(size_t n)
{
	return n > 7;
}

/*
 * ehd__copy_span16() - copy @n bytes that do not overlap, 64 at a time in
 * 16-byte moves (ehd__copy_span() below says why).
 */
static inline void ehd__copy_span16(uint8_t *d, const uint8_t *s, size_t n)
{
	typedef uint64_t v16 __attribute__((vector_size(16)));
	v16 a, b, c, e;

	for (; n >= 64; n -= 64, d += 64, s += 64) {
		memcpy(&a, s, 16);
		memcpy(&b, s + 16, 16);
		memcpy(&c, s + 32, 16);
		memcpy(&e, s + 48, 16);
		memcpy(d, &a, 16);
		memcpy(d + 16, &b, 16);
		memcpy(d + 32, &c, 16);
		memcpy(d + 48, &e, 16);
	}
	memcpy(d, s, n);
}

#if defined(__x86_64__) && defined(__GNUC__)
#define EHD__COPY_SPAN32 1
/*
 * ehd__copy_span32() - the same, 128 at a time in 32-byte moves, for a
 * CPU with AVX2 (the caller checks): under TCG 1.6 times the rate of
 * 16-byte moves (3.3 against 2.1 GB/s in the test VM); natively the same.
 */
__attribute__((target("avx2")))
static inline void ehd__copy_span32(uint8_t *d, const uint8_t *s, size_t n)
{
	typedef uint64_t v32 __attribute__((vector_size(32)));
	v32 a, b, c, e;

	for (; n >= 128; n -= 128, d += 128, s += 128) {
		memcpy(&a, s, 32);
		memcpy(&b, s + 32, 32);
		memcpy(&c, s + 64, 32);
		memcpy(&e, s + 96, 32);
		memcpy(d, &a, 32);
		memcpy(d + 32, &b, 32);
		memcpy(d + 64, &c, 32);
		memcpy(d + 96, &e, 32);
	}
	memcpy(d, s, n);
}
#endif

/*
 * ehd__copy_span() - copy @n bytes of a ring span (tens or hundreds of
 * KiB), or any such run that does not overlap, in 32-byte moves where the
 * CPU has AVX2, else in 16-byte moves. For such sizes glibc's memcpy()
 * takes "rep movsb": fast on hardware with ERMS, but an emulated CPU
 * (QEMU's TCG, where the test VM runs) does it a byte at a time, several
 * times slower than these loops; natively they are all close (memory
 * bound). bench/copy-bench measures them (bench/run-live.sh prints it in
 * the VM).
 */
static inline void ehd__copy_span(uint8_t *d, const uint8_t *s, size_t n)
{
#ifdef EHD__COPY_SPAN32
	if (n >= 128 && __builtin_cpu_supports("avx2")) {
		ehd__copy_span32(d, s, n);
		return;
	}
#endif
	ehd__copy_span16(d, s, n);
}

/*
 * ehd__copy_small() - copy @n bytes that do not overlap, a word at a time,
 * the last partial word as one that overlaps the word before it: for a
 * payload's tens of bytes, no call (under TCG a call to memcpy() costs
 * more than the copy).
 */
static inline void ehd__copy_small(uint8_t *d, const uint8_t *s, size_t n)
{
	uint64_t w;
	uint32_t h;
	size_t i;

	if (n >= 8) {
		for (i = 0; i + 8 <= n; i += 8) {
			memcpy(&w, s + i, 8);
			memcpy(d + i, &w, 8);
		}
		if (i < n) {
			memcpy(&w, s + n - 8, 8);
			memcpy(d + n - 8, &w, 8);
		}
		return;
	}
	if (n >= 4) {
		memcpy(&h, s, 4);
		memcpy(d, &h, 4);
		memcpy(&h, s + n - 4, 4);
		memcpy(d + n - 4, &h, 4);
		return;
	}
	for (i = 0; i < n; i++)
		d[i] = s[i];
}

#endif /* EHD_BYTES_H */
