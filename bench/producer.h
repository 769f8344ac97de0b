/* SPDX-License-Identifier: MIT */
/*
 * producer.h - the event measured by bench/producer
 *
 * Shared by producer.c (the kernel backend) and producer-capture.c (the
 * interceptor backend), so that both write the very same event.
 */
#ifndef BENCH_PRODUCER_H
#define BENCH_PRODUCER_H

#include <stddef.h>
#include <stdint.h>

#include <eventheader/eh-provider.h>

/* Tracepoint "EhBench_L4K1". */
#define BENCH_PROVIDER_NAME "EhBench"
#define BENCH_LEVEL EH_LEVEL_INFO
#define BENCH_KEYWORD 1

/* Names of equal length, so every event has the same size. */
#define BENCH_NAMES { "alpha", "bravo", "delta", "gamma" }

/*
 * The measured event: 5 fields whose values take real work (a multiply,
 * an int-to-double division, a table look-up with strlen(), an xor), so a
 * disabled write that evaluated them would show in the timings.
 */
#define BENCH_EVENT(provider, i, names)                                        \
	EH_WRITE(provider, "Bench", EH_LEVEL(BENCH_LEVEL),                     \
		 EH_KEYWORD(BENCH_KEYWORD),                                    \
		 EH_INT32("count", (int32_t)(i) * 7 + 3),                     \
		 EH_UINT64("square", (uint64_t)(i) * (uint64_t)(i)),          \
		 EH_FLOAT64("ratio", (double)(i) / 3.0),                      \
		 EH_STRING_UTF8("name", (names)[(i) & 3]),                    \
		 EH_HEXUINT32("mixed", (uint32_t)(i) ^ 0x5a5a5a5aU))

/* Payload bytes of the 5 fields, in order (the string is "xxxxx\0"). */
#define BENCH_FIELD_SIZES { 4, 8, 8, 6, 4 }
#define BENCH_FIELDS 5

/*
 * bench_capture() - the bytes BENCH_EVENT(i) makes, write index excluded
 * @i: the value the event is built from
 * @buf: where the event goes
 * @size: room in @buf
 *
 * Writes the event with the interceptor backend to a temporary file and
 * reads it back (producer-capture.c).
 *
 * Return: the event's size, or -1 with a message on stderr.
 */
long bench_capture(uint32_t i, unsigned char *buf, size_t size);

#endif /* BENCH_PRODUCER_H */
